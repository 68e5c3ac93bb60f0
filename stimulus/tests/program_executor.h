// A minimal executor of a Program on the golden model, for tests of the generators.
#pragma once

#include <string>
#include <vector>

#include "dla/golden_model.h"
#include "dla/program.h"

namespace dla::test {

struct ExecResult {
  std::vector<std::string> failures;  // RegRead / CheckMem expectations the golden model did not meet, hangs
  size_t reads = 0, waits = 0;
};

// Runs every op; a WaitIntr whose bits are not all set is a failure (it would hang).
ExecResult execute(const Program& p, GoldenModel& m);

// Register writes and memory loads of a program, as text (for comparing two programs: a knob
// left off must not change the default program).
std::string writes_and_loads(const Program& p);

}  // namespace dla::test
