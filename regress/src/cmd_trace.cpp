// dlaverif trace: play NVDLA regression traces (.cfg and input.txn dialects) on the golden
// model alone or on the RTL with the golden model checking. docs/traces.md.
#include <algorithm>
#include <fmt/core.h>
#include <fmt/format.h>
#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "dla/bfm/axi_timing.h"
#include "dla/cli_command.h"
#include "dla/golden_model.h"
#include "dla/hwconfig.h"
#include "dla/trace_config.h"
#include "dla/result_io.h"
#include "dla/simulation.h"
#include "dla/trace_compile.h"
#include "dla/trace_error.h"
#include "dla/trace_files.h"
#include "dla/test_runner.h"

namespace dla::cli {

Command add_trace_command(CLI::App& app, const std::string& command_line);

namespace {

enum class TraceVerdict { Pass, Fail, Error, Unsupported, NotImplemented };

const char* verdict_word(TraceVerdict v) {
  switch (v) {
    case TraceVerdict::Pass: return "pass";
    case TraceVerdict::Fail: return "fail";
    case TraceVerdict::Error: return "error";
    case TraceVerdict::Unsupported: return "unsupported";
    case TraceVerdict::NotImplemented: return "not-implemented";
  }
  return "?";
}

struct Outcome {
  TraceVerdict verdict = TraceVerdict::Error;
  std::string config;
  std::string mode;     // "golden-only" or "golden+rtl"
  std::string units;    // not-implemented: "PDP", "CONV, SDP"
  std::string reason;   // unsupported because of the configuration: "small has no SDP EW"
  std::string detail;   // one line
  std::string report;   // failures: the scoreboard report
  size_t checks = 0;
  uint64_t cycles = 0;  // RTL cycles (0 golden-only)
  double seconds = 0;
  std::string verdict_text() const {
    if (verdict == TraceVerdict::NotImplemented) return "not-implemented (" + units + ")";
    if (verdict == TraceVerdict::Unsupported && !reason.empty()) return "unsupported (" + reason + ")";
    return verdict_word(verdict);
  }
};

struct TraceState {
  std::vector<std::string> paths;
  std::string config;  // empty: from the dialect
  bool golden_only = false;
  std::string waves;
  uint64_t seed = 1;
  std::string axi_profile = "random";
  uint64_t watchdog = 200000;
  uint64_t intr_timeout = 0, poll_timeout = 0;
  std::string expect_file;
  std::string command_line;
  RunRequest dut;  // --dut, --initial-state, --reset-idle-cycles (only those fields)
};

// Expected verdicts: "<glob over group/name> <verdict>[|<verdict>...]" lines, first match wins.
// An optional third column restricts a rule to one mode ("golden-only" or "rtl").
struct ExpectRule {
  std::string pattern;
  std::set<std::string> verdicts;
  std::string mode;  // empty: both
};

std::vector<ExpectRule> read_expectations(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot read expectation file '" + path + "'");
  static const std::set<std::string> known = {"pass", "fail", "error", "unsupported", "not-implemented"};
  std::vector<ExpectRule> rules;
  std::string line;
  size_t n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream in(line);
    std::string pattern, verdicts, mode, extra;
    if (!(in >> pattern)) continue;
    if (!(in >> verdicts) || ((in >> mode) && mode != "golden-only" && mode != "rtl") || (in >> extra))
      throw std::invalid_argument(
          fmt::format("{}:{}: expected '<test glob> <verdict>[|<verdict>...] [golden-only|rtl]'", path, n));
    ExpectRule r{pattern, {}, mode};
    std::istringstream vs(verdicts);
    for (std::string v; std::getline(vs, v, '|');) {
      if (!known.count(v))
        throw std::invalid_argument(fmt::format(
            "{}:{}: unknown verdict '{}' (expected pass, fail, error, unsupported or not-implemented)", path, n, v));
      r.verdicts.insert(v);
    }
    rules.push_back(std::move(r));
  }
  return rules;
}

const ExpectRule* rule_for(const std::vector<ExpectRule>& rules, const std::string& label, bool golden_only) {
  for (const auto& r : rules)
    if ((r.mode.empty() || (r.mode == "rtl") != golden_only) && fnmatch(r.pattern.c_str(), label.c_str(), 0) == 0)
      return &r;
  return nullptr;
}

// Units the golden model could not run, named as trace authors think of them.
std::string missing_datapaths(const std::vector<LayerRecord>& layers, const GoldenModel& probe) {
  static const std::vector<std::pair<std::string, std::vector<Unit>>> groups = {
      {"CONV", {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC}},
      {"SDP", {Unit::SDP_RDMA, Unit::SDP}},
      {"PDP", {Unit::PDP_RDMA, Unit::PDP}},
      {"CDP", {Unit::CDP_RDMA, Unit::CDP}},
      {"BDMA", {Unit::BDMA}},
      {"RUBIK", {Unit::RBK}},
  };
  std::string out;
  for (const auto& [name, units] : groups) {
    bool missing = false;
    for (const LayerRecord& l : layers)
      for (Unit u : units)
        if (l.unit == u && !l.completed && !probe.has_datapath(u)) missing = true;
    if (missing) out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

class TracePlayer {
 public:
  explicit TracePlayer(const TraceState& st) : st_(st) {}

  Outcome play(const trace::TraceTest& t, const std::string& waves) {
    Outcome o;
    o.mode = st_.golden_only ? "golden-only" : "golden+rtl";
    try {
      trace::CompileOptions co;
      co.seed = st_.seed;
      co.intr_timeout_cycles = st_.intr_timeout;
      co.poll_timeout_cycles = st_.poll_timeout;
      trace::CompiledTrace ct;
      if (t.dialect == trace::TraceDialect::Cfg) {
        const trace::CfgTrace cfg_trace = trace::read_cfg_file(t.file);
        o.config = !st_.config.empty() ? st_.config : trace::trace_config_for(t, cfg_trace.header_value("config"));
        ct = trace::compile_trace(cfg_trace, HwConfig::get(o.config), co);
      } else {
        o.config = !st_.config.empty() ? st_.config : trace::trace_config_for(t, std::nullopt);
        ct = trace::compile_trace(trace::read_txn_file(t.file), HwConfig::get(o.config), co);
      }
      o.checks = ct.checks;
      if (!ct.unsupported.empty()) {  // e.g. "small has no SDP EW": a feature the configuration lacks
        o.verdict = TraceVerdict::Unsupported;
        o.reason = ct.unsupported;
        return o;
      }
      ct.program.test = t.label();
      RunRequest req;
      req.config = o.config;
      req.test = t.label();
      req.seed = st_.seed;
      req.golden_only = true;
      req.axi_profile = st_.axi_profile;
      req.watchdog_cycles = st_.watchdog;
      req.command_line = st_.command_line;
      req.dut = st_.dut.dut;
      req.initial_state = st_.dut.initial_state;
      req.reset_idle_cycles = st_.dut.reset_idle_cycles;
      // A trace is a finished program with its own waits: the player must not add CSB reads
      // (the stall-counter checks would read after each window and shift the trace's timing
      // against its interrupt waits), and its cycles are judged against NVIDIA's, not a budget.
      req.perf_tolerance = "off";
      // The golden model first: it says whether the trace can be checked at all.
      RunResult res = run_program(req, ct.program);
      o.seconds = res.wall_seconds;
      if (res.verdict == Verdict::Error) return error(o, res.summary);
      // Layers of units without a datapath stay armed; that only matters when the trace
      // then fails on the golden model (e.g. it waits for their interrupt or output).
      o.units = res.verdict == Verdict::Pass ? "" : missing_datapaths(res.layers, probe(o.config));
      if (!o.units.empty()) {
        o.verdict = TraceVerdict::NotImplemented;
        o.detail = "the golden model has no " + o.units + " datapath yet";
        return o;
      }
      if (!st_.golden_only) {
        if (!tb::find_simulation_model(o.config, req.dut)) {
          o.verdict = TraceVerdict::Unsupported;
          o.detail = "no " + (req.dut == tb::kPrimaryDut ? std::string() : req.dut + " ") + "model of configuration " +
                     o.config + " is built (DLA_CONFIGS" + (req.dut == tb::kPrimaryDut ? "" : ", DLA_NVDLA_CONFIG") +
                     "); --golden-only checks the golden model alone";
          return o;
        }
        // The DUT must implement every unit the trace runs (dlaverif's RTL has no conv yet).
        const bool runs_conv = std::any_of(res.layers.begin(), res.layers.end(), [](const LayerRecord& l) {
          return l.completed && (l.unit == Unit::CDMA || l.unit == Unit::CACC);
        });
        if (runs_conv && !tb::find_simulation_model(o.config, req.dut)->conv) {
          o.verdict = TraceVerdict::NotImplemented;
          o.units = "CONV";
          o.detail = "DUT " + req.dut + " of configuration " + o.config +
                     " has no convolution pipeline (DLA_DUT_CONV); the golden model passes it (--golden-only)";
          return o;
        }
        const bool runs_rubik = std::any_of(res.layers.begin(), res.layers.end(), [](const LayerRecord& l) {
          return l.completed && l.unit == Unit::RBK;
        });
        if (runs_rubik && !tb::find_simulation_model(o.config, req.dut)->rubik) {
          o.verdict = TraceVerdict::NotImplemented;
          o.units = "RUBIK";
          o.detail = "DUT " + req.dut + " of configuration " + o.config +
                     " does not implement RUBIK (DLA_DUT_RUBIK); the golden model passes it (--golden-only)";
          return o;
        }
        req.golden_only = false;
        req.waves_path = waves;
        res = run_program(req, ct.program);
        o.seconds += res.wall_seconds;
        o.cycles = res.cycles;
        if (res.verdict == Verdict::Error) return error(o, res.summary);
      }
      o.verdict = res.verdict == Verdict::Pass ? TraceVerdict::Pass : TraceVerdict::Fail;
      o.detail = res.verdict == Verdict::Pass ? "" : res.summary;
      o.report = res.verdict == Verdict::Pass ? "" : res.report;
      // The golden model's diagnostics usually say why a failing trace went wrong.
      if (res.verdict != Verdict::Pass)
        for (const std::string& w : res.warnings) o.report += "    golden model: " + w + "\n";
    } catch (const std::invalid_argument& e) {
      return error(o, e.what());
    }
    return o;
  }

 private:
  static Outcome error(Outcome o, const std::string& message) {
    o.verdict = TraceVerdict::Error;
    o.detail = message;
    return o;
  }

  const GoldenModel& probe(const std::string& config) {
    auto& p = probes_[config];
    if (!p) p = std::make_unique<GoldenModel>(HwConfig::get(config));
    return *p;
  }

  const TraceState& st_;
  std::map<std::string, std::unique_ptr<GoldenModel>> probes_;
};

std::string waves_for(const std::string& waves, const std::string& name, bool several) {
  if (waves.empty() || !several) return waves;
  std::filesystem::path p(waves);
  return (p.parent_path() / (p.stem().string() + "-" + name + p.extension().string())).string();
}

int run_traces(const TraceState& st) {
  if (!st.config.empty()) HwConfig::get(st.config);  // unknown configuration: usage error
  const std::vector<ExpectRule> rules = st.expect_file.empty() ? std::vector<ExpectRule>{}
                                                               : read_expectations(st.expect_file);
  std::vector<trace::TraceTest> tests;
  for (const auto& p : st.paths) {
    auto found = trace::find_trace_tests(p);
    tests.insert(tests.end(), found.begin(), found.end());
  }
  size_t width = 0;
  for (const auto& t : tests) width = std::max(width, t.label().size());

  TracePlayer player(st);
  std::map<TraceVerdict, size_t> counts;
  size_t unmet = 0;
  for (const auto& t : tests) {
    const Outcome o = player.play(t, waves_for(st.waves, t.name, tests.size() > 1));
    ++counts[o.verdict];
    std::string line = fmt::format("{:<24} {:<{}}  ({}, {}", o.verdict_text(), t.label(), width, o.config, o.mode);
    if (o.verdict == TraceVerdict::Pass || o.verdict == TraceVerdict::Fail)
      line += fmt::format(", {} check{}, {}{:.2f} s", o.checks, o.checks == 1 ? "" : "s",
                          o.cycles ? fmt::format("{} cycles, ", o.cycles) : "", o.seconds);
    line += ")";
    if (!o.detail.empty()) line += ": " + o.detail;
    if (!rules.empty()) {
      const ExpectRule* r = rule_for(rules, t.label(), st.golden_only);
      if (!r || !r->verdicts.count(verdict_word(o.verdict))) {
        ++unmet;
        std::string want;
        if (r)
          for (const auto& v : r->verdicts) want += (want.empty() ? "" : "|") + v;
        line += "  <-- UNEXPECTED, expected " + (r ? want : std::string("a rule in ") + st.expect_file);
      }
    }
    std::cout << line << "\n";
    if (!o.report.empty()) {
      std::istringstream rep(o.report);
      for (std::string l; std::getline(rep, l);) std::cout << "    " << l << "\n";
    }
    std::cout.flush();
  }
  std::cout << fmt::format("total: {} trace{}: {} pass, {} fail, {} error, {} not-implemented, {} unsupported\n",
                           tests.size(), tests.size() == 1 ? "" : "s", counts[TraceVerdict::Pass],
                           counts[TraceVerdict::Fail], counts[TraceVerdict::Error],
                           counts[TraceVerdict::NotImplemented], counts[TraceVerdict::Unsupported]);
  if (!rules.empty()) {
    std::cout << fmt::format("expectations ({}): {} met, {} not met\n", st.expect_file, tests.size() - unmet, unmet);
    return unmet ? kExitFail : kExitPass;
  }
  if (counts[TraceVerdict::Error]) return kExitUsage;
  return counts[TraceVerdict::Fail] ? kExitFail : kExitPass;
}

}  // namespace

Command add_trace_command(CLI::App& app, const std::string& command_line) {
  auto st = std::make_shared<TraceState>();
  auto* cmd = app.add_subcommand("trace", "play NVDLA regression traces (.cfg or input.txn) on the golden model "
                                          "and the RTL");
  cmd->add_option("paths", st->paths, "test directory, .cfg or input.txn file, or folder of tests")->required();
  cmd->add_option("--config", st->config,
                  "hardware configuration (default: the trace's 'dlaverif config=', else the test's folder when it "
                  "names a configuration (nv_small/, nvdlav1/, nv_large/ ...), else v1 for input.txn and small for "
                  ".cfg)");
  cmd->add_flag("--golden-only", st->golden_only, "run the golden model only, no RTL");
  const auto finish_dut_options = add_dut_options(cmd, st->dut);
  cmd->add_option("--waves", st->waves, "write FST waves to this file (one file per test: -<test> is appended)");
  cmd->add_option("--seed", st->seed, "seed for AXI/CSB timing, poison and the RANDOM pattern")->capture_default_str();
  cmd->add_option("--axi-profile", st->axi_profile, "AXI slave timing: " + fmt::format("{}", fmt::join(tb::AxiTiming::profile_names(), "|")))->capture_default_str();
  cmd->add_option("--watchdog", st->watchdog, "cycles without progress before a hang")->capture_default_str();
  cmd->add_option("--intr-timeout", st->intr_timeout, "cycles an interrupt wait may take on the RTL (0: 2000000)");
  cmd->add_option("--poll-timeout", st->poll_timeout, "cycles a register poll may take on the RTL (0: 200000)");
  cmd->add_option("--expect", st->expect_file,
                  "table of expected verdicts ('<glob over group/test> pass|not-implemented|... [golden-only|rtl]', "
                  "first match wins); exit 0 iff every test meets it");
  Command c;
  c.run = [st, finish_dut_options, &command_line] {
    st->command_line = command_line;
    finish_dut_options();
    return run_traces(*st);
  };
  return c;
}

}  // namespace dla::cli
