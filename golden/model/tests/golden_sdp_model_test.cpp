// SDP / SDP_RDMA register-level behaviour: memory image, pad lanes, layouts, counters,
// EQL, pairing of the two units' groups, and the open points of sdp.md §15.
#include <gtest/gtest.h>

#include <numeric>
#include <utility>

#include "golden_sdp_harness.h"

namespace dla {
namespace {

using test::le16;
using test::SdpHarness;

constexpr uint64_t kSrc = 0x80000000, kDst = 0x80100000, kOps = 0x80200000;

std::vector<uint8_t> ramp(size_t n, uint8_t start = 1) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

// int8 pass-through of a 2x2x(A+3) cube with gaps between lines and surfaces.
void int8_passthrough(SdpHarness& t, bool sdp_first = false) {
  const unsigned a = t.cfg.atom_bytes;
  t.basic_layer(2, 2, a + 3, 0x00, 0x00);
  t.src(kSrc, 4 * a, 16 * a);
  t.dst(kDst, 3 * a, 8 * a);
  t.load(kSrc, ramp(32 * a));
  t.run(sdp_first);
}

TEST(GoldenSdpModel, WritesWholeAtomsPadLanesIncludedAndNothingElse) {
  SdpHarness t("small");
  const unsigned a = t.cfg.atom_bytes;
  t.load(kDst, std::vector<uint8_t>(24 * a, 0xEE));
  int8_passthrough(t);
  EXPECT_EQ(t.m.intr_status(), 1u);
  const auto out = t.mem(kDst, 24 * a);
  for (unsigned sf = 0; sf < 2; ++sf)
    for (unsigned h = 0; h < 2; ++h)
      for (unsigned w = 0; w < 2; ++w)
        for (unsigned b = 0; b < a; ++b)  // pad lanes of surface 1 carry the input pad bytes
          EXPECT_EQ(out[sf * 8 * a + h * 3 * a + w * a + b], static_cast<uint8_t>(1 + sf * 16 * a + h * 4 * a + w * a + b));
  EXPECT_EQ(out[2 * a], 0xEE);      // gap after line 0
  EXPECT_EQ(out[5 * a], 0xEE);      // gap after line 1
  EXPECT_EQ(out[16 * a + 1], 0xEE);  // beyond surface 1
}

TEST(GoldenSdpModel, SdpArmedFirstOrSecondGivesTheSameLayer) {
  SdpHarness a("small"), b("small");
  int8_passthrough(a, false);
  int8_passthrough(b, true);
  EXPECT_EQ(a.mem(kDst, 1024), b.mem(kDst, 1024));
  EXPECT_EQ(b.read_sdp("S_POINTER"), 1u << 16);
  EXPECT_EQ(b.read_rdma("S_POINTER"), 1u << 16);
  EXPECT_EQ(b.read_rdma("S_STATUS"), 0u);
}

// As dla_sdp.sv's start: a layer that reads memory starts only when both groups are armed. The
// first-armed unit's group stays armed meanwhile (D_OP_ENABLE reads 1, S_STATUS running) and
// drops writes; the second arming runs the layer, whichever unit came first.
TEST(GoldenSdpModel, FirstArmedGroupStaysArmedUntilTheOtherUnitIsArmed) {
  for (const bool sdp_first : {false, true}) {
    SdpHarness t("small");
    const unsigned a = t.cfg.atom_bytes;
    t.basic_layer(2, 2, a + 3, 0x00, 0x00);
    t.src(kSrc, 4 * a, 16 * a);
    t.dst(kDst, 3 * a, 8 * a);
    t.load(kSrc, ramp(32 * a));
    const auto arm = [&](bool sdp_unit) { sdp_unit ? t.sdp("D_OP_ENABLE", 1) : t.rdma("D_OP_ENABLE", 1); };
    const auto read = [&](bool sdp_unit, const char* reg) { return sdp_unit ? t.read_sdp(reg) : t.read_rdma(reg); };
    arm(sdp_first);
    EXPECT_EQ(read(sdp_first, "D_OP_ENABLE"), 1u) << "sdp_first " << sdp_first;
    EXPECT_EQ(read(sdp_first, "S_STATUS"), 1u) << "sdp_first " << sdp_first;  // group 0 running
    EXPECT_EQ(t.m.intr_status(), 0u);
    // a write to the armed group is dropped, D_OP_ENABLE = 0 included
    sdp_first ? t.sdp("D_DATA_CUBE_WIDTH", 7) : t.rdma("D_DATA_CUBE_WIDTH", 7);
    sdp_first ? t.sdp("D_OP_ENABLE", 0) : t.rdma("D_OP_ENABLE", 0);
    EXPECT_EQ(read(sdp_first, "D_DATA_CUBE_WIDTH"), 1u) << "sdp_first " << sdp_first;
    EXPECT_EQ(read(sdp_first, "D_OP_ENABLE"), 1u) << "sdp_first " << sdp_first;
    arm(!sdp_first);
    EXPECT_EQ(t.m.intr_status(), 1u) << "sdp_first " << sdp_first;
    EXPECT_EQ(t.read_sdp("S_STATUS"), 0u);
    EXPECT_EQ(t.read_rdma("S_STATUS"), 0u);
    EXPECT_EQ(t.read_sdp("S_POINTER"), 1u << 16);
    EXPECT_EQ(t.read_rdma("S_POINTER"), 1u << 16);
  }
}

TEST(GoldenSdpModel, SecondGroupUsesItsOwnRegistersOnBothUnits) {
  SdpHarness t("small");
  int8_passthrough(t);
  t.sdp("S_POINTER", 1);
  t.rdma("S_POINTER", 1);
  t.basic_layer(1, 1, 8, 0x00, 0x00);
  t.src(kSrc + 0x1000, 0, 8);
  t.dst(kDst + 0x1000, 0, 8);
  t.sdp("D_CVT_OFFSET", 1);
  t.run(true);
  EXPECT_EQ(t.m.intr_status(), 3u);
  std::vector<uint8_t> want = t.mem(kSrc + 0x1000, 8);
  for (auto& v : want) v = static_cast<uint8_t>(v - 1);
  EXPECT_EQ(t.mem(kDst + 0x1000, 8), want);
}

// sdp.md §15 item 13: W = H = 1 packs surfaces back to back whatever the strides say.
TEST(GoldenSdpModel, Open13OneByOneCubeIgnoresSurfaceStrides) {
  SdpHarness t;
  t.basic_layer(1, 1, 70, 0x00, 0x00);
  t.src(kSrc, 0x400, 0x800);
  t.dst(kDst, 0x400, 0x800);
  t.load(kSrc, ramp(96));
  t.run();
  EXPECT_EQ(t.mem(kDst, 96), ramp(96));
}

TEST(GoldenSdpModel, EightToSixteenSplitAndSixteenToEightMerge) {
  SdpHarness t;  // v1: A = 32
  t.basic_layer(1, 2, 40, 0x40, 0x04);  // IN/PROC INT8, OUT INT16: 2 int8 surfaces -> 4 int16
  t.src(kSrc, 32, 64);
  t.dst(kDst, 32, 64);
  std::vector<uint8_t> in(128);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i - 64);
  t.load(kSrc, in);
  t.run();
  const auto out = t.mem(kDst, 256);
  // output surface 3 (lanes 16..31 of int8 surface 1), line 1, lane 2 = input surface 1 line 1 lane 18
  const size_t o = 3 * 64 + 32 + 2 * 2;
  EXPECT_EQ(static_cast<int16_t>(out[o] | (out[o + 1] << 8)), static_cast<int8_t>(in[64 + 32 + 18]));

  SdpHarness m;
  m.basic_layer(1, 1, 33, 0x14, 0x00);  // IN INT16, PROC/OUT INT8: 2*ceil(33/32) = 4 int16 surfaces
  m.src(kSrc, 0, 32);
  m.dst(kDst, 0, 32);
  std::vector<uint16_t> w(64);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint16_t>(i * 9 - 100);
  m.load(kSrc, le16(w));
  m.run();
  const auto o8 = m.mem(kDst, 64);
  EXPECT_EQ(static_cast<int8_t>(o8[17]), static_cast<int8_t>(std::clamp<int>(static_cast<int16_t>(w[17]), -128, 127)));
  EXPECT_EQ(static_cast<int8_t>(o8[32 + 20]), static_cast<int8_t>(std::clamp<int>(static_cast<int16_t>(w[52]), -128, 127)));
}

TEST(GoldenSdpModel, OperandStreamsPerElementBothAndPerKernelOneByte) {
  SdpHarness t;
  t.basic_layer(2, 1, 3, 0x00, 0x00);
  t.src(kSrc, 64, 64);
  t.dst(kDst, 64, 64);
  // BS: per-element, TWO_BYTE, BOTH: ALU component then MUL component.
  t.rdma("D_BRDMA_CFG", 0x20 | 0x10 | 0x08 | (2 << 1));
  t.rdma("D_BS_BASE_ADDR_LOW", static_cast<uint32_t>(kOps));
  t.rdma("D_BS_LINE_STRIDE", 0x1000);
  t.rdma("D_BS_SURFACE_STRIDE", 0x1000);
  t.sdp("D_DP_BS_CFG", 0x48);  // ALU SUM, MUL on, ReLU bypassed
  t.sdp("D_DP_BS_ALU_CFG", 1);
  t.sdp("D_DP_BS_MUL_CFG", 1);
  // BN: per-kernel ONE_BYTE ALU operand (sign-extended), MAX.
  t.rdma("D_NRDMA_CFG", 0x20 | (1 << 1));
  t.rdma("D_BN_BASE_ADDR_LOW", static_cast<uint32_t>(kOps + 0x800));
  t.sdp("D_DP_BN_CFG", 0x50);  // ALU MAX, MUL bypassed, ReLU bypassed
  t.sdp("D_DP_BN_ALU_CFG", 1);
  std::vector<uint8_t> in(64, 0);
  in[1] = 10;       // w0 lane1
  in[32 + 1] = 20;  // w1 lane1
  t.load(kSrc, in);
  std::vector<uint16_t> ops(128, 0);
  ops[2 * 1] = 5;  // w0 lane1: ALU 5, MUL 2
  ops[2 * 1 + 1] = 2;
  ops[64 + 2] = static_cast<uint16_t>(-3);  // w1 starts at 32 lanes * 4 bytes = 128 bytes = 64 words
  ops[64 + 3] = 3;
  t.load(kOps, le16(ops));
  std::vector<uint8_t> bn(32, 0);
  bn[1] = 0xF0;  // -16 for channel 1
  bn[2] = 50;    // channel 2
  t.load(kOps + 0x800, bn);
  t.run();
  const auto out = t.mem(kDst, 64);
  EXPECT_EQ(out[1], 30);                         // (10 + 5) * 2, max with -16
  EXPECT_EQ(out[32 + 1], 51);                    // (20 - 3) * 3
  EXPECT_EQ(out[2], 50);                         // 0 then max(0, 50)
  EXPECT_TRUE(t.m.warnings().empty()) << t.m.warnings().front();
}

TEST(GoldenSdpModel, EqlModeWritesNothingAndEqualDataLeavesUnequalClear) {
  SdpHarness t;
  t.basic_layer(1, 1, 2, 0x00, 0x00);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.rdma("D_ERDMA_CFG", 0x20 | (1 << 1));  // per-kernel ONE_BYTE ALU
  t.rdma("D_EW_BASE_ADDR_LOW", static_cast<uint32_t>(kOps));
  t.sdp("D_DP_EW_CFG", 0x5C);  // EW on, ALU EQL, MUL and LUT bypassed
  t.sdp("D_DP_EW_ALU_CFG", 0x3);  // MEM, converter bypassed
  t.load(kDst, std::vector<uint8_t>(32, 0xEE));
  std::vector<uint8_t> in(32, 0), ops(32, 0);
  in[0] = ops[0] = 7;
  in[1] = ops[1] = 9;
  t.load(kSrc, in);
  t.load(kOps, ops);
  t.run();
  EXPECT_EQ(t.m.intr_status(), 1u);
  EXPECT_EQ(t.read_sdp("D_STATUS"), 0u);
  EXPECT_EQ(t.mem(kDst, 32), std::vector<uint8_t>(32, 0xEE));
}

TEST(GoldenSdpModel, EqlModePadLaneDifferenceSetsUnequal) {
  SdpHarness t;
  t.basic_layer(1, 1, 2, 0x00, 0x00);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.rdma("D_ERDMA_CFG", 0x20 | (1 << 1));
  t.rdma("D_EW_BASE_ADDR_LOW", static_cast<uint32_t>(kOps));
  t.sdp("D_DP_EW_CFG", 0x5C);
  t.sdp("D_DP_EW_ALU_CFG", 0x3);
  std::vector<uint8_t> in(32, 0), ops(32, 0);
  ops[20] = 1;  // channel 20 is a pad lane of a 2-channel cube
  t.load(kSrc, in);
  t.load(kOps, ops);
  t.run();
  EXPECT_EQ(t.read_sdp("D_STATUS"), 1u);
}

// sdp.md §15 item 11: outside EQL mode STATUS_UNEQUAL is the OR of every output.
TEST(GoldenSdpModel, Open11UnequalOutsideEqlIsAnyNonzeroOutput) {
  SdpHarness t("small");
  t.basic_layer(1, 1, 8, 0x00, 0x00);
  t.src(kSrc, 0, 8);
  t.dst(kDst, 0, 8);
  t.load(kSrc, std::vector<uint8_t>(8, 0));
  t.run();
  EXPECT_EQ(t.read_sdp("D_STATUS"), 0u);
  SdpHarness u("small");
  u.basic_layer(1, 1, 8, 0x00, 0x00);
  u.src(kSrc, 0, 8);
  u.dst(kDst, 0, 8);
  std::vector<uint8_t> in(8, 0);
  in[7] = 1;
  u.load(kSrc, in);
  u.run();
  EXPECT_EQ(u.read_sdp("D_STATUS"), 1u);
}

// sdp.md §15 item 4: the NaN output counter does not need PERF_NAN_INF_COUNT_EN.
TEST(GoldenSdpModel, Open4NanOutputCountedWithoutItsEnable) {
  SdpHarness t;
  t.basic_layer(1, 1, 16, 0xA8, 0x0A);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.sdp("D_PERF_ENABLE", 0);
  std::vector<uint16_t> in(16, 0x3c00);
  in[3] = 0x7d00;
  in[4] = 0xfe01;
  t.load(kSrc, le16(in));
  t.run();
  EXPECT_EQ(t.read_sdp("D_STATUS_NAN_OUTPUT_NUM"), 2u);
  EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 0u);  // PERF_SAT_EN off
  EXPECT_EQ(t.read_rdma("D_STATUS_NAN_INPUT_NUM"), 0u);  // RDMA counting off
}

// sdp.md §15 item 3 / §9.5 through the model: the counter follows the flag, and with
// OUT = FP16 every +-65504 output counts.
TEST(GoldenSdpModel, Open3SaturationCounterFollowsTheV1Flag) {
  SdpHarness t;
  t.basic_layer(1, 1, 16, 0x54, 0x05);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.sdp("D_PERF_ENABLE", 0x4);
  t.sdp("D_CVT_SCALE", 2);
  std::vector<uint16_t> in(16, 0);
  in[0] = 32767;                          // (z + 1) * 2 = 65536: clamped, not flagged
  in[1] = static_cast<uint16_t>(-32768);  // -65534
  t.load(kSrc, le16(in));
  t.sdp("D_CVT_OFFSET", static_cast<uint32_t>(-1));
  t.run();
  EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 0u);
  SdpHarness k;
  k.basic_layer(1, 1, 16, 0x54, 0x05);
  k.src(kSrc, 0, 32);
  k.dst(kDst, 0, 32);
  k.sdp("D_PERF_ENABLE", 0x4);
  k.sdp("D_CVT_SCALE", 3);  // 32767 * 3 = 98301: flagged
  k.load(kSrc, le16(in));
  k.run();
  EXPECT_EQ(k.read_sdp("D_PERF_OUT_SATURATION"), 2u);  // and -32768 * 3
  SdpHarness f;
  f.basic_layer(1, 1, 16, 0x54, 0x09);  // INT16 -> FP16 output
  f.src(kSrc, 0, 32);
  f.dst(kDst, 0, 32);
  f.sdp("D_PERF_ENABLE", 0x4);
  std::vector<uint16_t> g(16, 1);
  g[5] = 32767;  // scale 2 -> 65534 -> 65504 (0x7bff)
  f.sdp("D_CVT_SCALE", 2);
  f.load(kSrc, le16(g));
  f.run();
  EXPECT_EQ(f.read_sdp("D_PERF_OUT_SATURATION"), 1u);
}

// One int8 layer: lanes {127, -128, 0...} through CVT offset -1, scale `scale`.
void saturation_layer(SdpHarness& t, uint32_t perf_enable, uint32_t scale) {
  const unsigned a = t.cfg.atom_bytes;
  t.basic_layer(1, 1, 8, 0x00, 0x00);
  t.src(kSrc, a, a);
  t.dst(kDst, a, a);
  std::vector<uint8_t> in(a, 0);
  in[0] = 127;
  in[1] = 0x80;
  t.load(kSrc, in);
  t.sdp("D_CVT_OFFSET", static_cast<uint32_t>(-1));
  t.sdp("D_CVT_SCALE", scale);
  t.sdp("D_PERF_ENABLE", perf_enable);
  t.run();
  t.m.csb_write(t.addr("GLB.S_INTR_STATUS"), t.m.intr_status());
}

// 128 * 512 = 65536 is clamped by one step: nv_small's rule counts it, v1's does not.
TEST(GoldenSdpModel, SaturationFlagRuleComesFromTheConfiguration) {
  for (const auto& [config, expected] : {std::pair<const char*, uint32_t>{"small", 1u}, {"v1", 0u}}) {
    SdpHarness t(config);
    saturation_layer(t, 0x4, 512);
    EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), expected) << config;
  }
}

// The saturation counter is one register for both groups, cleared at a layer's start only
// when that layer sets PERF_SAT_EN: a layer without it reports the last enabled count.
TEST(GoldenSdpModel, SaturationCounterIsSharedAndItsEnableGatesTheClear) {
  for (const char* config : {"small", "v1"}) {
    SdpHarness t(config);
    saturation_layer(t, 0x4, 1024);  // 128*1024 and -127*1024 both saturate
    EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 2u) << config;
    t.sdp("S_POINTER", 1);
    t.rdma("S_POINTER", 1);
    saturation_layer(t, 0x0, 1);
    EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 2u) << config << ": disabled layer keeps the last count";
    t.sdp("S_POINTER", 0);
    t.rdma("S_POINTER", 0);
    saturation_layer(t, 0x4, 1);
    EXPECT_EQ(t.read_sdp("D_PERF_OUT_SATURATION"), 0u) << config << ": enabled layer clears it";
  }
}

TEST(GoldenSdpModel, LutCountersReadZeroWhenTheLutIsBypassed) {
  SdpHarness t("v1");
  std::vector<uint8_t> in(32);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(1 + i % 8);  // pad lanes too
  t.basic_layer(1, 1, 8, 0x00, 0x00);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.sdp("D_PERF_ENABLE", 0x2);
  t.load(kSrc, in);
  t.run();
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_HYBRID") + t.read_sdp("D_PERF_LUT_UFLOW") + t.read_sdp("D_PERF_LUT_LO_HIT"), 0u);
  t.sdp("S_POINTER", 1);
  t.rdma("S_POINTER", 1);
  t.basic_layer(1, 1, 8, 0x00, 0x00);
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.sdp("D_DP_EW_CFG", 0x12);  // LUT on; zero settings: inputs 1..8 hit both tables
  t.sdp("D_PERF_ENABLE", 0x2);
  t.run();
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_HYBRID"), 32u);  // every lane of the atom, pad lanes included
  EXPECT_EQ(t.read_sdp("D_PERF_LUT_LE_HIT"), 32u);
}

// nv_small has no LUT: S_LUT_ACCESS_CFG is a plain register, DATA writes are dropped and
// DATA reads 0 (as NVIDIA's nv_small RTL).
TEST(GoldenSdpModel, SmallHasNoLutAccessPort) {
  SdpHarness t("small");
  t.program_lut(0, {0x1234, 0x5678});
  EXPECT_EQ(t.read_sdp("S_LUT_ACCESS_CFG"), (1u << 17));
  t.sdp("S_LUT_ACCESS_CFG", 0);  // LE, read, from entry 0: what v1 reads back below
  EXPECT_EQ(t.read_sdp("S_LUT_ACCESS_DATA"), 0u);
  EXPECT_EQ(t.read_sdp("S_LUT_ACCESS_DATA"), 0u);
  SdpHarness v("v1");
  v.program_lut(0, {0x1234, 0x5678});
  v.sdp("S_LUT_ACCESS_CFG", 0);
  EXPECT_EQ(v.read_sdp("S_LUT_ACCESS_DATA"), 0x1234u) << "v1 keeps the port: the check above proves something";
}

// The whole SDP -> PDP path is in golden_sdp_pdp_test.cpp.
TEST(GoldenSdpModel, OutputToPdpWritesNothingAndWaitsForPdp) {
  SdpHarness t("small");
  t.load(kDst, std::vector<uint8_t>(64, 0xEE));
  t.basic_layer(1, 1, 8, 0x00, 0x00);
  t.src(kSrc, 0, 8);
  t.dst(kDst, 0, 8);
  t.sdp("D_FEATURE_MODE_CFG", 0x2);
  t.load(kSrc, ramp(8));
  t.run();
  EXPECT_EQ(t.m.intr_status(), 0u) << "no PDP armed on-flying: SDP cannot deliver its output";
  EXPECT_EQ(t.read_sdp("S_STATUS"), 1u);
  EXPECT_EQ(t.mem(kDst, 8), std::vector<uint8_t>(8, 0xEE));
}

TEST(GoldenSdpModel, IllegalProgrammingIsReportedWithTheRule) {
  SdpHarness t;
  t.basic_layer(1, 1, 8, 0x54, 0x01);  // PROC INT16, OUT INT8: undefined layout
  t.src(kSrc, 0, 32);
  t.dst(kDst, 0, 32);
  t.load(kDst, std::vector<uint8_t>(32, 0xEE));
  t.run();
  auto mentions = [](const GoldenModel& m, const std::string& text) {
    for (const auto& w : m.warnings())
      if (w.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(mentions(t.m, "not a supported SDP precision combination (sdp.md §2.5)"));
  EXPECT_EQ(t.mem(kDst, 32), std::vector<uint8_t>(32, 0xEE));

  SdpHarness s("small");
  s.basic_layer(1, 1, 8, 0x00, 0x00);
  s.src(kSrc, 0, 8);
  s.dst(kDst, 0, 8);
  s.sdp("D_DP_BS_CFG", 0x50);  // BS ALU from memory without an enabled BRDMA
  s.sdp("D_DP_BS_ALU_CFG", 1);
  s.run();
  EXPECT_TRUE(mentions(s.m, "BRDMA (BS) operand stream is disabled but its stage takes memory operands"));
}

TEST(GoldenSdpModel, FlyingInputIsNotModelledYetAndHangs) {
  SdpHarness t;
  t.basic_layer(1, 1, 8, 0x01, 0x00);
  t.sdp("D_FEATURE_MODE_CFG", 0x1);
  t.sdp("D_OP_ENABLE", 1);
  EXPECT_EQ(t.m.intr_status(), 0u);
  EXPECT_EQ(t.read_sdp("S_STATUS"), 1u);
}

}  // namespace
}  // namespace dla
