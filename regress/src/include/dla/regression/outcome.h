// What the regression records for one finished job: the test's own result.json when it got
// that far, otherwise what the process did (crash, kill, timeout), always with a signature.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "dla/regression/job.h"

namespace dla::regression {

// How the test process ended.
struct ProcessEnd {
  int exit_code = -1;    // -1 when killed by a signal
  int signal = 0;        // terminating signal, 0 when it exited
  bool timed_out = false;
  double wall_seconds = 0;
};

struct Outcome {
  std::string job_id, entry, config, test;
  uint64_t seed = 0;
  nlohmann::json knobs = nlohmann::json::object();
  bool golden_only = false;
  std::string axi_profile = "random";
  std::string status;     // pass | fail | error | crash | timeout
  std::string signature;  // empty on pass
  std::string summary;
  uint64_t cycles = 0;
  double wall_seconds = 0;  // the process, as the runner saw it
  double test_seconds = 0;  // inside the test: generating its program and running it (result.json wall_seconds)
  // The test process's own account of the rest of its wall time (result.json process_seconds):
  // "startup", "setup", "record" in seconds; empty for a crash or an older result.json.
  std::map<std::string, double> process_seconds;
  std::string result_dir;   // relative to the regression's out dir
  std::string repro;        // `dlaverif run ...` line
  std::string coverage_file;  // relative to the out dir; empty: none
  double coverage_percent = 0;

  bool passed() const { return status == "pass"; }
  nlohmann::json to_json() const;
  static Outcome from_json(const nlohmann::json& j);
};

// Builds the outcome from <out_dir>/<job.dir()>/result.json (when the process ended normally
// and wrote one) or from how the process ended.
Outcome classify(const Job& job, const std::string& out_dir, const ProcessEnd& end);

// Name of the runner's record in a job directory (written last, atomically: its presence
// means the job is finished).
constexpr const char* kOutcomeFile = "outcome.json";
void save_outcome(const Outcome& o, const std::string& out_dir);
// nullopt-like: returns false when the job has no (readable) outcome yet.
bool load_outcome(const Job& job, const std::string& out_dir, Outcome& o);

std::string signal_name(int sig);

}  // namespace dla::regression
