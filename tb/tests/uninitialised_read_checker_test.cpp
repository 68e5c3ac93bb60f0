#include "dla/bfm/uninitialised_read_checker.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace dla::tb {
namespace {

class UninitialisedReadTest : public ::testing::Test {
 protected:
  // One cycle with an AR of `beats` beats at `addr`; `accepted` = ARREADY.
  void read(uint64_t addr, unsigned beats, bool accepted = true, uint8_t id = 5) {
    AxiMasterOut m;
    AxiSlaveOut s;
    m.arvalid = true;
    m.arid = id;
    m.araddr = addr;
    m.arlen = static_cast<uint8_t>(beats - 1);
    s.arready = accepted;
    checker.observe(now++, m, s);
  }
  void load(uint64_t addr, size_t n) { memory.load(addr, std::vector<uint8_t>(n, 0x5a)); }

  SparseMemory memory{42};
  UninitialisedReadChecker checker{"axi.dbb", 32, memory};
  uint64_t now = 0;
};

TEST_F(UninitialisedReadTest, ReadsInsideLoadedDataPass) {
  load(0x1000, 256);
  read(0x1000, 8);
  read(0x10e0, 1);
  EXPECT_EQ(checker.violation_count(), 0u);
  EXPECT_EQ(checker.bursts_checked(), 2u);
}

TEST_F(UninitialisedReadTest, BeatWithOneLoadedBytePasses) {
  load(0x2000 + 31, 1);  // last byte of the first beat: the DUT masks the other lanes
  load(0x2020, 1);       // first byte of the second beat
  read(0x2000, 2);
  EXPECT_EQ(checker.violation_count(), 0u);
}

TEST_F(UninitialisedReadTest, DataWrittenByTheDutCountsAsInitialised) {
  const std::vector<uint8_t> bytes(32, 1);
  memory.write(0x3000, bytes);  // an earlier layer's output
  read(0x3000, 1);
  EXPECT_EQ(checker.violation_count(), 0u);
}

TEST_F(UninitialisedReadTest, ReadPastTheEndOfTheInputIsReported) {
  load(0x1000, 64);
  read(0x1000, 4);  // beats 2 and 3 lie beyond the loaded 64 bytes
  ASSERT_EQ(checker.violations().size(), 1u);
  const ProtocolViolation& v = checker.violations()[0];
  EXPECT_EQ(v.rule, ProtocolRule::ReadUninitialised);
  EXPECT_EQ(v.channel, BusChannel::AR);
  EXPECT_EQ(v.port, "axi.dbb");
  EXPECT_EQ(v.cycle, 0u);
  EXPECT_NE(v.detail.find("2 beat(s)"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("first at 0x1040"), std::string::npos) << v.detail;
  EXPECT_NE(v.to_string().find("axi.dbb.ar read_uninitialised @0"), std::string::npos) << v.to_string();
  EXPECT_EQ(checker.uninitialised_beats(), 2u);
}

TEST_F(UninitialisedReadTest, ReadOfNeverTouchedMemoryIsReported) {
  read(0x8000, 1);
  EXPECT_EQ(checker.violation_count(), 1u);
}

TEST_F(UninitialisedReadTest, OnlyTheHandshakeIsChecked) {
  read(0x8000, 1, false);  // waiting for ARREADY: not yet a read
  EXPECT_EQ(checker.bursts_checked(), 0u);
  load(0x8000, 32);  // initialised before the handshake
  read(0x8000, 1, true);
  EXPECT_EQ(checker.violation_count(), 0u);
}

TEST_F(UninitialisedReadTest, RecordsAreCappedButCounted) {
  UninitialisedReadChecker capped("axi.sram", 32, memory, 2);
  for (int i = 0; i < 5; ++i) {
    AxiMasterOut m;
    AxiSlaveOut s;
    m.arvalid = s.arready = true;
    m.araddr = 0x9000 + 32u * static_cast<unsigned>(i);
    capped.observe(static_cast<uint64_t>(i), m, s);
  }
  EXPECT_EQ(capped.violations().size(), 2u);
  EXPECT_EQ(capped.violation_count(), 5u);
}

TEST_F(UninitialisedReadTest, BadBusWidthIsRefused) {
  EXPECT_THROW(UninitialisedReadChecker("axi.dbb", 48, memory), std::invalid_argument);
}

}  // namespace
}  // namespace dla::tb
