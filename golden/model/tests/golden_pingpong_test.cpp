// Ping-pong register groups (spec 5.2) and the UnitModel plug-in interface.
#include <gtest/gtest.h>

#include <algorithm>

#include "dla/golden_model.h"
#include "dla/regs.gen.h"

namespace dla {
namespace {

namespace P = reg::PDP;

struct PdpFixture : ::testing::Test {
  const HwConfig& cfg = HwConfig::get("v1");
  uint32_t base = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)];
  uint32_t a(uint32_t off) const { return base + off; }
  uint32_t glb_status = *cfg.unit_base[static_cast<unsigned>(Unit::GLB)] + reg::GLB::S_INTR_STATUS::offset;
};

TEST_F(PdpFixture, ProducerSelectsTheGroupSeenByCsb) {
  GoldenModel m(cfg);
  m.csb_write(a(P::D_DATA_CUBE_IN_WIDTH::offset), 11);
  m.csb_write(a(P::S_POINTER::offset), 1);
  EXPECT_EQ(m.csb_read(a(P::D_DATA_CUBE_IN_WIDTH::offset)), 0u);
  m.csb_write(a(P::D_DATA_CUBE_IN_WIDTH::offset), 22);
  EXPECT_EQ(m.csb_read(a(P::S_POINTER::offset)), 1u);
  m.csb_write(a(P::S_POINTER::offset), 0xfffffffeu);  // PRODUCER = 0; CONSUMER is read-only
  EXPECT_EQ(m.csb_read(a(P::S_POINTER::offset)), 0u);
  EXPECT_EQ(m.csb_read(a(P::D_DATA_CUBE_IN_WIDTH::offset)), 11u);
}

// RUBIK stands in for a ping-pong unit without a golden datapath (its datapath removed).
TEST_F(PdpFixture, WithoutDatapathArmedGroupsStayEnabledAndWritesAreDropped) {
  namespace R = reg::RBK;
  GoldenModel m(cfg);
  const uint32_t rbk = *cfg.unit_base[static_cast<unsigned>(Unit::RBK)];
  auto a = [&](uint32_t off) { return rbk + off; };
  m.remove_datapath(Unit::RBK);
  ASSERT_FALSE(m.has_datapath(Unit::RBK));
  m.csb_write(a(R::D_DATAIN_SIZE_0::offset), 5);
  m.csb_write(a(R::D_OP_ENABLE::offset), 1);
  EXPECT_EQ(m.csb_read(a(R::S_STATUS::offset)), 0x00000001u);  // group 0 RUNNING
  EXPECT_EQ(m.csb_read(a(R::D_OP_ENABLE::offset)), 1u);
  m.csb_write(a(R::D_DATAIN_SIZE_0::offset), 7);  // dropped
  m.csb_write(a(R::D_OP_ENABLE::offset), 0);      // dropped too
  EXPECT_EQ(m.csb_read(a(R::D_DATAIN_SIZE_0::offset)), 5u);
  EXPECT_EQ(m.csb_read(a(R::D_OP_ENABLE::offset)), 1u);
  m.csb_write(a(R::S_POINTER::offset), 1);
  m.csb_write(a(R::D_DATAIN_SIZE_0::offset), 9);  // group 1 is idle: stored
  EXPECT_EQ(m.csb_read(a(R::D_DATAIN_SIZE_0::offset)), 9u);
  m.csb_write(a(R::D_OP_ENABLE::offset), 1);
  EXPECT_EQ(m.csb_read(a(R::S_STATUS::offset)), 0x00020001u);  // group 1 PENDING
  EXPECT_EQ(m.csb_read(glb_status), 0u);
  ASSERT_EQ(m.layers().size(), 1u) << "only the consumer group started";
  EXPECT_EQ(m.layers()[0].unit, Unit::RBK);
  EXPECT_FALSE(m.layers()[0].completed);
  EXPECT_EQ(m.layers()[0].regs.get(R::D_DATAIN_SIZE_0::offset), 5u);
  ASSERT_EQ(m.warnings().size(), 1u);
  EXPECT_NE(m.warnings()[0].find("RBK has no golden datapath yet"), std::string::npos);
}

// A test datapath: records what it saw and reports a NaN count.
class FakePdp final : public UnitModel {
 public:
  Unit unit() const override { return Unit::PDP; }
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override {
    widths.push_back(regs.field<P::D_DATA_CUBE_IN_WIDTH, P::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH>());
    groups.push_back(regs.group);
    const uint8_t byte = static_cast<uint8_t>(widths.back());
    ctx.memory(MemPort::Dbb).write(0x1000 + widths.size(), &byte, 1);
    LayerResult r;
    r.counters = {{P::D_NAN_INPUT_NUM::offset, 100 + widths.back()}};
    return r;
  }
  std::vector<uint32_t> widths;
  std::vector<int> groups;
};

TEST_F(PdpFixture, PluggedDatapathCompletesGroupsInConsumerOrder) {
  GoldenModel m(cfg);
  auto fake = std::make_unique<FakePdp>();
  FakePdp* pdp = fake.get();
  m.install(std::move(fake));
  m.csb_write(a(P::D_DATA_CUBE_IN_WIDTH::offset), 3);
  m.csb_write(a(P::D_OP_ENABLE::offset), 1);
  // Completed at once: OP_EN cleared, CONSUMER flipped, counter latched, interrupt raised.
  EXPECT_EQ(m.csb_read(a(P::D_OP_ENABLE::offset)), 0u);
  EXPECT_EQ(m.csb_read(a(P::S_STATUS::offset)), 0u);
  EXPECT_EQ(m.csb_read(a(P::S_POINTER::offset)), 0x00010000u);
  EXPECT_EQ(m.csb_read(a(P::D_NAN_INPUT_NUM::offset)), 103u);
  EXPECT_EQ(m.csb_read(glb_status), 1u << 4);
  EXPECT_EQ(m.memory(MemPort::Dbb).read_byte(0x1001), 3);
  // Group 1 is the consumer now; arming group 0 waits for it.
  m.csb_write(a(P::D_DATA_CUBE_IN_WIDTH::offset), 4);
  m.csb_write(a(P::D_OP_ENABLE::offset), 1);
  EXPECT_EQ(m.csb_read(a(P::S_STATUS::offset)), 2u) << "group 0 PENDING behind consumer 1";
  EXPECT_EQ(m.csb_read(a(P::D_NAN_INPUT_NUM::offset)), 0u) << "counters clear at arm";
  m.csb_write(a(P::S_POINTER::offset), 1);
  m.csb_write(a(P::D_DATA_CUBE_IN_WIDTH::offset), 8);
  m.csb_write(a(P::D_OP_ENABLE::offset), 1);  // group 1 runs, then group 0
  EXPECT_EQ(pdp->widths, (std::vector<uint32_t>{3, 8, 4}));
  EXPECT_EQ(pdp->groups, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(m.csb_read(a(P::S_STATUS::offset)), 0u);
  EXPECT_EQ(m.csb_read(a(P::S_POINTER::offset)), 0x00010001u);
  EXPECT_EQ(m.csb_read(a(P::D_NAN_INPUT_NUM::offset)), 108u);
  EXPECT_EQ(m.csb_read(glb_status), 3u << 4);
  EXPECT_EQ(m.layers().size(), 3u);
  EXPECT_TRUE(std::all_of(m.layers().begin(), m.layers().end(), [](const LayerRecord& l) { return l.completed; }));
  EXPECT_TRUE(m.warnings().empty());
}

TEST(GoldenModelInstall, RejectsAUnitTheConfigurationDoesNotHave) {
  GoldenModel m(HwConfig::get("small"));
  class FakeRbk final : public UnitModel {
   public:
    Unit unit() const override { return Unit::RBK; }
  };
  EXPECT_THROW(m.install(std::make_unique<FakeRbk>()), std::invalid_argument);
}

}  // namespace
}  // namespace dla
