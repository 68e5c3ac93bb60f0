// Golden PDP fp16 paths (spec §1.8, §1.9, App. A): special values in max/min and average,
// operand order, NaN flush, NaN/Inf counters over all lanes.
#include <gtest/gtest.h>

#include "golden_pdp_util.h"

namespace dla {
namespace {

using pdptest::PdpHarness;
namespace P = reg::PDP;

constexpr uint16_t kOne = 0x3C00, kTwo = 0x4000, kThree = 0x4200, kFour = 0x4400, kMinusOne = 0xBC00;
constexpr uint16_t kPosZero = 0x0000, kNegZero = 0x8000, kPosInf = 0x7C00, kNegInf = 0xFC00, kMaxF = 0x7BFF;
constexpr uint16_t kNanA = 0x7E01, kNanB = 0xFD55;

// One output per channel lane: a kw x kh window over a kw x kh cube whose elements the case
// gives in raster order.
struct WindowCase {
  const char* what;
  uint32_t method, kw, kh;
  std::vector<uint16_t> in;
  uint16_t expect;
  uint32_t recip_w = 0, recip_h = 0;  // 0: the standard 1/k
};

uint16_t run_window(const WindowCase& c, bool nan_to_zero = false) {
  PdpHarness t("v1");
  PdpLayer l = pdptest::make_layer(t.cfg, 2, static_cast<PoolMethod>(c.method), c.kw, c.kh, 1, c.kw, c.kh, 1, 1);
  if (c.recip_w) l.recip_w = c.recip_w;
  if (c.recip_h) l.recip_h = c.recip_h;
  l.nan_to_zero = nan_to_zero;
  t.fill_input(l, [&](uint32_t w, uint32_t h, uint32_t) { return c.in[h * c.kw + w]; });
  t.run(l);
  t.expect_done(0);
  return t.output(l, 0, 0, 0);
}

TEST(GoldenPdpFp16, ReciprocalPatterns) {
  EXPECT_EQ(pdp_reciprocal(1, true), 0x07C00u);
  EXPECT_EQ(pdp_reciprocal(2, true), 0x07800u);
  EXPECT_EQ(pdp_reciprocal(3, true), 0x07555u);  // spec §1.8 example
  EXPECT_EQ(pdp_reciprocal(8, true), 0x07000u);
  const uint32_t k[] = {0x07C00, 0x08000, 0x08200, 0x08400, 0x08500, 0x08600, 0x08700, 0x08800};
  for (uint32_t n = 1; n <= 8; ++n) EXPECT_EQ(fp17_of_integer(n), k[n - 1]) << n;  // spec §1.8 K table
  const uint32_t r[] = {0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2AAB, 0x2492, 0x2000};
  for (uint32_t n = 1; n <= 8; ++n) EXPECT_EQ(pdp_reciprocal(n, false), r[n - 1]) << n;  // spec §1.7
}

TEST(GoldenPdpFp16, MaxMinSpecialValues) {
  const WindowCase cases[] = {
      {"max(+0,-0)", 1, 2, 1, {kPosZero, kNegZero}, kPosZero},
      {"max(-0,+0)", 1, 2, 1, {kNegZero, kPosZero}, kPosZero},
      {"min(+0,-0)", 2, 2, 1, {kPosZero, kNegZero}, kNegZero},
      {"min(-0,+0)", 2, 2, 1, {kNegZero, kPosZero}, kNegZero},
      {"max(NaN,1)", 1, 2, 1, {kNanA, kOne}, kNanA},
      {"min(1,NaN)", 2, 2, 1, {kOne, kNanA}, kNanA},
      {"max(NaN_a,NaN_b) width pass keeps the accumulator", 1, 2, 1, {kNanA, kNanB}, kNanA},
      {"max(+Inf,maxf)", 1, 2, 1, {kMaxF, kPosInf}, kPosInf},
      {"min(-Inf,-1)", 2, 2, 1, {kMinusOne, kNegInf}, kNegInf},
      {"max(subnormal,+0)", 1, 2, 1, {0x0001, kPosZero}, 0x0001},
      {"min(-subnormal,-0)", 2, 2, 1, {0x8001, kNegZero}, 0x8001},
  };
  for (const WindowCase& c : cases) EXPECT_EQ(run_window(c), c.expect) << c.what;
}

// Spec §1.8: the height pass calls op(newer row, accumulator); only NaN payloads show it.
TEST(GoldenPdpFp16, HeightPassTakesTheNewerRowAsFirstOperand) {
  EXPECT_EQ(run_window({"max over rows NaN_a, NaN_b", 1, 1, 2, {kNanA, kNanB}, 0}), kNanB);
  EXPECT_EQ(run_window({"min over rows NaN_a, NaN_b", 2, 1, 2, {kNanA, kNanB}, 0}), kNanB);
  EXPECT_EQ(run_window({"average over rows NaN_a, NaN_b", 0, 1, 2, {kNanA, kNanB}, 0}), kNanB);
  EXPECT_EQ(run_window({"average along a row NaN_a, NaN_b", 0, 2, 1, {kNanA, kNanB}, 0}), kNanA);
}

TEST(GoldenPdpFp16, AverageValuesAndSpecials) {
  const WindowCase cases[] = {
      {"avg(1,2,3,4) = 2.5", 0, 2, 2, {kOne, kTwo, kThree, kFour}, 0x4100},
      {"avg(+Inf) saturates", 0, 1, 1, {kPosInf}, kMaxF},
      {"avg(-Inf) saturates", 0, 1, 1, {kNegInf}, 0xFBFF},
      {"NaN propagates with its payload", 0, 2, 1, {kOne, kNanA}, kNanA},
      {"overflow saturates, never Inf", 0, 2, 1, {kMaxF, kMaxF}, kMaxF, 0x07C00, 0x07C00},
      {"smallest subnormal survives", 0, 1, 1, {0x0001}, 0x0001},
      {"subnormal tie rounds to even (0)", 0, 2, 1, {0x0001, kPosZero}, kPosZero},
      {"subnormal tie rounds to even (2)", 0, 2, 1, {0x0003, kPosZero}, 0x0002},
      {"-0 stays -0", 0, 1, 1, {kNegZero}, kNegZero},
      {"exact cancellation keeps the first operand's sign", 0, 2, 1, {kMinusOne, kOne}, kNegZero},
  };
  for (const WindowCase& c : cases) EXPECT_EQ(run_window(c), c.expect) << c.what;
}

TEST(GoldenPdpFp16, AveragePaddingUsesFp17PadValuesAndKwScaledHeightPad) {
  // 1x1 input, 2x2 kernel, pads right 1 and bottom 1: x + PV_w(1), then + PV_1X * 2.
  PdpHarness t("v1");
  PdpLayer l = pdptest::make_layer(t.cfg, 2, PoolMethod::Average, 1, 1, 1, 2, 2, 1, 1, {0, 0, 1, 1});
  l.pad_value[0] = 0x07C00;  // 1.0 in fp17
  t.fill_input(l, [](uint32_t, uint32_t, uint32_t) { return kOne; });
  t.run(l);
  EXPECT_EQ(t.output(l, 0, 0, 0), kOne);  // (1 + 1 + 1*2) / 4
}

TEST(GoldenPdpFp16, NanFlushReplacesInputNanButCountsIt) {
  EXPECT_EQ(run_window({"max(-1, NaN->+0)", 1, 2, 1, {kMinusOne, kNanA}, 0}, true), kPosZero);
  EXPECT_EQ(run_window({"min(1, NaN->+0)", 2, 2, 1, {kOne, kNanB}, 0}, true), kPosZero);
}

// Spec §1.9: every lane of every atom read (pad lanes included) and every lane of every
// output atom; counters latch into the executing group and clear when it is armed again.
TEST(GoldenPdpCounters, CountAllLanesLatchPerGroupAndClearAtArm) {
  PdpHarness t("v1");
  PdpLayer l = pdptest::make_layer(t.cfg, 2, PoolMethod::Max, 2, 2, 3, 1, 1, 1, 1);  // 1x1: output = input
  l.nan_to_zero = false;
  // 16 lanes x 4 atoms = 64 elements: NaN where (w + 2h + c) % 5 == 0, Inf where % 7 == 1.
  uint32_t nans = 0, infs = 0;
  auto value = [](uint32_t w, uint32_t h, uint32_t c) -> uint16_t {
    const uint32_t k = w + 2 * h + c;
    return k % 5 == 0 ? kNanA : k % 7 == 1 ? kNegInf : kOne;
  };
  for (uint32_t h = 0; h < 2; ++h)
    for (uint32_t w = 0; w < 2; ++w)
      for (uint32_t c = 0; c < 16; ++c) {
        nans += value(w, h, c) == kNanA;
        infs += value(w, h, c) == kNegInf;
      }
  t.fill_input(l, value);
  t.run(l, 0);
  EXPECT_EQ(t.counter(P::D_NAN_INPUT_NUM::offset, 0), nans);
  EXPECT_EQ(t.counter(P::D_INF_INPUT_NUM::offset, 0), infs);
  EXPECT_EQ(t.counter(P::D_NAN_OUTPUT_NUM::offset, 0), nans);

  // Group 1 with NaN flushing: inputs still counted, no NaN output.
  PdpLayer g1 = l;
  g1.nan_to_zero = true;
  g1.dst += 0x10000;
  t.run(g1, 1);
  t.expect_done(1);
  EXPECT_EQ(t.counter(P::D_NAN_INPUT_NUM::offset, 1), nans);
  EXPECT_EQ(t.counter(P::D_NAN_OUTPUT_NUM::offset, 1), 0u);
  EXPECT_EQ(t.counter(P::D_NAN_OUTPUT_NUM::offset, 0), nans);  // group 0 keeps its values

  // Re-arming group 0 (PDP only, so the layer waits for its RDMA) clears its counters.
  t.write(Unit::PDP, P::S_POINTER::offset, 0);
  t.write(Unit::PDP, P::D_OP_ENABLE::offset, 1);
  EXPECT_EQ(t.read(Unit::PDP, P::S_STATUS::offset) & 3u, 1u);  // running: waiting for data
  EXPECT_EQ(t.counter(P::D_NAN_INPUT_NUM::offset, 0), 0u);
  EXPECT_EQ(t.counter(P::D_INF_INPUT_NUM::offset, 0), 0u);
  t.write(Unit::PDP_RDMA, reg::PDP_RDMA::S_POINTER::offset, 0);
  t.write(Unit::PDP_RDMA, reg::PDP_RDMA::D_OP_ENABLE::offset, 1);
  EXPECT_EQ(t.counter(P::D_NAN_INPUT_NUM::offset, 0), nans);
}

TEST(GoldenPdpCounters, IntegerModesCountNothing) {
  PdpHarness t("v1");
  PdpLayer l = pdptest::make_layer(t.cfg, 1, PoolMethod::Max, 2, 1, 16, 1, 1, 1, 1);
  t.fill_input(l, [](uint32_t, uint32_t, uint32_t) { return kNanA; });
  t.run(l);
  EXPECT_EQ(t.counter(P::D_NAN_INPUT_NUM::offset, 0), 0u);
  EXPECT_EQ(t.counter(P::D_NAN_OUTPUT_NUM::offset, 0), 0u);
  EXPECT_EQ(t.output(l, 1, 0, 7), kNanA);
}

// Open point 6: the 32-bit counters saturate (decision, see docs/pdp.md).
TEST(GoldenPdpOpenPoints, CountersSaturateAt32Bits) {
  EXPECT_EQ(pdp_counter_add(0xFFFFFFF0u, 0x20), 0xFFFFFFFFu);
  EXPECT_EQ(pdp_counter_add(5, 7), 12u);
}

}  // namespace
}  // namespace dla
