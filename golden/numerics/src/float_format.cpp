#include "dla/numerics/float_format.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace dla::num {

float fp32_bits_to_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t float_to_fp32_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

double to_double(FloatFormat f, uint32_t bits) {
  const double sign = f.sign(bits) ? -1.0 : 1.0;
  const int e = static_cast<int>(f.exp(bits));
  const double m = f.man(bits);
  const int bias = static_cast<int>(f.bias());
  const int mw = static_cast<int>(f.man_bits);
  if (f.is_nan(bits)) return std::numeric_limits<double>::quiet_NaN();
  if (f.is_inf_pattern(bits)) return sign * std::numeric_limits<double>::infinity();
  if (e == 0) return sign * std::ldexp(m, 1 - bias - mw);
  return sign * std::ldexp(m + std::ldexp(1.0, mw), e - bias - mw);
}

}  // namespace dla::num
