// CDP LUT programming over CSB (spec §2.4) and register-level behaviour of the golden CDP:
// auto-increment, stop at the last entry, read-back, the address in S_LUT_ACCESS_CFG,
// counters cleared at arming, LUT_EN without effect, RDMA/CDP pairing.
#include <gtest/gtest.h>

#include "cdp_harness.h"
#include "dla/planted_bug.h"

namespace dla::test {
namespace {

TEST(CdpLutPort, AutoIncrementWriteAndReadBack) {
  CdpHarness h("v1");
  h.cdp("S_LUT_ACCESS_CFG", (1u << 17) | (1u << 16) | 250);  // write LO from 250
  for (uint16_t v = 1; v <= 10; ++v) h.cdp("S_LUT_ACCESS_DATA", v);  // 250..256, then stuck at 256
  EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_CFG") & 0x3ffu, 256u);
  h.cdp("S_LUT_ACCESS_CFG", (1u << 16) | 250);  // read LO from 250
  for (uint16_t v = 1; v <= 6; ++v) EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_DATA"), v);
  EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_DATA"), 10u);  // entry 256 holds the last write
  EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_DATA"), 10u);  // and reads stay there
  EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_CFG"), (1u << 16) | 256u);
}

TEST(CdpLutPort, LeTableStopsAt64AndDataIsSixteenBits) {
  CdpHarness h("small");
  h.cdp("S_LUT_ACCESS_CFG", 1u << 17);
  for (unsigned i = 0; i < 70; ++i) h.cdp("S_LUT_ACCESS_DATA", 0xabcd0000u | i);
  h.cdp("S_LUT_ACCESS_CFG", 63);
  EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_DATA"), 63u);
  EXPECT_EQ(h.read_cdp("S_LUT_ACCESS_DATA"), 69u);
}

TEST(CdpRegisters, CountersLatchAndLutEnableHasNoEffect) {
  CdpHarness h("small");
  h.layer(2, 1, 3, 0);
  h.cdp("D_PERF_ENABLE", 0);  // LUT_EN = 0: counters count anyway (spec §8 point 13)
  h.load(std::vector<uint8_t>(16, 1));
  ASSERT_TRUE(h.run());
  // All LUT registers 0 (START 0, LE exponent, LO step 1). Per position: lanes 0..3 have
  // SUM 2, 3, 2, 1 (both tables hit), pad lanes 4..7 SUM 0 (both underflow).
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_HYBRID"), 8u);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_UFLOW"), 8u);
  // Re-arming group 0 clears its counters at once (spec §5.2 rule 2).
  h.cdp("S_POINTER", 0);
  h.rdma("S_POINTER", 0);
  h.cdp("D_OP_ENABLE", 1);
  EXPECT_EQ(h.read_cdp("D_PERF_LUT_HYBRID"), 0u);
}

// D_OUT_SATURATION exists only where the configuration has it: v1 counts every saturated
// int8 output (pad lanes included); nv_small's CDP has no counter and reads 0 (both groups).
TEST(CdpRegisters, OutSaturationCountsOnlyWhereTheConfigurationHasTheCounter) {
  EXPECT_TRUE(HwConfig::get("v1").cdp_out_saturation);
  EXPECT_FALSE(HwConfig::get("small").cdp_out_saturation);
  for (const char* name : {"v1", "small"}) {
    CdpHarness h(name);
    const unsigned lanes = h.cfg.atom_bytes;  // int8: one atom, channel 0 real, the rest pad lanes
    h.layer(1, 1, 1, 0);
    h.program_lut(0, std::vector<uint16_t>(65, 0x7fff));
    h.program_lut(1, std::vector<uint16_t>(257, 0x7fff));
    h.cdp("D_FUNC_BYPASS", 2);  // MUL_BYPASS: M = Lr = 32767 on every lane, identity OCVT -> 127
    h.load(std::vector<uint8_t>(lanes, 5));
    ASSERT_TRUE(h.run()) << name;
    EXPECT_EQ(h.output(), std::vector<uint8_t>(lanes, 0x7f)) << name;
    EXPECT_EQ(h.read_cdp("D_OUT_SATURATION"), h.cfg.cdp_out_saturation ? lanes : 0u) << name;
  }
}

TEST(CdpRegisters, CdpWaitsForItsRdma) {
  CdpHarness h("small");
  h.layer(1, 1, 1, 0);
  h.cdp("D_OP_ENABLE", 1);
  EXPECT_EQ(h.m.csb_read(h.addr("GLB.S_INTR_STATUS")) & 0xcu, 0u);
  h.rdma("D_OP_ENABLE", 1);
  EXPECT_EQ(h.m.csb_read(h.addr("GLB.S_INTR_STATUS")) & 0xcu, 0x4u);
  EXPECT_EQ(h.m.csb_read(h.addr("CDP_RDMA.D_OP_ENABLE")), 0u);
}

}  // namespace
}  // namespace dla::test
