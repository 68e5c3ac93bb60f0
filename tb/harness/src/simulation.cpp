#include "dla/simulation.h"

#include <stdexcept>

#include "simulation_factories.h"

namespace dla::tb {

std::unique_ptr<Simulation> make_simulation(const std::string& config, const SimOptions& options) {
  for (const auto& entry : detail::simulation_factories()) {
    if (config == entry.config) return entry.make(options);
  }
  std::string known;
  for (const auto& entry : detail::simulation_factories()) known += (known.empty() ? "" : ", ") + std::string(entry.config);
  throw std::invalid_argument("unknown configuration '" + config + "' for simulation (built: " +
                              (known.empty() ? std::string("none") : known) + ")");
}

std::vector<uint32_t> Simulation::read_signal(const std::string& name) const {
  throw std::invalid_argument("simulation of '" + config_name() + "' has no public signal '" + name + "'");
}

std::string waves_previous_chunk_path(const std::string& waves_path) {
  const auto slash = waves_path.find_last_of('/');
  const auto dot = waves_path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return waves_path + ".prev";
  return waves_path.substr(0, dot) + ".prev" + waves_path.substr(dot);
}

std::vector<std::string> simulation_configs() {
  std::vector<std::string> names;
  for (const auto& entry : detail::simulation_factories()) names.emplace_back(entry.config);
  return names;
}

}  // namespace dla::tb
