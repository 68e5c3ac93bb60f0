// The regression's code-coverage step: merges the tests' coverage files (coverage.dat.gz) with
// verilator_coverage, converts the result to lcov's format and renders it with genhtml.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "dla/regression/code_coverage.h"

namespace dla::regression {

struct MergedCodeCoverage {
  bool merged = false;     // merged.dat exists and was read
  bool html = false;       // genhtml rendered html/index.html
  std::string dir;         // <out>/coverage/code
  std::string merged_dat;  // <dir>/merged.dat
  size_t files = 0;        // per-test coverage files merged
  CodeCoverage data;       // what merged.dat holds (file names absolute where they exist)
};

// Merges `dat_files` into <dir>/merged.dat, writes merged.info (lcov), html/ (genhtml),
// lines.tsv (file, line, hits) and summary.json. A missing tool or a failing step is a
// warning on `err` (the tools' output goes to <dir>/tools.log); what worked is kept.
MergedCodeCoverage merge_code_coverage(const std::vector<std::string>& dat_files, const std::string& dir,
                                       std::ostream& err);

// Every code-coverage file of a test directory (coverage.dat.gz, coverage-2.dat.gz, ...; the
// uncompressed coverage.dat of older runs or of a model that could not compress it too).
std::vector<std::string> code_coverage_files(const std::string& test_dir);

}  // namespace dla::regression
