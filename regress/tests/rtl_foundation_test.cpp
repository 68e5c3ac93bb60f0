// RTL tests of the foundation: register access, GLB interrupts, ping-pong groups, CSB
// non-posted writes, BDMA random copies, determinism. Each test plays a Program on the
// Verilated RTL with the golden model and the scoreboard checking.
#define BOOST_TEST_MODULE dla_rtl_foundation
#include <boost/test/unit_test.hpp>

#include <string>

#include "dla/register_map.h"
#include "dla/test_runner.h"
#include "rtl_test_support.h"

namespace {

using namespace dla;

uint32_t addr(const std::string& config, const std::string& reg) {
  const auto& map = RegisterMap::of(HwConfig::get(config));
  const RegInfo* r = map.find(reg);
  BOOST_REQUIRE_MESSAGE(r, "no register " << reg << " on " << config);
  return map.address_of(*r);
}

RegRead expect(uint32_t a, uint32_t value, uint32_t mask = 0xffffffffu) {
  RegRead r;
  r.addr = a;
  r.mask = mask;
  r.expect = value;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(regs)

BOOST_AUTO_TEST_CASE(access_v1) { require_pass(run_test(request("v1", "regs.access", 1))); }
BOOST_AUTO_TEST_CASE(access_small) { require_pass(run_test(request("small", "regs.access", 1))); }
BOOST_AUTO_TEST_CASE(access_other_seeds) {
  for (uint64_t seed : {2u, 3u}) {
    require_pass(run_test(request("v1", "regs.access", seed)));
    require_pass(run_test(request("small", "regs.access", seed)));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(glb)

// Software-raised interrupts, the mask and write-1-to-clear, with the level line checked
// against the golden model at the end of each program.
BOOST_AUTO_TEST_CASE(intr_set_mask_w1c) {
  for (const std::string cfg : {"v1", "small"}) {
    const uint32_t mask = addr(cfg, "GLB.S_INTR_MASK");
    const uint32_t set = addr(cfg, "GLB.S_INTR_SET");
    const uint32_t status = addr(cfg, "GLB.S_INTR_STATUS");
    Program p;
    p.test = "glb.intr";
    p.ops.push_back(expect(status, 0));
    p.ops.push_back(RegWrite{mask, 0x00000010u});                 // mask PDP group 0
    p.ops.push_back(RegWrite{set, 0x00000011u});                  // raise SDP0 and PDP0
    p.ops.push_back(expect(status, 0x00000011u));
    p.ops.push_back(expect(set, 0));                              // write-only
    p.ops.push_back(RegWrite{status, 0x00000001u});               // clear SDP0 only
    p.ops.push_back(expect(status, 0x00000010u));
    p.ops.push_back(Idle{8});                                     // line low: PDP0 is masked
    Program q = p;
    q.ops.push_back(RegWrite{mask, 0});                           // unmask: line goes high
    q.ops.push_back(Idle{8});
    require_pass(run_program(request(cfg, "glb.intr", 1), p));
    require_pass(run_program(request(cfg, "glb.intr", 1), q));
  }
}

BOOST_AUTO_TEST_CASE(unused_bits_and_holes_read_zero) {
  for (const std::string cfg : {"v1", "small"}) {
    Program p;
    const uint32_t set = addr(cfg, "GLB.S_INTR_SET");
    p.ops.push_back(RegWrite{set, 0xffffffffu});
    // small (nv_small) ties off the BDMA (7:6) and RUBIK (9:8) sources, as NVIDIA's RTL does.
    p.ops.push_back(expect(addr(cfg, "GLB.S_INTR_STATUS"), cfg == "v1" ? 0x003f03ffu : 0x003f003fu));
    p.ops.push_back(expect(addr(cfg, "GLB.S_INTR_MASK") + 0x100, 0));  // a hole in GLB's window
    require_pass(run_program(request(cfg, "glb.bits", 1), p));
  }
}

// A wait for an interrupt that never comes, on a DUT that does nothing: the status wait's own
// polls are CSB traffic, not the DUT moving, so it ends as a hang after the watchdog's cycles
// (not at the wait's timeout of a million cycles). The line wait does not poll: the
// simulation's watchdog ends it.
BOOST_AUTO_TEST_CASE(waits_on_an_idle_dut_end_at_the_watchdog) {
  for (int line = 0; line < 2; ++line) {
    Program p;
    p.test = "glb.idle_wait";
    if (line) p.ops.push_back(WaitIntrLine{1'000'000, "wait for the line"});
    else p.ops.push_back(WaitIntr{0x1u, 1'000'000, "wait for SDP group 0"});
    RunRequest r = request("small", "glb.idle_wait", 1);
    r.watchdog_cycles = 3000;
    const RunResult res = run_program(r, p);
    BOOST_TEST(res.verdict == Verdict::Fail);
    BOOST_TEST(res.signature.rfind("hang:intr-wait", 0) == 0u, res.signature);
    if (!line)
      BOOST_TEST(res.report.find("no memory handshake and no interrupt change for 3000 cycles") != std::string::npos,
                 res.report);
    BOOST_TEST(res.cycles >= 3000u);
    BOOST_TEST(res.cycles < 10000u, "the wait ran to cycle " << res.cycles);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pingpong)

// Both groups of a ping-pong unit with no datapath yet: PRODUCER selects the copy,
// an armed group drops writes (its D_OP_ENABLE included), S_STATUS shows RUNNING for
// the consumer group and PENDING for the other.
BOOST_AUTO_TEST_CASE(groups_and_dropped_writes) {
  for (const std::string cfg : {"v1", "small"}) {
    const uint32_t ptr = addr(cfg, "PDP.S_POINTER");
    const uint32_t st = addr(cfg, "PDP.S_STATUS");
    const uint32_t op = addr(cfg, "PDP.D_OP_ENABLE");
    const uint32_t w = addr(cfg, "PDP.D_DATA_CUBE_IN_WIDTH");
    Program p;
    p.ops.push_back(RegWrite{w, 0x11});                 // group 0
    p.ops.push_back(RegWrite{ptr, 1});
    p.ops.push_back(expect(ptr, 0x1));
    p.ops.push_back(RegWrite{w, 0x22});                 // group 1
    p.ops.push_back(expect(w, 0x22));
    p.ops.push_back(RegWrite{ptr, 0});
    p.ops.push_back(expect(w, 0x11));
    p.ops.push_back(RegWrite{op, 1});                   // arm group 0: RUNNING
    p.ops.push_back(expect(st, 0x00000001u));
    p.ops.push_back(RegWrite{w, 0x33});                 // dropped
    p.ops.push_back(RegWrite{op, 0});                   // dropped too: the group stays armed
    p.ops.push_back(expect(w, 0x11));
    p.ops.push_back(expect(op, 1));
    p.ops.push_back(RegWrite{ptr, 1});
    p.ops.push_back(RegWrite{w, 0x44});                 // group 1 is still writable
    p.ops.push_back(RegWrite{op, 1});                   // arm group 1: PENDING
    p.ops.push_back(expect(st, 0x00020001u));
    p.ops.push_back(expect(w, 0x44));
    p.ops.push_back(expect(ptr, 0x1));                  // CONSUMER still 0
    require_pass(run_program(request(cfg, "pingpong", 1), p));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(csb)

// Non-posted writes complete (the BFM checks every completion) and later reads see them.
BOOST_AUTO_TEST_CASE(nonposted_write_completion) {
  for (const std::string cfg : {"v1", "small"}) {
    const uint32_t mask = addr(cfg, "GLB.S_INTR_MASK");
    Program p;
    for (uint32_t i = 0; i < 16; ++i) {
      p.ops.push_back(RegWrite{mask, i * 0x01010101u, /*nposted=*/(i % 2) == 0});
      p.ops.push_back(expect(mask, (i * 0x01010101u) & 0x003f03ffu));
    }
    require_pass(run_program(request(cfg, "csb.nposted", 7), p));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(bdma)

BOOST_AUTO_TEST_CASE(random_50_seeds_v1) {
  for (uint64_t seed = 1; seed <= 50; ++seed) require_pass(run_test(request("v1", "bdma.random", seed)));
}

// Lines longer than the AXI master's outstanding-write window (32 bursts of 1 KiB) once
// deadlocked the write engine; up to the largest legal line (256 KiB).
BOOST_AUTO_TEST_CASE(lines_longer_than_the_write_window) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    RunRequest r = request("v1", "bdma.random", seed);
    r.knobs = {{"max_line_bytes", "262144"}, {"max_lines", "2"}, {"max_surfaces", "1"},
               {"batches", "2"}};
    require_pass(run_test(r));
  }
}

BOOST_AUTO_TEST_CASE(not_on_small) {
  const RunResult res = run_test(request("small", "bdma.random", 1));
  BOOST_TEST(res.verdict == Verdict::Error);
  BOOST_TEST(res.summary.find("small") != std::string::npos);
}

// Same seed, same build: same bytes and the same cycle count.
BOOST_AUTO_TEST_CASE(same_seed_same_cycles) {
  const RunResult a = run_test(request("v1", "bdma.random", 11));
  const RunResult b = run_test(request("v1", "bdma.random", 11));
  require_pass(a);
  BOOST_TEST(a.cycles == b.cycles);
  BOOST_TEST(a.cycles > 0u);
  BOOST_TEST(a.details["scoreboard"].dump() == b.details["scoreboard"].dump());
  const RunResult c = run_test(request("v1", "bdma.random", 12));
  BOOST_TEST(c.cycles != a.cycles);  // a different seed really is a different test
}

BOOST_AUTO_TEST_SUITE_END()
