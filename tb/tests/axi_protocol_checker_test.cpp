#include "dla/bfm/axi_protocol_checker.h"

#include <gtest/gtest.h>

namespace dla::tb {
namespace {

// Feeds hand-made snapshot sequences, one per cycle.
class CheckerTest : public ::testing::Test {
 protected:
  void cycle(const AxiMasterOut& m, const AxiSlaveOut& s) { checker.observe(now++, m, s); }
  size_t count(ProtocolRule r) const {
    size_t n = 0;
    for (const auto& v : checker.violations()) n += v.rule == r ? 1 : 0;
    return n;
  }
  // A legal single-beat write: AW and W together, then B.
  void legal_write(uint8_t id, uint64_t addr) {
    AxiMasterOut m;
    AxiSlaveOut s;
    m.awvalid = true;
    m.awid = id;
    m.awaddr = addr;
    s.awready = true;
    cycle(m, s);
    m = {};
    s = {};
    m.wvalid = m.wlast = true;
    m.wstrb = ~0ull;
    s.wready = true;
    cycle(m, s);
    m = {};
    s = {};
    s.bvalid = true;
    s.bid = id;
    m.bready = true;
    cycle(m, s);
  }
  AxiProtocolChecker checker{"axi.dbb", 64};
  uint64_t now = 0;
};

TEST_F(CheckerTest, QuietOnLegalTrafficWithStalls) {
  AxiMasterOut m;
  AxiSlaveOut s;
  // AW waits two cycles with a stable payload, W follows over 2 beats with a stall.
  m.awvalid = true;
  m.awaddr = 0x1000;
  m.awlen = 1;
  m.awid = 3;
  cycle(m, s);
  cycle(m, s);
  s.awready = true;
  cycle(m, s);
  m = {};
  s = {};
  m.wvalid = true;
  m.wstrb = ~0ull;
  m.wdata[0] = 1;
  cycle(m, s);  // stalled
  s.wready = true;
  cycle(m, s);  // beat 1
  m.wdata[0] = 2;
  m.wlast = true;
  cycle(m, s);  // beat 2
  m = {};
  s = {};
  s.bvalid = true;
  s.bid = 3;
  cycle(m, s);  // B waits for BREADY
  m.bready = true;
  cycle(m, s);
  // Two reads in flight, answered in order.
  m = {};
  s = {};
  m.arvalid = true;
  m.araddr = 0x2000;
  m.arid = 1;
  s.arready = true;
  cycle(m, s);
  m.araddr = 0x3000;
  m.arid = 2;
  cycle(m, s);
  m = {};
  s = {};
  m.rready = true;
  s.rvalid = s.rlast = true;
  s.rid = 1;
  cycle(m, s);
  s.rid = 2;
  cycle(m, s);
  for (const auto& v : checker.violations()) ADD_FAILURE() << v.to_string();
  EXPECT_EQ(checker.reads_outstanding(), 0u);
  EXPECT_EQ(checker.write_responses_outstanding(), 0u);
}

TEST_F(CheckerTest, CatchesUnstablePayload) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = true;
  m.awaddr = 0x1000;
  cycle(m, s);
  m.awaddr = 0x1040;  // changed while AWREADY is low
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::PayloadUnstable), 1u);
  EXPECT_EQ(checker.violations().at(0).channel, BusChannel::AW);
  EXPECT_EQ(checker.violations().at(0).cycle, 1u);
}

TEST_F(CheckerTest, CatchesUnstableWriteData) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.wvalid = true;
  m.wdata[63] = 5;
  cycle(m, s);
  m.wdata[63] = 6;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::PayloadUnstable), 1u);
}

TEST_F(CheckerTest, CatchesDroppedValid) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.arvalid = true;
  cycle(m, s);
  m.arvalid = false;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::ValidDropped), 1u);
}

TEST_F(CheckerTest, CatchesUnalignedAddress) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.arvalid = true;
  m.araddr = 0x1020;  // 32-byte aligned, not 64
  s.arready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::UnalignedAddress), 1u);
}

TEST_F(CheckerTest, CatchesBurstCrossing4K) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = true;
  m.awaddr = 0x1fc0;  // last 64 bytes of a page, 2 beats
  m.awlen = 1;
  s.awready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::Crosses4K), 1u);
  m.awaddr = 0x1f80;  // ends exactly on the boundary: legal
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::Crosses4K), 1u);
}

TEST_F(CheckerTest, CatchesBurstTooLong) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.arvalid = true;
  m.arlen = 16;  // 17 beats
  s.arready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::BurstTooLong), 1u);
}

TEST_F(CheckerTest, ChecksEachRequestOnce) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = true;
  m.awaddr = 0x1004;
  for (int i = 0; i < 5; ++i) cycle(m, s);  // waiting 5 cycles is one request
  EXPECT_EQ(count(ProtocolRule::UnalignedAddress), 1u);
}

TEST_F(CheckerTest, CatchesEarlyWlast) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = true;
  m.awlen = 3;
  s.awready = true;
  m.wvalid = true;
  s.wready = true;
  m.wlast = true;  // on beat 1 of 4
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::WlastMismatch), 1u);
}

TEST_F(CheckerTest, CatchesMissingWlast) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = true;
  s.awready = true;
  cycle(m, s);
  m = {};
  m.wvalid = true;  // single-beat burst without WLAST
  s = {};
  s.wready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::WlastMismatch), 1u);
}

TEST_F(CheckerTest, CatchesExtraWBeat) {
  legal_write(4, 0x40);
  AxiMasterOut m;
  AxiSlaveOut s;
  m.wvalid = m.wlast = true;
  s.wready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::WWithoutAw), 1u);
  EXPECT_EQ(checker.violations().size(), 1u);
}

TEST_F(CheckerTest, WBeatInTheSameEdgeAsItsAwIsLegal) {
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = m.wvalid = m.wlast = true;
  s.awready = s.wready = true;
  cycle(m, s);
  EXPECT_TRUE(checker.violations().empty());
}

TEST_F(CheckerTest, CatchesBBeforeLastWBeatAndWithoutWrite) {
  AxiMasterOut m;
  AxiSlaveOut s;
  s.bvalid = true;
  m.bready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::BWithoutWrite), 1u);
  // B in the same edge as the burst's last W beat: the response came too early.
  m = {};
  s = {};
  m.awvalid = m.wvalid = m.wlast = m.bready = true;
  s.awready = s.wready = s.bvalid = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::BWithoutWrite), 2u);
}

TEST_F(CheckerTest, CatchesBOutOfOrder) {
  AxiMasterOut m;
  AxiSlaveOut s;
  for (uint8_t id : {1, 2}) {
    m.awvalid = m.wvalid = m.wlast = true;
    m.awid = id;
    s.awready = s.wready = true;
    cycle(m, s);
  }
  m = {};
  s = {};
  s.bvalid = true;
  s.bid = 2;
  m.bready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::BOutOfOrder), 1u);
}

TEST_F(CheckerTest, CatchesRWithoutReadAndOutOfOrderAndWrongRlast) {
  AxiMasterOut m;
  AxiSlaveOut s;
  s.rvalid = s.rlast = true;
  m.rready = true;
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::RWithoutRead), 1u);

  m = {};
  s = {};
  m.arvalid = true;
  s.arready = true;
  m.arid = 7;
  m.arlen = 1;
  cycle(m, s);
  m.arid = 8;
  m.arlen = 0;
  m.araddr = 0x1000;
  cycle(m, s);
  m = {};
  s = {};
  m.rready = true;
  s.rvalid = true;
  s.rid = 8;      // ARID 7 is older
  s.rlast = true; // and RLAST on beat 1 of 2
  cycle(m, s);
  EXPECT_EQ(count(ProtocolRule::ROutOfOrder), 1u);
  EXPECT_EQ(count(ProtocolRule::RlastMismatch), 1u);
}

TEST_F(CheckerTest, CapsRecordsButCountsEverything) {
  AxiProtocolChecker small("axi.sram", 8, 16, 3);
  AxiMasterOut m;
  AxiSlaveOut s;
  m.arvalid = true;
  s.arready = true;
  for (uint64_t i = 0; i < 10; ++i) {
    m.araddr = 0x1001 + 0x10 * i;
    small.observe(i, m, s);
  }
  EXPECT_EQ(small.violations().size(), 3u);
  EXPECT_EQ(small.violation_count(), 10u);
  EXPECT_EQ(small.violations()[0].port, "axi.sram");
  EXPECT_NE(small.violations()[0].to_string().find("unaligned_address"), std::string::npos);
}

}  // namespace
}  // namespace dla::tb
