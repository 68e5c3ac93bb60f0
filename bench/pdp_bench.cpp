// PDP figures: cycles per output element of memory-to-memory layers (zero-latency memory,
// the "fast" AXI profile) against the bound max(bytes moved / DBB bytes per cycle,
// input elements / PDP throughput), per configuration and precision; the goal is at most
// 1.25 x the bound plus a fixed latency for large cubes (docs/pdp-rtl.md).
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
  uint32_t w, h, c, fmt, method, kw, kh, sw, sh, pad;
};

struct Figure {
  uint64_t cycles = 0;
  double out_elements = 0, in_elements = 0, bytes = 0;
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
  const uint32_t ow = (2 * s.pad + s.w - s.kw) / s.sw + 1, oh = (2 * s.pad + s.h - s.kh) / s.sh + 1;
  const uint64_t src = 0x100000, dst = 0x4000000;
  std::vector<uint8_t> in(static_cast<size_t>(surfaces) * s.h * s.w * atom);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 13 + (i >> 9));
  if (s.fmt == 2)  // keep fp16 elements finite
    for (size_t i = 1; i < in.size(); i += 2) in[i] &= 0x3b;
  sim->memory(MemPort::Dbb).load(src, in.data(), in.size());
  auto w = [&](const std::string& reg, uint32_t v) { sim->csb_write(a(reg), v); };
  w("PDP_RDMA.D_DATA_CUBE_IN_WIDTH", s.w - 1);
  w("PDP_RDMA.D_DATA_CUBE_IN_HEIGHT", s.h - 1);
  w("PDP_RDMA.D_DATA_CUBE_IN_CHANNEL", s.c - 1);
  w("PDP_RDMA.D_FLYING_MODE", 1);
  w("PDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(src));
  w("PDP_RDMA.D_SRC_LINE_STRIDE", s.w * atom);
  w("PDP_RDMA.D_SRC_SURFACE_STRIDE", s.w * s.h * atom);
  w("PDP_RDMA.D_SRC_RAM_CFG", 1);
  w("PDP_RDMA.D_DATA_FORMAT", s.fmt);
  w("PDP_RDMA.D_POOLING_KERNEL_CFG", (s.kw - 1) | (s.sw - 1) << 4);
  w("PDP.D_DATA_CUBE_IN_WIDTH", s.w - 1);
  w("PDP.D_DATA_CUBE_IN_HEIGHT", s.h - 1);
  w("PDP.D_DATA_CUBE_IN_CHANNEL", s.c - 1);
  w("PDP.D_DATA_CUBE_OUT_WIDTH", ow - 1);
  w("PDP.D_DATA_CUBE_OUT_HEIGHT", oh - 1);
  w("PDP.D_DATA_CUBE_OUT_CHANNEL", s.c - 1);
  w("PDP.D_OPERATION_MODE_CFG", s.method | 1u << 4);
  w("PDP.D_POOLING_KERNEL_CFG", (s.kw - 1) | (s.kh - 1) << 8 | (s.sw - 1) << 16 | (s.sh - 1) << 20);
  w("PDP.D_RECIP_KERNEL_WIDTH", s.fmt == 2 ? 0x07555 : 0x5555);
  w("PDP.D_RECIP_KERNEL_HEIGHT", s.fmt == 2 ? 0x07555 : 0x5555);
  w("PDP.D_POOLING_PADDING_CFG", s.pad * 0x1111u);
  w("PDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(dst));
  w("PDP.D_DST_LINE_STRIDE", ow * atom);
  w("PDP.D_DST_SURFACE_STRIDE", ow * oh * atom);
  w("PDP.D_DST_RAM_CFG", 1);
  w("PDP.D_DATA_FORMAT", s.fmt);
  w("PDP_RDMA.D_OP_ENABLE", 1);
  sim->drain_csb();
  const uint64_t start = sim->cycle();
  w("PDP.D_OP_ENABLE", 1);
  Figure f;
  f.ok = sim->run_until_interrupt(50'000'000);
  f.cycles = sim->cycle() - start;
  const double lanes = static_cast<double>(surfaces) * atom / bpe;   // pad lanes are processed too
  f.in_elements = lanes * s.w * s.h;
  f.out_elements = lanes * ow * oh;
  f.bytes = static_cast<double>(in.size()) + static_cast<double>(surfaces) * ow * oh * atom;
  return f;
}

}  // namespace

int main() {
  const std::vector<Shape> shapes = {
      {"int8 3x3/1 max, 64x32x64", 64, 32, 64, 0, 1, 3, 3, 1, 1, 1},
      {"int8 2x2/2 avg, 128x32x64", 128, 32, 64, 0, 0, 2, 2, 2, 2, 0},
      {"int8 8x8/1 avg, 64x24x32", 64, 24, 32, 0, 0, 8, 8, 1, 1, 3},
      {"int16 3x3/2 avg, 64x32x64", 64, 32, 64, 1, 0, 3, 3, 2, 2, 1},
      {"fp16 3x3/1 avg, 64x32x64", 64, 32, 64, 2, 0, 3, 3, 1, 1, 1},
  };
  for (const std::string config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    fmt::print("PDP memory-to-memory ({}: DBB {} B/cycle, {} elements/cycle, zero-latency memory; goal <= 1.25 x bound)\n",
               config, cfg.dbb_bytes(), cfg.pdp_throughput);
    for (const Shape& s : shapes) {
      if (s.fmt != 0 && config == "small") continue;
      const Figure f = measure(config, s);
      const double bound = std::max(f.bytes / cfg.dbb_bytes(), f.in_elements / cfg.pdp_throughput);
      fmt::print("  {:<28} {:>8} cycles{}  {:.3f} cycles/output element, bound {:.3f}, ratio {:.3f}\n",
                 s.name, f.cycles, f.ok ? "" : " (no interrupt!)", f.cycles / f.out_elements,
                 bound / f.out_elements, f.cycles / bound);
    }
  }
  return 0;
}
