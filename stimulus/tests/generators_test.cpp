#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <set>

#include "dla/golden_model.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "program_executor.h"

namespace dla {
namespace {

std::string describe(const ProgramOp& op) {
  if (const auto* l = std::get_if<MemLoad>(&op)) {
    uint64_t h = 1469598103934665603ull;
    for (uint8_t b : l->bytes) h = (h ^ b) * 1099511628211ull;
    return fmt::format("load {} {:x} {} {:x}", mem_port_name(l->port), l->addr, l->bytes.size(), h);
  }
  if (const auto* w = std::get_if<RegWrite>(&op)) return fmt::format("w {:x} {:x} {}", w->addr, w->data, w->nposted);
  if (const auto* r = std::get_if<RegRead>(&op))
    return fmt::format("r {:x} {:x} {} {}{}", r->addr, r->mask, r->expect ? fmt::format("{:x}", *r->expect) : "-", r->what,
                       r->zero_ok ? " or 0" : "");
  if (const auto* i = std::get_if<WaitIntr>(&op)) return fmt::format("wait {:x} {}", i->status_bits, i->timeout_cycles);
  if (const auto* c = std::get_if<CheckMem>(&op)) {
    uint64_t h = 1469598103934665603ull;
    for (uint8_t b : c->expect) h = (h ^ b) * 1099511628211ull;
    return fmt::format("check {} {:x} {} {:x} {}", mem_port_name(c->port), c->addr, c->expect.size(), h, c->what);
  }
  if (const auto* i = std::get_if<Idle>(&op)) return fmt::format("idle {}", i->cycles);
  return fmt::format("op kind {}", op.index());  // kinds no generator under test emits
}

std::vector<std::string> describe(const Program& p) {
  std::vector<std::string> v;
  for (const auto& op : p.ops) v.push_back(describe(op));
  return v;
}

// A read's expectation for the DUT: the test's value if it has one, else the golden model's; a
// zero_ok read also accepts 0 (under the mask) and nothing else besides.
TEST(RegReadExpectation, ZeroOkAcceptsZeroOrTheUsualValueOnly) {
  RegRead plain{0x9000, 0xffffffffu, std::nullopt, "counter"};
  EXPECT_EQ(dut_read_expectation(plain, 7, 0), 7u);
  EXPECT_EQ(dut_read_expectation(plain, 7, 7), 7u);
  RegRead counter = plain;
  counter.zero_ok = true;
  EXPECT_EQ(dut_read_expectation(counter, 7, 0), 0u);  // cleared at the arm, the layer still runs
  EXPECT_EQ(dut_read_expectation(counter, 7, 7), 7u);  // the layer ended
  EXPECT_EQ(dut_read_expectation(counter, 7, 5), 7u);  // a stale count: compared with 7, a mismatch
  counter.mask = 0xffu;
  EXPECT_EQ(dut_read_expectation(counter, 7, 0x100), 0u);  // 0 under the mask
  counter.expect = 3u;
  EXPECT_EQ(dut_read_expectation(counter, 7, 5), 3u);  // the test's value before the golden model's
  EXPECT_EQ(dut_read_expectation(counter, 7, 0), 0u);
}

TEST(TestGenerators, RegistryListsTheTestsAndRejectsUnknownOnes) {
  std::vector<std::string> names;
  for (const auto& g : test_generators()) names.push_back(g.name);
  EXPECT_EQ(names, (std::vector<std::string>{"regs.access", "bdma.random", "pdp.random", "pdp.illegal", "sdp.random", "sdp_pdp.random", "sdp.illegal", "cdp.random", "cdp.illegal", "conv.random", "conv.illegal", "rubik.random", "rubik.illegal"}));
  try {
    find_test_generator("bdma.randon");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bdma.randon"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("bdma.random"), std::string::npos);
  }
}

TEST(TestGenerators, EveryGeneratorIsDeterministicPerSeed) {
  for (const auto& g : test_generators()) {
    for (const HwConfig& cfg : HwConfig::all()) {
      if (!g.supports(cfg)) continue;
      const Program a = g.generate(cfg, 17), b = g.generate(cfg, 17), c = g.generate(cfg, 18);
      EXPECT_EQ(describe(a), describe(b)) << g.name << " on " << cfg.name;
      EXPECT_NE(describe(a), describe(c)) << g.name << " on " << cfg.name;
      EXPECT_EQ(a.test, g.name);
      EXPECT_EQ(a.config, cfg.name);
      EXPECT_EQ(a.seed, 17u);
      EXPECT_FALSE(a.notes.empty());
    }
  }
}

TEST(TestGenerators, UnknownOrBadKnobsAndUnsupportedConfigurationsAreErrors) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  auto message = [&](const Knobs& k, const HwConfig& cfg) -> std::string {
    try {
      g.generate(cfg, 1, k);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message({{"max_linez", "3"}}, v1).find("unknown knob 'max_linez'"), std::string::npos);
  EXPECT_NE(message({{"max_lines", "abc"}}, v1).find("max_lines='abc'"), std::string::npos);
  EXPECT_NE(message({{"max_lines", "0"}}, v1).find("[1, 8192]"), std::string::npos);
  EXPECT_NE(message({{"max_line_bytes", "48"}}, v1).find("multiple of 32"), std::string::npos);
  EXPECT_NE(message({{"ports", "ddr"}}, v1).find("dbb|sram"), std::string::npos);
  EXPECT_NE(message({{"max_ops", "11"}}, v1).find("max_ops"), std::string::npos);
  const HwConfig& small = HwConfig::get("small");
  EXPECT_FALSE(g.supports(small));
  EXPECT_NE(message({}, small).find("no BDMA"), std::string::npos);
  EXPECT_THROW(find_test_generator("regs.access").generate(v1, 1, {{"x", "1"}}), std::invalid_argument);
}

// ------------------------------------------------------------------------ regs.access

TEST(RegsAccess, ChecksEveryResetValueBeforeAnyWriteAndPassesOnTheGoldenModel) {
  for (const char* name : {"v1", "small"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const Program p = find_test_generator("regs.access").generate(cfg, 3);
    const RegisterMap& map = RegisterMap::of(cfg);
    std::map<uint32_t, bool> reset_read;
    for (const ProgramOp& op : p.ops) {
      if (std::holds_alternative<RegWrite>(op)) break;
      if (const auto* r = std::get_if<RegRead>(&op)) reset_read[r->addr] = r->expect.has_value();
    }
    for (const RegInfo& r : map.registers())
      EXPECT_TRUE(reset_read[map.address_of(r)]) << name << ": no reset check of " << unit_name(r.unit) << "." << r.name;
    GoldenModel m(cfg);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << name << ": " << res.failures.size() << " failures, first: "
                                      << (res.failures.empty() ? "" : res.failures[0]);
    EXPECT_GT(res.reads, map.registers().size() * 3);
  }
}

TEST(RegsAccess, WritesAllFourPatternsToBothGroupsOfDRegisters) {
  const HwConfig& cfg = HwConfig::get("v1");
  const Program p = find_test_generator("regs.access").generate(cfg, 5);
  const RegisterMap& map = RegisterMap::of(cfg);
  const uint32_t width = map.address_of(*map.find("PDP.D_DATA_CUBE_IN_WIDTH"));
  const uint32_t ptr = map.address_of(*map.find("PDP.S_POINTER"));
  unsigned producer = 0;
  std::map<std::pair<unsigned, uint32_t>, int> seen;
  for (const ProgramOp& op : p.ops) {
    if (const auto* w = std::get_if<RegWrite>(&op)) {
      if (w->addr == ptr) producer = w->data & 1u;
      if (w->addr == width) ++seen[{producer, w->data}];
    }
  }
  for (unsigned g = 0; g < 2; ++g)
    for (uint32_t v : {0u, 0xffffffffu, 0x5a5a5a5au, 0xa5a5a5a5u})
      EXPECT_GE((seen[{g, v}]), 1) << "group " << g << " value " << std::hex << v;
}

// arm_idle_units=no (a DUT that implements the conv units): no D_OP_ENABLE write arms them.
TEST(RegsAccess, ArmIdleUnitsNoLeavesUnitsWithoutADatapathUnarmed) {
  const HwConfig& cfg = HwConfig::get("small");
  const RegisterMap& map = RegisterMap::of(cfg);
  const uint32_t cdma_enable = map.address_of(*map.find("CDMA.D_OP_ENABLE"));
  auto arms = [&](const Knobs& k) {
    unsigned n = 0;
    for (const ProgramOp& op : find_test_generator("regs.access").generate(cfg, 2, k).ops)
      if (const auto* w = std::get_if<RegWrite>(&op)) n += w->addr == cdma_enable && (w->data & 1u);
    return n;
  };
  EXPECT_GT(arms({}), 0u) << "the default arms CDMA: the check below would prove nothing";
  EXPECT_EQ(arms({{"arm_idle_units", "no"}}), 0u);
  EXPECT_THROW(arms({{"arm_idle_units", "maybe"}}), std::invalid_argument);
  GoldenModel m(cfg, 2);
  EXPECT_TRUE(test::execute(find_test_generator("regs.access").generate(cfg, 2, {{"arm_idle_units", "no"}}), m)
                  .failures.empty());
}

// trigger_registers=yes (v1): BDMA's CFG_OP and CFG_LAUNCHn written with bit 0 clear only, each
// read back as 0 over all 32 bits; the default program does not touch them and is unchanged.
TEST(RegsAccess, TriggerRegistersAreWrittenWithBitZeroClearAndReadBackZero) {
  const HwConfig& cfg = HwConfig::get("v1");
  const RegisterMap& map = RegisterMap::of(cfg);
  const TestGenerator& gen = find_test_generator("regs.access");
  std::map<uint32_t, std::string> trig;
  for (const char* n : {"BDMA.CFG_OP", "BDMA.CFG_LAUNCH0", "BDMA.CFG_LAUNCH1"}) trig[map.address_of(*map.find(n))] = n;
  const Program with = gen.generate(cfg, 3, {{"trigger_registers", "yes"}});
  std::map<std::string, unsigned> writes, checked_reads;
  unsigned after_other_unit = 0;
  for (size_t i = 0; i < with.ops.size(); ++i) {
    const ProgramOp& op = with.ops[i];
    if (const auto* r = std::get_if<RegRead>(&op); r && r->what.find("same word, another unit") != std::string::npos) {
      ++after_other_unit;
      // Read right after that write, while the CSB request still holds its word and data (a
      // decode that stores without a valid write of BDMA's own takes them then).
      const auto* w = i ? std::get_if<RegWrite>(&with.ops[i - 1]) : nullptr;
      EXPECT_TRUE(w && w->data == 0xffffffffu && !trig.count(w->addr) && (w->addr & 0xfffu) == (r->addr & 0xfffu))
          << r->what << ": not directly after the other unit's write";
    }
    if (const auto* w = std::get_if<RegWrite>(&op); w && trig.count(w->addr)) {
      EXPECT_EQ(w->data & 1u, 0u) << trig[w->addr] << ": a write with bit 0 set would start a transfer";
      writes[trig[w->addr]] += w->data != 0;
    }
    if (const auto* r = std::get_if<RegRead>(&op); r && trig.count(r->addr) && r->expect)
      checked_reads[trig[r->addr]] += r->mask == 0xffffffffu && *r->expect == 0u;
  }
  EXPECT_EQ(after_other_unit, 3u) << "each trigger register re-read after its word was written in another unit";
  for (const auto& [a, n] : trig) {
    EXPECT_GE(writes[n], 4u) << n;
    EXPECT_GE(checked_reads[n], 4u) << n;
  }
  const Program plain = gen.generate(cfg, 3, {}), no = gen.generate(cfg, 3, {{"trigger_registers", "no"}});
  EXPECT_EQ(plain.ops.size(), no.ops.size());
  for (const ProgramOp& op : plain.ops) {
    if (const auto* w = std::get_if<RegWrite>(&op)) {
      EXPECT_FALSE(trig.count(w->addr)) << "default program changed";
    }
  }
  EXPECT_LT(plain.ops.size(), with.ops.size());
  GoldenModel m(cfg, 3);
  EXPECT_TRUE(test::execute(with, m).failures.empty());
  EXPECT_THROW(gen.generate(cfg, 3, {{"trigger_registers", "maybe"}}), std::invalid_argument);
  try {
    gen.generate(HwConfig::get("small"), 3, {{"trigger_registers", "yes"}});
    ADD_FAILURE() << "trigger_registers=yes accepted on a configuration without BDMA";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not have"), std::string::npos) << e.what();
  }
}

// alias_checks: a second write pass in reverse order and writes to the unmapped words one
// address bit off each register, then every register re-read; off (the default) changes nothing.
TEST(RegsAccess, AliasChecksRewriteInReverseWriteNearbyHolesAndReReadAll) {
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const RegisterMap& map = RegisterMap::of(cfg);
    const TestGenerator& gen = find_test_generator("regs.access");
    const Program with = gen.generate(cfg, 5, {{"alias_checks", "yes"}});
    size_t final_reads = 0, alias_reads = 0, hole_writes = 0;
    for (const ProgramOp& op : with.ops) {
      if (const auto* r = std::get_if<RegRead>(&op)) {
        final_reads += r->what.rfind("final value of ", 0) == 0;
        alias_reads += r->what.find("after the reverse pass") != std::string::npos;
      }
      if (const auto* w = std::get_if<RegWrite>(&op)) hole_writes += map.at(w->addr) == nullptr;
    }
    EXPECT_GT(final_reads, 100u) << name;
    EXPECT_EQ(alias_reads, final_reads) << name << ": every register copy re-read after the alias writes";
    EXPECT_GT(hole_writes, 100u) << name;
    GoldenModel m(cfg, 5);
    const auto res = test::execute(with, m);
    EXPECT_TRUE(res.failures.empty()) << name << ": " << res.failures[0];
    const Program plain = gen.generate(cfg, 5, {}), no = gen.generate(cfg, 5, {{"alias_checks", "no"}});
    ASSERT_EQ(plain.ops.size(), no.ops.size()) << name;
    for (size_t i = 0; i < plain.ops.size(); ++i) {
      const auto* a = std::get_if<RegWrite>(&plain.ops[i]);
      const auto* b = std::get_if<RegWrite>(&no.ops[i]);
      ASSERT_EQ(a == nullptr, b == nullptr) << name << " op " << i;
      if (a) {
        EXPECT_EQ(a->addr, b->addr) << name << " op " << i;
        EXPECT_EQ(a->data, b->data) << name << " op " << i;
      }
      EXPECT_EQ(a == nullptr ? 0u : map.at(a->addr) == nullptr, 0u) << name << ": the default program writes a hole";
    }
  }
}

// lut_ports=yes: SDP's (and CDP's) S_LUT_ACCESS_CFG written with the four patterns and a random
// value and read back right after each write (no S_LUT_ACCESS_DATA access between), every RW bit
// (address bits 7..9 too) expected; clean on the golden model; off is the default program; a
// configuration without SDP and CDP is refused.
TEST(RegsAccess, LutPortsReadBackEveryAddressBitAndOffIsTheDefault) {
  const TestGenerator& gen = find_test_generator("regs.access");
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const RegisterMap& map = RegisterMap::of(cfg);
    const Program with = gen.generate(cfg, 3, {{"lut_ports", "yes"}});
    std::set<uint32_t> ports;
    uint32_t bits_seen = 0;
    for (size_t i = 0; i < with.ops.size(); ++i) {
      const auto* r = std::get_if<RegRead>(&with.ops[i]);
      if (!r || r->what.find("(no data access)") == std::string::npos) continue;
      ports.insert(r->addr);
      ASSERT_GT(i, 0u);
      const auto* w = std::get_if<RegWrite>(&with.ops[i - 1]);
      ASSERT_TRUE(w && w->addr == r->addr) << r->what << ": not right after its write";
      ASSERT_TRUE(r->expect.has_value());
      EXPECT_EQ(*r->expect, w->data & r->mask) << r->what;
      bits_seen |= r->mask;
    }
    EXPECT_EQ(ports.size(), 2u) << name;  // SDP and CDP
    EXPECT_EQ(bits_seen & 0x3ffu, 0x3ffu) << name << ": every LUT address bit compared";
    for (uint32_t a : ports) EXPECT_NE(map.at(a), nullptr);
    GoldenModel m(cfg, 3);
    const auto res = test::execute(with, m);
    EXPECT_TRUE(res.failures.empty()) << name << ": " << res.failures[0];
    EXPECT_EQ(test::writes_and_loads(gen.generate(cfg, 3, {{"lut_ports", "no"}})),
              test::writes_and_loads(gen.generate(cfg, 3, {})))
        << name;
  }
  EXPECT_THROW(gen.generate(HwConfig::get("small"), 1, {{"lut_ports", "maybe"}}), std::invalid_argument);
}

// What alias_checks guarantees, checked on the program itself: for every two register copies A
// and B, some read-back of B follows a write of A made after B's last write (so a write of A
// that also lands in B is seen whatever the seeded order), and every unmapped word one address
// bit off B is written between B's last write and a read-back of B.
TEST(RegsAccess, AliasChecksSeeEveryWriteThatReachesAnotherRegister) {
  const HwConfig& cfg = HwConfig::get("small");
  const RegisterMap& map = RegisterMap::of(cfg);
  const Program p = find_test_generator("regs.access").generate(cfg, 7, {{"alias_checks", "yes"}});
  using Copy = std::pair<uint32_t, unsigned>;  // address, group
  std::map<uint32_t, unsigned> producer;       // per 4 KiB window
  std::map<Copy, std::vector<size_t>> writes;
  std::vector<std::pair<Copy, size_t>> checks;  // the re-reads of the final and alias passes
  auto copy_of = [&](uint32_t a) {
    const RegInfo* r = map.at(a);
    // an unmapped word is keyed by the group selected when it is written (a stuck decoder bit
    // makes it the register of that group)
    return Copy{a, !r || r->dual ? producer[a & ~0xfffu] : 0u};
  };
  for (size_t i = 0; i < p.ops.size(); ++i) {
    if (const auto* w = std::get_if<RegWrite>(&p.ops[i])) {
      const RegInfo* r = map.at(w->addr);
      if (r && r->name == "S_POINTER") producer[w->addr & ~0xfffu] = w->data & 1u;
      writes[copy_of(w->addr)].push_back(i);
    } else if (const auto* rd = std::get_if<RegRead>(&p.ops[i])) {
      if (rd->what.rfind("final value of ", 0) == 0 || rd->what.find("after the reverse pass") != std::string::npos)
        checks.emplace_back(copy_of(rd->addr), i);
    }
  }
  auto written_between = [&](const Copy& c, size_t from, size_t to) {
    const auto& v = writes[c];
    return std::any_of(v.begin(), v.end(), [&](size_t i) { return i > from && i < to; });
  };
  auto last_write_before = [&](const Copy& c, size_t at) {
    size_t last = 0;
    for (size_t i : writes[c]) if (i < at) last = i;
    return last;
  };
  std::set<Copy> copies;
  for (const auto& [c, at] : checks) copies.insert(c);
  ASSERT_GT(copies.size(), 100u);
  unsigned unseen_pairs = 0, unseen_holes = 0;
  for (const Copy& b : copies) {
    std::vector<std::pair<size_t, size_t>> windows;  // (B's last write, B's check read)
    for (const auto& [c, at] : checks)
      if (c == b) windows.emplace_back(last_write_before(b, at), at);
    for (const Copy& a : copies)
      if (a != b && std::none_of(windows.begin(), windows.end(),
                                 [&](const auto& w) { return written_between(a, w.first, w.second); }))
        ++unseen_pairs;
    for (unsigned bit = 2; bit < 12; ++bit) {
      const Copy hole{b.first ^ (1u << bit), b.second};
      if (!map.at(hole.first) && std::none_of(windows.begin(), windows.end(), [&](const auto& w) {
            return written_between(hole, w.first, w.second);
          }))
        ++unseen_holes;
    }
  }
  EXPECT_EQ(unseen_pairs, 0u) << "register pairs whose aliasing no read-back would show";
  EXPECT_EQ(unseen_holes, 0u) << "unmapped neighbours whose aliasing no read-back would show";
}

// The conv pipeline starts when all five conv units are armed (on a DUT that implements it):
// regs.access leaves one of them out, a different one for each seed modulo 5.
TEST(RegsAccess, NeverArmsAllFiveConvUnits) {
  const HwConfig& cfg = HwConfig::get("small");
  const RegisterMap& map = RegisterMap::of(cfg);
  const std::array<const char*, 5> units = {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"};
  std::array<unsigned, 5> left_out{};
  for (uint64_t seed = 0; seed < 5; ++seed) {
    unsigned armed = 0;
    for (size_t u = 0; u < units.size(); ++u) {
      const uint32_t enable = map.address_of(*map.find(std::string(units[u]) + ".D_OP_ENABLE"));
      bool arms = false;
      for (const ProgramOp& op : find_test_generator("regs.access").generate(cfg, seed, {}).ops)
        if (const auto* w = std::get_if<RegWrite>(&op)) arms = arms || (w->addr == enable && (w->data & 1u));
      armed += arms;
      left_out[u] += !arms;
    }
    EXPECT_EQ(armed, 4u) << "seed " << seed;
  }
  for (size_t u = 0; u < units.size(); ++u) EXPECT_EQ(left_out[u], 1u) << units[u];
}

// A planted golden bug: a BDMA datapath whose STATUS reads wrong. regs.access catches it.
class BrokenBdma final : public UnitModel {
 public:
  Unit unit() const override { return Unit::BDMA; }
  std::optional<uint32_t> read_hw(uint32_t offset) const override {
    return offset == reg::BDMA::STATUS::offset ? std::optional<uint32_t>(0x113) : std::nullopt;
  }
};

TEST(RegsAccess, CatchesAPlantedWrongResetValue) {
  const HwConfig& cfg = HwConfig::get("v1");
  GoldenModel m(cfg);
  m.install(std::make_unique<BrokenBdma>());
  const auto res = test::execute(find_test_generator("regs.access").generate(cfg, 3), m);
  ASSERT_FALSE(res.failures.empty());
  EXPECT_NE(res.failures[0].find("reset BDMA.STATUS"), std::string::npos) << res.failures[0];
}

// ------------------------------------------------------------------------ bdma.random

// Reference BDMA written from the spec for this test: shadows the CFG registers from the
// program's writes, copies on launch, and checks that the program is legal.
class ReferenceBdma {
 public:
  // max_batch: the most operations one launch may take (half the queue unless fill_queue=on).
  ReferenceBdma(const HwConfig& cfg, size_t max_batch)
      : base_(*cfg.unit_base[static_cast<unsigned>(Unit::BDMA)]), max_batch_(max_batch) {}

  std::array<SparseMemory, 2> mem;
  std::vector<std::string> illegal;

  void run(const Program& p) {
    for (const ProgramOp& op : p.ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) {
        mem[static_cast<unsigned>(l->port)].write(l->addr, l->bytes);
      } else if (const auto* w = std::get_if<RegWrite>(&op)) {
        write(w->addr, w->data);
      } else if (const auto* wait = std::get_if<WaitIntr>(&op)) {
        for (unsigned g = 0; g < 2; ++g)
          if (wait->status_bits >> (6 + g) & 1u) waited_[g] = true;
      }
    }
  }

 private:
  struct Region { unsigned port; uint64_t begin, end; };

  void write(uint32_t addr, uint32_t data) {
    if (addr < base_ || addr >= base_ + 0x1000) return;
    const uint32_t off = addr - base_;
    if (off == 0x30 && (data & 1)) {
      queued_.push_back(cfg_);
    } else if ((off == 0x34 || off == 0x38) && (data & 1)) {
      const unsigned g = off == 0x34 ? 0 : 1;
      if (launched_[g] && !waited_[g]) illegal.push_back("launch of busy group " + std::to_string(g));
      if (queued_.empty()) illegal.push_back("empty launch");
      if (queued_.size() > max_batch_) illegal.push_back("batch of " + std::to_string(queued_.size()) + " operations");
      launched_[g] = true;
      waited_[g] = false;
      for (const auto& c : queued_) copy(c);
      queued_.clear();
    } else if (off < 0x30) {
      cfg_[off / 4] = data;
    }
  }

  void copy(const std::array<uint32_t, 12>& c) {
    const uint64_t src = (uint64_t{c[1]} << 32) | c[0], dst = (uint64_t{c[3]} << 32) | c[2];
    const uint64_t line = (uint64_t{c[4] & 0x1fff} + 1) * 32, lines = (c[6] & 0xffffff) + 1ull,
                   surfs = (c[9] & 0xffffff) + 1ull;
    const uint64_t sl = c[7], dl = c[8], ss = c[10], ds = c[11];
    const unsigned sp = (c[5] & 1) ? 0 : 1, dp = (c[5] & 2) ? 0 : 1;  // 1 = MC = DBB (index 0)
    for (uint64_t v : {src, dst, sl, dl, ss, ds})
      if (v % 32) illegal.push_back("unaligned address or stride");
    if (sl < line || dl < line || ss < lines * sl || ds < lines * dl) illegal.push_back("stride too small");
    const Region rs{sp, src, src + (surfs - 1) * ss + (lines - 1) * sl + line};
    const Region rd{dp, dst, dst + (surfs - 1) * ds + (lines - 1) * dl + line};
    for (const Region& r : regions_)
      for (const Region& n : {rs, rd})
        if (r.port == n.port && r.begin < n.end && n.begin < r.end) illegal.push_back("regions overlap");
    if (rs.port == rd.port && rs.begin < rd.end && rd.begin < rs.end) illegal.push_back("src/dst overlap");
    regions_.push_back(rs);
    regions_.push_back(rd);
    for (uint64_t s = 0; s < surfs; ++s)
      for (uint64_t l = 0; l < lines; ++l)
        for (uint64_t b = 0; b < line; ++b) {
          const uint8_t v = mem[sp].read_byte(src + s * ss + l * sl + b);
          mem[dp].write(dst + s * ds + l * dl + b, &v, 1);
        }
  }

  uint32_t base_;
  size_t max_batch_;
  std::array<uint32_t, 12> cfg_{};
  std::vector<std::array<uint32_t, 12>> queued_;
  std::vector<Region> regions_;
  bool launched_[2] = {false, false}, waited_[2] = {false, false};
};

// Every byte written in `a` reads the same in `b`, and the reverse.
std::string first_difference(const SparseMemory& a, const SparseMemory& b) {
  std::string diff;
  auto check = [&](const SparseMemory& x, const SparseMemory& y) {
    x.for_each_page([&](uint64_t base, const uint8_t* data, const uint8_t* written) {
      for (uint64_t i = 0; i < SparseMemory::kPageBytes && diff.empty(); ++i)
        if (written[i] && (!y.is_written(base + i) || y.read_byte(base + i) != data[i]))
          diff = fmt::format("0x{:x}", base + i);
    });
  };
  check(a, b);
  check(b, a);
  return diff;
}

void check_bdma_program(const Program& p, const std::string& label, size_t max_batch = 10) {
  const HwConfig& cfg = HwConfig::get("v1");
  ReferenceBdma ref(cfg, max_batch);
  ref.run(p);
  EXPECT_TRUE(ref.illegal.empty()) << label << ": " << ref.illegal.front();
  GoldenModel m(cfg);
  const auto res = test::execute(p, m);
  EXPECT_TRUE(res.failures.empty()) << label << ": " << res.failures.front();
  EXPECT_TRUE(m.warnings().empty()) << label << ": " << m.warnings().front();
  EXPECT_GT(res.waits, 0u);
  EXPECT_FALSE(m.layers().empty());
  for (MemPort port : {MemPort::Dbb, MemPort::Sram})
    EXPECT_EQ(first_difference(m.memory(port), ref.mem[static_cast<unsigned>(port)]), "")
        << label << " " << mem_port_name(port);
}

TEST(BdmaRandom, DefaultKnobsGiveLegalProgramsThatTheGoldenModelCopiesRight) {
  const TestGenerator& g = find_test_generator("bdma.random");
  for (uint64_t seed = 1; seed <= 40; ++seed) check_bdma_program(g.generate(HwConfig::get("v1"), seed), fmt::format("seed {}", seed));
}

TEST(BdmaRandom, KnobsShapeTheProgram) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  const Program p = g.generate(v1, 9, {{"ports", "dbb"}, {"max_line_bytes", "4096"}, {"max_lines", "2"},
                                       {"max_surfaces", "1"}, {"max_ops", "10"}, {"batches", "3"}});
  check_bdma_program(p, "knobs");
  size_t launches = 0;
  for (const ProgramOp& op : p.ops) {
    if (const auto* l = std::get_if<MemLoad>(&op)) {
      EXPECT_EQ(l->port, MemPort::Dbb);
    }
    if (const auto* w = std::get_if<RegWrite>(&op)) {
      const uint32_t off = w->addr - 0x4000;
      if (off == reg::BDMA::CFG_LAUNCH0::offset || off == reg::BDMA::CFG_LAUNCH1::offset) ++launches;
      if (off == reg::BDMA::CFG_LINE_REPEAT::offset) {
        EXPECT_LE(w->data, 1u);
      }
      if (off == reg::BDMA::CFG_SURF_REPEAT::offset) {
        EXPECT_EQ(w->data, 0u);
      }
      if (off == reg::BDMA::CFG_CMD::offset) {
        EXPECT_EQ(w->data, 3u) << "both sides MC (DBB)";
      }
    }
  }
  EXPECT_EQ(launches, 3u);
}

TEST(BdmaRandom, HighAddressesUseTheWholeAddressSpaceAndOffIsTheDefault) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  uint64_t highest[2] = {0, 0};
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const Program p = g.generate(v1, seed, {{"high_addresses", "on"}});
    check_bdma_program(p, fmt::format("high addresses, seed {}", seed));
    for (const ProgramOp& op : p.ops)
      if (const auto* l = std::get_if<MemLoad>(&op)) {
        uint64_t& h = highest[static_cast<unsigned>(l->port)];
        h = std::max(h, l->addr);
        EXPECT_LT(l->addr, l->addr + l->bytes.size()) << "a region wraps the address space";
      }
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, {{"high_addresses", "off"}})), test::writes_and_loads(g.generate(v1, seed)))
        << "seed " << seed << ": the default program changed";
  }
  EXPECT_GE(highest[0], uint64_t{1} << 62) << "DBB regions stay low";
  EXPECT_GE(highest[1], uint64_t{1} << 62) << "SRAM regions stay low";
  // Without the knob the regions stay below 2^40 (the programs of existing seeds).
  for (uint64_t seed = 1; seed <= 12; ++seed)
    for (const ProgramOp& op : g.generate(v1, seed).ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) {
        EXPECT_LT(l->addr, uint64_t{1} << 40);
      }
    }
}

TEST(BdmaRandom, StallCountEnablesTheCountersBeforeTheFirstLaunch) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  const uint32_t cfg_status = 0x4000 + reg::BDMA::CFG_STATUS::offset, launch0 = 0x4000 + reg::BDMA::CFG_LAUNCH0::offset,
                 launch1 = 0x4000 + reg::BDMA::CFG_LAUNCH1::offset;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Program on = g.generate(v1, seed, {{"stall_count", "on"}});
    check_bdma_program(on, fmt::format("stall_count, seed {}", seed));
    int enables = 0;
    bool launched = false;
    for (const ProgramOp& op : on.ops)
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (w->addr == launch0 || w->addr == launch1) launched = true;
        if (w->addr == cfg_status) {
          EXPECT_FALSE(launched) << "seed " << seed << ": enabled after a launch";
          EXPECT_EQ(w->data, 1u);
          ++enables;
        }
      }
    EXPECT_EQ(enables, 1) << "seed " << seed;
    const std::string off = test::writes_and_loads(g.generate(v1, seed, {{"stall_count", "off"}}));
    EXPECT_EQ(off, test::writes_and_loads(g.generate(v1, seed))) << "seed " << seed << ": the default program changed";
    EXPECT_EQ(off.find(fmt::format("w {:x} ", cfg_status)), std::string::npos) << "seed " << seed;
  }
}

TEST(BdmaRandom, WideStridesSetEveryStrideBitAndLoadOnlyTheLines) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  const std::set<uint32_t> strides = {0x4000 + reg::BDMA::CFG_SRC_LINE::offset, 0x4000 + reg::BDMA::CFG_DST_LINE::offset,
                                      0x4000 + reg::BDMA::CFG_SRC_SURF::offset, 0x4000 + reg::BDMA::CFG_DST_SURF::offset};
  uint32_t bits_seen = 0;
  uint64_t most_lines = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Program p = g.generate(v1, seed, {{"wide_strides", "on"}, {"max_lines", "32"}});
    check_bdma_program(p, fmt::format("wide strides, seed {}", seed));
    for (const ProgramOp& op : p.ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) {
        EXPECT_LE(l->bytes.size(), 256u) << "seed " << seed << ": more than one line loaded at once";
      }
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (strides.count(w->addr)) bits_seen |= w->data;
        if (w->addr == 0x4000 + reg::BDMA::CFG_LINE_REPEAT::offset) most_lines = std::max<uint64_t>(most_lines, w->data + 1u);
      }
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, {{"wide_strides", "off"}})), test::writes_and_loads(g.generate(v1, seed)))
        << "seed " << seed << ": the default program changed";
  }
  try {
    (void)g.generate(v1, 1, {{"wide_strides", "on"}, {"high_addresses", "on"}});
    ADD_FAILURE() << "wide_strides with high_addresses accepted (its regions could wrap the address space)";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be combined"), std::string::npos) << e.what();
  }
  // Every stride bit above the atom is set somewhere (the triage witnesses needed bits 15, 19
  // and 27), and some operation has more than 16 lines.
  EXPECT_EQ(bits_seen, 0xffffffe0u);
  EXPECT_GT(most_lines, 16u);
}

TEST(BdmaRandom, BusyStatusReadsTheLaunchedGroupBusyThenClear) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  const uint32_t status = 0x4000 + reg::BDMA::STATUS::offset;
  const uint32_t busy[2] = {reg::BDMA::STATUS::GRP0_BUSY::put(0, 1), reg::BDMA::STATUS::GRP1_BUSY::put(0, 1)};
  const uint32_t idle = reg::BDMA::STATUS::IDLE::put(0, 1);
  size_t polls = 0, clears = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const Program p = g.generate(v1, seed, {{"busy_status", "on"}});
    check_bdma_program(p, fmt::format("busy_status, seed {}", seed));
    std::optional<unsigned> last_wait;
    for (size_t i = 0; i < p.ops.size(); ++i) {
      if (const auto* w = std::get_if<WaitIntr>(&p.ops[i])) last_wait = w->status_bits == 0x80 ? 1u : 0u;
      if (const auto* poll = std::get_if<PollReg>(&p.ops[i])) {
        // Right after a launch, of that launch's group; read once on the DUT.
        ASSERT_GT(i, 0u);
        const auto* launch = std::get_if<RegWrite>(&p.ops[i - 1]);
        ASSERT_NE(launch, nullptr) << "seed " << seed << ": the poll does not follow a launch";
        ASSERT_TRUE(launch->addr == 0x4034 || launch->addr == 0x4038);
        const unsigned g_launched = launch->addr == 0x4038 ? 1u : 0u;
        EXPECT_EQ(poll->addr, status);
        EXPECT_EQ(poll->mask, busy[g_launched] | idle);
        EXPECT_EQ(poll->expect, busy[g_launched]);
        EXPECT_EQ(poll->timeout_cycles, 1u);
        ++polls;
      }
      if (const auto* r = std::get_if<RegRead>(&p.ops[i]); r && r->addr == status && r->mask != 0xffffffffu) {
        ASSERT_TRUE(last_wait.has_value()) << "seed " << seed << ": a busy read before any done interrupt";
        EXPECT_EQ(r->mask, busy[*last_wait]);
        EXPECT_EQ(r->expect, std::optional<uint32_t>(0u));
        ++clears;
      }
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, {{"busy_status", "off"}})), test::writes_and_loads(p))
        << "seed " << seed << ": the knob changed the copies";
  }
  EXPECT_GE(polls, 6u);
  EXPECT_GE(clears, 6u);
  for (const ProgramOp& op : g.generate(v1, 1).ops) EXPECT_FALSE(std::holds_alternative<PollReg>(op));
}

TEST(BdmaRandom, FillQueueLetsABatchTakeTheWholeQueue) {
  const TestGenerator& g = find_test_generator("bdma.random");
  const HwConfig& v1 = HwConfig::get("v1");
  try {
    (void)g.generate(v1, 1, {{"max_ops", "20"}});
    ADD_FAILURE() << "max_ops=20 accepted without fill_queue";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_ops"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)g.generate(v1, 1, {{"fill_queue", "on"}, {"max_ops", "21"}}), std::invalid_argument);
  size_t largest = 0;
  bool queued_past_depth = false;  // ops of a batch enqueued while another batch may still run
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const Program p = g.generate(v1, seed, {{"fill_queue", "on"}, {"max_ops", "20"}});
    check_bdma_program(p, fmt::format("fill_queue, seed {}", seed), 20);
    size_t ops = 0, running = 0;
    for (const ProgramOp& op : p.ops) {
      if (std::holds_alternative<WaitIntr>(op)) running = 0;
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (w->addr == 0x4030) ++ops;
        if (w->addr == 0x4034 || w->addr == 0x4038) {
          largest = std::max(largest, ops);
          queued_past_depth = queued_past_depth || running + ops > 20;
          running = ops;
          ops = 0;
        }
      }
    }
  }
  EXPECT_GT(largest, 10u);
  EXPECT_TRUE(queued_past_depth) << "no batch was enqueued behind a running one with more than 20 operations in all";
}

TEST(BdmaRandom, UsesBothGroupsBothPortsAndBackToBackLaunches) {
  const TestGenerator& g = find_test_generator("bdma.random");
  bool group[2] = {false, false}, port[2] = {false, false}, back_to_back = false;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Program p = g.generate(HwConfig::get("v1"), seed);
    bool launched_since_wait = false;
    for (const ProgramOp& op : p.ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) port[static_cast<unsigned>(l->port)] = true;
      if (std::holds_alternative<WaitIntr>(op)) launched_since_wait = false;
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (w->addr == 0x4034 || w->addr == 0x4038) {
          group[w->addr == 0x4038] = true;
          back_to_back = back_to_back || launched_since_wait;
          launched_since_wait = true;
        }
      }
    }
  }
  EXPECT_TRUE(group[0] && group[1]);
  EXPECT_TRUE(port[0] && port[1]);
  EXPECT_TRUE(back_to_back);
}

}  // namespace
}  // namespace dla
