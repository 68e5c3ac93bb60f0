#include "dla/mutation/triage.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include <fmt/core.h>
#include <yaml-cpp/yaml.h>

#include "dla/regression/slurm_launcher.h"

namespace dla::mutation {

namespace {

namespace fs = std::filesystem;

const char* const kModelFields = "model, depth, timeout, map_memories_below, qualify, engines";
const char* const kDefaultFields = "depth, timeout, map_memories_below, qualify, engines";

// Reads the numeric and qualifier fields of a `defaults:` or `models:` map into `s`.
void read_fields(const YAML::Node& e, TriageSettings& s, const std::function<std::invalid_argument(std::string)>& bad,
                 bool allow_model) {
  if (!e.IsMap()) throw bad("must be a map (" + std::string(kModelFields) + ")");
  for (const auto& kv : e) {
    const auto key = kv.first.as<std::string>();
    if ((key != "model" || !allow_model) && key != "depth" && key != "timeout" && key != "map_memories_below" &&
        key != "qualify" && key != "engines")
      throw bad("unknown field '" + key + "' (fields: " + (allow_model ? kModelFields : kDefaultFields) + ")");
  }
  const auto positive = [&](const char* key, auto& field) {
    if (!e[key]) return;
    long long v = 0;
    try {
      v = e[key].as<long long>();
    } catch (const std::exception&) {
      throw bad(std::string("'") + key + "' must be a positive number");
    }
    if (v <= 0) throw bad(std::string("'") + key + "' must be a positive number, not " + std::to_string(v));
    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
  };
  positive("depth", s.depth);
  positive("timeout", s.timeout_seconds);
  positive("map_memories_below", s.map_memories_below);
  if (e["engines"]) {
    const YAML::Node n = e["engines"];
    if (!n.IsSequence() || n.size() == 0) throw bad("'engines' must be a non-empty list of local, unit");
    s.engines.clear();
    for (const YAML::Node& x : n) {
      const std::string name = x.IsScalar() ? x.as<std::string>() : "?";
      if (name != "local" && name != "unit") throw bad("unknown engine '" + name + "' (engines: local, unit)");
      if (std::find(s.engines.begin(), s.engines.end(), name) != s.engines.end())
        throw bad("engine '" + name + "' is listed twice");
      s.engines.push_back(name);
    }
  }
  if (!e["qualify"]) return;
  if (!e["qualify"].IsSequence()) throw bad("'qualify' must be a list of {port, when, delay, lanes, low_bits, reason}");
  s.qualify.clear();
  std::set<std::string> seen;
  for (const YAML::Node& q : e["qualify"]) {
    if (!q.IsMap() || !q["port"] || !q["when"])
      throw bad("a 'qualify' item needs 'port' and 'when' (and optionally 'delay', 'lanes', 'low_bits', 'reason')");
    for (const auto& kv : q) {
      const auto key = kv.first.as<std::string>();
      if (key != "port" && key != "when" && key != "delay" && key != "lanes" && key != "low_bits" && key != "reason")
        throw bad("unknown 'qualify' field '" + key + "' (fields: port, when, delay, lanes, low_bits, reason)");
    }
    PortQualifier p;
    p.port = q["port"].as<std::string>();
    p.when = q["when"].as<std::string>();
    // A number field of the item in 0..max (what: its unit, for the message).
    auto bounded = [&](const char* key, long long max, const char* what) -> unsigned {
      long long v = -1;
      try {
        v = q[key].as<long long>();
      } catch (const std::exception&) {
      }
      if (v < 0 || v > max)
        throw bad("qualifier of '" + p.port + "': '" + key + "' must be a number of " + what + " 0.." +
                  std::to_string(max));
      return static_cast<unsigned>(v);
    };
    if (q["delay"]) p.delay = bounded("delay", 64, "cycles");
    if (q["lanes"]) {
      std::string v;
      try {
        v = q["lanes"].as<std::string>();
      } catch (const std::exception&) {
      }
      if (v != "true" && v != "false")
        throw bad("qualifier of '" + p.port + "': 'lanes' must be true or false");
      p.lanes = v == "true";
    }
    if (q["low_bits"]) p.low_bits = bounded("low_bits", 63, "bits");
    if (q["reason"]) p.reason = q["reason"].as<std::string>();
    if (!seen.insert(p.port).second) throw bad("port '" + p.port + "' is qualified twice");
    s.qualify.push_back(std::move(p));
  }
}

}  // namespace

TriageSettings load_triage_settings(const std::string& path, const std::string& model) {
  TriageSettings s;
  s.model = model;
  s.source = "built-in defaults";
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const std::exception& e) {
    throw std::invalid_argument("triage settings " + path + ": " + e.what());
  }
  if (!root.IsMap()) throw std::invalid_argument("triage settings " + path + ": needs 'defaults:' and/or 'models:'");
  for (const auto& kv : root) {
    const auto key = kv.first.as<std::string>();
    if (key != "defaults" && key != "models")
      throw std::invalid_argument("triage settings " + path + ": unknown top-level field '" + key +
                                  "' (fields: defaults, models)");
  }
  if (root["defaults"]) {
    read_fields(root["defaults"], s, [&](const std::string& rule) {
      return std::invalid_argument("triage settings " + path + ": defaults: " + rule);
    }, false);
    s.source = path + " defaults";
  }
  if (!root["models"]) return s;
  if (!root["models"].IsSequence()) throw std::invalid_argument("triage settings " + path + ": 'models' must be a list");
  std::set<std::string> models;
  const TriageSettings defaults = s;
  for (size_t i = 0; i < root["models"].size(); ++i) {
    const YAML::Node e = root["models"][i];
    const auto bad = [&](const std::string& rule) {
      return std::invalid_argument("triage settings " + path + ": models entry " + std::to_string(i + 1) + ": " + rule);
    };
    if (!e.IsMap() || !e["model"]) throw bad("needs 'model: <config>:<unit>'");
    const auto name = e["model"].as<std::string>();
    const auto colon = name.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == name.size() || name.find(':', colon + 1) != std::string::npos)
      throw bad("'model' must be <config>:<unit> (e.g. small:cmac), not '" + name + "'");
    if (!models.insert(name).second) throw bad("a second entry for model " + name);
    TriageSettings own = defaults;
    read_fields(e, own, bad, true);  // every entry is checked, not only the one asked for
    if (name == model) {
      s = own;
      s.source = path + " entry " + std::to_string(i + 1);
    }
  }
  return s;
}

std::vector<std::string> triage_command(const TriageRequest& req) {
  std::string ids;
  for (uint32_t id : req.ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  std::vector<std::string> argv = {"python3", req.script, "--model-dir", req.model_dir, "--mutants", ids,
                                   "--depth", std::to_string(req.settings.depth),
                                   "--timeout", std::to_string(req.settings.timeout_seconds),
                                   "--map-memories-below", std::to_string(req.settings.map_memories_below),
                                   "--jobs", std::to_string(req.jobs), "--out", req.out_dir};
  for (const PortQualifier& q : req.settings.qualify) {
    argv.push_back("--qualify");
    argv.push_back(q.port + "=" + q.when + (q.lanes ? ":lanes" : "") +
                   (q.low_bits ? ":low=" + std::to_string(q.low_bits) : "") + "@" + std::to_string(q.delay));
  }
  return argv;
}

std::map<uint32_t, TriageVerdict> read_triage(const std::string& path, const std::string& report_root) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("formal triage left no " + path);
  std::map<uint32_t, TriageVerdict> out;
  try {
    nlohmann::json j;
    in >> j;
    const unsigned depth = j.at("depth").get<unsigned>();
    for (const auto& m : j.at("mutants")) {
      TriageVerdict v;
      v.verdict = m.at("class").get<std::string>();
      if (v.verdict != "distinguishable" && v.verdict != "equivalent" && v.verdict != "unknown")
        throw std::runtime_error("class '" + v.verdict + "'");
      v.depth = m.value("depth", depth);
      v.seconds = m.value("seconds", 0.0);
      v.witness_cycles = m.value("witness_cycles", 0u);
      v.ports = m.value("ports", std::vector<std::string>{});
      v.reason = m.value("reason", std::string());
      v.proof = m.value("proof", std::string());
      if (v.equivalent() && v.proof.empty()) v.proof = "within " + std::to_string(v.depth) + " cycles";
      if (m.contains("witness")) {
        const fs::path w = m["witness"].get<std::string>();
        v.witness = report_root.empty() ? w.string() : fs::relative(w, fs::absolute(report_root)).string();
      }
      out[m.at("id").get<uint32_t>()] = std::move(v);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error("formal triage result " + path + " is malformed: " + e.what());
  }
  return out;
}

std::vector<std::string> local_equiv_command(const TriageRequest& req, const std::vector<uint32_t>& ids) {
  std::string list;
  for (uint32_t id : ids) list += (list.empty() ? "" : ",") + std::to_string(id);
  return {"python3", req.local_script, "--model-dir", req.model_dir, "--mutants", list,
          "--timeout", std::to_string(req.settings.timeout_seconds), "--out", req.out_dir + "/local"};
}

std::map<uint32_t, TriageVerdict> read_local_equiv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("local equivalence left no " + path);
  std::map<uint32_t, TriageVerdict> out;
  try {
    nlohmann::json j;
    in >> j;
    for (const auto& m : j.at("mutants")) {
      const auto cls = m.at("class").get<std::string>();
      const auto instance = m.value("instance", std::string());
      const auto module = m.value("module", std::string());
      TriageVerdict v;
      v.seconds = m.value("seconds", 0.0);
      if (cls == "equivalent") {
        v.verdict = "equivalent";
        v.proof = "local";
        const unsigned cut = m.value("registers_cut", 0u);
        v.reason = "instance " + instance + " (" + module + (cut ? ", " + std::to_string(cut) + " registers cut" : "") +
                   "): the mutated copy computes the same outputs" + (cut ? " and next state" : "") +
                   " for every input" + (cut ? " and present state" : "");
      } else if (cls == "differs") {
        v.verdict = "unknown";
        // the witness's instance inputs (the miter's in_* ports) are what the unit would have to produce
        std::string w;
        const nlohmann::json witness = m.value("witness", nlohmann::json::object());
        for (const auto& [port, value] : witness.items())
          if (port.rfind("in_", 0) == 0) w += (w.empty() ? "" : " ") + port.substr(3) + "=" + value.get<std::string>();
        if (w.size() > 400) w = w.substr(0, 400) + " ... (local_equiv.json has it all)";
        v.reason = "local: instance " + instance + " differs for " + (w.empty() ? "some input" : w) +
                   (m.value("registers_cut", 0u) ? " (registers cut: the state may be unreachable)"
                                                  : " (whether the unit can produce it is not known)");
      } else if (cls == "not local" || cls == "unknown") {
        v.verdict = "unknown";
        v.reason = "local: " + cls + " (" + m.value("reason", std::string("no reason given")) + ")";
      } else {
        throw std::runtime_error("class '" + cls + "'");
      }
      out[m.at("id").get<uint32_t>()] = std::move(v);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error("local equivalence result " + path + " is malformed: " + e.what());
  }
  return out;
}

namespace {

// Runs argv through the shell, its output to `log_path` and the lines starting with one of
// `shown` to `progress` (prefixed with `tag`); std::runtime_error when it fails.
void run_script(const std::vector<std::string>& argv, const std::string& log_path, const std::string& what,
                const std::vector<std::string>& shown, const std::string& tag,
                const std::function<void(const std::string&)>& progress) {
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + regression::shell_quote(a);
  std::ofstream log(log_path);
  log << command << "\n";
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("cannot start " + argv.at(1));
  std::string line;
  std::vector<std::string> tail;
  for (int c = 0; (c = std::fgetc(p)) != EOF;) {
    if (c != '\n') {
      line += static_cast<char>(c);
      continue;
    }
    log << line << "\n" << std::flush;
    if (progress)
      for (const auto& prefix : shown)
        if (line.rfind(prefix, 0) == 0) {
          progress(tag + line);
          break;
        }
    tail.push_back(line);
    if (tail.size() > 8) tail.erase(tail.begin());
    line.clear();
  }
  const int status = pclose(p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string last;
    for (const auto& t : tail) last += "\n  " + t;
    throw std::runtime_error(fmt::format("{} failed (exit {}; log {}):{}", what,
                                         WIFEXITED(status) ? WEXITSTATUS(status) : -1, log_path, last));
  }
}

bool has_engine(const TriageSettings& s, const char* name) {
  return std::find(s.engines.begin(), s.engines.end(), name) != s.engines.end();
}

}  // namespace

std::map<uint32_t, TriageVerdict> run_triage(const TriageRequest& req,
                                             const std::function<void(const std::string&)>& progress) {
  std::error_code ec;
  fs::create_directories(req.out_dir, ec);
  if (ec) throw std::runtime_error("cannot create " + req.out_dir + ": " + ec.message());
  fs::remove(fs::path(req.out_dir) / "triage.json", ec);
  fs::remove(fs::path(req.out_dir) / "local" / "local_equiv.json", ec);
  std::map<uint32_t, TriageVerdict> verdicts;
  std::vector<uint32_t> open = req.ids;
  if (has_engine(req.settings, "local") && !open.empty()) {
    run_script(local_equiv_command(req, open), req.out_dir + "/local.log", "local equivalence", {"mutant "},
               "triage: local: ", progress);
    verdicts = read_local_equiv(req.out_dir + "/local/local_equiv.json");
    open.clear();
    for (uint32_t id : req.ids) {
      const auto it = verdicts.find(id);
      if (it == verdicts.end()) throw std::runtime_error("local equivalence gave no verdict for mutant " + std::to_string(id));
      if (!it->second.equivalent()) open.push_back(id);
    }
  }
  if (has_engine(req.settings, "unit") && !open.empty()) {
    TriageRequest unit = req;
    unit.ids = open;
    run_script(triage_command(unit), req.out_dir + "/triage.log", "formal triage", {"mutant ", "formal_triage:"},
               "triage: ", progress);
    for (auto& [id, v] : read_triage(req.out_dir + "/triage.json", req.report_root)) {
      // keep what the local check found when the whole unit settles nothing either
      if (v.verdict == "unknown" && verdicts.count(id)) v.reason += "; " + verdicts[id].reason;
      verdicts[id] = std::move(v);
    }
  } else if (!open.empty()) {
    for (uint32_t id : open) verdicts[id].reason += "; the whole-unit miter is not run for this model (engines: local)";
  }
  return verdicts;
}

}  // namespace dla::mutation
