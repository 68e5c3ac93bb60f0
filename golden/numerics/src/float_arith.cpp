#include "dla/numerics/float_arith.h"

#include "bit_utils.h"

namespace dla::num {
using detail::bit_length;

namespace {

// Significand with the hidden bit; only an exact zero lacks it (subnormals get it too).
uint64_t significand(FloatFormat f, uint32_t x) {
  return f.is_zero(x) ? 0 : ((uint64_t{1} << f.man_bits) | f.man(x));
}

// App. A.1 / sdp §3.3 FADD. An exponent increment (carry or rounding carry-out) is allowed
// only while the exponent is below carry_limit; otherwise the result saturates.
uint32_t fadd_impl(FloatFormat f, uint32_t a, uint32_t b, uint32_t carry_limit) {
  if (f.is_nan(a)) return a;
  if (f.is_nan(b)) return b;
  const unsigned mw = f.man_bits;
  const bool a_larger = f.exp(a) > f.exp(b) || (f.exp(a) == f.exp(b) && f.man(a) >= f.man(b));
  const uint32_t big = a_larger ? a : b;
  const uint32_t small = a_larger ? b : a;
  const uint32_t s = f.sign(big);
  uint32_t e = f.exp(big);
  const unsigned dd = e - f.exp(small);
  const unsigned k = mw + 2;
  const unsigned n = 2 * mw + 3;
  const uint64_t x = significand(f, big) << k;
  const uint64_t ssig = significand(f, small);
  // Bits shifted out of the smaller operand are dropped: no sticky bit.
  const uint64_t y = dd <= k ? (ssig << (k - dd)) : (dd - k >= 64 ? 0 : ssig >> (dd - k));
  uint64_t z = f.sign(a) == f.sign(b) ? x + y : x - y;
  if (z >> n) {
    if (e >= carry_limit) return f.max_finite(s);
    ++e;
    z >>= 1;
  } else {
    const unsigned lz = n - bit_length(z);
    if (z == 0 || e <= lz) return f.zero(s);
    e -= lz;
    z <<= lz;
  }
  uint64_t top = z >> (mw + 2);
  const bool guard = (z >> (mw + 1)) & 1u;
  const bool sticky = (z & ((uint64_t{1} << (mw + 1)) - 1)) != 0;
  if (guard && (sticky || (top & 1u))) ++top;
  if (top == (uint64_t{1} << (mw + 1))) {
    top >>= 1;
    if (e >= carry_limit) return f.max_finite(s);
    ++e;
  }
  return f.pack(s, e, static_cast<uint32_t>(top) & f.man_mask());
}

}  // namespace

uint32_t fadd(FloatFormat f, uint32_t a, uint32_t b) { return fadd_impl(f, a, b, f.emax() - 1); }
uint32_t fsub(FloatFormat f, uint32_t a, uint32_t b) { return fadd(f, a, f.negate(b)); }

uint32_t fmul(FloatFormat f, uint32_t a, uint32_t b) {
  if (f.is_nan(a)) return a;
  if (f.is_nan(b)) return b;
  const unsigned mw = f.man_bits;
  const uint32_t s = f.sign(a) ^ f.sign(b);
  const uint32_t esum = f.exp(a) + f.exp(b);
  if (f.is_zero(a) || f.is_zero(b) || esum < f.bias()) return f.zero(s);
  if (esum >= f.emax() + f.bias()) return f.max_finite(s);
  uint32_t e = esum - f.bias();
  const uint64_t p = significand(f, a) * significand(f, b);  // 2Mw+2 bits
  uint64_t frac;                                            // 2Mw+1 bits below the leading 1
  if (p >> (2 * mw + 1)) {
    if (e >= f.emax() - 1) return f.max_finite(s);
    ++e;
    frac = p - (uint64_t{1} << (2 * mw + 1));
  } else {
    frac = 2 * (p - (uint64_t{1} << (2 * mw)));
  }
  const uint64_t full = (uint64_t{1} << (2 * mw + 1)) + frac;
  uint64_t top = full >> (mw + 1);
  const bool guard = (full >> mw) & 1u;
  const bool sticky = (full & ((uint64_t{1} << mw) - 1)) != 0;
  if (guard && (sticky || (top & 1u))) ++top;
  if (top == (uint64_t{1} << (mw + 1))) {
    top >>= 1;
    ++e;
    if (e == f.emax()) return f.max_finite(s);
  }
  if (e == 0) return f.zero(s);
  return f.pack(s, e, static_cast<uint32_t>(top) & f.man_mask());
}

bool fgreater(FloatFormat f, uint32_t a, uint32_t b) {
  const bool absgt = f.exp(a) > f.exp(b) || (f.exp(a) == f.exp(b) && f.man(a) > f.man(b));
  const uint32_t sa = f.sign(a), sb = f.sign(b);
  if (sa != sb) return sa == 0;
  return sa == 0 ? absgt : !absgt;
}

uint32_t fmax(FloatFormat f, uint32_t a, uint32_t b) {
  if (f.is_nan(a)) return a;
  if (f.is_nan(b)) return b;
  return fgreater(f, a, b) ? a : b;
}

uint32_t fmin(FloatFormat f, uint32_t a, uint32_t b) {
  if (f.is_nan(a)) return a;
  if (f.is_nan(b)) return b;
  return fgreater(f, a, b) ? b : a;
}

uint32_t frelu(FloatFormat f, uint32_t x) {
  if (f.is_nan(x) || f.sign(x) == 0) return x;
  return f.zero(0);
}

uint32_t add17_winograd_pra(uint32_t a, uint32_t b) {
  return fadd_impl(kFp17, a, b, kFp17.emax() - 2);
}
uint32_t sub17_winograd_pra(uint32_t a, uint32_t b) {
  return add17_winograd_pra(a, kFp17.negate(b));
}

}  // namespace dla::num
