// One test of a regression: a plan entry at one seed, run as its own `dlaverif run` process.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dla/regression/plan.h"
#include "dla/simulation.h"
#include "dla/warning_log.h"

namespace dla::regression {

struct Job {
  std::string id;     // "<entry>/<seed>": unique in the regression, also its directory
  std::string entry;
  std::string config, test;
  uint64_t seed = 0;
  std::map<std::string, std::string> knobs;
  bool golden_only = false;
  std::string dut = "rtl";       // dlaverif run --dut
  std::string axi_profile = "random";
  double timeout_seconds = 600;
  uint64_t watchdog_cycles = 0;  // 0: dlaverif run's default
  std::string perf_tolerance;    // dlaverif run --perf-tolerance; empty: its default
  std::vector<std::string> covergroups;
  std::vector<std::string> extra_args;  // appended to `run` (mutation grading: --set-signal ...)

  // Arguments after the program name: run --config ... --out <out_dir>/<dir()>.
  std::vector<std::string> run_args(const std::string& out_dir) const;
  std::string dir() const { return "tests/" + id; }
};

// Every job of the plan at `level`, in plan order; `seeds_override` > 0 replaces every
// entry's seed count. An entry for a DUT other than the configured one ("dut: nvdla") whose
// model this build lacks is left out; `skipped` (when given) gets the reason, with the entry's
// name as the subject (entries skipped for the same reason print as one line).
std::vector<Job> expand(const Plan& plan, Level level, uint64_t seeds_override = 0,
                        WarningLog* skipped = nullptr);

// Why `model` cannot run `test` (a convolution test on a model without the pipeline, a RUBIK
// test without RUBIK), with the build option that adds it; empty when it can. An unknown
// test name throws std::invalid_argument.
std::string model_lacks_unit(const std::string& test, const tb::ModelInfo& model);

}  // namespace dla::regression
