// CDP's LUT stage (pdp_cdp_bdma_rubik_glb.md §2.7, §2.11 step 4-5): both tables are indexed
// with the shared classification (lut_index.h, 16-bit fraction on CDP's 37/38-bit
// pipeline), one result is chosen by the shared priority table, then CDP's own
// interpolation (INTERP) or extrapolation produces a signed 16-bit result (fp16 mode: an
// fp17 pattern).
#pragma once

#include <cstdint>

#include "lut_index.h"
#include "lut_tables.h"

namespace dla::golden {

struct CdpLutOutcome {
  uint32_t value = 0;  // int16 (sign-extended into 32 bits as a two's-complement pattern) or fp17
  LutClass le = LutClass::Underflow, lo = LutClass::Underflow;
  LutChoice choice;
};

// The spec's interpolation primitive: sat_16(Y + T), T = rha((X1 - X0) * G, sh) for sh >= 0,
// (X1 - X0) * G * 2^-sh otherwise; exact (no internal wrap).
int64_t cdp_interp(int64_t y, int64_t x1, int64_t x0, int64_t g, int sh);

class CdpLut {
 public:
  static constexpr unsigned kFractionBits = 16;

  // le_start_compare / lo_start_compare: START as the datapath compares it (int8: sx_22).
  CdpLut(const LutSettings& settings, const LutTables& tables, bool fp, int64_t le_start_compare,
         int64_t lo_start_compare)
      : s_(settings), t_(tables), fp_(fp), le_cmp_(le_start_compare), lo_cmp_(lo_start_compare) {}

  // Integer modes: s is the (exact) square sum or, with SQSUM_BYPASS, x'(c).
  CdpLutOutcome evaluate_int(int64_t s) const;
  // fp16 mode: s is an fp32 pattern.
  CdpLutOutcome evaluate_fp(uint32_t s) const;

  LutIndex index_int(LutTableId t, int64_t s) const;
  LutIndex index_fp(LutTableId t, uint32_t s) const;

 private:
  LutChoice choose(LutClass le, LutClass lo) const;

  LutSettings s_;
  const LutTables& t_;
  bool fp_;
  int64_t le_cmp_, lo_cmp_;
};

// The integer underflow anchor of an exponent-mode LE table: START + 2^IOFF for IOFF >= 0
// (modulo 2^39 as in the RTL, so IOFF >= 39 adds nothing), START for IOFF < 0 (spec §2.7,
// §8 point 8).
int64_t cdp_exponent_uflow_anchor(int64_t start, int offset);
// fp16: START + 2^IOFF (fp32), also for negative IOFF (spec §2.11 step 4); 2^IOFF is the
// fp32 pattern with exponent field (IOFF + 127) mod 256.
uint32_t cdp_exponent_uflow_anchor_fp(uint32_t start, int offset);

}  // namespace dla::golden
