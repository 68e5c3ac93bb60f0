// dlaverif repro: reruns one recorded test exactly as it ran (configuration, test, seed,
// knobs, AXI profile, watchdog) and checks that verdict, signature and cycles come out the
// same; optionally with waves.
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "dla/cli_command.h"
#include "dla/coverage_sample.h"
#include "dla/regression/outcome.h"
#include "dla/result_io.h"
#include "dla/test_runner.h"

namespace fs = std::filesystem;

namespace dla::cli {

namespace {

struct ReproState {
  std::string target;
  std::string from = "regress-out";
  std::string waves;
  uint64_t waves_last = 0;
  std::string out_dir;
  std::string command_line;
};

nlohmann::json read_json(const fs::path& p) {
  std::ifstream f(p);
  nlohmann::json j;
  try {
    f >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("'" + p.string() + "' is not a readable record: " + e.what());
  }
  return j;
}

struct Original {
  RunRequest req;
  bool have_result = false;  // false: only the runner's outcome.json (crash / timeout)
  std::string verdict, signature;
  uint64_t cycles = 0;
};

Original load_original(const fs::path& dir) {
  Original o;
  const fs::path result = dir / "result.json", outcome = dir / regression::kOutcomeFile;
  try {
    if (fs::exists(result)) {
      const nlohmann::json j = read_json(result);
      const auto& t = j.at("test");
      o.req.config = t.at("config").get<std::string>();
      o.req.test = t.at("name").get<std::string>();
      o.req.seed = t.at("seed").get<uint64_t>();
      o.req.knobs = t.at("knobs").get<std::map<std::string, std::string>>();
      o.req.golden_only = t.at("golden_only").get<bool>();
      o.req.axi_profile = t.at("axi_profile").get<std::string>();
      if (t.contains("watchdog_cycles")) o.req.watchdog_cycles = t.at("watchdog_cycles").get<uint64_t>();
      if (t.contains("perf_tolerance")) o.req.perf_tolerance = t.at("perf_tolerance").get<std::string>();
      if (t.contains("planted_bugs")) o.req.planted_bugs = t.at("planted_bugs").get<std::vector<std::string>>();
      o.have_result = true;
      o.verdict = j.at("verdict").get<std::string>();
      o.signature = j.at("signature").get<std::string>();
      o.cycles = j.at("cycles").get<uint64_t>();
    } else if (fs::exists(outcome)) {
      const regression::Outcome oc = regression::Outcome::from_json(read_json(outcome));
      o.req.config = oc.config;
      o.req.test = oc.test;
      o.req.seed = oc.seed;
      o.req.knobs = oc.knobs.get<std::map<std::string, std::string>>();
      o.req.golden_only = oc.golden_only;
      o.req.axi_profile = oc.axi_profile;
      o.verdict = oc.status;
      o.signature = oc.signature;
    } else {
      throw std::invalid_argument("'" + dir.string() + "' has neither result.json nor " + regression::kOutcomeFile);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("'" + dir.string() + "': incomplete test record: " + e.what());
  }
  return o;
}

}  // namespace

Command add_repro_command(CLI::App& app, const std::string& command_line) {
  auto st = std::make_shared<ReproState>();
  auto* r = app.add_subcommand("repro", "rerun one recorded test exactly (same bytes, same cycles)");
  r->add_option("target", st->target, "a test's result directory, or a regression TEST_ID such as bdma-v1/3")
      ->required();
  r->add_option("--from", st->from, "regression out dir a TEST_ID refers to")->capture_default_str();
  r->add_option("--waves", st->waves, "write FST waves to this file");
  r->add_option("--waves-last", st->waves_last, "keep only about this many cycles of waves before the end");
  r->add_option("--out", st->out_dir, "directory for the rerun's result.json");
  Command c;
  c.run = [st, &command_line] {
    st->command_line = command_line;
    fs::path dir = st->target;
    if (!fs::is_directory(dir)) dir = fs::path(st->from) / "tests" / st->target;
    if (!fs::is_directory(dir))
      throw std::invalid_argument("'" + st->target + "' is neither a result directory nor a test of the regression in '" +
                                  st->from + "'");
    const Original orig = load_original(dir);
    RunRequest req = orig.req;
    req.waves_path = st->waves;
    req.waves_last_cycles = st->waves_last;
    req.command_line = st->command_line;
    if (!st->out_dir.empty()) prepare_out_dir(st->out_dir);
    RunResult res = run_test(req);
    record_coverage(res, st->out_dir);
    print_verdict(res, std::cout, std::cerr);
    if (!st->out_dir.empty()) write_result_json(res, st->out_dir);
    if (!orig.have_result) {
      std::cout << fmt::format("repro check: the original run left no result ({}: {}); this rerun {}\n", orig.verdict,
                               orig.signature, verdict_name(res.verdict));
      return exit_code(res.verdict);
    }
    const bool same = orig.verdict == verdict_name(res.verdict) && orig.signature == res.signature &&
                      orig.cycles == res.cycles;
    if (same) {
      std::cout << fmt::format("repro check: reproduced ({}, {} cycles{})\n", orig.verdict, orig.cycles,
                               orig.signature.empty() ? "" : ", " + orig.signature);
      return exit_code(res.verdict);
    }
    std::cout << fmt::format("repro check: NOT reproduced: recorded {} '{}' {} cycles, rerun {} '{}' {} cycles\n", orig.verdict,
                             orig.signature, orig.cycles, verdict_name(res.verdict), res.signature, res.cycles);
    return kExitFail;
  };
  return c;
}

}  // namespace dla::cli
