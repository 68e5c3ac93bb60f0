#include "dla/numerics/float_convert.h"

#include <stdexcept>
#include <string>

#include "bit_utils.h"

namespace dla::num {
using detail::bit_length;
using detail::round_shift_rne;

uint32_t widen(FloatFormat in, FloatFormat out, uint32_t x, bool keep_denorm) {
  const uint32_t s = in.sign(x), e = in.exp(x), m = in.man(x);
  const unsigned up = out.man_bits - in.man_bits;
  const uint32_t d = out.bias() - in.bias();
  if (in.is_nan(x)) return out.pack(s, out.emax(), m);  // payload stays in the low bits
  if (in.is_inf_pattern(x)) return out.max_finite(s);
  if (in.is_zero(x)) return out.zero(s);
  if (e == 0 && keep_denorm) {
    const unsigned lz = in.man_bits - bit_length(m);
    const uint32_t frac = (m << (lz + 1)) & in.man_mask();
    return out.pack(s, d - lz, frac << up);
  }
  return out.pack(s, e + d, m << up);  // normal, or subnormal read with hidden 1 (e = 0)
}

uint32_t narrow(FloatFormat in, FloatFormat out, uint32_t x, bool keep_denorm) {
  const uint32_t s = in.sign(x), e = in.exp(x), m = in.man(x);
  const int d = static_cast<int>(in.bias() - out.bias());
  const int ei = static_cast<int>(e);
  const int mo = static_cast<int>(out.man_bits);
  const unsigned down = in.man_bits - out.man_bits;
  if (in.is_nan(x)) return out.pack(s, out.emax(), m & out.man_mask());
  if (ei >= static_cast<int>(out.emax()) + d) return out.max_finite(s);
  if (ei < d - mo) return out.zero(s);
  if (ei <= d) {  // below the output's smallest normal
    const unsigned k = down + static_cast<unsigned>(d - ei + 1);
    const uint64_t v = (uint64_t{1} << in.man_bits) + m;
    const uint64_t r = round_shift_rne(v, k);
    if (r == (uint64_t{1} << out.man_bits)) return out.pack(s, 1, 0);
    return keep_denorm ? out.pack(s, 0, static_cast<uint32_t>(r)) : out.zero(s);
  }
  uint32_t eo = static_cast<uint32_t>(ei - d);
  uint64_t sig = round_shift_rne((uint64_t{1} << in.man_bits) + m, down);
  if (sig == (uint64_t{2} << out.man_bits)) {
    sig >>= 1;
    ++eo;
    if (eo == out.emax()) return out.max_finite(s);
  }
  return out.pack(s, eo, static_cast<uint32_t>(sig) & out.man_mask());
}

uint32_t fp16_to_fp17(uint16_t h) { return widen(kFp16, kFp17, h, true); }
uint32_t fp16_to_fp32(uint16_t h) { return widen(kFp16, kFp32, h, true); }
uint32_t fp17_to_fp32(uint32_t x) { return widen(kFp17, kFp32, x & kFp17.mask(), false); }
uint16_t fp17_to_fp16(uint32_t x) {
  return static_cast<uint16_t>(narrow(kFp17, kFp16, x & kFp17.mask(), true));
}
uint32_t fp32_to_fp17(uint32_t x) { return narrow(kFp32, kFp17, x, false); }
uint16_t fp32_to_fp16(uint32_t x) { return static_cast<uint16_t>(narrow(kFp32, kFp16, x, true)); }

uint32_t ufrac_to_fp17(uint64_t f, unsigned nbits) {
  if (nbits == 0 || nbits > 63)
    throw std::invalid_argument("ufrac_to_fp17: nbits " + std::to_string(nbits) +
                                " outside 1..63");
  if (f >> nbits)
    throw std::out_of_range("ufrac_to_fp17: fraction " + std::to_string(f) +
                            " does not fit " + std::to_string(nbits) + " bits");
  if (f == 0) return 0;
  const unsigned len = bit_length(f);
  const int lz = static_cast<int>(nbits - len);
  // value = 1.xxx * 2^-(lz+1): keep 11 significant bits
  uint64_t sig = len > 11 ? round_shift_rne(f, len - 11) : (f << (11 - len));
  int e = static_cast<int>(kFp17.bias()) - (lz + 1);
  if (sig == (uint64_t{1} << 11)) {
    sig >>= 1;
    ++e;
  }
  if (e <= 0) return 0;
  return kFp17.pack(0, static_cast<uint32_t>(e), static_cast<uint32_t>(sig) & kFp17.man_mask());
}

uint32_t u16_to_fp17(uint16_t f) { return ufrac_to_fp17(f, 16); }
uint32_t frac35_to_fp17(uint64_t f) { return ufrac_to_fp17(f, 35); }

namespace {
void check_int17(int32_t v, const char* fn) {
  if (v < -65536 || v > 65535)
    throw std::out_of_range(std::string(fn) + ": " + std::to_string(v) +
                            " is not a signed 17-bit value");
}

// |v| < 2^17 to fp16 with RNE; on overflow either saturate or produce Inf.
uint16_t int17_to_fp16(int32_t v, bool saturate) {
  if (v == 0) return 0;
  const uint32_t s = v < 0 ? 1 : 0;
  const uint64_t a = static_cast<uint64_t>(v < 0 ? -static_cast<int64_t>(v) : v);
  const unsigned len = bit_length(a);
  uint32_t e = (len - 1) + kFp16.bias();
  const uint16_t overflow =
      static_cast<uint16_t>(saturate ? kFp16.max_finite(s) : kFp16.pack(s, kFp16.emax(), 0));
  if (e >= kFp16.emax()) return overflow;  // only |v| = 65536
  uint64_t sig = len > 11 ? round_shift_rne(a, len - 11) : (a << (11 - len));
  if (sig == (uint64_t{1} << 11)) {
    sig >>= 1;
    ++e;
    if (e >= kFp16.emax()) return overflow;
  }
  return static_cast<uint16_t>(kFp16.pack(s, e, static_cast<uint32_t>(sig) & kFp16.man_mask()));
}
}  // namespace

uint16_t int17_to_fp16_saturating(int32_t v) {
  check_int17(v, "int17_to_fp16_saturating");
  return int17_to_fp16(v, true);
}

uint16_t int17_to_fp16_ieee(int32_t v) {
  check_int17(v, "int17_to_fp16_ieee");
  return int17_to_fp16(v, false);
}

int16_t fp16_to_int16(uint16_t h) {
  if (kFp16.is_nan(h)) return -32768;
  const uint32_t s = kFp16.sign(h), e = kFp16.exp(h);
  const uint64_t sig = 1024u + kFp16.man(h);  // hidden bit always 1, even for e = 0
  const int k = 25 - static_cast<int>(e);
  uint64_t mag;
  if (k >= 0)
    mag = (sig >> k) + (k > 0 ? ((sig >> (k - 1)) & 1u) : 0);
  else
    mag = sig << (-k);
  if (mag > 32767) return s ? int16_t{-32768} : int16_t{32767};
  const int32_t m = static_cast<int32_t>(mag);
  return static_cast<int16_t>(s ? -m : m);
}

}  // namespace dla::num
