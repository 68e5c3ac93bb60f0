#pragma once
// fp16 arithmetic of the convolution pipeline, bit exact: the CMAC block-floating-point dot
// product (conv.md §4.4.1, §4.4.2), its Winograd variant (§6.4) and the CACC "fp48"
// accumulator with its fp32 output conversion (§4.4.3, §4.4.4). NaN/Inf rules: §9.
// Pure functions on bit patterns; no state besides the accumulator object.
#include <cstdint>

namespace dla::num {

// CMAC exponent value that marks a NaN output (the largest real one is 4 * 14 = 56).
inline constexpr unsigned kCmacFp16NanExp = 63;
// CACC exponent value that marks a NaN accumulator.
inline constexpr unsigned kCaccNanExp = 255;

// One CMAC cell output in fp16 mode: value = mant * 2^(exp - 50). exp == 63 marks a NaN
// (mant then holds the NaN code: bit 37 = sign, bits 36:27 = fraction, other bits 0).
// mant is always the 38-bit word read as two's complement and sign-extended to 64 bits, the
// NaN code included (a NaN with sign 1 has a negative mant); consumers that want the raw
// 38-bit word take mant & (2^38 - 1). CaccFp48::add only looks at the low 38 bits.
struct CmacFp16Sum {
  unsigned exp = 0;
  int64_t mant = 0;
};

// An fp16 operand re-encoded for the CMAC (§4.4.1): value = (-1)^sign * m * 2^(4g - 25).
// Inf (exponent 31, fraction 0) is the finite value +-2^16; NaNs are decoded the same way
// but never reach the multipliers.
struct CmacFp16Operand {
  bool sign = false;
  unsigned g = 0;  // group exponent floor(e / 4), 0..7
  unsigned h = 0;  // fine shift: 1 if e == 0, else e mod 4
  uint32_t m = 0;  // ((e != 0) * 1024 + f) * 2^h, < 2^14
};
CmacFp16Operand cmac_fp16_decode(uint16_t x);

inline bool fp16_is_nan(uint16_t x) { return (x & 0x7C00u) == 0x7C00u && (x & 0x03FFu) != 0; }
// Neither +0 nor -0.
inline bool fp16_is_nonzero(uint16_t x) { return (x & 0x7FFFu) != 0; }
// The CMAC output carrying the NaN code of the fp16 NaN pattern `nan` (§4.4.1 step 1).
CmacFp16Sum cmac_fp16_nan_sum(uint16_t nan);

// conv.md §4.4.2. a = weight mantissa (multiplier), b = data mantissa, q = alignment shift.
// Operands are < 2^14 (only bits 15:0 of a and b are used). The hardware only uses q that
// are multiples of 4; for other q < 32 the compensation constant is ceil(Kq0 / 2^q) with
// Kq0 = 0xAAAB0000 read as signed, which reproduces the spec's table at every multiple of 4.
int32_t cmac_booth_trunc(bool sign, uint32_t a, uint32_t b, unsigned q);

// The two carry-save words (F0, F1) of the Booth multiplier before the shift (§4.4.2 steps
// 2..5); exposed for tests and debugging. F0 + F1 + 0xAAAB0000 == (-1)^sign * a * b mod 2^32.
struct BoothCarrySave {
  uint32_t f0 = 0;
  uint32_t f1 = 0;
};
BoothCarrySave cmac_booth_carry_save(bool sign, uint32_t a, uint32_t b);

// conv.md §4.4.1, direct mode: dot product of `lanes` lanes (w[i], d[i] are fp16 bit patterns).
CmacFp16Sum cmac_fp16_dot(const uint16_t* w, const uint16_t* d, unsigned lanes);

// Winograd (conv.md §6.4): one common exponent over all `lanes` lanes; out[j] = sum of lanes
// [j*group, (j+1)*group); lanes/group outputs, all with the same exp; a NaN in any lane (scan
// order weights then data, as §4.4.1 step 1) gives every output the NaN code.
// Throws std::invalid_argument when group == 0 or lanes is not a multiple of group.
void cmac_fp16_grouped_dot(const uint16_t* w, const uint16_t* d, unsigned lanes, unsigned group,
                           CmacFp16Sum* out);

// conv.md §4.4.3 / §4.4.4: the per-output-element accumulator, value Ma * 2^(Ea - 101),
// Ea == 255 = NaN. Starts at (0, 0).
class CaccFp48 {
 public:
  CaccFp48() = default;
  // An explicit state (tests, checkpoints): ea mod 256, ma reduced to 40 bits two's complement.
  CaccFp48(unsigned ea, int64_t ma);

  void add(const CmacFp16Sum& partial);  // in CACC order
  uint32_t to_fp32() const;              // §4.4.4
  unsigned exp() const { return ea_; }   // 8-bit Ea
  int64_t mant() const { return ma_; }   // 40-bit Ma, sign-extended
  bool is_nan() const { return ea_ == kCaccNanExp; }

 private:
  unsigned ea_ = 0;
  int64_t ma_ = 0;
};

}  // namespace dla::num
