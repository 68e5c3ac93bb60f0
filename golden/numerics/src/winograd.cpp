#include "dla/numerics/winograd.h"

#include <stdexcept>
#include <string>

#include "bit_utils.h"
#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/float_format.h"
#include "dla/numerics/integer_ops.h"

namespace dla::num {
using detail::round_shift_rne;

namespace {

// One 4-point pass of the PRA (conv.md §6.3) on x0..x3 with the hardware's operand order.
template <typename T, typename Add, typename Sub>
std::array<T, 4> pra_pass(const std::array<T, 4>& x, Add add, Sub sub) {
  return {sub(x[0], x[2]), add(x[1], x[2]), sub(x[2], x[1]), sub(x[1], x[3])};
}

// Rows first (M = B^T d), then columns (V = M B); tiles are row-major.
template <typename T, typename Add, typename Sub>
std::array<T, 16> pra_2d(const std::array<T, 16>& d, Add add, Sub sub) {
  std::array<T, 16> m{};
  for (unsigned col = 0; col < 4; ++col) {
    const auto r = pra_pass<T>({d[col], d[4 + col], d[8 + col], d[12 + col]}, add, sub);
    for (unsigned row = 0; row < 4; ++row) m[row * 4 + col] = r[row];
  }
  std::array<T, 16> v{};
  for (unsigned row = 0; row < 4; ++row) {
    const auto c = pra_pass<T>({m[row * 4], m[row * 4 + 1], m[row * 4 + 2], m[row * 4 + 3]},
                               add, sub);
    for (unsigned col = 0; col < 4; ++col) v[row * 4 + col] = c[col];
  }
  return v;
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw std::overflow_error("winograd_output_transform: int64 overflow");
  return r;
}

int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r))
    throw std::overflow_error("winograd_output_transform: int64 overflow");
  return r;
}

}  // namespace

std::array<int32_t, 16> winograd_pra_int(const std::array<int32_t, 16>& d, unsigned pra_truncate,
                                         unsigned bits) {
  if (bits != 8 && bits != 16)
    throw std::invalid_argument("winograd_pra_int: bits " + std::to_string(bits) +
                                " is neither 8 nor 16");
  if (pra_truncate > 2)
    throw std::invalid_argument("winograd_pra_int: PRA_TRUNCATE " +
                                std::to_string(pra_truncate) + " outside 0..2");
  std::array<int64_t, 16> wide{};
  for (unsigned p = 0; p < 16; ++p) {
    if (!fits_signed(d[p], bits))
      throw std::out_of_range("winograd_pra_int: element " + std::to_string(p) + " = " +
                              std::to_string(d[p]) + " does not fit " + std::to_string(bits) +
                              " bits");
    wide[p] = d[p];
  }
  const auto v = pra_2d(
      wide, [](int64_t a, int64_t b) { return a + b; }, [](int64_t a, int64_t b) { return a - b; });
  std::array<int32_t, 16> out{};
  for (unsigned p = 0; p < 16; ++p)
    out[p] = static_cast<int32_t>(sat(rha(v[p], pra_truncate), bits));
  return out;
}

uint32_t winograd_fp16_to_fp17(uint16_t h) {
  // float_convert's fp16_to_fp17 implements exactly the §6.3 widening (subnormals kept as
  // normals, Inf -> largest finite, NaN payload kept); winograd_test checks it exhaustively.
  return fp16_to_fp17(h);
}

uint16_t winograd_fp17_to_fp16(uint32_t x) {
  const uint32_t s = kFp17.sign(x), e = kFp17.exp(x), m = kFp17.man(x);
  uint32_t r;
  if (e == 63)
    r = kFp16.pack(s, 31, m);
  else if (e >= 47)
    r = kFp16.max_finite(s);
  else if (e < 6)
    r = kFp16.zero(s);
  else if (e <= 16)  // fp16 subnormal; a rounding carry into bit 10 is the smallest normal
    r = kFp16.pack(s, 0, 0) | static_cast<uint32_t>(round_shift_rne(1024u + m, 17 - e));
  else
    r = kFp16.pack(s, e - 16, m);
  return static_cast<uint16_t>(r);
}

std::array<uint16_t, 16> winograd_pra_fp16(const std::array<uint16_t, 16>& d) {
  std::array<uint32_t, 16> w{};
  for (unsigned p = 0; p < 16; ++p) w[p] = winograd_fp16_to_fp17(d[p]);
  const auto v = pra_2d(w, add17_winograd_pra, sub17_winograd_pra);
  std::array<uint16_t, 16> out{};
  for (unsigned p = 0; p < 16; ++p) out[p] = winograd_fp17_to_fp16(v[p]);
  return out;
}

std::array<int64_t, 4> winograd_output_transform(const std::array<int64_t, 16>& q) {
  // Rows: r0[c] = Q[0][c] + Q[1][c] + Q[2][c], r1[c] = Q[1][c] - Q[2][c] - Q[3][c].
  std::array<int64_t, 8> r{};
  for (unsigned c = 0; c < 4; ++c) {
    r[c] = checked_add(checked_add(q[c], q[4 + c]), q[8 + c]);
    r[4 + c] = checked_sub(checked_sub(q[4 + c], q[8 + c]), q[12 + c]);
  }
  // Columns: the same combination on each of the two rows.
  std::array<int64_t, 4> y{};
  for (unsigned i = 0; i < 2; ++i) {
    const int64_t* ri = &r[4 * i];
    y[2 * i] = checked_add(checked_add(ri[0], ri[1]), ri[2]);
    y[2 * i + 1] = checked_sub(checked_sub(ri[1], ri[2]), ri[3]);
  }
  return y;
}

}  // namespace dla::num
