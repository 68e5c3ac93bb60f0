#include "dla/regression/outcome.h"

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace dla::regression {

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return "SIG" + std::to_string(sig);
  }
}

nlohmann::json Outcome::to_json() const {
  return {{"job", job_id}, {"entry", entry}, {"config", config}, {"test", test}, {"seed", seed},
          {"knobs", knobs}, {"golden_only", golden_only}, {"axi_profile", axi_profile}, {"status", status}, {"signature", signature}, {"summary", summary},
          {"cycles", cycles}, {"wall_seconds", wall_seconds}, {"test_seconds", test_seconds},
          {"result_dir", result_dir}, {"repro", repro}, {"coverage_file", coverage_file},
          {"coverage_percent", coverage_percent}, {"process_seconds", process_seconds}};
}

Outcome Outcome::from_json(const nlohmann::json& j) {
  Outcome o;
  o.job_id = j.at("job").get<std::string>();
  o.entry = j.at("entry").get<std::string>();
  o.config = j.at("config").get<std::string>();
  o.test = j.at("test").get<std::string>();
  o.seed = j.at("seed").get<uint64_t>();
  o.knobs = j.at("knobs");
  o.golden_only = j.at("golden_only").get<bool>();
  o.axi_profile = j.at("axi_profile").get<std::string>();
  o.status = j.at("status").get<std::string>();
  o.signature = j.at("signature").get<std::string>();
  o.summary = j.at("summary").get<std::string>();
  o.cycles = j.at("cycles").get<uint64_t>();
  o.wall_seconds = j.at("wall_seconds").get<double>();
  o.test_seconds = j.at("test_seconds").get<double>();
  o.result_dir = j.at("result_dir").get<std::string>();
  o.repro = j.at("repro").get<std::string>();
  o.coverage_file = j.at("coverage_file").get<std::string>();
  o.coverage_percent = j.at("coverage_percent").get<double>();
  if (j.contains("process_seconds")) o.process_seconds = j["process_seconds"].get<std::map<std::string, double>>();
  return o;
}

namespace {

std::string plain_repro(const Job& job) {
  std::string s = "dlaverif";
  const auto args = job.run_args("");
  for (size_t i = 0; i + 2 < args.size(); ++i) s += " " + args[i];  // without --out DIR
  return s;
}

std::string text(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || !it->is_string() ? std::string() : *it->get_ptr<const std::string*>();
}

bool read_result(const fs::path& path, nlohmann::json& j) {
  std::ifstream f(path);
  if (!f) return false;
  try {
    f >> j;
    return j.is_object() && j.contains("verdict");
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace

Outcome classify(const Job& job, const std::string& out_dir, const ProcessEnd& end) {
  Outcome o;
  o.job_id = job.id;
  o.entry = job.entry;
  o.config = job.config;
  o.test = job.test;
  o.seed = job.seed;
  o.knobs = job.knobs;
  o.golden_only = job.golden_only;
  o.axi_profile = job.axi_profile;
  o.wall_seconds = end.wall_seconds;
  o.result_dir = job.dir();
  o.repro = plain_repro(job);
  const fs::path dir = fs::path(out_dir) / job.dir();
  nlohmann::json r;
  if (end.timed_out) {
    o.status = "timeout";
    o.signature = "timeout";
    o.summary = "killed after the plan's timeout of " + std::to_string(static_cast<long>(job.timeout_seconds)) + " s";
  } else if (end.signal != 0) {
    o.status = "crash";
    o.signature = "crash:" + signal_name(end.signal);
    o.summary = "the test process died of " + signal_name(end.signal) + " (" + strsignal(end.signal) + ")";
  } else if (end.exit_code < 0 || end.exit_code > 2 || !read_result(dir / "result.json", r)) {
    o.status = "crash";
    o.signature = "crash:exit-" + std::to_string(end.exit_code);
    o.summary = "the test process exited with code " + std::to_string(end.exit_code) + " without a result record";
  } else {
    o.status = text(r, "verdict");
    if (o.status.empty()) o.status = "error";
    o.signature = text(r, "signature");
    o.summary = text(r, "summary");
    o.cycles = r.value("cycles", uint64_t{0});
    o.test_seconds = r.value("wall_seconds", 0.0);
    try {
      if (r.contains("process_seconds"))
        o.process_seconds = r["process_seconds"].get<std::map<std::string, double>>();
    } catch (const nlohmann::json::exception&) {
      o.process_seconds.clear();  // a breakdown is only informative; never fail a result on it
    }
    if (r.contains("repro") && r["repro"].is_string()) o.repro = r["repro"].get<std::string>();
    if (r.contains("coverage") && r["coverage"].is_object()) {
      o.coverage_percent = r["coverage"].value("percent", 0.0);
      if (!text(r["coverage"], "path").empty() && fs::exists(dir / "coverage.json"))
        o.coverage_file = job.dir() + "/coverage.json";
    }
    if (o.status == "error" && o.signature.empty()) o.signature = "error";
  }
  return o;
}

void save_outcome(const Outcome& o, const std::string& out_dir) {
  const fs::path dir = fs::path(out_dir) / o.result_dir;
  fs::create_directories(dir);
  const fs::path tmp = dir / (std::string(kOutcomeFile) + ".tmp");
  {
    std::ofstream f(tmp);
    f << o.to_json().dump(1) << "\n";
    f.flush();
    if (!f) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, dir / kOutcomeFile);  // atomic: a reader sees the whole record or none
}

bool load_outcome(const Job& job, const std::string& out_dir, Outcome& o) {
  std::ifstream f(fs::path(out_dir) / job.dir() / kOutcomeFile);
  if (!f) return false;
  try {
    nlohmann::json j;
    f >> j;
    o = Outcome::from_json(j);
    return o.job_id == job.id;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace dla::regression
