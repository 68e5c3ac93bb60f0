// RTL tests of the SDP -> PDP on-flying path (docs/sdp-rtl.md, docs/pdp-rtl.md "On-flying"):
// sdp_pdp.random against the golden model on both configurations, and directed layers whose
// expected PDP output is computed here (SDP pass-through, so PDP's result follows from the
// input bytes alone): the shape of NVDLA's sdp_pdp_32x16x32_pass_through_int8_0 test and a
// 2x2 max pooling with PDP armed long after SDP (back-pressure: nothing may complete before).
#define BOOST_TEST_MODULE dla_rtl_sdp_pdp
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "dla/register_map.h"
#include "dla/test_runner.h"
#include "rtl_reg_program.h"
#include "rtl_test_support.h"

namespace {

using namespace dla;

// An int8 SDP pass-through layer (every stage bypassed, identity converter) on group 0 that
// streams a packed W x H x C cube into a PDP max-pooling layer (kernel k x k, stride s, no
// padding) on group 0.
class FusedProgram : public RegProgram {
 public:
  struct Layer {
    uint32_t w = 32, h = 16, c = 32, k = 1, s = 1;
    uint64_t src = 0x8000'1000, sdp_dst = 0x8010'0000, pdp_dst = 0x8020'0000;
  };

  FusedProgram(const std::string& config, const Layer& l) : RegProgram(config, "sdp_pdp.directed"), l_(l) {}
  uint32_t surfaces() const { return (l_.c + cfg_.atom_bytes - 1) / cfg_.atom_bytes; }
  uint32_t ow() const { return (l_.w - l_.k) / l_.s + 1; }
  uint32_t oh() const { return (l_.h - l_.k) / l_.s + 1; }

  // Input bytes (every lane of every atom), packed: surface, line, column.
  std::vector<uint8_t> input() const {
    std::vector<uint8_t> b(size_t{surfaces()} * l_.h * l_.w * cfg_.atom_bytes);
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>((i * 73 + (i >> 5) * 29) ^ (i >> 2));
    return b;
  }
  // PDP's output: per lane the maximum (signed int8) of each k x k window.
  std::vector<uint8_t> expected() const {
    const std::vector<uint8_t> in = input();
    const unsigned a = cfg_.atom_bytes;
    std::vector<uint8_t> out(size_t{surfaces()} * oh() * ow() * a);
    for (uint32_t sf = 0; sf < surfaces(); ++sf)
      for (uint32_t oy = 0; oy < oh(); ++oy)
        for (uint32_t ox = 0; ox < ow(); ++ox)
          for (unsigned lane = 0; lane < a; ++lane) {
            int m = -129;
            for (uint32_t y = oy * l_.s; y < oy * l_.s + l_.k; ++y)
              for (uint32_t x = ox * l_.s; x < ox * l_.s + l_.k; ++x)
                m = std::max<int>(m, static_cast<int8_t>(in[((size_t{sf} * l_.h + y) * l_.w + x) * a + lane]));
            out[((size_t{sf} * oh() + oy) * ow() + ox) * a + lane] = static_cast<uint8_t>(m);
          }
    return out;
  }

  void program() {
    const uint32_t a = cfg_.atom_bytes, line = l_.w * a, surf = line * l_.h;
    load(l_.src, input());
    // SDP's memory output registers point at a pre-filled region that must stay untouched.
    load(l_.sdp_dst, std::vector<uint8_t>(size_t{surf} * surfaces(), 0x5a));
    for (const char* u : {"SDP_RDMA", "SDP"}) {
      const std::string U = std::string(u) + ".";
      write(U + "S_POINTER", 0);
      write(U + "D_DATA_CUBE_WIDTH", l_.w - 1);
      write(U + "D_DATA_CUBE_HEIGHT", l_.h - 1);
      write(U + "D_DATA_CUBE_CHANNEL", l_.c - 1);
    }
    write("SDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(l_.src));
    write("SDP_RDMA.D_SRC_BASE_ADDR_HIGH", static_cast<uint32_t>(l_.src >> 32));
    write("SDP_RDMA.D_SRC_LINE_STRIDE", line);
    write("SDP_RDMA.D_SRC_SURFACE_STRIDE", surf);
    write("SDP_RDMA.D_SRC_DMA_CFG", 1);
    for (const char* r : {"D_BRDMA_CFG", "D_NRDMA_CFG", "D_ERDMA_CFG"}) write(std::string("SDP_RDMA.") + r, 1);  // disabled
    write("SDP_RDMA.D_FEATURE_MODE_CFG", 0);  // memory input, int8/int8/int8
    write("SDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(l_.sdp_dst));
    write("SDP.D_DST_BASE_ADDR_HIGH", static_cast<uint32_t>(l_.sdp_dst >> 32));
    write("SDP.D_DST_LINE_STRIDE", line);
    write("SDP.D_DST_SURFACE_STRIDE", surf);
    write("SDP.D_DST_DMA_CFG", 1);
    write("SDP.D_DP_BS_CFG", 1);     // bypass
    write("SDP.D_DP_BN_CFG", 1);     // bypass
    write("SDP.D_DP_EW_CFG", 0x41);  // bypass, LUT bypass
    write("SDP.D_DATA_FORMAT", 0);
    write("SDP.D_CVT_OFFSET", 0);
    write("SDP.D_CVT_SCALE", 1);
    write("SDP.D_CVT_SHIFT", 0);
    write("SDP.D_FEATURE_MODE_CFG", 2);  // OUTPUT_DST = PDP

    write("PDP.S_POINTER", 0);
    write("PDP.D_DATA_CUBE_IN_WIDTH", l_.w - 1);
    write("PDP.D_DATA_CUBE_IN_HEIGHT", l_.h - 1);
    write("PDP.D_DATA_CUBE_IN_CHANNEL", l_.c - 1);
    write("PDP.D_DATA_CUBE_OUT_WIDTH", ow() - 1);
    write("PDP.D_DATA_CUBE_OUT_HEIGHT", oh() - 1);
    write("PDP.D_DATA_CUBE_OUT_CHANNEL", l_.c - 1);
    write("PDP.D_OPERATION_MODE_CFG", 1);  // max, on-flying (FLYING_MODE = 0), no split
    write("PDP.D_POOLING_KERNEL_CFG", (l_.k - 1) | (l_.k - 1) << 8 | (l_.s - 1) << 16 | (l_.s - 1) << 20);
    write("PDP.D_POOLING_PADDING_CFG", 0);
    write("PDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(l_.pdp_dst));
    write("PDP.D_DST_BASE_ADDR_HIGH", static_cast<uint32_t>(l_.pdp_dst >> 32));
    write("PDP.D_DST_LINE_STRIDE", ow() * a);
    write("PDP.D_DST_SURFACE_STRIDE", ow() * a * oh());
    write("PDP.D_DST_RAM_CFG", 1);
    write("PDP.D_DATA_FORMAT", 0);
  }
  void arm(const std::string& unit) { write(unit + ".D_OP_ENABLE", 1); }
  void wait_and_check() {
    WaitIntr wait;
    wait.status_bits = 0x11;  // SDP group 0 (bit 0) and PDP group 0 (bit 4)
    wait.what = "SDP and PDP done, group 0";
    p_.ops.push_back(wait);
    read("GLB.S_INTR_STATUS", 0x11, "SDP and PDP done interrupts only");
    write("GLB.S_INTR_STATUS", 0x11);
    for (const char* c : {"D_NAN_INPUT_NUM", "D_INF_INPUT_NUM", "D_NAN_OUTPUT_NUM"})
      read(std::string("PDP.") + c, 0, std::string("PDP.") + c + " (on-flying: nothing counted)");
    for (const char* u : {"SDP", "SDP_RDMA", "PDP", "PDP_RDMA"}) read(std::string(u) + ".S_STATUS", 0, std::string(u) + " idle");
    p_.ops.push_back(CheckMem{MemPort::Dbb, l_.pdp_dst, expected(), "PDP output"});
  }

 private:
  Layer l_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(seeds)

BOOST_AUTO_TEST_CASE(seeds_small) {
  for (uint64_t seed = 1; seed <= 20; ++seed) require_pass(run_test(request("small", "sdp_pdp.random", seed)));
}
BOOST_AUTO_TEST_CASE(seeds_v1) {
  for (uint64_t seed = 1; seed <= 20; ++seed) require_pass(run_test(request("v1", "sdp_pdp.random", seed)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(directed)

// NVDLA's sdp_pdp_32x16x32_pass_through_int8_0 shape: PDP 1x1 max returns SDP's output.
BOOST_AUTO_TEST_CASE(pass_through_32x16x32) {
  for (const char* config : {"small", "v1"}) {
    BOOST_TEST_CONTEXT("config " << config) {
      FusedProgram p(config, FusedProgram::Layer{});
      p.program();
      p.arm("SDP_RDMA");
      p.arm("SDP");
      p.arm("PDP");
      p.wait_and_check();
      require_pass(p.run());
    }
  }
}

// SDP armed first and left waiting: its output has nowhere to go until PDP is armed, so no
// interrupt may appear (SDP stays RUNNING); then PDP takes the stream.
BOOST_AUTO_TEST_CASE(pdp_armed_late) {
  for (const char* config : {"small", "v1"}) {
    BOOST_TEST_CONTEXT("config " << config) {
      FusedProgram::Layer l;
      l.w = 8, l.h = 6, l.c = 40, l.k = 2, l.s = 2;
      FusedProgram p(config, l);
      p.program();
      p.arm("SDP");
      p.arm("SDP_RDMA");
      p.idle(3000);
      p.read("GLB.S_INTR_STATUS", 0, "no interrupt while PDP is not armed");
      p.read("SDP.S_STATUS", 1, "SDP group 0 running, stalled by PDP");
      p.arm("PDP");
      p.wait_and_check();
      require_pass(p.run());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
