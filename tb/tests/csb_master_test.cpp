#include "dla/bfm/csb_master.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

namespace dla::tb {
namespace {

// Register-file CSB slave for the tests: seeded ready, fixed response latency, optional
// planted bugs (spurious completion / read data).
class FakeCsbSlave {
 public:
  FakeCsbSlave(uint64_t seed, unsigned latency, double ready_p) : rng_(seed), latency_(latency), ready_p_(ready_p) {
    step_ready();
  }
  // Pre-edge outputs.
  const CsbSlaveOut& out() const { return out_; }
  // Handshake of this edge given the master's pre-edge outputs; then next outputs.
  void edge(uint64_t cycle, const CsbMasterOut& m) {
    if (m.valid && out_.ready) {
      accepted.push_back({cycle, m});
      if (m.write) {
        regs[m.addr] = m.wdat;
        if (m.nposted) pending_.push_back({cycle + latency_, false, 0});
      } else {
        pending_.push_back({cycle + latency_, true, regs.count(m.addr) ? regs[m.addr] : 0xBADu});
      }
    }
    out_.rvalid = out_.wr_complete = false;
    if (!pending_.empty() && pending_.front().due <= cycle) {
      (pending_.front().read ? out_.rvalid : out_.wr_complete) = true;
      out_.rdata = pending_.front().data;
      pending_.pop_front();
    }
    if (spurious_completion_at == cycle) out_.wr_complete = true;
    if (spurious_read_at == cycle) out_.rvalid = true;
    step_ready();
  }
  struct Accepted {
    uint64_t cycle;
    CsbMasterOut m;
  };
  std::vector<Accepted> accepted;
  std::map<uint16_t, uint32_t> regs;
  uint64_t spurious_completion_at = ~0ull;
  uint64_t spurious_read_at = ~0ull;

 private:
  struct Pending {
    uint64_t due;
    bool read;
    uint32_t data;
  };
  void step_ready() { out_.ready = std::uniform_real_distribution<double>(0, 1)(rng_) < ready_p_; }
  std::mt19937_64 rng_;
  unsigned latency_;
  double ready_p_;
  std::deque<Pending> pending_;
  CsbSlaveOut out_;
};

struct CsbBench {
  CsbBench(uint64_t seed, CsbMasterConfig cfg = {}, unsigned latency = 3, double ready_p = 0.5)
      : master(seed, cfg), slave(seed ^ 0xabc, latency, ready_p) {}
  void step() {
    const CsbMasterOut m = master.outputs();
    const CsbSlaveOut s = slave.out();
    if (m.valid && have_prev && prev.valid && !prev_ready) {
      stable &= m.addr == prev.addr && m.wdat == prev.wdat && m.write == prev.write && m.nposted == prev.nposted;
    }
    if (have_prev && prev.valid && !prev_ready && !m.valid) stable = false;
    prev = m;
    prev_ready = s.ready;
    have_prev = true;
    CsbMasterOut next;
    master.tick(cycle, s, next);
    slave.edge(cycle, m);
    ++cycle;
  }
  void run_until_idle(uint64_t limit = 10000) {
    do {
      ASSERT_LT(cycle, limit);
      step();
    } while (!master.idle());
  }
  CsbMaster master;
  FakeCsbSlave slave;
  uint64_t cycle = 0;
  bool stable = true;
  bool have_prev = false;
  bool prev_ready = false;
  CsbMasterOut prev;
};

TEST(CsbMaster, IssuesInOrderAndReturnsReadData) {
  CsbBench b(1);
  b.master.write(0x4000, 0x11111111);
  b.master.write(0x4004, 0x22222222, true);
  const auto t0 = b.master.read(0x4000);
  b.master.write(0x4000, 0x33333333);
  const auto t1 = b.master.read(0x4000);
  const auto t2 = b.master.read(0x4004);
  b.run_until_idle();
  EXPECT_EQ(b.master.read_result(t0), 0x11111111u);
  EXPECT_EQ(b.master.read_result(t1), 0x33333333u);
  EXPECT_EQ(b.master.read_result(t2), 0x22222222u);
  ASSERT_EQ(b.slave.accepted.size(), 6u);
  const uint16_t expected_words[] = {0x1000, 0x1001, 0x1000, 0x1000, 0x1000, 0x1001};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(b.slave.accepted[i].m.addr, expected_words[i]) << i;
  EXPECT_TRUE(b.slave.accepted[1].m.nposted);
  EXPECT_FALSE(b.slave.accepted[0].m.nposted);
  EXPECT_TRUE(b.stable) << "request changed or dropped while waiting for ready";
  EXPECT_TRUE(b.master.violations().empty());
  EXPECT_EQ(b.master.stats().completions, 1u);
  EXPECT_EQ(b.master.stats().read_data, 3u);
}

TEST(CsbMaster, NonPostedWriteKeepsItBusyUntilCompletion) {
  CsbBench b(2, {0, 4}, /*latency=*/20, /*ready_p=*/1.0);
  b.master.write(0x40, 5, true);
  while (b.slave.accepted.empty()) b.step();
  EXPECT_FALSE(b.master.idle());
  EXPECT_EQ(b.master.nposted_in_flight(), 1u);
  EXPECT_EQ(b.master.oldest_pending_address(), std::optional<uint32_t>(0x40));
  const uint64_t accepted_at = b.slave.accepted[0].cycle;
  b.run_until_idle();
  EXPECT_GE(b.cycle, accepted_at + 20);
  EXPECT_EQ(b.master.nposted_in_flight(), 0u);
  EXPECT_EQ(b.master.oldest_pending_address(), std::nullopt);
}

TEST(CsbMaster, PostedWritesNeedNoCompletion) {
  CsbBench b(3, {0, 4}, 5, 1.0);
  b.master.write(0x40, 5);
  b.run_until_idle();
  EXPECT_EQ(b.master.stats().writes, 1u);
  EXPECT_EQ(b.master.stats().completions, 0u);
}

TEST(CsbMaster, FlagsCompletionWithoutNonPostedWrite) {
  CsbBench b(4, {0, 4}, 2, 1.0);
  b.master.write(0x40, 5);  // posted: no completion expected
  b.slave.spurious_completion_at = 6;
  for (int i = 0; i < 10; ++i) b.step();
  ASSERT_EQ(b.master.violations().size(), 1u);
  EXPECT_EQ(b.master.violations()[0].rule, ProtocolRule::CsbCompletionWithoutWrite);
  EXPECT_EQ(b.master.violations()[0].port, "csb");
}

TEST(CsbMaster, FlagsReadDataWithoutRead) {
  CsbBench b(5, {0, 4}, 2, 1.0);
  b.slave.spurious_read_at = 3;
  for (int i = 0; i < 10; ++i) b.step();
  ASSERT_EQ(b.master.violations().size(), 1u);
  EXPECT_EQ(b.master.violations()[0].rule, ProtocolRule::CsbReadDataWithoutRead);
}

std::vector<uint64_t> issue_cycles(uint64_t seed, unsigned max_gap) {
  CsbBench b(seed, {max_gap, 4}, 1, 1.0);
  for (uint32_t i = 0; i < 20; ++i) b.master.write(4 * i, i);
  b.run_until_idle();
  std::vector<uint64_t> c;
  for (const auto& a : b.slave.accepted) c.push_back(a.cycle);
  return c;
}

TEST(CsbMaster, GapsAreSeededAndBounded) {
  EXPECT_EQ(issue_cycles(7, 5), issue_cycles(7, 5));
  EXPECT_NE(issue_cycles(7, 5), issue_cycles(8, 5));
  const auto c = issue_cycles(9, 5);
  bool some_gap = false;
  for (size_t i = 1; i < c.size(); ++i) {
    EXPECT_LE(c[i] - c[i - 1], 6u);
    some_gap |= c[i] - c[i - 1] > 1;
  }
  EXPECT_TRUE(some_gap);
  const auto b2b = issue_cycles(9, 0);
  for (size_t i = 1; i < b2b.size(); ++i) EXPECT_EQ(b2b[i] - b2b[i - 1], 1u) << "no gaps with max_gap_cycles=0";
}

TEST(CsbMaster, LimitsReadsInFlight) {
  CsbBench b(6, {0, 2}, 10, 1.0);
  for (uint32_t i = 0; i < 6; ++i) b.master.read(4 * i);
  size_t max_in_flight = 0;
  while (!b.master.idle()) {
    b.step();
    max_in_flight = std::max(max_in_flight, b.master.reads_in_flight());
    ASSERT_LT(b.cycle, 1000u);
  }
  EXPECT_EQ(max_in_flight, 2u);
}

std::vector<uint64_t> issue_cycles_with(uint64_t seed, bool randomize) {
  CsbMasterConfig cfg;
  cfg.randomize_dont_care = randomize;
  CsbBench b(seed, cfg);
  for (uint32_t i = 0; i < 20; ++i) (i % 3 == 0) ? void(b.master.read(4 * i)) : b.master.write(4 * i, i, i % 2);
  b.run_until_idle();
  EXPECT_TRUE(b.stable) << "a request changed while waiting for ready";
  std::vector<uint64_t> c;
  for (const auto& a : b.slave.accepted) c.push_back(a.cycle);
  return c;
}

TEST(CsbMaster, IgnoredFieldsCarryRandomValuesWithoutMovingAnyRequest) {
  EXPECT_EQ(issue_cycles_with(3, true), issue_cycles_with(3, false));
  CsbBench b(3);
  for (uint32_t i = 0; i < 8; ++i) b.master.read(4 * i);
  std::set<uint32_t> idle_data;  // held fields would show only the last read's data (0)
  std::set<uint32_t> read_data_fields;
  while (!b.master.idle()) {
    const CsbMasterOut& m = b.master.outputs();
    if (!m.valid) idle_data.insert(m.wdat);
    if (m.valid && !m.write) read_data_fields.insert(m.wdat);
    b.step();
    ASSERT_LT(b.cycle, 1000u);
  }
  EXPECT_GT(idle_data.size(), 2u);
  EXPECT_GT(read_data_fields.size(), 2u);
  for (const auto& a : b.slave.accepted) EXPECT_FALSE(a.m.write);  // the requests themselves are intact
}

// A slave whose write decode forgets the valid (or the direction) keeps its registers only while
// the ignored fields hold still; random ignored fields expose it.
TEST(CsbMaster, RandomIgnoredFieldsExposeADecodeThatForgetsTheValid) {
  for (const bool randomize : {false, true}) {
    CsbMasterConfig cfg;
    cfg.randomize_dont_care = randomize;
    CsbMaster master(5, cfg);
    std::map<uint16_t, uint32_t> regs;
    for (uint32_t i = 0; i < 4; ++i) master.write(4 * i, 0x100 + i);
    for (uint32_t i = 0; i < 4; ++i) master.read(4 * i);
    CsbSlaveOut in;
    in.ready = true;
    bool corrupted = false;
    for (uint64_t cycle = 0; cycle < 200; ++cycle) {
      CsbMasterOut out;
      master.tick(cycle, in, out);
      if (out.write && out.addr < 4) regs[out.addr] = out.wdat;  // planted: no `valid &&`
      for (uint16_t a = 0; a < 4; ++a)
        if (regs.count(a) && regs[a] != 0x100u + a && master.stats().writes == 4)
          corrupted = true;
    }
    EXPECT_EQ(corrupted, randomize) << (randomize ? "random ignored fields" : "held fields");
  }
}

TEST(CsbMaster, RejectsBadAddressesAndTickets) {
  CsbMaster m(1);
  EXPECT_THROW(m.write(0x4002, 0), std::invalid_argument);
  EXPECT_THROW(m.read(kCsbByteAddressLimit), std::invalid_argument);
  const auto t = m.read(0x10);
  EXPECT_FALSE(m.read_done(t));
  EXPECT_THROW(m.read_result(t), std::logic_error);
  EXPECT_THROW(m.read_result(t + 1), std::logic_error);
}

}  // namespace
}  // namespace dla::tb
