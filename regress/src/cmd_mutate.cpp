// dlaverif mutate: mutation grading of one unit (docs/mutation.md).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

#include <fmt/core.h>

#include "dla/build_info.h"
#include "dla/cli_command.h"
#include "dla/hwconfig.h"
#include "dla/mutation/grading.h"
#include "dla/mutation/mutation_report.h"
#include "dla/mutation/triage.h"
#include "dla/regression/plan.h"

namespace dla::cli {

namespace {

namespace fs = std::filesystem;

struct MutateOptions {
  std::string unit, config = HwConfig::default_config().name, plan_path = "regress/plans/mutation.yaml", level = "nightly";
  uint32_t count = 0;
  std::vector<uint32_t> only;
  unsigned parallel = 1;
  double budget = 120;
  std::string out_dir = "mutation-out", db_path, waiver_path, model_binary;
  uint64_t seeds = 0;
  double min_kill_rate = -1;
  bool quiet = false;
  std::string command_line;
  // formal triage of the survivors (docs/mutation.md)
  bool triage = false;
  std::string triage_settings = "regress/plans/triage.yaml", triage_model_dir, triage_script = DLA_TRIAGE_SCRIPT,
              local_equiv_script = DLA_LOCAL_EQUIV_SCRIPT;
  unsigned triage_depth = 0, triage_timeout = 0;  // 0: from the settings file
};

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return buf;
}

std::string self_dir() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

// The plan's tests for the unit on the configuration: entries owned by the unit or running
// one of its generators ("<unit>.*").
std::vector<regression::Job> unit_jobs(const regression::Plan& plan, const MutateOptions& o) {
  regression::Plan own = plan;
  own.entries.clear();
  for (const auto& e : plan.entries)
    if (e.config == o.config && (e.owner == o.unit || e.test.rfind(o.unit + ".", 0) == 0)) own.entries.push_back(e);
  return regression::expand(own, regression::level_from_name(o.level), o.seeds);
}

// "<cfg>:<unit>" of every mutant model installed in `dir` (dlaverif-mut-<cfg>-<unit> + its mutant list).
std::string built_models(const std::string& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  const std::string prefix = "dlaverif-mut-", suffix = ".mutants.json";
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string f = entry.path().filename().string();
    if (f.size() <= prefix.size() + suffix.size() || f.rfind(prefix, 0) != 0 ||
        f.compare(f.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    std::string pair = f.substr(prefix.size(), f.size() - prefix.size() - suffix.size());
    const auto dash = pair.rfind('-');
    if (dash != std::string::npos) pair[dash] = ':';
    found.push_back(pair);
  }
  std::sort(found.begin(), found.end());
  std::string text;
  for (const auto& f : found) text += (text.empty() ? "" : ", ") + f;
  return text.empty() ? "none" : text;
}

// The mutant model binary of o.unit on o.config; std::invalid_argument when it is not built.
std::string model_binary(const MutateOptions& o) {
  const std::string name = "dlaverif-mut-" + o.config + "-" + o.unit;
  const std::string binary = o.model_binary.empty() ? self_dir() + "/" + name : o.model_binary;
  if (!fs::exists(binary))
    throw std::invalid_argument("no mutant model for unit '" + o.unit + "' on configuration '" + o.config + "': " +
                                binary + " is missing (add " + o.config + ":" + o.unit +
                                " to the CMake cache variable DLA_MUTATION_MODELS and build target " + name +
                                "; mutant models built here: " + built_models(fs::path(binary).parent_path().string()) +
                                ")");
  return binary;
}

// The triage request of a grade (everything but the ids), checked before the grade starts so a
// bad setting costs no grading time.
mutation::TriageRequest triage_request(const MutateOptions& o, const std::string& binary, const std::string& unit_dir) {
  mutation::TriageRequest req;
  const std::string model = o.config + ":" + o.unit;
  req.settings = o.triage_settings.empty() ? mutation::TriageSettings{}
                                           : mutation::load_triage_settings(o.triage_settings, model);
  req.settings.model = model;
  if (o.triage_depth) req.settings.depth = o.triage_depth;
  if (o.triage_timeout) req.settings.timeout_seconds = o.triage_timeout;
  req.model_dir = o.triage_model_dir.empty()
                      ? (fs::path(binary).parent_path() / ".." / "mutation" / o.config / o.unit).lexically_normal().string()
                      : o.triage_model_dir;
  if (!fs::exists(fs::path(req.model_dir) / "prepared.il"))
    throw std::invalid_argument("--triage: " + req.model_dir + "/prepared.il is missing (the gen_mutants.py output of " +
                                model + " is needed; give its directory with --triage-model-dir)");
  req.script = o.triage_script;
  req.local_script = o.local_equiv_script;
  const auto& engines = req.settings.engines;
  if (std::find(engines.begin(), engines.end(), "unit") != engines.end() && !fs::exists(req.script))
    throw std::invalid_argument("--triage: the triage script " + req.script + " is missing (--triage-script)");
  if (std::find(engines.begin(), engines.end(), "local") != engines.end() && !fs::exists(req.local_script))
    throw std::invalid_argument("--triage: the local equivalence script " + req.local_script +
                                " is missing (--local-equiv-script)");
  if (std::find(engines.begin(), engines.end(), "local") != engines.end())
    for (const char* f : {"mutate.ys", "mutants.json"})  // the local engine re-elaborates the model
      if (!fs::exists(fs::path(req.model_dir) / f))
        throw std::invalid_argument("--triage: " + req.model_dir + "/" + f + " is missing (the local engine needs " +
                                    "the gen_mutants.py output of " + model + "; or set engines: [unit] in " +
                                    req.settings.source + ")");
  req.out_dir = fs::absolute(unit_dir + "/triage").string();
  req.jobs = o.parallel;
  req.report_root = fs::absolute(o.out_dir).string();
  return req;
}

int run_mutate(const MutateOptions& o) {
  const std::string name = "dlaverif-mut-" + o.config + "-" + o.unit;
  const std::string binary = model_binary(o);
  const mutation::MutantList mutants = mutation::load_mutants(binary + ".mutants.json");
  if (o.count > mutants.mutants.size())
    throw std::invalid_argument(fmt::format("--count {}: the {} model holds {} mutants (DLA_MUTATION_COUNT)", o.count,
                                            name, mutants.mutants.size()));
  const regression::Plan plan = regression::load_plan(o.plan_path);
  const std::vector<regression::Job> jobs = unit_jobs(plan, o);
  if (jobs.empty())
    throw std::invalid_argument("plan " + o.plan_path + " has no test for unit '" + o.unit + "' on configuration '" +
                                o.config + "' at level " + o.level + " (entries need owner: " + o.unit +
                                " or a " + o.unit + ".* test)");
  mutation::GradeOptions g;
  g.model_binary = binary;
  g.parallel = o.parallel;
  g.budget_seconds = o.budget;
  g.count = o.count;
  g.only = o.only;
  if (!o.waiver_path.empty()) {
    for (mutation::Waiver& w : mutation::load_waivers(o.waiver_path))  // a file may serve several models
      if (w.applies_to(o.config, o.unit)) g.waivers.push_back(std::move(w));
    for (const mutation::Waiver* w : mutation::check_waivers(g.waivers, mutants, o.config + ":" + o.unit))
      if (!w->model.empty())  // an entry for every model need not match each one
        std::cerr << fmt::format("mutate: warning: waiver file {}: entry {} matches no mutant of {} (stale?)\n",
                                 w->file, w->entry, w->model);
  }
  const std::string unit_dir = o.out_dir + "/" + o.unit + "-" + o.config;
  mutation::TriageRequest triage;
  if (o.triage) triage = triage_request(o, binary, unit_dir);
  fs::remove_all(unit_dir + "/tests");
  fs::create_directories(unit_dir);
  g.out_dir = fs::absolute(unit_dir).string();

  mutation::RunInfo run;
  run.unit = o.unit;
  run.config = o.config;
  run.plan = plan.name.empty() ? o.plan_path : plan.name;
  run.level = o.level;
  run.started = now_text();
  run.git_revision = build_info().git_revision;
  run.command_line = o.command_line;
  run.out_dir = unit_dir;
  run.mutants_in_model = static_cast<unsigned>(mutants.mutants.size());
  const auto n = !o.only.empty() ? static_cast<uint32_t>(o.only.size()) : o.count ? o.count : run.mutants_in_model;
  std::cout << fmt::format("mutate: {} mutants of {} ({}), {} tests per mutant at most, -j {}, budget {:.0f} s\n", n,
                           mutants.top, o.config, jobs.size(), o.parallel, o.budget);
  const auto progress = [&](const std::string& line) {
    if (!o.quiet || line.rfind("baseline", 0) == 0) std::cout << line << std::endl;
  };
  mutation::Grading grading = mutation::grade(mutants, jobs, g, progress);
  if (grading.interrupted) {
    std::cerr << "mutate: interrupted; nothing recorded\n";
    return 130;
  }
  // Formal triage of every survivor (waived ones too: a witness against a waiver is worth seeing).
  // A failed triage loses nothing: the grade is recorded without it and the exit status says so.
  std::string triage_error;
  if (o.triage) {
    for (const auto& r : grading.results)
      if (r.status == mutation::Status::Survived) triage.ids.push_back(r.mutant.id);
    if (!triage.ids.empty()) {
      std::string engines;
      for (const auto& e : triage.settings.engines) engines += (engines.empty() ? "" : ", ") + e;
      std::cout << fmt::format("mutate: formal triage of {} survivors (engines {}; {} cycles, {} s per mutant, {}; {} "
                               "qualified ports)\n",
                               triage.ids.size(), engines, triage.settings.depth, triage.settings.timeout_seconds,
                               triage.settings.source, triage.settings.qualify.size())
                << std::flush;
      try {
        const auto verdicts = mutation::run_triage(triage, progress);
        for (auto& r : grading.results)
          if (auto it = verdicts.find(r.mutant.id); it != verdicts.end()) r.triage = it->second;
      } catch (const std::runtime_error& e) {
        triage_error = e.what();
      }
    }
  }
  run.finished = now_text();
  run.seconds = grading.seconds;
  const std::string db = o.db_path.empty() ? o.out_dir + "/results.db" : o.db_path;
  run.id = mutation::record(db, run, grading.results);
  const mutation::UnitSummary s = mutation::summarize(run, grading.results);

  nlohmann::json unit_json = mutation::report_json({s});
  unit_json["baseline"] = nlohmann::json::array();
  for (const auto& b : grading.baseline)
    unit_json["baseline"].push_back({{"test", b.job.id}, {"status", b.status}, {"signature", b.signature},
                                     {"cycles", b.cycles}, {"seconds", b.seconds}});
  std::ofstream(unit_dir + "/grading.json") << unit_json.dump(1) << "\n";
  const auto units = mutation::latest_per_unit(db);
  std::ofstream(o.out_dir + "/mutation.json") << mutation::report_json(units).dump(1) << "\n";
  std::ofstream(o.out_dir + "/mutation.html") << mutation::report_html(units);

  std::cout << fmt::format(
      "mutate {}/{}: {} graded, {} killed, {} survived ({} not activated, {} not propagated, {} not detected, {} "
      "waived), {} timed out; kill rate {:.1f} %; {:.0f} s ({:.0f} mutants/hour)\n",
      o.unit, o.config, s.graded, s.killed, s.survived, s.not_activated, s.not_propagated, s.not_detected, s.waived,
      s.timed_out, 100 * s.kill_rate, run.seconds, s.mutants_per_hour);
  if (o.triage && triage_error.empty()) {
    unsigned for_all_cycles = 0, local = 0;
    for (const auto& r : grading.results)
      if (r.triage && r.triage->equivalent()) {
        if (r.triage->proof == "all cycles") ++for_all_cycles;
        if (r.triage->proof == "local") ++local;
      }
    std::cout << fmt::format("triage: {} survivors: {} equivalent ({} by a local proof, {} within {} cycles, {} for "
                             "all cycles), {} distinguishable, {} unknown; kill rate over all mutants {:.1f} %, over "
                             "non-equivalent mutants {:.1f} %\n",
                             s.triaged, s.equivalent, local, s.equivalent - for_all_cycles - local,
                             triage.settings.depth, for_all_cycles, s.distinguishable, s.triage_unknown,
                             100 * s.kill_rate_all, 100 * s.kill_rate_non_equivalent);
  }
  std::cout << "report: " << o.out_dir << "/mutation.html, " << o.out_dir << "/mutation.json, store " << db
            << " (run " << run.id << ")\n";
  if (!triage_error.empty()) {
    std::cerr << "dlaverif mutate: " << triage_error << "\n(the grade is recorded without triage)\n";
    return 1;
  }
  if (o.min_kill_rate >= 0 && s.kill_rate < o.min_kill_rate) {
    std::cout << fmt::format("mutate: kill rate {:.3f} is below --min-kill-rate {:.3f}\n", s.kill_rate,
                             o.min_kill_rate);
    return kExitFail;
  }
  return kExitPass;
}

}  // namespace

int run_plan_gradings(const std::string& plan_path, const std::string& level, unsigned parallel,
                      const std::string& out_dir, const std::string& db_path, bool quiet) {
  const regression::Plan plan = regression::load_plan(plan_path);
  const regression::Level run_level = regression::level_from_name(level);
  std::vector<MutateOptions> gradings;
  for (const regression::GradingEntry& g : plan.gradings) {
    if (run_level < g.level) continue;
    MutateOptions o;
    o.unit = g.unit;
    o.config = g.config;
    o.plan_path = g.plan_path;
    o.level = level;
    o.count = static_cast<uint32_t>(g.count);
    o.parallel = parallel;
    o.out_dir = out_dir;
    o.db_path = db_path.empty() ? out_dir + "/results.db" : db_path;
    o.waiver_path = g.waivers_path;
    o.quiet = quiet;
    o.command_line = "dlaverif regress --plan " + plan_path + " --level " + level + " (grading " + g.config + ":" +
                     g.unit + ")";
    try {
      model_binary(o);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("plan '" + plan_path + "' grades " + g.config + ":" + g.unit + " at level " + level +
                                  ", but " + e.what());
    }
    gradings.push_back(o);
  }
  if (gradings.empty()) return kExitPass;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw std::invalid_argument("cannot create out dir '" + out_dir + "': " + ec.message());
  for (const MutateOptions& o : gradings) {
    std::cout << "regress: mutation grading of " << o.unit << " on " << o.config << " before the tests\n";
    const int rc = run_mutate(o);
    if (rc == kExitUsage || rc == 130) return rc;
  }
  return kExitPass;
}

Command add_mutate_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<MutateOptions>();
  auto* m = app.add_subcommand("mutate", "grade the testbench: run the plan's tests against mutants of a unit's RTL");
  m->add_option("--unit", o->unit, "unit whose RTL is mutated (bdma, sdp, pdp, ...)")->required();
  m->add_option("--config", o->config, "hardware configuration of the mutant model")->capture_default_str();
  m->add_option("--count", o->count, "grade mutants 1..N (default: every mutant in the model)");
  m->add_option("--mutants", o->only, "grade exactly these mutant ids (e.g. --mutants 3,17)")->delimiter(',');
  m->add_option("--plan", o->plan_path, "test plan; its entries for the unit are the tests")->capture_default_str();
  m->add_option("--level", o->level, "plan level: smoke | nightly | weekly")->capture_default_str();
  m->add_option("--seeds", o->seeds, "replace every entry's seed count");
  m->add_option("-j,--jobs", o->parallel, "test processes at once")->capture_default_str()->check(CLI::Range(1u, 256u));
  m->add_option("--budget", o->budget, "wall seconds per mutant over all its tests")->capture_default_str()
      ->check(CLI::PositiveNumber);
  m->add_option("--waivers", o->waiver_path, "YAML waiver file: equivalent mutants with a reason");
  m->add_option("--out", o->out_dir, "output directory")->capture_default_str();
  m->add_option("--db", o->db_path, "results store (default <out>/results.db)");
  m->add_option("--min-kill-rate", o->min_kill_rate, "exit 1 when the kill rate (0..1) is below this");
  m->add_flag("--quiet", o->quiet, "print only the summary");
  m->add_flag("--triage", o->triage, "formal triage of every survivor: equivalent, distinguishable (witness VCD) or "
                                     "unknown (needs yosys and yosys-abc)");
  m->add_option("--triage-settings", o->triage_settings, "per-model triage settings (depth, timeout, qualified ports)")
      ->capture_default_str();
  m->add_option("--triage-depth", o->triage_depth, "cycles searched from reset (default: the settings file)")
      ->check(CLI::Range(1u, 100000u));
  m->add_option("--triage-timeout", o->triage_timeout, "solver seconds per mutant (default: the settings file)")
      ->check(CLI::Range(1u, 1000000u));
  m->add_option("--triage-model-dir", o->triage_model_dir,
                "gen_mutants.py output of the model (default: <bin>/../mutation/<config>/<unit>)");
  m->add_option("--triage-script", o->triage_script, "formal_triage.py")->group("");
  m->add_option("--local-equiv-script", o->local_equiv_script, "local_equiv.py")->group("");
  m->add_option("--model-binary", o->model_binary, "mutant model binary (default: next to dlaverif)")->group("");
  Command c;
  c.run = [o, &command_line] {
    o->command_line = command_line;
    try {
      return run_mutate(*o);
    } catch (const std::invalid_argument& e) {
      std::cerr << "dlaverif mutate: " << e.what() << "\n";
      return kExitUsage;
    } catch (const std::runtime_error& e) {  // the grade could not be completed (nothing recorded)
      std::cerr << "dlaverif mutate: " << e.what() << "\n";
      return 1;
    }
  };
  return c;
}

}  // namespace dla::cli
