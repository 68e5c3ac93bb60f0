// Mutation grading of one unit: every mutant runs the plan's tests for that unit, each test its
// own process of the mutant model's binary with the mutant selected, until a test fails (the
// mutant is killed) or all pass (it survives), within a wall-time budget per mutant.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dla/mutation/mutant.h"
#include "dla/regression/job.h"
#include "dla/regression/outcome.h"

namespace dla::mutation {

struct GradeOptions {
  std::string model_binary;     // dlaverif-mut-<cfg>-<unit>
  std::string out_dir;          // test directories go to <out_dir>/tests/...
  unsigned parallel = 1;
  double budget_seconds = 120;  // per mutant, over all of its tests
  uint32_t count = 0;           // grade mutants 1..count (0: all)
  std::vector<uint32_t> only;   // when not empty: grade exactly these mutants
  std::vector<Waiver> waivers;
};

// One test of the plan on the unmutated selection (mutsel = 0).
struct BaselineTest {
  regression::Job job;
  std::string status, signature;
  uint64_t cycles = 0;
  uint64_t output_digest = 0;
  std::vector<uint32_t> active;  // mut_active words: mutation k changed its signal in this test
  double seconds = 0;
};

struct Grading {
  std::vector<BaselineTest> baseline;     // every test; only passing ones grade mutants
  std::vector<MutantResult> results;      // one per graded mutant, in id order
  double seconds = 0;
  bool interrupted = false;
};

// What one test run of a mutant says about it. A run that could not be started (exit 127:
// the model binary is missing or was replaced while grading) says nothing: counting it as a
// kill would report a mutant caught that no test saw.
enum class MutantTestVerdict { Passed, Killed, TimedOut, NotStarted };
MutantTestVerdict mutant_test_verdict(const regression::Outcome& o);

// Progress: called after the baseline and after each mutant is decided.
using GradeProgress = std::function<void(const std::string& line)>;

// std::invalid_argument when no test of the baseline passes (nothing could kill a mutant).
Grading grade(const MutantList& mutants, const std::vector<regression::Job>& jobs, const GradeOptions& opt,
              const GradeProgress& progress);

}  // namespace dla::mutation
