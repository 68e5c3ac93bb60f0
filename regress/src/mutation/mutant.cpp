#include "dla/mutation/mutant.h"

#include <fstream>
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

bool Waiver::applies_to(const std::string& config, const std::string& unit) const {
  return model.empty() || model == config + ":" + unit;
}

// With both fields, both must match.
bool Waiver::matches(const Mutant& m) const {
  if (mutant && *mutant != m.id) return false;
  if (location.empty()) return mutant.has_value();
  return m.location.compare(0, location.size(), location) == 0;
}

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
    if (!e.IsMap()) throw bad(i, "must be a map with mutant or location, and reason");
    for (const auto& kv : e) {
      const auto key = kv.first.as<std::string>();
      if (key != "model" && key != "mutant" && key != "location" && key != "reason")
        throw bad(i, "unknown field '" + key + "' (fields: model, mutant, location, reason)");
    }
    Waiver w;
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
    if (!w.mutant && w.location.empty()) throw bad(i, "needs 'mutant' or 'location'");
    if (!e["reason"] || e["reason"].as<std::string>().empty()) throw bad(i, "needs a 'reason' (why it is equivalent)");
    w.reason = e["reason"].as<std::string>();
    out.push_back(std::move(w));
  }
  return out;
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
  if (status == Status::Killed)
    j["killed_by"] = {{"test", killer_test}, {"seed", killer_seed}, {"signature", killer_signature}};
  if (survivor_class != SurvivorClass::None) j["class"] = class_name(survivor_class);
  if (!note.empty()) j["note"] = note;
  return j;
}

}  // namespace dla::mutation
