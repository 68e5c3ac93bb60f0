// dlaverif regress: a test plan as a regression (local process pool or a Slurm job array),
// with a results store, JUnit XML, an HTML report and merged coverage. docs/regression.md.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "dla/cli_command.h"
#include "dla/hwconfig.h"
#include "dla/register_map.h"
#include "dla/test_generator.h"
#include "dla/regression/local_launcher.h"
#include "dla/regression/regression.h"

namespace dla::cli {

void run_test_fork_server_if_asked() {
  const char* spec = std::getenv(regression::kForkServerEnv);
  if (!spec) return;
  // Built once in the server, before its first fork: the configurations, register maps and
  // generator registry every test reads first, and `dlaverif run`'s command line (the App and
  // its options): each forked test only parses its arguments.
  auto prepared = std::make_shared<std::unique_ptr<PreparedCli>>();
  regression::serve_test_fork_server(
      spec,
      [prepared](const std::vector<std::string>& args) {
        std::vector<std::string> copy = args;
        std::vector<char*> argv;
        for (auto& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        const int argc = static_cast<int>(copy.size());
        if (*prepared && (*prepared)->accepts(argc, argv.data())) return (*prepared)->run(argc, argv.data());
        return run_cli(argc, argv.data());
      },
      [prepared] {
        for (const HwConfig& cfg : HwConfig::all()) RegisterMap::of(cfg);
        test_generators();
        *prepared = std::make_unique<PreparedCli>("run");
      });
}

Command add_regress_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<regression::RegressOptions>();
  auto* r = app.add_subcommand("regress", "run a test plan as a regression (see docs/regression.md)");
  r->add_option("--plan", o->plan_path, "test plan YAML (e.g. regress/plans/default.yaml)");
  r->add_option("--level", o->level, "smoke | nightly | weekly")->capture_default_str();
  r->add_option("-j,--jobs", o->parallel, "tests run at once (Slurm: array throttle)")->capture_default_str()
      ->check(CLI::PositiveNumber);
  r->add_option("--seeds", o->seeds, "seeds per plan entry instead of the plan's counts");
  r->add_option("--config", o->configs, "run only the plan entries of this configuration (repeatable)");
  r->add_option("--out", o->out_dir, "output directory (tests/, report.html, junit.xml, results.db)")
      ->capture_default_str();
  r->add_option("--launcher", o->launcher, "local | slurm")->capture_default_str();
  r->add_flag("--resume", o->resume, "finish the interrupted regression in --out");
  r->add_flag("--collect", o->collect, "gather the results of a submitted Slurm array in --out");
  r->add_flag("--submit", o->submit, "Slurm: sbatch the array, follow it with squeue, then collect");
  r->add_option("--poll", o->poll_seconds, "Slurm --submit: seconds between squeue polls")->capture_default_str();
  r->add_flag("-q,--quiet", o->quiet, "off a terminal, print only failing tests and the summary");
  r->add_option("--db", o->db_path, "results store (default <out>/results.db)");
  r->add_flag("--code-coverage", o->code_coverage,
              "run the tests with dlaverif-cov and merge Verilator line/toggle coverage (coverage/code/)");
  r->add_option("--code-coverage-waivers", o->code_coverage_waivers,
                "with --code-coverage: YAML file of lines and toggles no test can reach, each with its reason");
  r->add_option("--code-coverage-goals", o->code_coverage_goals,
                "with --code-coverage: line=P,toggle=P per configuration and unit; missing one makes the exit status 1");
  r->add_option("--code-coverage-from", o->code_coverage_from,
                "with --code-coverage: also merge and close the coverage of another finished --code-coverage run in "
                "DIR (repeatable)");
  r->add_flag("--close-coverage", o->close_coverage,
              "after the plan, screen knob/seed candidates golden-only and run those that hit coverage holes");
  r->add_option("--closure-candidates", o->closure_candidates, "candidates screened by --close-coverage")
      ->capture_default_str();
  r->add_option("--closure-tests", o->closure_tests, "closure tests run at most")->capture_default_str();
  r->add_option("--closure-seed", o->closure_seed, "seed of the closure candidates")->capture_default_str();
  r->add_option("--test-binary", o->dlaverif, "binary each test runs (default: this dlaverif)")->group("");
  r->add_option("--stop-after", o->stop_after, "stop as if interrupted after N results")->group("");
  r->add_flag("--exec-tests", o->exec_tests, "start every test by exec'ing the binary (default: a fork of the test fork server)")
      ->group("");

  Command c;
  c.run = [o, &command_line] {
    o->command_line = command_line;
    // The test fork server (a fresh dlaverif, see TestForkServer) is started before the
    // gradings: it prepares what every test reads first while they run.
    std::unique_ptr<regression::TestForkServer> server;
    if (!o->exec_tests && o->launcher == "local" && !o->collect && o->dlaverif.empty() && !o->code_coverage) {
      server = std::make_unique<regression::TestForkServer>("/proc/self/exe");
      o->fork_server = server.get();
    }
    // Gradings first (fresh runs only: --resume/--collect finish the tests), so that the
    // regression's report links mutation.html and the store holds both.
    if (!o->resume && !o->collect && !o->plan_path.empty()) {
      const int rc = run_plan_gradings(o->plan_path, o->level, o->parallel, o->out_dir, o->db_path, o->quiet);
      if (rc != kExitPass) return rc;
    }
    const int rc = regression::run_regression(*o, std::cout, std::cerr);
    o->fork_server = nullptr;
    return rc;
  };
  return c;
}

}  // namespace dla::cli
