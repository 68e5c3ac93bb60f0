#pragma once
// Independent host-side references for the tests: IEEE binary16 through the compiler's
// _Float16, and correct rounding to an (E, M) format through <cmath> (round-to-nearest-even
// is the default floating-point environment).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "dla/numerics/float_format.h"

namespace dla::num::testref {

inline float host_half_to_float(uint16_t h) {
  _Float16 x;
  std::memcpy(&x, &h, sizeof x);
  return static_cast<float>(x);
}

inline uint16_t host_float_to_half(float f) {
  const _Float16 x = static_cast<_Float16>(f);
  uint16_t h;
  std::memcpy(&h, &x, sizeof h);
  return h;
}

inline uint32_t host_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

inline float host_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// Round finite v to format f with round-to-nearest-even. Overflow gives the largest finite
// value (NVDLA policy). Below the smallest normal: subnormals if `subnormals`, otherwise
// the value is rounded on the subnormal grid and kept only if it reaches the smallest normal.
inline uint32_t round_to_format(double v, FloatFormat f, bool subnormals) {
  const uint32_t s = std::signbit(v) ? 1 : 0;
  const double a = std::fabs(v);
  const int bias = static_cast<int>(f.bias());
  const int mw = static_cast<int>(f.man_bits);
  if (a == 0.0) return f.pack(s, 0, 0);
  int ex = 0;
  const double fr = std::frexp(a, &ex);  // a = fr * 2^ex, fr in [0.5, 1)
  int e = ex - 1 + bias;
  if (e >= 1) {
    double q = std::nearbyint(std::ldexp(fr, mw + 1));  // in [2^mw, 2^(mw+1)]
    if (q == std::ldexp(1.0, mw + 1)) {
      q /= 2;
      ++e;
    }
    if (e >= static_cast<int>(f.emax())) return f.max_finite(s);
    return f.pack(s, static_cast<uint32_t>(e), static_cast<uint32_t>(q - std::ldexp(1.0, mw)));
  }
  const double q = std::nearbyint(std::ldexp(a, bias - 1 + mw));  // subnormal grid
  if (q >= std::ldexp(1.0, mw)) return f.pack(s, 1, 0);
  return subnormals ? f.pack(s, 0, static_cast<uint32_t>(q)) : f.pack(s, 0, 0);
}

}  // namespace dla::num::testref
