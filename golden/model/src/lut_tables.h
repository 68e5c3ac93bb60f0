// The two interpolation tables shared by SDP and CDP (sdp.md §8.1, pdp_cdp doc §2.4):
// LE (65 entries) and LO (257 entries) of 16-bit values, plus the CSB port that programs
// and reads them through S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA with an auto-incrementing
// address. One copy per unit, shared by both register groups.
#pragma once

#include <array>
#include <cstdint>

namespace dla::golden {

enum class LutTableId : uint8_t { LE = 0, LO = 1 };

class LutTables {
 public:
  static constexpr unsigned kLeEntries = 65, kLoEntries = 257;
  static constexpr unsigned entries(LutTableId t) { return t == LutTableId::LE ? kLeEntries : kLoEntries; }
  // Last valid index (64 or 256): the overflow index and the "Depth-1" of sdp.md §8.2.
  static constexpr unsigned last(LutTableId t) { return entries(t) - 1; }

  uint16_t at(LutTableId t, unsigned i) const { return t == LutTableId::LE ? le_.at(i) : lo_.at(i); }
  void set(LutTableId t, unsigned i, uint16_t v) { (t == LutTableId::LE ? le_.at(i) : lo_.at(i)) = v; }
  void clear() { le_.fill(0); lo_.fill(0); }

 private:
  std::array<uint16_t, kLeEntries> le_{};
  std::array<uint16_t, kLoEntries> lo_{};
};

// How the access port treats the address (sdp.md §15 item 5). Normal programming (whole
// tables from address 0) behaves the same under both.
enum class LutPortPolicy : uint8_t {
  // SDP RTL: every DATA write and every DATA read advances the 10-bit address (wrapping),
  // whatever ACCESS_TYPE says; only WRITE-type writes to existing entries store; a read of
  // a non-existent entry returns 0 (undefined in hardware).
  AdvanceOnEveryAccess,
  // NVDLA C model and the CDP description: only accesses of the configured type act and
  // advance; the address stops at the table's last entry.
  TypedAndClamped,
};

class LutAccessPort {
 public:
  explicit LutAccessPort(LutPortPolicy policy) : policy_(policy) {}

  // S_LUT_ACCESS_CFG: LUT_ADDR[9:0], LUT_TABLE_ID[16], LUT_ACCESS_TYPE[17] (1 = write).
  void write_cfg(uint32_t value);
  // S_LUT_ACCESS_DATA write (LUT_DATA[15:0]).
  void write_data(LutTables& tables, uint32_t value);
  // S_LUT_ACCESS_DATA read: the entry at the current address, then advance.
  uint16_t read_data(const LutTables& tables);

  unsigned address() const { return addr_; }
  LutTableId table() const { return table_; }
  bool write_access() const { return write_; }

 private:
  void advance();
  LutPortPolicy policy_;
  unsigned addr_ = 0;
  LutTableId table_ = LutTableId::LE;
  bool write_ = false;
};

}  // namespace dla::golden
