#include <sstream>

#include "hwdesc_tables.h"

namespace dla::gen {

namespace {
std::vector<std::pair<std::string, uint32_t>> parse_enums(const std::string& text) {
  std::vector<std::pair<std::string, uint32_t>> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, '|')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    out.emplace_back(item.substr(0, eq), static_cast<uint32_t>(std::stoul(item.substr(eq + 1))));
  }
  return out;
}
}  // namespace

std::vector<RegInfo> build_registers(const RawReg* regs, size_t count, const RawField* fields) {
  std::vector<RegInfo> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const RawReg& r = regs[i];
    RegInfo info;
    info.unit = r.unit;
    info.name = r.name;
    info.offset = r.offset;
    info.dual = r.dual;
    for (size_t j = 0; j < r.field_count; ++j) {
      const RawField& f = fields[r.first_field + j];
      FieldInfo fi;
      fi.name = f.name;
      fi.msb = f.msb;
      fi.lsb = f.lsb;
      fi.reset = f.reset;
      fi.access = f.access;
      fi.trigger = f.trigger;
      fi.hw_modified = f.hw_modified;
      fi.enums = parse_enums(f.enums);
      fi.store_mask = f.store_mask;
      info.fields.push_back(std::move(fi));
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace dla::gen
