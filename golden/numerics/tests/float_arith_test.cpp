// Arithmetic: agreement with correctly rounded results where NVDLA and IEEE agree, and
// every documented non-IEEE behaviour as an explicit case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "reference_float.h"

namespace dla::num {
namespace {
using testref::host_bits;
using testref::host_float;
using testref::host_half_to_float;
using testref::round_to_format;

// Random normal pattern of format f with exponent in [lo, hi].
uint32_t random_normal(std::mt19937_64& rng, FloatFormat f, uint32_t lo, uint32_t hi) {
  const uint32_t e = lo + static_cast<uint32_t>(rng() % (hi - lo + 1));
  return f.pack(static_cast<uint32_t>(rng() & 1), e, static_cast<uint32_t>(rng()) & f.man_mask());
}

TEST(Add32, MatchesIeeeForNormalOperandsAndResults) {
  std::mt19937_64 rng(32);
  int compared = 0;
  for (int i = 0; i < 3000000; ++i) {
    const uint32_t a = random_normal(rng, kFp32, 2, 253);
    uint32_t b = random_normal(rng, kFp32, 2, 253);
    if (i % 2) b = kFp32.pack(kFp32.sign(b), std::clamp<uint32_t>(kFp32.exp(a) + static_cast<uint32_t>(rng() % 60) - 30, 2, 253), kFp32.man(b));
    const float r = host_float(a) + host_float(b);
    if (r == 0.0f || std::fabs(r) < 0x1p-125f || std::isinf(r)) continue;
    ++compared;
    ASSERT_EQ(add32(a, b), host_bits(r)) << std::hex << "a=0x" << a << " b=0x" << b;
  }
  EXPECT_GT(compared, 2000000);
}

TEST(Mul32, MatchesIeeeForNormalOperandsAndResults) {
  std::mt19937_64 rng(3232);
  for (int i = 0; i < 3000000; ++i) {
    const uint32_t a = random_normal(rng, kFp32, 64, 190);
    const uint32_t b = random_normal(rng, kFp32, 64, 190);
    const float r = host_float(a) * host_float(b);
    if (std::fabs(r) < 0x1p-125f || std::isinf(r)) continue;
    ASSERT_EQ(mul32(a, b), host_bits(r)) << std::hex << "a=0x" << a << " b=0x" << b;
  }
}

// fp17 values and their exact sums/products fit a double, so the reference is exact.
TEST(Fp17Arith, AddAndMulMatchCorrectRoundingForNormalResults) {
  std::mt19937_64 rng(1717);
  for (int i = 0; i < 2000000; ++i) {
    const uint32_t a = random_normal(rng, kFp17, 1, 62);
    const uint32_t b = random_normal(rng, kFp17, 1, 62);
    const double va = to_double(kFp17, a), vb = to_double(kFp17, b);
    const double sum = va + vb, prod = va * vb;
    if (sum != 0.0 && std::fabs(sum) >= 0x1p-29) {  // normal, away from the flush boundary
      ASSERT_EQ(add17(a, b), round_to_format(sum, kFp17, false)) << std::hex << a << " + " << b;
    }
    if (std::fabs(prod) >= 0x1p-29) {
      ASSERT_EQ(mul17(a, b), round_to_format(prod, kFp17, false)) << std::hex << a << " * " << b;
    }
  }
}

// Overflow saturates to the largest finite value instead of Inf (both operations).
TEST(NvdlaFloatPolicy, OverflowSaturates) {
  EXPECT_EQ(add32(0x7F7FFFFF, 0x7F7FFFFF), 0x7F7FFFFFu);
  EXPECT_EQ(add32(0xFF7FFFFF, 0xFF000000), 0xFF7FFFFFu);
  EXPECT_EQ(mul32(0x7F000000, 0x40000000), 0x7F7FFFFFu);  // 2^127 * 2 would be Inf
  EXPECT_EQ(mul32(0x7F000000, 0xC1000000), 0xFF7FFFFFu);
  EXPECT_EQ(mul17(kFp17.max_finite(0), kFp17.pack(0, 32, 0)), kFp17.max_finite(0));
  EXPECT_TRUE(std::isinf(host_float(0x7F7FFFFF) + host_float(0x7F7FFFFF)));  // IEEE differs
}

// Exact cancellation: sign of the operand chosen as larger (ties pick a). IEEE gives +0.
TEST(NvdlaFloatPolicy, CancellationKeepsTheFirstOperandsSign) {
  EXPECT_EQ(add32(0x3F800000, 0xBF800000), 0x00000000u);  //  1 + -1 = +0
  EXPECT_EQ(add32(0xBF800000, 0x3F800000), 0x80000000u);  // -1 +  1 = -0
  EXPECT_EQ(host_bits(host_float(0xBF800000) + host_float(0x3F800000)), 0u);
  EXPECT_EQ(add32(0x00000000, 0x80000000), 0x00000000u);
  EXPECT_EQ(add32(0x80000000, 0x00000000), 0x80000000u);
}

// Results below the smallest normal flush to a signed zero (IEEE would give a subnormal).
TEST(NvdlaFloatPolicy, SubnormalResultsFlushToZero) {
  EXPECT_EQ(add32(0x00C00000, 0x80800000), 0x00000000u);  // 1.5*2^-126 - 2^-126
  EXPECT_NE(host_bits(host_float(0x00C00000) + host_float(0x80800000)), 0u);
  EXPECT_EQ(mul32(0x1C800000, 0x1C800000), 0x00000000u);  // 2^-70 * 2^-70
  EXPECT_EQ(mul32(0x1C800000, 0x9C800000), 0x80000000u);
  EXPECT_NE(host_bits(host_float(0x1C800000) * host_float(0x1C800000)), 0u);
}

// A subnormal operand is read as 1.m * 2^(1-bias-1), i.e. with its hidden bit set
// (sdp.md §15 item 10); IEEE reads 0.m * 2^(1-bias).
TEST(NvdlaFloatPolicy, SubnormalOperandsGetAHiddenBit) {
  // (1 + 2^-23) * 2^-127 + 2^-126 = 1.5 * 2^-126 + 2^-150 -> 1.5 * 2^-126
  EXPECT_EQ(add32(0x00000001, 0x00800000), 0x00C00000u);
  EXPECT_EQ(host_bits(host_float(0x00000001) + host_float(0x00800000)), 0x00800001u);
}

// The Inf pattern is a number with exponent EMAX: it survives when no carry occurs, a carry
// saturates it, and Inf - Inf cancels to zero (IEEE: NaN).
TEST(NvdlaFloatPolicy, InfPatternIsAnOrdinaryNumber) {
  EXPECT_EQ(add32(0x7F800000, 0x3F800000), 0x7F800000u);
  EXPECT_EQ(add32(0x7F800000, 0x7F800000), 0x7F7FFFFFu);
  EXPECT_EQ(add32(0x7F800000, 0xFF800000), 0x00000000u);
  EXPECT_TRUE(std::isnan(host_float(0x7F800000) + host_float(0xFF800000)));
  EXPECT_EQ(mul32(0x7F800000, 0x3F800000), 0x7F7FFFFFu);  // e_a + e_b >= EMAX + bias
  EXPECT_EQ(mul32(0x7F800000, 0x00000000), 0x00000000u);  // IEEE: NaN
}

// NaNs come back bit-identical, first operand first (no quieting).
TEST(NvdlaFloatPolicy, NanOperandIsReturnedUnchangedFirstOperandFirst) {
  const uint32_t n1 = 0x7F800201, n2 = 0xFFC00005;
  EXPECT_EQ(add32(n1, n2), n1);
  EXPECT_EQ(add32(n2, n1), n2);
  EXPECT_EQ(add32(0x3F800000, n1), n1);
  EXPECT_EQ(mul32(0x00000000, n2), n2);
  EXPECT_EQ(mul17(kFp17.pack(0, 63, 1), kFp17.pack(1, 63, 2)), kFp17.pack(0, 63, 1));
  // sub flips b's sign bit before the add, so a NaN subtrahend comes back negated.
  EXPECT_EQ(sub32(0x3F800000, n1), kFp32.negate(n1));
}

TEST(MaxMin16, MatchesHostOrderingOnRandomPairs) {
  std::mt19937_64 rng(16);
  for (int i = 0; i < 2000000; ++i) {
    const auto a = static_cast<uint16_t>(rng()), b = static_cast<uint16_t>(rng());
    if (kFp16.is_nan(a) || kFp16.is_nan(b)) continue;
    const float fa = host_half_to_float(a), fb = host_half_to_float(b);
    if (fa == fb) continue;  // +-0 pairs and identical values: see the dedicated tests
    ASSERT_EQ(host_half_to_float(max16(a, b)), std::max(fa, fb)) << std::hex << a << " " << b;
    ASSERT_EQ(host_half_to_float(min16(a, b)), std::min(fa, fb)) << std::hex << a << " " << b;
  }
}

TEST(MaxMin16, SignedZeroAndNanRules) {
  EXPECT_EQ(max16(0x0000, 0x8000), 0x0000);
  EXPECT_EQ(max16(0x8000, 0x0000), 0x0000);
  EXPECT_EQ(min16(0x0000, 0x8000), 0x8000);
  EXPECT_EQ(min16(0x8000, 0x0000), 0x8000);
  EXPECT_EQ(max16(0x7E01, 0x7C00), 0x7E01);
  EXPECT_EQ(max16(0x3C00, 0x7E01), 0x7E01);
  EXPECT_EQ(min16(0xFE02, 0x7E01), 0xFE02);
  EXPECT_EQ(max16(0x7C00, 0x7BFF), 0x7C00);  // Inf is the largest magnitude
  EXPECT_EQ(min16(0xFC00, 0xFBFF), 0xFC00);
  // SDP FMAX on fp32: the same ordering.
  EXPECT_EQ(fmax(kFp32, 0x80000000, 0x00000000), 0x00000000u);
  EXPECT_EQ(fmin(kFp32, 0xBF800000, 0xC0000000), 0xC0000000u);
}

TEST(SdpFloatOps, ReluAndEquality) {
  EXPECT_EQ(frelu(kFp32, 0x80000000), 0x00000000u);  // -0 -> +0
  EXPECT_EQ(frelu(kFp32, 0xBF800000), 0x00000000u);
  EXPECT_EQ(frelu(kFp32, 0xFF800001), 0xFF800001u);  // NaN kept even when negative
  EXPECT_EQ(frelu(kFp32, 0x3F800000), 0x3F800000u);
  EXPECT_FALSE(feq(0x00000000, 0x80000000));
  EXPECT_TRUE(feq(0x7FC00001, 0x7FC00001));
}

// conv.md §6.3.1: the Winograd PRA adder stops exponent growth at 61; App. A.1 at 62.
TEST(WinogradPraAdder, SaturatesOneBinadeEarlierThanAdd17) {
  const uint32_t two30 = kFp17.pack(0, 61, 0);  // 2^30
  EXPECT_EQ(add17(two30, two30), kFp17.pack(0, 62, 0));
  EXPECT_EQ(add17_winograd_pra(two30, two30), kFp17.max_finite(0));
  // Rounding carry-out from exponent 61.
  const uint32_t almost = kFp17.pack(1, 61, 0x3FF);
  const uint32_t tiny = kFp17.pack(1, 50, 0);  // 2^19: adds exactly half an ulp
  EXPECT_EQ(add17(almost, tiny), kFp17.pack(1, 62, 0));
  EXPECT_EQ(add17_winograd_pra(almost, tiny), kFp17.max_finite(1));
  // Below the ceiling both adders agree.
  std::mt19937_64 rng(61);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t a = random_normal(rng, kFp17, 1, 59), b = random_normal(rng, kFp17, 1, 59);
    ASSERT_EQ(add17_winograd_pra(a, b), add17(a, b)) << std::hex << a << " " << b;
    ASSERT_EQ(sub17_winograd_pra(a, b), add17(a, kFp17.negate(b)));
  }
}

}  // namespace
}  // namespace dla::num
