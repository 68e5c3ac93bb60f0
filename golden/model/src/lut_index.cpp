#include "lut_index.h"

#include "dla/numerics/float_format.h"

namespace dla::golden {

namespace {

constexpr unsigned kIndexCap = 511;  // 9-bit index register (sdp.md §8.2 step 4)

// floor(r * 2^frac_bits / 2^q) for 0 <= r < 2^q.
uint64_t scale_fraction(uint64_t r, unsigned q, unsigned frac_bits) {
  if (q <= frac_bits) return r << (frac_bits - q);
  const unsigned down = q - frac_bits;
  return down >= 64 ? 0 : r >> down;
}

unsigned floor_log2(uint64_t v) {
  unsigned e = 0;
  while (v >>= 1) ++e;
  return e;
}

}  // namespace

LutIndex lut_linear_index(int64_t d, int sel, unsigned last, unsigned frac_bits) {
  LutIndex r;
  if (d <= 0) return r;
  const uint64_t ud = static_cast<uint64_t>(d);
  uint64_t index = 0;
  if (sel >= 0) {
    const unsigned s = static_cast<unsigned>(sel);
    index = s >= 64 ? 0 : ud >> s;
    const uint64_t rem = s >= 64 ? ud : ud & ((uint64_t{1} << s) - 1);
    r.fraction = s == 0 ? 0 : scale_fraction(rem, s, frac_bits);
  } else {
    const unsigned s = static_cast<unsigned>(-sel);
    index = (s >= 64 || (ud >> (63 - s)) != 0) ? kIndexCap : ud << s;
  }
  if (index > kIndexCap) index = kIndexCap;
  if (index >= last) {
    r.cls = LutClass::Overflow;
    r.index = last;
    r.fraction = 0;
  } else {
    r.cls = LutClass::Hit;
    r.index = static_cast<unsigned>(index);
  }
  return r;
}

LutIndex lut_exponent_index(int64_t d, int offset, unsigned frac_bits) {
  LutIndex r;
  if (d <= 0) return r;
  const uint64_t ud = static_cast<uint64_t>(d);
  const int e = static_cast<int>(floor_log2(ud));
  if (e < offset) return r;
  const int index = e - offset;
  if (index >= 64) {
    r.cls = LutClass::Overflow;
    r.index = 64;
    return r;
  }
  r.cls = LutClass::Hit;
  r.index = static_cast<unsigned>(index);
  r.fraction = scale_fraction(ud - (uint64_t{1} << e), static_cast<unsigned>(e), frac_bits);
  return r;
}

LutIndex lut_fp_exponent_index(uint32_t d, int offset, unsigned frac_bits) {
  LutIndex r;
  const auto& f = num::kFp32;
  if (f.sign(d) || f.is_zero(d) || f.is_nan(d)) return r;
  const int e = static_cast<int>(f.exp(d)) - 127;
  if (e < offset) return r;
  const int index = e - offset;
  if (index >= 64) {
    r.cls = LutClass::Overflow;
    r.index = 64;
    return r;
  }
  r.cls = LutClass::Hit;
  r.index = static_cast<unsigned>(index);
  r.fraction = scale_fraction(f.man(d), 23, frac_bits);
  return r;
}

LutIndex lut_fp_linear_index(uint32_t d, int sel, unsigned last, unsigned frac_bits) {
  LutIndex r;
  const auto& f = num::kFp32;
  if (f.sign(d) || f.is_zero(d) || f.is_nan(d)) return r;
  // d * 2^-sel = sig * 2^(e - 23 - sel) with sig = 1.mant as a 24-bit integer.
  const uint64_t sig = (uint64_t{1} << 23) | f.man(d);
  const int sh = static_cast<int>(f.exp(d)) - 127 - 23 - sel;
  uint64_t index = 0;
  if (sh >= 0) {
    index = sh >= 40 ? kIndexCap : sig << sh;
  } else {
    const unsigned down = static_cast<unsigned>(-sh);
    index = down >= 64 ? 0 : sig >> down;
    const uint64_t rem = down >= 64 ? sig : sig & ((uint64_t{1} << down) - 1);
    r.fraction = scale_fraction(rem, down, frac_bits);
  }
  if (index > kIndexCap) index = kIndexCap;
  if (index >= last) {
    r.cls = LutClass::Overflow;
    r.index = last;
    r.fraction = 0;
  } else {
    r.cls = LutClass::Hit;
    r.index = static_cast<unsigned>(index);
  }
  return r;
}

LutChoice lut_choose(LutClass le, LutClass lo, const LutSettings& s) {
  auto pick = [](bool lo_wins) { return lo_wins ? LutTableId::LO : LutTableId::LE; };
  if (le == LutClass::Hit && lo != LutClass::Hit) return {LutTableId::LE, LutClass::Hit};
  if (lo == LutClass::Hit && le != LutClass::Hit) return {LutTableId::LO, LutClass::Hit};
  if (le == LutClass::Hit) return {pick(s.hybrid_priority_lo), LutClass::Hit};
  if (le == lo) {
    const bool lo_wins = le == LutClass::Underflow ? s.uflow_priority_lo : s.oflow_priority_lo;
    return {pick(lo_wins), le};
  }
  // one underflows, the other overflows
  const LutTableId t = pick(s.hybrid_priority_lo);
  return {t, t == LutTableId::LE ? le : lo};
}

}  // namespace dla::golden
