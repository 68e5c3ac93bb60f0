// sdp.md §13: the three worked examples, run through the register-level golden model.
#include <gtest/gtest.h>

#include "golden_sdp_harness.h"

namespace dla {
namespace {

using test::le16;
using test::SdpHarness;

constexpr uint64_t kSrc = 0x80000000, kDst = 0x80100000, kBn = 0x80200000;

// §13.1: INT8 BS (ALU shift, MUL, ReLU) + BN (per-kernel memory operands) + CVT.
TEST(GoldenSdpExamples, Int8BsBnCvt) {
  SdpHarness t;
  t.basic_layer(1, 1, 2, 0x00, 0x00);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.rdma("D_NRDMA_CFG", 0x2C);
  t.rdma("D_BN_BASE_ADDR_LOW", static_cast<uint32_t>(kBn));
  t.sdp("D_DP_BS_CFG", 0x08);
  t.sdp("D_DP_BS_ALU_CFG", 0x0200);
  t.sdp("D_DP_BS_ALU_SRC_VALUE", 0xFFE7);
  t.sdp("D_DP_BS_MUL_CFG", 0x0500);
  t.sdp("D_DP_BS_MUL_SRC_VALUE", 0xFB2E);
  t.sdp("D_DP_BN_CFG", 0x48);
  t.sdp("D_DP_BN_ALU_CFG", 0x0101);
  t.sdp("D_DP_BN_MUL_CFG", 0x0301);
  t.sdp("D_CVT_OFFSET", 0xFFFFFFAC);
  t.sdp("D_CVT_SCALE", 3);
  t.sdp("D_CVT_SHIFT", 6);
  t.sdp("D_PERF_ENABLE", 0x4);
  std::vector<uint8_t> in(32, 0);
  in[0] = 0x8C;
  in[1] = 0x7F;
  t.load(kSrc, in);
  std::vector<uint8_t> bn(128, 0);
  const uint8_t ops[] = {0xFD, 0xFF, 0xF9, 0xFF, 0x14, 0x00, 0x2C, 0x01};
  std::copy(std::begin(ops), std::end(ops), bn.begin());
  t.load(kBn, bn);
  t.run();
  EXPECT_EQ(t.m.intr_status(), 1u);
  std::vector<uint8_t> want(32, 0x04);
  want[0] = 0x80;
  want[1] = 0x4A;
  EXPECT_EQ(t.mem(kDst, 32), want);
  EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 0u);  // ch0 clamped by sat_8 only: not counted
  EXPECT_TRUE(t.m.warnings().empty()) << t.m.warnings().front();
}

// §13.2: INT16 LUT, LO linear and LE exponent hits, an underflow, pad lanes; counters.
class GoldenSdpLutExample : public ::testing::Test {
 protected:
  void program(SdpHarness& t, uint32_t lut_cfg) {
    t.basic_layer(1, 1, 3, 0x54, 0x05);
    t.src(kSrc, 0, 32);
    t.dst(kDst, 0, 32);
    t.sdp("D_DP_EW_CFG", 0x12);
    t.sdp("S_LUT_CFG", lut_cfg);
    t.sdp("S_LUT_INFO", 0x00040002);
    t.sdp("S_LUT_LE_START", 0);
    t.sdp("S_LUT_LE_END", 0x7FFFFFFF);
    t.sdp("S_LUT_LO_START", 0xFFFFFC18);
    t.sdp("S_LUT_LO_END", 0x00000C18);
    t.sdp("S_LUT_LE_SLOPE_SCALE", 3);
    t.sdp("S_LUT_LE_SLOPE_SHIFT", 2);
    t.sdp("D_PERF_ENABLE", 0x2);
    std::vector<uint16_t> le(65, 0), lo(257, 0);
    le[0] = 10;
    le[8] = 500;
    le[9] = 900;
    lo[62] = static_cast<uint16_t>(-40);
    lo[63] = static_cast<uint16_t>(-8);
    lo[139] = 1000;
    lo[140] = 1013;
    t.program_lut(0, le);
    t.program_lut(1, lo);
    std::vector<uint8_t> in(32, 0);
    const uint8_t v[] = {0xD2, 0x04, 0x30, 0xF8, 0x02, 0x00};
    std::copy(std::begin(v), std::end(v), in.begin());
    t.load(kSrc, in);
    t.run();
  }
};

TEST_F(GoldenSdpLutExample, HybridPriorityLo) {
  SdpHarness t;
  program(t, 0x60);
  std::vector<uint16_t> want(16, static_cast<uint16_t>(-24));
  want[0] = 1008;
  want[1] = static_cast<uint16_t>(-1493);
  want[2] = static_cast<uint16_t>(-20);
  EXPECT_EQ(t.mem(kDst, 32), le16(want));
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_UFLOW"), 1u);
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_OFLOW"), 0u);
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_HYBRID"), 15u);
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_LE_HIT"), 1u);
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_LO_HIT"), 15u);
}

TEST_F(GoldenSdpLutExample, HybridPriorityLeGivesTheExponentInterpolation) {
  SdpHarness t;
  program(t, 0x20);
  EXPECT_EQ(t.mem(kDst, 2), le16({582}));
}

// §13.3: FP16 with a NaN, an Inf, a denormal and an overflow.
void fp16_example(SdpHarness& t, bool nan_to_zero) {
  t.basic_layer(1, 1, 6, 0xA8, 0x0A);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.rdma("D_PERF_ENABLE", 0x02);
  t.sdp("D_PERF_ENABLE", 0x0C);
  t.sdp("D_FEATURE_MODE_CFG", nan_to_zero ? 0x08 : 0x00);
  t.sdp("D_DP_BS_CFG", 0x08);
  t.sdp("D_DP_BS_ALU_CFG", 0);
  t.sdp("D_DP_BS_ALU_SRC_VALUE", 0x3400);
  t.sdp("D_DP_BS_MUL_CFG", 0);
  t.sdp("D_DP_BS_MUL_SRC_VALUE", 0x3E00);
  std::vector<uint16_t> in(16, 0);
  const uint16_t v[] = {0x3E00, 0x7E01, 0x7B53, 0x7C00, 0x0001, 0xBC00};
  std::copy(std::begin(v), std::end(v), in.begin());
  t.load(kSrc, le16(in));
  t.run();
}

TEST(GoldenSdpExamples, Fp16SpecialsAndCounters) {
  SdpHarness t;
  fp16_example(t, false);
  std::vector<uint16_t> want(16, 0x3600);
  const uint16_t v[] = {0x4140, 0x7E01, 0x7BFF, 0x7BFF, 0x3600, 0x0000};
  std::copy(std::begin(v), std::end(v), want.begin());
  EXPECT_EQ(t.mem(kDst, 32), le16(want));
  EXPECT_EQ(t.read_rdma("D_STATUS_NAN_INPUT_NUM"), 1u);
  EXPECT_EQ(t.read_rdma("D_STATUS_INF_INPUT_NUM"), 1u);
  EXPECT_EQ(t.read_sdp("D_STATUS_NAN_OUTPUT_NUM"), 1u);
  EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 2u);
  EXPECT_EQ(t.read_sdp("D_STATUS_NAN_INPUT_NUM"), 0u);  // SDP's copies always read 0
}

TEST(GoldenSdpExamples, Fp16NanToZeroFlushesBeforeBsButRdmaStillCounts) {
  SdpHarness t;
  fp16_example(t, true);
  EXPECT_EQ(t.mem(kDst + 2, 2), le16({0x3600}));
  EXPECT_EQ(t.read_sdp("D_STATUS_NAN_OUTPUT_NUM"), 0u);
  EXPECT_EQ(t.read_rdma("D_STATUS_NAN_INPUT_NUM"), 1u);
}

}  // namespace
}  // namespace dla
