#pragma once
// Winograd F(2x2, 3x3) transforms of the convolution pipeline, bit exact (conv.md §6.3, §6.4):
// the CSC input transform "PRA" (int8/int16/fp16) and the CMAC integer output transform.
// Stride folding (§6.1) and the per-position products Q (§6.4) are computed by the caller.
//
// 4x4 tiles are row-major: index = row*4 + col, row = i (y), col = j (x) of conv.md §6.3.
// The PRA evaluates V = B^T d B as rows first, then columns, with the operand order of
// §6.3 (this matters only for fp16: ties, NaN selection and the sign of a zero result):
//   rows    M0 = d0 - d2,  M1 = d1 + d2,  M2 = d2 - d1,  M3 = d1 - d3   (dk = row k of d)
//   columns V0 = m0 - m2,  V1 = m1 + m2,  V2 = m2 - m1,  V3 = m1 - m3   (mk = column k of M)
#include <array>
#include <cstdint>

namespace dla::num {

// conv.md §6.3, int8 (bits = 8) / int16 (bits = 16). d holds the sign-extended input values.
// Result: sat_bits(rha(V, pra_truncate)) per position, V computed exactly.
// Throws std::invalid_argument for bits not in {8, 16} or pra_truncate > 2, and
// std::out_of_range when an element of d does not fit `bits` signed bits.
std::array<int32_t, 16> winograd_pra_int(const std::array<int32_t, 16>& d, unsigned pra_truncate,
                                         unsigned bits);

// conv.md §6.3 fp16: d and the result are fp16 bit patterns. Each input is widened with
// winograd_fp16_to_fp17, combined with add17_winograd_pra / sub17_winograd_pra
// (float_arith.h, §6.3.1) and narrowed with winograd_fp17_to_fp16. Never produces Inf.
std::array<uint16_t, 16> winograd_pra_fp16(const std::array<uint16_t, 16>& d);

// §6.3 widening fp16 -> 17-bit float (1 sign, 6 exponent bits with bias 31, 10 fraction bits):
// exact for finite values (fp16 subnormals become fp17 normals), +-Inf -> +-largest finite
// fp17 (exponent 62, fraction 0x3FF), NaN -> exponent 63 with the same sign and fraction.
uint32_t winograd_fp16_to_fp17(uint16_t h);

// §6.3.2 narrowing 17-bit float -> fp16 (bits above bit 16 of x are ignored). By fp17
// exponent e: 63 -> fp16 exponent 31 with the same sign and fraction (NaN; also for fraction
// 0, a pattern the PRA adder never produces); >= 47 -> +-0x7BFF; < 6 -> signed zero;
// 6..16 -> fp16 subnormal with RNE (a carry gives the smallest normal); 17..46 -> exact.
// Unlike fp17_to_fp16 (float_convert.h), exponent 63 with fraction 0 does not saturate.
uint16_t winograd_fp17_to_fp16(uint32_t x);

// conv.md §6.4 output transform Y = A^T Q A, A^T = [[1, 1, 1, 0], [0, 1, -1, -1]], on the 16
// per-position sums Q (row-major like the tiles), in exact int64 arithmetic. Rows first
// (r0 = Q0 + Q1 + Q2, r1 = Q1 - Q2 - Q3 for every column), then columns the same way.
// Returns {Y00, Y01, Y10, Y11} (Y[row][col]). Throws std::overflow_error if an intermediate
// value does not fit int64 (never the case for the hardware's <= 38-bit sums).
std::array<int64_t, 4> winograd_output_transform(const std::array<int64_t, 16>& q);

}  // namespace dla::num
