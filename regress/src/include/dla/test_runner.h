// Runs one test: builds its Program from the generator and the seed, plays it on the
// golden model and (unless golden-only) on the Verilated RTL, and lets the scoreboard judge.
#pragma once

#include "dla/program.h"
#include "dla/run_request.h"

namespace dla {

// Never throws for test failures; input errors (unknown config/test/knob) give
// Verdict::Error with the message in `summary`.
RunResult run_test(const RunRequest& req);

// Play an already-built program (used by run_test and by trace playback).
RunResult run_program(const RunRequest& req, const Program& program);

}  // namespace dla
