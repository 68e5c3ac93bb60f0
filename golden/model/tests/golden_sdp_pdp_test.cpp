// Golden SDP -> PDP on-flying channel (sdp.md §11.7, spec §1.12): SDP's output cube reaches
// PDP instead of memory, in any arming order; SDP waits for PDP; both done interrupts; PDP
// counts no input NaN/Inf; inconsistent cubes are warned; the planted stream-order bug shows.
#include <gtest/gtest.h>

#include <algorithm>

#include "dla/pdp_layer.h"
#include "dla/planted_bug.h"
#include "dla/regs.gen.h"
#include "golden_sdp_harness.h"

namespace dla {
namespace {

using test::SdpHarness;

constexpr uint64_t kSrc = 0x8000'1000, kSdpDst = 0x8010'0000, kPdpDst = 0x8020'0000;

// int8 pass-through SDP (W x H x C, packed) streaming into PDP k x k / stride k max pooling.
struct Fused {
  explicit Fused(const std::string& config, uint32_t width = 4, uint32_t height = 4, uint32_t channels = 8,
                 uint32_t kernel = 2)
      : t(config), w(width), h(height), c(channels), k(kernel) {
    const uint32_t a = t.cfg.atom_bytes;
    input.resize(size_t{surfaces()} * w * h * a);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 29 + (i >> 3));
    t.load(kSrc, input);
    t.basic_layer(w, h, c, 0, 0);
    t.src(kSrc, w * a, w * h * a);
    t.dst(kSdpDst, w * a, w * h * a);
    t.sdp("D_FEATURE_MODE_CFG", 2);  // OUTPUT_DST = PDP
    PdpLayer l;
    l.method = static_cast<uint32_t>(PoolMethod::Max);
    l.off_flying = false;
    l.width = w, l.height = h, l.channels = l.out_channels = c;
    l.kernel_w = l.kernel_h = l.stride_w = l.stride_h = k;
    l.out_width = w / k, l.out_height = h / k;
    l.dst = kPdpDst, l.dst_line = l.out_width * a, l.dst_surface = l.dst_line * l.out_height;
    l.src = 0x1234'5600;  // PDP's copies of the source registers are unused
    pdp = l;
    for (const auto& [off, v] : pdp_register_values(l)) t.m.csb_write(t.addr("PDP.D_OP_ENABLE") - reg::PDP::D_OP_ENABLE::offset + off, v);
  }
  uint32_t surfaces() const { return (c + t.cfg.atom_bytes - 1) / t.cfg.atom_bytes; }
  void arm(const std::string& unit) { t.m.csb_write(t.addr(unit + ".D_OP_ENABLE"), 1); }
  std::vector<uint8_t> expected() const {
    const uint32_t a = t.cfg.atom_bytes, ow = w / k, oh = h / k;
    std::vector<uint8_t> out(size_t{surfaces()} * ow * oh * a);
    for (uint32_t s = 0; s < surfaces(); ++s)
      for (uint32_t oy = 0; oy < oh; ++oy)
        for (uint32_t ox = 0; ox < ow; ++ox)
          for (uint32_t lane = 0; lane < a; ++lane) {
            int m = -128;
            for (uint32_t y = oy * k; y < oy * k + k; ++y)
              for (uint32_t x = ox * k; x < ox * k + k; ++x)
                m = std::max<int>(m, static_cast<int8_t>(input[((size_t{s} * h + y) * w + x) * a + lane]));
            out[((size_t{s} * oh + oy) * ow + ox) * a + lane] = static_cast<uint8_t>(m);
          }
    return out;
  }
  std::vector<uint8_t> pdp_output() const { return t.mem(kPdpDst, expected().size()); }

  SdpHarness t;
  uint32_t w, h, c, k;
  std::vector<uint8_t> input;
  PdpLayer pdp;
};

TEST(GoldenSdpPdp, EveryArmingOrderGivesPdpTheSdpCube) {
  std::vector<std::string> units = {"PDP", "SDP", "SDP_RDMA"};
  do {
    for (const char* config : {"small", "v1"}) {
      Fused f(config);
      const std::vector<uint8_t> sdp_region = f.t.mem(kSdpDst, 256);
      f.arm(units[0]);
      f.arm(units[1]);
      EXPECT_EQ(f.t.m.intr_status(), 0u) << "two of three armed: " << units[0] << ", " << units[1];
      f.arm(units[2]);
      EXPECT_EQ(f.t.m.intr_status(), 0x11u) << "SDP group 0 (bit 0) and PDP group 0 (bit 4)";
      EXPECT_EQ(f.pdp_output(), f.expected()) << config;
      EXPECT_EQ(f.t.mem(kSdpDst, 256), sdp_region) << "SDP writes nothing to memory";
      for (const char* c : {"PDP.D_NAN_INPUT_NUM", "PDP.D_INF_INPUT_NUM", "PDP.D_NAN_OUTPUT_NUM"})
        EXPECT_EQ(f.t.m.csb_read(f.t.addr(c)), 0u) << c;
      EXPECT_TRUE(f.t.m.warnings().empty()) << f.t.m.warnings().front();
    }
  } while (std::next_permutation(units.begin(), units.end()));
}

// STATUS_UNEQUAL is set by nonzero data reaching SDP's write side: the same nonzero cube sets
// it when written to memory and leaves it clear when streamed to PDP (as NVIDIA's RTL).
TEST(GoldenSdpPdp, DataStreamedToPdpNeverSetsStatusUnequal) {
  for (const char* config : {"small", "v1"}) {
    Fused f(config);
    ASSERT_NE(std::count(f.input.begin(), f.input.end(), 0), static_cast<std::ptrdiff_t>(f.input.size()));
    f.arm("PDP");
    f.arm("SDP_RDMA");
    f.arm("SDP");
    ASSERT_EQ(f.t.m.intr_status(), 0x11u);
    EXPECT_EQ(f.t.read_sdp("D_STATUS"), 0u) << config << ": streamed to PDP";
    Fused m(config);
    m.t.sdp("D_FEATURE_MODE_CFG", 0);  // the same layer, written to memory
    m.arm("SDP_RDMA");
    m.arm("SDP");
    ASSERT_EQ(m.t.m.intr_status() & 1u, 1u);
    EXPECT_EQ(m.t.read_sdp("D_STATUS"), 1u) << config << ": written to memory";
  }
}

TEST(GoldenSdpPdp, SdpWaitsForAnOnFlyingPdpGroup) {
  Fused f("small");
  f.t.m.csb_write(f.t.addr("PDP.D_OPERATION_MODE_CFG"),
                  f.t.m.csb_read(f.t.addr("PDP.D_OPERATION_MODE_CFG")) | (1u << 4));  // off-flying
  f.arm("SDP_RDMA");
  f.arm("SDP");
  f.arm("PDP");  // waits for PDP_RDMA; SDP's stream has no reader
  EXPECT_EQ(f.t.m.intr_status(), 0u);
  EXPECT_EQ(f.t.read_sdp("S_STATUS"), 1u) << "SDP group 0 stays running";
}

TEST(GoldenSdpPdp, ShortStreamHangsPdpWithAWarning) {
  Fused f("small", 4, 4, 8, 2);
  f.t.sdp("D_DATA_CUBE_HEIGHT", 1);  // SDP sends 2 lines, PDP reads 4
  f.t.rdma("D_DATA_CUBE_HEIGHT", 1);
  f.arm("PDP");
  f.arm("SDP_RDMA");
  f.arm("SDP");
  EXPECT_EQ(f.t.m.intr_status(), 0x1u) << "SDP done, PDP waits for the rest";
  ASSERT_FALSE(f.t.m.warnings().empty());
  EXPECT_NE(f.t.m.warnings().back().find("delivers only"), std::string::npos) << f.t.m.warnings().back();
}

TEST(GoldenSdpPdp, TwoLayersQueueThroughBothGroups) {
  Fused f("v1", 6, 4, 40, 2);
  f.arm("SDP_RDMA");
  f.arm("SDP");
  f.arm("PDP");
  ASSERT_EQ(f.t.m.intr_status(), 0x11u);
  // group 1: the same layer again, PDP output elsewhere
  f.t.sdp("S_POINTER", 1);
  f.t.rdma("S_POINTER", 1);
  f.t.m.csb_write(f.t.addr("PDP.S_POINTER"), 1);
  f.t.basic_layer(f.w, f.h, f.c, 0, 0);
  f.t.src(kSrc, f.w * 32, f.w * f.h * 32);
  f.t.sdp("D_FEATURE_MODE_CFG", 2);
  PdpLayer l = f.pdp;
  l.dst = kPdpDst + 0x10000;
  for (const auto& [off, v] : pdp_register_values(l))
    f.t.m.csb_write(f.t.addr("PDP.D_OP_ENABLE") - reg::PDP::D_OP_ENABLE::offset + off, v);
  f.arm("PDP");
  f.arm("SDP");
  f.arm("SDP_RDMA");
  EXPECT_EQ(f.t.m.intr_status(), 0x33u);
  EXPECT_EQ(f.t.mem(kPdpDst + 0x10000, f.expected().size()), f.expected());
}

TEST(GoldenSdpPdp, PlantedStreamOrderChangesTheOutput) {
  golden::PlantedBugScope plant({"sdp_pdp.stream_order"});
  Fused f("small", 4, 2, 8, 1);  // 1x1 pooling: the output is the stream itself
  f.arm("PDP");
  f.arm("SDP_RDMA");
  f.arm("SDP");
  EXPECT_NE(f.pdp_output(), f.expected());
}

}  // namespace
}  // namespace dla
