#pragma once
// Bit-level description of the three floating-point formats NVDLA uses (fp16, fp17, fp32).
// Values are carried as raw bit patterns in uint32_t (fp16 and fp17 in the low bits).
#include <cstdint>

namespace dla::num {

struct FloatFormat {
  unsigned exp_bits;
  unsigned man_bits;

  constexpr unsigned width() const { return 1 + exp_bits + man_bits; }
  constexpr uint32_t bias() const { return (1u << (exp_bits - 1)) - 1; }
  constexpr uint32_t emax() const { return (1u << exp_bits) - 1; }  // all-ones exponent
  constexpr uint32_t man_mask() const { return (1u << man_bits) - 1; }
  constexpr uint32_t exp_mask() const { return emax(); }
  constexpr uint32_t mask() const {
    return width() == 32 ? 0xFFFFFFFFu : ((1u << width()) - 1);
  }

  constexpr uint32_t sign(uint32_t x) const { return (x >> (exp_bits + man_bits)) & 1u; }
  constexpr uint32_t exp(uint32_t x) const { return (x >> man_bits) & exp_mask(); }
  constexpr uint32_t man(uint32_t x) const { return x & man_mask(); }
  constexpr uint32_t pack(uint32_t s, uint32_t e, uint32_t m) const {
    return (s << (exp_bits + man_bits)) | (e << man_bits) | m;
  }

  constexpr bool is_zero(uint32_t x) const { return exp(x) == 0 && man(x) == 0; }
  constexpr bool is_subnormal(uint32_t x) const { return exp(x) == 0 && man(x) != 0; }
  constexpr bool is_nan(uint32_t x) const { return exp(x) == emax() && man(x) != 0; }
  // exponent all ones, mantissa zero: IEEE's Inf; NVDLA arithmetic treats it as a number.
  constexpr bool is_inf_pattern(uint32_t x) const { return exp(x) == emax() && man(x) == 0; }
  // Largest finite magnitude with sign s ("MAXF(s)"): the saturation value on overflow.
  constexpr uint32_t max_finite(uint32_t s) const { return pack(s, emax() - 1, man_mask()); }
  constexpr uint32_t zero(uint32_t s) const { return pack(s, 0, 0); }
  constexpr uint32_t negate(uint32_t x) const { return x ^ (1u << (exp_bits + man_bits)); }
};

inline constexpr FloatFormat kFp16{5, 10};
inline constexpr FloatFormat kFp17{6, 10};
inline constexpr FloatFormat kFp32{8, 23};

// Host-side helpers for tests and tools (exact; no NVDLA rounding involved).
float fp32_bits_to_float(uint32_t bits);
uint32_t float_to_fp32_bits(float f);
// Exact value of a pattern of any format (NaN -> quiet NaN, Inf pattern -> +-infinity).
double to_double(FloatFormat f, uint32_t bits);

}  // namespace dla::num
