#pragma once
// NVDLA floating-point conversions, bit exact (pdp_cdp_bdma_rubik_glb.md App. A.3-A.5,
// sdp.md §3.2, conv.md §5.3, §6.3.2). Not IEEE: Inf inputs saturate, narrowing never
// produces Inf, NaN payloads are moved unshifted (low mantissa bits).
#include <cstdint>

#include "dla/numerics/float_format.h"

namespace dla::num {

// Generic WIDEN (sdp.md §3.2). keep_denorm: input subnormals become exact normals;
// otherwise a subnormal is read as if its hidden bit were 1.
uint32_t widen(FloatFormat in, FloatFormat out, uint32_t x, bool keep_denorm);
// Generic NARROW (sdp.md §3.2), round to nearest even. keep_denorm: results below the
// smallest normal become output subnormals; otherwise they flush to signed zero.
uint32_t narrow(FloatFormat in, FloatFormat out, uint32_t x, bool keep_denorm);

// Named instances. Every unit (PDP, CDP, SDP, CSC Winograd) uses these same definitions;
// PDP/CDP App. A.3/A.4 and SDP §3.2 describe identical functions.
uint32_t fp16_to_fp17(uint16_t h);   // exact
uint32_t fp16_to_fp32(uint16_t h);   // exact
uint32_t fp17_to_fp32(uint32_t x);   // exact for normals; fp17 subnormal read with hidden 1
uint16_t fp17_to_fp16(uint32_t x);   // RNE, fp16 subnormals produced
uint32_t fp32_to_fp17(uint32_t x);   // RNE, flush below 2^-30 (no fp17 subnormals)
uint16_t fp32_to_fp16(uint32_t x);   // RNE, fp16 subnormals produced (SDP output)

// Unsigned fraction F / 2^nbits (nbits <= 63) to fp17, RNE, +0 below the fp17 normal range.
uint32_t ufrac_to_fp17(uint64_t f, unsigned nbits);
// CDP fp16 LUT fraction: f / 65536 (App. A.5).
uint32_t u16_to_fp17(uint16_t f);
// SDP fp16 LUT fraction: F / 2^35, F < 2^35 (sdp.md §3.2 FRAC35->FP17).
uint32_t frac35_to_fp17(uint64_t f);

// SDP output converter INT17->FP16 (sdp.md §3.2): v in [-65536, 65535], RNE,
// saturates to +-65504 (never Inf). Throws std::out_of_range outside 17 bits.
uint16_t int17_to_fp16_saturating(int32_t v);
// CDMA pixel converter int->fp16 (conv.md §5.3): RNE like IEEE; magnitudes rounding to
// >= 65520 become +-Inf. v in [-65536, 65535]; throws std::out_of_range otherwise.
uint16_t int17_to_fp16_ieee(int32_t v);
// SDP FP16->INT16 (sdp.md §3.2): round half away from zero, saturate, NaN -> -32768.
int16_t fp16_to_int16(uint16_t h);

}  // namespace dla::num
