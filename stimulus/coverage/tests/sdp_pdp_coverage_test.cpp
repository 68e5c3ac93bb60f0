// SDP and PDP coverage models over golden-model runs of their random tests: no illegal bin
// is ever hit by legal stimulus, the bins the issues name are reached, and the per-group
// percentages a modest number of seeds reaches (the nightly plan runs more).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "dla/coverage/unit_coverage.h"
#include "dla/golden_model.h"
#include "dla/test_generator.h"

namespace dla::cov {
namespace {

CoverageData run(const HwConfig& cfg, const std::string& test, uint64_t seed, const Knobs& knobs = {}) {
  const Program p = find_test_generator(test).generate(cfg, seed, knobs);
  GoldenModel m(cfg, seed);
  for (const ProgramOp& op : p.ops) {
    if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
    if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes.data(), l->bytes.size());
  }
  const auto control = control_events(p);
  return sample_coverage(CoverageInput{cfg, m.layers(), control});
}

CoverageData merged(const HwConfig& cfg, const std::string& test, uint64_t seeds, const Knobs& knobs = {}) {
  CoverageData all;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const CoverageData d = run(cfg, test, seed, knobs);
    EXPECT_TRUE(d.illegal_hits().empty()) << cfg.name << " " << test << " seed " << seed << ": "
                                          << d.illegal_hits().front().item << "." << d.illegal_hits().front().bin;
    all.merge(d);
  }
  return all;
}

uint64_t hits(const CoverageData& d, const std::string& group, const std::string& item, const std::string& bin) {
  for (const ItemData& i : d.group(group)->items)
    if (i.name == item)
      for (const BinData& b : i.bins)
        if (b.name == bin) return b.hits;
  ADD_FAILURE() << "no bin " << group << "." << item << "." << bin;
  return 0;
}

std::string holes_of(const CoverageData& d, const std::string& group) {
  std::string s;
  for (const Hole& h : d.holes())
    if (h.group == group) s += " " + h.item + "." + h.bin;
  return s;
}

TEST(SdpCoverage, GroupsPerConfigurationAndNoIllegalHitsOverRandomSeeds) {
  for (const char* name : {"v1", "small"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const auto groups = covergroup_names(cfg);
    // small is nv_small: no EW stage, no LUT, so no sdp.lut group and no EW/LUT items.
    const bool lut = std::string(name) == "v1";
    EXPECT_EQ(cfg.sdp_lut, lut);
    std::vector<std::string> expected = {"sdp.precision", "sdp.stages", "sdp.outcome"};
    if (lut) expected.push_back("sdp.lut");
    for (const std::string& g : expected)
      EXPECT_NE(std::find(groups.begin(), groups.end(), g), groups.end()) << name << " " << g;
    EXPECT_EQ(std::find(groups.begin(), groups.end(), "sdp.lut") != groups.end(), lut) << name;
    const CoverageData d = merged(cfg, "sdp.random", 150, {{"layers", "4"}});
    for (const std::string& g : expected) {
      const GroupData* gd = d.group(g);
      ASSERT_NE(gd, nullptr) << g;
      EXPECT_GE(gd->percent(), 80.0) << name << " " << g << " holes:" << holes_of(d, g);
    }
    EXPECT_GT(hits(d, "sdp.outcome", "saturation", "int_to_int8"), 0u) << name;
    if (!lut) {
      for (const ItemData& i : d.group("sdp.stages")->items) EXPECT_EQ(i.name.find("ew"), std::string::npos) << i.name;
      continue;
    }
    for (const char* c : {"overlap_le_first", "overlap_lo_first", "disjoint_le_first", "disjoint_lo_first", "lo_inside_le",
                          "le_inside_lo"})
      for (const char* f : {"exponent", "linear"})
        EXPECT_GT(hits(d, "sdp.lut", "function_x_case", fmt::format("{},{}", f, c)), 0u) << name << " " << f << " " << c;
    for (const char* c : {"lut_uflow", "lut_oflow", "lut_hybrid", "lut_le_hit", "lut_lo_hit"})
      EXPECT_GT(hits(d, "sdp.outcome", c, "nonzero"), 0u) << name << " " << c;
    if (cfg.supports(Precision::Fp16)) {
      for (const char* c : {"nan_in", "inf_in", "nan_out"}) EXPECT_GT(hits(d, "sdp.outcome", c, "nonzero"), 0u) << c;
    }
  }
}

TEST(PdpCoverage, GroupsPerConfigurationAndNoIllegalHitsOverRandomSeeds) {
  for (const char* name : {"v1", "small"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const CoverageData d = merged(cfg, "pdp.random", 100);
    for (const char* g : {"pdp.layer", "pdp.outcome"}) {
      const GroupData* gd = d.group(g);
      ASSERT_NE(gd, nullptr) << g;
      EXPECT_GE(gd->percent(), 80.0) << name << " " << g << " holes:" << holes_of(d, g);
    }
    EXPECT_GT(hits(d, "pdp.outcome", "method_x_window_padding", "average,some_padded"), 0u) << name;
    for (const char* s : {"off", "2", "3-5"}) EXPECT_GT(hits(d, "pdp.layer", "split", s), 0u) << name << " split " << s;
    if (cfg.supports(Precision::Fp16)) {
      for (const char* c : {"nan_in", "inf_in", "nan_out"}) EXPECT_GT(hits(d, "pdp.outcome", c, "nonzero"), 0u) << c;
    }
  }
}

// The golden model's completed layer records carry the counters latched at done, which the
// outcome bins read: a layer with a NaN output shows in nan_out.
TEST(SdpCoverage, OutcomeBinsReadTheLatchedCounters) {
  const HwConfig& cfg = HwConfig::get("v1");
  uint64_t nan_out = 0;
  for (uint64_t seed = 1; seed <= 40 && nan_out == 0; ++seed) nan_out += hits(run(cfg, "sdp.random", seed), "sdp.outcome", "nan_out", "nonzero");
  EXPECT_GT(nan_out, 0u);
}

}  // namespace
}  // namespace dla::cov
