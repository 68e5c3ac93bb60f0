// Golden convolution pipeline (docs/conv.md): the worked examples reproduced bit for bit,
// random layers against an independent reference convolution, the CBUF rules, release and
// reuse across layers, and the counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <random>

#include "../src/conv_engine.h"
#include "dla/conv_layer.h"
#include "dla/formats/pixel_format.h"
#include "dla/formats/weight_format.h"
#include "dla/numerics/integer_ops.h"
#include "dla/planted_bug.h"
#include "golden_sdp_harness.h"

namespace dla {
namespace {

using golden::ConvCbuf;
using golden::ConvInputKind;
using golden::ConvLayer;
using golden::ConvRun;

constexpr uint64_t kData = 0x8000'0000, kWeights = 0x8100'0000, kOut = 0x8200'0000;

// A plain description of one direct-convolution test layer (values, not registers).
struct DcCase {
  uint32_t w = 4, h = 4, c = 8, r = 3, s = 3, k = 8;
  unsigned sx = 1, sy = 1, dx = 1, dy = 1, pl = 1, pt = 1;
  uint32_t out_w = 4, out_h = 4;
  uint16_t pad = 0;
  unsigned clip = 0;
  Precision p = Precision::Int8;
  unsigned batches = 1;
  std::vector<int32_t> data;     // ((b * H + y) * W + x) * C + c
  std::vector<int32_t> weights;  // ((k * R + r) * S + s) * C + c
};

unsigned es_of(Precision p) { return p == Precision::Int8 ? 1 : 2; }

// Memory image of the feature cube: the address rule of the feature format, written out
// here independently of the model's reader.
void store_cube(SparseMemory& mem, const HwConfig& cfg, const DcCase& t, uint64_t line, uint64_t surf, uint64_t batch) {
  const unsigned es = es_of(t.p), per_atom = cfg.atom_bytes / es;
  for (uint32_t b = 0; b < t.batches; ++b)
    for (uint32_t y = 0; y < t.h; ++y)
      for (uint32_t x = 0; x < t.w; ++x)
        for (uint32_t c = 0; c < t.c; ++c) {
          const uint64_t a = kData + b * batch + (c / per_atom) * surf + y * line + uint64_t{x} * cfg.atom_bytes + (c % per_atom) * es;
          const int32_t v = t.data[((size_t{b} * t.h + y) * t.w + x) * t.c + c];
          const uint8_t bytes[2] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)};
          mem.write(a, bytes, es);
        }
}

formats::KernelSet kernel_set(const DcCase& t) {
  formats::KernelSet ks(t.k, t.r, t.s, t.c, es_of(t.p));
  for (size_t i = 0; i < ks.values.size(); ++i) ks.values[i] = static_cast<uint16_t>(t.weights[i]);
  return ks;
}

// The layer registers would describe, filled consistently.
ConvLayer dc_layer(const HwConfig& cfg, const DcCase& t) {
  ConvLayer l;
  l.kind = ConvInputKind::Feature;
  l.in = l.proc = t.p;
  l.in_code = l.proc_code = static_cast<unsigned>(t.p);
  l.width = l.csc_width = t.w;
  l.height = l.csc_height = t.h;
  l.channels = l.csc_channels = l.kernel_channels = t.c;
  l.width_ext = t.w;
  l.height_ext = t.h;
  l.batches = t.batches;
  const unsigned es = es_of(t.p), per_atom = cfg.atom_bytes / es;
  l.line_stride = uint64_t{t.w} * cfg.atom_bytes;
  l.line_packed = true;
  l.surf_stride = l.line_stride * t.h;
  l.surf_packed = true;
  l.batch_stride = l.surf_stride * ((t.c + per_atom - 1) / per_atom);
  l.data_addr0 = kData;
  l.kernel_width = t.s;
  l.kernel_height = t.r;
  l.kernels = l.cdma_kernels = l.out_channels = t.k;
  l.bytes_per_kernel = uint64_t{t.r} * t.s * t.c * es;
  l.weight_addr = kWeights;
  l.weight_bytes = formats::round_up_128(uint64_t{t.k} * l.bytes_per_kernel);
  l.out_width = t.out_w;
  l.out_height = t.out_h;
  l.atomics = t.out_w * t.out_h;
  l.stride_x = t.sx;
  l.stride_y = t.sy;
  l.dilation_x = t.dx;
  l.dilation_y = t.dy;
  l.pad_left = t.pl;
  l.pad_top = t.pt;
  l.pad_value = t.pad;
  l.clip_truncate = t.clip;
  l.data_bank = cfg.conv_cbuf_banks / 2 - 1;
  l.weight_bank = cfg.conv_cbuf_banks / 2 - 1;
  l.release_slices = t.h * t.batches;
  l.entries = golden::conv_expected_entries(l, cfg);
  return l;
}

void store_case(SparseMemory& mem, const HwConfig& cfg, const DcCase& t, const ConvLayer& l) {
  store_cube(mem, cfg, t, l.line_stride, l.surf_stride, l.batch_stride);
  const unsigned ak = cfg.conv_kernels_per_group(t.p);
  std::vector<uint8_t> img = formats::dc_weight_image(kernel_set(t), {ak, cfg.conv_mac_atomic_c});
  img.resize(l.weight_bytes, 0);
  mem.load(kWeights, img);
}

// Reference: out[k][y][x] = sum over r, s, c of W * D' (padding = PAD_VALUE), exact, then
// rha by CLIP_TRUNCATE and the 32-bit clip. Valid while partial sums stay below 2^33.
int64_t reference(const DcCase& t, uint32_t b, uint32_t k, uint32_t x, uint32_t y) {
  const int64_t pad = t.p == Precision::Int8 ? num::sx(t.pad, 8) : num::sx(t.pad, 16);
  int64_t sum = 0;
  for (uint32_t r = 0; r < t.r; ++r)
    for (uint32_t s = 0; s < t.s; ++s) {
      const int64_t ix = int64_t{x} * t.sx + int64_t{s} * t.dx - t.pl, iy = int64_t{y} * t.sy + int64_t{r} * t.dy - t.pt;
      const bool inside = ix >= 0 && iy >= 0 && ix < t.w && iy < t.h;
      for (uint32_t c = 0; c < t.c; ++c) {
        const int64_t d = inside ? t.data[((size_t{b} * t.h + iy) * t.w + ix) * t.c + c] : pad;
        sum += d * t.weights[((size_t{k} * t.r + r) * t.s + s) * t.c + c];
      }
    }
  return num::sat(num::rha(sum, t.clip), 32);
}

std::optional<ConvRun> run(const HwConfig& cfg, const ConvLayer& l, SparseMemory& mem, ConvCbuf& cbuf,
                           std::vector<std::string>* warnings = nullptr) {
  const golden::ConvMemories m{mem, mem};
  return golden::run_conv_layer(l, cfg, cbuf, m, [&](const std::string& w) {
    if (warnings) warnings->push_back(w);
  });
}

DcCase random_case(std::mt19937& rng, const HwConfig& cfg, Precision p) {
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  DcCase t;
  t.p = p;
  t.w = pick(1, 9);
  t.h = pick(1, 7);
  t.c = pick(1, 3 * cfg.conv_mac_atomic_c / 2 + 3);
  t.r = pick(1, 4);
  t.s = pick(1, 4);
  t.k = pick(1, 2 * cfg.conv_kernels_per_group(p) + 3);
  t.sx = pick(1, 3);
  t.sy = pick(1, 3);
  t.dx = pick(1, 3);
  t.dy = pick(1, 2);
  t.pl = pick(0, 3);
  t.pt = pick(0, 3);
  t.out_w = pick(1, 6);
  t.out_h = pick(1, 5);
  t.batches = cfg.conv_batching ? pick(1, 3) : 1;
  const int lim = p == Precision::Int8 ? 127 : 2000;
  t.pad = static_cast<uint16_t>(pick(0, 0xffff));
  t.clip = pick(0, 8);
  std::uniform_int_distribution<int32_t> v(-lim - 1, lim);
  t.data.resize(size_t{t.w} * t.h * t.c * t.batches);
  t.weights.resize(size_t{t.k} * t.r * t.s * t.c);
  for (auto& x : t.data) x = v(rng);
  for (auto& x : t.weights) x = v(rng);
  return t;
}

void expect_matches_reference(const HwConfig& cfg, const DcCase& t, const ConvRun& run, const std::string& what) {
  const unsigned ak = cfg.conv_kernels_per_group(t.p);
  for (uint32_t b = 0; b < t.batches; ++b)
    for (uint32_t k = 0; k < run.output.groups() * ak; ++k)
      for (uint32_t y = 0; y < t.out_h; ++y)
        for (uint32_t x = 0; x < t.out_w; ++x) {
          const int64_t want = k < t.k ? reference(t, b, k, x, y) : 0;
          const int32_t have = static_cast<int32_t>(run.output.atom(k / ak, y, x, b)[k % ak]);
          ASSERT_EQ(have, want) << what << ": kernel " << k << " at (" << x << ", " << y << ") batch " << b;
        }
}

TEST(GoldenConv, RandomDirectLayersMatchAReferenceConvolution) {
  std::mt19937 rng(11);
  for (const char* config : {"small", "v1"})
    for (Precision p : {Precision::Int8, Precision::Int16}) {
      const HwConfig& cfg = HwConfig::get(config);
      if (!cfg.supports(p)) continue;
      for (int i = 0; i < 25; ++i) {
        const DcCase t = random_case(rng, cfg, p);
        SparseMemory mem(3);
        const ConvLayer l = dc_layer(cfg, t);
        store_case(mem, cfg, t, l);
        ConvCbuf cbuf;
        std::vector<std::string> warnings;
        const auto r = run(cfg, l, mem, cbuf, &warnings);
        ASSERT_TRUE(r) << config << " layer " << i << ": " << (warnings.empty() ? "" : warnings.front());
        expect_matches_reference(cfg, t, *r, std::string(config) + " " + precision_name(p) + " layer " + std::to_string(i));
      }
    }
}

// conv.md §10.1 through the whole model: registers as the example writes them, SDP in
// pass-through flying mode; CACC delivers [-1, 4], [2, 1], [4, -5] and SDP writes them.
void program_worked_example(test::SdpHarness& t) {
  t.load(kData, {0x01, 0xfe, 0x03, 0, 0, 0, 0, 0, 0x04, 0x00, 0xff, 0, 0, 0, 0, 0, 0x02, 0x02, 0x02, 0, 0, 0, 0, 0,
                 0xfd, 0x01, 0x00, 0, 0, 0, 0, 0, 0x05, 0xfc, 0x02, 0, 0, 0, 0, 0, 0x00, 0x01, 0xfe, 0, 0, 0, 0, 0});
  std::vector<uint8_t> wt = {0x01, 0x00, 0xff, 0xfe, 0x01, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x01,
                             0x00, 0xff, 0x01, 0x01, 0x02, 0xff, 0x01, 0x01, 0x01, 0xff, 0x00, 0x02};
  wt.resize(128, 0);
  t.load(kWeights, wt);
  auto w = [&](const std::string& reg, uint32_t v) { t.m.csb_write(t.addr(reg), v); };
  w("CDMA.D_MISC_CFG", 0);
  w("CDMA.D_DATAIN_FORMAT", 0);
  w("CDMA.D_DATAIN_SIZE_0", 0x00010002);
  w("CDMA.D_DATAIN_SIZE_1", 2);
  w("CDMA.D_DATAIN_SIZE_EXT_0", 0x00010002);
  w("CDMA.D_LINE_STRIDE", 24);
  w("CDMA.D_SURF_STRIDE", 48);
  w("CDMA.D_DAIN_MAP", 0x00010001);
  w("CDMA.D_ENTRY_PER_SLICE", 2);
  w("CDMA.D_WEIGHT_SIZE_0", 11);
  w("CDMA.D_WEIGHT_SIZE_1", 1);
  w("CDMA.D_WEIGHT_BYTES", 128);
  w("CDMA.D_DAIN_RAM_TYPE", 1);
  w("CDMA.D_WEIGHT_RAM_TYPE", 1);
  w("CDMA.D_DAIN_ADDR_LOW_0", static_cast<uint32_t>(kData));
  w("CDMA.D_WEIGHT_ADDR_LOW", static_cast<uint32_t>(kWeights));
  w("CSC.D_MISC_CFG", 0);
  w("CSC.D_DATAIN_SIZE_EXT_0", 0x00010002);
  w("CSC.D_DATAIN_SIZE_EXT_1", 2);
  w("CSC.D_WEIGHT_SIZE_EXT_0", 0x00010001);
  w("CSC.D_WEIGHT_SIZE_EXT_1", 0x00010002);
  w("CSC.D_DATAOUT_SIZE_0", 2);
  w("CSC.D_DATAOUT_SIZE_1", 1);
  w("CSC.D_ATOMICS", 2);
  w("CSC.D_ZERO_PADDING", 1);
  w("CSC.D_ZERO_PADDING_VALUE", 2);
  w("CSC.D_ENTRY_PER_SLICE", 2);
  w("CSC.D_WEIGHT_BYTES", 128);
  w("CSC.D_RELEASE", 1);
  w("CMAC_A.D_MISC_CFG", 0);
  w("CMAC_B.D_MISC_CFG", 0);
  w("CACC.D_MISC_CFG", 0);
  w("CACC.D_DATAOUT_SIZE_0", 2);
  w("CACC.D_DATAOUT_SIZE_1", 1);
  w("CACC.D_CLIP_CFG", 2);
  // SDP pass-through, flying input from CACC, int8 out.
  t.sdp("D_DATA_CUBE_WIDTH", 2);
  t.sdp("D_DATA_CUBE_HEIGHT", 0);
  t.sdp("D_DATA_CUBE_CHANNEL", 1);
  t.sdp("D_FEATURE_MODE_CFG", 1);
  t.sdp("D_DATA_FORMAT", 0);
  t.sdp("D_DST_DMA_CFG", 1);
  t.sdp("D_DP_BS_CFG", 1);
  t.sdp("D_DP_BN_CFG", 1);
  t.sdp("D_DP_EW_CFG", 1);
  t.sdp("D_CVT_SCALE", 1);
  t.dst(kOut, 24, 24);
}

TEST(GoldenConv, WorkedExampleDirectInt8OnSmall) {
  test::SdpHarness t("small");
  program_worked_example(t);
  auto w = [&](const std::string& reg, uint32_t v) { t.m.csb_write(t.addr(reg), v); };
  // NVDLA's arming order: SDP, CACC, CMAC_A, CMAC_B, CSC, CDMA.
  for (const char* u : {"SDP", "CACC", "CMAC_A", "CMAC_B", "CSC"}) {
    w(std::string(u) + ".D_OP_ENABLE", 1);
    EXPECT_EQ(t.m.intr_status(), 0u) << "nothing runs before CDMA is armed (" << u << ")";
  }
  w("CDMA.D_OP_ENABLE", 1);
  EXPECT_TRUE(t.m.warnings().empty()) << t.m.warnings().front();
  // SDP done (bit 0), CDMA data and weight done (16, 18), CACC done (20).
  EXPECT_EQ(t.m.intr_status(), 0x00150001u);
  const std::vector<uint8_t> want = {0xff, 0x04, 0, 0, 0, 0, 0, 0, 0x02, 0x01, 0, 0, 0, 0, 0, 0,
                                     0x04, 0xfb, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(t.mem(kOut, 24), want);
  EXPECT_EQ(t.m.csb_read(t.addr("CACC.D_OUT_SATURATION")), 0u);
  EXPECT_EQ(t.m.interrupt_events(), 4u) << "SDP, CDMA data, CDMA weights, CACC: one event per status bit";
}

// The untimed model raises a layer's done interrupts together and counts one event per
// unmasked status bit, so a program that waits for each in turn after clearing the others
// is judged as on the hardware; masked bits are no events (they never raise the line).
TEST(GoldenConv, DoneInterruptsCountOneEventPerUnmaskedBit) {
  test::SdpHarness t("small");
  program_worked_example(t);
  t.m.csb_write(t.addr("GLB.S_INTR_MASK"), 1u << 20);  // CACC done of group 0 masked
  for (const char* u : {"SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) t.m.csb_write(t.addr(std::string(u) + ".D_OP_ENABLE"), 1);
  EXPECT_EQ(t.m.intr_status(), 0x00150001u) << "the status shows masked bits too";
  EXPECT_EQ(t.m.interrupt_events(), 3u);
  t.m.csb_write(t.addr("GLB.S_INTR_STATUS"), 0xffffffffu);
  EXPECT_FALSE(t.m.intr_line());
  EXPECT_EQ(t.m.interrupt_events(), 3u) << "clearing the status does not take events back";
}


// conv.md §10.2: T_A8R8G8B8 with per-component means, scale 9, truncate 3; a 1x1 kernel
// with identity weights makes CACC deliver the converted components 127, 0, -32, 0.
TEST(GoldenConv, WorkedExamplePixelConversion) {
  const HwConfig& cfg = HwConfig::get("small");
  SparseMemory mem(5);
  mem.load(kData, {0x10, 0x80, 0xf0, 0xff, 0, 0, 0, 0});
  ConvLayer l;
  l.kind = ConvInputKind::Image;
  l.pixel_format = static_cast<unsigned>(formats::PixelFormat::T_A8R8G8B8);
  l.width = l.csc_width = l.height = l.csc_height = 1;
  l.width_ext = l.height_ext = 1;
  l.channels = l.csc_channels = 4;
  l.data_addr0 = kData;
  l.line_stride = 8;
  l.mean_format = true;
  l.mean[0] = 100, l.mean[1] = 128, l.mean[2] = 44, l.mean[3] = 255;
  l.cvt_en = true;
  l.cvt_scale = 9;
  l.cvt_truncate = 3;
  l.kernel_width = l.kernel_height = 1;
  l.kernel_channels = 4;
  l.kernels = l.cdma_kernels = l.out_channels = 4;
  l.bytes_per_kernel = 4;
  l.weight_addr = kWeights;
  l.weight_bytes = 128;
  l.out_width = l.out_height = 1;
  l.atomics = 1;
  l.data_bank = 0;
  l.weight_bank = 1;
  l.entries = golden::conv_expected_entries(l, cfg);
  formats::KernelSet ks(4, 1, 1, 4, 1);
  for (uint32_t k = 0; k < 4; ++k) ks.at(k, 0, 0, k) = 1;
  std::vector<uint8_t> img = formats::post_extended_weight_image(ks, 1, {8, 8});
  img.resize(128, 0);
  mem.load(kWeights, img);
  ConvCbuf cbuf;
  std::vector<std::string> warnings;
  const auto r = run(cfg, l, mem, cbuf, &warnings);
  ASSERT_TRUE(r) << warnings.front();
  const uint32_t* a = r->output.atom(0, 0, 0, 0);
  EXPECT_EQ(static_cast<int32_t>(a[0]), 127);
  EXPECT_EQ(static_cast<int32_t>(a[1]), 0);
  EXPECT_EQ(static_cast<int32_t>(a[2]), -32);
  EXPECT_EQ(static_cast<int32_t>(a[3]), 0);
  for (unsigned i = 4; i < 8; ++i) EXPECT_EQ(a[i], 0u) << "lane of a missing kernel";
}

// conv.md §10.3 through the pipeline: a 1x1 fp16 layer on v1 delivers fp32 0x40100000.
TEST(GoldenConv, WorkedExampleFp16DotProduct) {
  const HwConfig& cfg = HwConfig::get("v1");
  DcCase t;
  t.p = Precision::Fp16;
  t.w = t.h = 1;
  t.c = 3;
  t.r = t.s = 1;
  t.k = 1;
  t.pl = t.pt = 0;
  t.out_w = t.out_h = 1;
  t.data = {0x4000, 0x4200, 0x0001};
  t.weights = {0x3E00, 0xB400, 0x3C00};
  SparseMemory mem(9);
  const ConvLayer l = dc_layer(cfg, t);
  store_case(mem, cfg, t, l);
  ConvCbuf cbuf;
  const auto r = run(cfg, l, mem, cbuf);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output.atom(0, 0, 0, 0)[0], 0x40100000u);
  EXPECT_EQ(r->output.atom(0, 0, 0, 0)[1], 0u);
}

// D_OUT_SATURATION counts outputs clipped to 32 bits. The configurable family adds an atom's
// count with a log2(K)-bit adder, so an atom whose K lanes all saturate adds 0; nv_full counts
// every lane. int16 on v1 saturates easily (4 x 2^30); the wrapping adder is checked on the
// same layer with the flag flipped.
TEST(GoldenConv, SaturationCounterAndAtomAdderWidth) {
  HwConfig cfg = HwConfig::get("v1");
  const unsigned ak = cfg.conv_kernels_per_group(Precision::Int16);
  for (bool wraps : {false, true})
    for (uint32_t saturating : {ak - 1, ak}) {
      cfg.conv_sat_count_wraps = wraps;
      DcCase t;
      t.p = Precision::Int16;
      t.w = t.h = 1;
      t.c = 4;
      t.r = t.s = 1;
      t.k = ak;
      t.pl = t.pt = 0;
      t.out_w = t.out_h = 1;
      t.data.assign(t.c, -32768);
      t.weights.assign(size_t{t.k} * t.c, 1);
      for (uint32_t k = 0; k < saturating; ++k)
        for (uint32_t c = 0; c < t.c; ++c) t.weights[size_t{k} * t.c + c] = (k % 2) ? -32768 : 32767;
      SparseMemory mem(1);
      const ConvLayer l = dc_layer(cfg, t);
      store_case(mem, cfg, t, l);
      ConvCbuf cbuf;
      const auto r = run(cfg, l, mem, cbuf);
      ASSERT_TRUE(r);
      const uint32_t* a = r->output.atom(0, 0, 0, 0);
      EXPECT_EQ(a[0], 0x80000000u) << "4 x (32767 x -32768) clips to -2^31";
      EXPECT_EQ(a[1], 0x7fffffffu) << "4 x 2^30 clips to 2^31 - 1";
      const uint64_t want = wraps && saturating == ak ? 0 : saturating;
      EXPECT_EQ(r->counters.out_saturation, want) << (wraps ? "wrapping" : "full") << " adder, " << saturating << " lanes";
      golden::PlantedBugScope plant({"conv.out_saturation_count"});
      ConvCbuf cbuf2;
      const auto planted_run = run(cfg, l, mem, cbuf2);
      if (want > 0) {
        EXPECT_EQ(planted_run->counters.out_saturation, want - 1) << "the plant is visible";
      }
    }
}

DcCase small_case(uint32_t w, uint32_t h, uint32_t c, uint32_t k, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> v(-20, 20);
  DcCase t;
  t.w = w, t.h = h, t.c = c, t.k = k;
  t.r = t.s = 3;
  t.pl = t.pt = 1;
  t.out_w = w, t.out_h = h;
  t.data.resize(size_t{w} * h * c);
  t.weights.resize(size_t{k} * 9 * c);
  for (auto& x : t.data) x = v(rng);
  for (auto& x : t.weights) x = v(rng);
  return t;
}

// Rules that make NVDLA hang or compute garbage: the layer never completes and the warning
// names the rule.
TEST(GoldenConv, BrokenRulesRefuseTheLayerAndNameTheRule) {
  const HwConfig& small = HwConfig::get("small");
  const DcCase t = small_case(4, 4, 8, 8, 1);
  struct Break {
    const char* words;
    std::function<void(ConvLayer&)> change;
  };
  const std::vector<Break> breaks = {
      {"ENTRY_PER_SLICE", [](ConvLayer& l) { l.entries += 1; }},
      {"DATA_BANK gives", [](ConvLayer& l) { l.data_bank = 0, l.height = l.csc_height = 2000, l.fetch_grains = 0; }},
      {"> 32 banks", [](ConvLayer& l) { l.data_bank = 20, l.weight_bank = 12; }},
      {"has no int16", [](ConvLayer& l) { l.in = l.proc = Precision::Int16, l.in_code = l.proc_code = 1; }},
      {"has no Winograd", [](ConvLayer& l) { l.kind = ConvInputKind::Winograd; }},
      {"ATOMICS", [](ConvLayer& l) { l.atomics += 1; }},
      {"units disagree", [](ConvLayer& l) { l.mismatches.push_back("CDMA BATCHES is 2 but CSC holds 1"); }},
      {"LINE_PACKED", [](ConvLayer& l) { l.line_packed = false; }},
      {"WEIGHT_BYTES", [](ConvLayer& l) { l.weight_bytes = 64; }},
      {"DATA_REUSE", [](ConvLayer& l) { l.data_reuse = true; }},
      {"WEIGHT_REUSE", [](ConvLayer& l) { l.weight_reuse = true; }},
      {"CLIP_TRUNCATE", [](ConvLayer& l) { l.clip_truncate = 17; }},
  };
  for (const Break& b : breaks) {
    SparseMemory mem(2);
    ConvLayer l = dc_layer(small, t);
    store_case(mem, small, t, l);
    b.change(l);
    ConvCbuf cbuf;
    std::vector<std::string> warnings;
    EXPECT_FALSE(run(small, l, mem, cbuf, &warnings)) << b.words;
    const bool named = std::any_of(warnings.begin(), warnings.end(),
                                   [&](const std::string& w) { return w.find(b.words) != std::string::npos; });
    EXPECT_TRUE(named) << "no warning names '" << b.words << "'" << (warnings.empty() ? "" : ": " + warnings.front());
  }
}

// D_ENTRY_PER_SLICE by the slice formula, for the atoms-per-entry remainder cases of v1
// (4 atoms per entry): ceil(C/A) surfaces = 4q + r -> q*W + {0, ceil(W/4), ceil(W/2), W}.
TEST(GoldenConv, EntryPerSliceFormula) {
  const HwConfig& v1 = HwConfig::get("v1");
  ConvLayer l;
  l.width = 10;
  const uint32_t want_v1[] = {10, 3, 5, 10, 10};  // surfaces 1..5, int8 (32 channels each)
  for (uint32_t n = 1; n <= 5; ++n) {
    l.channels = 32 * n;
    EXPECT_EQ(golden::conv_expected_entries(l, v1) + 1, (n >= 4 ? 10u : 0u) + (n % 4 == 0 ? 0u : want_v1[n % 4]))
        << n << " surfaces";
  }
  const HwConfig& small = HwConfig::get("small");
  l.channels = 49;  // 7 surfaces of 8 on nv_small: 7 x W entries
  EXPECT_EQ(golden::conv_expected_entries(l, small) + 1, 70u);
}

// Release and reuse across layers: kept slices and weights are what the next layer computes
// on, even after memory changed.
TEST(GoldenConv, FullDataAndWeightReuseComputeOnTheKeptCbuf) {
  const HwConfig& cfg = HwConfig::get("small");
  const DcCase t = small_case(5, 4, 12, 9, 3);
  SparseMemory mem(4);
  ConvLayer first = dc_layer(cfg, t);
  first.skip_data_rls = first.skip_weight_rls = true;
  store_case(mem, cfg, t, first);
  ConvCbuf cbuf;
  const auto a = run(cfg, first, mem, cbuf);
  ASSERT_TRUE(a);
  expect_matches_reference(cfg, t, *a, "first layer");
  // Overwrite the input and weights in memory: a reusing layer must not see it.
  SparseMemory scrambled(99);
  ConvLayer second = first;
  second.data_reuse = second.weight_reuse = true;
  second.skip_data_rls = second.skip_weight_rls = false;
  std::vector<std::string> warnings;
  const auto b = run(cfg, second, scrambled, cbuf, &warnings);
  ASSERT_TRUE(b) << warnings.front();
  EXPECT_EQ(b->output.values, a->output.values);
  // The second layer released everything: a third cannot reuse.
  ConvLayer third = second;
  warnings.clear();
  EXPECT_FALSE(run(cfg, third, mem, cbuf, &warnings));
  EXPECT_FALSE(warnings.empty());
}

TEST(GoldenConv, PartialDataReuseAppendsNewLinesToTheKeptOnes) {
  const HwConfig& cfg = HwConfig::get("small");
  const DcCase whole = small_case(6, 6, 8, 8, 5);  // the reference: all 6 lines at once
  SparseMemory mem(6);
  // Layer 1 fetches lines 0..3 and releases the oldest 2; layer 2 fetches lines 4..5 and
  // computes on lines 2..5 (CSC height 4) with top padding 0.
  DcCase top = whole, bottom = whole;
  top.h = 4;
  top.data.assign(whole.data.begin(), whole.data.begin() + 4 * 6 * 8);
  bottom.h = 2;
  bottom.data.assign(whole.data.begin() + 4 * 6 * 8, whole.data.end());
  ConvLayer l1 = dc_layer(cfg, top);
  l1.release_slices = 2;
  store_case(mem, cfg, top, l1);
  ConvCbuf cbuf;
  ASSERT_TRUE(run(cfg, l1, mem, cbuf));
  ASSERT_EQ(cbuf.slices.size(), 2u);
  SparseMemory mem2(7);
  ConvLayer l2 = dc_layer(cfg, bottom);
  l2.data_reuse = true;
  l2.csc_height = 4;
  l2.pad_top = 0;
  l2.out_height = 2;
  l2.atomics = l2.out_width * 2;
  l2.fetch_grains = 0;
  store_case(mem2, cfg, bottom, l2);
  std::vector<std::string> warnings;
  const auto r = run(cfg, l2, mem2, cbuf, &warnings);
  ASSERT_TRUE(r) << warnings.front();
  // Reference: the whole 6-line cube, output rows 2..3 with PT = 0 start at input line 2.
  DcCase ref = whole;
  ref.pt = 0;
  for (uint32_t k = 0; k < 8; ++k)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 6; ++x)
        EXPECT_EQ(static_cast<int32_t>(r->output.atom(0, y, x, 0)[k]), reference(ref, 0, k, x, y + 2))
            << "k " << k << " (" << x << ", " << y << ")";
}

// Compressed weights (v1): the outputs of a layer with sparse weights, uncompressed and
// compressed (nullopt when a run is refused).
std::optional<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> compressed_and_plain_outputs() {
  const HwConfig& cfg = HwConfig::get("v1");
  DcCase t = small_case(4, 3, 40, 37, 8);
  for (size_t i = 0; i < t.weights.size(); i += 3) t.weights[i] = 0;  // sparsity
  SparseMemory mem(8);
  ConvLayer plain = dc_layer(cfg, t);
  store_case(mem, cfg, t, plain);
  ConvCbuf cbuf;
  const auto a = run(cfg, plain, mem, cbuf);
  const unsigned ak = cfg.conv_kernels_per_group(t.p);
  const std::vector<uint8_t> img = formats::dc_weight_image(kernel_set(t), {ak, cfg.conv_mac_atomic_c});
  const formats::CompressedWeights cw =
      formats::compress_weights(img, 1, formats::weight_group_elements(t.k, plain.bytes_per_kernel, 1, ak));
  ConvLayer packed = plain;
  packed.compressed = true;
  packed.weight_bank -= 1;  // the last bank holds the mask bits
  packed.weight_addr = 0x9000'0000;
  packed.wmb_addr = 0x9100'0000;
  packed.wgs_addr = 0x9200'0000;
  packed.weight_bytes = cw.data.size();
  packed.wmb_bytes = cw.wmb.size();
  mem.load(packed.weight_addr, cw.data);
  mem.load(packed.wmb_addr, cw.wmb);
  mem.load(packed.wgs_addr, cw.wgs);
  const auto b = run(cfg, packed, mem, cbuf);
  if (!a || !b) return std::nullopt;
  return std::make_pair(b->output.values, a->output.values);
}

TEST(GoldenConv, CompressedWeightsEqualUncompressed) {
  const auto outputs = compressed_and_plain_outputs();
  ASSERT_TRUE(outputs);
  EXPECT_EQ(outputs->first, outputs->second);
  // A WEIGHT_BYTES that is not the packed size is refused.
  const HwConfig& cfg = HwConfig::get("v1");
  DcCase t = small_case(2, 2, 8, 4, 9);
  SparseMemory mem(10);
  ConvLayer l = dc_layer(cfg, t);
  l.compressed = true;
  l.weight_bank -= 1;
  l.wmb_bytes = 128;
  mem.load(l.wmb_addr, std::vector<uint8_t>(128, 0xff));
  ConvCbuf cbuf;
  std::vector<std::string> warnings;
  EXPECT_FALSE(run(cfg, l, mem, cbuf, &warnings));
  EXPECT_FALSE(warnings.empty());
}

// Winograd (v1, int8): with U = (2G) g (2G)^T and no PRA truncation, every output is 4 x the
// 3 x 3 correlation of the padded input with g.
// Outputs that differ from 4 x the direct convolution (-1: the layer was refused).
int winograd_mismatches() {
  const HwConfig& cfg = HwConfig::get("v1");
  std::mt19937 rng(21);
  std::uniform_int_distribution<int32_t> dv(-30, 30), gv(-3, 3);
  const uint32_t w = 6, h = 6, c = 32, k = 5;  // padded 8 x 8, output 4 x 4
  std::vector<int32_t> data(size_t{w} * h * c), g(size_t{k} * 9 * c);
  for (auto& x : data) x = dv(rng);
  for (auto& x : g) x = gv(rng);
  SparseMemory mem(12);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t ch = 0; ch < c; ++ch) mem.write(kData + y * w * 32 + x * 32 + ch, std::vector<uint8_t>{static_cast<uint8_t>(data[(y * w + x) * c + ch])});
  formats::KernelSet u(k, 4, 4, c, 1);
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t ch = 0; ch < c; ++ch) {
      std::array<int64_t, 9> gg{};
      for (unsigned i = 0; i < 9; ++i) gg[i] = g[(size_t{kk} * 9 + i) * c + ch];
      const std::array<int64_t, 16> uu = formats::winograd_transform_scaled(gg);
      for (unsigned i = 0; i < 16; ++i) u.at(kk, i / 4, i % 4, ch) = static_cast<uint16_t>(uu[i] & 0xff);
    }
  std::vector<uint8_t> img = formats::winograd_weight_image(u, {32, 64});
  img.resize(formats::round_up_128(img.size()), 0);
  mem.load(kWeights, img);
  ConvLayer l;
  l.kind = ConvInputKind::Winograd;
  l.width = w, l.height = h, l.channels = c;
  l.cdma_pad_left = l.cdma_pad_right = l.cdma_pad_top = l.cdma_pad_bottom = 1;
  l.width_ext = l.height_ext = 8;
  l.csc_width = l.csc_height = 8;
  l.csc_channels = l.kernel_channels = c;
  l.kernel_width = l.kernel_height = 4;
  l.kernels = l.cdma_kernels = l.out_channels = k;
  l.bytes_per_kernel = 16 * c;
  l.data_addr0 = kData;
  l.line_stride = w * 32;
  l.line_packed = true;
  l.surf_stride = l.line_stride * h;
  l.weight_addr = kWeights;
  l.weight_bytes = img.size();
  l.out_width = l.out_height = 4;
  l.atomics = 16;
  l.data_bank = 3, l.weight_bank = 3;
  l.entries = golden::conv_expected_entries(l, cfg);
  ConvCbuf cbuf;
  std::vector<std::string> warnings;
  const auto r = run(cfg, l, mem, cbuf, &warnings);
  if (!r) return -1;
  int mismatches = 0;
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x) {
        int64_t sum = 0;
        for (uint32_t i = 0; i < 3; ++i)
          for (uint32_t j = 0; j < 3; ++j) {
            const int64_t px = int64_t{x} + j - 1, py = int64_t{y} + i - 1;
            if (px < 0 || py < 0 || px >= w || py >= h) continue;  // pad value 0
            for (uint32_t ch = 0; ch < c; ++ch)
              sum += int64_t{data[(py * w + px) * c + ch]} * g[(size_t{kk} * 9 + i * 3 + j) * c + ch];
          }
        mismatches += static_cast<int32_t>(r->output.atom(0, y, x, 0)[kk]) != 4 * sum;
      }
  return mismatches;
}

TEST(GoldenConv, WinogradEqualsFourTimesTheDirectConvolution) { EXPECT_EQ(winograd_mismatches(), 0); }

// Image mode with post-extension (P = 2, 4) computes the same values as P = 1.
TEST(GoldenConv, ImagePostExtensionMatchesPlainImageMode) {
  const HwConfig& cfg = HwConfig::get("v1");
  std::mt19937 rng(33);
  const uint32_t w = 9, h = 7, comps = 4, s = 3, r = 5, k = 6;
  SparseMemory mem(13);
  std::vector<uint8_t> pixels(size_t{h} * 64);
  for (auto& b : pixels) b = static_cast<uint8_t>(rng());
  mem.load(kData, pixels);
  formats::KernelSet ks(k, r, s, comps, 1);
  for (auto& v : ks.values) v = static_cast<uint16_t>(static_cast<int8_t>(rng() % 9 - 4)) & 0xff;
  const formats::KernelSet pre = formats::pre_extend_image_weights(ks);
  std::vector<std::vector<uint32_t>> results;
  for (unsigned p : {1u, 2u, 4u}) {
    ConvLayer l;
    l.kind = ConvInputKind::Image;
    l.pixel_format = static_cast<unsigned>(formats::PixelFormat::T_A8B8G8R8);
    l.pixel_x_offset = 2;
    l.width = l.csc_width = w, l.height = l.csc_height = h, l.channels = l.csc_channels = comps;
    l.width_ext = w, l.height_ext = h;
    l.cdma_pad_left = 1, l.cdma_pad_right = 1, l.cdma_pad_value = 3;
    l.pad_top = 2, l.pad_value = 0xfe;
    l.data_addr0 = kData;
    l.line_stride = 64;
    l.y_extension = p == 1 ? 0 : p == 2 ? 1 : 2;
    l.kernel_width = 1, l.kernel_height = r, l.kernel_channels = s * comps;
    l.kernels = l.cdma_kernels = l.out_channels = k;
    l.bytes_per_kernel = r * s * comps;
    std::vector<uint8_t> img = formats::post_extended_weight_image(pre, p, {32, 64});
    img.resize(formats::round_up_128(img.size()), 0);
    const uint64_t waddr = kWeights + p * 0x10000;
    mem.load(waddr, img);
    l.weight_addr = waddr;
    l.weight_bytes = img.size();
    l.out_width = 8, l.out_height = 6;
    l.atomics = 48;
    l.data_bank = 3, l.weight_bank = 3;
    l.entries = golden::conv_expected_entries(l, cfg);
    ConvCbuf cbuf;
    std::vector<std::string> warnings;
    const auto out = run(cfg, l, mem, cbuf, &warnings);
    ASSERT_TRUE(out) << "P = " << p << ": " << warnings.front();
    results.push_back(out->output.values);
  }
  EXPECT_EQ(results[1], results[0]);
  EXPECT_EQ(results[2], results[0]);
  // And P = 1 against a reference over the padded line.
  int64_t checked = 0;
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t y = 0; y < 6; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        int64_t sum = 0;
        for (uint32_t rr = 0; rr < r; ++rr) {
          const int64_t iy = int64_t{y} + rr - 2;
          for (uint32_t kappa = 0; kappa < s * comps; ++kappa) {
            const int64_t px = int64_t{x} + kappa / comps - 1;  // padded pixel -> image pixel
            int64_t d;
            if (iy < 0 || iy >= h) d = static_cast<int8_t>(0xfe);
            else if (px < 0 || px >= w) d = 3;
            else d = static_cast<int8_t>(pixels[iy * 64 + (2 + px) * 4 + kappa % comps]);
            sum += d * static_cast<int8_t>(ks.at(kk, rr, kappa / comps, kappa % comps));
          }
        }
        ASSERT_EQ(static_cast<int32_t>(results[0][((size_t{y} * 8 + x)) * 32 + kk]), sum) << kk << " " << x << " " << y;
        ++checked;
      }
  EXPECT_EQ(checked, 6 * 48);
}

// fp16 counters (CDMA): every lane of every fetched atom (pad lanes too), every weight byte
// fetched (past the real weights too); NaN_TO_ZERO flushes data NaNs only after counting.
TEST(GoldenConv, Fp16NanInfCountersAndFlush) {
  const HwConfig& cfg = HwConfig::get("v1");
  DcCase t;
  t.p = Precision::Fp16;
  t.w = 2, t.h = 1, t.c = 3;
  t.r = t.s = 1;
  t.k = 1;
  t.pl = t.pt = 0;
  t.out_w = 2, t.out_h = 1;
  t.data = {0x7e00, 0x3c00, 0x3c00, 0x7c00, 0x3c00, 0x3c00};  // NaN, 1, 1 | Inf, 1, 1
  t.weights = {0x3c00, 0x3c00, 0x3c00};
  SparseMemory mem(14);
  ConvLayer l = dc_layer(cfg, t);
  mem.load(kData, std::vector<uint8_t>(64, 0));  // pad lanes hold +0 ...
  store_case(mem, cfg, t, l);
  const uint8_t nan_pad[2] = {0x01, 0x7c};  // NaN in pad lane 5 of pixel 1
  mem.write(kData + 32 + 10, nan_pad, 2);
  const uint8_t inf_tail[2] = {0x00, 0xfc};  // -Inf in the weight bytes past K x BPK
  mem.write(kWeights + 100, inf_tail, 2);
  for (bool flush : {false, true}) {
    l.nan_to_zero = flush;
    ConvCbuf cbuf;
    const auto r = run(cfg, l, mem, cbuf);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->counters.nan_data, 2u);
    EXPECT_EQ(r->counters.inf_data, 1u);
    EXPECT_EQ(r->counters.nan_weight, 0u);
    EXPECT_EQ(r->counters.inf_weight, 1u);
    const uint32_t x0 = r->output.atom(0, 0, 0, 0)[0];
    if (flush) EXPECT_EQ(x0, 0x40000000u) << "NaN flushed to +0: 0 + 1 + 1 = 2.0";
    else EXPECT_EQ(x0 & 0x7f800000u, 0x7f800000u) << "NaN poisons the output";
  }
}

// Outputs of 25 random small-configuration layers that differ from the reference.
int random_reference_mismatches() {
  std::mt19937 rng(11);
  const HwConfig& cfg = HwConfig::get("small");
  int mismatches = 0;
  for (int i = 0; i < 25; ++i) {
    const DcCase t = random_case(rng, cfg, Precision::Int8);
    SparseMemory mem(3);
    const ConvLayer l = dc_layer(cfg, t);
    store_case(mem, cfg, t, l);
    ConvCbuf cbuf;
    const auto r = run(cfg, l, mem, cbuf);
    if (!r) return -1;
    for (uint32_t k = 0; k < t.k; ++k)
      for (uint32_t y = 0; y < t.out_h; ++y)
        for (uint32_t x = 0; x < t.out_w; ++x)
          mismatches += static_cast<int32_t>(r->output.atom(k / 8, y, x, 0)[k % 8]) != reference(t, 0, k, x, y);
  }
  return mismatches;
}

// The planted bugs of the convolution model (dlaverif run --plant) are caught by the checks
// above: the reference convolution, the Winograd identity, compressed = uncompressed.
TEST(GoldenConv, PlantedBugsAreCaught) {
  EXPECT_EQ(random_reference_mismatches(), 0);
  for (const char* plant : {"conv.clip_rounding", "conv.padding_row"}) {
    golden::PlantedBugScope scope({plant});
    EXPECT_GT(random_reference_mismatches(), 0) << plant;
  }
  {
    golden::PlantedBugScope scope({"conv.winograd_coefficient"});
    EXPECT_GT(winograd_mismatches(), 0);
  }
  {
    golden::PlantedBugScope scope({"conv.decompress_bit"});
    const auto outputs = compressed_and_plain_outputs();
    EXPECT_TRUE(!outputs || outputs->first != outputs->second);
  }
}

}  // namespace
}  // namespace dla
