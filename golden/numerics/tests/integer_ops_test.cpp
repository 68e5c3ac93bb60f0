#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dla/numerics/integer_ops.h"
#include "dla/numerics/precision_convert.h"

namespace dla::num {
namespace {

TEST(IntegerOps, SignExtendAndWrap) {
  EXPECT_EQ(sx(0xFF, 8), -1);
  EXPECT_EQ(sx(0x80, 8), -128);
  EXPECT_EQ(sx(0x7F, 8), 127);
  EXPECT_EQ(sx(0x7FFFD, 19), -3);  // PDP pad value pattern (pdp §7.1)
  EXPECT_EQ(wrap(1024, 11), -1024);
  EXPECT_EQ(wrap(-1, 64), -1);
  EXPECT_THROW(sx(0, 0), std::invalid_argument);
  EXPECT_THROW(sat(0, 65), std::invalid_argument);
}

TEST(IntegerOps, Saturate) {
  EXPECT_EQ(sat(128, 8), 127);
  EXPECT_EQ(sat(-129, 8), -128);
  EXPECT_EQ(sat(-128, 8), -128);
  EXPECT_EQ(sat(70000, 17), 65535);
  EXPECT_EQ(sat(-70000, 17), -65536);
  EXPECT_TRUE(fits_signed(-65536, 17));
  EXPECT_FALSE(fits_signed(65536, 17));
}

TEST(IntegerOps, RoundHalfAwayFromZeroSpecExamples) {
  EXPECT_EQ(rha(5, 1), 3);
  EXPECT_EQ(rha(-5, 1), -3);
  EXPECT_EQ(rha(-3, 2), -1);
  EXPECT_EQ(rha(-6, 2), -2);
  EXPECT_EQ(rha(7, 0), 7);
  EXPECT_EQ(rha(-1, 70), 0);
}

// The bit formula (SDP RSH) against the definition of pdp §0.3 written with division.
TEST(IntegerOps, RoundHalfAwayFromZeroMatchesDefinition) {
  std::mt19937_64 rng(0xA5);
  for (int i = 0; i < 1000000; ++i) {
    const int64_t v = static_cast<int64_t>(rng() >> (rng() % 64)) * ((rng() & 1) ? -1 : 1) / 2;
    const unsigned s = 1 + static_cast<unsigned>(rng() % 40);
    const int64_t half = int64_t{1} << (s - 1), den = int64_t{1} << s;
    if (std::llabs(v) > (int64_t{1} << 61)) continue;
    const auto fl = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
    const int64_t want = v >= 0 ? fl(v + half, den) : -fl(-v + half, den);
    ASSERT_EQ(rha(v, s), want) << v << " >> " << s;
  }
}

TEST(IntegerOps, ShiftsWithSaturation) {
  EXPECT_EQ(lsh_sat(-25, 2, 32), -100);
  EXPECT_EQ(lsh_sat(1, 40, 32), 2147483647);
  EXPECT_EQ(lsh_sat(-1, 31, 32), -2147483648LL);
  EXPECT_EQ(lsh_sat(-1, 32, 32), -2147483648LL);
  EXPECT_EQ(lsh_sat(-3, 30, 32), -2147483648LL);
  EXPECT_EQ(lsh_sat(1, 30, 32), 1 << 30);
  EXPECT_EQ(rsh_sat(266544, 5, 32), 8330);
  EXPECT_EQ(srs_sat(-6012, 2, 32), -1503);
  EXPECT_EQ(srs_sat(-6012, -2, 32), -24048);
  EXPECT_EQ(floor_shift(-5, 1), -3);
  EXPECT_EQ(floor_shift(-5, 80), -1);
}

// pdp §1.7: RND equals rha(P, 16) when it fits, and wraps otherwise.
TEST(PdpRound, MatchesRhaInRangeAndWrapsOutside) {
  std::mt19937_64 rng(0x16);
  for (int i = 0; i < 200000; ++i) {
    const int64_t p = static_cast<int64_t>(rng() % (1u << 24)) - (1 << 23);
    const int64_t r = rha(p, 16);
    if (fits_signed(r, 8)) {
      ASSERT_EQ(pdp_round_narrow(p, 8), r) << p;
    }
  }
  EXPECT_EQ(pdp_round_narrow(128 * 65536 - 0x8000, 8), -128);  // rounds to +128 -> wraps
  EXPECT_EQ(pdp_round_narrow(-163840, 8), -3);                  // -2.5 -> -3 (pdp §7.1)
  EXPECT_EQ(pdp_round_narrow(1024 * 65536, 11), 0);             // width stage loses bit 10
  EXPECT_EQ(pdp_round_narrow(-32768, 8), -1);                   // -0.5 -> -1
}

TEST(OffsetScaleShift, CdpInputConverterInt8) {
  const OffsetScaleShift icvt{2, 3, 1, 9};
  EXPECT_EQ(icvt(20), 27);
  EXPECT_EQ(icvt(-7), -14);  // -13.5 -> -14
  EXPECT_EQ(icvt(45), 65);   // 64.5 -> 65
  EXPECT_EQ(icvt(-90), -138);
  const OffsetScaleShift big{0, 30000, 0, 9};
  EXPECT_EQ(big(100), 255);
  const OffsetScaleShift huge{0, int64_t{1} << 40, 0, 32};
  EXPECT_THROW(huge(int64_t{1} << 30), std::overflow_error);
}

TEST(PrecisionConvert, SdpInt8Int16Equations) {
  const SdpOutputConverter cvt{-84, 3, 6};
  EXPECT_EQ(cvt.to_int8(-7284), -128);  // sdp §13.1 channel 0: -338 clamps
  EXPECT_FALSE(cvt.saturated(-7284));   // ... and is not flagged
  EXPECT_EQ(cvt.to_int8(1500), 74);
  EXPECT_EQ(cvt.to_int16(-7284), -338);
  const SdpOutputConverter wide{0, 1, 0};
  EXPECT_EQ(wide.to_int16(40000), 32767);
  EXPECT_EQ(wide.to_int17(40000), 40000);
  EXPECT_EQ(wide.to_fp16(65535), 0x7BFF);
  EXPECT_TRUE(wide.saturated(65537));
  EXPECT_FALSE(wide.saturated(65536));
}

// The two SDP saturation-flag rules (docs/sdp.md): v1 flags a floor more than one step outside
// the 17-bit range; nv_small flags a rounded value above it or a floor below it.
TEST(SdpSaturationFlag, MarginAndRangeRulesDifferAtTheEdges) {
  EXPECT_FALSE(sdp_cvt_saturation_flag(65536, 0));  // clamped to 65535, within one step
  EXPECT_TRUE(sdp_cvt_saturation_flag_range(65536, 0));
  EXPECT_FALSE(sdp_cvt_saturation_flag_range(65535, 0));
  EXPECT_TRUE(sdp_cvt_saturation_flag(65537, 0));
  EXPECT_TRUE(sdp_cvt_saturation_flag_range(131071, 1));   // 65535.5 rounds to 65536
  EXPECT_FALSE(sdp_cvt_saturation_flag_range(131070, 1));  // 65535 exactly
  EXPECT_FALSE(sdp_cvt_saturation_flag_range(-65536, 0));
  EXPECT_TRUE(sdp_cvt_saturation_flag_range(-65537, 0));
  EXPECT_FALSE(sdp_cvt_saturation_flag(-65537, 0));
  // -65536.25: floor -65537 flags although the value rounds back to -65536
  EXPECT_TRUE(sdp_cvt_saturation_flag_range(-262145, 2));
  EXPECT_FALSE(sdp_cvt_saturation_flag_range(-131071, 1));  // -65535.5: floor -65536
  EXPECT_FALSE(sdp_cvt_saturation_flag_range(int64_t{1} << 47, 63));
}

}  // namespace
}  // namespace dla::num
