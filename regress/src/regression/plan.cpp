#include "dla/regression/plan.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "dla/bfm/axi_timing.h"
#include "dla/coverage/unit_coverage.h"
#include "dla/hwconfig.h"
#include "dla/perf_budget.h"
#include "dla/regression/code_coverage_closure.h"
#include "dla/test_generator.h"

namespace dla::regression {

const char* level_name(Level l) {
  switch (l) {
    case Level::Smoke: return "smoke";
    case Level::Nightly: return "nightly";
    case Level::Weekly: return "weekly";
  }
  return "?";
}

Level level_from_name(const std::string& s) {
  if (s == "smoke") return Level::Smoke;
  if (s == "nightly") return Level::Nightly;
  if (s == "weekly") return Level::Weekly;
  throw std::invalid_argument("level '" + s + "' is not smoke, nightly or weekly");
}

uint64_t PlanEntry::seed_count(Level run) const {
  if (run < level) return 0;
  uint64_t n = 0;
  for (const auto& [l, count] : seeds)
    if (l <= run) n = count;
  return n;
}

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool valid_name(const std::string& n) {
  return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

class EntryReader {
 public:
  EntryReader(const std::string& where, const YAML::Node& node) : where_(where), node_(node) {}

  [[noreturn]] void fail(const std::string& rule) const { throw std::invalid_argument(where_ + ": " + rule); }

  void check_fields(const std::set<std::string>& allowed) const {
    if (!node_.IsMap()) fail("an entry must be a mapping of fields");
    for (const auto& kv : node_) {
      const std::string key = kv.first.as<std::string>();
      if (!allowed.count(key))
        fail("unknown field '" + key + "' (fields: " + join({allowed.begin(), allowed.end()}) + ")");
    }
  }
  bool has(const char* key) const { return static_cast<bool>(node_[key]); }
  std::string text(const char* key, const std::string& fallback, bool required = false) const {
    const YAML::Node n = node_[key];
    if (!n) {
      if (required) fail("field '" + std::string(key) + "' is required");
      return fallback;
    }
    if (!n.IsScalar()) fail("field '" + std::string(key) + "' must be a single value");
    return n.as<std::string>();
  }
  uint64_t count(const YAML::Node& n, const std::string& what, uint64_t lo) const {
    uint64_t v = 0;
    try {
      if (!n.IsScalar()) throw YAML::Exception(YAML::Mark::null_mark(), "");
      const std::string s = n.as<std::string>();
      size_t used = 0;
      v = std::stoull(s, &used, 0);
      if (used != s.size() || s[0] == '-') throw std::invalid_argument(s);
    } catch (const std::exception&) {
      fail(what + " must be a whole number");
    }
    if (v < lo) fail(what + " must be at least " + std::to_string(lo));
    return v;
  }
  uint64_t number(const char* key, uint64_t fallback, uint64_t lo) const {
    return has(key) ? count(node_[key], "field '" + std::string(key) + "'", lo) : fallback;
  }
  bool flag(const char* key) const {
    if (!has(key)) return false;
    const std::string s = text(key, "");
    if (s == "true") return true;
    if (s == "false") return false;
    fail("field '" + std::string(key) + "' must be true or false");
  }
  const YAML::Node& node() const { return node_; }
  const std::string& where() const { return where_; }

 private:
  std::string where_;
  YAML::Node node_;
};

PlanEntry read_entry(const EntryReader& r, double default_timeout) {
  r.check_fields({"name", "test", "config", "configs", "level", "seeds", "first_seed", "owner", "knobs", "covergroups",
                  "golden_only", "dut", "axi_profile", "timeout", "watchdog", "perf_tolerance"});
  PlanEntry e;
  e.name = r.text("name", "", true);
  if (!valid_name(e.name)) r.fail("entry name '" + e.name + "' may only use letters, digits, '.', '_' and '-'");
  e.test = r.text("test", "", true);
  e.config = r.text("config", HwConfig::default_config().name);
  try {
    e.level = level_from_name(r.text("level", "smoke"));
  } catch (const std::invalid_argument& ex) {
    r.fail(ex.what());
  }
  const YAML::Node seeds = r.node()["seeds"];
  if (!seeds) {
    e.seeds[e.level] = 1;
  } else if (seeds.IsMap()) {
    for (const auto& kv : seeds) {
      Level l{};
      try {
        l = level_from_name(kv.first.as<std::string>());
      } catch (const std::invalid_argument& ex) {
        r.fail(std::string("seeds: ") + ex.what());
      }
      e.seeds[l] = r.count(kv.second, "seeds." + kv.first.as<std::string>(), 1);
    }
    if (e.seeds.begin()->first > e.level)
      r.fail("seeds: no count for the entry's own level '" + std::string(level_name(e.level)) + "'");
  } else {
    e.seeds[e.level] = r.count(seeds, "field 'seeds'", 1);
  }
  e.first_seed = r.number("first_seed", 1, 0);
  e.owner = r.text("owner", "");
  if (const YAML::Node k = r.node()["knobs"]) {
    if (!k.IsMap()) r.fail("field 'knobs' must be a mapping NAME: VALUE");
    for (const auto& kv : k) {
      if (!kv.second.IsScalar()) r.fail("knob '" + kv.first.as<std::string>() + "' must be a single value");
      e.knobs[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
  }
  if (const YAML::Node c = r.node()["covergroups"]) {
    if (!c.IsSequence()) r.fail("field 'covergroups' must be a list");
    for (const auto& g : c) e.covergroups.push_back(g.as<std::string>());
  }
  e.golden_only = r.flag("golden_only");
  e.dut = r.text("dut", e.dut);
  if (e.dut != "rtl" && e.dut != "nvdla") r.fail("dut '" + e.dut + "' is not one of rtl|nvdla");
  e.axi_profile = r.text("axi_profile", "random");
  static const std::vector<std::string> profiles = tb::AxiTiming::profile_names();
  if (std::find(profiles.begin(), profiles.end(), e.axi_profile) == profiles.end())
    r.fail("axi_profile '" + e.axi_profile + "' is not one of " + join(profiles));
  e.timeout_seconds = static_cast<double>(r.number("timeout", static_cast<uint64_t>(default_timeout), 1));
  e.watchdog_cycles = r.number("watchdog", 0, 1);
  e.perf_tolerance = r.text("perf_tolerance", "");
  try {
    parse_perf_tolerance(e.perf_tolerance, "field 'perf_tolerance'");
  } catch (const std::invalid_argument& ex) {
    r.fail(ex.what());
  }
  return e;
}

// `configs: [A, B, ...]` instead of `config`: the entry once per configuration, named
// `<name>.<config>` (the same tests, knobs and seeds on each configuration's model).
std::vector<PlanEntry> expand_configs(const EntryReader& r, PlanEntry e) {
  const YAML::Node list = r.node()["configs"];
  if (!list) return {std::move(e)};
  if (r.has("config")) r.fail("fields 'config' and 'configs' exclude each other");
  if (!list.IsSequence() || list.size() == 0) r.fail("field 'configs' must be a non-empty list of configurations");
  std::vector<PlanEntry> out;
  std::set<std::string> seen;
  for (const YAML::Node& c : list) {
    if (!c.IsScalar()) r.fail("field 'configs' must list configuration names");
    const std::string name = c.as<std::string>();
    if (!seen.insert(name).second) r.fail("configuration '" + name + "' is listed twice in 'configs'");
    PlanEntry one = e;
    one.config = name;
    one.name = e.name + "." + name;
    out.push_back(std::move(one));
  }
  return out;
}

// The parts of a valid entry that need the generators and the coverage models.
void check_against_project(const EntryReader& r, const PlanEntry& e) {
  const HwConfig* cfg = nullptr;
  const TestGenerator* gen = nullptr;
  try {
    cfg = &HwConfig::get(e.config);
    gen = &find_test_generator(e.test);
    // Builds one program: checks knob names and values exactly as a run would.
    gen->generate(*cfg, e.first_seed, e.knobs);
  } catch (const std::invalid_argument& ex) {
    r.fail(ex.what());
  }
  const std::vector<std::string> known = cov::covergroup_names(*cfg);
  for (const std::string& g : e.covergroups)
    if (std::find(known.begin(), known.end(), g) == known.end())
      r.fail("unknown covergroup '" + g + "' for configuration '" + e.config + "' (known: " +
             (known.empty() ? std::string("none") : join(known)) + ")");
}

GradingEntry read_grading(const EntryReader& r, const std::string& plan_path) {
  r.check_fields({"unit", "config", "level", "plan", "count", "waivers"});
  GradingEntry g;
  g.unit = r.text("unit", "", true);
  if (!valid_name(g.unit) || g.unit.find('-') != std::string::npos || g.unit.find('.') != std::string::npos)
    r.fail("unit '" + g.unit + "' may only use letters, digits and '_'");
  g.config = r.text("config", HwConfig::default_config().name);
  try {
    HwConfig::get(g.config);
    g.level = level_from_name(r.text("level", "weekly"));
  } catch (const std::invalid_argument& ex) {
    r.fail(ex.what());
  }
  namespace fs = std::filesystem;
  const fs::path own = r.text("plan", "mutation.yaml");
  g.plan_path = (own.is_absolute() ? own : fs::path(plan_path).parent_path() / own).lexically_normal().string();
  if (fs::weakly_canonical(g.plan_path) == fs::weakly_canonical(plan_path))
    r.fail("a plan cannot be its own grading plan");
  Plan grading;
  try {
    grading = load_plan(g.plan_path);
  } catch (const std::invalid_argument& ex) {
    r.fail(std::string("grading plan: ") + ex.what());
  }
  if (!grading.gradings.empty()) r.fail("grading plan '" + g.plan_path + "' has gradings of its own");
  g.count = r.number("count", 0, 1);
  if (r.has("waivers")) {
    const fs::path w = r.text("waivers", "");
    g.waivers_path = (w.is_absolute() ? w : fs::path(plan_path).parent_path() / w).lexically_normal().string();
    if (!fs::is_regular_file(g.waivers_path)) r.fail("waiver file '" + g.waivers_path + "' cannot be read");
  }
  return g;
}

CodeCoverageSection read_code_coverage(const EntryReader& r, const std::string& plan_path) {
  r.check_fields({"waivers", "goals"});
  CodeCoverageSection c;
  namespace fs = std::filesystem;
  if (r.has("waivers")) {
    const fs::path w = r.text("waivers", "");
    c.waivers_path = (w.is_absolute() ? w : fs::path(plan_path).parent_path() / w).lexically_normal().string();
    try {
      load_code_coverage_waivers(c.waivers_path);
    } catch (const std::exception& ex) {
      r.fail(std::string("waivers: ") + ex.what());
    }
  }
  if (const YAML::Node goals = r.node()["goals"]) {
    const EntryReader g(r.where() + " goals", goals);
    g.check_fields({"line", "toggle"});
    for (const char* kind : {"line", "toggle"}) {
      if (!g.has(kind)) g.fail("field '" + std::string(kind) + "' is required (a percentage, 0 to 100)");
      c.goals += (c.goals.empty() ? "" : ",") + std::string(kind) + "=" + g.text(kind, "");
    }
    try {
      parse_code_coverage_goals(c.goals);
    } catch (const std::exception& ex) {
      g.fail(ex.what());
    }
  }
  return c;
}

}  // namespace

Plan load_plan(const std::string& path) {
  Plan plan;
  plan.path = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw std::invalid_argument("cannot read plan '" + path + "'");
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument("plan '" + path + "' is not valid YAML: " + e.what());
  }
  const std::string where = "plan '" + path + "'";
  try {
    if (!root.IsMap()) throw std::invalid_argument(where + ": the top level must be a mapping with 'tests'");
    for (const auto& kv : root) {
      const std::string key = kv.first.as<std::string>();
      if (key != "plan" && key != "description" && key != "timeout" && key != "tests" && key != "gradings" &&
          key != "code_coverage")
        throw std::invalid_argument(where + ": unknown top-level field '" + key +
                                    "' (fields: plan, description, timeout, tests, gradings, code_coverage)");
    }
    plan.name = root["plan"] ? root["plan"].as<std::string>() : std::string();
    plan.description = root["description"] ? root["description"].as<std::string>() : std::string();
    double timeout = 600;
    if (root["timeout"]) timeout = static_cast<double>(EntryReader(where, root).number("timeout", 600, 1));
    const YAML::Node tests = root["tests"];
    if (!tests || !tests.IsSequence() || tests.size() == 0)
      throw std::invalid_argument(where + ": 'tests' must be a non-empty list of entries");
    std::set<std::string> names;
    for (size_t i = 0; i < tests.size(); ++i) {
      std::string label = where + " entry " + std::to_string(i + 1);
      if (tests[i].IsMap() && tests[i]["name"] && tests[i]["name"].IsScalar())
        label += " ('" + tests[i]["name"].as<std::string>() + "')";
      const EntryReader r(label, tests[i]);
      for (PlanEntry& e : expand_configs(r, read_entry(r, timeout))) {
        if (!names.insert(e.name).second) r.fail("entry name '" + e.name + "' is used twice");
        check_against_project(r, e);
        plan.entries.push_back(std::move(e));
      }
    }
    if (const YAML::Node gradings = root["gradings"]) {
      if (!gradings.IsSequence()) throw std::invalid_argument(where + ": 'gradings' must be a list of entries");
      std::set<std::string> seen;
      for (size_t i = 0; i < gradings.size(); ++i) {
        const EntryReader r(where + " grading " + std::to_string(i + 1), gradings[i]);
        GradingEntry g = read_grading(r, path);
        if (!seen.insert(g.config + ":" + g.unit).second)
          r.fail("unit '" + g.unit + "' on configuration '" + g.config + "' is graded twice");
        plan.gradings.push_back(std::move(g));
      }
    }
    if (const YAML::Node cc = root["code_coverage"])
      plan.code_coverage = read_code_coverage(EntryReader(where + " code_coverage", cc), path);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
  return plan;
}

}  // namespace dla::regression
