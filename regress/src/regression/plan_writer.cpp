#include "dla/regression/plan_writer.h"

#include <yaml-cpp/yaml.h>

#include <set>
#include <stdexcept>

namespace dla::regression {

std::string plan_yaml(const std::string& name, const std::string& description, const std::vector<Job>& jobs) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "plan" << YAML::Value << name << YAML::Key << "description" << YAML::Value
    << description << YAML::Key << "tests" << YAML::Value << YAML::BeginSeq;
  std::set<std::string> names;
  for (const Job& j : jobs) {
    if (!names.insert(j.entry).second)
      throw std::logic_error("plan_yaml: two jobs of entry '" + j.entry + "' (one seed per entry expected)");
    y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << j.entry << YAML::Key << "test" << YAML::Value << j.test
      << YAML::Key << "config" << YAML::Value << j.config << YAML::Key << "level" << YAML::Value << "smoke"
      << YAML::Key << "seeds" << YAML::Value << 1 << YAML::Key << "first_seed" << YAML::Value << j.seed;
    if (!j.knobs.empty()) {
      y << YAML::Key << "knobs" << YAML::Value << YAML::Flow << YAML::BeginMap;
      for (const auto& [k, v] : j.knobs) y << YAML::Key << k << YAML::Value << v;
      y << YAML::EndMap;
    }
    if (!j.covergroups.empty()) y << YAML::Key << "covergroups" << YAML::Value << YAML::Flow << j.covergroups;
    if (j.golden_only) y << YAML::Key << "golden_only" << YAML::Value << true;
    if (j.axi_profile != "random") y << YAML::Key << "axi_profile" << YAML::Value << j.axi_profile;
    y << YAML::Key << "timeout" << YAML::Value << static_cast<uint64_t>(j.timeout_seconds);
    if (j.watchdog_cycles) y << YAML::Key << "watchdog" << YAML::Value << j.watchdog_cycles;
    if (!j.perf_tolerance.empty()) y << YAML::Key << "perf_tolerance" << YAML::Value << j.perf_tolerance;
    y << YAML::EndMap;
  }
  y << YAML::EndSeq << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

}  // namespace dla::regression
