// A whole regression: plan -> jobs -> launcher -> outcomes (result store as they finish)
// -> merged coverage, JUnit XML and HTML report. Used by `dlaverif regress`.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "dla/regression/local_launcher.h"

namespace dla::regression {

struct RegressOptions {
  std::string plan_path;
  std::string level = "smoke";
  unsigned parallel = 2;
  uint64_t seeds = 0;          // > 0: seeds per entry instead of the plan's counts
  std::vector<std::string> configs;  // non-empty: only the plan entries of these configurations
  std::string out_dir = "regress-out";
  std::string launcher = "local";  // local | slurm
  bool resume = false;         // finish the regression in out_dir
  bool collect = false;        // slurm: gather results of the submitted array
  bool submit = false;         // slurm: sbatch the array, follow it with squeue, then collect
  double poll_seconds = 5;     // slurm --submit: squeue interval
  std::string db_path;         // default <out_dir>/results.db
  std::string dlaverif;        // binary each test runs with; default this executable
  bool quiet = false;           // not on a terminal: print failures only, not every test
  size_t stop_after = 0;       // testing the runner: stop as if interrupted after N results
  bool code_coverage = false;  // run the tests with dlaverif-cov and merge Verilator line/toggle coverage
  std::string code_coverage_waivers;  // reviewed waiver file of unreachable lines and toggles (YAML)
  std::string code_coverage_goals;    // "line=95,toggle=90": checked per configuration and unit (exit 1 when missed)
  // Out dirs of other finished --code-coverage runs whose tests' coverage files join this run's
  // merge and closure (e.g. the default plan's run and the conv plan's run of one configuration).
  std::vector<std::string> code_coverage_from;
  bool close_coverage = false; // after the plan: screen golden-only candidates, run those that hit holes
  size_t closure_candidates = 200;  // (knob setting, seed) pairs screened
  size_t closure_tests = 20;        // closure tests run at most
  uint64_t closure_seed = 1;        // seeds the candidates' knob mixes and seeds
  std::string command_line;
  // Starts the tests of a local run whose binary is this executable (owned by the caller, who
  // creates it first thing, while the process is small). Null: fork + exec.
  TestForkServer* fork_server = nullptr;
  bool exec_tests = false;     // --exec-tests: every test is fork + exec (cmd_regress creates no fork server)
};

// Exit code: 0 every test passed, 1 some failed, 2 bad input, 130 interrupted (resumable).
int run_regression(const RegressOptions& opt, std::ostream& out, std::ostream& err);

constexpr int kExitInterrupted = 130;

}  // namespace dla::regression
