// RTL tests of PDP_RDMA + PDP (rtl/pdp, docs/pdp-rtl.md): pdp.random against the golden
// model on both configurations, directed layers (the spec's worked example, split mode,
// fp16 specials, SRAM, back-to-back groups), NVDLA's own PDP traces when they are present,
// and the memory-to-memory throughput bound.
#define BOOST_TEST_MODULE dla_rtl_pdp
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/simulation.h"
#include "dla/test_runner.h"
#include "dla/trace_cfg.h"
#include "dla/trace_compile.h"
#include "dla/trace_files.h"
#include "dla/trace_txn.h"
#include "rtl_reg_program.h"
#include "rtl_test_support.h"

namespace {

using namespace dla;

// Builds a PDP layer program register by register (names resolved in the configuration's
// map), so directed cases read like the spec's register tables.
class PdpProgram : public RegProgram {
 public:
  explicit PdpProgram(const std::string& config) : RegProgram(config, "pdp.directed") {}
  // Both units, one group: geometry W x H x C, format, method, kernel, strides, pads.
  struct Layer {
    uint32_t w = 4, h = 4, c = 8, fmt = 0, method = 0, kw = 3, kh = 3, sw = 2, sh = 2;
    uint32_t pl = 1, pt = 1, pr = 1, pb = 1;
    uint32_t recip_w = 0x5555, recip_h = 0x5555;
    std::vector<uint32_t> pad_values = std::vector<uint32_t>(7, 0);
    uint64_t src = 0x1000, dst = 0x80000;
    uint32_t src_ram = 1, dst_ram = 1, nan_to_zero = 0;
    // split mode: SPLIT_NUM and partial widths (field+1 values); 0 stripes = no split
    uint32_t split = 0, fi = 0, mi = 0, li = 0, fo = 0, mo = 0, lo = 0;
  };
  uint32_t ow(const Layer& l) const { return (l.pl + l.w + l.pr - l.kw) / l.sw + 1; }
  uint32_t oh(const Layer& l) const { return (l.pt + l.h + l.pb - l.kh) / l.sh + 1; }
  void program(const Layer& l, uint32_t group) {
    const uint32_t atom = cfg_.atom_bytes;
    const uint32_t line = l.w * atom, surf = line * l.h;
    const uint32_t oline = ow(l) * atom, osurf = oline * oh(l);
    for (const char* u : {"PDP_RDMA", "PDP"}) write(std::string(u) + ".S_POINTER", group);
    const std::string R = "PDP_RDMA.", P = "PDP.";
    write(R + "D_DATA_CUBE_IN_WIDTH", l.w - 1);
    write(R + "D_DATA_CUBE_IN_HEIGHT", l.h - 1);
    write(R + "D_DATA_CUBE_IN_CHANNEL", l.c - 1);
    write(R + "D_FLYING_MODE", 1);
    write(R + "D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(l.src));
    write(R + "D_SRC_BASE_ADDR_HIGH", static_cast<uint32_t>(l.src >> 32));
    write(R + "D_SRC_LINE_STRIDE", line);
    write(R + "D_SRC_SURFACE_STRIDE", surf);
    write(R + "D_SRC_RAM_CFG", l.src_ram);
    write(R + "D_DATA_FORMAT", l.fmt);
    write(R + "D_OPERATION_MODE_CFG", l.split);
    write(R + "D_POOLING_KERNEL_CFG", (l.kw - 1) | (l.sw - 1) << 4);
    write(R + "D_POOLING_PADDING_CFG", l.pl);
    write(R + "D_PARTIAL_WIDTH_IN", partial(l.fi, l.li, l.mi));
    write(P + "D_DATA_CUBE_IN_WIDTH", l.w - 1);
    write(P + "D_DATA_CUBE_IN_HEIGHT", l.h - 1);
    write(P + "D_DATA_CUBE_IN_CHANNEL", l.c - 1);
    write(P + "D_DATA_CUBE_OUT_WIDTH", ow(l) - 1);
    write(P + "D_DATA_CUBE_OUT_HEIGHT", oh(l) - 1);
    write(P + "D_DATA_CUBE_OUT_CHANNEL", l.c - 1);
    write(P + "D_OPERATION_MODE_CFG", l.method | 1u << 4 | l.split << 8);
    write(P + "D_NAN_FLUSH_TO_ZERO", l.nan_to_zero);
    write(P + "D_PARTIAL_WIDTH_IN", partial(l.fi, l.li, l.mi));
    write(P + "D_PARTIAL_WIDTH_OUT", partial(l.fo, l.lo, l.mo));
    write(P + "D_POOLING_KERNEL_CFG", (l.kw - 1) | (l.kh - 1) << 8 | (l.sw - 1) << 16 | (l.sh - 1) << 20);
    write(P + "D_RECIP_KERNEL_WIDTH", l.recip_w);
    write(P + "D_RECIP_KERNEL_HEIGHT", l.recip_h);
    write(P + "D_POOLING_PADDING_CFG", l.pl | l.pt << 4 | l.pr << 8 | l.pb << 12);
    for (int n = 1; n <= 7; ++n)
      write(P + "D_POOLING_PADDING_VALUE_" + std::to_string(n) + "_CFG", l.pad_values[n - 1]);
    write(P + "D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(l.dst));
    write(P + "D_DST_BASE_ADDR_HIGH", static_cast<uint32_t>(l.dst >> 32));
    write(P + "D_DST_LINE_STRIDE", oline);
    write(P + "D_DST_SURFACE_STRIDE", osurf);
    write(P + "D_DST_RAM_CFG", l.dst_ram);
    write(P + "D_DATA_FORMAT", l.fmt);
    write(R + "D_OP_ENABLE", 1);
    write(P + "D_OP_ENABLE", 1);
  }
  void wait_and_check(uint32_t group) {
    wait_intr(1u << (4 + group), "PDP done group " + std::to_string(group));
    for (const char* c : {"D_NAN_INPUT_NUM", "D_INF_INPUT_NUM", "D_NAN_OUTPUT_NUM"}) {
      write("PDP.S_POINTER", group);
      read(std::string("PDP.") + c, std::nullopt, c);
    }
  }

 private:
  static uint32_t partial(uint32_t first, uint32_t last, uint32_t mid) {
    if (first == 0) return 0;
    return (first - 1) | (last - 1) << 10 | (mid - 1) << 20;
  }
};

// Input cube bytes: every lane of every atom (pad lanes included) from a simple formula.
std::vector<uint8_t> cube_bytes(const PdpProgram::Layer& l, unsigned atom, uint32_t salt) {
  const uint32_t bpe = l.fmt == 0 ? 1 : 2;
  const uint32_t surfaces = (l.c + atom / bpe - 1) / (atom / bpe);
  return pattern_bytes(uint64_t{surfaces} * l.h * l.w * atom, salt);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(seeds)

// pdp.random (golden model + scoreboard) on a CI-sized set of seeds per configuration.
BOOST_AUTO_TEST_CASE(seeds_small) {
  require_seeds("small", "pdp.random", 1, 20);
}
BOOST_AUTO_TEST_CASE(seeds_v1) {
  require_seeds("v1", "pdp.random", 1, 20);
}
// Wider planes than the default knobs, with split mode forced often.
BOOST_AUTO_TEST_CASE(wide_and_split) {
  for (const std::string cfg : {"small", "v1"})
    require_seeds(cfg, "pdp.random", 100, 103, {{"max_width", "40"}, {"max_height", "12"}, {"split_percent", "60"}});
}
// 8x8 kernels with leading pads of 7: every window slot open at once and deep line-buffer
// flushes, within the performance budget (which once charged input columns only: seeds 3, 6-9
// and 11 of small went over it).
BOOST_AUTO_TEST_CASE(full_kernels) {
  require_seeds("small", "pdp.random", 1, 12, {{"full_kernel_percent", "100"}});
  require_seeds("v1", "pdp.random", 1, 4, {{"full_kernel_percent", "100"}});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(directed)

// §7.1: int8 average pooling 3x3, stride 2, padding 1 with pad value -3 (every lane).
BOOST_AUTO_TEST_CASE(worked_example_7_1) {
  for (const std::string cfg : {"small", "v1"}) {
    PdpProgram p(cfg);
    PdpProgram::Layer l;
    l.c = p.atom_bytes();
    l.pad_values = {0x7FFFD, 0x7FFFA, 0x7FFF7, 0x7FFF4, 0x7FFF1, 0x7FFEE, 0x7FFEB};
    const int8_t plane[4][4] = {{10, -20, 30, 7}, {5, 100, -128, 64}, {-127, 0, -1, 3}, {-50, 25, 12, 9}};
    std::vector<uint8_t> in(16 * l.c);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x)
        for (uint32_t lane = 0; lane < l.c; ++lane)
          in[(y * 4 + x) * l.c + lane] = static_cast<uint8_t>(plane[y][x]);
    p.load(l.src, in);
    p.program(l, 0);
    p.wait_and_check(0);
    require_pass(p.run());
  }
}

// Every method and (v1) precision on one layer with every pad side, padding values used.
BOOST_AUTO_TEST_CASE(methods_and_precisions) {
  for (const std::string cfg : {"small", "v1"})
    for (uint32_t fmt : {0u, 1u, 2u}) {
      if (cfg == "small" && fmt != 0) continue;
      for (uint32_t method : {0u, 1u, 2u}) {
        PdpProgram p(cfg);
        PdpProgram::Layer l;
        l.w = 9, l.h = 7, l.c = 3 * p.atom_bytes() / (fmt ? 2 : 1) - 5, l.fmt = fmt, l.method = method;
        l.kw = 3, l.kh = 4, l.sw = 1, l.sh = 2, l.pl = 2, l.pt = 3, l.pr = 1, l.pb = 2;
        if (fmt == 2) {
          l.recip_w = 0x07555, l.recip_h = 0x07400;                            // fp17 1/3, 1/4
          l.pad_values = {0x07c00, 0x08000, 0x08200, 0x08400, 0x08500, 0x08600, 0x08700};  // n * 1.0
        } else {
          l.recip_w = 0x5555, l.recip_h = 0x4000;
          l.pad_values = {0x7FFFE, 0x7FFFC, 0x7FFFA, 0x7FFF8, 0x7FFF6, 0x7FFF4, 0x7FFF2};  // n * -2
        }
        l.nan_to_zero = method == 0 ? 1 : 0;
        p.load(l.src, cube_bytes(l, p.atom_bytes(), fmt * 3 + method));
        p.program(l, 0);
        p.wait_and_check(0);
        BOOST_TEST_CONTEXT(cfg << " format " << fmt << " method " << method) { require_pass(p.run()); }
      }
    }
}

// Split mode with 3 stripes (kernel 4, stride 2: overlapping stripes), average.
BOOST_AUTO_TEST_CASE(split_three_stripes) {
  for (const std::string cfg : {"small", "v1"}) {
    PdpProgram p(cfg);
    PdpProgram::Layer l;
    l.w = 16, l.h = 6, l.c = 2 * p.atom_bytes(), l.kw = 4, l.kh = 2, l.sw = 2, l.sh = 2;
    l.pl = 2, l.pt = 1, l.pr = 2, l.pb = 1, l.recip_w = 0x4000, l.recip_h = 0x8000;
    l.pad_values = {1, 2, 3, 4, 5, 6, 7};
    // OW = 9: Fo = 3, Mo = 3, Lo = 3; Fi = Fo*sw - pl + ov = 6, Mi = 6, Li = 16 - 12 = 4
    l.split = 2, l.fi = 6, l.mi = 6, l.li = 4, l.fo = 3, l.mo = 3, l.lo = 3;
    p.load(l.src, cube_bytes(l, p.atom_bytes(), 5));
    p.program(l, 0);
    p.wait_and_check(0);
    require_pass(p.run());
  }
}

// Both groups armed back to back; the second reads from and writes to CV-SRAM (v1).
BOOST_AUTO_TEST_CASE(two_groups_and_sram) {
  PdpProgram p("v1");
  PdpProgram::Layer a, b;
  a.w = 20, a.h = 10, a.c = 40, a.kw = 2, a.kh = 2, a.sw = 2, a.sh = 2, a.pl = a.pt = a.pr = a.pb = 0;
  a.method = 1;
  b = a;
  b.method = 2, b.src = 0x40000, b.dst = 0x90000, b.src_ram = 0, b.dst_ram = 0;
  p.load(a.src, cube_bytes(a, 32, 1));
  p.load(b.src, cube_bytes(b, 32, 2), MemPort::Sram);
  p.program(a, 0);
  p.program(b, 1);
  p.wait_and_check(0);
  p.wait_and_check(1);
  require_pass(p.run());
}

// A pass-through layer larger than 64 KiB followed by a small layer of the other group,
// armed while the first one runs.
BOOST_AUTO_TEST_CASE(large_layer_then_next_group) {
  for (const std::string cfg : {"small", "v1"}) {
    PdpProgram p(cfg);
    PdpProgram::Layer a, b;
    a.w = 64, a.h = 23, a.c = 42 * p.atom_bytes() / 8, a.kw = a.kh = a.sw = a.sh = 1;
    a.pl = a.pt = a.pr = a.pb = 0, a.method = 1, a.dst = 0x100000;
    b.w = 2, b.h = 5, b.c = 58, b.kw = 4, b.kh = 1, b.sw = 6, b.sh = 1, b.pl = 3, b.pt = b.pr = b.pb = 0;
    b.method = 2, b.src = 0x200000, b.dst = 0x300000;
    p.load(a.src, cube_bytes(a, p.atom_bytes(), 1));
    p.load(b.src, cube_bytes(b, p.atom_bytes(), 2));
    p.program(a, 0);
    p.program(b, 1);
    p.wait_and_check(0);
    p.wait_and_check(1);
    BOOST_TEST_CONTEXT(cfg) { require_pass(p.run()); }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(traces)

// NVDLA's own PDP regression traces (nv_small pdp_*, v1 pdp_max_pooling_int16) on the RTL
// with the golden model checking; skipped when the trace folder is not configured.
BOOST_AUTO_TEST_CASE(nvdla_pdp_traces) {
  const std::filesystem::path root = DLA_NVDLA_TRACES;
  if (!std::filesystem::is_directory(root)) {
    BOOST_TEST_MESSAGE("skipped: no NVDLA traces at " << root << " (CMake DLA_NVDLA_TRACES)");
    return;
  }
  std::vector<trace::TraceTest> tests;
  for (const auto& e : std::filesystem::directory_iterator(root / "nv_small"))
    if (e.path().filename().string().rfind("pdp_", 0) == 0)
      for (const auto& t : trace::find_trace_tests(e.path().string())) tests.push_back(t);
  if (std::filesystem::exists(root / "nvdlav1" / "pdp_max_pooling_int16"))
    for (const auto& t : trace::find_trace_tests((root / "nvdlav1" / "pdp_max_pooling_int16").string()))
      tests.push_back(t);
  BOOST_TEST(!tests.empty());
  for (const auto& t : tests) {
    BOOST_TEST_CONTEXT(t.label()) {
      trace::CompiledTrace ct;
      std::string config;
      if (t.dialect == trace::TraceDialect::Cfg) {
        const trace::CfgTrace cfg_trace = trace::read_cfg_file(t.file);
        config = cfg_trace.header_value("config").value_or("small");
        ct = trace::compile_trace(cfg_trace, HwConfig::get(config));
      } else {
        config = "v1";
        ct = trace::compile_trace(trace::read_txn_file(t.file), HwConfig::get(config));
      }
      BOOST_TEST(ct.unsupported.empty(), ct.unsupported);
      if (!ct.unsupported.empty()) continue;
      require_pass(run_program(request(config, t.label(), 1), ct.program));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(throughput)

// Memory to memory on zero-latency memory: a large int8 cube must take at most 1.25x of
// max(bytes moved / DBB bytes per cycle, input elements / PDP throughput) plus 2000 cycles.
BOOST_AUTO_TEST_CASE(large_cube_within_bound) {
  for (const std::string cfg_name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(cfg_name);
    tb::SimOptions o;
    o.axi_profile = "fast";
    auto sim = tb::make_simulation(cfg_name, o);
    PdpProgram p(cfg_name);
    PdpProgram::Layer l;
    l.w = 64, l.h = 32, l.c = 2 * cfg.atom_bytes, l.kw = 3, l.kh = 3, l.sw = 1, l.sh = 1;
    l.pl = l.pt = l.pr = l.pb = 1, l.method = 1;
    const std::vector<uint8_t> in = cube_bytes(l, cfg.atom_bytes, 1);
    sim->memory(MemPort::Dbb).load(l.src, in.data(), in.size());
    p.program(l, 0);
    for (const auto& op : p.get().ops)
      if (const auto* w = std::get_if<RegWrite>(&op)) sim->csb_write(w->addr, w->data);
    sim->drain_csb();
    const uint64_t start = sim->cycle();
    BOOST_REQUIRE(sim->run_until_interrupt(5'000'000));
    const double cycles = static_cast<double>(sim->cycle() - start);
    const double elements = static_cast<double>(l.w) * l.h * l.c;
    const double bytes = static_cast<double>(in.size()) + static_cast<double>(p.ow(l)) * p.oh(l) * l.c;
    const double bound = std::max(bytes / cfg.dbb_bytes(), elements / cfg.pdp_throughput);
    BOOST_TEST_MESSAGE(cfg_name << ": " << cycles << " cycles, bound " << bound << ", ratio " << cycles / bound);
    BOOST_TEST(cycles <= 1.25 * bound + 2000, cfg_name << ": " << cycles << " cycles > 1.25 x " << bound << " + 2000");
  }
}

BOOST_AUTO_TEST_SUITE_END()
