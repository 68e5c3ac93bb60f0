// The golden RUBIK (pdp_cdp_bdma_rubik_glb.md §4): contract, split and merge on small cubes
// whose output bytes are written out by hand, pad lanes and zero tails, element sizes, the
// ping-pong groups and done interrupts, and the refusal of illegal programming.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dla/golden_model.h"
#include "dla/regs.gen.h"
#include "dla/rubik_layer.h"

namespace dla {
namespace {

namespace R = reg::RBK;
using Bytes = std::vector<uint8_t>;

constexpr uint8_t kJunk = 0xEE;  // preloaded around outputs: bytes RUBIK must not touch

struct RubikFixture : ::testing::Test {
  const HwConfig& cfg = HwConfig::get("v1");
  GoldenModel m{cfg};
  uint32_t rbk = *cfg.unit_base[static_cast<unsigned>(Unit::RBK)];
  uint32_t glb_status = *cfg.unit_base[static_cast<unsigned>(Unit::GLB)] + reg::GLB::S_INTR_STATUS::offset;

  SparseMemory& dbb() { return m.memory(MemPort::Dbb); }
  void program(const RubikLayer& l, unsigned group = 0) {
    m.csb_write(rbk + R::S_POINTER::offset, group);
    for (const auto& [off, v] : rubik_register_values(l)) m.csb_write(rbk + off, v);
    m.csb_write(rbk + R::D_OP_ENABLE::offset, 1);
  }
  void junk(uint64_t addr, size_t n) { dbb().load(addr, Bytes(n, kJunk)); }
  Bytes read(uint64_t addr, size_t n) { return dbb().read(addr, n); }
  bool warned(const std::string& text) const {
    return std::any_of(m.warnings().begin(), m.warnings().end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
  }
};

RubikLayer dbb_layer(RubikMode mode, Precision p) {
  RubikLayer l;
  l.mode = static_cast<uint32_t>(mode);
  l.precision = static_cast<uint32_t>(p);
  l.in_port = l.out_port = MemPort::Dbb;
  return l;
}

// An atom whose 32 bytes are `tag`, tag+1, ..., so every byte says where it came from.
Bytes atom(uint8_t tag) {
  Bytes a(32);
  for (unsigned i = 0; i < 32; ++i) a[i] = static_cast<uint8_t>(tag + i);
  return a;
}
Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// ------------------------------------------------------------------ contract

// A 2x2 int8 cube of 3 channels (So = 1: lanes 3..31 are pad lanes) deconvolved with sx = 2,
// sy = 1: input surfaces 0 and 1 are the x-phases. Output row h is
// [phase0(w0), phase1(w0), phase0(w1), phase1(w1)], whole atoms, pad lanes included.
TEST_F(RubikFixture, ContractPlacesEachPhaseAtomBesideItsPixel) {
  RubikLayer l = dbb_layer(RubikMode::Contract, Precision::Int8);
  l.width = 2, l.height = 2, l.out_channels = 3, l.stride_x = 2, l.stride_y = 1;
  l.in = 0x10000, l.in_line = 64, l.in_surface = 128, l.contract0 = 128;  // K0 = So x SI
  l.out = 0x20000, l.out_line = 160, l.contract1 = 160, l.out_surface = 1024;
  // Input: surface g (phase), row h, column w holds atom tag 0x10*(g*4 + h*2 + w).
  for (uint8_t g = 0; g < 2; ++g)
    for (uint8_t h = 0; h < 2; ++h)
      for (uint8_t w = 0; w < 2; ++w) dbb().load(l.in + g * 128 + h * 64 + w * 32, atom(0x10 * (g * 4 + h * 2 + w)));
  junk(l.out, 2 * 160);
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  EXPECT_EQ(read(l.out, 128), cat({atom(0x00), atom(0x40), atom(0x10), atom(0x50)}));        // row 0
  EXPECT_EQ(read(l.out + 160, 128), cat({atom(0x20), atom(0x60), atom(0x30), atom(0x70)}));  // row 1
  EXPECT_EQ(read(l.out + 128, 32), Bytes(32, kJunk)) << "the line-stride gap is not written";
}

// sy = 2, sx = 1, CONTRACT_STRIDE_1 larger than sy x LO: input row h lands at h*K1 + ty*LO.
TEST_F(RubikFixture, ContractRowsFollowContractStride1) {
  RubikLayer l = dbb_layer(RubikMode::Contract, Precision::Fp16);
  l.width = 1, l.height = 2, l.out_channels = 16, l.stride_x = 1, l.stride_y = 2;
  l.in = 0x1'4000'0000ull, l.in_line = 32, l.in_surface = 64, l.contract0 = 64;  // above 4 GiB
  l.out = 0x30000, l.out_line = 32, l.contract1 = 96, l.out_surface = 4096;
  for (uint8_t g = 0; g < 2; ++g)
    for (uint8_t h = 0; h < 2; ++h) dbb().load(l.in + g * 64 + h * 32, atom(0x20 * (g * 2 + h) + 1));
  junk(l.out, 192);
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  EXPECT_EQ(read(l.out, 64), cat({atom(0x01), atom(0x41)}));       // input row 0: phases ty 0, 1
  EXPECT_EQ(read(l.out + 64, 32), Bytes(32, kJunk));                // K1 gap
  EXPECT_EQ(read(l.out + 96, 64), cat({atom(0x21), atom(0x61)}));  // input row 1 at K1
}

// Two output surfaces (Co = 33 int8): phase g's surfaces are g*So .. g*So+1 of the input.
TEST_F(RubikFixture, ContractWithTwoOutputSurfaces) {
  RubikLayer l = dbb_layer(RubikMode::Contract, Precision::Int8);
  l.width = 1, l.height = 1, l.out_channels = 33, l.stride_x = 2, l.stride_y = 1;
  l.in = 0x40000, l.in_line = 32, l.in_surface = 32, l.contract0 = 64;
  l.out = 0x50000, l.out_line = 64, l.contract1 = 64, l.out_surface = 64;
  for (uint8_t k = 0; k < 4; ++k) dbb().load(l.in + k * 32, atom(0x40 * k));  // input surface k
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  // Output surface 0 = [phase 0 surface 0, phase 1 surface 0] = input surfaces 0, 2.
  EXPECT_EQ(read(l.out, 128), cat({atom(0x00), atom(0x80), atom(0x40), atom(0xC0)}));
}

// ------------------------------------------------------------------ split

// A 2x2 int8 cube of 3 channels: element (w, h, c) = 0x10*c + 2*h + w + 1 in lane c of atom
// (w, h); lanes 3..31 hold 0x99. Each plane row is 2 bytes of data then 30 zero bytes (the
// tail of the written atom, open point 10: zero-filled); nothing else is written.
TEST_F(RubikFixture, SplitWritesOnePlanePerChannelWithZeroTails) {
  RubikLayer l = dbb_layer(RubikMode::Split, Precision::Int8);
  l.width = 2, l.height = 2, l.channels = 3, l.out_channels = 3;
  l.in = 0x10000, l.in_line = 64, l.in_surface = 128;
  l.out = 0x20000, l.out_line = 64, l.out_planar = 256;
  for (uint8_t h = 0; h < 2; ++h)
    for (uint8_t w = 0; w < 2; ++w) {
      Bytes a(32, 0x99);
      for (uint8_t c = 0; c < 3; ++c) a[c] = static_cast<uint8_t>(0x10 * c + 2 * h + w + 1);
      dbb().load(l.in + h * 64 + w * 32, a);
    }
  junk(l.out, 4 * 256);
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  auto row = [](uint8_t a, uint8_t b) {
    Bytes r(32, 0);
    r[0] = a, r[1] = b;
    return r;
  };
  EXPECT_EQ(read(l.out + 0 * 256, 32), row(0x01, 0x02));
  EXPECT_EQ(read(l.out + 0 * 256 + 64, 32), row(0x03, 0x04));
  EXPECT_EQ(read(l.out + 1 * 256, 32), row(0x11, 0x12));
  EXPECT_EQ(read(l.out + 1 * 256 + 64, 32), row(0x13, 0x14));
  EXPECT_EQ(read(l.out + 2 * 256, 32), row(0x21, 0x22));
  EXPECT_EQ(read(l.out + 2 * 256 + 64, 32), row(0x23, 0x24));
  EXPECT_EQ(read(l.out + 32, 32), Bytes(32, kJunk)) << "beyond the row's atom";
  EXPECT_EQ(read(l.out + 3 * 256, 256), Bytes(256, kJunk)) << "no plane for the pad lanes";
}

// fp16 (bpe 2, E 16): channel 16 is lane 0 of surface 1; elements move as little-endian pairs.
// A 20-element row is 40 bytes, written as two atoms: bytes 40..63 zero.
TEST_F(RubikFixture, SplitFp16MovesTwoByteElements) {
  RubikLayer l = dbb_layer(RubikMode::Split, Precision::Fp16);
  l.width = 20, l.height = 1, l.channels = 17, l.out_channels = 17;
  l.in = 0x10000, l.in_line = 20 * 32, l.in_surface = 20 * 32;
  l.out = 0x40000, l.out_line = 64, l.out_planar = 64;
  for (uint32_t s = 0; s < 2; ++s)
    for (uint32_t w = 0; w < 20; ++w) {
      Bytes a(32, 0x55);
      for (uint32_t lane = 0; lane < 16; ++lane) {  // fp16 value 0x3c00 + 32*c + w
        const uint32_t c = s * 16 + lane, v = 0x3c00 + 32 * c + w;
        a[lane * 2] = static_cast<uint8_t>(v), a[lane * 2 + 1] = static_cast<uint8_t>(v >> 8);
      }
      dbb().load(l.in + s * l.in_surface + w * 32, a);
    }
  junk(l.out, 18 * 64);
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  const Bytes plane16 = read(l.out + 16 * 64, 64);
  EXPECT_EQ(plane16[0], 0x00);  // 0x3c00 + 512 = 0x3e00
  EXPECT_EQ(plane16[1], 0x3e);
  EXPECT_EQ(plane16[38], 0x13);  // w = 19: 0x3e13
  EXPECT_EQ(plane16[39], 0x3e);
  EXPECT_EQ(Bytes(plane16.begin() + 40, plane16.end()), Bytes(24, 0));
  const Bytes plane1 = read(l.out + 64, 4);  // c = 1: 0x3c20, 0x3c21
  EXPECT_EQ(plane1, (Bytes{0x20, 0x3c, 0x21, 0x3c}));
  EXPECT_EQ(read(l.out + 17 * 64, 64), Bytes(64, kJunk)) << "Co = 17 planes only";
}

// DATAOUT_CHANNEL below DATAIN_CHANNEL: only the first Co planes are written.
TEST_F(RubikFixture, SplitWritesOnlyDataoutChannelPlanes) {
  RubikLayer l = dbb_layer(RubikMode::Split, Precision::Int16);
  l.width = 1, l.height = 1, l.channels = 5, l.out_channels = 2;
  l.in = 0x10000, l.in_line = 32, l.in_surface = 32;
  l.out = 0x20000, l.out_line = 32, l.out_planar = 32;
  dbb().load(l.in, atom(0));
  junk(l.out, 5 * 32);
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  Bytes p0(32, 0), p1(32, 0);
  p0[0] = 0, p0[1] = 1, p1[0] = 2, p1[1] = 3;
  EXPECT_EQ(read(l.out, 32), p0);
  EXPECT_EQ(read(l.out + 32, 32), p1);
  EXPECT_EQ(read(l.out + 64, 96), Bytes(96, kJunk));
}

// ------------------------------------------------------------------ merge

// The planes of the split test back into a cube: lane c < 3 gets plane c's element, lanes
// 3..31 (pad lanes) are written as zero; the plane bytes past the row end are ignored.
TEST_F(RubikFixture, MergeGathersPlanesAndZeroesPadLanes) {
  RubikLayer l = dbb_layer(RubikMode::Merge, Precision::Int8);
  l.width = 2, l.height = 2, l.channels = 3, l.out_channels = 7;  // DATAOUT_CHANNEL unused in merge
  l.in = 0x10000, l.in_line = 64, l.in_planar = 256;
  l.out = 0x20000, l.out_line = 96, l.out_surface = 512;
  for (uint8_t c = 0; c < 3; ++c)
    for (uint8_t h = 0; h < 2; ++h) {
      Bytes r(32, 0x77);  // junk past the row end
      r[0] = static_cast<uint8_t>(0x10 * c + 2 * h + 1), r[1] = static_cast<uint8_t>(0x10 * c + 2 * h + 2);
      dbb().load(l.in + c * 256 + h * 64, r);
    }
  junk(l.out, 2 * 96);
  program(l);
  ASSERT_TRUE(m.warnings().empty()) << m.warnings()[0];
  auto cube_atom = [](uint8_t c0, uint8_t c1, uint8_t c2) {
    Bytes a(32, 0);
    a[0] = c0, a[1] = c1, a[2] = c2;
    return a;
  };
  EXPECT_EQ(read(l.out, 64), cat({cube_atom(0x01, 0x11, 0x21), cube_atom(0x02, 0x12, 0x22)}));
  EXPECT_EQ(read(l.out + 96, 64), cat({cube_atom(0x03, 0x13, 0x23), cube_atom(0x04, 0x14, 0x24)}));
  EXPECT_EQ(read(l.out + 64, 32), Bytes(32, kJunk));
}

// Split then merge returns the original cube (pad lanes zero in it: merge writes zero there),
// for every element size, with a width crossing the 64-element chunk and channels that leave
// pad lanes, on both memory ports.
TEST_F(RubikFixture, SplitThenMergeIsTheIdentity) {
  for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
    SCOPED_TRACE(precision_name(p));
    GoldenModel g(cfg);
    const unsigned bpe = p == Precision::Int8 ? 1 : 2, lanes = 32 / bpe;
    const uint32_t W = 70, H = 3, C = lanes + lanes / 2 + 3;
    RubikLayer s = dbb_layer(RubikMode::Split, p);
    s.width = W, s.height = H, s.channels = C, s.out_channels = C;
    s.in = 0x100000, s.in_line = W * 32 + 64, s.in_surface = H * s.in_line;
    s.out_port = MemPort::Sram;
    s.out = 0x8000, s.out_line = s.plane_row_bytes() + 32, s.out_planar = H * s.out_line;
    Bytes cube(static_cast<size_t>(2 * s.in_surface));
    for (uint32_t sf = 0; sf < 2; ++sf)
      for (uint32_t h = 0; h < H; ++h)
        for (uint32_t w = 0; w < W; ++w)
          for (uint32_t b = 0; b < 32; ++b) {
            const bool pad = sf * lanes + b / bpe >= C;
            cube[sf * s.in_surface + h * s.in_line + w * 32 + b] = pad ? 0 : static_cast<uint8_t>(7 * (sf + h + w) + b + 1);
          }
    g.memory(MemPort::Dbb).load(s.in, cube);
    RubikLayer mg = s;
    mg.mode = static_cast<uint32_t>(RubikMode::Merge);
    mg.in_port = MemPort::Sram, mg.in = s.out, mg.in_line = s.out_line, mg.in_planar = s.out_planar;
    mg.out_port = MemPort::Dbb, mg.out = 0x400000, mg.out_line = s.in_line, mg.out_surface = s.in_surface;
    for (const auto* l : {&s, &mg}) {
      g.csb_write(rbk + R::S_POINTER::offset, l == &s ? 0 : 1);
      for (const auto& [off, v] : rubik_register_values(*l)) g.csb_write(rbk + off, v);
      g.csb_write(rbk + R::D_OP_ENABLE::offset, 1);
    }
    ASSERT_TRUE(g.warnings().empty()) << g.warnings()[0];
    ASSERT_EQ(g.layers().size(), 2u);
    for (uint32_t sf = 0; sf < 2; ++sf)
      for (uint32_t h = 0; h < H; ++h) {
        const uint64_t off = sf * s.in_surface + h * s.in_line;
        EXPECT_EQ(g.memory(MemPort::Dbb).read(mg.out + off, W * 32), Bytes(cube.begin() + off, cube.begin() + off + W * 32))
            << "surface " << sf << " row " << h;
      }
  }
}

// ------------------------------------------------------------------ groups and interrupts

TEST_F(RubikFixture, BothGroupsRunInTurnAndRaiseTheirDoneBits) {
  RubikLayer l = dbb_layer(RubikMode::Merge, Precision::Int8);
  l.in = 0x10000, l.in_line = 32, l.in_planar = 32, l.out = 0x20000, l.out_line = 32, l.out_surface = 32;
  l.perf_enable = true;
  program(l, 0);
  EXPECT_EQ(m.csb_read(glb_status), 1u << 8);
  EXPECT_EQ(m.csb_read(rbk + R::S_POINTER::offset), 0x00010000u) << "CONSUMER flipped to group 1";
  EXPECT_EQ(m.csb_read(rbk + R::D_OP_ENABLE::offset), 0u);
  EXPECT_EQ(m.csb_read(rbk + R::D_PERF_READ_STALL::offset), 0u);
  m.csb_write(glb_status, 1u << 8);
  l.out = 0x30000;
  program(l, 1);
  EXPECT_EQ(m.csb_read(glb_status), 1u << 9);
  EXPECT_EQ(m.csb_read(rbk + R::S_POINTER::offset), 0x00000001u) << "PRODUCER 1, CONSUMER back to 0";
  EXPECT_EQ(m.csb_read(rbk + R::S_STATUS::offset), 0u);
  ASSERT_EQ(m.layers().size(), 2u);
  EXPECT_EQ(m.layers()[1].group, 1);
  EXPECT_TRUE(m.layers()[1].completed);
  EXPECT_EQ(read(0x30000, 32)[0], read(0x10000, 1)[0]);
}

// ------------------------------------------------------------------ refused programming

struct Refusal {
  const char* name;
  void (*edit)(RubikLayer&);
  const char* field;  // the register/field the warning must name
};

RubikLayer legal_contract() {
  RubikLayer l = dbb_layer(RubikMode::Contract, Precision::Int8);
  l.width = 2, l.height = 2, l.out_channels = 40, l.stride_x = 2, l.stride_y = 2;
  l.in = 0x10000, l.in_line = 64, l.in_surface = 128, l.contract0 = 256;
  l.out = 0x80000, l.out_line = 128, l.contract1 = 256, l.out_surface = 512;
  return l;
}

TEST_F(RubikFixture, TheLegalBaseOfTheRefusalsRuns) {
  program(legal_contract());
  EXPECT_TRUE(m.warnings().empty()) << m.warnings()[0];
  EXPECT_EQ(m.csb_read(glb_status), 1u << 8);
}

TEST(RubikRefusal, EachBrokenRuleNamesItsFieldAndTheGroupNeverCompletes) {
  const std::vector<Refusal> cases = {
      {"reserved mode", [](RubikLayer& l) { l.mode = 3; }, "D_MISC_CFG.RUBIK_MODE = 3 is reserved"},
      {"reserved precision", [](RubikLayer& l) { l.precision = 3; }, "D_MISC_CFG.IN_PRECISION = 3 is reserved"},
      // Open point 10: only K0 = ceil(Co/E) x SI is accepted.
      {"contract stride 0", [](RubikLayer& l) { l.contract0 += 32; }, "D_CONTRACT_STRIDE_0 = 288 must equal"},
      {"contract stride 1", [](RubikLayer& l) { l.contract1 = 160; }, "D_CONTRACT_STRIDE_1 = 160 is below"},
      {"contract line", [](RubikLayer& l) { l.out_line = 96; }, "D_DAOUT_LINE_STRIDE = 96 is below"},
      {"contract surface", [](RubikLayer& l) { l.out_surface = 480; }, "D_DAOUT_SURF_STRIDE = 480 is below"},
      {"split channels",
       [](RubikLayer& l) {
         l.mode = 1, l.channels = 4, l.out_channels = 5, l.out_line = 32, l.out_planar = 64;
       },
       "DATAOUT_CHANNEL + 1 = 5 exceeds"},
      {"split row",
       [](RubikLayer& l) { l.mode = 1, l.precision = 1, l.width = 17, l.channels = l.out_channels = 2, l.out_line = 32, l.out_planar = 4096; },
       "D_DAOUT_LINE_STRIDE = 32 is below one plane row"},
      {"merge plane overlap",
       [](RubikLayer& l) { l.mode = 2, l.channels = 33, l.in_planar = 64, l.out_line = 64, l.out_surface = 64; },
       "D_DAOUT_SURF_STRIDE = 64 is below"},
      {"in/out overlap", [](RubikLayer& l) { l.out = l.in + 64; }, "overlaps the input range"},
  };
  const HwConfig& cfg = HwConfig::get("v1");
  const uint32_t rbk = *cfg.unit_base[static_cast<unsigned>(Unit::RBK)];
  const uint32_t glb_status = *cfg.unit_base[static_cast<unsigned>(Unit::GLB)] + reg::GLB::S_INTR_STATUS::offset;
  for (const Refusal& c : cases) {
    SCOPED_TRACE(c.name);
    RubikLayer l = legal_contract();
    c.edit(l);
    EXPECT_FALSE(rubik_layer_violations(l, cfg).empty());
    GoldenModel m(cfg);
    m.memory(MemPort::Dbb).load(0x80000, Bytes(64, kJunk));
    for (const auto& [off, v] : rubik_register_values(l)) m.csb_write(rbk + off, v);
    m.csb_write(rbk + R::D_OP_ENABLE::offset, 1);
    ASSERT_FALSE(m.warnings().empty());
    EXPECT_NE(m.warnings()[0].find(c.field), std::string::npos) << m.warnings()[0];
    EXPECT_NE(m.warnings()[0].find("RUBIK group 0"), std::string::npos) << m.warnings()[0];
    EXPECT_EQ(m.csb_read(rbk + R::S_STATUS::offset), 1u) << "group 0 stays RUNNING";
    EXPECT_EQ(m.csb_read(glb_status), 0u) << "no done interrupt";
    ASSERT_EQ(m.layers().size(), 1u);
    EXPECT_FALSE(m.layers()[0].completed);
    EXPECT_EQ(m.memory(MemPort::Dbb).read(0x80000, 64), Bytes(64, kJunk)) << "nothing written";
  }
}

// With one phase (sx = sy = 1) CONTRACT_STRIDE_0 is not used: any value is accepted.
TEST(RubikRefusal, ContractStride0IsFreeWithOnePhase) {
  const HwConfig& cfg = HwConfig::get("v1");
  RubikLayer l = legal_contract();
  l.stride_x = l.stride_y = 1, l.contract0 = 0, l.contract1 = 128, l.out_surface = 256, l.out_line = 64;
  EXPECT_TRUE(rubik_layer_violations(l, cfg).empty());
  l.stride_x = 2;
  EXPECT_FALSE(rubik_layer_violations(l, cfg).empty());
}

// ------------------------------------------------------------------ registers

TEST(RubikLayerEncoding, RegisterValuesDecodeToTheSameLayer) {
  RubikLayer l;
  l.mode = 2, l.precision = 0, l.width = 8192, l.height = 3, l.channels = 77, l.out_channels = 5;
  l.stride_x = 32, l.stride_y = 7, l.in_port = MemPort::Dbb, l.out_port = MemPort::Sram;
  l.in = 0x12'3456'7820ull, l.in_line = 0x40, l.in_surface = 0x1000, l.in_planar = 0x2000;
  l.out = 0xff'0000'0040ull, l.out_line = 0x60, l.out_surface = 0x3000, l.out_planar = 0x4000;
  l.contract0 = 0x5000, l.contract1 = 0x6000, l.perf_enable = true;
  RegisterSnapshot s;
  s.unit = Unit::RBK;
  s.values = rubik_register_values(l);
  const RubikLayer d = decode_rubik_registers(s);
  EXPECT_EQ(d.mode, 2u);
  EXPECT_EQ(d.precision, 0u);
  EXPECT_EQ(d.width, 8192u);
  EXPECT_EQ(d.height, 3u);
  EXPECT_EQ(d.channels, 77u);
  EXPECT_EQ(d.out_channels, 5u);
  EXPECT_EQ(d.stride_x, 32u);
  EXPECT_EQ(d.stride_y, 7u);
  EXPECT_EQ(d.in_port, MemPort::Dbb);
  EXPECT_EQ(d.out_port, MemPort::Sram);
  EXPECT_EQ(d.in, l.in);
  EXPECT_EQ(d.out, l.out);
  EXPECT_EQ(d.in_planar, 0x2000u);
  EXPECT_EQ(d.out_planar, 0x4000u);
  EXPECT_EQ(d.contract1, 0x6000u);
  EXPECT_TRUE(d.perf_enable);
  EXPECT_EQ(s.get(R::D_DECONV_STRIDE::offset), 0x0006001fu);  // sx-1 in [4:0], sy-1 in [20:16]
  EXPECT_EQ(s.get(R::D_MISC_CFG::offset), 0x00000002u);
}

TEST(RubikModel, OnlyConfigurationsWithRubikHaveTheDatapath) {
  EXPECT_TRUE(GoldenModel(HwConfig::get("v1")).has_datapath(Unit::RBK));
  EXPECT_FALSE(GoldenModel(HwConfig::get("small")).has_datapath(Unit::RBK));
}

}  // namespace
}  // namespace dla
