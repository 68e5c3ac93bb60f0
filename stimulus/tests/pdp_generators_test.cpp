// pdp.random and pdp.illegal: determinism, legality of every generated layer, coverage of
// the feature space over seeds, and the refusals of pdp.illegal.
#include <gtest/gtest.h>

#include <set>

#include "dla/golden_model.h"
#include "dla/pdp_layer.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "program_executor.h"

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
    }
  }
  return seen;
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
  const Seen s = run_seeds("small", 7, 10, {{"method", "min"}, {"split_percent", "100"}, {"max_width", "30"}});
  EXPECT_EQ(s.features.count("average") + s.features.count("max"), 0u);
  EXPECT_TRUE(s.features.count("split"));
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
