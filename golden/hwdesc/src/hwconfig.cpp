#include "dla/hwconfig.h"

#include <algorithm>
#include <stdexcept>

#include "hwdesc_tables.h"

namespace dla {

namespace {
constexpr const char* kUnitNames[kUnitCount] = {
    "CFGROM", "GLB", "GEC", "MCIF", "CVIF", "BDMA", "CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC",
    "SDP_RDMA", "SDP", "PDP_RDMA", "PDP", "CDP_RDMA", "CDP", "RBK"};
}

const char* unit_name(Unit u) {
  const auto i = static_cast<unsigned>(u);
  return i < kUnitCount ? kUnitNames[i] : "?";
}

std::optional<Unit> unit_from_name(const std::string& name) {
  if (name == "RUBIK") return Unit::RBK;
  for (unsigned i = 0; i < kUnitCount; ++i)
    if (name == kUnitNames[i]) return static_cast<Unit>(i);
  return std::nullopt;
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::Int8: return "int8";
    case Precision::Int16: return "int16";
    case Precision::Fp16: return "fp16";
  }
  return "?";
}

bool HwConfig::supports(Precision p) const {
  return std::find(precisions.begin(), precisions.end(), p) != precisions.end();
}

std::optional<Unit> HwConfig::unit_at(uint32_t byte_addr) const {
  const uint32_t window = byte_addr & ~0xfffu;
  for (unsigned i = 0; i < kUnitCount; ++i)
    if (unit_base[i] && *unit_base[i] == window) return static_cast<Unit>(i);
  return std::nullopt;
}

const std::vector<HwConfig>& HwConfig::all() {
  static const std::vector<HwConfig> configs = gen::make_configs();
  return configs;
}

const HwConfig& HwConfig::get(const std::string& name) {
  std::string known;
  for (const auto& c : all()) {
    if (c.name == name) return c;
    known += (known.empty() ? "" : ", ") + c.name;
  }
  throw std::invalid_argument("unknown configuration '" + name + "' (known: " + known + ")");
}

const HwConfig* HwConfig::find(const std::string& name) {
  for (const auto& c : all())
    if (c.name == name) return &c;
  for (const auto& c : all())
    if (std::find(c.nvdla_names.begin(), c.nvdla_names.end(), name) != c.nvdla_names.end()) return &c;
  return nullptr;
}

#ifndef DLA_DEFAULT_CONFIG_NAME
#error "DLA_DEFAULT_CONFIG_NAME comes from CMake (DLA_DEFAULT_CONFIG)"
#endif
const HwConfig& HwConfig::default_config() { return get(DLA_DEFAULT_CONFIG_NAME); }

}  // namespace dla
