#pragma once
// NVDLA floating-point arithmetic on bit patterns (pdp_cdp_bdma_rubik_glb.md App. A.1, A.2,
// A.6; sdp.md §3.3; conv.md §6.3.1). Non-IEEE properties: no sticky bit on the aligned
// smaller addend, overflow saturates to the largest finite value, results below the
// smallest normal flush to signed zero, Inf patterns are ordinary numbers with exponent
// EMAX, NaN operands are returned bit-identical (first operand wins).
#include <cstdint>

#include "dla/numerics/float_format.h"

namespace dla::num {

// Generic primitives (format parameters E, M). PDP/CDP App. A and SDP §3.3 describe the
// same functions; they are used as add17/mul17 (PDP, CDP) and add32/mul32 (SDP, CDP).
uint32_t fadd(FloatFormat f, uint32_t a, uint32_t b);
uint32_t fsub(FloatFormat f, uint32_t a, uint32_t b);  // fadd(a, -b)
uint32_t fmul(FloatFormat f, uint32_t a, uint32_t b);
// a "greater than" b by NVDLA's ordering (sign first, then magnitude; -0 < +0).
bool fgreater(FloatFormat f, uint32_t a, uint32_t b);
uint32_t fmax(FloatFormat f, uint32_t a, uint32_t b);  // NaN: a if NaN, else b if NaN
uint32_t fmin(FloatFormat f, uint32_t a, uint32_t b);
// SDP FEQ: bit-pattern equality (+0 != -0, identical NaNs are equal).
inline bool feq(uint32_t a, uint32_t b) { return a == b; }
// SDP FRELU: keep NaN and non-negative (sign 0) values, anything else becomes +0.
uint32_t frelu(FloatFormat f, uint32_t x);

inline uint32_t add17(uint32_t a, uint32_t b) { return fadd(kFp17, a, b); }
inline uint32_t mul17(uint32_t a, uint32_t b) { return fmul(kFp17, a, b); }
inline uint32_t add32(uint32_t a, uint32_t b) { return fadd(kFp32, a, b); }
inline uint32_t sub32(uint32_t a, uint32_t b) { return fsub(kFp32, a, b); }
inline uint32_t mul32(uint32_t a, uint32_t b) { return fmul(kFp32, a, b); }
inline uint16_t max16(uint16_t a, uint16_t b) { return static_cast<uint16_t>(fmax(kFp16, a, b)); }
inline uint16_t min16(uint16_t a, uint16_t b) { return static_cast<uint16_t>(fmin(kFp16, a, b)); }

// CSC Winograd input-transform adder (conv.md §6.3.1). Same algorithm as add17 except the
// exponent ceiling: a carry may raise the exponent only up to 61, and a result that would
// reach exponent 62 through a carry saturates (add17 of App. A.1 allows 62).
uint32_t add17_winograd_pra(uint32_t a, uint32_t b);
uint32_t sub17_winograd_pra(uint32_t a, uint32_t b);

}  // namespace dla::num
