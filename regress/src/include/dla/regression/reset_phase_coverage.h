// Code coverage without the reset phase's toggles. The models start from random register
// values (randReset), so nearly every flop bit changes once when reset forces its value: left
// in, those changes make toggle coverage read 100 % whatever the tests do. The coverage models
// therefore write their counters at reset release and zero them; at the end the two files are
// combined: line and branch points keep the reset phase's hits (reset branches are real code),
// toggle points count only what happened after reset. docs/coverage.md, "Code coverage".
#pragma once
#include <string>

namespace dla::regression {

// Adds the line/branch/expression counts of `reset_snapshot` (a Verilator coverage file written
// at reset release) into the coverage file `final_file` (written at the end, after the counters
// were zeroed at release), leaving its toggle counts alone; rewrites `final_file` in place.
// std::runtime_error naming the file and line when either file is unreadable or malformed, or
// when the two files do not hold the same points.
void add_reset_phase_hits(const std::string& final_file, const std::string& reset_snapshot);

}  // namespace dla::regression
