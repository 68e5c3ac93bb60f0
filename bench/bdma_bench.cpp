// BDMA figures: copy efficiency of large copies with zero-latency memory, and the
// simulation speed of bdma.random (cycles per second, share of wall time outside eval).
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/simulation.h"
#include "dla/test_runner.h"

namespace {

using namespace dla;

struct CopyFigure {
  uint64_t bytes = 0;
  uint64_t cycles = 0;
};

// One BDMA operation: `lines` lines of `line_bytes`, DBB to DBB, launched as group 0;
// cycles from the launch write to the interrupt.
CopyFigure measure_copy(uint32_t line_bytes, uint32_t lines) {
  const HwConfig& cfg = HwConfig::get("v1");
  const RegisterMap& map = RegisterMap::of(cfg);
  tb::SimOptions o;
  o.seed = 1;
  o.axi_profile = "fast";
  auto sim = tb::make_simulation("v1", o);
  auto a = [&](const char* name) { return map.address_of(*map.find(name)); };
  const uint64_t src = 0x10000000, dst = 0x20000000;
  std::vector<uint8_t> data(static_cast<size_t>(line_bytes) * lines);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  sim->memory(MemPort::Dbb).load(src, data.data(), data.size());
  sim->csb_write(a("BDMA.CFG_SRC_ADDR_LOW"), static_cast<uint32_t>(src));
  sim->csb_write(a("BDMA.CFG_DST_ADDR_LOW"), static_cast<uint32_t>(dst));
  sim->csb_write(a("BDMA.CFG_LINE"), line_bytes / 32 - 1);
  sim->csb_write(a("BDMA.CFG_CMD"), 0x3);  // MC to MC
  sim->csb_write(a("BDMA.CFG_LINE_REPEAT"), lines - 1);
  sim->csb_write(a("BDMA.CFG_SRC_LINE"), line_bytes);
  sim->csb_write(a("BDMA.CFG_DST_LINE"), line_bytes);
  sim->csb_write(a("BDMA.CFG_SURF_REPEAT"), 0);
  sim->csb_write(a("BDMA.CFG_OP"), 1);
  sim->drain_csb();
  const uint64_t start = sim->cycle();
  sim->csb_write(a("BDMA.CFG_LAUNCH0"), 1);
  sim->run_until_interrupt(50'000'000);
  CopyFigure f;
  f.bytes = data.size();
  f.cycles = sim->cycle() - start;
  if (sim->hang()) fmt::print("  (hang: {})\n", *sim->hang());
  return f;
}

}  // namespace

int main() {
  const unsigned dbb_bytes = HwConfig::get("v1").dbb_bytes();
  fmt::print("BDMA copy efficiency (v1, DBB {} B/cycle, zero-latency memory; goal >= 0.80)\n",
             dbb_bytes);
  for (auto [line, lines] : {std::pair<uint32_t, uint32_t>{256, 16}, {4096, 64}, {65536, 16}}) {
    const CopyFigure f = measure_copy(line, lines);
    const double bpc = f.cycles ? static_cast<double>(f.bytes) / static_cast<double>(f.cycles) : 0;
    fmt::print("  {:>8} bytes ({:>5} B x {:>3} lines): {:>7} cycles, {:6.2f} B/cycle, efficiency {:.2f}\n",
               f.bytes, line, lines, f.cycles, bpc, bpc / dbb_bytes);
  }

  fmt::print("bdma.random simulation speed (v1, 20 seeds, random AXI timing)\n");
  uint64_t cycles = 0;
  double wall = 0, eval = 0, golden = 0, stepping = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RunRequest r;
    r.config = "v1";
    r.test = "bdma.random";
    r.seed = seed;
    const RunResult res = run_test(r);
    cycles += res.cycles;
    wall += res.wall_seconds;
    eval += res.eval_seconds;
    golden += res.golden_seconds;
    stepping += res.details["sim"]["total_seconds"].get<double>();
  }
  auto pct = [](double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
  fmt::print("  {} cycles; whole tests {:.3f} s ({:.0f} cycles/s), clock stepping {:.3f} s ({:.0f} cycles/s)\n",
             cycles, wall, wall > 0 ? static_cast<double>(cycles) / wall : 0, stepping,
             stepping > 0 ? static_cast<double>(cycles) / stepping : 0);
  fmt::print("  outside eval while stepping the clock (BFMs, checkers): {:.1f} % (goal < 20 %)\n",
             pct(stepping - eval, stepping));
  fmt::print("  outside eval over whole tests (incl. model construction, generation, scoreboard): {:.1f} %\n",
             pct(wall - eval, wall));
  fmt::print("  golden model: {:.2f} % of whole-test wall time (goal < 5 %)\n", pct(golden, wall));
  return 0;
}
