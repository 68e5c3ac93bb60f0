// SDP per-element stages (sdp.md §6, §7, §9) on hand-made configurations.
#include <gtest/gtest.h>

#include <cstdint>

#include "../src/sdp_datapath.h"

namespace dla::golden {
namespace {

uint32_t i32(int64_t v) { return static_cast<uint32_t>(static_cast<int32_t>(v)); }
int32_t s32(uint32_t v) { return static_cast<int32_t>(v); }

struct GoldenSdpStage : ::testing::Test {
  SdpLayerConfig l;
  LutTables tables;
  SdpXStage x;
  void SetUp() override {
    x.bypass = false;
    x.alu_bypass = false;
    x.mul_bypass = true;
    x.relu_bypass = true;
    l.cvt_scale = 1;
  }
  int32_t xs(int64_t in, uint16_t mem_alu = 0, uint16_t mem_mul = 0) {
    const SdpDatapath dp(l, tables);
    return s32(dp.x_stage(x, i32(in), mem_alu, mem_mul));
  }
};

TEST_F(GoldenSdpStage, XStageAluAlgorithmsWithSaturatingOperandShift) {
  x.alu_operand = 0x4000;  // 16384
  x.alu_shift = 20;        // 2^34: LSH_32 saturates to INT32_MAX
  x.alu_algo = SdpAluAlgo::Max;
  EXPECT_EQ(xs(-5), INT32_MAX);
  x.alu_algo = SdpAluAlgo::Min;
  EXPECT_EQ(xs(-5), -5);
  x.alu_shift = 1;
  x.alu_algo = SdpAluAlgo::Sum;
  EXPECT_EQ(xs(1), 32769);
  x.alu_algo = SdpAluAlgo::Eql;  // code 3 acts as SUM in integer modes (§15 item 9)
  EXPECT_EQ(xs(1), 32769);
  x.alu_from_mem = true;  // memory operand replaces the register one
  EXPECT_EQ(xs(1, 0xffff), -1);
}

TEST_F(GoldenSdpStage, XStageSumIs33BitsBeforeTheRoundingShift) {
  x.alu_algo = SdpAluAlgo::Sum;
  x.alu_operand = 0x7fff;
  x.alu_shift = 16;  // 0x7fff0000
  x.mul_shift = 1;   // (INT32_MAX + 0x7fff0000) / 2 fits again
  EXPECT_EQ(xs(INT32_MAX), static_cast<int32_t>((int64_t{INT32_MAX} + 0x7fff0000 + 1) / 2));
}

TEST_F(GoldenSdpStage, XStageMulBypassStillShiftsAndRounds) {
  x.alu_bypass = true;
  x.mul_shift = 2;
  EXPECT_EQ(xs(10), 3);    // 2.5 -> 3
  EXPECT_EQ(xs(-10), -3);  // -2.5 -> -3 (half away from zero)
  EXPECT_EQ(xs(-9), -2);   // -2.25
  x.mul_shift = 63;
  EXPECT_EQ(xs(INT32_MIN), 0);
}

TEST_F(GoldenSdpStage, XStageMultiplyPreluAndRelu) {
  x.alu_bypass = true;
  x.mul_bypass = false;
  x.mul_operand = static_cast<uint16_t>(-3);
  x.mul_shift = 1;
  EXPECT_EQ(xs(5), -8);  // -7.5 -> -8
  x.prelu = true;        // non-negative: passes unshifted
  EXPECT_EQ(xs(5), 5);
  EXPECT_EQ(xs(-5), 8);  // negative: multiplied and shifted
  x.relu_bypass = false;
  x.prelu = false;
  EXPECT_EQ(xs(5), 0);
  x.mul_operand = 0x7fff;
  x.mul_shift = 0;
  x.relu_bypass = true;
  EXPECT_EQ(xs(INT32_MAX), INT32_MAX);  // RSH_32 saturates the 49-bit product
}

TEST_F(GoldenSdpStage, XStagePreluPassWrapsThe33BitAluResult) {
  x.alu_algo = SdpAluAlgo::Sum;
  x.alu_operand = 1;
  x.mul_bypass = false;
  x.prelu = true;
  EXPECT_EQ(xs(INT32_MAX), INT32_MIN);  // 2^31 wraps (no saturation on the PReLU pass)
}

// sdp.md §15 item 9: FP ALU code 3 gives the integer 0/1.
TEST_F(GoldenSdpStage, Open9FpAluCode3GivesIntegerZeroOrOne) {
  l.proc = Precision::Fp16;
  x.alu_algo = SdpAluAlgo::Eql;
  x.alu_operand = 0x3c00;  // 1.0
  EXPECT_EQ(static_cast<uint32_t>(xs(0x3f800000)), 0u);
  EXPECT_EQ(static_cast<uint32_t>(xs(0x40000000)), 1u);
}

TEST_F(GoldenSdpStage, FpXStageNanFlushOfOperandsAndFrelu) {
  l.proc = Precision::Fp16;
  x.alu_algo = SdpAluAlgo::Sum;
  x.alu_operand = 0x7e01;  // NaN operand
  EXPECT_EQ(static_cast<uint32_t>(xs(0x3f800000)), 0x7f800201u);  // NaN propagates, payload low
  l.nan_to_zero = true;
  EXPECT_EQ(static_cast<uint32_t>(xs(0x3f800000)), 0x3f800000u);  // flushed to +0
  x.alu_bypass = true;
  x.relu_bypass = false;
  EXPECT_EQ(static_cast<uint32_t>(xs(0x80000000)), 0u);  // FRELU(-0) = +0
}

TEST_F(GoldenSdpStage, EwConverterMulAluAndEql) {
  l.ew.bypass = false;
  l.ew.alu_bypass = false;
  l.ew.mul_bypass = false;
  l.ew.lut_bypass = true;
  l.ew.mul_from_mem = true;
  l.ew.mul_cvt = {false, -4, 3, 1};  // (e + 4) * 3 / 2
  l.ew.alu_operand = i32(INT32_MAX);
  l.ew.alu_algo = SdpAluAlgo::Sum;
  l.ew.truncate = 3;
  const SdpDatapath dp(l, tables);
  EXPECT_EQ(s32(dp.ew_operand(l.ew.mul_cvt, 1)), 8);  // 7.5 -> 8
  SdpElementResult r;
  // m = RSH(10 * 8, 3) = 10; 10 + INT32_MAX saturates
  EXPECT_EQ(s32(dp.y_stage(10, 0, 1, r)), INT32_MAX);
  l.ew.alu_algo = SdpAluAlgo::Eql;
  l.ew.alu_operand = 10;
  EXPECT_EQ(s32(SdpDatapath(l, tables).y_stage(10, 0, 1, r)), 0);
  EXPECT_EQ(s32(SdpDatapath(l, tables).y_stage(11, 0, 1, r)), 1);
  l.ew.mul_cvt.bypass = true;  // bypassed converter: the sign-extended operand
  EXPECT_EQ(s32(SdpDatapath(l, tables).ew_operand(l.ew.mul_cvt, 0x8000)), -32768);
  l.ew.prelu = true;
  l.ew.alu_bypass = true;
  EXPECT_EQ(s32(SdpDatapath(l, tables).y_stage(7, 0, 3, r)), 7);
  EXPECT_EQ(s32(SdpDatapath(l, tables).y_stage(-16, 0, 3, r)), -6);  // -48/8
}

TEST_F(GoldenSdpStage, FpEwRegisterOperandsAreNotNanFlushedMemoryOperandsAre) {
  l.proc = Precision::Fp16;
  l.nan_to_zero = true;
  l.ew.bypass = false;
  l.ew.mul_bypass = true;
  l.ew.lut_bypass = true;
  l.ew.alu_bypass = false;
  l.ew.alu_algo = SdpAluAlgo::Max;
  l.ew.alu_operand = 0x7fc00000;
  SdpElementResult r;
  EXPECT_EQ(SdpDatapath(l, tables).y_stage(0x3f800000, 0, 0, r), 0x7fc00000u);
  l.ew.alu_from_mem = true;
  EXPECT_EQ(SdpDatapath(l, tables).y_stage(0x3f800000, 0x7e00, 0, r), 0x3f800000u);
}

struct GoldenSdpConverter : ::testing::Test {
  SdpLayerConfig l;
  LutTables tables;
  SdpElementResult c(int64_t z) {
    SdpElementResult r;
    SdpDatapath(l, tables).c_stage(i32(z), r);
    return r;
  }
};

TEST_F(GoldenSdpConverter, IntegerOutputsAndTheV1SaturationFlag) {
  l.cvt_scale = 1;
  l.out = Precision::Int16;
  EXPECT_EQ(c(40000).out, 0x7fff);
  EXPECT_FALSE(c(40000).cvt_saturated);  // int16 clamping is not flagged
  // sdp.md §15 item 3: flag = floor >= 65537 or <= -65538 (v1 HLS rule)
  EXPECT_FALSE(c(65536).cvt_saturated);
  EXPECT_TRUE(c(65537).cvt_saturated);
  EXPECT_FALSE(c(-65537).cvt_saturated);
  EXPECT_TRUE(c(-65538).cvt_saturated);
  l.out = Precision::Int8;
  EXPECT_EQ(c(-200).out, 0x80);
  l.cvt_offset = -84;
  l.cvt_scale = 3;
  l.cvt_shift = 6;
  EXPECT_EQ(c(-7284).out, 0x80);  // §13.1 channel 0
  EXPECT_EQ(c(1500).out, 0x4a);
  l.cvt_offset = 0;
  l.cvt_scale = 1;
  l.cvt_shift = 1;
  EXPECT_EQ(c(5).out, 3);                        // 2.5 -> 3
  EXPECT_EQ(c(-5).out, static_cast<uint8_t>(-3));  // -2.5 -> -3
  l.out = Precision::Fp16;
  l.cvt_shift = 0;
  EXPECT_EQ(c(65535).out, 0x7bff);  // INT17 -> FP16 saturates, never Inf
  EXPECT_EQ(c(2049).out, 0x6800);   // RNE to 2048
}

TEST_F(GoldenSdpConverter, FpPathNarrowsAndConvertsToInt16) {
  l.proc = Precision::Fp16;
  l.out = Precision::Fp16;
  EXPECT_EQ(c(0x47afc830).out, 0x7bff);  // 90000.375 saturates
  EXPECT_EQ(c(0x7fc00000).out, 0x7c00);  // NaN with zero low bits leaves as the Inf pattern
  EXPECT_EQ(c(0x33800000).out, 0x0001);  // 2^-24: fp16 denormal
  l.out = Precision::Int16;
  EXPECT_EQ(c(0x3fc00000).out, 2);       // 1.5 -> 2
  EXPECT_EQ(c(0xbfc00000).out, static_cast<uint16_t>(-2));
  EXPECT_EQ(c(0x7fc00001).out, 0x8000);  // NaN -> -32768
  EXPECT_FALSE(c(0x47afc830).cvt_saturated);
}

TEST_F(GoldenSdpConverter, EqlModePassesTheLow16BitsThrough) {
  l.ew.bypass = false;
  l.ew.alu_bypass = false;
  l.ew.alu_algo = SdpAluAlgo::Eql;
  l.cvt_scale = 5;
  l.out = Precision::Int8;
  EXPECT_EQ(c(1).out, 1);
}

}  // namespace
}  // namespace dla::golden
