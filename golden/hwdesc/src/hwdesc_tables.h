// Interface between the generated tables (hwdesc_tables.gen.cpp) and the library.
#pragma once

#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/register_map.h"

namespace dla::gen {

// Plain data as generated (cheap to compile); turned into RegInfo once at first use.
struct RawField {
  const char* name;
  unsigned msb, lsb;
  uint32_t reset;
  Access access;
  bool trigger, hw_modified;
  const char* enums;  // "NAME=value|NAME=value" or ""
  uint32_t store_mask;
};
struct RawReg {
  Unit unit;
  const char* name;
  uint32_t offset;
  bool dual;
  size_t first_field, field_count;
};

std::vector<RegInfo> build_registers(const RawReg* regs, size_t count, const RawField* fields);

// Registers of a register variant ("master", "nvdlav1"), unit windows not yet placed.
const std::vector<RegInfo>& registers_of_variant(const std::string& variant);
std::vector<HwConfig> make_configs();

}  // namespace dla::gen
