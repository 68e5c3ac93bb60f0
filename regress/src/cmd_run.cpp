// dlaverif run: one test against the RTL (or the golden model alone).
#include <fmt/core.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "dla/bfm/axi_timing.h"
#include "dla/cli_command.h"
#include "dla/coverage_sample.h"
#include "dla/hwconfig.h"
#include "dla/process_timing.h"
#include "dla/result_io.h"
#include "dla/test_generator.h"
#include "dla/test_runner.h"
#include "dla/trace_writer.h"

namespace dla::cli {

namespace {
struct RunState {
  RunRequest req;
  std::string out_dir;
  std::vector<std::string> knobs;
  std::vector<std::string> signal_settings;
  std::string export_dir;
};

// --export-trace: run the test, then write its program as a .cfg trace with the golden
// model's expectations (docs/traces.md, "Exporter"). A program the dialect cannot say (a read
// that also accepts 0, a >= poll) leaves `error` set: the run's verdict is still reported.
RunResult run_and_export(const RunRequest& req, const std::string& dir, std::string& error) {
  const HwConfig& cfg = HwConfig::get(req.config);
  const Program program = find_test_generator(req.test).generate(cfg, req.seed, req.knobs);
  RunResult res = run_program(req, program);
  trace::ExportOptions o;
  o.poison_seed = req.seed;
  o.repro = res.repro_command();
  trace::ExportResult ex;
  try {
    ex = trace::export_trace(program, cfg, dir, o);
  } catch (const std::invalid_argument& e) {
    error = e.what();
    return res;
  }
  std::cout << fmt::format("exported trace: {} ({} commands, {} data files, {} CRC checks); replay: dlaverif trace {} "
                           "--config {}\n",
                           ex.cfg_path, ex.lines, ex.data_files, ex.crc_checks, dir, cfg.name);
  return res;
}
}  // namespace

Command add_run_command(CLI::App& app, const std::string& command_line) {
  auto st = std::make_shared<RunState>();
  st->req.config = HwConfig::default_config().name;
  auto* run = app.add_subcommand("run", "run one test against the RTL (or the golden model alone)");
  run->add_option("--config", st->req.config, "hardware configuration")->capture_default_str();
  run->add_option("--test", st->req.test, "test name (see `dlaverif list`)")->required();
  run->add_option("--seed", st->req.seed, "master seed (decimal or 0x hex)")->required();
  run->add_flag("--golden-only", st->req.golden_only, "run the golden model only, no RTL");
  const auto finish_dut_options = add_dut_options(run, st->req);
  run->add_option("--waves", st->req.waves_path, "write FST waves to this file");
  run->add_option("--waves-last", st->req.waves_last_cycles,
                  "keep only about this many cycles of waves before the end");
  run->add_option("--axi-profile", st->req.axi_profile, "AXI slave timing: " + fmt::format("{}", fmt::join(tb::AxiTiming::profile_names(), "|")))
      ->capture_default_str();
  run->add_option("--watchdog", st->req.watchdog_cycles, "cycles without progress before a hang")
      ->capture_default_str();
  run->add_option("--perf-tolerance", st->req.perf_tolerance,
                  "performance budget: fail a layer over fixed latency + X x its bound (X >= 1, default 1.5), "
                  "or 'off' (docs/scoreboard.md)");
  run->add_option("--knob", st->knobs, "generator knob NAME=VALUE (repeatable)");
  run->add_option("--plant", st->req.planted_bugs,
                  "enable a planted golden-model bug (checker proofs; see `dlaverif list --plants`)");
  run->add_option("--set-signal", st->signal_settings,
                  "set a public model signal before reset, NAME=VALUE (mutant models: mutsel=K)")
      ->group("Mutation grading");
  run->add_option("--read-signal", st->req.read_signals, "record a public model signal in result.json")
      ->group("Mutation grading");
  run->add_option("--out", st->out_dir, "directory for result.json (default: no file)");
  run->add_option("--export-trace", st->export_dir, "also write the test as a .cfg trace (+ .dat files) into DIR");

  Command c;
  c.run = [st, finish_dut_options, &command_line] {
    st->req.command_line = command_line;
    RunRequest& req = st->req;
    finish_dut_options();
    req.knobs = parse_knobs(st->knobs);  // throws std::invalid_argument on a malformed knob
    for (const auto& [name, value] : parse_knobs(st->signal_settings)) {
      size_t used = 0;
      uint64_t v = 0;
      try {
        v = std::stoull(value, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != value.size())
        throw std::invalid_argument("--set-signal " + name + "=" + value + ": the value must be a number");
      req.signal_settings[name] = v;
    }
    if (!st->out_dir.empty()) prepare_out_dir(st->out_dir);
    const double setup = seconds_since_main();
    std::string export_error;
    RunResult res = st->export_dir.empty() ? run_test(req) : run_and_export(req, st->export_dir, export_error);
    const double ran = seconds_since_main();
    record_coverage(res, st->out_dir);  // coverage.json next to result.json (issue 8)
    print_verdict(res, std::cout, std::cerr);
    if (const auto startup = startup_seconds()) res.process_seconds["startup"] = *startup;
    res.process_seconds["setup"] = setup;
    res.process_seconds["record"] = seconds_since_main() - ran;
    if (!st->out_dir.empty()) write_result_json(res, st->out_dir);
    if (!export_error.empty()) {
      std::cerr << "dlaverif: error: --export-trace " << st->export_dir << ": " << export_error << "\n";
      return 2;
    }
    return exit_code(res.verdict);
  };
  return c;
}

}  // namespace dla::cli
