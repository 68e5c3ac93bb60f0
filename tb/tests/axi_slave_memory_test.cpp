#include "dla/bfm/axi_slave_memory.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "axi_test_master.h"
#include "dla/bfm/axi_protocol_checker.h"

namespace dla::tb {
namespace {

using test::MasterFault;
using test::TestAxiMaster;

// Slave, checker and reference master connected with the harness's per-cycle ordering.
struct Bench {
  Bench(unsigned bytes, const AxiTiming& timing, uint64_t seed, double master_ready = 1.0,
        MasterFault fault = MasterFault::None)
      : memory(0x5eed), slave(memory, bytes, timing, seed), checker("axi.test", bytes), master(bytes, seed + 1, master_ready, fault) {}

  void step() {
    const AxiMasterOut m = master.out();
    const AxiSlaveOut s = slave.outputs();
    checker.observe(cycle, m, s);
    if (m.arvalid && s.arready) ar_cycles.push_back(cycle);
    if (m.awvalid && s.awready) aw_cycles.push_back(cycle);
    if (s.rvalid && m.rready) r_cycles.push_back(cycle);
    if (s.rvalid) rvalid_cycles.push_back(cycle);
    if (m.wvalid && s.wready) w_cycles.push_back(cycle);
    if (s.bvalid && m.bready) b_cycles.push_back(cycle);
    max_reads_seen = std::max(max_reads_seen, slave.outstanding_reads());
    AxiSlaveOut next;
    slave.tick(m, next);
    master.edge(s);
    ++cycle;
  }
  void run(size_t read_beats, size_t bs, uint64_t limit = 100000) {
    while (!master.done(read_beats, bs)) {
      ASSERT_LT(cycle, limit) << "traffic did not finish";
      step();
    }
  }

  SparseMemory memory;
  AxiSlaveMemory slave;
  AxiProtocolChecker checker;
  TestAxiMaster master;
  uint64_t cycle = 0;
  uint32_t max_reads_seen = 0;
  std::vector<uint64_t> aw_cycles, ar_cycles, r_cycles, rvalid_cycles, w_cycles, b_cycles;
};

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

class ProfileTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>> {};

TEST_P(ProfileTest, WrittenBurstsReadBackAndTrafficIsLegal) {
  const auto& [profile, bytes] = GetParam();
  Bench b(bytes, AxiTiming::profile(profile), 7, 0.6);
  std::vector<std::vector<uint8_t>> payloads;
  std::vector<uint64_t> addrs;
  for (unsigned i = 0; i < 12; ++i) {
    const unsigned beats = 1 + i % 16;
    const uint64_t addr = 0x80000000ull + i * 0x1000ull;
    payloads.push_back(random_bytes(beats * bytes, i));
    addrs.push_back(addr);
    b.master.queue_write(static_cast<uint8_t>(i), addr, payloads.back());
  }
  b.run(0, payloads.size());
  size_t beats_total = 0;
  for (unsigned i = 0; i < payloads.size(); ++i) {
    b.master.queue_read(static_cast<uint8_t>(100 + i), addrs[i], static_cast<unsigned>(payloads[i].size() / bytes));
    beats_total += payloads[i].size() / bytes;
  }
  b.run(beats_total, payloads.size());

  size_t beat = 0;
  for (unsigned i = 0; i < payloads.size(); ++i) {
    const unsigned beats = static_cast<unsigned>(payloads[i].size() / bytes);
    for (unsigned k = 0; k < beats; ++k, ++beat) {
      const auto& rb = b.master.read_beats.at(beat);
      EXPECT_EQ(rb.id, 100 + i) << "responses must come back in request order";
      EXPECT_EQ(rb.last, k + 1 == beats);
      EXPECT_TRUE(std::equal(rb.data.begin(), rb.data.end(), payloads[i].begin() + k * bytes))
          << "burst " << i << " beat " << k;
    }
  }
  for (unsigned i = 0; i < payloads.size(); ++i) EXPECT_EQ(b.master.b_ids.at(i), i);
  for (const auto& v : b.checker.violations()) ADD_FAILURE() << v.to_string();
  EXPECT_EQ(b.slave.stats().bytes_written, beats_total * bytes);
  EXPECT_EQ(b.slave.stats().bytes_read, beats_total * bytes);
  EXPECT_EQ(b.slave.stats().read_bursts, payloads.size());
  EXPECT_TRUE(b.slave.idle());
}

INSTANTIATE_TEST_SUITE_P(AllProfiles, ProfileTest,
                         ::testing::Combine(::testing::Values("fast", "random", "slow", "bursty", "late_b", "slow_writes",
                                                              "latency"),
                                            ::testing::Values(64u, 8u)),
                         [](const auto& param_info) {
                           return std::get<0>(param_info.param) + "_" + std::to_string(std::get<1>(param_info.param)) + "B";
                         });

// slow_writes throttles the write side only: the same bursts written and read back, the writes
// are withheld and slower than on `fast`, the reads are never withheld and as fast.
TEST(AxiSlaveMemory, SlowWritesThrottlesWritesNotReads) {
  auto traffic = [](const char* profile, bool writes) {
    Bench b(64, AxiTiming::profile(profile), 3);
    for (unsigned i = 0; i < 8; ++i) {
      const uint64_t addr = 0x1000ull * i;
      if (writes) b.master.queue_write(static_cast<uint8_t>(i), addr, random_bytes(16 * 64, i));
      else b.master.queue_read(static_cast<uint8_t>(i), addr, 16);
    }
    b.run(writes ? 0 : 8 * 16, writes ? 8 : 0);
    return std::make_pair(b.cycle, b.slave.stats());
  };
  const auto [fast_w, fast_ws] = traffic("fast", true);
  const auto [slow_w, slow_ws] = traffic("slow_writes", true);
  const auto [fast_r, fast_rs] = traffic("fast", false);
  const auto [slow_r, slow_rs] = traffic("slow_writes", false);
  EXPECT_GT(slow_ws.write_withheld_cycles, 0u);
  EXPECT_GT(slow_w, 2 * fast_w) << "writes not throttled";
  EXPECT_EQ(slow_rs.read_withheld_cycles, 0u);
  EXPECT_EQ(slow_r, fast_r) << "reads throttled";
}

// `latency`: reads wait 48 cycles for their first beat and nothing else. Eight one-beat reads
// issued back to back overlap their latencies (read_latency_cycles about one latency); the same
// reads one after another pay it eight times. Every latency wait is a withheld cycle too.
TEST(AxiSlaveMemory, LatencyProfileCountsTheReadLatencyAMasterDoesNotHide) {
  const AxiTiming t = AxiTiming::profile("latency");
  EXPECT_TRUE(t.reads_unthrottled());
  EXPECT_FALSE(AxiTiming::profile("random").reads_unthrottled());
  EXPECT_FALSE(AxiTiming::profile("slow").reads_unthrottled());
  Bench pipelined(64, t, 1);
  for (unsigned i = 0; i < 8; ++i) pipelined.master.queue_read(static_cast<uint8_t>(i), i * 64ull, 1);
  pipelined.run(8, 0);
  Bench serial(64, t, 1);
  for (unsigned i = 0; i < 8; ++i) {
    serial.master.queue_read(static_cast<uint8_t>(i), i * 64ull, 1);
    serial.run(i + 1, 0);
  }
  const AxiMemoryStats p = pipelined.slave.stats(), s = serial.slave.stats();
  EXPECT_GE(p.read_latency_cycles, 48u);
  EXPECT_LE(p.read_latency_cycles, 48u + 8u);
  EXPECT_GE(s.read_latency_cycles, 8u * 48u);
  EXPECT_LE(p.read_latency_cycles, p.read_withheld_cycles);
  EXPECT_LE(s.read_latency_cycles, s.read_withheld_cycles);
  // Throttling is not latency: on `fast` nothing; one 8-beat read 10 cycles late whose R beats a
  // half-open gate holds back counts exactly the 10 latency cycles, though more are withheld.
  Bench fast(64, AxiTiming::profile("fast"), 1);
  for (unsigned i = 0; i < 8; ++i) fast.master.queue_read(static_cast<uint8_t>(i), i * 64ull, 4);
  fast.run(32, 0);
  EXPECT_EQ(fast.slave.stats().read_latency_cycles, 0u);
  AxiTiming gated = AxiTiming::profile("fast");
  gated.read_latency_min = gated.read_latency_max = 10;
  gated.r_valid = {0.5, 0.5};
  Bench one(64, gated, 7);
  one.master.queue_read(0, 0, 8);
  one.run(8, 0);
  EXPECT_EQ(one.slave.stats().read_latency_cycles, 10u);
  EXPECT_GT(one.slave.stats().read_withheld_cycles, 10u) << "the gate never closed: pick another seed";
  // A cycle in which an AR waits (here for the one outstanding slot) is the slave's throttling,
  // not latency: of two 1-beat reads 10 cycles late, only the second's wait counts (the first's
  // overlaps the second's AR waiting).
  AxiTiming one_slot = AxiTiming::profile("fast");
  one_slot.read_latency_min = one_slot.read_latency_max = 10;
  one_slot.max_outstanding_reads = 1;
  Bench two(64, one_slot, 1);
  two.master.queue_read(0, 0, 1);
  two.master.queue_read(1, 64, 1);
  two.run(2, 0);
  EXPECT_EQ(two.slave.stats().read_latency_cycles, 10u);
}

TEST(AxiSlaveMemory, NeverWrittenBytesReadAsPoisonAndStrobesMaskWrites) {
  Bench b(8, AxiTiming::profile("fast"), 3);
  const std::vector<uint8_t> data = random_bytes(8, 99);
  b.master.queue_write(1, 0x1000, data, 0b00001111);  // only the low four bytes
  b.run(0, 1);
  b.master.queue_read(2, 0x1000, 2);
  b.run(2, 1);
  const auto& beat0 = b.master.read_beats.at(0).data;
  const auto& beat1 = b.master.read_beats.at(1).data;
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(beat0[i], data[i]);
  for (unsigned i = 4; i < 8; ++i) EXPECT_EQ(beat0[i], b.memory.poison_byte(0x1000 + i)) << "byte " << i;
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(beat1[i], b.memory.poison_byte(0x1008 + i)) << "byte " << i;
  EXPECT_EQ(b.slave.stats().bytes_written, 4u);
}

TEST(AxiSlaveMemory, SameSeedSameTimingOtherSeedOtherTiming) {
  auto trace = [](uint64_t seed) {
    Bench b(64, AxiTiming::profile("random"), seed, 0.7);
    for (unsigned i = 0; i < 10; ++i) b.master.queue_write(static_cast<uint8_t>(i), i * 0x400ull, random_bytes(4 * 64, i));
    for (unsigned i = 0; i < 10; ++i) b.master.queue_read(static_cast<uint8_t>(i), i * 0x400ull, 4);
    b.run(40, 10);
    std::vector<uint64_t> t = b.ar_cycles;
    t.insert(t.end(), b.r_cycles.begin(), b.r_cycles.end());
    t.insert(t.end(), b.w_cycles.begin(), b.w_cycles.end());
    t.insert(t.end(), b.b_cycles.begin(), b.b_cycles.end());
    return t;
  };
  EXPECT_EQ(trace(11), trace(11));
  EXPECT_NE(trace(11), trace(12));
}

TEST(AxiSlaveMemory, ReadLatencyFollowsTheTiming) {
  AxiTiming t = AxiTiming::profile("fast");
  Bench fast(64, t, 1);
  fast.master.queue_read(0, 0, 1);
  fast.run(1, 0);
  ASSERT_EQ(fast.ar_cycles.size(), 1u);
  EXPECT_EQ(fast.rvalid_cycles.at(0), fast.ar_cycles[0] + 1) << "zero latency: R in the cycle after AR";

  t.read_latency_min = t.read_latency_max = 5;
  Bench slow(64, t, 1);
  slow.master.queue_read(0, 0, 1);
  slow.run(1, 0);
  EXPECT_EQ(slow.rvalid_cycles.at(0), slow.ar_cycles[0] + 6);
}

TEST(AxiSlaveMemory, RespectsMaxOutstandingReads) {
  AxiTiming t = AxiTiming::profile("fast");
  t.max_outstanding_reads = 2;
  t.read_latency_min = t.read_latency_max = 10;
  Bench b(64, t, 5);
  for (unsigned i = 0; i < 8; ++i) b.master.queue_read(static_cast<uint8_t>(i), i * 64ull, 1);
  b.run(8, 0);
  EXPECT_EQ(b.max_reads_seen, 2u);
  // With two slots and a 10-cycle latency the third AR must wait for the first R beat.
  ASSERT_GE(b.ar_cycles.size(), 3u);
  EXPECT_GT(b.ar_cycles[2], b.r_cycles[0]);
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(b.master.read_beats[i].id, i);
}

TEST(AxiSlaveMemory, RespectsMaxOutstandingWritesAndWriteLatency) {
  AxiTiming t = AxiTiming::profile("fast");
  t.max_outstanding_writes = 1;
  t.write_latency_min = t.write_latency_max = 7;
  Bench b(8, t, 5);
  for (unsigned i = 0; i < 3; ++i) b.master.queue_write(static_cast<uint8_t>(i), i * 64ull, random_bytes(16, i));
  b.run(0, 3);
  ASSERT_EQ(b.aw_cycles.size(), 3u);
  ASSERT_EQ(b.b_cycles.size(), 3u);
  ASSERT_EQ(b.w_cycles.size(), 6u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(b.b_cycles[i], b.w_cycles[2 * i + 1] + 8) << "B 7 cycles after the earliest possible";
    if (i > 0) {
      EXPECT_GT(b.aw_cycles[i], b.b_cycles[i - 1]) << "one write outstanding at most";
    }
  }
}

TEST(AxiSlaveMemory, LateBProfileAnswersWritesLateWithManyOutstanding) {
  Bench b(8, AxiTiming::profile("late_b"), 5);
  for (unsigned i = 0; i < 40; ++i) b.master.queue_write(static_cast<uint8_t>(i % 4), i * 64ull, random_bytes(8, i));
  b.run(0, 40);
  ASSERT_EQ(b.aw_cycles.size(), 40u);
  ASSERT_EQ(b.b_cycles.size(), 40u);
  ASSERT_EQ(b.w_cycles.size(), 40u);
  for (unsigned i = 0; i < 40; ++i) EXPECT_GE(b.b_cycles[i], b.w_cycles[i] + 200) << "write " << i;
  EXPECT_LT(b.aw_cycles.back(), b.b_cycles.front()) << "every write is accepted before the first B: a deep queue";
}

TEST(AxiSlaveMemory, RejectsBadWidthAndUnknownProfile) {
  SparseMemory m;
  EXPECT_THROW(AxiSlaveMemory(m, 48, AxiTiming{}, 1), std::invalid_argument);
  EXPECT_THROW(AxiSlaveMemory(m, 128, AxiTiming{}, 1), std::invalid_argument);
  try {
    AxiTiming::profile("turbo");
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("turbo"), std::string::npos);
  }
  AxiTiming bad;
  bad.read_latency_min = 3;
  bad.read_latency_max = 1;
  EXPECT_THROW(AxiSlaveMemory(m, 8, bad, 1), std::invalid_argument);
}

// Planted master bugs against the real slave: the checker must name each one.
struct PlantedFault {
  MasterFault fault;
  ProtocolRule rule;
};

class PlantedMasterFault : public ::testing::TestWithParam<PlantedFault> {};

TEST_P(PlantedMasterFault, CheckerCatchesIt) {
  AxiTiming t = AxiTiming::profile("slow");  // stalls AW so that waiting faults can show
  Bench b(64, t, 21, 1.0, GetParam().fault);
  for (unsigned i = 0; i < 4; ++i) b.master.queue_write(static_cast<uint8_t>(i), i * 0x200ull, random_bytes(4 * 64, i));
  for (int i = 0; i < 3000; ++i) b.step();
  bool found = false;
  for (const auto& v : b.checker.violations()) found |= v.rule == GetParam().rule;
  EXPECT_TRUE(found) << "expected rule " << to_string(GetParam().rule);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, PlantedMasterFault,
    ::testing::Values(PlantedFault{MasterFault::ChangeAwAddrWhileWaiting, ProtocolRule::PayloadUnstable},
                      PlantedFault{MasterFault::DropAwValid, ProtocolRule::ValidDropped},
                      PlantedFault{MasterFault::NoWlast, ProtocolRule::WlastMismatch},
                      PlantedFault{MasterFault::ExtraWBeat, ProtocolRule::WlastMismatch}),
    [](const auto& param_info) { return std::string(to_string(param_info.param.rule)) + "_" + std::to_string(param_info.index); });

}  // namespace
}  // namespace dla::tb
