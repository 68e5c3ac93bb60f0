#include "dla/bfm/write_completion_tracker.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace dla::tb {
namespace {

class WriteCompletionTest : public ::testing::Test {
 protected:
  void aw(uint8_t id, uint64_t addr, unsigned beats) {
    AxiMasterOut m;
    AxiSlaveOut s;
    m.awvalid = s.awready = true;
    m.awid = id;
    m.awaddr = addr;
    m.awlen = static_cast<uint8_t>(beats - 1);
    tracker.observe(now++, m, s);
  }
  void w(uint64_t strb) {
    AxiMasterOut m;
    AxiSlaveOut s;
    m.wvalid = s.wready = true;
    m.wstrb = strb;
    tracker.observe(now++, m, s);
  }
  void b(uint8_t id, bool ready = true) {
    AxiMasterOut m;
    AxiSlaveOut s;
    s.bvalid = true;
    s.bid = id;
    m.bready = ready;
    tracker.observe(now++, m, s);
  }
  WriteCompletionTracker tracker{"axi.dbb", 32};
  uint64_t now = 0;
};

TEST_F(WriteCompletionTest, WriteIsPendingUntilItsB) {
  aw(1, 0x1000, 2);  // 0x1000..0x103f
  ASSERT_TRUE(tracker.pending_in(0x1000, 64).has_value());
  EXPECT_TRUE(tracker.pending_in(0x103f, 1).has_value());
  EXPECT_FALSE(tracker.pending_in(0x1040, 64).has_value());  // next to it, not overlapping
  EXPECT_FALSE(tracker.pending_in(0x0fc0, 64).has_value());
  b(1, false);  // BVALID without BREADY: no handshake
  EXPECT_EQ(tracker.pending(), 1u);
  b(1);
  EXPECT_EQ(tracker.pending(), 0u);
  EXPECT_FALSE(tracker.pending_in(0x1000, 64).has_value());
}

TEST_F(WriteCompletionTest, ResponsesMatchPerIdInOrder) {
  aw(1, 0x1000, 1);
  aw(2, 0x2000, 1);
  aw(1, 0x3000, 1);
  b(2);  // another ID's response does not complete ID 1's writes
  EXPECT_TRUE(tracker.pending_in(0x1000, 32).has_value());
  EXPECT_FALSE(tracker.pending_in(0x2000, 32).has_value());
  b(1);  // the oldest write of ID 1
  EXPECT_FALSE(tracker.pending_in(0x1000, 32).has_value());
  EXPECT_TRUE(tracker.pending_in(0x3000, 32).has_value());
}

TEST_F(WriteCompletionTest, ReportsTheOldestOverlappingWrite) {
  aw(3, 0x4000, 4);
  aw(4, 0x4040, 1);
  const auto w = tracker.pending_in(0x4040, 32);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->id, 3u);
  EXPECT_EQ(w->issued_cycle, 0u);
  EXPECT_EQ(w->to_string(), "AWID 3 at 0x4000 (+0x80), issued @0");
}

TEST_F(WriteCompletionTest, ResponseAtTheSameEdgeAsANewWriteAnswersTheOlderOne) {
  aw(1, 0x1000, 1);
  AxiMasterOut m;
  AxiSlaveOut s;
  m.awvalid = s.awready = true;
  m.awid = 1;
  m.awaddr = 0x2000;
  s.bvalid = m.bready = true;
  s.bid = 1;
  tracker.observe(now++, m, s);
  EXPECT_FALSE(tracker.pending_in(0x1000, 32).has_value());
  EXPECT_TRUE(tracker.pending_in(0x2000, 32).has_value());
}

// Once its beats are seen, a burst covers only its strobed bytes: one starting in the upper
// half of a beat shared with a neighbouring output is not a write to that output.
TEST_F(WriteCompletionTest, FullySeenBurstCoversOnlyItsStrobedBytes) {
  aw(1, 0x1000, 2);                                   // 0x1000..0x103f
  EXPECT_TRUE(tracker.pending_in(0x1000, 16).has_value());  // beats unknown: the whole burst
  w(0xffff0000u);                                     // beat 0: bytes 0x1010..0x101f
  EXPECT_TRUE(tracker.pending_in(0x1000, 16).has_value());  // beat 1 still unknown
  w(0x000000ffu);                                     // beat 1: bytes 0x1020..0x1027
  EXPECT_FALSE(tracker.pending_in(0x1000, 16).has_value());
  EXPECT_TRUE(tracker.pending_in(0x100f, 2).has_value());
  EXPECT_TRUE(tracker.pending_in(0x1027, 1).has_value());
  EXPECT_FALSE(tracker.pending_in(0x1028, 0x18).has_value());
  b(1);
  EXPECT_FALSE(tracker.pending_in(0x1010, 1).has_value());
}

// W beats follow AW order across IDs; a beat before its AW applies when the AW arrives.
TEST_F(WriteCompletionTest, BeatsFollowAwOrder) {
  w(0x1u);                                            // before any AW
  aw(2, 0x2000, 1);                                   // takes the early beat: byte 0x2000
  aw(3, 0x3000, 1);
  w(0x80000000u);                                     // AWID 3's beat: byte 0x301f
  EXPECT_FALSE(tracker.pending_in(0x2001, 31).has_value());
  EXPECT_TRUE(tracker.pending_in(0x2000, 1).has_value());
  EXPECT_FALSE(tracker.pending_in(0x3000, 31).has_value());
  EXPECT_TRUE(tracker.pending_in(0x301f, 1).has_value());
}

TEST_F(WriteCompletionTest, StrayResponseIsIgnored) {
  b(7);  // the protocol checker reports b_without_write
  EXPECT_EQ(tracker.pending(), 0u);
}

TEST_F(WriteCompletionTest, BadBusWidthIsRefused) {
  EXPECT_THROW(WriteCompletionTracker("axi.dbb", 3), std::invalid_argument);
}

}  // namespace
}  // namespace dla::tb
