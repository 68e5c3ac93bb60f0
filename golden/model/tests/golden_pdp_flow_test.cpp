// Golden PDP / PDP_RDMA pairing (spec §1.12, §1.13, §5.2 rule 7): two ping-pong state
// machines, either arming order, both groups, interrupts, an on-flying layer waiting for SDP.
#include <gtest/gtest.h>

#include "golden_pdp_util.h"

namespace dla {
namespace {

using pdptest::PdpHarness;
namespace P = reg::PDP;
namespace RD = reg::PDP_RDMA;

PdpLayer small_layer(const HwConfig& cfg, uint64_t dst) {
  PdpLayer l = pdptest::make_layer(cfg, 0, PoolMethod::Max, 3, 3, 4, 2, 2, 1, 1);
  l.dst = dst;
  return l;
}

void arm(PdpHarness& t, Unit u, unsigned group) {
  t.write(u, P::S_POINTER::offset, group);
  t.write(u, P::D_OP_ENABLE::offset, 1);
}

void program(PdpHarness& t, const PdpLayer& l, unsigned group) {
  t.write(Unit::PDP_RDMA, RD::S_POINTER::offset, group);
  t.write(Unit::PDP, P::S_POINTER::offset, group);
  for (const auto& [off, v] : pdp_rdma_register_values(l)) t.write(Unit::PDP_RDMA, off, v);
  for (const auto& [off, v] : pdp_register_values(l)) t.write(Unit::PDP, off, v);
}

TEST(GoldenPdpFlow, EachSideWaitsForTheOther) {
  for (bool rdma_first : {true, false}) {
    PdpHarness t("small");
    const PdpLayer l = small_layer(t.cfg, 0x8100'0000);
    t.fill_input(l, [](uint32_t w, uint32_t h, uint32_t c) { return static_cast<uint16_t>(w + 3 * h + 9 * c); });
    program(t, l, 0);
    const Unit first = rdma_first ? Unit::PDP_RDMA : Unit::PDP, second = rdma_first ? Unit::PDP : Unit::PDP_RDMA;
    arm(t, first, 0);
    EXPECT_EQ(t.read(first, P::S_STATUS::offset), 1u) << "armed alone, the first side keeps running";
    EXPECT_EQ(t.read(first, P::D_OP_ENABLE::offset), 1u);
    EXPECT_EQ(t.m.intr_status(), 0u);
    arm(t, second, 0);
    t.expect_done(0);
    EXPECT_EQ(t.m.intr_status(), 1u << 4);
    EXPECT_EQ(t.read(Unit::PDP, P::S_POINTER::offset) >> 16, 1u);
    EXPECT_EQ(t.read(Unit::PDP_RDMA, RD::S_POINTER::offset) >> 16, 1u);
    EXPECT_EQ(t.output(l, 1, 1, 2), 2 + 3 * 2 + 18);
    ASSERT_EQ(t.m.layers().size(), 2u);
    EXPECT_EQ(t.m.layers()[0].unit, Unit::PDP_RDMA);  // the RDMA finishes first
    EXPECT_EQ(t.m.layers()[1].unit, Unit::PDP);
    EXPECT_TRUE(t.m.warnings().empty());
  }
}

// On a 32-bit configuration NVDLA drops the address bits above 32 (its AXI port is 32 bits
// of address): a layer whose _HIGH registers are non-zero reads and writes the low 4 GiB.
// On v1 (64-bit) the same registers keep the layer apart.
TEST(GoldenPdpFlow, ThirtyTwoBitConfigurationsDropTheHighAddressBits) {
  const auto value = [](uint32_t w, uint32_t h, uint32_t c) { return static_cast<uint16_t>(5 * w + h + 7 * c); };
  PdpHarness low("small"), high("small");
  const PdpLayer a = small_layer(low.cfg, 0x8100'0000);
  PdpLayer b = a;
  b.src |= uint64_t{3} << 32;
  b.dst |= uint64_t{1} << 32;
  low.fill_input(a, value);   // at the low addresses
  high.fill_input(a, value);  // the same bytes; b reads them through its high source address
  low.run(a);
  high.run(b);
  low.expect_done(0);
  high.expect_done(0);
  EXPECT_TRUE(high.m.warnings().empty());
  const uint64_t bytes = 2 * a.dst_line;
  EXPECT_EQ(high.m.memory(a.dst_port).read(a.dst, bytes), low.m.memory(a.dst_port).read(a.dst, bytes));
  EXPECT_TRUE(high.m.memory(a.dst_port).is_written(a.dst));

  PdpHarness wide("v1");
  PdpLayer c = small_layer(wide.cfg, 0x8100'0000);
  c.dst |= uint64_t{1} << 32;
  wide.fill_input(c, value);
  wide.run(c);
  wide.expect_done(0);
  EXPECT_TRUE(wide.m.memory(c.dst_port).is_written(c.dst));
  EXPECT_FALSE(wide.m.memory(c.dst_port).is_written(c.dst & 0xffff'ffffu));
}

TEST(GoldenPdpFlow, BothGroupsQueueAndRaiseTheirOwnBits) {
  PdpHarness t("v1");
  const PdpLayer a = small_layer(t.cfg, 0x8100'0000), b = small_layer(t.cfg, 0x8200'0000);
  t.fill_input(a, [](uint32_t w, uint32_t h, uint32_t c) { return static_cast<uint16_t>(w + h + c); });
  program(t, a, 0);
  program(t, b, 1);
  arm(t, Unit::PDP, 0);
  arm(t, Unit::PDP, 1);
  EXPECT_EQ(t.read(Unit::PDP, P::S_STATUS::offset), 1u | (2u << 16));  // running, pending
  arm(t, Unit::PDP_RDMA, 1);                                            // pending behind group 0
  EXPECT_EQ(t.read(Unit::PDP_RDMA, RD::S_STATUS::offset), 2u << 16);
  arm(t, Unit::PDP_RDMA, 0);  // group 0 runs, then group 1
  EXPECT_EQ(t.m.intr_status(), (1u << 4) | (1u << 5));
  EXPECT_EQ(t.read(Unit::PDP, P::S_STATUS::offset), 0u);
  EXPECT_EQ(t.read(Unit::PDP_RDMA, RD::S_STATUS::offset), 0u);
  EXPECT_EQ(t.output(b, 0, 0, 5), t.output(a, 0, 0, 5));
}

TEST(GoldenPdpFlow, OnFlyingLayerWaitsForSdpWithoutWarning) {
  // The on-flying path itself is tested in golden_sdp_pdp_test.cpp.
  PdpHarness t("small");
  PdpLayer l = small_layer(t.cfg, 0x8100'0000);
  l.off_flying = false;
  t.write(Unit::PDP, P::S_POINTER::offset, 0);
  for (const auto& [off, v] : pdp_register_values(l)) t.write(Unit::PDP, off, v);
  arm(t, Unit::PDP, 0);
  EXPECT_EQ(t.read(Unit::PDP, P::D_OP_ENABLE::offset), 1u);
  EXPECT_EQ(t.m.intr_status(), 0u);
  EXPECT_TRUE(t.m.warnings().empty());
}

TEST(GoldenPdpFlow, RdmaArmedOnFlyingHangsWithAWarning) {
  PdpHarness t("small");
  PdpLayer l = small_layer(t.cfg, 0x8100'0000);
  program(t, l, 0);
  t.write(Unit::PDP_RDMA, RD::D_FLYING_MODE::offset, 0);
  arm(t, Unit::PDP_RDMA, 0);
  arm(t, Unit::PDP, 0);
  EXPECT_EQ(t.read(Unit::PDP_RDMA, RD::D_OP_ENABLE::offset), 1u);
  EXPECT_EQ(t.read(Unit::PDP, P::D_OP_ENABLE::offset), 1u);
  EXPECT_EQ(t.m.intr_status(), 0u);
  ASSERT_FALSE(t.m.warnings().empty());
}

TEST(GoldenPdpFlow, IllegalProgrammingIsWarnedAndStillComputed) {
  PdpHarness t("small");
  PdpLayer l = small_layer(t.cfg, 0x8100'0000);
  l.out_channels = 8;  // must equal the input channels
  t.fill_input(l, [](uint32_t, uint32_t, uint32_t) { return uint16_t{1}; });
  t.run(l);
  t.expect_done(0);
  ASSERT_EQ(t.m.warnings().size(), 1u);
  EXPECT_NE(t.m.warnings()[0].find("D_DATA_CUBE_OUT_CHANNEL"), std::string::npos) << t.m.warnings()[0];
}

TEST(GoldenPdpFlow, RegisterEncodingRoundTrips) {
  const HwConfig& cfg = HwConfig::get("v1");
  PdpLayer l = pdptest::make_layer(cfg, 2, PoolMethod::Min, 17, 9, 40, 5, 7, 3, 2, {4, 6, 2, 1});
  l.nan_to_zero = true;
  l.pad_value = {1, 2, 3, 0x7FFFF, 5, 6, 7};
  l.src = 0x1'2345'6780ull;
  l.dst_port = MemPort::Sram;
  ASSERT_TRUE(pdp_set_split(l, cfg, 3, 2, 2));
  RegisterSnapshot pdp, rdma;
  for (const auto& kv : pdp_register_values(l)) pdp.values.push_back(kv);
  for (const auto& kv : pdp_rdma_register_values(l)) rdma.values.push_back(kv);
  std::sort(pdp.values.begin(), pdp.values.end());
  std::sort(rdma.values.begin(), rdma.values.end());
  const PdpLayer d = decode_pdp_registers(pdp), r = decode_pdp_rdma_registers(rdma);
  EXPECT_EQ(pdp_register_values(d), pdp_register_values(l));
  EXPECT_TRUE(pdp_rdma_mismatches(d, r).empty());
  EXPECT_EQ(r.src, l.src);
}

}  // namespace
}  // namespace dla
