#include "lut_tables.h"

namespace dla::golden {

void LutAccessPort::write_cfg(uint32_t value) {
  addr_ = value & 0x3ffu;
  table_ = ((value >> 16) & 1u) ? LutTableId::LO : LutTableId::LE;
  write_ = ((value >> 17) & 1u) != 0;
}

void LutAccessPort::advance() {
  if (policy_ == LutPortPolicy::AdvanceOnEveryAccess) {
    addr_ = (addr_ + 1) & 0x3ffu;
  } else if (addr_ < LutTables::last(table_)) {
    ++addr_;
  }
}

void LutAccessPort::write_data(LutTables& tables, uint32_t value) {
  if (policy_ == LutPortPolicy::TypedAndClamped && !write_) return;
  if (write_ && addr_ < LutTables::entries(table_)) tables.set(table_, addr_, static_cast<uint16_t>(value));
  advance();
}

uint16_t LutAccessPort::read_data(const LutTables& tables) {
  if (policy_ == LutPortPolicy::TypedAndClamped && write_) return 0;
  const uint16_t v = addr_ < LutTables::entries(table_) ? tables.at(table_, addr_) : 0;
  advance();
  return v;
}

}  // namespace dla::golden
