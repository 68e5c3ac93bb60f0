// CDP figures: cycles per element of memory-to-memory LRN layers (zero-latency memory, the
// "fast" AXI profile) against the bound max(bytes moved / DBB bytes per cycle,
// elements incl. pad lanes / CDP throughput), per configuration and precision; the goal is
// at most 1.25 x the bound plus a fixed latency for large cubes (docs/cdp-rtl.md).
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dla/register_map.h"
#include "dla/simulation.h"

namespace {

using namespace dla;

struct Shape {
  const char* name;
  uint32_t w, h, c, fmt, len;
};

struct Figure {
  uint64_t cycles = 0;
  double elements = 0, bytes = 0;
  bool ok = false;
};

Figure measure(const std::string& config, const Shape& s) {
  const HwConfig& cfg = HwConfig::get(config);
  const RegisterMap& map = RegisterMap::of(cfg);
  auto a = [&](const std::string& name) { return map.address_of(*map.find(name)); };
  tb::SimOptions o;
  o.seed = 1;
  o.axi_profile = "fast";
  o.watchdog_cycles = 2'000'000;
  auto sim = tb::make_simulation(config, o);
  const uint32_t atom = cfg.atom_bytes, bpe = s.fmt == 0 ? 1 : 2;
  const uint32_t surfaces = (s.c + atom / bpe - 1) / (atom / bpe);
  const uint64_t src = 0x100000, dst = 0x4000000;
  std::vector<uint8_t> in(static_cast<size_t>(surfaces) * s.h * s.w * atom);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 13 + (i >> 9));
  if (s.fmt == 2)  // keep fp16 elements finite
    for (size_t i = 1; i < in.size(); i += 2) in[i] &= 0x3b;
  sim->memory(MemPort::Dbb).load(src, in.data(), in.size());
  auto w = [&](const std::string& reg, uint32_t v) { sim->csb_write(a(reg), v); };
  // LUT: exponential LE, linear LO (contents do not change the timing)
  w("CDP.S_LUT_ACCESS_CFG", 1u << 17);
  for (int i = 0; i <= 64; ++i) w("CDP.S_LUT_ACCESS_DATA", static_cast<uint32_t>(i * 100));
  w("CDP.S_LUT_ACCESS_CFG", 1u << 17 | 1u << 16);
  for (int i = 0; i <= 256; ++i) w("CDP.S_LUT_ACCESS_DATA", static_cast<uint32_t>(i * 10));
  w("CDP.S_LUT_INFO", 4u << 16);
  w("CDP_RDMA.D_DATA_CUBE_WIDTH", s.w - 1);
  w("CDP_RDMA.D_DATA_CUBE_HEIGHT", s.h - 1);
  w("CDP_RDMA.D_DATA_CUBE_CHANNEL", s.c - 1);
  w("CDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(src));
  w("CDP_RDMA.D_SRC_LINE_STRIDE", s.w * atom);
  w("CDP_RDMA.D_SRC_SURFACE_STRIDE", s.w * s.h * atom);
  w("CDP_RDMA.D_SRC_DMA_CFG", 1);
  w("CDP_RDMA.D_DATA_FORMAT", s.fmt);
  w("CDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(dst));
  w("CDP.D_DST_LINE_STRIDE", s.w * atom);
  w("CDP.D_DST_SURFACE_STRIDE", s.w * s.h * atom);
  w("CDP.D_DST_DMA_CFG", 1);
  w("CDP.D_DATA_FORMAT", s.fmt);
  w("CDP.D_LRN_CFG", s.len);
  w("CDP_RDMA.D_OP_ENABLE", 1);
  sim->drain_csb();
  const uint64_t start = sim->cycle();
  w("CDP.D_OP_ENABLE", 1);
  Figure f;
  f.ok = sim->run_until_interrupt(50'000'000);
  f.cycles = sim->cycle() - start;
  f.elements = static_cast<double>(in.size()) / bpe;   // pad lanes are processed too
  f.bytes = 2.0 * static_cast<double>(in.size());
  return f;
}

}  // namespace

int main() {
  const std::vector<Shape> shapes = {
      {"int8 n=5, 128x16x64", 128, 16, 64, 0, 1},
      {"int8 n=9, 64x8x61", 64, 8, 61, 0, 3},
      {"int16 n=5, 128x16x64", 128, 16, 64, 1, 1},
      {"fp16 n=5, 128x16x64", 128, 16, 64, 2, 1},
  };
  for (const std::string config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    fmt::print("CDP memory-to-memory ({}: DBB {} B/cycle, {} elements/cycle, zero-latency memory; goal <= 1.25 x bound)\n",
               config, cfg.dbb_bytes(), cfg.cdp_throughput);
    for (const Shape& s : shapes) {
      if (s.fmt != 0 && config == "small") continue;
      const Figure f = measure(config, s);
      const double bound = std::max(f.bytes / cfg.dbb_bytes(), f.elements / cfg.cdp_throughput);
      fmt::print("  {:<24} {:>8} cycles{}  {:.4f} cycles/element, bound {:.4f}, ratio {:.3f}\n", s.name, f.cycles,
                 f.ok ? "" : " (no interrupt!)", f.cycles / f.elements, bound / f.elements, f.cycles / bound);
    }
  }
  return 0;
}
