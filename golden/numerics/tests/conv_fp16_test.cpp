// CMAC / CACC fp16 arithmetic (conv.md §4.4, §6.4, §9, worked example §10.3). References are
// the spec's own numbers, hand-derived values, or exact arithmetic on the host (_Float16
// decoding, long double, 128-bit integers), never outputs of the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "dla/numerics/conv_fp16.h"
#include "reference_float.h"

namespace dla::num {
namespace {
using testref::host_bits;
using testref::host_half_to_float;

__extension__ typedef __int128 i128;

// v / 2^t rounded to nearest, ties away from zero (conv.md notation rha); t = 0 is exact.
i128 rha128(i128 v, unsigned t) {
  if (t == 0) return v;
  const i128 mag = v < 0 ? -v : v;
  const i128 q = (mag + (i128{1} << (t - 1))) >> t;
  return v < 0 ? -q : q;
}

i128 floor_div_pow2(i128 v, unsigned t) {
  const i128 p = i128{1} << t;
  return v >= 0 ? v / p : -((-v + p - 1) / p);
}

// Exact value of an fp16 pattern in units of 2^-24, with Inf read as +-2^16 (§4.4.1).
int64_t fp16_units(uint16_t x) {
  const bool inf = (x & 0x7FFFu) == 0x7C00u;
  const long double v = inf ? 65536.0L : std::fabs(static_cast<long double>(host_half_to_float(x)));
  const auto u = static_cast<int64_t>(std::ldexp(v, 24));
  return (x & 0x8000u) ? -u : u;
}

long double sum_value(const CmacFp16Sum& s) {
  return std::ldexp(static_cast<long double>(s.mant), static_cast<int>(s.exp) - 50);
}

// Random fp16 pattern with exponent field in [4g, 4g + 3], excluding NaN and Inf.
uint16_t random_in_group(std::mt19937_64& rng, unsigned g) {
  for (;;) {
    const unsigned e = 4 * g + static_cast<unsigned>(rng() % 4);
    const unsigned f = static_cast<unsigned>(rng() % 1024);
    if (e == 31) continue;
    return static_cast<uint16_t>(((rng() & 1) << 15) | (e << 10) | f);
  }
}

void expect_nan_code(const CmacFp16Sum& s, uint16_t nan) {
  EXPECT_EQ(s.exp, 63u);
  EXPECT_EQ((s.mant >> 37) & 1, static_cast<int64_t>(nan >> 15)) << std::hex << nan;
  EXPECT_EQ((s.mant >> 27) & 0x3FF, static_cast<int64_t>(nan & 0x3FF)) << std::hex << nan;
  EXPECT_EQ(s.mant & ((int64_t{1} << 27) - 1), 0);
  EXPECT_GE(s.mant, -(int64_t{1} << 37));  // 38-bit word, sign-extended
  EXPECT_LT(s.mant, int64_t{1} << 37);
}

// ---------------------------------------------------------------------------------------
// Worked example conv.md §10.3

TEST(CmacFp16SpecExample, EncodingsOfSection10_3) {
  struct Row {
    uint16_t x;
    bool sign;
    unsigned g, h;
    uint32_t m;
  };
  const Row rows[] = {{0x3E00, false, 3, 3, 12288}, {0xB400, true, 3, 1, 2048},
                      {0x3C00, false, 3, 3, 8192},  {0x4000, false, 4, 0, 1024},
                      {0x4200, false, 4, 0, 1536},  {0x0001, false, 0, 1, 2}};
  for (const Row& r : rows) {
    const CmacFp16Operand o = cmac_fp16_decode(r.x);
    EXPECT_EQ(o.sign, r.sign) << std::hex << r.x;
    EXPECT_EQ(o.g, r.g) << std::hex << r.x;
    EXPECT_EQ(o.h, r.h) << std::hex << r.x;
    EXPECT_EQ(o.m, r.m) << std::hex << r.x;
  }
}

TEST(CmacFp16SpecExample, DotProductAndAccumulationOfSection10_3) {
  // Products: q = 0, 0, 16 (Gs = 7, 7, 3; Emax = 7).
  EXPECT_EQ(cmac_booth_trunc(false, 12288, 1024, 0), 12582912);
  EXPECT_EQ(cmac_booth_trunc(true, 2048, 1536, 0), -3145728);
  EXPECT_EQ(cmac_booth_trunc(false, 8192, 2, 16), 0);

  std::array<uint16_t, 16> w{}, d{};
  w[0] = 0x3E00, w[1] = 0xB400, w[2] = 0x3C00;
  d[0] = 0x4000, d[1] = 0x4200, d[2] = 0x0001;
  const CmacFp16Sum s = cmac_fp16_dot(w.data(), d.data(), 16);
  EXPECT_EQ(s.exp, 28u);  // X = 4 * Emax
  EXPECT_EQ(s.mant, 9437184);
  EXPECT_EQ(sum_value(s), 2.25L);

  CaccFp48 acc;
  acc.add(s);
  EXPECT_EQ(acc.exp(), 64u);  // n0 = 13, Eb' = 28 - 13 + 49
  EXPECT_EQ(acc.mant(), 309237645312);
  EXPECT_EQ(acc.to_fp32(), 0x40100000u);
}

TEST(CmacFp16SpecExample, TinyProductAsSeparatePartialOfSection10_3) {
  const uint16_t wa[2] = {0x3E00, 0xB400}, da[2] = {0x4000, 0x4200};
  const uint16_t wb[1] = {0x3C00}, db[1] = {0x0001};
  const CmacFp16Sum a = cmac_fp16_dot(wa, da, 2);
  const CmacFp16Sum b = cmac_fp16_dot(wb, db, 1);
  EXPECT_EQ(a.exp, 28u);
  EXPECT_EQ(a.mant, 9437184);
  EXPECT_EQ(sum_value(b), 0x1p-24L);  // exact: q = 0 within its own cell
  for (int order = 0; order < 2; ++order) {
    CaccFp48 acc;
    acc.add(order == 0 ? a : b);
    acc.add(order == 0 ? b : a);
    EXPECT_EQ(acc.exp(), 64u) << order;
    EXPECT_EQ(acc.mant(), 309237653504) << order;
    EXPECT_EQ(acc.to_fp32(), 0x40100000u) << order;
  }
}

// ---------------------------------------------------------------------------------------
// Operand encoding (§4.4.1)

TEST(CmacFp16Decode, ValueMatchesHostHalfForEveryNonNanPattern) {
  for (uint32_t x = 0; x < 0x10000; ++x) {
    const auto h = static_cast<uint16_t>(x);
    if (fp16_is_nan(h)) continue;
    const CmacFp16Operand o = cmac_fp16_decode(h);
    const unsigned e = (x >> 10) & 31;
    ASSERT_EQ(o.g, e / 4) << std::hex << x;
    ASSERT_EQ(o.h, e == 0 ? 1u : e % 4) << std::hex << x;
    ASSERT_LT(o.m, 1u << 14) << std::hex << x;
    const int64_t units = static_cast<int64_t>(o.m) << (4 * o.g);  // units of 2^-25
    ASSERT_EQ(o.sign ? -units : units, 2 * fp16_units(h)) << std::hex << x;
  }
}

// ---------------------------------------------------------------------------------------
// BoothTrunc (§4.4.2)

TEST(BoothTrunc, ExactProductWhenQIsZero) {
  std::mt19937_64 rng(4402);
  for (int i = 0; i < 1000000; ++i) {
    const auto a = static_cast<uint32_t>(rng() % (1u << 14));
    const auto b = static_cast<uint32_t>(rng() % (1u << 14));
    const bool s = rng() & 1;
    const int64_t p = static_cast<int64_t>(a) * b;
    ASSERT_EQ(cmac_booth_trunc(s, a, b, 0), s ? -p : p) << s << " " << a << " " << b;
  }
  const uint32_t corner[] = {0, 1, 2, 3, 4, 5, 0x1555, 0x2AAA, 0x2000, 0x1FFF, 0x3FFE, 0x3FFF};
  for (uint32_t a : corner)
    for (uint32_t b : corner)
      for (bool s : {false, true}) {
        const int64_t p = static_cast<int64_t>(a) * b;
        EXPECT_EQ(cmac_booth_trunc(s, a, b, 0), s ? -p : p) << s << " " << a << " " << b;
      }
}

TEST(BoothTrunc, TruncatedProductWithinOneOfFloor) {
  std::mt19937_64 rng(4403);
  for (int i = 0; i < 1000000; ++i) {
    const auto a = static_cast<uint32_t>(rng() % (1u << 14));
    const auto b = static_cast<uint32_t>(rng() % (1u << 14));
    const bool s = rng() & 1;
    // 4 .. 28 in hardware; other q use the generalised constant (see conv_fp16.h).
    const unsigned q = 1 + static_cast<unsigned>(rng() % 31);
    const i128 p = static_cast<i128>(a) * b;
    const i128 fl = floor_div_pow2(s ? -p : p, q);
    const auto diff = static_cast<int64_t>(cmac_booth_trunc(s, a, b, q) - fl);
    ASSERT_LE(diff, 1) << s << " " << a << " " << b << " q=" << q;
    ASSERT_GE(diff, -1) << s << " " << a << " " << b << " q=" << q;
  }
}

TEST(BoothTrunc, ZeroWhenQAtLeast32) {
  std::mt19937_64 rng(4404);
  for (int i = 0; i < 10000; ++i) {
    const auto a = static_cast<uint32_t>(rng() % (1u << 14));
    const auto b = static_cast<uint32_t>(rng() % (1u << 14));
    const unsigned q = 32 + static_cast<unsigned>(rng() % 40);
    ASSERT_EQ(cmac_booth_trunc(rng() & 1, a, b, q), 0);
  }
  EXPECT_EQ(cmac_booth_trunc(true, 0x3FFF, 0x3FFF, 32), 0);
  EXPECT_EQ(cmac_booth_trunc(false, 0x3FFF, 0x3FFF, 56), 0);
}

TEST(BoothTrunc, CarrySaveWordsAndCompensationTable) {
  const uint32_t kq[8] = {0xAAAB0000, 0xFAAAB000, 0xFFAAAB00, 0xFFFAAAB0,
                          0xFFFFAAAB, 0xFFFFFAAB, 0xFFFFFFAB, 0xFFFFFFFB};  // §4.4.2 step 7
  std::mt19937_64 rng(4405);
  for (int i = 0; i < 200000; ++i) {
    const auto a = static_cast<uint32_t>(rng() % (1u << 14));
    const auto b = static_cast<uint32_t>(rng() % (1u << 14));
    const bool s = rng() & 1;
    const BoothCarrySave f = cmac_booth_carry_save(s, a, b);
    const uint32_t p = s ? 0u - a * b : a * b;
    ASSERT_EQ(f.f0 + f.f1 + 0xAAAB0000u, p);
    for (unsigned k = 0; k < 8; ++k)
      ASSERT_EQ(cmac_booth_trunc(s, a, b, 4 * k), static_cast<int32_t>((f.f0 >> (4 * k)) + (f.f1 >> (4 * k)) + kq[k]));
  }
}

TEST(BoothTrunc, HandComputedCarrySaveWords) {
  // a = 1, b = 1: digit 0 is t = 2 (PP0 = 0x10001), all others t = 0 (0x10000); no carries.
  BoothCarrySave f = cmac_booth_carry_save(false, 1, 1);
  EXPECT_EQ(f.f0, 0x55550001u);
  EXPECT_EQ(f.f1, 0u);
  // Negated: digit 0 is t = 5 (PP0 = 0xFFFE, n0 = 1), others t = 7.
  f = cmac_booth_carry_save(true, 1, 1);
  EXPECT_EQ(f.f0, 0x5554FFFFu);
  EXPECT_EQ(f.f1, 0u);
  // a = 3, b = 1: t0 = 6 (PP0 = 0xFFFE, n0 = 1), t1 = 1 (PP1 = 0x10001); the carry
  // chain R0/R1 -> C1 = 8 -> C2 = 0x10 -> A1 = 0x20 -> C3 = 0x40 -> F1 = 0x80.
  f = cmac_booth_carry_save(false, 3, 1);
  EXPECT_EQ(f.f0, 0x5554FF83u);
  EXPECT_EQ(f.f1, 0x80u);
  EXPECT_EQ(cmac_booth_trunc(false, 3, 1, 4), 0);  // 0x05554FF8 + 0x8 + 0xFAAAB000
  EXPECT_EQ(cmac_booth_trunc(false, 1, 1, 4), 0);
  EXPECT_EQ(cmac_booth_trunc(true, 1, 1, 4), -1);
  // a = 2, b = 2: t0 = 4 (PP0 = ~4 & 0xFFFF = 0xFFFB, n0 = 1), t1 = 1 (PP1 = 0x10002).
  f = cmac_booth_carry_save(false, 2, 2);
  EXPECT_EQ(f.f0, 0x5554FF04u);
  EXPECT_EQ(f.f1, 0x100u);
  // a = 2, b = 1: F0 = 0x5554FF82, F1 = 0x80. With q = 8 the carry word's low bits are
  // lost: 0x5554FF + 0 + 0xFFAAAB00 = -1, although floor(2 / 256) = 0.
  f = cmac_booth_carry_save(false, 2, 1);
  EXPECT_EQ(f.f0, 0x5554FF82u);
  EXPECT_EQ(f.f1, 0x80u);
  EXPECT_EQ(cmac_booth_trunc(false, 2, 1, 8), -1);
  EXPECT_EQ(cmac_booth_trunc(false, 2, 1, 4), 0);  // 0x05554FF8 + 0x8 + 0xFAAAB000
}

TEST(BoothTrunc, RejectsOperandsOutsideFourteenBits) {
  EXPECT_THROW(cmac_booth_trunc(false, 1u << 14, 1, 0), std::invalid_argument);
  EXPECT_THROW(cmac_booth_trunc(false, 1, 1u << 14, 0), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// Direct-mode dot product (§4.4.1)

TEST(CmacFp16Dot, ExactWhenAllActiveLanesShareOneGroupExponent) {
  std::mt19937_64 rng(4411);
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned lanes = 1 + static_cast<unsigned>(rng() % 64);
    const unsigned gw = static_cast<unsigned>(rng() % 8), gd = static_cast<unsigned>(rng() % 8);
    std::vector<uint16_t> w(lanes), d(lanes);
    long double exact = 0;
    bool any_active = false;
    for (unsigned i = 0; i < lanes; ++i) {
      w[i] = random_in_group(rng, gw);
      d[i] = random_in_group(rng, gd);
      if (rng() % 5 == 0) w[i] = (rng() & 1) ? 0x8000 : 0x0000;
      if (rng() % 5 == 0) d[i] = (rng() & 1) ? 0x8000 : 0x0000;
      // Products have at most 22 significant bits on a common grid: the sum is exact.
      exact += static_cast<long double>(host_half_to_float(w[i])) * host_half_to_float(d[i]);
      any_active |= fp16_is_nonzero(w[i]) && fp16_is_nonzero(d[i]);
    }
    const CmacFp16Sum s = cmac_fp16_dot(w.data(), d.data(), lanes);
    ASSERT_EQ(s.exp, any_active ? 4 * (gw + gd) : 0u) << trial;
    ASSERT_EQ(sum_value(s), exact) << trial;
  }
}

TEST(CmacFp16Dot, AlignmentErrorIsBoundedForArbitraryOperands) {
  // Each aligned product is within 2 units of its exact value (floor, then at most one off).
  std::mt19937_64 rng(4412);
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned lanes = 1 + static_cast<unsigned>(rng() % 64);
    std::vector<uint16_t> w(lanes), d(lanes);
    i128 exact = 0;  // units of 2^-50
    int active = 0;
    for (unsigned i = 0; i < lanes; ++i) {
      do w[i] = static_cast<uint16_t>(rng()); while (fp16_is_nan(w[i]));
      do d[i] = static_cast<uint16_t>(rng()); while (fp16_is_nan(d[i]));
      exact += static_cast<i128>(fp16_units(w[i])) * fp16_units(d[i]) * 4;
      active += fp16_is_nonzero(w[i]) && fp16_is_nonzero(d[i]);
    }
    const CmacFp16Sum s = cmac_fp16_dot(w.data(), d.data(), lanes);
    ASSERT_EQ(s.exp % 4, 0u);
    ASSERT_LE(s.exp, 56u);
    const i128 unit = i128{1} << s.exp;
    const i128 err = static_cast<i128>(s.mant) * unit - exact;
    ASSERT_LE(err < 0 ? -err : err, 2 * active * unit) << trial;
  }
}

TEST(CmacFp16Dot, InactiveLanesDoNotRaiseTheCommonExponent) {
  // Lane 0: 2^-14 * 2^-14 = 2^-28 (Gs = 0). Lanes 1-3 hold the largest finite value against
  // +0 / -0; if they counted, Emax would be 14 and lane 0 would be shifted out (q = 56).
  const uint16_t w[4] = {0x0400, 0x0000, 0x7BFF, 0x8000};
  const uint16_t d[4] = {0x0400, 0x7BFF, 0x8000, 0xFBFF};
  const CmacFp16Sum s = cmac_fp16_dot(w, d, 4);
  EXPECT_EQ(s.exp, 0u);
  EXPECT_EQ(s.mant, int64_t{1} << 22);  // 2^-28 = 2^22 * 2^-50
  // No active lane at all: (0, 0).
  const CmacFp16Sum z = cmac_fp16_dot(w + 1, d + 1, 3);
  EXPECT_EQ(z.exp, 0u);
  EXPECT_EQ(z.mant, 0);
}

TEST(CmacFp16Dot, InfinityIsTwoToTheSixteen) {
  // Inf*1.0 + (-Inf)*1.5 + (1.5*2^15)*1.0 = 65536 - 98304 + 49152 = 16384; all Gs = 10.
  const uint16_t w[3] = {0x7C00, 0xFC00, 0x7A00};
  const uint16_t d[3] = {0x3C00, 0x3E00, 0x3C00};
  CmacFp16Sum s = cmac_fp16_dot(w, d, 3);
  EXPECT_EQ(s.exp, 40u);
  EXPECT_EQ(sum_value(s), 16384.0L);
  // Inf * -Inf = -2^32 (Gs = 14).
  const uint16_t wi = 0x7C00, di = 0xFC00;
  s = cmac_fp16_dot(&wi, &di, 1);
  EXPECT_EQ(s.exp, 56u);
  EXPECT_EQ(sum_value(s), -0x1p32L);
}

TEST(CmacFp16Dot, FirstNanInScanOrderWins) {
  std::array<uint16_t, 8> w, d;
  w.fill(0x3C00);
  d.fill(0x3C00);
  // Weights are scanned before data, whatever the lane.
  w[5] = 0xFE01;
  d[0] = 0x7D55;
  expect_nan_code(cmac_fp16_dot(w.data(), d.data(), 8), 0xFE01);
  // Lower weight lane first.
  w[2] = 0x7C01;
  expect_nan_code(cmac_fp16_dot(w.data(), d.data(), 8), 0x7C01);
  // Only data NaNs: lower data lane first.
  w.fill(0x3C00);
  d[6] = 0xFFFF;
  expect_nan_code(cmac_fp16_dot(w.data(), d.data(), 8), 0x7D55);
  d[0] = 0x3C00;
  expect_nan_code(cmac_fp16_dot(w.data(), d.data(), 8), 0xFFFF);
  // Activity does not matter: NaN data against a zero weight, NaN weight against -0 data.
  d.fill(0x3C00);
  w[3] = 0x0000;
  d[3] = 0xFDAB;
  expect_nan_code(cmac_fp16_dot(w.data(), d.data(), 8), 0xFDAB);
  d.fill(0x8000);
  w[7] = 0xFC01;
  expect_nan_code(cmac_fp16_dot(w.data(), d.data(), 8), 0xFC01);
  // Exact code words: sign 1, fraction 0x3FF -> bits 37 and 36:27 set; sign 0 -> positive.
  EXPECT_EQ(cmac_fp16_nan_sum(0xFFFF).mant & ((int64_t{1} << 38) - 1), int64_t{0x7FF} << 27);
  EXPECT_EQ(cmac_fp16_nan_sum(0x7C01).mant, int64_t{1} << 27);
  // Inf is not a NaN.
  w.fill(0x7C00);
  d.fill(0x3C00);
  EXPECT_NE(cmac_fp16_dot(w.data(), d.data(), 8).exp, 63u);
}

// ---------------------------------------------------------------------------------------
// Winograd grouped dot (§6.4)

TEST(CmacFp16GroupedDot, EqualsPerGroupDotWhenAllLanesShareOneExponent) {
  std::mt19937_64 rng(6401);
  for (int trial = 0; trial < 5000; ++trial) {
    const unsigned gw = static_cast<unsigned>(rng() % 8), gd = static_cast<unsigned>(rng() % 8);
    std::array<uint16_t, 64> w, d;
    for (unsigned i = 0; i < 64; ++i) {
      do w[i] = random_in_group(rng, gw); while (!fp16_is_nonzero(w[i]));
      do d[i] = random_in_group(rng, gd); while (!fp16_is_nonzero(d[i]));
    }
    for (unsigned group : {1u, 2u, 4u, 16u, 64u}) {
      std::array<CmacFp16Sum, 64> out;
      cmac_fp16_grouped_dot(w.data(), d.data(), 64, group, out.data());
      for (unsigned j = 0; j < 64 / group; ++j) {
        const CmacFp16Sum ref = cmac_fp16_dot(w.data() + j * group, d.data() + j * group, group);
        ASSERT_EQ(out[j].exp, 4 * (gw + gd));
        ASSERT_EQ(out[j].exp, ref.exp);
        ASSERT_EQ(out[j].mant, ref.mant) << trial << " group " << group << " out " << j;
      }
    }
  }
}

TEST(CmacFp16GroupedDot, SingleGroupIsTheDirectDot) {
  std::mt19937_64 rng(6402);
  for (int trial = 0; trial < 20000; ++trial) {
    std::array<uint16_t, 64> w, d;
    for (unsigned i = 0; i < 64; ++i) {
      w[i] = static_cast<uint16_t>(rng());
      d[i] = static_cast<uint16_t>(rng());
      if (rng() % 3) w[i] &= 0xBFFF;  // fewer NaN/Inf
      if (rng() % 3) d[i] &= 0xBFFF;
    }
    CmacFp16Sum out;
    cmac_fp16_grouped_dot(w.data(), d.data(), 64, 64, &out);
    const CmacFp16Sum ref = cmac_fp16_dot(w.data(), d.data(), 64);
    ASSERT_EQ(out.exp, ref.exp);
    ASSERT_EQ(out.mant, ref.mant);
  }
}

TEST(CmacFp16GroupedDot, CommonExponentAcrossGroups) {
  std::array<uint16_t, 16> w{}, d{};
  for (unsigned i = 0; i < 4; ++i) w[i] = d[i] = 0x5C00;                // 256 * 256, Gs = 10
  for (unsigned i = 4; i < 8; ++i) w[i] = d[i] = 0x3C00;                // 1.0 * 1.0, Gs = 6
  for (unsigned i = 12; i < 16; ++i) w[i] = d[i] = 0x0400;              // 2^-28, Gs = 0
  std::array<CmacFp16Sum, 4> out;
  cmac_fp16_grouped_dot(w.data(), d.data(), 16, 4, out.data());
  for (const CmacFp16Sum& s : out) EXPECT_EQ(s.exp, 40u);
  EXPECT_EQ(sum_value(out[0]), 4 * 65536.0L);           // q = 0: exact
  EXPECT_NEAR(static_cast<double>(out[1].mant), 4096.0, 8.0);  // 4.0 aligned by q = 16
  EXPECT_EQ(out[2].mant, 0);                             // no active lane
  EXPECT_EQ(out[3].mant, 0);                             // q = 40: shifted out
  // The same group alone keeps its own exponent.
  EXPECT_EQ(cmac_fp16_dot(w.data() + 4, d.data() + 4, 4).exp, 24u);
  EXPECT_EQ(cmac_fp16_dot(w.data() + 12, d.data() + 12, 4).mant, 4 * (int64_t{1} << 22));
}

TEST(CmacFp16GroupedDot, NanPoisonsEveryOutput) {
  std::array<uint16_t, 64> w, d;
  w.fill(0x3C00);
  d.fill(0x4000);
  d[37] = 0xFE2A;
  std::array<CmacFp16Sum, 16> out;
  cmac_fp16_grouped_dot(w.data(), d.data(), 64, 4, out.data());
  for (const CmacFp16Sum& s : out) expect_nan_code(s, 0xFE2A);
  d[3] = 0x7C10;   // earlier data lane
  w[50] = 0x7E00;  // any weight lane comes first
  cmac_fp16_grouped_dot(w.data(), d.data(), 64, 4, out.data());
  for (const CmacFp16Sum& s : out) expect_nan_code(s, 0x7E00);
}

TEST(CmacFp16GroupedDot, RejectsBadGroupSize) {
  std::array<uint16_t, 8> w{}, d{};
  std::array<CmacFp16Sum, 8> out;
  EXPECT_THROW(cmac_fp16_grouped_dot(w.data(), d.data(), 8, 0, out.data()), std::invalid_argument);
  EXPECT_THROW(cmac_fp16_grouped_dot(w.data(), d.data(), 8, 3, out.data()), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// CACC accumulator (§4.4.3) and fp32 conversion (§4.4.4)

// Accumulator value in units of 2^(e_unit - 50) if that is exact; checks normalisation.
void expect_state_equals(const CaccFp48& acc, i128 exact, int e_unit) {
  if (exact == 0) {
    EXPECT_EQ(acc.mant(), 0);
    EXPECT_EQ(acc.exp(), 0u);
    return;
  }
  const int64_t ma = acc.mant();
  ASSERT_TRUE((ma >= (int64_t{1} << 38) && ma < (int64_t{1} << 39)) ||
              (ma >= -(int64_t{1} << 39) && ma < -(int64_t{1} << 38)))
      << "not normalised: " << ma;
  // Ma * 2^(Ea - 101) == exact * 2^(e_unit - 50)
  const int k = static_cast<int>(acc.exp()) - 51 - e_unit;
  if (k >= 0)
    EXPECT_TRUE(static_cast<i128>(ma) * (i128{1} << k) == exact) << "Ea=" << acc.exp() << " Ma=" << ma;
  else
    EXPECT_TRUE(static_cast<i128>(ma) == exact * (i128{1} << -k)) << "Ea=" << acc.exp() << " Ma=" << ma;
}

TEST(CaccFp48, StartsAtZeroAndIgnoresZeroPartials) {
  CaccFp48 acc;
  EXPECT_EQ(acc.exp(), 0u);
  EXPECT_EQ(acc.mant(), 0);
  EXPECT_EQ(acc.to_fp32(), 0u);
  acc.add(CmacFp16Sum{20, 0});
  acc.add(CmacFp16Sum{63, 0});
  EXPECT_EQ(acc.exp(), 0u);
  EXPECT_EQ(acc.mant(), 0);
  acc.add(CmacFp16Sum{28, 9437184});
  acc.add(CmacFp16Sum{56, 0});
  EXPECT_EQ(acc.exp(), 64u);
  EXPECT_EQ(acc.mant(), 309237645312);
}

TEST(CaccFp48, ExactForSmallValuesOnACommonGrid) {
  std::mt19937_64 rng(4431);
  for (int trial = 0; trial < 2000; ++trial) {
    CaccFp48 acc;
    i128 exact = 0;  // units of 2^(20 - 50)
    for (int n = 0; n < 200; ++n) {
      const unsigned e = 20 + 4 * static_cast<unsigned>(rng() % 4);
      const int64_t m = static_cast<int64_t>(rng() % (2 * 65536 + 1)) - 65536;
      acc.add(CmacFp16Sum{e, m});
      exact += static_cast<i128>(m) << (e - 20);
      expect_state_equals(acc, exact, 20);
      if (exact > -(i128{1} << 24) && exact < (i128{1} << 24)) {
        const float f = std::ldexp(static_cast<float>(static_cast<int64_t>(exact)), -30);
        ASSERT_EQ(acc.to_fp32(), host_bits(f)) << trial << " " << n;
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// Value Ma * 2^(Ea - 101) in units of 2^-64 (every reachable state is a multiple of 2^-50).
i128 state_units(int64_t ma, unsigned ea) {
  const int sh = static_cast<int>(ea) - 37;
  if (sh >= 0) return static_cast<i128>(ma) * (i128{1} << sh);
  EXPECT_EQ(ma % (int64_t{1} << -sh), 0) << "state below 2^-64 resolution";
  return static_cast<i128>(ma) / (i128{1} << -sh);
}

int leading_bit(i128 v) {  // position of the leading bit of |v|, -1 for 0
  int p = -1;
  for (i128 u = v < 0 ? -v : v; u != 0; u >>= 1) ++p;
  return p;
}

TEST(CaccFp48, EachAdditionIsRoundedHalfAwayFromZero) {
  // Random wide-range partials; every step must equal rha(previous value + partial) on the
  // grid of the new state, as long as the operands are close enough that no alignment shift
  // exceeds 40 bits (judged from their magnitudes).
  std::mt19937_64 rng(4432);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    CaccFp48 acc;
    for (int n = 0; n < 40; ++n) {
      const unsigned e = 4 * static_cast<unsigned>(rng() % 15);
      const unsigned bits = 1 + static_cast<unsigned>(rng() % 37);
      int64_t m = static_cast<int64_t>(rng() & ((uint64_t{1} << bits) - 1));
      if (rng() & 1) m = -m;
      if (rng() % 8 == 0) m = -(int64_t{1} << (bits - 1)) * ((rng() & 1) ? 1 : 2);  // -2^k
      const int64_t ma = acc.mant();
      const unsigned ea = acc.exp();
      acc.add(CmacFp16Sum{e, m});
      if (m == 0) continue;
      const i128 prev = state_units(ma, ea);
      const i128 part = static_cast<i128>(m) << (e + 14);  // 2^(e - 50) = 2^(e + 14) * 2^-64
      const i128 sum = prev + part;
      if (ma != 0 && std::abs(leading_bit(prev) - leading_bit(part)) > 36) continue;
      ++checked;
      const int64_t r = acc.mant();
      const unsigned k = acc.exp();
      if (sum == 0) {
        ASSERT_EQ(r, 0);
        ASSERT_EQ(k, 0u);
        continue;
      }
      ASSERT_TRUE((r >= (int64_t{1} << 38) && r < (int64_t{1} << 39)) ||
                  (r >= -(int64_t{1} << 39) && r <= -(int64_t{1} << 38)))
          << "not normalised: " << r;
      // Result grid 2^(k - 101) = 2^(k - 37) units.
      const bool ok = k >= 37 ? static_cast<i128>(r) == rha128(sum, k - 37)
                              : static_cast<i128>(r) == sum * (i128{1} << (37 - k));
      ASSERT_TRUE(ok) << trial << ":" << n << " Ea=" << k << " Ma=" << r << " prev=(" << ea << ","
                      << ma << ") partial=(" << e << "," << m << ")";
    }
  }
  EXPECT_GT(checked, 50000);
}

TEST(CaccFp48, HalfUnitTiesGoAwayFromZero) {
  // Accumulator +-3*2^34 (normalised: Ma = +-3*2^37, Ea = 98, unit 2^-3), plus or minus
  // k * 2^-10 (partial mant k at exponent 40). Expected on the same grid: rha(sum, 7) in
  // units of 2^-10.
  for (int64_t big_sign : {1, -1})
    for (int64_t k : {64, -64, 63, -63, 65, -65, 1, -1, 192, -192}) {
      CaccFp48 acc;
      acc.add(CmacFp16Sum{50, big_sign * 3 * (int64_t{1} << 34)});
      ASSERT_EQ(acc.exp(), 98u);
      ASSERT_EQ(acc.mant(), big_sign * 3 * (int64_t{1} << 37));
      acc.add(CmacFp16Sum{40, k});
      const i128 sum = static_cast<i128>(big_sign * 3) * (i128{1} << 44) + k;
      EXPECT_EQ(acc.exp(), 98u) << big_sign << " " << k;
      EXPECT_TRUE(static_cast<i128>(acc.mant()) == rha128(sum, 7)) << big_sign << " " << k << " -> " << acc.mant();
    }
  // Spelled out: +big + half -> +1 unit; -big - half -> -1 unit; -big + half, +big - half -> unchanged.
  CaccFp48 a;
  a.add(CmacFp16Sum{50, 3 * (int64_t{1} << 34)});
  a.add(CmacFp16Sum{40, 64});
  EXPECT_EQ(a.mant(), 3 * (int64_t{1} << 37) + 1);
  CaccFp48 b;
  b.add(CmacFp16Sum{50, -3 * (int64_t{1} << 34)});
  b.add(CmacFp16Sum{40, 64});
  EXPECT_EQ(b.mant(), -3 * (int64_t{1} << 37));
}

TEST(CaccFp48, OverflowOfTheSumRenormalises) {
  // (2^37 - 1) * 2^-10 twice: both normalise to 2^39 - 4 at the same exponent; the sum
  // overflows 40 bits and is shifted right by one, exactly.
  CaccFp48 acc;
  acc.add(CmacFp16Sum{40, (int64_t{1} << 37) - 1});
  acc.add(CmacFp16Sum{40, (int64_t{1} << 37) - 1});
  expect_state_equals(acc, 2 * ((i128{1} << 37) - 1), 40);
  CaccFp48 neg;
  neg.add(CmacFp16Sum{40, -((int64_t{1} << 37) - 1)});
  neg.add(CmacFp16Sum{40, -(int64_t{1} << 37)});
  expect_state_equals(neg, -((i128{1} << 38) - 1), 40);
}

TEST(CaccFp48, RoundingCarryRenormalises) {
  // (101, 2^39 - 1) is 2^39 - 1; adding 0.5 (2^21 * 2^(28 - 50)) rounds up to 2^39, which
  // no longer fits: the state becomes (102, 2^38).
  CaccFp48 acc(101, (int64_t{1} << 39) - 1);
  acc.add(CmacFp16Sum{28, int64_t{1} << 21});
  EXPECT_EQ(acc.exp(), 102u);
  EXPECT_EQ(acc.mant(), int64_t{1} << 38);
  EXPECT_EQ(acc.to_fp32(), host_bits(0x1p39f));
}

TEST(CaccFp48, ZeroMantissaStateActsAsExponentZero) {
  // Step 5: a zero accumulator counts as exponent 0 whatever Ea holds.
  for (unsigned ea : {0u, 7u, 120u, 200u}) {
    CaccFp48 acc(ea, 0);
    acc.add(CmacFp16Sum{28, 9437184});
    EXPECT_EQ(acc.exp(), 64u) << ea;
    EXPECT_EQ(acc.mant(), 309237645312) << ea;
  }
}

TEST(CaccFp48, FarSmallerOperandIsDropped) {
  for (int64_t tiny : {1, -1, 5, -5}) {
    CaccFp48 acc;
    acc.add(CmacFp16Sum{56, (int64_t{1} << 36) + 12345});
    const int64_t ma = acc.mant();
    const unsigned ea = acc.exp();
    acc.add(CmacFp16Sum{0, tiny});  // 2^-50-ish against ~2^42: 92 bits apart
    EXPECT_EQ(acc.mant(), ma) << tiny;
    EXPECT_EQ(acc.exp(), ea) << tiny;
    // The other way round: the tiny accumulator vanishes, the big partial is exact.
    CaccFp48 rev;
    rev.add(CmacFp16Sum{0, tiny});
    rev.add(CmacFp16Sum{56, (int64_t{1} << 36) + 12345});
    EXPECT_EQ(rev.mant(), ma) << tiny;
    EXPECT_EQ(rev.exp(), ea) << tiny;
  }
}

TEST(CaccFp48, CancellationGivesPositiveZero) {
  CaccFp48 acc;
  acc.add(CmacFp16Sum{28, -9437184});
  acc.add(CmacFp16Sum{28, 9437184});
  EXPECT_EQ(acc.mant(), 0);
  EXPECT_EQ(acc.exp(), 0u);
  EXPECT_EQ(acc.to_fp32(), 0x00000000u);
  acc.add(CmacFp16Sum{12, 16384});  // restarts from zero: 2^-24 exactly
  EXPECT_EQ(acc.to_fp32(), 0x33800000u);
}

TEST(CaccFp48, NanIsStickyAndKeepsTheFirstCode) {
  CaccFp48 acc;
  acc.add(CmacFp16Sum{28, 9437184});
  acc.add(cmac_fp16_nan_sum(0xFE01));
  EXPECT_EQ(acc.exp(), 255u);
  EXPECT_TRUE(acc.is_nan());
  EXPECT_EQ(acc.mant(), -(int64_t{1} << 39) + (int64_t{0x201} << 29));  // Ma[39:29] = 1, 0x201
  EXPECT_EQ(acc.to_fp32(), 0xFF800201u);
  acc.add(CmacFp16Sum{28, 9437184});
  acc.add(cmac_fp16_nan_sum(0x7C02));
  acc.add(CmacFp16Sum{56, -1});
  acc.add(CmacFp16Sum{0, 0});
  EXPECT_EQ(acc.exp(), 255u);
  EXPECT_EQ(acc.to_fp32(), 0xFF800201u);

  // A NaN as the first partial; positive sign; raw (not sign-extended) 38-bit code accepted.
  CaccFp48 b;
  b.add(cmac_fp16_nan_sum(0x7C01));
  EXPECT_EQ(b.to_fp32(), 0x7F800001u);
  CaccFp48 c;
  c.add(CmacFp16Sum{63, (int64_t{1} << 37) | (int64_t{0x3FF} << 27)});
  EXPECT_EQ(c.to_fp32(), 0xFF8003FFu);
  // End to end: a NaN weight reaching CACC through a CMAC cell.
  const uint16_t w[2] = {0x3C00, 0x7D00}, d[2] = {0x3C00, 0x0000};
  CaccFp48 e;
  e.add(cmac_fp16_dot(w, d, 2));
  EXPECT_EQ(e.to_fp32(), 0x7F800100u);
}

TEST(CaccFp48, Fp32OfExactlyRepresentableValues) {
  struct Case {
    unsigned exp;
    int64_t mant;
    float value;
  };
  const Case cases[] = {{50, 1, 1.0f},          {50, -1, -1.0f},       {48, 3, 0.75f},
                        {0, 1, 0x1p-50f},       {56, (int64_t{1} << 24) - 1, 0x1p30f - 0x1p6f},
                        {12, 16384, 0x1p-24f},  {40, -5, -5 * 0x1p-10f}, {28, 9437184, 2.25f}};
  for (const Case& c : cases) {
    CaccFp48 acc;
    acc.add(CmacFp16Sum{c.exp, c.mant});
    EXPECT_EQ(acc.to_fp32(), host_bits(c.value)) << c.exp << " " << c.mant;
  }
}

TEST(CaccFp48, Fp32RoundsHalfUpInMagnitudeOnBit14) {
  // State (63, Ma): value Ma * 2^-38, so Ma = 2^38 is 1.0 and bit 14 is half an fp32 ulp.
  const int64_t one = int64_t{1} << 38;
  EXPECT_EQ(CaccFp48(63, one).to_fp32(), 0x3F800000u);
  EXPECT_EQ(CaccFp48(63, one + (1 << 14)).to_fp32(), 0x3F800001u);  // tie: up (RNE: down)
  EXPECT_EQ(CaccFp48(63, one + (1 << 14) - 1).to_fp32(), 0x3F800000u);
  EXPECT_EQ(CaccFp48(63, one + (3 << 14)).to_fp32(), 0x3F800002u);
  EXPECT_EQ(CaccFp48(63, -(one + (1 << 14))).to_fp32(), 0xBF800001u);
  EXPECT_EQ(CaccFp48(63, -(one + (1 << 14) - 1)).to_fp32(), 0xBF800000u);
  // Carry out of the significand: 2 - 2^-38 -> 2.0.
  EXPECT_EQ(CaccFp48(63, 2 * one - 1).to_fp32(), 0x40000000u);
  EXPECT_EQ(CaccFp48(63, -(2 * one - 1)).to_fp32(), 0xC0000000u);
  // Through add(): (2^37 - 1) * 2^-37 normalises to (62, 2^39 - 4) and rounds to 1.0.
  CaccFp48 acc;
  acc.add(CmacFp16Sum{13, (int64_t{1} << 37) - 1});
  EXPECT_EQ(acc.to_fp32(), 0x3F800000u);

  // Random normalised states against the host's RNE conversion, which differs only on ties.
  std::mt19937_64 rng(4441);
  for (int i = 0; i < 1000000; ++i) {
    const unsigned ea = 1 + static_cast<unsigned>(rng() % 188);
    int64_t ma = static_cast<int64_t>((uint64_t{1} << 38) | (rng() & ((uint64_t{1} << 38) - 1)));
    if (i % 4 == 0) ma = (ma & ~int64_t{0x7FFF}) | 0x4000;  // force ties
    if (rng() & 1) ma = -ma;
    const long double v = std::ldexp(static_cast<long double>(ma), static_cast<int>(ea) - 101);
    const float rne = static_cast<float>(v);
    uint32_t expected = host_bits(rne);
    const uint64_t mag = static_cast<uint64_t>(ma < 0 ? -ma : ma);
    if ((mag & 0x7FFF) == 0x4000 && std::fabs(static_cast<long double>(rne)) < std::fabs(v)) ++expected;
    ASSERT_EQ(CaccFp48(ea, ma).to_fp32(), expected) << std::hex << "Ea=" << ea << " Ma=" << ma;
  }
}

TEST(CaccFp48, MostNegativeMantissa) {
  // Mb = -2^37 has n0 = 0: Xb = -2^39, Eb' = 13 + 49 = 62; value -2^37 * 2^-37 = -1.
  CaccFp48 acc;
  acc.add(CmacFp16Sum{13, -(int64_t{1} << 37)});
  EXPECT_EQ(acc.exp(), 62u);
  EXPECT_EQ(acc.mant(), -(int64_t{1} << 39));
  EXPECT_EQ(acc.to_fp32(), 0xBF800000u);
  // Mb = -1 has n0 = 37: Eb' = 50 - 37 + 49 = 62, the same state.
  CaccFp48 m1;
  m1.add(CmacFp16Sum{50, -1});
  EXPECT_EQ(m1.exp(), 62u);
  EXPECT_EQ(m1.mant(), -(int64_t{1} << 39));
  EXPECT_EQ(m1.to_fp32(), 0xBF800000u);
  // -2^39 * 2^(Ea - 101) = -2^(Ea - 62): exponent field Ea + 65.
  EXPECT_EQ(CaccFp48(100, -(int64_t{1} << 39)).to_fp32(), host_bits(-0x1p38f));
  EXPECT_EQ(CaccFp48(0, -(int64_t{1} << 39)).to_fp32(), host_bits(-0x1p-62f));
}

TEST(CaccFp48, ConvolutionOfSmallIntegersIsExact) {
  // Integers 2..31 all have group exponent 4, so every cell is exact (q = 0) and the whole
  // accumulation is exact in fp32.
  std::mt19937_64 rng(4451);
  for (int trial = 0; trial < 2000; ++trial) {
    CaccFp48 acc;
    int64_t exact = 0;
    const int blocks = 1 + static_cast<int>(rng() % 20);
    for (int b = 0; b < blocks; ++b) {
      std::array<uint16_t, 16> w, d;
      for (unsigned i = 0; i < 16; ++i) {
        const int wi = (rng() % 6 == 0) ? 0 : (2 + static_cast<int>(rng() % 30)) * ((rng() & 1) ? -1 : 1);
        const int di = (rng() % 6 == 0) ? 0 : (2 + static_cast<int>(rng() % 30)) * ((rng() & 1) ? -1 : 1);
        w[i] = testref::host_float_to_half(static_cast<float>(wi));
        d[i] = testref::host_float_to_half(static_cast<float>(di));
        exact += wi * di;
      }
      acc.add(cmac_fp16_dot(w.data(), d.data(), 16));
    }
    ASSERT_EQ(acc.to_fp32(), host_bits(static_cast<float>(exact))) << trial;
  }
}

}  // namespace
}  // namespace dla::num
