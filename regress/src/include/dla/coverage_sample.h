// Functional coverage of one finished test: samples the unit coverage models over what the
// test ran and writes the per-test sample file that the regression merges.
#pragma once

#include <string>

#include "dla/run_request.h"

namespace dla {

// File name of the sample inside a test's out dir (next to result.json).
constexpr const char* kCoverageSampleFile = "coverage.json";

// Samples the coverage of `res` (nothing for an Error verdict). With `out_dir`, writes
// <out_dir>/coverage.json and sets res.coverage_path. A hit illegal bin turns a pass into a
// fail with signature "coverage:illegal:<group>.<item>.<bin>".
void record_coverage(RunResult& res, const std::string& out_dir);

}  // namespace dla
