#include "dla/result_io.h"

#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "dla/cli_command.h"

namespace fs = std::filesystem;

namespace dla::cli {

std::map<std::string, std::string> parse_knobs(const std::vector<std::string>& items) {
  std::map<std::string, std::string> knobs;
  for (const auto& k : items) {
    const auto eq = k.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--knob '" + k + "' is not NAME=VALUE");
    knobs[k.substr(0, eq)] = k.substr(eq + 1);
  }
  return knobs;
}

std::function<void()> add_dut_options(CLI::App* cmd, RunRequest& req) {
  cmd->add_option("--dut", req.dut,
                  "which built DUT of the configuration runs: rtl (the configured RTL) or nvdla (NVIDIA's RTL, "
                  "DLA_NVDLA_RTL); `dlaverif list` shows the models")
      ->capture_default_str();
  cmd->add_option("--initial-state", req.initial_state,
                  "what unreset flops and memories hold: random|zero (default: the model's, see `dlaverif list`)")
      ->check(CLI::IsMember({"random", "zero"}));
  auto idle = std::make_shared<uint64_t>(0);
  CLI::Option* idle_opt = cmd->add_option("--reset-idle-cycles", *idle,
                                          "idle clock cycles after reset before the first register access "
                                          "(default: the model's)");
  return [idle, idle_opt, &req] {
    if (idle_opt->count()) req.reset_idle_cycles = *idle;
  };
}

void prepare_out_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::invalid_argument("cannot create out dir '" + dir + "': " + ec.message());
  // access() rather than creating and deleting a probe file: that costs an inode allocation
  // and a deletion per test (milliseconds on ext4 right after a regression replaced tests/).
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw std::invalid_argument("out dir '" + dir + "' is not writable: " + std::strerror(errno));
}

void print_verdict(const RunResult& res, std::ostream& out, std::ostream& err) {
  const RunRequest& req = res.request;
  if (res.verdict == Verdict::Error) {
    err << "dlaverif: error: " << res.summary << "\n";
    return;
  }
  out << fmt::format("{} {} {} seed={} cycles={} wall={:.2f}s: {}\n",
                     res.verdict == Verdict::Pass ? "PASS" : "FAIL", req.config, req.test, req.seed,
                     res.cycles, res.wall_seconds, res.summary);
  if (res.verdict == Verdict::Fail && !res.report.empty()) out << res.report;
  if (res.signature.rfind("nvdla-erratum:", 0) == 0)
    out << "signature " << res.signature << ": a known erratum of NVIDIA's RTL (docs/nvdla-differential.md)\n";
  out << "repro: " << res.repro_command() << "\n";
}

void write_result_json(const RunResult& res, const std::string& dir) {
  const fs::path path = fs::path(dir) / "result.json";
  std::ofstream f(path);
  f << res.to_json().dump(2) << "\n";
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

int exit_code(Verdict v) {
  switch (v) {
    case Verdict::Pass: return kExitPass;
    case Verdict::Fail: return kExitFail;
    case Verdict::Error: return kExitUsage;
  }
  return kExitUsage;
}

}  // namespace dla::cli
