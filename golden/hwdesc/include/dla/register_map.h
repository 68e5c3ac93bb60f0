// Register description of one configuration: every unit's registers and fields with the
// configuration's field widths, reset values and access types, placed at the
// configuration's unit bases. Generated from rtl/regs/registers.csv at build time.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dla/hwconfig.h"

namespace dla {

enum class Access : uint8_t {
  RW,     // software read/write storage
  RO,     // read-only, driven by hardware (status, counters)
  WO,     // write-only: reads 0 (e.g. GLB S_INTR_SET)
  CONST,  // read-only constant (version, CFGROM)
};

struct FieldInfo {
  std::string name;
  unsigned msb = 0, lsb = 0;  // full (widest) bit range
  uint32_t reset = 0;         // value of the field in its own bits (not shifted)
  Access access = Access::RW;
  bool trigger = false;       // a write also strobes the datapath (spec 't')
  bool hw_modified = false;   // hardware changes it too (spec 'o': W1C, self-clear, auto-inc)
  std::vector<std::pair<std::string, uint32_t>> enums;
  // Bits this configuration really stores, in register position (nvdlav1 keeps e.g.
  // address-low fields as [31:5]: the field still reads as a byte address, low bits 0).
  uint32_t store_mask = 0;
  // Full bit range of the field in register position.
  uint32_t mask() const { return (msb >= 31 ? 0xffffffffu : ((1u << (msb + 1)) - 1)) & ~((1u << lsb) - 1); }
  uint32_t get(uint32_t reg) const { return (reg & mask()) >> lsb; }
};

struct RegInfo {
  Unit unit = Unit::GLB;
  std::string name;           // e.g. "D_OP_ENABLE" (no trailing "_0" symbol suffix)
  uint32_t offset = 0;        // byte offset inside the unit window
  bool dual = false;          // ping-pong duplicated (D_ group register)
  std::vector<FieldInfo> fields;

  uint32_t reset_value() const;  // OR of field resets
  uint32_t stored_mask() const;  // bits held by any field (store_mask of each)
  uint32_t writable_mask() const;// bits of RW fields (software-writable storage)
  uint32_t readable_mask() const;// bits that can read non-zero (all but WO)
  const FieldInfo* field(const std::string& name) const;
};

class RegisterMap {
 public:
  // The register map of a configuration (built once, cached).
  static const RegisterMap& of(const HwConfig& cfg);

  const HwConfig& config() const { return *cfg_; }
  const std::vector<RegInfo>& registers() const { return regs_; }
  // Registers of one unit (empty if the unit is absent).
  std::vector<const RegInfo*> unit_registers(Unit u) const;

  // CSB byte address of a register in this configuration's map.
  uint32_t address_of(const RegInfo& r) const;
  // Register at a CSB byte address (nullptr: no register there, reads 0).
  const RegInfo* at(uint32_t byte_addr) const;
  // Register by name: "PDP.D_OP_ENABLE", trace symbol "NVDLA_PDP.D_OP_ENABLE_0"
  // (exactly one trailing "_0" stripped), or "RUBIK."/"RBK.". nullptr if unknown.
  const RegInfo* find(const std::string& symbol) const;
  // Offset of D_OP_ENABLE in a ping-pong unit (first dual offset); nullopt if single.
  std::optional<uint32_t> dual_base(Unit u) const;

 private:
  const HwConfig* cfg_ = nullptr;
  std::vector<RegInfo> regs_;
};

}  // namespace dla
