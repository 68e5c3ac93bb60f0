// Table classification and selection shared by the SDP and CDP LUTs (sdp.md §8.2-§8.3,
// pdp_cdp doc §2.7). Both units compute, per table, a class (underflow / overflow / hit),
// an index and a truncated fraction from the distance d = x - START, then pick one table
// by the same priority table. They differ only in widths: SDP's d is at most 32 bits with a
// 35-bit fraction, CDP's is 38 bits with a 16-bit fraction. The result arithmetic
// (interpolation, extrapolation, counters) is unit specific (sdp_lut.h for SDP).
#pragma once

#include <cstdint>

#include "lut_tables.h"

namespace dla::golden {

enum class LutClass : uint8_t { Underflow, Overflow, Hit };

struct LutIndex {
  LutClass cls = LutClass::Underflow;
  unsigned index = 0;     // 0 for underflow, the last entry for overflow
  uint64_t fraction = 0;  // frac_bits wide; meaningful for hits
};

// The decoded S_LUT_CFG / S_LUT_INFO / start / end / slope registers. Starts and ends are
// sign-extended integers in integer modes (32 bits in SDP, 38 in CDP) or fp32 patterns in
// the low 32 bits in fp16 mode.
struct LutSettings {
  bool le_linear = false;  // LUT_LE_FUNCTION: false = exponent
  bool uflow_priority_lo = false, oflow_priority_lo = false, hybrid_priority_lo = false;
  int le_index_offset = 0, le_index_select = 0, lo_index_select = 0;  // signed
  int64_t le_start = 0, le_end = 0, lo_start = 0, lo_end = 0;
  uint16_t le_uflow_scale = 0, le_oflow_scale = 0, lo_uflow_scale = 0, lo_oflow_scale = 0;
  int le_uflow_shift = 0, le_oflow_shift = 0, lo_uflow_shift = 0, lo_oflow_shift = 0;  // signed 5-bit
};

// Linear table: d <= 0 underflows; index = d >> sel (sel >= 0) or d << -sel (sel < 0,
// fraction 0); index >= last overflows. fraction = floor((d mod 2^sel) * 2^frac_bits / 2^sel).
LutIndex lut_linear_index(int64_t d, int sel, unsigned last, unsigned frac_bits);
// Exponent table (LE only): d <= 0 or floor(log2 d) < offset underflows; index
// floor(log2 d) - offset, >= 64 overflows; fraction = (d - 2^e) scaled from e to frac_bits bits.
LutIndex lut_exponent_index(int64_t d, int offset, unsigned frac_bits);

// The same two classifications for fp16 mode, where d is an fp32 pattern (the difference
// x - START computed with sub32). Zero, negative and NaN d underflow. Exponent table: the
// unbiased exponent of d is e, the fraction is d's mantissa scaled to frac_bits bits.
// Linear table: d * 2^-sel split exactly into index and frac_bits fraction bits (SDP: 35
// bits, CDP: 16 bits; the CDP reference model's float arithmetic is exact here).
LutIndex lut_fp_linear_index(uint32_t d, int sel, unsigned last, unsigned frac_bits);
LutIndex lut_fp_exponent_index(uint32_t d, int offset, unsigned frac_bits);

// Which table's result is used and the class of the result (sdp.md §8.3 table).
struct LutChoice {
  LutTableId table = LutTableId::LE;
  LutClass cls = LutClass::Underflow;
};
LutChoice lut_choose(LutClass le, LutClass lo, const LutSettings& s);

}  // namespace dla::golden
