#include <sstream>

#include "dla/build_info.h"
#include "dla/run_request.h"

namespace dla {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Error: return "error";
  }
  return "?";
}

std::string RunResult::repro_command() const {
  std::ostringstream os;
  os << "dlaverif run --config " << request.config << " --test " << request.test << " --seed "
     << request.seed;
  if (request.golden_only) os << " --golden-only";
  if (request.dut != RunRequest{}.dut) os << " --dut " << request.dut;
  if (!request.initial_state.empty()) os << " --initial-state " << request.initial_state;
  if (request.reset_idle_cycles) os << " --reset-idle-cycles " << *request.reset_idle_cycles;
  if (request.axi_profile != "random") os << " --axi-profile " << request.axi_profile;
  if (request.watchdog_cycles != RunRequest{}.watchdog_cycles) os << " --watchdog " << request.watchdog_cycles;
  if (!request.perf_tolerance.empty()) os << " --perf-tolerance " << request.perf_tolerance;
  for (const auto& [k, v] : request.knobs) os << " --knob " << k << "=" << v;
  for (const auto& p : request.planted_bugs) os << " --plant " << p;
  for (const auto& [name, value] : request.signal_settings) os << " --set-signal " << name << "=" << value;
  return os.str();
}

nlohmann::json RunResult::to_json() const {
  const BuildInfo& b = build_info();
  nlohmann::json j;
  j["test"] = {{"config", request.config}, {"name", request.test}, {"seed", request.seed},
               {"knobs", request.knobs}, {"golden_only", request.golden_only},
               {"axi_profile", request.axi_profile},
               {"watchdog_cycles", request.watchdog_cycles},
               {"perf_tolerance", request.perf_tolerance},
               {"planted_bugs", request.planted_bugs}};
  if (!request.signal_settings.empty()) j["test"]["signal_settings"] = request.signal_settings;
  j["test"]["dut"] = request.dut;
  if (!request.initial_state.empty()) j["test"]["initial_state"] = request.initial_state;
  if (request.reset_idle_cycles) j["test"]["reset_idle_cycles"] = *request.reset_idle_cycles;
  j["verdict"] = verdict_name(verdict);
  j["signature"] = signature;
  j["summary"] = summary;
  j["cycles"] = cycles;
  j["wall_seconds"] = wall_seconds;
  j["golden_seconds"] = golden_seconds;
  j["eval_seconds"] = eval_seconds;
  j["generate_seconds"] = generate_seconds;
  if (!process_seconds.empty()) j["process_seconds"] = process_seconds;
  j["notes"] = notes;
  j["warnings"] = warnings;
  j["details"] = details;
  j["repro"] = repro_command();
  j["coverage"] = {{"path", coverage_path}, {"percent", coverage_percent}};
  j["command_line"] = request.command_line;
  j["build"] = {{"git_revision", b.git_revision}, {"compiler", b.compiler},
                {"verilator", b.verilator}, {"dut_top", b.dut_top}};
  return j;
}

}  // namespace dla
