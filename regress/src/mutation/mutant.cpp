#include "dla/mutation/mutant.h"

#include <fstream>
#include <regex>
#include <set>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

namespace dla::mutation {

std::string Mutant::describe() const {
  std::string target = wire.empty() ? cell + "." + port : wire;
  return mode + " of " + target + "[" + std::to_string(bit) + "] (" + location + ")";
}

MutantList load_mutants(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("mutant list " + path + ": cannot be read (build the mutant model first)");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    throw std::invalid_argument("mutant list " + path + ": not JSON (" + e.what() + ")");
  }
  MutantList list;
  list.path = path;
  try {
    list.top = j.at("top").get<std::string>();
    list.selector_width = j.at("selector_width").get<unsigned>();
    uint32_t expect = 1;
    for (const auto& r : j.at("mutants")) {
      Mutant m;
      m.id = r.at("id").get<uint32_t>();
      if (m.id != expect++) throw std::invalid_argument("mutant ids are not 1..N in order");
      m.mode = r.at("mode").get<std::string>();
      m.cell = r.value("cell", "");
      m.port = r.value("port", "");
      m.wire = r.value("wire", "");
      m.bit = r.value("portbit", 0);
      m.ctrlbit = r.value("ctrlbit", -1);
      m.location = r.value("location", "");
      m.sources = r.value("sources", std::vector<std::string>{});
      m.probed = r.value("probe", false);
      list.mutants.push_back(std::move(m));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("mutant list " + path + ": " + e.what());
  }
  return list;
}

std::string cell_identity(const std::string& cell) {
  static const std::regex dirs(R"(/[^$\\:]*/)");           // "/src/rtl/bdma/" of an embedded path
  static const std::regex numbers(R"(\$[0-9]+(?=$|[.\\]))");  // "$23798" at the end of a name part
  return std::regex_replace(std::regex_replace(cell, dirs, ""), numbers, "");
}

bool Waiver::applies_to(const std::string& config, const std::string& unit) const {
  return model.empty() || model == config + ":" + unit;
}

// With both id and location (or identity), both must match.
bool Waiver::matches(const Mutant& m) const {
  if (mutant && *mutant != m.id) return false;
  if (identity())
    return m.mode == mode && m.location == location && m.port == port && bit && m.bit == *bit &&
           (!ctrlbit || m.ctrlbit == *ctrlbit) && (cell.empty() || cell_identity(m.cell) == cell);
  if (location.empty()) return mutant.has_value();
  return m.location.compare(0, location.size(), location) == 0;
}

namespace {

const std::set<std::string> kModes = {"inv", "const0", "const1", "cnot0", "cnot1"};
const char* const kFields = "model, mutant, location, mode, port, bit, ctrlbit, cell, kind, reason";

// "file:L.C-L.C" as mutants.json writes a location.
bool whole_span(const std::string& s) {
  static const std::regex span(R"(.+:[0-9]+\.[0-9]+-[0-9]+\.[0-9]+)");
  return std::regex_match(s, span);
}

}  // namespace

std::vector<Waiver> load_waivers(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const std::exception& e) {
    throw std::invalid_argument("waiver file " + path + ": " + e.what());
  }
  const auto bad = [&](size_t i, const std::string& rule) {
    return std::invalid_argument("waiver file " + path + ": entry " + std::to_string(i + 1) + ": " + rule);
  };
  if (!root.IsMap() || !root["waivers"] || !root["waivers"].IsSequence())
    throw std::invalid_argument("waiver file " + path + ": needs a top-level 'waivers:' list");
  std::vector<Waiver> out;
  const YAML::Node list = root["waivers"];
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    if (!e.IsMap()) throw bad(i, "must be a map with mutant, location or a mutation identity, and reason");
    for (const auto& kv : e) {
      const auto key = kv.first.as<std::string>();
      if (key != "model" && key != "mutant" && key != "location" && key != "mode" && key != "port" && key != "bit" &&
          key != "ctrlbit" && key != "cell" && key != "kind" && key != "reason")
        throw bad(i, "unknown field '" + key + "' (fields: " + kFields + ")");
    }
    Waiver w;
    w.file = path;
    w.entry = i + 1;
    if (e["model"]) {
      w.model = e["model"].as<std::string>();
      const auto colon = w.model.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == w.model.size() ||
          w.model.find(':', colon + 1) != std::string::npos)
        throw bad(i, "'model' must be <config>:<unit> (e.g. v1:bdma), not '" + w.model + "'");
    }
    if (e["mutant"]) {
      try {
        w.mutant = e["mutant"].as<uint32_t>();
      } catch (const std::exception&) {
        throw bad(i, "'mutant' must be a mutant id (a positive number)");
      }
      if (*w.mutant == 0) throw bad(i, "'mutant' 0 is the unmutated design");
    }
    if (e["location"]) w.location = e["location"].as<std::string>();
    const auto bit_field = [&](const char* key) -> std::optional<int> {
      if (!e[key]) return std::nullopt;
      try {
        const int b = e[key].as<int>();
        if (b >= 0) return b;
      } catch (const std::exception&) {
      }
      throw bad(i, std::string("'") + key + "' must be a bit number (0 or more)");
    };
    if (e["mode"]) {
      w.mode = e["mode"].as<std::string>();
      if (!kModes.count(w.mode))
        throw bad(i, "'mode' must be inv, const0, const1, cnot0 or cnot1, not '" + w.mode + "'");
      if (e["port"]) w.port = e["port"].as<std::string>();
      w.bit = bit_field("bit");
      w.ctrlbit = bit_field("ctrlbit");
      if (e["cell"]) w.cell = e["cell"].as<std::string>();
      if (w.location.empty() || w.port.empty() || !w.bit)
        throw bad(i, "a mutation identity needs 'mode', 'location', 'port' and 'bit'");
      if (!whole_span(w.location))
        throw bad(i, "a mutation identity's 'location' is a whole span as in mutants.json (file:L.C-L.C), not '" +
                         w.location + "'");
      const bool cnot = w.mode == "cnot0" || w.mode == "cnot1";
      if (cnot && !w.ctrlbit) throw bad(i, "mode '" + w.mode + "' needs 'ctrlbit' (the bit that controls it)");
      if (!cnot && w.ctrlbit) throw bad(i, "'ctrlbit' is only for modes cnot0 and cnot1, not '" + w.mode + "'");
      if (w.cell.empty() && e["cell"]) throw bad(i, "'cell' is empty");
    } else {
      for (const char* key : {"port", "bit", "ctrlbit", "cell"})
        if (e[key]) throw bad(i, std::string("'") + key + "' is part of a mutation identity, which needs 'mode'");
      if (!w.mutant && w.location.empty()) throw bad(i, "needs 'mutant', 'location' or a mutation identity ('mode', ...)");
    }
    if (e["kind"]) {
      const auto kind = e["kind"].as<std::string>();
      if (kind != "equivalent" && kind != "explained")
        throw bad(i, "'kind' must be equivalent or explained, not '" + kind + "'");
      w.explained = kind == "explained";
    }
    if (!e["reason"] || e["reason"].as<std::string>().empty())
      throw bad(i, w.explained ? "needs a 'reason' (why no test of the bench can see it)" : "needs a 'reason' (why it is equivalent)");
    w.reason = e["reason"].as<std::string>();
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<const Waiver*> check_waivers(const std::vector<Waiver>& waivers, const MutantList& list,
                                         const std::string& model) {
  std::vector<const Waiver*> unmatched;
  for (const Waiver& w : waivers) {
    std::vector<uint32_t> ids;
    for (const Mutant& m : list.mutants)
      if (w.matches(m)) ids.push_back(m.id);
    if (ids.empty()) unmatched.push_back(&w);
    if (w.identity() && ids.size() > 1) {
      std::string names;
      for (uint32_t id : ids) names += (names.empty() ? "" : ", ") + std::to_string(id);
      throw std::invalid_argument("waiver file " + w.file + ": entry " + std::to_string(w.entry) +
                                  ": the mutation identity matches mutants " + names + " of " + model +
                                  " (a waiver names one mutant: add 'cell' or 'mutant' to tell them apart)");
    }
  }
  return unmatched;
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Killed: return "killed";
    case Status::Survived: return "survived";
    case Status::TimedOut: return "timeout";
  }
  return "?";
}

const char* class_name(SurvivorClass c) {
  switch (c) {
    case SurvivorClass::None: return "";
    case SurvivorClass::NotActivated: return "not-activated";
    case SurvivorClass::NotPropagated: return "not-propagated";
    case SurvivorClass::NotDetected: return "not-detected";
    case SurvivorClass::Waived: return "waived";
  }
  return "?";
}

nlohmann::json MutantResult::to_json() const {
  nlohmann::json j = {{"id", mutant.id}, {"mode", mutant.mode}, {"location", mutant.location},
                      {"target", mutant.wire.empty() ? mutant.cell + "." + mutant.port : mutant.wire},
                      {"bit", mutant.bit}, {"status", status_name(status)}, {"tests_run", tests_run},
                      {"seconds", seconds}};
  if (!mutant.cell.empty()) {  // the identity a waiver can name (the store keeps only the target)
    j["port"] = mutant.port;
    j["cell"] = cell_identity(mutant.cell);
  }
  if (mutant.ctrlbit >= 0) j["ctrlbit"] = mutant.ctrlbit;
  if (status == Status::Killed)
    j["killed_by"] = {{"test", killer_test}, {"seed", killer_seed}, {"signature", killer_signature}};
  if (survivor_class != SurvivorClass::None) j["class"] = class_name(survivor_class);
  if (!note.empty()) j["note"] = note;
  if (!explanation.empty()) j["explanation"] = explanation;
  if (triage) j["triage"] = triage->to_json();
  return j;
}

bool MutantResult::unexplained() const {
  if (status != Status::Survived || survivor_class == SurvivorClass::Waived || !explanation.empty()) return false;
  return survivor_class == SurvivorClass::NotDetected || (triage && triage->distinguishable());
}

nlohmann::json TriageVerdict::to_json() const {
  nlohmann::json j = {{"verdict", verdict}, {"depth", depth}, {"seconds", seconds}};
  if (distinguishable()) {
    j["witness_cycles"] = witness_cycles;
    j["ports"] = ports;
    j["witness"] = witness;
  }
  if (!reason.empty()) j["reason"] = reason;
  if (!proof.empty()) j["proof"] = proof;
  return j;
}

}  // namespace dla::mutation
