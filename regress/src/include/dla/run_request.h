// What one test run is asked to do, and what it produced.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dla/coverage/control_event.h"
#include "dla/hwconfig.h"
#include "dla/unit_model.h"

namespace dla {

enum class Verdict { Pass, Fail, Error };  // Error: bad input or an impossible request
const char* verdict_name(Verdict v);
inline std::ostream& operator<<(std::ostream& os, Verdict v) { return os << verdict_name(v); }

struct RunRequest {
  std::string config = HwConfig::default_config().name;
  std::string test;
  uint64_t seed = 1;
  bool golden_only = false;
  std::string dut = "rtl";          // which built DUT of the configuration (tb::ModelInfo::dut)
  std::string initial_state;        // "random" | "zero"; empty: the model's configure-time default
  std::optional<uint64_t> reset_idle_cycles;  // unset: the model's configure-time default
  std::string waves_path;           // empty: no waves
  uint64_t waves_last_cycles = 0;   // 0: whole run
  std::string axi_profile = "random";
  uint64_t watchdog_cycles = 200000;
  std::string perf_tolerance;       // performance budget tolerance: "" default, a number >= 1, or "off"
  std::map<std::string, std::string> knobs;
  std::vector<std::string> planted_bugs;  // golden-model plants (checker proofs only)
  std::map<std::string, uint64_t> signal_settings;  // model controls (tb::SimOptions), e.g. a mutant selector
  std::vector<std::string> read_signals;  // public model signals recorded in details["signals"] at the end
  std::string command_line;         // as typed, for the record and the repro line
};

struct RunResult {
  RunRequest request;
  Verdict verdict = Verdict::Error;
  std::string signature;            // empty on pass
  std::string summary;              // one line
  std::string report;               // multi-line mismatch report (may be empty)
  uint64_t cycles = 0;              // simulated DUT cycles (0 in golden-only runs)
  double wall_seconds = 0;          // the test: run_program, plus building the program in run_test
  double golden_seconds = 0;
  double eval_seconds = 0;          // time inside the Verilated model's eval
  double generate_seconds = 0;      // building the program (run_test; included in wall_seconds)
  // The test process around the test (dlaverif run): "startup" (the runner's spawn to main, when
  // the runner said when it spawned), "setup" (main to the generator), "record" (coverage sample
  // and its file, verdict lines). Read by the regression runner's overhead breakdown.
  std::map<std::string, double> process_seconds;
  std::vector<std::string> notes;   // what the generator produced
  std::vector<std::string> warnings;// golden-model diagnostics (illegal settings etc.)
  nlohmann::json details;           // scoreboard JSON, stats
  std::vector<LayerRecord> layers;  // what the golden model ran (coverage samples these)
  std::vector<cov::ControlEvent> control;  // the program's register traffic (coverage samples it)
  std::string coverage_path;        // per-test functional coverage sample file; empty: none
  double coverage_percent = 0;      // of that sample, over the configuration's covergroups

  std::string repro_command() const;
  nlohmann::json to_json() const;
};

}  // namespace dla
