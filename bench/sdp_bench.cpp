// SDP figures: cycles per element of a large memory-to-memory layer (BS+BN+EW active with
// register operands, LUT on) against the bound max(bytes moved / DBB bytes per cycle,
// elements / SDP throughput), with zero-latency memory, for int8 / int16 / fp16.
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/register_map.h"
#include "dla/simulation.h"
#include "dla/test_runner.h"

namespace {

using namespace dla;

struct Figure {
  uint64_t cycles = 0, elements = 0, bytes = 0;
  bool ok = false;
};

// prec: 0 int8, 1 int16, 2 fp16 (IN = PROC = OUT).
Figure measure(const std::string& cfg_name, unsigned prec, uint32_t w, uint32_t h, uint32_t c) {
  const HwConfig& cfg = HwConfig::get(cfg_name);
  const RegisterMap& map = RegisterMap::of(cfg);
  tb::SimOptions o;
  o.seed = 1;
  o.axi_profile = "fast";
  auto sim = tb::make_simulation(cfg_name, o);
  auto wr = [&](const std::string& reg, uint32_t v) { sim->csb_write(map.address_of(*map.find(reg)), v); };
  auto rd = [&](const std::string& reg) { return sim->csb_read(map.address_of(*map.find(reg))); };
  const unsigned A = cfg.atom_bytes;
  const unsigned epa = prec == 0 ? A : A / 2;
  const uint32_t surfs = (c + epa - 1) / epa;
  const uint32_t line = w * A, surf = line * h;
  const uint64_t src = 0x10000000, dst = 0x40000000;
  std::vector<uint8_t> data(static_cast<size_t>(surf) * surfs);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>((i * 37 + 11) & 0x3f);
  sim->memory(MemPort::Dbb).load(src, data.data(), data.size());
  for (const std::string u : {"SDP_RDMA", "SDP"}) {
    wr(u + ".D_DATA_CUBE_WIDTH", w - 1);
    wr(u + ".D_DATA_CUBE_HEIGHT", h - 1);
    wr(u + ".D_DATA_CUBE_CHANNEL", c - 1);
  }
  const uint32_t p = prec;
  wr("SDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(src));
  wr("SDP_RDMA.D_SRC_LINE_STRIDE", line);
  wr("SDP_RDMA.D_SRC_SURFACE_STRIDE", surf);
  wr("SDP_RDMA.D_SRC_DMA_CFG", 1);
  wr("SDP_RDMA.D_FEATURE_MODE_CFG", p << 2 | p << 4 | p << 6);
  for (const char* r : {"SDP_RDMA.D_BRDMA_CFG", "SDP_RDMA.D_NRDMA_CFG", "SDP_RDMA.D_ERDMA_CFG"}) wr(r, 1);
  wr("SDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(dst));
  wr("SDP.D_DST_LINE_STRIDE", line);
  wr("SDP.D_DST_SURFACE_STRIDE", surf);
  wr("SDP.D_DST_DMA_CFG", 1);
  wr("SDP.D_DATA_FORMAT", p | p << 2);
  wr("SDP.D_FEATURE_MODE_CFG", 0);
  wr("SDP.D_DP_BS_CFG", 0x48);                 // ALU SUM, MUL, ReLU bypassed
  wr("SDP.D_DP_BS_ALU_SRC_VALUE", prec == 2 ? 0x3400 : 3);
  wr("SDP.D_DP_BS_MUL_SRC_VALUE", prec == 2 ? 0x3e00 : 5);
  wr("SDP.D_DP_BN_CFG", 0x08);
  wr("SDP.D_DP_BN_ALU_SRC_VALUE", prec == 2 ? 0xbc00 : 0xfff0);
  wr("SDP.D_DP_BN_MUL_SRC_VALUE", prec == 2 ? 0x3800 : 1);
  wr("SDP.D_DP_EW_CFG", 0x08);                 // EW ALU SUM, MUL, LUT on
  wr("SDP.D_DP_EW_ALU_SRC_VALUE", prec == 2 ? 0x3f800000 : 7);
  wr("SDP.D_DP_EW_MUL_SRC_VALUE", prec == 2 ? 0x3f000000 : 2);
  wr("SDP.S_LUT_INFO", 0x00030000);
  wr("SDP.S_LUT_LO_START", 0);
  wr("SDP.D_CVT_SCALE", 1);
  wr("SDP_RDMA.D_OP_ENABLE", 1);
  sim->drain_csb();
  const uint64_t start = sim->cycle();
  wr("SDP.D_OP_ENABLE", 1);
  Figure f;
  f.ok = sim->run_until_interrupt(50'000'000) && !sim->hang();
  f.cycles = sim->cycle() - start;
  f.elements = static_cast<uint64_t>(w) * h * surfs * epa;
  f.bytes = 2ull * data.size();
  (void)rd;
  return f;
}

// Golden-model time of sdp.random's default program (goal: under 0.2 s per seed on v1).
void golden_speed() {
  double seconds = 0;
  unsigned runs = 0;
  for (uint64_t seed = 100; seed < 110; ++seed) {
    RunRequest req;
    req.config = "v1";
    req.test = "sdp.random";
    req.seed = seed;
    req.golden_only = true;
    const RunResult r = run_test(req);
    if (r.verdict != Verdict::Pass) {
      fmt::print("  seed {}: {} ({})\n", seed, verdict_name(r.verdict), r.summary);
      continue;
    }
    seconds += r.golden_seconds;
    ++runs;
  }
  if (runs != 0)
    fmt::print("sdp.random golden model (v1, default knobs, seeds 100-109): {:.4f} s per seed (goal < 0.2 s)\n",
               seconds / runs);
}

}  // namespace

int main() {
  struct Case {
    const char* cfg;
    unsigned prec;
    const char* name;
  };
  const char* names[] = {"int8", "int16", "fp16"};
  fmt::print("SDP memory-to-memory cycles per element (zero-latency memory; goal: <= 1.25x bound)\n");
  for (const Case& k : {Case{"v1", 0, ""}, Case{"v1", 1, ""}, Case{"v1", 2, ""}, Case{"small", 0, ""}}) {
    const HwConfig& cfg = HwConfig::get(k.cfg);
    const uint32_t w = 128, h = 8, c = std::string(k.cfg) == "v1" ? 64 : 32;
    const Figure f = measure(k.cfg, k.prec, w, h, c);
    const double tp = cfg.sdp_throughput;
    const double bound = std::max(static_cast<double>(f.bytes) / cfg.dbb_bytes(), f.elements / tp);
    fmt::print("  {:>5} {:>5}: {:>7} elements, {:>7} cycles, {:.4f} cycles/element, bound {:.4f}, "
               "ratio {:.3f}{}\n",
               k.cfg, names[k.prec], f.elements, f.cycles,
               static_cast<double>(f.cycles) / f.elements, bound / f.elements,
               static_cast<double>(f.cycles) / bound, f.ok ? "" : "  (DID NOT FINISH)");
  }
  golden_speed();
  return 0;
}
