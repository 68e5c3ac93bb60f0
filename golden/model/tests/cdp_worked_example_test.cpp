// The spec's worked LRN example (§7.2), bit for bit, through CSB programming of the golden
// model: on nv_small (8-byte atoms, 2 pad lanes) and on v1 (32-byte atoms, 26 pad lanes).
#include <gtest/gtest.h>

#include "cdp_harness.h"

namespace dla::test {
namespace {

void program_example(CdpHarness& h) {
  h.layer(1, 1, 6, 0);
  program_lrn_example_lut(h);
  h.cdp("D_LRN_CFG", 1);
  h.cdp("D_DATIN_OFFSET", 2);
  h.cdp("D_DATIN_SCALE", 3);
  h.cdp("D_DATIN_SHIFTER", 1);
  h.cdp("D_DATOUT_SCALE", 1);
  h.cdp("D_DATOUT_SHIFTER", 15);
  std::vector<uint8_t> in(h.cfg.atom_bytes, 0x5a);  // pad lanes hold junk: it must not matter
  const int8_t x[] = {20, -7, 0, 45, 2, -90};
  for (unsigned i = 0; i < 6; ++i) in[i] = static_cast<uint8_t>(x[i]);
  h.load(in);
}

TEST(CdpWorkedExample, TableEntriesMatchTheSpec) {
  EXPECT_EQ(lrn_q15(128 * 7), 28249);
  EXPECT_EQ(lrn_q15(128 * 8), 27718);
  EXPECT_EQ(lrn_q15(128 * 183), 7852);
  EXPECT_EQ(lrn_q15(128 * 184), 7825);
  EXPECT_EQ(lrn_q15(1 << 14), 9800);
  EXPECT_EQ(lrn_q15(1 << 15), 6306);
  EXPECT_EQ(lrn_q15(1), 32761);
}

TEST(CdpWorkedExample, SmallAtomOutputAndCounters) {
  CdpHarness h("small");
  program_example(h);
  ASSERT_TRUE(h.run());
  EXPECT_EQ(h.output(), (std::vector<uint8_t>{0x17, 0xF8, 0xFE, 0x10, 0x00, 0xDF, 0x00, 0x00}));
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_HYBRID"), 8u);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_UFLOW"), 0u);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_OFLOW"), 0u);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_LE_HIT"), 0u);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_LO_HIT"), 0u);
  EXPECT_EQ(h.read_cdp("D_OUT_SATURATION"), 0u);
}

TEST(CdpWorkedExample, WideAtomPadLanesUnderflow) {
  CdpHarness h("v1");
  program_example(h);
  ASSERT_TRUE(h.run(true));
  std::vector<uint8_t> expect(32, 0);
  const uint8_t first[] = {0x17, 0xF8, 0xFE, 0x10, 0x00, 0xDF};
  std::copy(first, first + 6, expect.begin());
  EXPECT_EQ(h.output(), expect);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_HYBRID"), 8u);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_UFLOW"), 24u);
}

}  // namespace
}  // namespace dla::test
