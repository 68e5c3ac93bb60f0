// pdp.random and pdp.illegal: determinism, legality of every generated layer, coverage of
// the feature space over seeds, and the refusals of pdp.illegal.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "dla/golden_model.h"
#include "dla/pdp_layer.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "armed_writes_check.h"
#include "program_executor.h"
#include "wide_fp16_values.h"

namespace dla {
namespace {

struct Seen {
  std::set<std::string> features;
  void add(const std::string& f) { features.insert(f); }
};

// Runs `seeds` seeds on the golden model; every layer must be legal and complete, no
// warnings, every expectation met. Records which features the layers used.
Seen run_seeds(const std::string& config, uint64_t first, uint64_t seeds, const Knobs& knobs = {}) {
  const HwConfig& cfg = HwConfig::get(config);
  const TestGenerator& g = find_test_generator("pdp.random");
  Seen seen;
  for (uint64_t seed = first; seed < first + seeds; ++seed) {
    const Program p = g.generate(cfg, seed, knobs);
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures[0];
    EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings()[0];
    for (const LayerRecord& r : m.layers()) {
      EXPECT_TRUE(r.completed) << config << " seed " << seed;
      if (r.unit != Unit::PDP) continue;
      const PdpLayer l = decode_pdp_registers(r.regs);
      const auto v = pdp_layer_violations(l, cfg);
      EXPECT_TRUE(v.empty()) << config << " seed " << seed << ": " << v[0];
      seen.add(pool_method_name(static_cast<PoolMethod>(l.method)));
      seen.add(precision_name(static_cast<Precision>(l.format)));
      seen.add("kw" + std::to_string(l.kernel_w));
      seen.add("kh" + std::to_string(l.kernel_h));
      if (l.split_num) seen.add("split");
      if (l.split_num >= 2) seen.add("split3+");
      if (l.kernel_w > l.width || l.kernel_h > l.height) seen.add("kernel_larger_than_input");
      if (l.width == 1 && l.height == 1 && l.channels == 1) seen.add("1x1x1");
      if (l.stride_w > l.kernel_w) seen.add("stride_beyond_kernel");
      if (l.pad_left && l.pad_right && l.pad_top && l.pad_bottom) seen.add("pads_all_sides");
      if (l.dst_line != uint64_t{l.out_width} * cfg.atom_bytes) seen.add("unpacked_dst_line");
      if (l.dst_port == MemPort::Sram) seen.add("sram_dst");
      if (l.nan_to_zero) seen.add("nan_flush");
      if (l.recip_w != pdp_reciprocal(l.kernel_w, l.is_fp16())) seen.add("nonstandard_recip");
      if (r.group == 1) seen.add("group1");
      if (l.height > 2048) seen.add("taller_than_2048");
    }
  }
  return seen;
}

// The golden model's layer records of one seed's program with `knobs`; every expectation met.
std::vector<LayerRecord> clean_layers(const HwConfig& cfg, uint64_t seed, const Knobs& knobs) {
  const Program p = find_test_generator("pdp.random").generate(cfg, seed, knobs);
  GoldenModel m(cfg, seed);
  const auto res = test::execute(p, m);
  EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
  return m.layers();
}

TEST(PdpRandom, EveryLayerIsLegalAndRunsCleanOnSmall) {
  const Seen s = run_seeds("small", 1, 60);
  for (const char* f : {"average", "max", "min", "int8", "kw1", "kw8", "kh8", "split", "split3+",
                        "kernel_larger_than_input", "1x1x1", "stride_beyond_kernel", "pads_all_sides",
                        "unpacked_dst_line", "nonstandard_recip", "group1"})
    EXPECT_TRUE(s.features.count(f)) << "60 seeds on small never produced " << f;
}

TEST(PdpRandom, EveryLayerIsLegalAndRunsCleanOnV1) {
  const Seen s = run_seeds("v1", 1000, 60);
  for (const char* f : {"int8", "int16", "fp16", "split", "sram_dst", "nan_flush", "kernel_larger_than_input"})
    EXPECT_TRUE(s.features.count(f)) << "60 seeds on v1 never produced " << f;
}

// Default DBB regions start in the 64 MiB above 0x8000_0000: on a 32-bit bus address bits 26..31
// never change, so a unit that forced one of them would pass. high_addresses moves the regions.
TEST(PdpRandom, HighAddressesUseTheWholeAddressSpaceAndOffIsTheDefault) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  uint32_t bits_seen_0 = 0, bits_seen_1 = 0;  // address bits 26..31 seen at 0, at 1
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const LayerRecord& r : clean_layers(cfg, seed, {{"high_addresses", "on"}})) {
      EXPECT_TRUE(r.completed) << "seed " << seed;
      const PdpLayer l = decode_pdp_registers(r.regs);
      for (uint64_t a : {l.src, l.dst}) {
        EXPECT_LT(a, uint64_t{1} << 32) << "seed " << seed;
        bits_seen_0 |= ~static_cast<uint32_t>(a) >> 26;
        bits_seen_1 |= static_cast<uint32_t>(a) >> 26;
      }
    }
    const Program usual = g.generate(cfg, seed);
    EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"high_addresses", "off"}})), test::writes_and_loads(usual))
        << "seed " << seed << ": high_addresses=off is not the default";
    for (const ProgramOp& op : usual.ops)
      if (const auto* load = std::get_if<MemLoad>(&op)) {
        EXPECT_GE(load->addr, 0x8000'0000u) << "seed " << seed << ": the default program changed";
        EXPECT_LT(load->addr, 0x8400'0000u) << "seed " << seed << ": the default program changed";
      }
  }
  EXPECT_EQ(bits_seen_0 & 0x3f, 0x3fu) << "an address bit of 26..31 was always 1";
  EXPECT_EQ(bits_seen_1 & 0x3f, 0x3fu) << "an address bit of 26..31 was always 0";
}

// huge_strides=on: some DBB outputs get line strides of 1 to 16 MiB (stride bits 20..23 each seen
// at 0 and 1 across those layers), surfaces above H such lines, everything below 4 GiB on small, the
// layers clean on the golden model; off is the default.
TEST(PdpRandom, HugeStridesReachTheUpperStrideBitsAndOffIsTheDefault) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  unsigned huge = 0, usual = 0;
  uint32_t ones = 0, zeros = 0;  // stride bits 20..23 seen at 1, at 0 (huge layers)
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const LayerRecord& r : clean_layers(cfg, seed, {{"huge_strides", "on"}})) {
      if (r.unit != Unit::PDP) continue;
      EXPECT_TRUE(r.completed) << "seed " << seed;
      const PdpLayer l = decode_pdp_registers(r.regs);
      EXPECT_TRUE(pdp_layer_violations(l, cfg).empty()) << "seed " << seed;
      if (l.dst_line < (uint64_t{1} << 20)) {
        ++usual;
        continue;
      }
      ++huge;
      EXPECT_LT(l.dst_line, uint64_t{1} << 25) << "seed " << seed;
      EXPECT_GE(l.dst_surface, uint64_t{l.out_height} * l.dst_line) << "seed " << seed;
      EXPECT_LT(l.dst + l.dst_surface * 8, uint64_t{1} << 32) << "seed " << seed;
      ones |= static_cast<uint32_t>(l.dst_line >> 20) & 0xfu;
      zeros |= ~static_cast<uint32_t>(l.dst_line >> 20) & 0xfu;
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"huge_strides", "off"}})),
              test::writes_and_loads(g.generate(cfg, seed)))
        << "seed " << seed << ": huge_strides=off is not the default";
  }
  EXPECT_GE(huge, 10u);
  EXPECT_GE(usual, 10u);
  EXPECT_EQ(ones, 0xfu) << "a line-stride bit of 20..23 was never 1";
  EXPECT_EQ(zeros, 0xfu) << "a line-stride bit of 20..23 was never 0";
}

// full_kernel_percent=100: every layer has 8x8 kernels with leading pads of 7 and stride 1 or 2
// (both seen on each axis), so the first row and column open every window slot; the layers are
// legal and clean on the golden model, and 0 is the default program.
TEST(PdpRandom, FullKernelsOpenEveryWindowSlotAndZeroIsTheDefault) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  std::set<uint32_t> strides_w, strides_h;
  unsigned layers = 0, all_eight = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const LayerRecord& r : clean_layers(cfg, seed, {{"full_kernel_percent", "100"}})) {
      if (r.unit != Unit::PDP) continue;
      const PdpLayer l = decode_pdp_registers(r.regs);
      EXPECT_TRUE(pdp_layer_violations(l, cfg).empty()) << "seed " << seed;
      EXPECT_EQ(l.kernel_w, 8u) << "seed " << seed;
      EXPECT_EQ(l.kernel_h, 8u) << "seed " << seed;
      EXPECT_EQ(l.pad_left, 7u) << "seed " << seed;
      EXPECT_EQ(l.pad_top, 7u) << "seed " << seed;
      strides_w.insert(l.stride_w);
      strides_h.insert(l.stride_h);
      ++layers;
      if (l.stride_h == 1 && l.out_height >= 8) ++all_eight;  // eight windows open on the first row
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"full_kernel_percent", "0"}})),
              test::writes_and_loads(g.generate(cfg, seed)))
        << "seed " << seed << ": full_kernel_percent=0 is not the default";
  }
  EXPECT_GE(layers, 40u);
  EXPECT_GE(all_eight, 5u);
  EXPECT_EQ(strides_w, (std::set<uint32_t>{1, 2}));
  EXPECT_EQ(strides_h, (std::set<uint32_t>{1, 2}));
}

// full_kernel_size=any: half the full-kernel layers stay 8x8, the others have kernels of 2..7 in
// each direction with a leading pad of kernel - 1 (so a kernel of k opens k windows on the first
// row or column); every size appears; the default size is 8.
TEST(PdpRandom, FullKernelsOfAnySizeOpenAsManyWindowsAsTheKernelIsWide) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  std::set<uint32_t> widths, heights;
  unsigned layers = 0, eights = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    for (const LayerRecord& r : clean_layers(cfg, seed, {{"full_kernel_percent", "100"}, {"full_kernel_size", "any"}})) {
      if (r.unit != Unit::PDP) continue;
      const PdpLayer l = decode_pdp_registers(r.regs);
      EXPECT_TRUE(pdp_layer_violations(l, cfg).empty()) << "seed " << seed;
      EXPECT_EQ(l.pad_left, l.kernel_w - 1) << "seed " << seed;
      EXPECT_EQ(l.pad_top, l.kernel_h - 1) << "seed " << seed;
      EXPECT_LT(l.pad_right, l.kernel_w) << "seed " << seed;
      EXPECT_LT(l.pad_bottom, l.kernel_h) << "seed " << seed;
      widths.insert(l.kernel_w);
      heights.insert(l.kernel_h);
      eights += l.kernel_w == 8 && l.kernel_h == 8;
      ++layers;
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"full_kernel_percent", "100"}, {"full_kernel_size", "8"}})),
              test::writes_and_loads(g.generate(cfg, seed, {{"full_kernel_percent", "100"}})))
        << "seed " << seed << ": full_kernel_size=8 is not the default";
  }
  EXPECT_EQ(widths, (std::set<uint32_t>{2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(heights, (std::set<uint32_t>{2, 3, 4, 5, 6, 7, 8}));
  EXPECT_GT(eights, layers / 4);
  EXPECT_LT(eights, layers * 3 / 4);
}

// armed_writes: every layer writes its first-armed unit's group while armed and reads it back;
// the golden model drops those writes, so the read-backs and the layers stay clean.
TEST(PdpRandom, ArmedWritesAreReadBackAndOffIsTheDefault) { test::expect_armed_writes_read_back("pdp.random", Unit::PDP); }

// busy_reads=on: right after each layer's arms its int counters are read (the golden model and
// the RTL both hold 0 then) and, for inputs of 1 KiB or more, both units' S_STATUS is polled once
// for the group's field not idle; perf_enable=on writes D_PERF_ENABLE of both units with every
// combination over the seeds. Off is the default program for both.
TEST(PdpRandom, BusyReadsAndPerfEnableAndOffIsTheDefault) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  const uint32_t rdma_perf = *cfg.unit_base[static_cast<unsigned>(Unit::PDP_RDMA)] + reg::PDP_RDMA::D_PERF_ENABLE::offset;
  const uint32_t pdp_perf = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)] + reg::PDP::D_PERF_ENABLE::offset;
  size_t busy_reads = 0, polls = 0;
  std::set<std::pair<uint32_t, uint32_t>> perf_writes;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Program p = g.generate(cfg, seed, {{"busy_reads", "on"}, {"perf_enable", "on"}, {"max_width", "64"}});
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    for (const ProgramOp& op : p.ops) {
      if (const auto* r = std::get_if<RegRead>(&op)) {
        if (r->what.find("runs") != std::string::npos) {
          ++busy_reads;
          EXPECT_EQ(r->expect, std::optional<uint32_t>(0u)) << r->what;
        }
      } else if (const auto* q = std::get_if<PollReg>(&op)) {
        polls += q->what.find("running or pending") != std::string::npos;
        EXPECT_EQ(q->timeout_cycles, 1u) << q->what;  // one read: a poll would wait for anything
      } else if (const auto* w = std::get_if<RegWrite>(&op); w && (w->addr == rdma_perf || w->addr == pdp_perf)) {
        perf_writes.insert({w->addr, w->data});
      }
    }
    for (const char* knob : {"busy_reads", "perf_enable"})
      EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{knob, "off"}, {"max_width", "64"}})),
                test::writes_and_loads(g.generate(cfg, seed, {{"max_width", "64"}})))
          << "seed " << seed << ": " << knob << "=off is not the default";
  }
  EXPECT_GE(busy_reads, 3u * 10u);  // three counters per layer, at least a layer per seed
  EXPECT_GT(polls, 0u);
  EXPECT_EQ(perf_writes.size(), 4u) << "both values of both units' DMA_EN";
}

TEST(PdpRandom, Fp16DataHitsTheCounters) {
  const HwConfig& cfg = HwConfig::get("v1");
  uint64_t nan_in = 0, inf_in = 0, nan_out = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Program p = find_test_generator("pdp.random").generate(cfg, seed, {{"precision", "fp16"}, {"layers", "2"}});
    GoldenModel m(cfg, seed);
    ASSERT_TRUE(test::execute(p, m).failures.empty());
    for (unsigned g = 0; g < 2; ++g) {
      m.csb_write(*cfg.unit_base[static_cast<unsigned>(Unit::PDP)] + reg::PDP::S_POINTER::offset, g);
      auto rd = [&](uint32_t off) { return m.csb_read(*cfg.unit_base[static_cast<unsigned>(Unit::PDP)] + off); };
      nan_in += rd(reg::PDP::D_NAN_INPUT_NUM::offset);
      inf_in += rd(reg::PDP::D_INF_INPUT_NUM::offset);
      nan_out += rd(reg::PDP::D_NAN_OUTPUT_NUM::offset);
    }
  }
  EXPECT_GT(nan_in, 0u);
  EXPECT_GT(inf_in, 0u);
  EXPECT_GT(nan_out, 0u);
}

// fp16_data=wide: over a few layers' worth of draws every exponent (0 and 31 included), the
// largest mantissa, infinities, NaNs, exact negations and one-ulp neighbours of earlier values.
TEST(WideFp16Values, CoverTheWholeFormatWithCancellingPairs) {
  Rng r(11);
  std::set<unsigned> exponents;
  std::set<uint16_t> seen;
  unsigned nans = 0, infs = 0, negations = 0, neighbours = 0, full_mantissa = 0;
  for (int layer = 0; layer < 20; ++layer) {
    stimulus::WideFp16Values values(r);
    for (int i = 0; i < 200; ++i) {
      const uint16_t v = values.next();
      const unsigned e = (v >> 10) & 0x1F;
      exponents.insert(e);
      if (e == 31) ((v & 0x3FF) ? nans : infs)++;
      if ((v & 0x3FF) == 0x3FF && e != 31) ++full_mantissa;
      if ((v & 0x7FFF) != 0 && seen.count(v ^ 0x8000)) ++negations;
      if (e != 31 && (seen.count(v ^ 1) || seen.count(v ^ 0x8001))) ++neighbours;
      seen.insert(v);
    }
  }
  EXPECT_EQ(exponents.size(), 32u);
  EXPECT_GT(nans, 10u);
  EXPECT_GT(infs, 10u);
  EXPECT_GT(full_mantissa, 10u);
  EXPECT_GT(negations, 200u);
  EXPECT_GT(neighbours, 100u);
  // pad registers of any fp17: saturating exponents, Inf/NaN, the unused bits 17 and 18 set too
  stimulus::WideFp16Values pads(r);
  std::set<unsigned> pad_exponents;
  uint32_t high_bits = 0;
  for (int i = 0; i < 400; ++i) {
    const uint32_t v = pads.any_pad_register();
    EXPECT_LT(v, 1u << 19);
    pad_exponents.insert((v >> 10) & 0x3F);
    high_bits |= v >> 17;
  }
  for (unsigned e = 55; e <= 63; ++e) EXPECT_TRUE(pad_exponents.count(e)) << "pad exponent " << e;
  EXPECT_EQ(high_bits, 3u);
}

// Partners follow the lane: with 4 lanes, value i is derived from value i - 4 (same lane), so
// negations (exact or one ulp off) are far more common at that distance than between
// neighbouring lanes, where only the shared pool makes them.
TEST(WideFp16Values, PartnersFollowTheLane) {
  Rng r(5);
  const unsigned lanes = 4;
  unsigned same_lane = 0, other_lane = 0;
  for (int layer = 0; layer < 20; ++layer) {
    stimulus::WideFp16Values values(r, lanes);
    std::vector<uint16_t> v;
    for (int i = 0; i < 400; ++i) v.push_back(values.next());
    auto negation = [](uint16_t a, uint16_t b) {
      return (a & 0x7FFF) != 0 && (a & 0x7C00) != 0x7C00 && ((a ^ b) == 0x8000 || (a ^ b) == 0x8001);
    };
    for (size_t i = lanes; i < v.size(); ++i) {
      same_lane += negation(v[i - lanes], v[i]);
      other_lane += negation(v[i - 1], v[i]);
    }
  }
  EXPECT_GT(same_lane, 300u);
  EXPECT_GT(same_lane, 4 * other_lane) << "same lane " << same_lane << ", neighbouring lanes " << other_lane;
}

// fp16_data=wide on v1: every layer legal and clean on the golden model with the NaN/Inf input
// counters hit; the program differs from the default one, off ("usual") is the default, and a
// configuration without fp16 refuses the knob by name.
TEST(PdpRandom, WideFp16DataIsCleanAndUsualIsTheDefault) {
  const HwConfig& v1 = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("pdp.random");
  const Knobs wide{{"precision", "fp16"}, {"fp16_data", "wide"}, {"layers", "3"}};
  uint64_t nan_in = 0, inf_in = 0, layers = 0, any_pads = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Program p = g.generate(v1, seed, wide);
    GoldenModel m(v1, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    for (const LayerRecord& r : m.layers()) {
      if (r.unit != Unit::PDP) continue;
      ++layers;
      EXPECT_TRUE(r.completed) << "seed " << seed;
      const PdpLayer l = decode_pdp_registers(r.regs);
      EXPECT_TRUE(pdp_layer_violations(l, v1).empty()) << "seed " << seed;
      // pad registers of any fp17 (n times one fp16 value never sets the unused bits 17..18)
      any_pads += std::any_of(l.pad_value.begin(), l.pad_value.end(), [](uint32_t pad) { return (pad >> 17) != 0; });
    }
    for (unsigned grp = 0; grp < 2; ++grp) {
      m.csb_write(*v1.unit_base[static_cast<unsigned>(Unit::PDP)] + reg::PDP::S_POINTER::offset, grp);
      auto rd = [&](uint32_t off) { return m.csb_read(*v1.unit_base[static_cast<unsigned>(Unit::PDP)] + off); };
      nan_in += rd(reg::PDP::D_NAN_INPUT_NUM::offset);
      inf_in += rd(reg::PDP::D_INF_INPUT_NUM::offset);
    }
    const Knobs usual{{"precision", "fp16"}, {"layers", "3"}};
    Knobs usual_named = usual;
    usual_named["fp16_data"] = "usual";
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, usual_named)), test::writes_and_loads(g.generate(v1, seed, usual)))
        << "seed " << seed << ": fp16_data=usual is not the default";
    EXPECT_NE(test::writes_and_loads(p), test::writes_and_loads(g.generate(v1, seed, usual))) << "seed " << seed;
  }
  EXPECT_EQ(layers, 8u * 3u);
  EXPECT_GE(any_pads, 3u);  // a third of the fp16 layers
  EXPECT_LT(any_pads, layers);
  EXPECT_GT(nan_in, 0u);
  EXPECT_GT(inf_in, 0u);
  try {
    g.generate(HwConfig::get("small"), 1, {{"fp16_data", "wide"}});
    ADD_FAILURE() << "small has no fp16: fp16_data=wide must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fp16_data=wide"), std::string::npos) << e.what();
  }
  EXPECT_THROW(g.generate(v1, 1, {{"fp16_data", "narrow"}}), std::invalid_argument);
}

TEST(PdpRandom, KnobsAreValidatedAndSteerTheLayers) {
  const HwConfig& small = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  auto message = [&](const Knobs& k) -> std::string {
    try {
      g.generate(small, 1, k);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message({{"precision", "fp16"}}).find("all|int8"), std::string::npos);
  EXPECT_NE(message({{"method", "median"}}).find("average|max|min"), std::string::npos);
  EXPECT_NE(message({{"max_width", "0"}}).find("max_width"), std::string::npos);
  EXPECT_NE(message({{"nvdla_errata", "maybe"}}).find("allow|avoid"), std::string::npos);
  const Seen s = run_seeds("small", 7, 10, {{"method", "min"}, {"split_percent", "100"}, {"max_width", "30"}});
  EXPECT_EQ(s.features.count("average") + s.features.count("max"), 0u);
  EXPECT_TRUE(s.features.count("split"));
}

// nv_small's line buffer (128 atoms) is shared by the open input rows ceil(kh/sh), rounded
// up to a power of two; v1's holds 1024 output columns whatever the open rows.
TEST(PdpLineBuffer, ColumnsFollowTheOpenRows) {
  const HwConfig& small = HwConfig::get("small");
  PdpLayer l;
  auto cols = [&](uint32_t kh, uint32_t sh) {
    l.kernel_h = kh, l.stride_h = sh;
    return pdp_line_buffer_columns(l, small);
  };
  EXPECT_EQ(cols(1, 1), 128u);
  EXPECT_EQ(cols(3, 3), 128u);
  EXPECT_EQ(cols(2, 1), 64u);
  EXPECT_EQ(cols(8, 4), 64u);
  EXPECT_EQ(cols(3, 1), 32u);
  EXPECT_EQ(cols(7, 2), 32u);  // 4 open rows
  EXPECT_EQ(cols(7, 3), 32u);  // 3 open rows
  EXPECT_EQ(cols(5, 1), 16u);
  EXPECT_EQ(cols(8, 1), 16u);
  EXPECT_EQ(pdp_line_buffer_columns(l, HwConfig::get("v1")), 1024u);

  l = PdpLayer{};
  l.kernel_w = l.kernel_h = 5;
  l.width = 20, l.height = 5;
  l.out_width = pdp_output_size(20, 0, 0, 5, 1);  // 16: fits
  EXPECT_TRUE(pdp_layer_violations(l, small).empty());
  l.width = 21, l.out_width = 17;
  const auto v = pdp_layer_violations(l, small);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("line buffer"), std::string::npos) << v[0];
  EXPECT_TRUE(pdp_layer_violations(l, HwConfig::get("v1")).empty());
  l.width = 1028, l.out_width = 1024;  // v1: 1024 columns fit, 1025 do not
  EXPECT_TRUE(pdp_layer_violations(l, HwConfig::get("v1")).empty());
  l.width = 1029, l.out_width = 1025;
  const auto v1 = pdp_layer_violations(l, HwConfig::get("v1"));
  ASSERT_EQ(v1.size(), 1u);
  EXPECT_NE(v1[0].find("1024"), std::string::npos) << v1[0];
}

// Layers up to the cube's 8192 columns: v1 splits those wider than its 1024-column line buffer
// (unsplit, its RTL wrote wrong data past column 1024).
TEST(PdpRandom, WideLayersAreSplitToFitTheLineBufferOnV1) {
  const Seen s = run_seeds("v1", 1, 8, {{"max_width", "8192"}, {"max_height", "2"}, {"split_percent", "0"}, {"layers", "3"}});
  EXPECT_TRUE(s.features.count("split")) << "no layer was wide enough to need a split";
}

// Heights up to the cube's 8192 rows: the height pass's row counters and clamps above bit 10
// (small PDP mutants 159 and 231 need more than 2048 rows).
TEST(PdpRandom, TallLayersReachTheCubesHeightLimit) {
  const Seen s = run_seeds("small", 1, 3, {{"max_height", "8192"}, {"max_width", "2"}, {"max_channels", "8"}, {"layers", "2"}});
  EXPECT_TRUE(s.features.count("taller_than_2048")) << "no layer was taller than 2048 rows";
}

// A layer too wide for 256 stripes of the few columns a tall kernel leaves (seed 24 drew 7031
// columns under a 7-row kernel on small: 16 columns a stripe) is narrowed until it splits; the
// generator threw "no split fits the line buffer" for that seed before.
TEST(PdpRandom, LayersTooWideForEveryStripeCountAreNarrowedNotRefused) {
  const Knobs wide{{"layers", "3"}, {"max_width", "8192"}, {"max_height", "2"}, {"max_channels", "8"}, {"split_percent", "50"}};
  const Seen s = run_seeds("small", 24, 1, wide);
  EXPECT_TRUE(s.features.count("split"));
}

TEST(PdpRandom, WideLayersAreSplitToFitTheLineBufferOnSmall) {
  const Seen s = run_seeds("small", 1, 25, {{"max_width", "400"}, {"split_percent", "0"}, {"layers", "2"}});
  EXPECT_TRUE(s.features.count("split")) << "no layer was wide enough to need a split";
}

// Trimming removes exactly the rows/columns after the last window and keeps the output.
TEST(PdpNvdlaErrata, TrimRemovesUnusedEdgesKeepingTheOutput) {
  PdpLayer l;
  l.kernel_w = 3, l.stride_w = 2, l.pad_left = 1, l.pad_right = 2, l.width = 10;  // plane 13: 6 windows, 0 unused
  l.kernel_h = 2, l.stride_h = 3, l.pad_top = 0, l.pad_bottom = 1, l.height = 9;   // plane 10: 3 windows, 2 unused
  EXPECT_EQ(pdp_unused_columns(l), 0u);
  EXPECT_EQ(pdp_unused_rows(l), 2u);
  l.width = 11;  // plane 14: one unused, taken from the right pad
  EXPECT_EQ(pdp_unused_columns(l), 1u);
  pdp_trim_unused_edges(l);
  EXPECT_EQ(l.pad_bottom, 0u);
  EXPECT_EQ(l.height, 8u);  // the pad gives one row, the input the other
  EXPECT_EQ(l.pad_right, 1u);
  EXPECT_EQ(l.width, 11u);
  EXPECT_EQ(pdp_unused_rows(l) + pdp_unused_columns(l), 0u);
  EXPECT_EQ(pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w), 6u);
  EXPECT_EQ(pdp_output_size(l.height, l.pad_top, l.pad_bottom, l.kernel_h, l.stride_h), 3u);
}

// nvdla_errata=avoid trims the layer 'allow' draws; it never leaves unused edges.
TEST(PdpRandom, AvoidingNvdlaErrataTrimsTheSameLayers) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("pdp.random");
  unsigned trimmed = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::vector<PdpLayer> layers[2];
    for (int avoid = 0; avoid < 2; ++avoid) {
      GoldenModel m(cfg, seed);
      const Program p = g.generate(cfg, seed, {{"nvdla_errata", avoid ? "avoid" : "allow"}});
      ASSERT_TRUE(test::execute(p, m).failures.empty()) << "seed " << seed;
      for (const LayerRecord& r : m.layers())
        if (r.unit == Unit::PDP) layers[avoid].push_back(decode_pdp_registers(r.regs));
    }
    ASSERT_FALSE(layers[0].empty());
    for (const PdpLayer& l : layers[1]) {
      EXPECT_EQ(pdp_unused_rows(l), 0u) << "seed " << seed;
      EXPECT_EQ(pdp_unused_columns(l), 0u) << "seed " << seed;
    }
    const PdpLayer &a = layers[0][0], &b = layers[1][0];  // later layers may draw differently
    EXPECT_EQ(std::tie(a.kernel_w, a.kernel_h, a.stride_w, a.stride_h, a.pad_left, a.pad_top, a.out_width, a.out_height),
              std::tie(b.kernel_w, b.kernel_h, b.stride_w, b.stride_h, b.pad_left, b.pad_top, b.out_width, b.out_height))
        << "seed " << seed;
    EXPECT_EQ(a.width + a.pad_right - b.width - b.pad_right, pdp_unused_columns(a)) << "seed " << seed;
    EXPECT_EQ(a.height + a.pad_bottom - b.height - b.pad_bottom, pdp_unused_rows(a)) << "seed " << seed;
    trimmed += pdp_unused_rows(a) + pdp_unused_columns(a) != 0;
  }
  EXPECT_GT(trimmed, 5u) << "'allow' layers rarely had unused edges: the test proves little";
}

// On-flying PDP cannot split: sdp_pdp narrows wide layers to the line buffer instead.
TEST(SdpPdpRandom, WideLayersAreNarrowedToTheLineBufferOnSmall) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("sdp_pdp.random");
  unsigned wide = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    GoldenModel m(cfg, seed);
    const Program p = g.generate(cfg, seed, {{"max_width", "300"}, {"nvdla_errata", "avoid"}});
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    for (const LayerRecord& r : m.layers()) {
      if (r.unit != Unit::PDP) continue;
      const PdpLayer l = decode_pdp_registers(r.regs);
      EXPECT_EQ(l.split_num, 0u);
      const auto v = pdp_layer_violations(l, cfg);
      EXPECT_TRUE(v.empty()) << "seed " << seed << ": " << v[0];
      EXPECT_EQ(pdp_unused_rows(l) + pdp_unused_columns(l), 0u) << "seed " << seed;
      wide += l.out_width == pdp_line_buffer_columns(l, cfg);
    }
  }
  EXPECT_GT(wide, 0u) << "no layer was narrowed to the line buffer";
}

TEST(PdpIllegal, FormatMismatchRunsWithPdpFormatGoverning) {
  const HwConfig& cfg = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("pdp.illegal");
  EXPECT_FALSE(g.supports(HwConfig::get("small")));
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Program p = g.generate(cfg, seed);
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << res.failures[0];
    ASSERT_EQ(m.warnings().size(), 1u);
    EXPECT_NE(m.warnings()[0].find("D_DATA_FORMAT"), std::string::npos) << m.warnings()[0];
  }
}

TEST(PdpIllegal, UndefinedCasesAreRefusedNamingTheRule) {
  const HwConfig& cfg = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("pdp.illegal");
  const std::pair<const char*, const char*> cases[] = {{"out_width", "D_DATA_CUBE_OUT_WIDTH"},
                                                       {"out_height", "D_DATA_CUBE_OUT_HEIGHT"},
                                                       {"out_channel", "D_DATA_CUBE_OUT_CHANNEL"},
                                                       {"partial_widths", "D_PARTIAL_WIDTH"},
                                                       {"pad_not_below_kernel", "D_POOLING_PADDING_CFG"},
                                                       {"reserved_format", "reserved"}};
  for (const auto& [c, rule] : cases)
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      try {
        g.generate(cfg, seed, {{"case", c}});
        ADD_FAILURE() << c << " was not refused";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(rule), std::string::npos) << c << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find("case=" + std::string(c)), std::string::npos) << e.what();
      }
    }
}

}  // namespace
}  // namespace dla
