// Reports of a finished regression: JUnit XML for CI systems and one static HTML page
// (summary, failure buckets with repro commands, coverage per covergroup with its bins,
// pass-rate and coverage trends over past runs as inline SVG). No server, no scripts.
#pragma once

#include <string>
#include <vector>

#include "dla/coverage/coverage_data.h"
#include "dla/regression/code_coverage.h"
#include "dla/regression/outcome.h"
#include "dla/regression/results_db.h"

namespace dla::regression {

// Coverage closure of a run (--close-coverage): functional coverage before and after the
// closure tests, and what was screened.
struct ClosureReport {
  bool done = false;
  double before = 0, after = 0;
  size_t holes_before = 0, holes_after = 0, screened = 0, rejected = 0;
  std::vector<std::string> kept;  // job ids of the closure tests
  std::string plan;               // rerunnable plan of the closure tests (relative to the out dir)
};

// Verilator line/toggle coverage merged over the run (--code-coverage).
struct CodeCoverageReport {
  bool done = false;
  size_t tests_merged = 0;
  std::vector<FileCodeCoverage> units, files;
  FileCodeCoverage total;
  std::string html;  // genhtml index (relative to the out dir); empty when not rendered
};

struct ReportInput {
  RunInfo run;
  std::vector<Outcome> outcomes;
  cov::CoverageData coverage;     // merged functional coverage of the run
  std::vector<RunInfo> history;   // finished runs, oldest first (this one included)
  std::string out_dir;            // absolute; repro commands point into it
  ClosureReport closure;
  CodeCoverageReport code;
  std::string ranked_plan;        // smallest seed set keeping the coverage (relative); empty: none
  size_t ranked_tests = 0;
};

// Failures grouped by signature bucket, largest first. The bucket of a signature masks the
// values in it (digits after '=', hex literals), so "csb.queued=28" and "=29" land together.
std::string bucket_of(const std::string& signature);
struct Bucket {
  std::string signature;  // the bucket (masked signature)
  std::vector<const Outcome*> outcomes;
};
std::vector<Bucket> failure_buckets(const std::vector<Outcome>& outcomes);

std::string junit_xml(const ReportInput& in);
std::string html_report(const ReportInput& in);

// A line plot of values in [0, 100] (percentages) as an <svg> element.
std::string svg_percent_plot(const std::string& title, const std::vector<std::string>& labels,
                             const std::vector<double>& values);

std::string xml_escape(const std::string& s);

}  // namespace dla::regression
