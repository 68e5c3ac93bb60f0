// dlaverif: command-line front end.
//   dlaverif run --config v1|small --test NAME --seed N [--golden-only] [--waves FILE] [--out DIR]
//   dlaverif list
// Exit codes: 0 pass, 1 test failure, 2 usage or input error.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "dla/hwconfig.h"
#include "dla/simulation.h"
#include "dla/test_generator.h"
#include "dla/test_runner.h"

namespace fs = std::filesystem;

namespace {

constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

std::string joined_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

// Checks up front that the out dir can hold result.json, so a long run does not
// end in an unwritable directory.
void prepare_out_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::invalid_argument("cannot create out dir '" + dir + "': " + ec.message());
  const fs::path probe = fs::path(dir) / ".dlaverif-write-probe";
  std::ofstream f(probe);
  if (!f) throw std::invalid_argument("out dir '" + dir + "' is not writable");
  f.close();
  fs::remove(probe, ec);
}

int cmd_list() {
  fmt::print("configurations:\n");
  for (const auto& c : dla::HwConfig::all())
    fmt::print("  {:<8} {}{}\n", c.name, c.description,
               c.name == dla::HwConfig::default_config().name ? " (default)" : "");
  const auto sims = dla::tb::simulation_configs();
  fmt::print("RTL models built: {}\n", sims.empty() ? std::string("none") : fmt::format("{}", fmt::join(sims, ", ")));
  fmt::print("tests:\n");
  for (const auto& g : dla::test_generators()) {
    std::string where;
    for (const auto& c : dla::HwConfig::all())
      if (g.supports(c)) where += (where.empty() ? "" : ",") + c.name;
    fmt::print("  {:<14} [{}] {}\n", g.name, where, g.description);
  }
  return kExitPass;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dlaverif: co-verification of an NVDLA-compatible accelerator"};
  app.require_subcommand(1);

  dla::RunRequest req;
  req.config = dla::HwConfig::default_config().name;
  std::string out_dir;
  std::vector<std::string> knobs;
  auto* run = app.add_subcommand("run", "run one test against the RTL (or the golden model alone)");
  run->add_option("--config", req.config, "hardware configuration")->capture_default_str();
  run->add_option("--test", req.test, "test name (see `dlaverif list`)")->required();
  run->add_option("--seed", req.seed, "master seed (decimal or 0x hex)")->required();
  run->add_flag("--golden-only", req.golden_only, "run the golden model only, no RTL");
  run->add_option("--waves", req.waves_path, "write FST waves to this file");
  run->add_option("--waves-last", req.waves_last_cycles,
                  "keep only this many cycles of waves before the end");
  run->add_option("--axi-profile", req.axi_profile, "AXI slave timing profile")->capture_default_str();
  run->add_option("--watchdog", req.watchdog_cycles, "cycles without progress before a hang")
      ->capture_default_str();
  run->add_option("--knob", knobs, "generator knob NAME=VALUE (repeatable)");
  run->add_option("--out", out_dir, "directory for result.json (default: no file)");

  app.add_subcommand("list", "list configurations and tests");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "dlaverif: error: " << e.what() << "\n(see `dlaverif --help`)\n";
    return kExitUsage;
  }

  if (app.got_subcommand("list")) return cmd_list();

  req.command_line = joined_command_line(argc, argv);
  for (const auto& k : knobs) {
    const auto eq = k.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "dlaverif: error: --knob '" << k << "' is not NAME=VALUE\n";
      return kExitUsage;
    }
    req.knobs[k.substr(0, eq)] = k.substr(eq + 1);
  }
  try {
    if (!out_dir.empty()) prepare_out_dir(out_dir);
  } catch (const std::exception& e) {
    std::cerr << "dlaverif: error: " << e.what() << "\n";
    return kExitUsage;
  }

  const dla::RunResult res = dla::run_test(req);
  if (res.verdict == dla::Verdict::Error) {
    std::cerr << "dlaverif: error: " << res.summary << "\n";
  } else {
    fmt::print("{} {} {} seed={} cycles={} wall={:.2f}s: {}\n",
               res.verdict == dla::Verdict::Pass ? "PASS" : "FAIL", req.config, req.test, req.seed,
               res.cycles, res.wall_seconds, res.summary);
    if (res.verdict == dla::Verdict::Fail && !res.report.empty()) std::cout << res.report;
    fmt::print("repro: {}\n", res.repro_command());
  }
  if (!out_dir.empty()) {
    std::ofstream f(fs::path(out_dir) / "result.json");
    f << res.to_json().dump(2) << "\n";
    if (!f) {
      std::cerr << "dlaverif: error: cannot write " << (fs::path(out_dir) / "result.json") << "\n";
      return kExitUsage;
    }
  }
  switch (res.verdict) {
    case dla::Verdict::Pass: return kExitPass;
    case dla::Verdict::Fail: return kExitFail;
    case dla::Verdict::Error: return kExitUsage;
  }
  return kExitUsage;
}
