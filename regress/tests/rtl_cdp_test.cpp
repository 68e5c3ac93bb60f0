// RTL tests of CDP_RDMA + CDP (rtl/cdp, docs/cdp-rtl.md): cdp.random against the golden
// model on both configurations, directed layers (LUT port, big cubes, both bypasses, both
// groups with CV-SRAM), NVDLA's own nv_small CDP traces when they are present, and the
// memory-to-memory throughput bound.
#define BOOST_TEST_MODULE dla_rtl_cdp
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "dla/register_map.h"
#include "dla/simulation.h"
#include "dla/test_runner.h"
#include "dla/trace_cfg.h"
#include "dla/trace_compile.h"
#include "dla/trace_files.h"
#include "rtl_reg_program.h"
#include "rtl_test_support.h"

namespace {

using namespace dla;

// A CDP layer program written register by register (names from the configuration's map).
class CdpProgram : public RegProgram {
 public:
  explicit CdpProgram(const std::string& config) : RegProgram(config, "cdp.directed") {}
  struct Layer {
    uint32_t w = 4, h = 3, c = 8, fmt = 0, len = 1;
    bool sqsum_bypass = false, mul_bypass = false;
    uint32_t din_offset = 0, din_scale = 1, din_shift = 0, dout_offset = 0, dout_scale = 1, dout_shift = 0;
    uint64_t src = 0x1000, dst = 0x80000;
    uint32_t src_ram = 1, dst_ram = 1;
  };
  uint32_t surfaces(const Layer& l) const {
    const uint32_t e = cfg_.atom_bytes / (l.fmt == 0 ? 1 : 2);
    return (l.c + e - 1) / e;
  }
  uint64_t bytes(const Layer& l) const { return uint64_t{surfaces(l)} * l.h * l.w * cfg_.atom_bytes; }
  // An exponential LE table over the square sums and a linear LO at their low end (LRN-like).
  void program_lut() {
    write("CDP.S_LUT_ACCESS_CFG", 1u << 17);  // LE, write, address 0
    for (int i = 0; i <= 64; ++i) write("CDP.S_LUT_ACCESS_DATA", static_cast<uint32_t>(32767 - i * 400));
    write("CDP.S_LUT_ACCESS_CFG", 1u << 17 | 1u << 16);  // LO
    for (int i = 0; i <= 256; ++i) write("CDP.S_LUT_ACCESS_DATA", static_cast<uint32_t>(30000 - i * 97));
    write("CDP.S_LUT_CFG", 1u << 6);                     // LE exponential, hybrid picks LO
    write("CDP.S_LUT_INFO", 0u | 4u << 16);              // IOFF 0, LO select 4
    write("CDP.S_LUT_LE_START_LOW", 0);
    write("CDP.S_LUT_LE_END_LOW", 0);
    write("CDP.S_LUT_LE_END_HIGH", 0x10);                // 2^36
    write("CDP.S_LUT_LO_START_LOW", 0);
    write("CDP.S_LUT_LO_END_LOW", 256 * 16);
    write("CDP.S_LUT_LE_SLOPE_SCALE", 0xfff0'0010);
    write("CDP.S_LUT_LE_SLOPE_SHIFT", 3 | 2u << 5);
    write("CDP.S_LUT_LO_SLOPE_SCALE", 0xffe0'0020);
    write("CDP.S_LUT_LO_SLOPE_SHIFT", 0x1d | 4u << 5);   // uflow shift -3 (left)
  }
  void program(const Layer& l, uint32_t group) {
    const uint32_t atom = cfg_.atom_bytes;
    const uint32_t line = l.w * atom, surf = line * l.h;
    write("CDP_RDMA.S_POINTER", group);
    write("CDP.S_POINTER", group);
    write("CDP_RDMA.D_DATA_CUBE_WIDTH", l.w - 1);
    write("CDP_RDMA.D_DATA_CUBE_HEIGHT", l.h - 1);
    write("CDP_RDMA.D_DATA_CUBE_CHANNEL", l.c - 1);
    write("CDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(l.src));
    write("CDP_RDMA.D_SRC_BASE_ADDR_HIGH", static_cast<uint32_t>(l.src >> 32));
    write("CDP_RDMA.D_SRC_LINE_STRIDE", line);
    write("CDP_RDMA.D_SRC_SURFACE_STRIDE", surf);
    write("CDP_RDMA.D_SRC_DMA_CFG", l.src_ram);
    write("CDP_RDMA.D_DATA_FORMAT", l.fmt);
    write("CDP.D_FUNC_BYPASS", (l.sqsum_bypass ? 1u : 0u) | (l.mul_bypass ? 2u : 0u));
    write("CDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(l.dst));
    write("CDP.D_DST_BASE_ADDR_HIGH", static_cast<uint32_t>(l.dst >> 32));
    write("CDP.D_DST_LINE_STRIDE", line);
    write("CDP.D_DST_SURFACE_STRIDE", surf);
    write("CDP.D_DST_DMA_CFG", l.dst_ram);
    write("CDP.D_DATA_FORMAT", l.fmt);
    write("CDP.D_LRN_CFG", l.len);
    write("CDP.D_DATIN_OFFSET", l.din_offset);
    write("CDP.D_DATIN_SCALE", l.din_scale);
    write("CDP.D_DATIN_SHIFTER", l.din_shift);
    write("CDP.D_DATOUT_OFFSET", l.dout_offset);
    write("CDP.D_DATOUT_SCALE", l.dout_scale);
    write("CDP.D_DATOUT_SHIFTER", l.dout_shift);
    write("CDP_RDMA.D_OP_ENABLE", 1);
    write("CDP.D_OP_ENABLE", 1);
  }
  void wait_and_check(uint32_t group) {
    wait_intr(1u << (2 + group), "CDP done group " + std::to_string(group));
    write("CDP.S_POINTER", group);
    for (const char* c : {"D_NAN_INPUT_NUM", "D_INF_INPUT_NUM", "D_NAN_OUTPUT_NUM", "D_OUT_SATURATION",
                          "D_PERF_LUT_UFLOW", "D_PERF_LUT_OFLOW", "D_PERF_LUT_HYBRID", "D_PERF_LUT_LE_HIT",
                          "D_PERF_LUT_LO_HIT"})
      read(std::string("CDP.") + c);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(seeds)

// cdp.random (golden model + scoreboard) on a CI-sized set of seeds per configuration.
BOOST_AUTO_TEST_CASE(seeds_small) {
  require_seeds("small", "cdp.random", 1, 30);
}
BOOST_AUTO_TEST_CASE(seeds_v1) {
  require_seeds("v1", "cdp.random", 1, 30);
}
// Wider cubes and more surfaces than the default knobs (width blocks, chunk splits).
BOOST_AUTO_TEST_CASE(wide_cubes) {
  for (const std::string cfg : {"small", "v1"})
    require_seeds(cfg, "cdp.random", 100, 102, {{"max_width", "21"}, {"max_height", "4"}, {"max_surfaces", "6"}});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(directed)

// LUT port: auto-increment writes, read-back from an arbitrary address, the address stops at
// the last entry, typed access, CFG read-back (values checked by the golden model).
BOOST_AUTO_TEST_CASE(lut_port) {
  for (const std::string cfg : {"small", "v1"}) {
    CdpProgram p(cfg);
    p.program_lut();
    p.write("CDP.S_LUT_ACCESS_CFG", 62);  // LE, read, from 62: 62, 63, 64, 64, 64
    for (int i = 0; i < 5; ++i) p.read("CDP.S_LUT_ACCESS_DATA");
    p.read("CDP.S_LUT_ACCESS_CFG", 64);
    p.write("CDP.S_LUT_ACCESS_CFG", 1u << 16 | 250);  // LO, read
    for (int i = 0; i < 9; ++i) p.read("CDP.S_LUT_ACCESS_DATA");
    p.read("CDP.S_LUT_ACCESS_CFG", 1u << 16 | 256);
    p.write("CDP.S_LUT_ACCESS_DATA", 0x1234);          // type READ: ignored
    p.write("CDP.S_LUT_ACCESS_CFG", 1u << 17 | 1u << 16 | 255);
    p.read("CDP.S_LUT_ACCESS_DATA", 0);                 // type WRITE: reads 0, no advance
    p.write("CDP.S_LUT_ACCESS_DATA", 0xbeef);
    p.write("CDP.S_LUT_ACCESS_DATA", 0xcafe);
    p.write("CDP.S_LUT_ACCESS_DATA", 0xf00d);           // stays on 256
    p.read("CDP.S_LUT_ACCESS_CFG", 3u << 16 | 256);
    p.write("CDP.S_LUT_ACCESS_CFG", 1u << 16 | 255);
    p.read("CDP.S_LUT_ACCESS_DATA", 0xbeef);
    p.read("CDP.S_LUT_ACCESS_DATA", 0xf00d);
    BOOST_TEST_CONTEXT(cfg) { require_pass(p.run()); }
  }
}

// Every normalization length and precision, both bypass combinations, on a cube whose
// channels end inside an atom and with widths that make several width blocks.
BOOST_AUTO_TEST_CASE(lengths_precisions_bypasses) {
  for (const std::string cfg : {"small", "v1"})
    for (uint32_t fmt : {0u, 1u}) {
      if (cfg == "small" && fmt != 0) continue;
      for (uint32_t len = 0; len < 4; ++len)
        for (int byp = 0; byp < 3; ++byp) {
          CdpProgram p(cfg);
          CdpProgram::Layer l;
          l.w = 11, l.h = 2, l.c = 3 * p.atom_bytes() / (fmt ? 2 : 1) - 3, l.fmt = fmt, l.len = len;
          l.sqsum_bypass = byp == 1, l.mul_bypass = byp >= 1;
          l.din_offset = fmt ? 0xff9c : 0x9c, l.din_scale = 0xfffe, l.din_shift = 3;   // -100, -2, 3
          l.dout_offset = 0xffffffdf, l.dout_scale = 9, l.dout_shift = fmt ? 10 : 2;
          p.program_lut();
          p.load(l.src, pattern_bytes(p.bytes(l), fmt * 7 + len * 3 + byp));
          p.program(l, 0);
          p.wait_and_check(0);
          BOOST_TEST_CONTEXT(cfg << " format " << fmt << " len " << len << " bypass " << byp) {
            require_pass(p.run());
          }
        }
    }
}

// D_OUT_SATURATION on a layer whose every output saturates (output scale 0x7fff): v1 counts
// (the golden model gives the number), small has no counter and reads 0 (as NVIDIA's nv_small).
BOOST_AUTO_TEST_CASE(out_saturation_counter) {
  for (const std::string cfg : {"small", "v1"}) {
    CdpProgram p(cfg);
    CdpProgram::Layer l;
    l.dout_scale = 0x7fff;
    p.program_lut();
    p.load(l.src, pattern_bytes(p.bytes(l), 5));
    p.program(l, 0);
    p.wait_and_check(0);
    if (!HwConfig::get(cfg).cdp_out_saturation) p.read("CDP.D_OUT_SATURATION", 0u);
    BOOST_TEST_CONTEXT(cfg) { require_pass(p.run()); }
  }
}

// Both groups armed back to back; the second reads from and writes to CV-SRAM (v1).
BOOST_AUTO_TEST_CASE(two_groups_and_sram) {
  CdpProgram p("v1");
  CdpProgram::Layer a, b;
  a.w = 20, a.h = 5, a.c = 40, a.len = 3;
  b = a;
  b.fmt = 1, b.len = 0, b.src = 0x40000, b.dst = 0x90000, b.src_ram = 0, b.dst_ram = 0;
  p.program_lut();
  p.load(a.src, pattern_bytes(p.bytes(a), 1));
  p.load(b.src, pattern_bytes(p.bytes(b), 2), MemPort::Sram);
  p.program(a, 0);
  p.program(b, 1);
  p.wait_and_check(0);
  p.wait_and_check(1);
  require_pass(p.run());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(traces)

// NVDLA's own nv_small CDP regression traces on the RTL with the golden model checking;
// skipped when the trace folder is not configured.
BOOST_AUTO_TEST_CASE(nvdla_cdp_traces) {
  const std::filesystem::path root = DLA_NVDLA_TRACES;
  if (!std::filesystem::is_directory(root / "nv_small")) {
    BOOST_TEST_MESSAGE("skipped: no NVDLA traces at " << root << " (CMake DLA_NVDLA_TRACES)");
    return;
  }
  std::vector<trace::TraceTest> tests;
  for (const auto& e : std::filesystem::directory_iterator(root / "nv_small"))
    if (e.path().filename().string().rfind("cdp_", 0) == 0)
      for (const auto& t : trace::find_trace_tests(e.path().string())) tests.push_back(t);
  BOOST_TEST(!tests.empty());
  for (const auto& t : tests) {
    BOOST_TEST_CONTEXT(t.label()) {
      const trace::CfgTrace cfg_trace = trace::read_cfg_file(t.file);
      const std::string config = cfg_trace.header_value("config").value_or("small");
      const trace::CompiledTrace ct = trace::compile_trace(cfg_trace, HwConfig::get(config));
      BOOST_TEST(ct.unsupported.empty(), ct.unsupported);
      if (!ct.unsupported.empty()) continue;
      require_pass(run_program(request(config, t.label(), 1), ct.program));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(throughput)

// Memory to memory on zero-latency memory: a large cube must take at most 1.25x of
// max(bytes moved / DBB bytes per cycle, elements (pad lanes included) / CDP throughput)
// plus 2000 cycles, in every precision of the configuration.
BOOST_AUTO_TEST_CASE(large_cube_within_bound) {
  for (const std::string cfg_name : {"small", "v1"})
    for (uint32_t fmt : {0u, 1u, 2u}) {
      const HwConfig& cfg = HwConfig::get(cfg_name);
      if (cfg_name == "small" && fmt != 0) continue;
      tb::SimOptions o;
      o.axi_profile = "fast";
      auto sim = tb::make_simulation(cfg_name, o);
      CdpProgram p(cfg_name);
      CdpProgram::Layer l;
      l.w = 64, l.h = 8, l.c = 4 * cfg.atom_bytes / (fmt ? 2 : 1), l.fmt = fmt, l.len = 3;
      const std::vector<uint8_t> in = pattern_bytes(p.bytes(l), 1);
      sim->memory(MemPort::Dbb).load(l.src, in.data(), in.size());
      p.program_lut();
      p.program(l, 0);
      for (const auto& op : p.get().ops)
        if (const auto* w = std::get_if<RegWrite>(&op)) sim->csb_write(w->addr, w->data);
      sim->drain_csb();
      const uint64_t start = sim->cycle();
      BOOST_REQUIRE(sim->run_until_interrupt(5'000'000));
      const double cycles = static_cast<double>(sim->cycle() - start);
      const double elements = static_cast<double>(in.size()) / (fmt ? 2 : 1);
      const double bytes = 2.0 * static_cast<double>(in.size());
      const double bound = std::max(bytes / cfg.dbb_bytes(), elements / cfg.cdp_throughput);
      BOOST_TEST_MESSAGE(cfg_name << " format " << fmt << ": " << cycles << " cycles, bound " << bound
                                  << ", ratio " << cycles / bound);
      BOOST_TEST(cycles <= 1.25 * bound + 2000,
                 cfg_name << " format " << fmt << ": " << cycles << " cycles > 1.25 x " << bound << " + 2000");
    }
}

BOOST_AUTO_TEST_SUITE_END()
