// SDP's LUT stage (sdp.md §8): index both tables, choose one, interpolate a hit or
// extrapolate an under/overflow. Integer modes work on int32 inputs, fp16 mode on fp32
// patterns. The open points of sdp.md §15 items 1, 2 and 6 follow the v1 RTL.
#pragma once

#include <cstdint>

#include "lut_index.h"
#include "lut_tables.h"

namespace dla::golden {

struct SdpLutOutcome {
  uint32_t value = 0;  // int32 (integer modes) or fp32 pattern
  LutClass le = LutClass::Underflow, lo = LutClass::Underflow;
  LutChoice choice;
};

class SdpLut {
 public:
  static constexpr unsigned kFractionBits = 35;

  SdpLut(const LutSettings& settings, const LutTables& tables, bool fp) : s_(settings), t_(tables), fp_(fp) {}

  SdpLutOutcome evaluate(uint32_t x) const { return fp_ ? evaluate_fp(x) : evaluate_int(static_cast<int32_t>(x)); }

  // Per-table classification (exposed for tests).
  LutIndex index_int(LutTableId t, int32_t x) const;
  LutIndex index_fp(LutTableId t, uint32_t x) const;

 private:
  SdpLutOutcome evaluate_int(int32_t x) const;
  SdpLutOutcome evaluate_fp(uint32_t x) const;

  LutSettings s_;
  const LutTables& t_;
  bool fp_;
};

// Underflow anchor bias of an exponent LE table (sdp.md §8.5, §15 items 1 and 2).
int64_t sdp_lut_int_bias(int offset);      // 2^OFF for 0 <= OFF <= 31, else 0
uint32_t sdp_lut_fp_bias(int offset);      // fp32 with exponent field (OFF + 127) mod 256

}  // namespace dla::golden
