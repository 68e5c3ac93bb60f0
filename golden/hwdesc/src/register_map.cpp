#include "dla/register_map.h"

#include <map>
#include <memory>
#include <mutex>

#include "hwdesc_tables.h"

namespace dla {

uint32_t RegInfo::reset_value() const {
  uint32_t v = 0;
  for (const auto& f : fields) v |= (f.reset << f.lsb) & f.store_mask;
  return v;
}

uint32_t RegInfo::stored_mask() const {
  uint32_t m = 0;
  for (const auto& f : fields) m |= f.store_mask;
  return m;
}

uint32_t RegInfo::writable_mask() const {
  uint32_t m = 0;
  for (const auto& f : fields)
    if (f.access == Access::RW && !f.hw_modified) m |= f.store_mask;
  return m;
}

uint32_t RegInfo::readable_mask() const {
  uint32_t m = 0;
  for (const auto& f : fields)
    if (f.access != Access::WO) m |= f.store_mask;
  return m;
}

const FieldInfo* RegInfo::field(const std::string& n) const {
  for (const auto& f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

const RegisterMap& RegisterMap::of(const HwConfig& cfg) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<RegisterMap>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[cfg.name];
  if (!slot) {
    auto m = std::make_unique<RegisterMap>();
    m->cfg_ = &cfg;
    for (const auto& r : gen::registers_of_variant(cfg.register_variant))
      if (cfg.has_unit(r.unit)) m->regs_.push_back(r);
    // The configuration's own CFGROM words (one field each) replace nv_small's ROM values.
    for (const auto& [name, value] : cfg.cfgrom_words)
      for (auto& r : m->regs_)
        if (r.unit == Unit::CFGROM && r.name == name && r.fields.size() == 1) r.fields[0].reset = value;
    slot = std::move(m);
  }
  return *slot;
}

std::vector<const RegInfo*> RegisterMap::unit_registers(Unit u) const {
  std::vector<const RegInfo*> out;
  for (const auto& r : regs_)
    if (r.unit == u) out.push_back(&r);
  return out;
}

uint32_t RegisterMap::address_of(const RegInfo& r) const {
  return *cfg_->unit_base[static_cast<unsigned>(r.unit)] + r.offset;
}

const RegInfo* RegisterMap::at(uint32_t byte_addr) const {
  const auto unit = cfg_->unit_at(byte_addr);
  if (!unit) return nullptr;
  const uint32_t off = byte_addr & 0xfffu;
  for (const auto& r : regs_)
    if (r.unit == *unit && r.offset == off) return &r;
  return nullptr;
}

const RegInfo* RegisterMap::find(const std::string& symbol) const {
  std::string s = symbol;
  if (s.rfind("NVDLA_", 0) == 0) s = s.substr(6);
  const auto dot = s.find('.');
  if (dot == std::string::npos) return nullptr;
  const auto unit = unit_from_name(s.substr(0, dot));
  if (!unit) return nullptr;
  std::string reg = s.substr(dot + 1);
  auto lookup = [&](const std::string& n) -> const RegInfo* {
    for (const auto& r : regs_)
      if (r.unit == *unit && r.name == n) return &r;
    return nullptr;
  };
  // Trace symbols carry one extra "_0"; plain names do not. Prefer the exact name
  // unless stripping one "_0" also names a register (e.g. D_DATAIN_SIZE_0_0).
  if (reg.size() > 2 && reg.compare(reg.size() - 2, 2, "_0") == 0) {
    if (const RegInfo* stripped = lookup(reg.substr(0, reg.size() - 2))) return stripped;
  }
  return lookup(reg);
}

std::optional<uint32_t> RegisterMap::dual_base(Unit u) const {
  std::optional<uint32_t> base;
  for (const auto& r : regs_)
    if (r.unit == u && r.dual && (!base || r.offset < *base)) base = r.offset;
  return base;
}

}  // namespace dla
