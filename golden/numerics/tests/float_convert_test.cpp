// Conversions: exhaustive over all 65,536 fp16 encodings, compared with the host's IEEE
// _Float16 where NVDLA and IEEE agree; every documented difference is tested explicitly.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dla/numerics/float_convert.h"
#include "reference_float.h"

namespace dla::num {
namespace {
using testref::host_bits;
using testref::host_float;
using testref::host_float_to_half;
using testref::host_half_to_float;
using testref::round_to_format;

bool fp16_finite(uint32_t h) { return kFp16.exp(h) != kFp16.emax(); }

TEST(Fp16Widening, Fp32MatchesHostForEveryFiniteEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (!fp16_finite(h)) continue;
    ASSERT_EQ(fp16_to_fp32(static_cast<uint16_t>(h)), host_bits(host_half_to_float(static_cast<uint16_t>(h))))
        << std::hex << "h=0x" << h;
  }
}

TEST(Fp16Widening, Fp17HoldsTheExactValueOfEveryFiniteEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (!fp16_finite(h) || kFp16.is_zero(h)) continue;
    const uint32_t x = fp16_to_fp17(static_cast<uint16_t>(h));
    ASSERT_NE(kFp17.exp(x), 0u) << "fp17 has no subnormals; h=" << h << " gave " << x;
    const double want = to_double(kFp16, h), got = to_double(kFp17, x);
    ASSERT_EQ(got, want) << std::hex << "h=0x" << h;
    ASSERT_EQ(std::signbit(got), std::signbit(want)) << std::hex << "h=0x" << h;
  }
}

TEST(Fp16Widening, Fp17ThenFp32EqualsDirectFp32ForEveryNonInfEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (kFp16.is_inf_pattern(h)) continue;
    const auto hh = static_cast<uint16_t>(h);
    ASSERT_EQ(fp17_to_fp32(fp16_to_fp17(hh)), fp16_to_fp32(hh)) << std::hex << "h=0x" << h;
  }
}

// Difference from IEEE: Inf widens to the largest finite value of the wider format. The
// seed lists the resulting values: +-3.40282e+38 (SDP, fp32) and +-4292870144 (CDP/PDP
// average, fp17).
TEST(Fp16Widening, InfSaturatesToTheLargestFiniteValue) {
  EXPECT_EQ(fp16_to_fp32(0x7C00), 0x7F7FFFFFu);
  EXPECT_EQ(fp16_to_fp32(0xFC00), 0xFF7FFFFFu);
  EXPECT_NE(fp16_to_fp32(0x7C00), host_bits(host_half_to_float(0x7C00)));  // IEEE keeps Inf
  EXPECT_NEAR(host_float(fp16_to_fp32(0x7C00)), 3.40282e+38, 1e33);
  EXPECT_EQ(to_double(kFp17, fp16_to_fp17(0x7C00)), 4292870144.0);
  EXPECT_EQ(to_double(kFp17, fp16_to_fp17(0xFC00)), -4292870144.0);
}

// Difference from IEEE: the NaN payload is copied into the low mantissa bits, unshifted.
TEST(Fp16Widening, NanPayloadLandsInTheLowBitsForEveryNanEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (!kFp16.is_nan(h)) continue;
    const auto hh = static_cast<uint16_t>(h);
    const uint32_t w = fp16_to_fp32(hh);
    ASSERT_EQ(w, kFp32.pack(kFp16.sign(h), 255, kFp16.man(h))) << std::hex << h;
    ASSERT_EQ(fp16_to_fp17(hh), kFp17.pack(kFp16.sign(h), 63, kFp16.man(h))) << std::hex << h;
  }
  EXPECT_EQ(fp16_to_fp32(0x7E01), 0x7F800201u);  // sdp.md §13.3 lane 1
  // IEEE instead shifts the payload up (and quiets it).
  EXPECT_EQ(host_bits(host_half_to_float(0x7E01)) & 0x7FFFFF, 0x201u << 13);
}

TEST(Fp16Narrowing, Fp32RoundTripsEveryFiniteAndNanEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const auto hh = static_cast<uint16_t>(h);
    const uint16_t want = kFp16.is_inf_pattern(h) ? static_cast<uint16_t>(kFp16.max_finite(kFp16.sign(h))) : hh;
    ASSERT_EQ(fp32_to_fp16(fp16_to_fp32(hh)), want) << std::hex << "h=0x" << h;
    ASSERT_EQ(fp17_to_fp16(fp16_to_fp17(hh)), want) << std::hex << "h=0x" << h;
  }
}

// fp32 -> fp16 agrees with IEEE (RNE, subnormals) whenever IEEE gives a finite result.
void check_fp32_to_fp16_against_host(uint32_t x) {
  const float f = host_float(x);
  const uint16_t got = fp32_to_fp16(x);
  if (std::isnan(f)) {
    ASSERT_EQ(got, kFp16.pack(kFp32.sign(x), 31, kFp32.man(x) & 0x3FF)) << std::hex << x;
    return;
  }
  const uint16_t ieee = host_float_to_half(f);
  if (kFp16.is_inf_pattern(ieee)) {  // overflow: NVDLA saturates
    ASSERT_EQ(got, kFp16.max_finite(kFp32.sign(x))) << std::hex << x;
    ASSERT_GE(std::fabs(f), 65520.0f);
  } else {
    ASSERT_EQ(got, ieee) << std::hex << "x=0x" << x;
  }
}

TEST(Fp16Narrowing, Fp32MatchesHostOnAStrideOfAllEncodings) {
  for (uint64_t x = 0; x < 0x100000000ull; x += 4093) check_fp32_to_fp16_against_host(static_cast<uint32_t>(x));
}

TEST(Fp16Narrowing, Fp32MatchesHostAroundEveryFp16RoundingBoundary) {
  // Midpoints between neighbouring fp16 values, and one fp32 ulp either side.
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    const uint32_t lo = fp16_to_fp32(static_cast<uint16_t>(h));
    const uint32_t hi = fp16_to_fp32(static_cast<uint16_t>(h + 1));
    const float mid = (host_float(lo) + host_float(hi)) / 2;  // exact in fp32
    for (uint32_t sign : {0u, 0x80000000u})
      for (int d = -1; d <= 1; ++d)
        check_fp32_to_fp16_against_host((host_bits(mid) + static_cast<uint32_t>(d)) | sign);
  }
}

TEST(Fp16Narrowing, DocumentedExamples) {
  EXPECT_EQ(fp32_to_fp16(0x7FC00000), 0x7C00);  // NaN without low payload -> Inf pattern
  EXPECT_EQ(fp32_to_fp16(0x47AFC830), 0x7BFF);  // 90000.375 saturates (sdp §13.3)
  EXPECT_EQ(fp32_to_fp16(0x7F800000), 0x7BFF);  // Inf pattern -> max finite
  EXPECT_EQ(fp32_to_fp16(0xFF800000), 0xFBFF);
  EXPECT_EQ(fp32_to_fp16(0x3EC00003), 0x3600);  // 0.375 after RNE (sdp §13.3)
  EXPECT_EQ(fp32_to_fp16(0x40280000), 0x4140);  // 2.625
}

TEST(Fp17Narrowing, Fp32MatchesCorrectRoundingWithoutSubnormals) {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 2000000; ++i) {
    const uint32_t x = static_cast<uint32_t>(rng());
    if (kFp32.is_nan(x) || kFp32.is_inf_pattern(x)) continue;
    const double v = host_float(x);
    ASSERT_EQ(fp32_to_fp17(x), round_to_format(v, kFp17, false)) << std::hex << "x=0x" << x;
  }
  // The region around the smallest fp17 normal 2^-30, densely.
  for (uint32_t e = 80; e <= 100; ++e)
    for (uint32_t m = 0; m < (1u << 23); m += 997) {
      const uint32_t x = kFp32.pack(0, e, m);
      ASSERT_EQ(fp32_to_fp17(x), round_to_format(host_float(x), kFp17, false)) << std::hex << x;
    }
}

TEST(Fp17Narrowing, NanKeepsTheLowTenPayloadBits) {
  EXPECT_EQ(fp32_to_fp17(0x7F800201), kFp17.pack(0, 63, 0x201));
  EXPECT_EQ(fp32_to_fp17(0xFFC00000), kFp17.pack(1, 63, 0));  // becomes the Inf pattern
  EXPECT_EQ(fp32_to_fp17(0x7F800000), kFp17.max_finite(0));
}

TEST(Fp17Narrowing, Fp16MatchesCorrectRoundingForEveryFp17Encoding) {
  for (uint32_t x = 0; x < (1u << 17); ++x) {
    if (kFp17.exp(x) == 63) continue;
    if (kFp17.exp(x) == 0 && kFp17.man(x) != 0) continue;  // fp17 subnormals never occur
    ASSERT_EQ(fp17_to_fp16(x), round_to_format(to_double(kFp17, x), kFp16, true)) << std::hex << x;
  }
}

// A.5 / FRAC35: the nearest fp17 to f / 2^n.
TEST(FractionToFp17, U16MatchesCorrectRoundingForEveryInput) {
  EXPECT_EQ(u16_to_fp17(0), 0u);
  for (uint32_t f = 1; f < 0x10000; ++f)
    ASSERT_EQ(u16_to_fp17(static_cast<uint16_t>(f)), round_to_format(f / 65536.0, kFp17, false)) << f;
}

TEST(FractionToFp17, Frac35MatchesCorrectRoundingAndFlushes) {
  std::mt19937_64 rng(35);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t f = rng() >> (29 + rng() % 35);
    ASSERT_EQ(frac35_to_fp17(f), round_to_format(std::ldexp(static_cast<double>(f), -35), kFp17, false)) << f;
  }
  EXPECT_EQ(frac35_to_fp17(1), 0u);  // 2^-35 is below the fp17 normal range
  EXPECT_EQ(frac35_to_fp17(uint64_t{1} << 34), kFp17.pack(0, 30, 0));  // 0.5
  EXPECT_THROW(frac35_to_fp17(uint64_t{1} << 35), std::out_of_range);
}

TEST(Int17ToFp16, SaturatingMatchesHostBelowTheOverflowAndSaturatesAbove) {
  for (int32_t v = -65536; v <= 65535; ++v) {
    const uint16_t ieee = host_float_to_half(static_cast<float>(v));
    const uint16_t got = int17_to_fp16_saturating(v);
    if (std::abs(v) >= 65520) {
      ASSERT_EQ(got, v < 0 ? 0xFBFF : 0x7BFF) << v;
      ASSERT_EQ(int17_to_fp16_ieee(v), ieee) << v;  // the pixel path gives Inf like IEEE
      ASSERT_TRUE(kFp16.is_inf_pattern(ieee)) << v;
    } else {
      ASSERT_EQ(got, ieee) << v;
      ASSERT_EQ(int17_to_fp16_ieee(v), ieee) << v;
    }
  }
  EXPECT_EQ(int17_to_fp16_saturating(2049), host_float_to_half(2048.0f));
  EXPECT_EQ(int17_to_fp16_saturating(4097), host_float_to_half(4096.0f));
  EXPECT_THROW(int17_to_fp16_saturating(65536), std::out_of_range);
  EXPECT_THROW(int17_to_fp16_ieee(-65537), std::out_of_range);
}

TEST(Fp16ToInt16, RoundsHalfAwayFromZeroAndSaturatesForEveryEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const auto hh = static_cast<uint16_t>(h);
    int want;
    if (kFp16.is_nan(h)) {
      want = -32768;
    } else {
      const double v = to_double(kFp16, h);  // +-inf for the Inf pattern
      const double r = std::round(v);        // half away from zero
      want = r > 32767 ? 32767 : (r < -32768 ? -32768 : static_cast<int>(r));
    }
    ASSERT_EQ(fp16_to_int16(hh), want) << std::hex << "h=0x" << h;
  }
}

}  // namespace
}  // namespace dla::num
