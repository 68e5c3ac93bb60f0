#include "dla/simulation.h"

#include <stdexcept>

#include "simulation_factories.h"

namespace dla::tb {

const char* initial_state_name(InitialState s) { return s == InitialState::Zero ? "zero" : "random"; }

InitialState initial_state_from_name(const std::string& name) {
  if (name == "random") return InitialState::Random;
  if (name == "zero") return InitialState::Zero;
  throw std::invalid_argument("initial state '" + name + "' is not one of random|zero");
}

namespace {
ModelInfo info_of(const detail::FactoryEntry& e) {
  return ModelInfo{e.config, e.dut, e.source, e.initial_state, e.reset_idle_cycles, e.conv, e.rubik};
}

std::string built_models_text() {
  std::string known;
  for (const auto& e : detail::simulation_factories())
    known += (known.empty() ? "" : ", ") + std::string(e.config) +
             (std::string(e.dut) == kPrimaryDut ? "" : " (--dut " + std::string(e.dut) + ")");
  return known.empty() ? std::string("none") : known;
}
}  // namespace

std::unique_ptr<Simulation> make_simulation(const std::string& config, const SimOptions& options) {
  for (const auto& entry : detail::simulation_factories()) {
    if (config != entry.config || options.dut != entry.dut) continue;
    SimOptions o = options;
    if (!o.initial_state) o.initial_state = entry.initial_state;
    if (!o.reset_idle_cycles) o.reset_idle_cycles = entry.reset_idle_cycles;
    return entry.make(o);
  }
  const std::string what = options.dut == kPrimaryDut ? "configuration '" + config + "'"
                                                      : "DUT '" + options.dut + "' of configuration '" + config + "'";
  throw std::invalid_argument("no Verilated model of " + what + " is built (built: " + built_models_text() +
                              "; see DLA_CONFIGS and DLA_NVDLA_RTL in README.md); --golden-only runs without one");
}

std::vector<ModelInfo> simulation_models() {
  std::vector<ModelInfo> models;
  for (const auto& entry : detail::simulation_factories()) models.push_back(info_of(entry));
  return models;
}

std::optional<ModelInfo> find_simulation_model(const std::string& config, const std::string& dut) {
  for (const auto& entry : detail::simulation_factories())
    if (config == entry.config && dut == entry.dut) return info_of(entry);
  return std::nullopt;
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

std::vector<std::string> simulation_configs(const std::string& dut) {
  std::vector<std::string> names;
  for (const auto& entry : detail::simulation_factories())
    if (dut == entry.dut) names.emplace_back(entry.config);
  return names;
}

}  // namespace dla::tb
