#include "dla/numerics/integer_ops.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace dla::num {
namespace {
void check_width(unsigned n, const char* fn) {
  if (n == 0 || n > 64)
    throw std::invalid_argument(std::string(fn) + ": width " + std::to_string(n) +
                                " outside 1..64");
}
}  // namespace

int64_t sx(int64_t v, unsigned n) {
  check_width(n, "sx");
  if (n == 64) return v;
  const uint64_t m = (uint64_t{1} << n) - 1;
  const uint64_t low = static_cast<uint64_t>(v) & m;
  const uint64_t sign = uint64_t{1} << (n - 1);
  return static_cast<int64_t>(low ^ sign) - static_cast<int64_t>(sign);
}

int64_t sat(int64_t v, unsigned n) {
  check_width(n, "sat");
  if (n == 64) return v;
  const int64_t hi = (int64_t{1} << (n - 1)) - 1;
  const int64_t lo = -hi - 1;
  return v < lo ? lo : (v > hi ? hi : v);
}

bool fits_signed(int64_t v, unsigned n) { return sat(v, n) == v; }

int64_t floor_shift(int64_t v, unsigned s) {
  if (s >= 64) return v < 0 ? -1 : 0;
  return v >> s;  // arithmetic on every supported compiler (C++20 guarantees it)
}

int64_t rha(int64_t v, unsigned s) {
  if (s == 0) return v;
  if (s >= 64) return 0;  // |v| / 2^64 < 1/2
  const int64_t q = v >> s;
  const uint64_t u = static_cast<uint64_t>(v);
  const bool guard = (u >> (s - 1)) & 1u;
  const bool sticky = (u & ((uint64_t{1} << (s - 1)) - 1)) != 0;
  if (v >= 0) return q + (guard ? 1 : 0);
  return q + ((guard && sticky) ? 1 : 0);
}

int64_t lsh_sat(int64_t v, unsigned s, unsigned n) {
  check_width(n, "lsh_sat");
  if (s == 0 || v == 0) return sat(v, n);
  const int64_t hi = n == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (n - 1)) - 1;
  const int64_t lo = -hi - 1;
  if (s >= 63) return v > 0 ? hi : lo;
  if (v > 0) return v > (hi >> s) ? hi : (v << s);
  // v < 0: v * 2^s >= lo  <=>  v >= ceil(lo / 2^s) = -((-lo) >> s) (lo is a power of two)
  const int64_t min_ok = -(static_cast<int64_t>((static_cast<uint64_t>(hi) + 1) >> s));
  return v < min_ok ? lo : static_cast<int64_t>(static_cast<uint64_t>(v) << s);
}

int64_t srs_sat(int64_t v, int t, unsigned n) {
  if (t >= 0) return rsh_sat(v, static_cast<unsigned>(t), n);
  return lsh_sat(v, static_cast<unsigned>(-t), n);
}

int64_t pdp_round_narrow(int64_t p, unsigned w) {
  if (w < 2 || w > 48)
    throw std::invalid_argument("pdp_round_narrow: width " + std::to_string(w) +
                                " outside 2..48");
  const int64_t i = p >> 16;
  const int64_t f = p - i * 65536;
  if (p >= 0) {
    const int64_t low = i & ((int64_t{1} << (w - 1)) - 1);
    return sx(low + (f >= 0x8000 ? 1 : 0), w);
  }
  return sx(i + (f > 0x8000 ? 1 : 0), w);
}

int64_t OffsetScaleShift::operator()(int64_t v) const {
  int64_t d = 0, prod = 0;
  if (__builtin_sub_overflow(v, offset, &d) || __builtin_mul_overflow(d, scale, &prod))
    throw std::overflow_error("OffsetScaleShift: (v - offset) * scale exceeds 64 bits (v=" +
                              std::to_string(v) + ", offset=" + std::to_string(offset) +
                              ", scale=" + std::to_string(scale) + ")");
  return sat(rha(prod, shift), out_bits);
}

bool sdp_cvt_saturation_flag(int64_t product, unsigned shift) {
  const int64_t f = floor_shift(product, shift);
  return f >= 65537 || f <= -65538;
}

bool sdp_cvt_saturation_flag_range(int64_t product, unsigned shift) {
  return rha(product, shift) > 65535 || floor_shift(product, shift) < -65536;
}

bool cdp_ocvt_saturation_flag(int64_t r, unsigned shift, int64_t out) {
  const int64_t f = floor_shift(r, shift);
  return !(f == out - 1 || f == out || f == out + 1);
}

}  // namespace dla::num
