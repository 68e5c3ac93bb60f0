#include "dla/regression/regression.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "dla/build_info.h"
#include "dla/hwconfig.h"
#include "dla/regression/closure.h"
#include "dla/regression/code_coverage_closure.h"
#include "dla/regression/code_coverage_merge.h"
#include "dla/regression/constant_bits.h"
#include "dla/regression/job.h"
#include "dla/regression/local_launcher.h"
#include "dla/regression/outcome.h"
#include "dla/regression/plan.h"
#include "dla/regression/plan_writer.h"
#include "dla/regression/progress.h"
#include "dla/regression/reports.h"
#include "dla/regression/results_db.h"
#include "dla/regression/slurm_launcher.h"

namespace fs = std::filesystem;

namespace dla::regression {

namespace {

constexpr const char* kManifestFormat = "dlaverif-regression/1";

nlohmann::json job_json(const Job& j) {
  return {{"id", j.id}, {"entry", j.entry}, {"config", j.config}, {"test", j.test}, {"seed", j.seed},
          {"knobs", j.knobs}, {"golden_only", j.golden_only}, {"dut", j.dut}, {"axi_profile", j.axi_profile},
          {"timeout_seconds", j.timeout_seconds}, {"watchdog_cycles", j.watchdog_cycles}, {"perf_tolerance", j.perf_tolerance},
          {"covergroups", j.covergroups}};
}

Job job_from(const nlohmann::json& j) {
  Job r;
  r.id = j.at("id").get<std::string>();
  r.entry = j.at("entry").get<std::string>();
  r.config = j.at("config").get<std::string>();
  r.test = j.at("test").get<std::string>();
  r.seed = j.at("seed").get<uint64_t>();
  r.knobs = j.at("knobs").get<std::map<std::string, std::string>>();
  r.golden_only = j.at("golden_only").get<bool>();
  r.axi_profile = j.at("axi_profile").get<std::string>();
  // (not j.value("dut", ...): GCC 12 -O2 warns of a null dereference inside nlohmann's value())
  if (const auto it = j.find("dut"); it != j.end()) r.dut = it->get<std::string>();
  r.timeout_seconds = j.at("timeout_seconds").get<double>();
  r.watchdog_cycles = j.at("watchdog_cycles").get<uint64_t>();
  if (const auto it = j.find("perf_tolerance"); it != j.end()) r.perf_tolerance = it->get<std::string>();
  r.covergroups = j.at("covergroups").get<std::vector<std::string>>();
  return r;
}

struct Manifest {
  int64_t run_id = 0;
  std::string plan_path, plan_name, level, launcher, db_path, dlaverif;
  bool code_coverage = false, close_coverage = false;
  std::string code_coverage_waivers, code_coverage_goals;  // absolute path; "" = goals shown, not enforced
  std::vector<std::string> code_coverage_from;  // other code-coverage runs' out dirs merged in (absolute)
  nlohmann::json closure;  // null until the closure tests were chosen (they are then in jobs)
  std::vector<Job> jobs;
};

void save_manifest(const Manifest& m, const fs::path& path) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const Job& j : m.jobs) jobs.push_back(job_json(j));
  const nlohmann::json j = {{"format", kManifestFormat}, {"run_id", m.run_id}, {"plan", m.plan_path},
                            {"plan_name", m.plan_name}, {"level", m.level}, {"launcher", m.launcher},
                            {"db", m.db_path}, {"dlaverif", m.dlaverif}, {"code_coverage", m.code_coverage},
                            {"code_coverage_waivers", m.code_coverage_waivers},
                            {"code_coverage_goals", m.code_coverage_goals}, {"code_coverage_from", m.code_coverage_from},
                            {"close_coverage", m.close_coverage}, {"closure", m.closure}, {"jobs", jobs}};
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp);
    f << j.dump(1) << "\n";
    if (!f) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

Manifest load_manifest(const fs::path& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("no regression to resume in '" + path.parent_path().string() +
                                      "' (" + path.filename().string() + " is missing)");
  try {
    nlohmann::json j;
    f >> j;
    if (j.at("format").get<std::string>() != kManifestFormat) throw std::invalid_argument("unknown format");
    Manifest m;
    m.run_id = j.at("run_id").get<int64_t>();
    m.plan_path = j.at("plan").get<std::string>();
    m.plan_name = j.at("plan_name").get<std::string>();
    m.level = j.at("level").get<std::string>();
    m.launcher = j.at("launcher").get<std::string>();
    m.db_path = j.at("db").get<std::string>();
    m.dlaverif = j.at("dlaverif").get<std::string>();
    m.code_coverage = j.contains("code_coverage") && j["code_coverage"].get<bool>();
    m.close_coverage = j.contains("close_coverage") && j["close_coverage"].get<bool>();
    if (j.contains("code_coverage_waivers")) m.code_coverage_waivers = j["code_coverage_waivers"].get<std::string>();
    if (j.contains("code_coverage_goals")) m.code_coverage_goals = j["code_coverage_goals"].get<std::string>();
    if (j.contains("code_coverage_from"))
      m.code_coverage_from = j["code_coverage_from"].get<std::vector<std::string>>();
    if (j.contains("closure")) m.closure = j["closure"];
    for (const auto& x : j.at("jobs")) m.jobs.push_back(job_from(x));
    return m;
  } catch (const std::exception& e) {
    throw std::invalid_argument("regression manifest '" + path.string() + "' is unreadable: " + e.what());
  }
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the dlaverif executable (/proc/self/exe)");
  return p.string();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

// Merged functional coverage; the warnings of the merge are printed once each, with a count.
MergedCoverage merge_coverage(const std::vector<Outcome>& outcomes, const std::string& out_dir, std::ostream& err) {
  WarningLog warnings("regress");
  MergedCoverage m = merge_run_coverage(outcomes, out_dir, warnings);
  warnings.print(err);
  return m;
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

// Where the build put a configuration's constant-bit list (scripts/constant_bits.py, built
// with dlaverif-cov); DLA_CONSTANT_BITS_DIR in the environment overrides the build's folder.
fs::path constant_bits_path(const std::string& config) {
  const char* dir = std::getenv("DLA_CONSTANT_BITS_DIR");
  return fs::path(dir && *dir ? dir : DLA_CONSTANT_BITS_DIR) / config / "constant_bits.json";
}

// One test's code-coverage file and the configuration its model was.
struct CoverageFile {
  std::string config, path;
};

// The coverage files of this run's tests, then those of the finished tests of every run named
// by --code-coverage-from (that run's own tests, not the runs it merged in; a test without a
// result there is left out, with one warning per run; a run whose manifest is gone or unreadable
// by now is left out with a warning, so the report is still written).
std::vector<CoverageFile> run_coverage_files(const Manifest& m, const std::vector<Outcome>& outcomes,
                                             const fs::path& out, std::ostream& err) {
  std::vector<CoverageFile> files;
  for (const Outcome& o : outcomes)
    for (const std::string& f : code_coverage_files((out / o.result_dir).string())) files.push_back({o.config, f});
  for (const std::string& dir : m.code_coverage_from) {
    const fs::path path = fs::path(dir) / "manifest.json";
    if (!fs::exists(path)) {
      err << "regress: warning: --code-coverage-from '" << dir << "': manifest.json is gone (its coverage left out)\n";
      continue;
    }
    Manifest other;
    try {
      other = load_manifest(path);
    } catch (const std::invalid_argument& e) {  // changed since the run started: say so, keep the rest
      err << "regress: warning: --code-coverage-from '" << dir << "': " << e.what() << " (its coverage left out)\n";
      continue;
    }
    size_t missing = 0;
    for (const Job& j : other.jobs) {
      Outcome o;
      if (!load_outcome(j, dir, o)) {
        ++missing;
        continue;
      }
      for (const std::string& f : code_coverage_files((fs::path(dir) / o.result_dir).string()))
        files.push_back({o.config, f});
    }
    if (missing)
      err << fmt::format("regress: warning: --code-coverage-from '{}': {} of {} tests have no result (their coverage is "
                         "left out)\n",
                         dir, missing, other.jobs.size());
  }
  return files;
}

std::vector<std::string> paths_of(const std::vector<CoverageFile>& files) {
  std::vector<std::string> paths;
  for (const CoverageFile& f : files) paths.push_back(f.path);
  return paths;
}

// Code-coverage closure per configuration (each merged on its own when the run has several):
// uncovered lines and toggles less the waivers, against the goals. Writes
// coverage/code/closure.json and fills the report; false when enforced goals are missed.
bool close_run_code_coverage(const Manifest& m, const std::vector<CoverageFile>& files, const MergedCodeCoverage& all,
                             const fs::path& out, CodeCoverageReport& c, std::ostream& os, std::ostream& err) {
  std::vector<CodeCoverageWaiver> waivers;
  if (!m.code_coverage_waivers.empty()) {
    try {
      waivers = load_code_coverage_waivers(m.code_coverage_waivers);
    } catch (const std::invalid_argument& e) {  // changed since the run started: say so, keep the rest
      err << "regress: warning: " << e.what() << " (code coverage closed without waivers)\n";
    }
    c.waivers = m.code_coverage_waivers;
  }
  c.goals_enforced = !m.code_coverage_goals.empty();
  if (c.goals_enforced) c.goals = parse_code_coverage_goals(m.code_coverage_goals);
  std::map<std::string, std::vector<std::string>> dat_by_config;
  for (const CoverageFile& f : files) dat_by_config[f.config].push_back(f.path);
  std::map<size_t, size_t> unused;  // entry -> configurations where it applied and excused nothing
  std::map<std::string, std::string> constant_lists;  // config -> constant-bit list used ("" none)
  std::map<size_t, size_t> applied;
  for (const auto& [config, dat] : dat_by_config) {
    CodeCoverage one;
    if (dat_by_config.size() == 1) {
      one = all.data;
    } else {
      const MergedCodeCoverage mc = merge_code_coverage(dat, (out / "coverage" / "code" / config).string(), err);
      if (!mc.merged) continue;
      one = mc.data;
    }
    const fs::path constants_path = constant_bits_path(config);
    std::optional<ConstantBits> constants;
    if (fs::exists(constants_path)) {
      try {
        constants = ConstantBits::load(constants_path.string());
      } catch (const std::runtime_error& e) {
        err << "regress: warning: " << e.what() << " (constant bits count in the toggle goal)\n";
      }
    } else {
      err << "regress: warning: no constant-bit list for configuration " << config << " (" << constants_path.string()
          << ", built with dlaverif-cov): constant bits count in the toggle goal\n";
    }
    constant_lists[config] = constants ? constants_path.string() : "";
    c.closure.push_back(close_code_coverage(one, config, waivers, constants ? &*constants : nullptr));
    for (const CodeCoverageWaiver& w : waivers)
      if (w.config.empty() || w.config == config) ++applied[w.entry];
    for (size_t e : c.closure.back().unused_waivers) ++unused[e];
  }
  for (const auto& [e, n] : unused)
    if (n == applied[e]) c.unused_waivers.push_back(e);
  bool ok = true;
  nlohmann::json rows = nlohmann::json::array();
  for (const ConfigCodeClosure& cfg : c.closure)
    for (const UnitCodeClosure& u : cfg.units) {
      const bool met = u.meets(c.goals);
      ok &= met || !c.goals_enforced;
      nlohmann::json lines = nlohmann::json::object(), toggles = nlohmann::json::object();
      for (const auto& [file, ranges] : u.uncovered_lines) lines[file] = format_line_ranges(ranges);
      for (const auto& [signal, bits] : u.uncovered_toggles) toggles[signal] = bits;
      rows.push_back({{"config", u.config}, {"unit", u.unit}, {"lines", u.lines}, {"lines_hit", u.lines_hit},
                      {"lines_waived", u.lines_waived}, {"line_percent", u.line_percent()}, {"toggles", u.toggles},
                      {"toggles_hit", u.toggles_hit}, {"toggles_waived", u.toggles_waived},
                      {"toggles_constant", u.toggles_constant}, {"toggles_constant_counted", u.toggles_constant_counted},
                      {"toggle_percent", u.toggle_percent()}, {"goals_met", met}, {"uncovered_lines", lines},
                      {"uncovered_toggles", toggles}});
      if (!met)
        os << fmt::format("code coverage {} {}: line {:.1f}% (goal {:.0f}%), toggle {:.1f}% (goal {:.0f}%), {} lines "
                          "uncovered{}\n",
                          u.config, u.unit, u.line_percent(), c.goals.line_percent, u.toggle_percent(),
                          c.goals.toggle_percent, u.uncovered_line_count(), c.goals_enforced ? "" : " (goals not enforced)");
    }
  for (size_t e : c.unused_waivers)
    err << "regress: warning: code-coverage waiver file " << c.waivers << ": entry " << e
        << " excused nothing on any configuration (stale?)\n";
  write_text(out / "coverage" / "code" / "closure.json",
             nlohmann::json{{"goals", {{"line", c.goals.line_percent}, {"toggle", c.goals.toggle_percent}}},
                            {"goals_enforced", c.goals_enforced}, {"waivers", c.waivers},
                            {"merged_from", m.code_coverage_from}, {"constant_bits", constant_lists},
                            {"unused_waivers", c.unused_waivers}, {"units", rows}}
                     .dump(1) + "\n");
  if (!ok) os << "code coverage: goals missed (" << m.code_coverage_goals << ")\n";
  return ok;
}

// Merged coverage, JUnit, HTML; the summary lines. Returns the exit code.
int finish(const Manifest& m, ResultsDb& db, const std::vector<Outcome>& outcomes, const fs::path& out,
           double seconds, std::ostream& os, std::ostream& err) {
  const MergedCoverage mc = merge_coverage(outcomes, out.string(), err);
  const cov::CoverageData& merged = mc.all;
  bool code_closure_ok = true;
  fs::create_directories(out / "coverage");
  merged.save((out / "coverage" / "merged.json").string(), {{"run_id", m.run_id}, {"plan", m.plan_name}, {"level", m.level}});
  for (const auto& [config, data] : mc.by_config)
    data.save((out / "coverage" / ("merged-" + config + ".json")).string(),
              {{"run_id", m.run_id}, {"plan", m.plan_name}, {"level", m.level}, {"config", config}});
  {
    std::string holes;
    for (const cov::Hole& h : merged.holes()) holes += h.path() + "\n";
    write_text(out / "coverage" / "holes.txt", holes);
  }
  db.finish_run(m.run_id, merged, mc.by_config);
  ReportInput in;
  if (!m.closure.is_null()) {
    ClosureReport& c = in.closure;
    c.done = true;
    c.before = m.closure.at("before").get<double>();
    c.holes_before = m.closure.at("holes_before").get<size_t>();
    c.screened = m.closure.at("screened").get<size_t>();
    c.rejected = m.closure.at("rejected").get<size_t>();
    c.kept = m.closure.at("kept").get<std::vector<std::string>>();
    c.plan = m.closure.at("plan").get<std::string>();
    c.after = merged.empty() ? 0 : merged.percent();
    c.holes_after = merged.holes().size();
    db.record_closure(m.run_id, ClosureRow{c.before, c.after, c.holes_before, c.holes_after, c.screened, c.rejected,
                                           c.kept.size()});
    os << fmt::format("closure: functional coverage {:.1f}% ({} holes) before, {:.1f}% ({} holes) after {} closure test{}\n",
                      c.before, c.holes_before, c.after, c.holes_after, c.kept.size(), c.kept.size() == 1 ? "" : "s");
  }
  if (m.code_coverage) {
    const std::vector<CoverageFile> files = run_coverage_files(m, outcomes, out, err);
    const MergedCodeCoverage cc = merge_code_coverage(paths_of(files), (out / "coverage" / "code").string(), err);
    if (cc.merged) {
      CodeCoverageReport& c = in.code;
      c.done = true;
      c.tests_merged = cc.files;
      c.units = cc.data.per_unit();
      c.files = cc.data.per_file();
      c.total = cc.data.total();
      if (cc.html) c.html = "coverage/code/html/index.html";
      db.record_code_coverage(m.run_id, c.files);
      os << fmt::format("code coverage: line {:.1f}%, toggle {:.1f}% over {} coverage files{}: {}\n", c.total.line_percent(),
                        c.total.toggle_percent(), cc.files,
                        m.code_coverage_from.empty()
                            ? ""
                            : fmt::format(" (with {} other run{})", m.code_coverage_from.size(),
                                          m.code_coverage_from.size() == 1 ? "" : "s"),
                        cc.html ? (out / c.html).string() : (out / "coverage" / "code" / "merged.dat").string());
      code_closure_ok = close_run_code_coverage(m, files, cc, out, c, os, err);
    }
  }
  {
    const Ranking r = rank_tests(outcomes, out.string());
    if (!r.kept.empty()) {
      std::vector<Job> kept;
      for (const Outcome* o : r.kept) kept.push_back(job_of(*o, m.jobs));
      write_text(out / "coverage" / "ranked.yaml",
                 plan_yaml(m.plan_name + "-ranked",
                           fmt::format("{} of {} tests of run #{} that hit every functional coverage bin the run hit ({})",
                                       r.kept.size(), r.tests, m.run_id, r.bins),
                           kept));
      in.ranked_plan = "coverage/ranked.yaml";
      in.ranked_tests = r.kept.size();
      os << fmt::format("ranking: {} of {} tests keep all {} hit bins: {}\n", r.kept.size(), r.tests, r.bins,
                        (out / in.ranked_plan).string());
    }
  }
  in.run = db.run(m.run_id);
  in.outcomes = outcomes;
  in.coverage = merged;
  in.coverage_by_config = mc.by_config;
  in.history = db.runs(30);
  in.out_dir = fs::absolute(out).lexically_normal().string();
  write_text(out / "junit.xml", junit_xml(in));
  write_text(out / "report.html", html_report(in));

  size_t passed = 0;
  for (const Outcome& o : outcomes) passed += o.passed();
  const auto buckets = failure_buckets(outcomes);
  os << fmt::format("regress: {} tests: {} pass, {} fail ({} signature bucket{}); functional coverage {}; {:.1f} s\n",
                    outcomes.size(), passed, outcomes.size() - passed, buckets.size(), buckets.size() == 1 ? "" : "s",
                    merged.empty() ? std::string("n/a") : fmt::format("{:.1f}%", merged.percent()), seconds);
  for (const Bucket& b : buckets)
    os << fmt::format("  {} x{}: e.g. dlaverif repro {}\n", b.signature, b.outcomes.size(),
                      (out / b.outcomes.front()->result_dir).string());
  if (!merged.empty())
    os << "functional coverage per covergroup, merged and per configuration:\n"
       << coverage_table_text(merged, mc.by_config);
  os << runner_overhead(outcomes).text() << "\n";
  os << "report: " << (out / "report.html").string() << "\n";
  return passed == outcomes.size() && code_closure_ok ? 0 : 1;
}

// The plan's jobs of the named configurations only (regress --config); an unknown name or a
// filter that leaves nothing is bad input.
std::vector<Job> only_configs(std::vector<Job> jobs, const std::vector<std::string>& configs,
                              const std::string& plan_path) {
  for (const std::string& c : configs)
    if (!HwConfig::find(c)) throw std::invalid_argument("--config '" + c + "': no such configuration (see dlaverif list)");
  std::vector<Job> kept;
  for (Job& j : jobs)
    if (std::find(configs.begin(), configs.end(), j.config) != configs.end()) kept.push_back(std::move(j));
  if (kept.empty() && !jobs.empty())
    throw std::invalid_argument("plan '" + plan_path + "' has no test of configuration(s) " +
                                fmt::format("{}", fmt::join(configs, ", ")) + " at this level");
  return kept;
}

// Every RTL job of a --code-coverage run needs a coverage model in dlaverif-cov, which holds
// only the configurations of DLA_CODE_COVERAGE_CONFIGS: refuse before anything runs rather
// than fail each test.
void check_coverage_models(const std::string& cov_binary, const std::vector<Job>& jobs) {
  std::string listed;
  if (capture_command(shell_quote(cov_binary) + " list --models", listed) != 0)
    throw std::invalid_argument(cov_binary + " list --models failed (rebuild dlaverif-cov): " + listed);
  std::set<std::string> built;  // "<config> <dut>"
  for (size_t a = 0, b = 0; a < listed.size(); a = b + 1) {
    b = std::min(listed.find('\n', a), listed.size());
    if (b > a) built.insert(listed.substr(a, b - a));
  }
  std::set<std::string> missing;
  for (const Job& j : jobs)
    if (!j.golden_only && !built.count(j.config + " " + j.dut)) missing.insert(j.config);
  if (missing.empty()) return;
  std::set<std::string> have;
  for (const std::string& b : built) have.insert(b.substr(0, b.find(' ')));
  throw std::invalid_argument(
      fmt::format("--code-coverage: {} has no coverage model of configuration(s) {} (it has: {}); run only the "
                  "others with --config, or build them: cmake -DDLA_CODE_COVERAGE_CONFIGS=\"{}\" <build dir>",
                  cov_binary, fmt::join(missing, ", "), have.empty() ? "none" : fmt::format("{}", fmt::join(have, ", ")),
                  fmt::format("{}", fmt::join(have, ";")) + (have.empty() ? "" : ";") + fmt::format("{}", fmt::join(missing, ";"))));
}

// --code-coverage-waivers / --code-coverage-goals into the manifest, refused now (not after the
// tests) when they do not load. A new run takes what the options leave out from the plan's
// code_coverage section (`plan`; nullptr on --resume, where the manifest already holds it).
void take_code_coverage_closure_options(const RegressOptions& opt, Manifest& m, const fs::path& out,
                                       const Plan* plan = nullptr) {
  if (!opt.code_coverage_from.empty()) {
    m.code_coverage_from.clear();
    for (const std::string& d : opt.code_coverage_from) {
      const fs::path dir = fs::absolute(d).lexically_normal();
      const std::string what = "--code-coverage-from '" + d + "'";
      if (!fs::exists(dir / "manifest.json"))
        throw std::invalid_argument(what + ": no regression there (manifest.json is missing)");
      if (same_file(dir.string(), out.string())) throw std::invalid_argument(what + " is this run's own out dir");
      Manifest other;
      try {
        other = load_manifest(dir / "manifest.json");
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(what + ": " + e.what());
      }
      if (!other.code_coverage) throw std::invalid_argument(what + ": that regression ran without --code-coverage");
      for (const std::string& seen : m.code_coverage_from)
        if (same_file(seen, dir.string())) throw std::invalid_argument(what + " is named twice");
      m.code_coverage_from.push_back(dir.string());
    }
  }
  if (!opt.code_coverage_waivers.empty()) {
    load_code_coverage_waivers(opt.code_coverage_waivers);
    m.code_coverage_waivers = fs::absolute(opt.code_coverage_waivers).lexically_normal().string();
  } else if (plan && m.code_coverage && !plan->code_coverage.waivers_path.empty()) {
    m.code_coverage_waivers = fs::absolute(plan->code_coverage.waivers_path).lexically_normal().string();
  }
  if (!opt.code_coverage_goals.empty()) {
    parse_code_coverage_goals(opt.code_coverage_goals);
    m.code_coverage_goals = opt.code_coverage_goals;
  } else if (plan && m.code_coverage) {
    m.code_coverage_goals = plan->code_coverage.goals;
  }
}

}  // namespace

int run_regression(const RegressOptions& opt, std::ostream& os, std::ostream& err) {
  const auto t0 = std::chrono::steady_clock::now();
  if (opt.launcher != "local" && opt.launcher != "slurm")
    throw std::invalid_argument("--launcher '" + opt.launcher + "' is not local or slurm");
  if (opt.close_coverage && opt.launcher == "slurm" && !opt.resume && !opt.collect)
    throw std::invalid_argument("--close-coverage needs the local launcher (it screens candidates between two phases)");
  if (opt.out_dir.empty()) throw std::invalid_argument("--out must name a directory");
  const fs::path out = fs::absolute(opt.out_dir).lexically_normal();
  const fs::path manifest_path = out / "manifest.json";

  Manifest m;
  if (opt.resume || opt.collect) {
    if (!opt.configs.empty())
      throw std::invalid_argument("--config selects the entries of a new run; --resume and --collect finish the run's own "
                                  "tests");
    m = load_manifest(manifest_path);
    m.close_coverage = m.close_coverage || opt.close_coverage;
    // A finished code-coverage run can be closed again with another waiver file or goals.
    if (!m.code_coverage &&
        (!opt.code_coverage_waivers.empty() || !opt.code_coverage_goals.empty() || !opt.code_coverage_from.empty()))
      throw std::invalid_argument("--code-coverage-waivers, --code-coverage-goals and --code-coverage-from: the "
                                  "regression in '" + out.string() + "' ran without --code-coverage");
    take_code_coverage_closure_options(opt, m, out);
    if (!opt.plan_path.empty() && fs::weakly_canonical(opt.plan_path) != fs::weakly_canonical(m.plan_path))
      throw std::invalid_argument("out dir '" + out.string() + "' holds a regression of plan '" + m.plan_path +
                                  "', not '" + opt.plan_path + "'");
  } else {
    if (opt.plan_path.empty()) throw std::invalid_argument("--plan is required (unless --resume or --collect)");
    const Plan plan = load_plan(opt.plan_path);  // validates everything before anything runs
    const Level level = level_from_name(opt.level);
    WarningLog skipped("regress", "skipped");
    m.jobs = expand(plan, level, opt.seeds, &skipped);
    if (!opt.configs.empty()) m.jobs = only_configs(std::move(m.jobs), opt.configs, opt.plan_path);
    const bool some_skipped = !skipped.empty();
    skipped.print(err);
    if (m.jobs.empty() && some_skipped) {  // not a failure: the plan's oracle is optional
      os << "regress: nothing to run: every entry of plan '" << opt.plan_path
         << "' at this level needs a model this build lacks\n";
      return 0;
    }
    if (m.jobs.empty())
      throw std::invalid_argument("plan '" + opt.plan_path + "' has no test at level '" + opt.level + "'");
    m.plan_path = fs::absolute(opt.plan_path).lexically_normal().string();
    m.plan_name = plan.name.empty() ? fs::path(opt.plan_path).stem().string() : plan.name;
    m.level = opt.level;
    m.launcher = opt.launcher;
    m.db_path = opt.db_path.empty() ? (out / "results.db").string() : fs::absolute(opt.db_path).string();
    m.dlaverif = opt.dlaverif.empty() ? self_executable() : fs::absolute(opt.dlaverif).string();
    m.code_coverage = opt.code_coverage;
    m.close_coverage = opt.close_coverage;
    if (!opt.code_coverage &&
        (!opt.code_coverage_waivers.empty() || !opt.code_coverage_goals.empty() || !opt.code_coverage_from.empty()))
      throw std::invalid_argument("--code-coverage-waivers, --code-coverage-goals and --code-coverage-from need "
                                  "--code-coverage");
    take_code_coverage_closure_options(opt, m, out, &plan);
    if (opt.code_coverage && opt.dlaverif.empty()) {
      m.dlaverif = (fs::path(m.dlaverif).parent_path() / "dlaverif-cov").string();
      if (access(m.dlaverif.c_str(), X_OK) != 0)
        throw std::invalid_argument("--code-coverage runs the tests with " + m.dlaverif +
                                    ", which is not built (cmake --build <build dir> --target dlaverif-cov)");
      check_coverage_models(m.dlaverif, m.jobs);
    }
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) throw std::invalid_argument("cannot create out dir '" + out.string() + "': " + ec.message());
    if (access(out.c_str(), W_OK) != 0) throw std::invalid_argument("out dir '" + out.string() + "' is not writable");
    // A new run replaces the previous run's files; its results stay in the store.
    for (const char* stale : {"tests", "slurm", "coverage", "closure", "manifest.json", "report.html", "junit.xml"})
      fs::remove_all(out / stale);
  }

  ResultsDb db(m.db_path);
  if (m.run_id == 0) {
    RunInfo info;
    info.started = utc_now();
    info.plan = m.plan_name;
    info.level = m.level;
    info.launcher = m.launcher;
    info.git_revision = build_info().git_revision;
    info.command_line = opt.command_line;
    info.out_dir = out.string();
    info.total = static_cast<int64_t>(m.jobs.size());
    m.run_id = db.begin_run(info);
    save_manifest(m, manifest_path);
  }

  // What is already finished (resume): recorded again, so the store matches the directories.
  std::map<std::string, Outcome> done;
  for (const Job& j : m.jobs) {
    Outcome o;
    if (load_outcome(j, out.string(), o)) {
      db.record(m.run_id, o);
      done[j.id] = o;
    }
  }
  std::vector<Job> todo;
  for (const Job& j : m.jobs)
    if (!done.count(j.id)) todo.push_back(j);

  auto record = [&](const Outcome& o) {
    save_outcome(o, out.string());
    db.record(m.run_id, o);
    done[o.job_id] = o;
  };

  if (m.launcher == "slurm") {
    if (m.close_coverage)
      throw std::invalid_argument("--close-coverage needs the local launcher (it screens candidates between two phases)");
    if (!opt.collect) {
      SlurmOptions so;
      so.dlaverif = m.dlaverif;
      so.out_dir = out.string();
      so.job_name = "dlaverif-" + m.plan_name + "-" + m.level;
      so.max_parallel = opt.parallel;
      const std::string script = write_slurm_array(todo.empty() ? m.jobs : todo, so);
      if (opt.submit) {
        const std::string array = submit_slurm_array(script);
        os << fmt::format("regress: {} tests submitted as Slurm job array {} (run #{}); following it\n", todo.size(),
                          array, m.run_id);
        wait_for_slurm_job(array, opt.poll_seconds);
        for (const Job& j : todo) record(collect_slurm(j, out.string()));
        std::vector<Outcome> outcomes;
        for (const Job& j : m.jobs) outcomes.push_back(done.at(j.id));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return finish(m, db, outcomes, out, seconds, os, err);
      }
      os << fmt::format("regress: {} tests as a Slurm job array (run #{})\n  submit:  sbatch {}\n  collect: "
                        "dlaverif regress --collect --out {}\n",
                        todo.size(), m.run_id, script, out.string());
      return 0;
    }
    for (const Job& j : todo) record(collect_slurm(j, out.string()));
  } else {
    if (opt.collect) throw std::invalid_argument("--collect gathers a Slurm run; this out dir was run locally");
    LaunchOptions lo;
    lo.dlaverif = m.dlaverif;
    lo.out_dir = out.string();
    lo.parallel = opt.parallel;
    lo.stop_after = opt.stop_after;
    if (opt.fork_server && same_file(m.dlaverif, self_executable())) lo.fork_server = opt.fork_server;
    os << fmt::format("regress: plan {} level {}: {} tests{}, -j {}, out {}\n", m.plan_name, m.level, m.jobs.size(),
                      done.empty() ? "" : fmt::format(" ({} already done)", done.size()), opt.parallel, out.string());
    size_t failed = 0;
    for (const auto& [id, o] : done) failed += !o.passed();
    Progress progress(os, isatty(STDOUT_FILENO) != 0, m.jobs.size(), done.size(), failed, opt.quiet);
    bool complete = run_local(todo, lo, [&](const Outcome& o) {
      record(o);
      progress.finished(o);
    });
    progress.close();
    if (complete && m.close_coverage && m.closure.is_null()) {
      std::vector<Outcome> so_far;
      for (const Job& j : m.jobs) so_far.push_back(done.at(j.id));
      const cov::CoverageData before = merge_coverage(so_far, out.string(), err).all;
      ClosureOptions co;
      co.candidates = opt.closure_candidates;
      co.max_tests = opt.closure_tests;
      co.seed = opt.closure_seed;
      const ClosureSelection sel = select_closure_tests(m.jobs, before, co);
      std::vector<Job> picks;
      std::vector<std::string> kept;
      for (const ClosurePick& p : sel.picks) {
        picks.push_back(p.job);
        kept.push_back(p.job.id);
      }
      fs::create_directories(out / "closure");
      write_text(out / "closure" / "plan.yaml",
                 plan_yaml(m.plan_name + "-closure",
                           fmt::format("closure tests of run #{}: {} picked from {} golden-only candidates", m.run_id,
                                       picks.size(), sel.screened),
                           picks));
      nlohmann::json picked = nlohmann::json::array();
      for (const ClosurePick& p : sel.picks) picked.push_back({{"job", p.job.id}, {"knobs", p.job.knobs}, {"new_holes_hit", p.holes}});
      write_text(out / "closure" / "selection.json",
                 nlohmann::json{{"screened", sel.screened}, {"rejected", sel.rejected}, {"holes_before", sel.holes_before},
                                {"picks", picked}, {"holes_left", sel.holes_left}}
                         .dump(1) +
                     "\n");
      m.closure = {{"before", before.empty() ? 0.0 : before.percent()}, {"holes_before", sel.holes_before},
                   {"screened", sel.screened}, {"rejected", sel.rejected}, {"kept", kept}, {"plan", "closure/plan.yaml"}};
      m.jobs.insert(m.jobs.end(), picks.begin(), picks.end());
      save_manifest(m, manifest_path);
      size_t newly = 0;
      for (const ClosurePick& p : sel.picks) newly += p.holes.size();
      os << fmt::format("closure: screened {} candidates golden-only ({} rejected); {} of them hit {} of {} holes; "
                        "running them\n",
                        sel.screened, sel.rejected, picks.size(), newly, sel.holes_before);
      Progress closure_progress(os, isatty(STDOUT_FILENO) != 0, picks.size(), 0, 0, opt.quiet);
      complete = run_local(picks, lo, [&](const Outcome& o) {
        record(o);
        closure_progress.finished(o);
      });
      closure_progress.close();
    }
    if (!complete) {
      os << fmt::format("regress: interrupted with {} of {} tests done (results kept); finish with: dlaverif regress "
                        "--resume --out {}\n",
                        done.size(), m.jobs.size(), out.string());
      return kExitInterrupted;
    }
  }
  std::vector<Outcome> outcomes;
  for (const Job& j : m.jobs) outcomes.push_back(done.at(j.id));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return finish(m, db, outcomes, out, seconds, os, err);
}

}  // namespace dla::regression
