// Winograd transforms (conv.md §6.3, §6.4). References are written independently of the
// library code: plain matrix products in exact integers, a value-based model of the 17-bit
// adder evaluated in double (every intermediate is exact there), and correct rounding through
// <cmath> for the fp16 narrowing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/float_format.h"
#include "dla/numerics/winograd.h"
#include "reference_float.h"

namespace dla::num {
namespace {
using testref::host_float_to_half;
using testref::round_to_format;

using Mat4 = std::array<std::array<int64_t, 4>, 4>;

constexpr int64_t kBt[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
constexpr int64_t kAt[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
constexpr int64_t kG2[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};  // 2G

// Exact V = B^T d B by definition (B = transpose of B^T).
Mat4 ref_btdb(const Mat4& d) {
  Mat4 v{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      int64_t s = 0;
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l) s += kBt[i][k] * d[k][l] * kBt[j][l];
      v[i][j] = s;
    }
  return v;
}

// Exact Y = A^T Q A.
std::array<int64_t, 4> ref_atqa(const Mat4& q) {
  std::array<int64_t, 4> y{};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      int64_t s = 0;
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l) s += kAt[i][k] * q[k][l] * kAt[j][l];
      y[static_cast<size_t>(2 * i + j)] = s;
    }
  return y;
}

// Round half away from zero of v / 2^s, written with division.
int64_t ref_rha(int64_t v, unsigned s) {
  const int64_t den = int64_t{1} << s;
  const int64_t mag = v < 0 ? -v : v;
  const int64_t r = (2 * mag + den) / (2 * den);
  return v < 0 ? -r : r;
}

int64_t ref_sat(int64_t v, unsigned bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp(v, -hi - 1, hi);
}

template <typename T>
std::array<T, 16> flatten(const std::array<std::array<int64_t, 4>, 4>& m) {
  std::array<T, 16> out{};
  for (size_t i = 0; i < 4; ++i)
    for (size_t j = 0; j < 4; ++j) out[i * 4 + j] = static_cast<T>(m[i][j]);
  return out;
}

Mat4 random_tile(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  Mat4 d{};
  for (auto& row : d)
    for (auto& x : row) x = dist(rng);
  return d;
}

// ------------------------------------------------------------------------------------------
// Integer PRA

TEST(WinogradPraInt, MatchesMatrixProductThenRhaAndSaturation) {
  std::mt19937_64 rng(0x36a);
  for (const unsigned bits : {8u, 16u}) {
    const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
    int saturated = 0;
    for (int n = 0; n < 20000; ++n) {
      // Alternate full-range tiles with small-magnitude tiles (which rarely saturate).
      const int64_t scale = n % 2 ? 1 : 8;
      const Mat4 d = random_tile(rng, lo / scale, hi / scale);
      const Mat4 v = ref_btdb(d);
      const auto din = flatten<int32_t>(d);
      for (unsigned t = 0; t <= 2; ++t) {
        const auto got = winograd_pra_int(din, t, bits);
        for (size_t p = 0; p < 16; ++p) {
          const int64_t exact = ref_rha(v[p / 4][p % 4], t);
          const int64_t want = ref_sat(exact, bits);
          saturated += want != exact;
          ASSERT_EQ(got[p], want) << "bits=" << bits << " t=" << t << " p=" << p;
        }
      }
    }
    EXPECT_GT(saturated, 10000);  // the saturation path was exercised
  }
}

TEST(WinogradPraInt, ImpulseTilesGiveOuterProductsOfBtColumns) {
  // d = e_(k,l)  =>  V[i][j] = Bt[i][k] * Bt[j][l]
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l) {
      std::array<int32_t, 16> d{};
      d[static_cast<size_t>(4 * k + l)] = 5;
      const auto v = winograd_pra_int(d, 0, 8);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          EXPECT_EQ(v[static_cast<size_t>(4 * i + j)], 5 * kBt[i][k] * kBt[j][l])
              << k << l << " -> " << i << j;
    }
  // Hand-worked: a 1 at row 1, column 1 spreads over rows/columns 1..3 with signs (+,-,+).
  std::array<int32_t, 16> d{};
  d[5] = 1;
  const std::array<int32_t, 16> want = {0, 0, 0, 0,   //
                                        0, 1, -1, 1,  //
                                        0, -1, 1, -1, //
                                        0, 1, -1, 1};
  EXPECT_EQ(winograd_pra_int(d, 0, 16), want);
}

TEST(WinogradPraInt, HandWorkedRoundingAndSaturation) {
  // V00 = d00 - d02 - d20 + d22.
  auto tile = [](int32_t d00, int32_t d02, int32_t d20, int32_t d22) {
    std::array<int32_t, 16> d{};
    d[0] = d00;
    d[2] = d02;
    d[8] = d20;
    d[10] = d22;
    return d;
  };
  // int8: V00 = 510 and -510.
  EXPECT_EQ(winograd_pra_int(tile(127, -128, -128, 127), 0, 8)[0], 127);
  EXPECT_EQ(winograd_pra_int(tile(127, -128, -128, 127), 2, 8)[0], 127);  // rha = 128 -> 127
  EXPECT_EQ(winograd_pra_int(tile(-128, 127, 127, -128), 1, 8)[0], -128);  // -255
  EXPECT_EQ(winograd_pra_int(tile(-128, 127, 127, -128), 2, 8)[0], -128);  // -127.5 -> -128
  EXPECT_EQ(winograd_pra_int(tile(-127, 127, 127, -128), 2, 8)[0], -127);  // -509/4 = -127.25
  // Ties round away from zero.
  EXPECT_EQ(winograd_pra_int(tile(3, 0, 0, 0), 1, 8)[0], 2);     // 1.5
  EXPECT_EQ(winograd_pra_int(tile(-3, 0, 0, 0), 1, 8)[0], -2);   // -1.5
  EXPECT_EQ(winograd_pra_int(tile(-1, 0, 0, 0), 1, 8)[0], -1);   // -0.5
  EXPECT_EQ(winograd_pra_int(tile(-1, 0, 0, 0), 2, 8)[0], 0);    // -0.25
  EXPECT_EQ(winograd_pra_int(tile(-6, 0, 0, 0), 2, 8)[0], -2);   // -1.5
  EXPECT_EQ(winograd_pra_int(tile(5, 0, 0, 0), 2, 8)[0], 1);     // 1.25
  // int16: V00 = 131070 (18 bits) saturates even after PRA_TRUNCATE = 2.
  EXPECT_EQ(winograd_pra_int(tile(32767, -32768, -32768, 32767), 2, 16)[0], 32767);
  EXPECT_EQ(winograd_pra_int(tile(-32768, 32767, 32767, -32768), 2, 16)[0], -32768);
  EXPECT_EQ(winograd_pra_int(tile(16384, -16384, -16384, 16383), 2, 16)[0], 16384);  // 65535/4
  EXPECT_EQ(winograd_pra_int(tile(16384, -16384, -16384, 16383), 0, 16)[0], 32767);
}

TEST(WinogradPraInt, RejectsInvalidArguments) {
  std::array<int32_t, 16> d{};
  EXPECT_THROW(winograd_pra_int(d, 0, 12), std::invalid_argument);
  EXPECT_THROW(winograd_pra_int(d, 3, 8), std::invalid_argument);
  d[7] = 128;
  EXPECT_THROW(winograd_pra_int(d, 0, 8), std::out_of_range);
  EXPECT_NO_THROW(winograd_pra_int(d, 0, 16));
  d[7] = -32769;
  EXPECT_THROW(winograd_pra_int(d, 0, 16), std::out_of_range);
}

// ------------------------------------------------------------------------------------------
// Output transform and the F(2x2, 3x3) identity

TEST(WinogradOutputTransform, MatchesMatrixProduct) {
  for (int p = 0; p < 16; ++p) {  // impulses: Y[i][j] = At[i][row] * At[j][col]
    std::array<int64_t, 16> q{};
    q[static_cast<size_t>(p)] = -7;
    const auto y = winograd_output_transform(q);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        EXPECT_EQ(y[static_cast<size_t>(2 * i + j)], -7 * kAt[i][p / 4] * kAt[j][p % 4]) << p;
  }
  std::mt19937_64 rng(0x44);
  const int64_t big = int64_t{1} << 58;  // 9 terms of this size still fit int64
  for (int n = 0; n < 20000; ++n) {
    const Mat4 q = random_tile(rng, -big, big);
    ASSERT_EQ(winograd_output_transform(flatten<int64_t>(q)), ref_atqa(q));
  }
}

TEST(WinogradOutputTransform, OverflowIsReported) {
  std::array<int64_t, 16> q{};
  q[0] = q[4] = std::numeric_limits<int64_t>::max();
  EXPECT_THROW(winograd_output_transform(q), std::overflow_error);
  q = {};
  q[5] = std::numeric_limits<int64_t>::min();
  q[9] = 1;  // r1 = Q1 - Q2 - Q3 underflows
  EXPECT_THROW(winograd_output_transform(q), std::overflow_error);
}

// U = (2G) g (2G)^T.
Mat4 transform_weights(const std::array<std::array<int64_t, 3>, 3>& g) {
  Mat4 u{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      int64_t s = 0;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) s += kG2[i][r] * g[static_cast<size_t>(r)][static_cast<size_t>(c)] * kG2[j][c];
      u[static_cast<size_t>(i)][static_cast<size_t>(j)] = s;
    }
  return u;
}

// 4 x direct 3x3 correlation over the 2x2 output: out[i][j] = sum d[i+r][j+c] g[r][c].
std::array<int64_t, 4> four_times_correlation(const Mat4& d,
                                              const std::array<std::array<int64_t, 3>, 3>& g) {
  std::array<int64_t, 4> y{};
  for (size_t i = 0; i < 2; ++i)
    for (size_t j = 0; j < 2; ++j) {
      int64_t s = 0;
      for (size_t r = 0; r < 3; ++r)
        for (size_t c = 0; c < 3; ++c) s += d[i + r][j + c] * g[r][c];
      y[2 * i + j] = 4 * s;
    }
  return y;
}

std::array<std::array<int64_t, 3>, 3> random_kernel(std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> dist(-128, 127);
  std::array<std::array<int64_t, 3>, 3> g{};
  for (auto& row : g)
    for (auto& x : row) x = dist(rng);
  return g;
}

TEST(WinogradIdentity, OutputTransformOfProductEqualsFourTimesCorrelation) {
  std::mt19937_64 rng(2233);
  for (int n = 0; n < 20000; ++n) {
    const Mat4 d = random_tile(rng, -32768, 32767);
    const auto g = random_kernel(rng);
    const Mat4 v = ref_btdb(d), u = transform_weights(g);
    std::array<int64_t, 16> q{};
    for (size_t p = 0; p < 16; ++p) q[p] = v[p / 4][p % 4] * u[p / 4][p % 4];
    ASSERT_EQ(winograd_output_transform(q), four_times_correlation(d, g)) << n;
  }
}

// The same identity through the library's own PRA (no truncation, no saturation): proves the
// orientation of the input transform together with the output transform.
TEST(WinogradIdentity, LibraryPraAndOutputTransformComputeCorrelation) {
  std::mt19937_64 rng(3322);
  for (const unsigned bits : {8u, 16u}) {
    const int64_t lim = bits == 8 ? 31 : 8191;  // |V| <= 4 * lim fits `bits`
    for (int n = 0; n < 20000; ++n) {
      const Mat4 d = random_tile(rng, -lim, lim);
      const auto g = random_kernel(rng);
      const auto v = winograd_pra_int(flatten<int32_t>(d), 0, bits);
      const Mat4 u = transform_weights(g);
      std::array<int64_t, 16> q{};
      for (size_t p = 0; p < 16; ++p) q[p] = int64_t{v[p]} * u[p / 4][p % 4];
      ASSERT_EQ(winograd_output_transform(q), four_times_correlation(d, g)) << bits << " " << n;
    }
  }
}

// ------------------------------------------------------------------------------------------
// 17-bit adder (conv.md §6.3.1)

uint32_t f17(uint32_t s, uint32_t e, uint32_t m) { return kFp17.pack(s, e, m); }

// Value model of §6.3.1: the smaller operand is truncated to the grid of bit 0 of the 23-bit
// field (weight 2^(E-22) relative to the larger operand's leading bit 2^E), the exact sum is
// formed, a carry truncates one more grid bit, then RNE to 11 significant bits.
uint32_t ref_add17_pra(uint32_t a, uint32_t b) {
  const FloatFormat f = kFp17;
  if (f.is_nan(a)) return a;
  if (f.is_nan(b)) return b;
  auto mag = [&](uint32_t x) {  // hidden bit 1 for everything except exact zero
    return f.is_zero(x) ? 0.0 : std::ldexp(1024.0 + f.man(x), static_cast<int>(f.exp(x)) - 41);
  };
  const bool a_big = f.exp(a) > f.exp(b) || (f.exp(a) == f.exp(b) && f.man(a) >= f.man(b));
  const uint32_t big = a_big ? a : b, small = a_big ? b : a;
  const uint32_t s = f.sign(big);
  const int el = static_cast<int>(f.exp(big));
  const double grid = std::ldexp(1.0, el - 31 - 22);
  const double ys = std::floor(mag(small) / grid) * grid;
  double sum = f.sign(a) == f.sign(b) ? mag(big) + ys : mag(big) - ys;
  if (sum == 0.0) return f.zero(s);
  int e;
  if (sum >= std::ldexp(1.0, el - 31 + 1)) {  // carry out of the field
    if (el >= 61) return f.max_finite(s);
    e = el + 1;
    sum = std::floor(sum / (2 * grid)) * (2 * grid);
  } else {
    int ex = 0;
    std::frexp(sum, &ex);
    e = ex - 1 + 31;
    if (e <= 0) return f.zero(s);
  }
  double q = std::nearbyint(std::ldexp(sum, 41 - e));  // 11 significant bits, RNE
  if (q == 2048.0) {
    if (e + 1 >= 62) return f.max_finite(s);
    ++e;
    q = 1024.0;
  }
  return f.pack(s, static_cast<uint32_t>(e), static_cast<uint32_t>(q) - 1024u);
}

uint32_t random_fp17_operand(std::mt19937_64& rng, uint32_t near_exp) {
  const uint32_t r = static_cast<uint32_t>(rng() % 16);
  const uint32_t s = static_cast<uint32_t>(rng() & 1);
  const uint32_t m = static_cast<uint32_t>(rng()) & 0x3FF;
  if (r == 0) return kFp17.zero(s);
  if (r == 1) return kFp17.pack(s, 0, m);  // exponent 0, hidden bit 1
  if (r == 2) return kFp17.max_finite(s);
  uint32_t e;
  if (r < 9) {  // close to the other operand
    const int de = static_cast<int>(rng() % 31) - 15;
    e = static_cast<uint32_t>(std::clamp(static_cast<int>(near_exp) + de, 0, 62));
  } else {
    e = static_cast<uint32_t>(rng() % 63);
  }
  return kFp17.pack(s, e, m);
}

TEST(WinogradPraAdder17, MatchesValueModel) {
  std::mt19937_64 rng(0x17);
  for (int n = 0; n < 3000000; ++n) {
    const uint32_t a = random_fp17_operand(rng, static_cast<uint32_t>(rng() % 63));
    uint32_t b = random_fp17_operand(rng, kFp17.exp(a));
    if (n % 4 == 0) b = kFp17.pack(kFp17.sign(rng()), kFp17.exp(a), kFp17.man(b));  // cancel
    if (n % 64 == 1) b = kFp17.negate(a);
    ASSERT_EQ(add17_winograd_pra(a, b), ref_add17_pra(a, b)) << std::hex << a << " + " << b;
    ASSERT_EQ(sub17_winograd_pra(a, b), ref_add17_pra(a, kFp17.negate(b)))
        << std::hex << a << " - " << b;
  }
}

TEST(WinogradPraAdder17, HandWorkedCarry) {
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0x200), f17(0, 31, 0x200)), f17(0, 32, 0x200));  // 1.5+1.5
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0x3FF), f17(0, 31, 0x001)), f17(0, 32, 0x200));  // = 3
  // 2 + 2^-10 = 2 * (1 + 2^-11): half an ulp after the carry, tie to even (down).
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0x001), f17(0, 31, 0x000)), f17(0, 32, 0x000));
  // 2 + 3 * 2^-10: tie, rounds up to the even fraction 2.
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0x003), f17(0, 31, 0x000)), f17(0, 32, 0x002));
  // Negative operands: the carry keeps the sign.
  EXPECT_EQ(add17_winograd_pra(f17(1, 40, 0x3FF), f17(1, 39, 0x3FF)), f17(1, 41, 0x1FF));
  // Rounding carry without a field carry: (2 - 2^-10) + 2^-11 (tie, odd -> up) = 2.
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0x3FF), f17(0, 20, 0x000)), f17(0, 32, 0x000));
}

TEST(WinogradPraAdder17, HandWorkedSaturationAtExponent62) {
  const uint32_t maxp = f17(0, 62, 0x3FF), maxn = f17(1, 62, 0x3FF);
  EXPECT_EQ(add17_winograd_pra(f17(0, 60, 0), f17(0, 60, 0)), f17(0, 61, 0));  // 2^29 * 2
  EXPECT_EQ(add17_winograd_pra(f17(0, 61, 0), f17(0, 61, 0)), maxp);         // carry at 61
  EXPECT_EQ(add17_winograd_pra(f17(1, 61, 0x123), f17(1, 60, 0x3FF)), maxn);
  // Rounding carry from 61 (2^31 - 2^20 + 2^19: tie, odd -> up) would reach 62.
  EXPECT_EQ(add17_winograd_pra(f17(0, 61, 0x3FF), f17(0, 50, 0)), maxp);
  // Exponent 62 operands are ordinary numbers while nothing increments the exponent.
  EXPECT_EQ(add17_winograd_pra(f17(1, 62, 0x155), f17(0, 31, 0)), f17(1, 62, 0x155));
  EXPECT_EQ(add17_winograd_pra(f17(0, 62, 0x000), f17(1, 61, 0x000)), f17(0, 61, 0x000));
  EXPECT_EQ(add17_winograd_pra(maxp, maxp), maxp);
  EXPECT_EQ(add17_winograd_pra(maxn, maxn), maxn);
  EXPECT_EQ(sub17_winograd_pra(maxn, maxp), maxn);
}

TEST(WinogradPraAdder17, HandWorkedAlignmentBeyondTwelveBits) {
  // Delta = 12: the small significand lands exactly in bits 0..10 of the field, nothing lost.
  // 1 + (1 + 2^-10) * 2^-12 = 1 + 2^-12 + 2^-22: below half an ulp -> 1.
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0), f17(0, 19, 0x001)), f17(0, 31, 0));
  // Delta = 13: (1 + 2^-10) * 2^-13 is shifted right by 1, its last bit is dropped.
  // 1 - 2^-13 - 2^-23 -> field 0x3FFE00 -> normalised 0x7FFC00 -> RNE up -> 1.
  EXPECT_EQ(sub17_winograd_pra(f17(0, 31, 0), f17(0, 18, 0x001)), f17(0, 31, 0));
  // Delta = 11 vs 13 with the same significand: 1.5 * 2^-11 exceeds half an ulp, 1.5 * 2^-13
  // does not.
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0), f17(0, 20, 0x200)), f17(0, 31, 0x001));
  EXPECT_EQ(add17_winograd_pra(f17(0, 31, 0), f17(0, 18, 0x200)), f17(0, 31, 0x000));
  // Delta >= 23: the small operand disappears completely.
  EXPECT_EQ(sub17_winograd_pra(f17(0, 31, 0), f17(0, 8, 0x3FF)), f17(0, 31, 0));
  EXPECT_EQ(add17_winograd_pra(f17(1, 62, 0x3FF), f17(0, 1, 0x3FF)), f17(1, 62, 0x3FF));
  // Largest shift (Delta = 62) still well defined.
  EXPECT_EQ(add17_winograd_pra(f17(0, 0, 0x001), f17(1, 62, 0x001)), f17(1, 62, 0x001));
  // Where the dropped bits are visible: 2^31 minus a tiny value. With Delta = 22 one bit of
  // the small operand survives (field 0x400000 - 1), normalisation moves to exponent 61, RNE
  // carries back to 62 and that saturates. With Delta = 23 nothing survives and the result is
  // exactly 2^31 (an adder with a sticky/borrow bit would saturate here too).
  EXPECT_EQ(sub17_winograd_pra(f17(0, 62, 0), f17(0, 40, 0x000)), f17(0, 62, 0x3FF));
  EXPECT_EQ(sub17_winograd_pra(f17(0, 62, 0), f17(0, 39, 0x3FF)), f17(0, 62, 0x000));
  EXPECT_EQ(add17_winograd_pra(f17(1, 62, 0), f17(0, 30, 0x3FF)), f17(1, 62, 0x000));
  // Subtraction needing one normalisation step with a dropped bit:
  // 2^-9 * 1.0 - 2^-22 * (1 + 2^-10): field 0x400000 - 0x200 (0x200.8 truncated).
  EXPECT_EQ(sub17_winograd_pra(f17(0, 22, 0), f17(0, 9, 0x001)), f17(0, 22, 0));
}

TEST(WinogradPraAdder17, HandWorkedCancellationToSignedZero) {
  // Exact cancellation: the larger operand (ties: a) gives the sign; IEEE would give +0.
  EXPECT_EQ(add17_winograd_pra(f17(0, 40, 0x123), f17(1, 40, 0x123)), f17(0, 0, 0));
  EXPECT_EQ(add17_winograd_pra(f17(1, 40, 0x123), f17(0, 40, 0x123)), f17(1, 0, 0));
  EXPECT_EQ(sub17_winograd_pra(f17(1, 33, 0x001), f17(1, 33, 0x001)), f17(1, 0, 0));
  EXPECT_EQ(sub17_winograd_pra(f17(0, 33, 0x001), f17(0, 33, 0x001)), f17(0, 0, 0));
  // Zeros.
  EXPECT_EQ(add17_winograd_pra(f17(0, 0, 0), f17(1, 0, 0)), f17(0, 0, 0));
  EXPECT_EQ(add17_winograd_pra(f17(1, 0, 0), f17(0, 0, 0)), f17(1, 0, 0));
  EXPECT_EQ(sub17_winograd_pra(f17(1, 0, 0), f17(1, 0, 0)), f17(1, 0, 0));
  // Partial cancellation below exponent 1: 2^-26 * (1 + 2^-10) - 2^-26 = 2^-36 -> zero with
  // the larger operand's sign (here b).
  EXPECT_EQ(add17_winograd_pra(f17(0, 5, 0), f17(1, 5, 0x001)), f17(1, 0, 0));
  EXPECT_EQ(add17_winograd_pra(f17(1, 5, 0x001), f17(0, 5, 0)), f17(1, 0, 0));
  // Boundary: 2^-20 * 2^-10 = 2^-30 is exponent 1, still representable.
  EXPECT_EQ(add17_winograd_pra(f17(0, 11, 0x001), f17(1, 11, 0)), f17(0, 1, 0));
  EXPECT_EQ(add17_winograd_pra(f17(0, 10, 0x001), f17(1, 10, 0)), f17(0, 0, 0));
}

TEST(WinogradPraAdder17, NaNOperands) {
  const uint32_t n1 = f17(0, 63, 0x201), n2 = f17(1, 63, 0x055), one = f17(0, 31, 0);
  EXPECT_EQ(add17_winograd_pra(n1, n2), n1);
  EXPECT_EQ(add17_winograd_pra(n2, n1), n2);
  EXPECT_EQ(add17_winograd_pra(one, n2), n2);
  EXPECT_EQ(sub17_winograd_pra(n1, n2), n1);
  // Subtraction is addition of b with flipped sign, a NaN b included.
  EXPECT_EQ(sub17_winograd_pra(one, n2), f17(0, 63, 0x055));
  EXPECT_EQ(sub17_winograd_pra(one, n1), f17(1, 63, 0x201));
}

// ------------------------------------------------------------------------------------------
// Widening and narrowing (conv.md §6.3, §6.3.2)

TEST(WinogradFp16ToFp17, ExhaustiveAgainstExactValues) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint32_t w = winograd_fp16_to_fp17(static_cast<uint16_t>(h));
    const uint32_t s = kFp16.sign(h);
    ASSERT_EQ(w >> 17, 0u);
    ASSERT_EQ(kFp17.sign(w), s) << std::hex << h;
    if (kFp16.is_nan(h)) {
      ASSERT_EQ(w, kFp17.pack(s, 63, kFp16.man(h))) << std::hex << h;
    } else if (kFp16.is_inf_pattern(h)) {
      ASSERT_EQ(w, kFp17.pack(s, 62, 0x3FF)) << std::hex << h;
    } else {
      ASSERT_EQ(to_double(kFp17, w), to_double(kFp16, h)) << std::hex << h;
      ASSERT_TRUE(kFp17.is_zero(w) || (kFp17.exp(w) >= 1 && kFp17.exp(w) <= 62)) << std::hex << h;
    }
  }
}

TEST(WinogradFp16ToFp17, HandWorked) {
  EXPECT_EQ(winograd_fp16_to_fp17(0x0000), 0x00000u);
  EXPECT_EQ(winograd_fp16_to_fp17(0x8000), 0x10000u);
  EXPECT_EQ(winograd_fp16_to_fp17(0x3C00), 0x07C00u);  // 1.0: exponent 31
  EXPECT_EQ(winograd_fp16_to_fp17(0x0001), 0x01C00u);  // 2^-24: exponent 7
  EXPECT_EQ(winograd_fp16_to_fp17(0x03FF), 0x043FEu);  // (1 - 2^-10) 2^-14 = 1.1111111110b 2^-15
  EXPECT_EQ(winograd_fp16_to_fp17(0x8200), 0x14000u);  // -2^-15: exponent 16
  EXPECT_EQ(winograd_fp16_to_fp17(0x7BFF), 0x0BBFFu);  // 65504: exponent 46
  EXPECT_EQ(winograd_fp16_to_fp17(0x7C00), 0x0FBFFu);  // +Inf -> exponent 62, fraction 0x3FF
  EXPECT_EQ(winograd_fp16_to_fp17(0xFC00), 0x1FBFFu);
  EXPECT_EQ(winograd_fp16_to_fp17(0x7E01), 0x0FE01u);  // NaN payload kept
  EXPECT_EQ(winograd_fp16_to_fp17(0xFC01), 0x1FC01u);
}

TEST(WinogradFp17ToFp16, ExhaustiveAgainstCorrectRounding) {
  for (uint32_t x = 0; x < 0x20000; ++x) {
    const uint16_t got = winograd_fp17_to_fp16(x);
    const uint32_t s = kFp17.sign(x), e = kFp17.exp(x);
    uint32_t want;
    if (e == 63)
      want = kFp16.pack(s, 31, kFp17.man(x));
    else if (e < 6)
      want = kFp16.zero(s);  // exponent 0 patterns would otherwise be read as fp17 subnormals
    else
      want = round_to_format(to_double(kFp17, x), kFp16, true);  // saturates at >= 2^16
    ASSERT_EQ(got, want) << std::hex << x;
    // Bits above the 17-bit pattern are ignored.
    ASSERT_EQ(winograd_fp17_to_fp16(x | 0xABC00000u), got);
    // Identical to the shared narrowing except for exponent 63 with fraction 0.
    if (!(e == 63 && kFp17.man(x) == 0)) {
      ASSERT_EQ(got, fp17_to_fp16(x)) << std::hex << x;
    }
  }
}

TEST(WinogradFp17ToFp16, HandWorkedCases) {
  // e = 63: exponent 31, same fraction.
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 63, 0x155)), 0x7D55);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 63, 0x001)), 0xFC01);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 63, 0x000)), 0x7C00);
  // e >= 47: largest finite fp16.
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 47, 0x000)), 0x7BFF);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 62, 0x3FF)), 0xFBFF);
  // 17 <= e <= 46: exponent e - 16, fraction unchanged.
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 46, 0x3FF)), 0x7BFF);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 46, 0x001)), 0xF801);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 17, 0x2AA)), 0x06AA);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 31, 0x000)), 0x3C00);
  // e < 6: signed zero.
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 5, 0x3FF)), 0x0000);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 5, 0x3FF)), 0x8000);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 0, 0x000)), 0x8000);
  // 6 <= e <= 16: significand >> (17 - e), RNE.
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 6, 0x000)), 0x0000);  // 2^-25: tie -> even 0
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 6, 0x000)), 0x8000);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 6, 0x001)), 0x0001);  // just above the tie
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 6, 0x3FF)), 0x8001);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 7, 0x200)), 0x0002);  // 1.5 * 2^-24: tie -> 2
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 16, 0x3FE)), 0x03FF);  // exact
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 16, 0x3FD)), 0x03FE);  // tie -> even
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 16, 0x003)), 0x0202);  // tie -> even (up)
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 16, 0x001)), 0x0200);  // tie -> even (down)
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 15, 0x3FF)), 0x0200);  // 0x1FF + more than half
  // Rounding carry into bit 10: smallest normal.
  EXPECT_EQ(winograd_fp17_to_fp16(f17(0, 16, 0x3FF)), 0x0400);
  EXPECT_EQ(winograd_fp17_to_fp16(f17(1, 16, 0x3FF)), 0x8400);
}

// ------------------------------------------------------------------------------------------
// fp16 PRA

uint16_t half_of_int(int64_t v) { return host_float_to_half(static_cast<float>(v)); }

TEST(WinogradPraFp16, SmallIntegerTilesMatchIntegerPra) {
  std::mt19937_64 rng(0xF16);
  for (int n = 0; n < 50000; ++n) {
    const Mat4 d = random_tile(rng, -512, 511);  // |V| <= 2048: exact in fp16
    const Mat4 v = ref_btdb(d);
    std::array<uint16_t, 16> in{};
    for (size_t p = 0; p < 16; ++p) in[p] = half_of_int(d[p / 4][p % 4]);
    const auto got = winograd_pra_fp16(in);
    for (size_t p = 0; p < 16; ++p) {
      const int64_t want = v[p / 4][p % 4];
      if (want == 0)
        ASSERT_TRUE(got[p] == 0x0000 || got[p] == 0x8000) << std::hex << got[p];
      else
        ASSERT_EQ(got[p], half_of_int(want)) << "p=" << p << " want " << want;
    }
  }
}

// Independent composition of the references: value-model adder, exact widening through
// double, correctly rounded narrowing; operand order spelled out as index tables.
std::array<uint16_t, 16> ref_pra_fp16(const std::array<uint16_t, 16>& d) {
  auto widen17 = [](uint16_t h) -> uint32_t {
    const uint32_t s = kFp16.sign(h);
    if (kFp16.is_nan(h)) return kFp17.pack(s, 63, kFp16.man(h));
    if (kFp16.is_inf_pattern(h)) return kFp17.max_finite(s);
    return round_to_format(to_double(kFp16, h), kFp17, false);
  };
  auto narrow16 = [](uint32_t x) -> uint16_t {
    const uint32_t s = kFp17.sign(x), e = kFp17.exp(x);
    if (e == 63) return static_cast<uint16_t>(kFp16.pack(s, 31, kFp17.man(x)));
    if (e < 6) return static_cast<uint16_t>(kFp16.zero(s));
    return static_cast<uint16_t>(round_to_format(to_double(kFp17, x), kFp16, true));
  };
  // out[k] = in[ka] (+|-) in[kb]
  constexpr int ka[4] = {0, 1, 2, 1}, kb[4] = {2, 2, 1, 3};
  constexpr bool ksub[4] = {true, false, true, true};
  auto op = [&](int k, uint32_t a, uint32_t b) {
    return ref_add17_pra(a, ksub[k] ? kFp17.negate(b) : b);
  };
  uint32_t w[4][4], m[4][4], v[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) w[i][j] = widen17(d[static_cast<size_t>(4 * i + j)]);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m[i][j] = op(i, w[ka[i]][j], w[kb[i]][j]);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) v[i][j] = op(j, m[i][ka[j]], m[i][kb[j]]);
  std::array<uint16_t, 16> out{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[static_cast<size_t>(4 * i + j)] = narrow16(v[i][j]);
  return out;
}

TEST(WinogradPraFp16, RandomTilesMatchReferenceComposition) {
  std::mt19937_64 rng(0x616);
  for (int n = 0; n < 200000; ++n) {
    std::array<uint16_t, 16> d{};
    const int mode = n % 4;
    const uint32_t base_e = static_cast<uint32_t>(rng() % 31);
    for (auto& x : d) {
      const uint32_t r = static_cast<uint32_t>(rng());
      if (mode == 0) {  // any pattern
        x = static_cast<uint16_t>(r);
      } else {  // similar exponents (cancellation, carries), occasional specials
        const uint32_t sel = (r >> 20) % 32;
        uint32_t e = std::min<uint32_t>(30, base_e + (r >> 12) % 3);
        if (mode == 2) e = (r >> 12) % 3;  // subnormal / tiny range
        if (mode == 3) e = 28 + (r >> 12) % 3;  // near overflow
        x = static_cast<uint16_t>(kFp16.pack((r >> 16) & 1, e, r & 0x3FF));
        if (sel == 0) x = static_cast<uint16_t>(0x7C00 | ((r >> 16) & 1) << 15);  // Inf
        if (sel == 1) x = static_cast<uint16_t>(0x7C00 | (r & 0x3FF) | 1);        // NaN
        if (sel == 2) x = static_cast<uint16_t>(((r >> 16) & 1) << 15);           // zero
      }
    }
    ASSERT_EQ(winograd_pra_fp16(d), ref_pra_fp16(d)) << "tile " << n;
  }
}

TEST(WinogradPraFp16, SignedZerosFollowTheLargerOperand) {
  std::array<uint16_t, 16> d{};
  d.fill(0xBC00);  // -1.0 everywhere: every difference is -0, V11 = -4
  std::array<uint16_t, 16> want{};
  want.fill(0x8000);
  want[5] = 0xC400;
  EXPECT_EQ(winograd_pra_fp16(d), want);
  d.fill(0x3C00);
  want.fill(0x0000);
  want[5] = 0x4400;
  EXPECT_EQ(winograd_pra_fp16(d), want);
}

TEST(WinogradPraFp16, FirstNaNWinsAndSubtractionFlipsTheSign) {
  const uint16_t n1 = 0x7E01, n2 = 0x7C55, n1m = 0xFE01, n2m = 0xFC55;
  std::array<uint16_t, 16> d{};
  d[5] = n1;  // row 1, column 1
  d[6] = n2;  // row 1, column 2
  // Rows: M[1][c] = d1 + d2 = d1, M[2][c] = d2 - d1 = -d1, M[3][c] = d1 - d3 = d1 (c = 1, 2).
  // Columns of rows 1 and 3, m = [0, n1, n2, 0]: [0 - n2, n1 + n2, n2 - n1, n1 - 0].
  // Row 2, m = [0, -n1, -n2, 0]: [0 - (-n2), -n1 + -n2, -n2 - (-n1), -n1 - 0].
  const std::array<uint16_t, 16> want = {0, 0, 0, 0,            //
                                         n2m, n1, n2, n1,       //
                                         n2, n1m, n2m, n1m,     //
                                         n2m, n1, n2, n1};
  EXPECT_EQ(winograd_pra_fp16(d), want);
}

TEST(WinogradPraFp16, InfinityBecomesLargestFiniteBeforeTheAdds) {
  std::array<uint16_t, 16> d{};
  d[0] = 0x7C00;
  d[2] = 0x7C00;
  // Row 0 of M: [max, 0, max, 0] -> [max - max, 0 + max, max - 0, 0 - 0] (IEEE: NaN first).
  std::array<uint16_t, 16> want{};
  want[1] = 0x7BFF;
  want[2] = 0x7BFF;
  EXPECT_EQ(winograd_pra_fp16(d), want);

  d = {};
  d[1] = 0xFC00;
  d[2] = 0xFC00;
  // Row 0 of M: [0, -max, -max, 0] -> [0 + max, -max + -max (saturates), -max + max, -max].
  want = {};
  want[0] = 0x7BFF;
  want[1] = 0xFBFF;
  want[2] = 0x8000;
  want[3] = 0xFBFF;
  EXPECT_EQ(winograd_pra_fp16(d), want);

  // Finite overflow: M00 = d00 - d20 = 65504 + 65504 has fp17 exponent 47 -> 0x7BFF.
  // M10 = d10 + d20 and M20 = d20 - d10 are -65504 (exponent 46, exact).
  d = {};
  d[0] = 0x7BFF;
  d[8] = 0xFBFF;
  want = {};
  want[0] = 0x7BFF;
  want[4] = 0xFBFF;
  want[8] = 0xFBFF;
  EXPECT_EQ(winograd_pra_fp16(d), want);
}

TEST(WinogradPraFp16, SubnormalInputsAreWidenedExactly) {
  std::array<uint16_t, 16> d{};
  d[0] = 0x0001;   // 2^-24
  d[2] = 0x8001;   // -2^-24
  // Row 0 of M: [2^-24, 0, -2^-24, 0]; V00 = m0 - m2 = 2^-23, V02 = m2 - m1 = -2^-24.
  const auto v = winograd_pra_fp16(d);
  EXPECT_EQ(v[0], 0x0002);
  EXPECT_EQ(v[1], 0x8001);  // m1 + m2
  EXPECT_EQ(v[2], 0x8001);
  EXPECT_EQ(v[3], 0x0000);  // m1 - m3 = 0 - 0
  // 1025 + 2^-24: the subnormal is far below half an ulp and disappears.
  d = {};
  d[0] = 0x6401;  // 1025
  d[2] = 0x8001;  // -2^-24 is lost far below half an ulp of 1025
  EXPECT_EQ(winograd_pra_fp16(d)[0], 0x6401);
}

}  // namespace
}  // namespace dla::num
