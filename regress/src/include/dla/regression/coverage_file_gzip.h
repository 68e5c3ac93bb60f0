// Per-test code-coverage files are kept gzip-compressed. A Verilator coverage file lists every
// point of the model with its count, hit or not (~10 MB on small, more on v1), so a nightly run
// of a thousand tests would hold ~10 GB of nearly identical text; compressed it is ~25x smaller.
// The coverage models compress their file when they write it (coverage.dat -> coverage.dat.gz);
// the merge expands each batch to a scratch folder for verilator_coverage, which reads plain text.
#pragma once
#include <stdexcept>
#include <string>

namespace dla::regression {

// Replaces `path` by `path`.gz (written to a .tmp file first, then renamed; `path` is removed
// only once the .gz is complete). std::runtime_error naming the file when it cannot be read or
// the compressed file cannot be written; `path` is left in place then.
void gzip_coverage_file(const std::string& path);

// Writing a file failed (disk full, no permission): unlike a bad input file, a reason to stop.
struct CoverageFileWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Expands the gzip file `gz` into `out` (overwritten). std::runtime_error naming `gz` when it is
// unreadable or not gzip data (a truncated file included); CoverageFileWriteError naming `out`
// when it cannot be written.
void gunzip_coverage_file(const std::string& gz, const std::string& out);

}  // namespace dla::regression
