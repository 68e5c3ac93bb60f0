// rubik.random and rubik.illegal: programs that pass on the golden model (their output checks
// are the spec's formulas, computed by the generator), the spread of what rubik.random draws,
// knobs, the configurations without RUBIK, the refused cases and the golden model's refusal of
// them, and the output checks failing on a RUBIK that does not move the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "dla/golden_model.h"
#include "dla/planted_bug.h"
#include "dla/regs.gen.h"
#include "dla/rubik_layer.h"
#include "dla/test_generator.h"
#include "program_executor.h"
#include "rubik_illegal.h"

namespace dla {
namespace {

const HwConfig& v1() { return HwConfig::get("v1"); }

std::string message(const std::string& test, const HwConfig& cfg, const Knobs& k) {
  try {
    find_test_generator(test).generate(cfg, 1, k);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RubikRandom, FortySeedsPassOnTheGoldenModelAndSweepModesSizesAndStrides) {
  std::set<std::string> seen;
  size_t layers = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Program p = find_test_generator("rubik.random").generate(v1(), seed);
    GoldenModel m(v1(), seed);
    const auto res = test::execute(p, m);
    ASSERT_TRUE(res.failures.empty()) << res.failures.size() << " failures, first: " << res.failures[0];
    EXPECT_TRUE(m.warnings().empty()) << m.warnings()[0];
    EXPECT_EQ(std::count_if(p.ops.begin(), p.ops.end(), [](const ProgramOp& op) { return std::holds_alternative<CheckMem>(op); }),
              4) << "one output check per layer";
    for (const LayerRecord& r : m.layers()) {
      ASSERT_EQ(r.unit, Unit::RBK);
      EXPECT_TRUE(r.completed);
      const RubikLayer l = decode_rubik_registers(r.regs);
      const std::string mode = rubik_mode_name(l.rubik_mode());
      seen.insert(mode + "/" + precision_name(static_cast<Precision>(l.precision)));
      seen.insert(std::string("in/") + mem_port_name(l.in_port));
      seen.insert(std::string("out/") + mem_port_name(l.out_port));
      seen.insert("group/" + std::to_string(r.group));
      if (l.width == 1) seen.insert("width/1");
      if (l.width > kRubikChunkElements) seen.insert("width/above_chunk");
      if (mode != "contract" && l.channels % l.lanes() != 0) seen.insert(mode + "/pad_lanes");
      if (mode == "contract" && l.stride_x > 1 && l.stride_y > 1) seen.insert("contract/sx_and_sy");
      if (mode == "contract" && l.contract1 != l.stride_y * l.out_line) seen.insert("contract/k1_other");
      if (mode == "split" && l.out_channels < l.channels) seen.insert("split/plane_subset");
      if (mode != "contract" && l.out_line > (mode == "split" ? l.plane_row_bytes() : uint64_t{l.width} * 32))
        seen.insert(mode + "/gapped_lines");
      if (l.in >> 32 || l.out >> 32) seen.insert("above_4GiB");
      ++layers;
    }
  }
  EXPECT_EQ(layers, 160u);
  for (const char* want : {"contract/int8", "contract/int16", "contract/fp16", "split/int8", "split/int16", "split/fp16",
                           "merge/int8", "merge/int16", "merge/fp16", "in/dbb", "in/sram", "out/dbb", "out/sram",
                           "group/0", "group/1", "width/1", "width/above_chunk", "split/pad_lanes", "merge/pad_lanes",
                           "contract/sx_and_sy", "contract/k1_other", "split/plane_subset", "split/gapped_lines",
                           "merge/gapped_lines", "above_4GiB"})
    EXPECT_TRUE(seen.count(want)) << want;
}

TEST(RubikRandom, KnobsRestrictModePrecisionAndPorts) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Program p = find_test_generator("rubik.random")
                          .generate(v1(), seed, {{"mode", "split"}, {"precision", "fp16"}, {"ports", "sram"}, {"layers", "3"}});
    GoldenModel m(v1(), seed);
    const auto res = test::execute(p, m);
    ASSERT_TRUE(res.failures.empty()) << res.failures[0];
    ASSERT_EQ(m.layers().size(), 3u);
    for (const LayerRecord& r : m.layers()) {
      const RubikLayer l = decode_rubik_registers(r.regs);
      EXPECT_EQ(l.rubik_mode(), RubikMode::Split);
      EXPECT_EQ(l.precision, 2u);
      EXPECT_EQ(l.in_port, MemPort::Sram);
      EXPECT_EQ(l.out_port, MemPort::Sram);
    }
  }
  EXPECT_NE(message("rubik.random", v1(), {{"mode", "shuffle"}}).find("all|contract|split|merge"), std::string::npos);
  EXPECT_NE(message("rubik.random", v1(), {{"max_deconv_stride", "33"}}).find("[1, 32]"), std::string::npos);
}

// high_address_percent=100 puts every DBB region above 2^40 (the programs still pass); 0 is the
// default and leaves the program as it is without the knob.
TEST(RubikRandom, HighAddressKnobMovesDbbRegionsAbove2To40) {
  const auto& g = find_test_generator("rubik.random");
  auto layers = [&](uint64_t seed, const Knobs& k) {
    const Program p = g.generate(v1(), seed, k);
    GoldenModel m(v1(), seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << res.failures[0];
    std::vector<RubikLayer> out;
    for (const LayerRecord& r : m.layers()) out.push_back(decode_rubik_registers(r.regs));
    return out;
  };
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto plain = layers(seed, {{"ports", "dbb"}});
    const auto zero = layers(seed, {{"ports", "dbb"}, {"high_address_percent", "0"}});
    const auto high = layers(seed, {{"ports", "dbb"}, {"high_address_percent", "100"}});
    ASSERT_EQ(plain.size(), zero.size());
    ASSERT_FALSE(high.empty());
    for (size_t i = 0; i < plain.size(); ++i) {
      EXPECT_EQ(plain[i].in, zero[i].in);
      EXPECT_EQ(plain[i].out, zero[i].out);
      EXPECT_LT(plain[i].in, uint64_t{1} << 40);
    }
    for (const RubikLayer& l : high) {
      EXPECT_GE(l.in, uint64_t{1} << 40);
      EXPECT_GE(l.out, uint64_t{1} << 40);
    }
  }
}

// Knobs at their limits describe layers of gigabytes; drawn layers are shrunk to 4 MiB.
TEST(RubikRandom, KnobsAtTheirLimitsStayBounded) {
  const Knobs huge = {{"max_width", "8192"}, {"max_height", "8192"}, {"max_channels", "8192"},
                      {"max_deconv_stride", "32"}, {"layers", "2"}};
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const Program p = find_test_generator("rubik.random").generate(v1(), seed, huge);
    GoldenModel m(v1(), seed);
    const auto res = test::execute(p, m);
    ASSERT_TRUE(res.failures.empty()) << res.failures[0];
    for (const LayerRecord& r : m.layers()) {
      const RubikLayer l = decode_rubik_registers(r.regs);
      const uint64_t out = rubik_write_extent(l).end - rubik_write_extent(l).begin;
      EXPECT_LE(out, uint64_t{8} << 20) << rubik_mode_name(l.rubik_mode());
    }
  }
}

TEST(RubikRandom, ConfigurationsWithoutRubikAreRefused) {
  for (const char* test : {"rubik.random", "rubik.illegal"})
    for (const HwConfig& cfg : HwConfig::all()) {
      const TestGenerator& g = find_test_generator(test);
      EXPECT_EQ(g.supports(cfg), cfg.has_unit(Unit::RBK)) << test << " " << cfg.name;
      EXPECT_TRUE(g.needs_rubik) << test;
      if (!cfg.has_unit(Unit::RBK)) {
        EXPECT_NE(message(test, cfg, {}).find("no RUBIK"), std::string::npos) << cfg.name;
      }
    }
}

// The output checks are what fails when RUBIK misbehaves: a RUBIK that completes its layers
// without moving a byte fails every seed's first output check (the generator's expectation,
// not the golden model's memory, is the reference).
class IdleRubik final : public UnitModel {
 public:
  Unit unit() const override { return Unit::RBK; }
  std::optional<LayerResult> execute_layer(const RegisterSnapshot&, UnitContext&) override { return LayerResult{}; }
};

TEST(RubikRandom, OutputChecksFailOnARubikThatMovesNothing) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Program p = find_test_generator("rubik.random").generate(v1(), seed);
    GoldenModel m(v1(), seed);
    m.install(std::make_unique<IdleRubik>());
    const auto res = test::execute(p, m);
    ASSERT_FALSE(res.failures.empty()) << "seed " << seed;
    EXPECT_NE(res.failures[0].find("output range"), std::string::npos) << res.failures[0];
  }
}

// Checker proofs, golden-only: with a planted RUBIK defect the generator's output checks fail
// within a few seeds (there is no RUBIK RTL to prove them against yet).
TEST(RubikRandom, PlantedRubikBugsAreCaughtByTheOutputChecks) {
  for (const char* plant : {"rubik.split_tail", "rubik.contract_phase"}) {
    const golden::PlantedBugScope scope({plant});
    uint64_t caught = 0;
    for (uint64_t seed = 1; seed <= 20 && !caught; ++seed) {
      const Program p = find_test_generator("rubik.random").generate(v1(), seed);
      GoldenModel m(v1(), seed);
      const auto res = test::execute(p, m);
      if (!res.failures.empty()) {
        caught = seed;
        EXPECT_NE(res.failures[0].find("output range"), std::string::npos) << res.failures[0];
      }
    }
    EXPECT_NE(caught, 0u) << plant << " not caught within 20 seeds";
    std::cout << plant << " caught at seed " << caught << "\n";
  }
}

// ------------------------------------------------------------------ rubik.illegal

TEST(RubikIllegal, IgnoredFieldsRunsAndTheRestIsRefusedNamingTheRule) {
  for (const stimulus::RubikIllegalCase& c : stimulus::rubik_illegal_cases()) {
    SCOPED_TRACE(c.name);
    const std::string m = message("rubik.illegal", v1(), {{"case", c.name}});
    if (c.runs) {
      EXPECT_EQ(m, "");
    } else {
      EXPECT_NE(m.find("case=" + c.name + " is refused"), std::string::npos) << m;
      EXPECT_NE(m.find(c.rule), std::string::npos) << m;
    }
  }
  EXPECT_NE(message("rubik.illegal", v1(), {{"case", "nope"}}).find("ignored_fields"), std::string::npos);
}

TEST(RubikIllegal, IgnoredFieldsPassOnTheGoldenModel) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Program p = find_test_generator("rubik.illegal").generate(v1(), seed);
    GoldenModel m(v1(), seed);
    const auto res = test::execute(p, m);
    ASSERT_TRUE(res.failures.empty()) << res.failures[0];
    EXPECT_TRUE(m.warnings().empty()) << m.warnings()[0];
    ASSERT_EQ(m.layers().size(), 1u);
    EXPECT_TRUE(m.layers()[0].completed);
  }
}

TEST(RubikIllegal, TheGoldenModelRefusesEveryRefusedCaseWithItsRule) {
  for (const stimulus::RubikIllegalCase& c : stimulus::rubik_illegal_cases()) {
    if (c.runs) continue;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      SCOPED_TRACE(c.name + " seed " + std::to_string(seed));
      const Program p = stimulus::rubik_illegal_program(v1(), seed, c.name);
      GoldenModel m(v1(), seed);
      const auto res = test::execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << res.failures[0];
      ASSERT_EQ(m.layers().size(), 1u);
      EXPECT_FALSE(m.layers()[0].completed);
      EXPECT_EQ(m.intr_status(), 0u);
      const bool named = std::any_of(m.warnings().begin(), m.warnings().end(), [&](const std::string& w) {
        return w.find(c.golden_warning) != std::string::npos && w.find("refused") != std::string::npos;
      });
      EXPECT_TRUE(named) << (m.warnings().empty() ? "no warning" : m.warnings()[0]);
    }
  }
}

}  // namespace
}  // namespace dla
