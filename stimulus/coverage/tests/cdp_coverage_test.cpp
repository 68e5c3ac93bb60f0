// CDP coverage model over golden-model runs of cdp.random: no illegal bin, the LUT cases in
// both LE modes, every priority, every LUT counter and the saturation / NaN outcome bins.
#include <gtest/gtest.h>

#include <map>

#include "dla/coverage/unit_coverage.h"
#include "dla/golden_model.h"
#include "dla/test_generator.h"

namespace dla::cov {
namespace {

// The CDP model alone (other units' models are tested on their own).
CoverageData cdp_only(const CoverageInput& in) {
  CoverageData d;
  for (const UnitCoverageModel& m : unit_coverage_models())
    if (m.unit == "cdp")
      if (auto u = m.make(in.config)) {
        u->sample(in);
        for (GroupData& g : u->data()) d.add(std::move(g));
      }
  return d;
}

CoverageData merged_cdp(const HwConfig& cfg, uint64_t seeds) {
  CoverageData all;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"layers", "4"}});
    GoldenModel m(cfg, seed);
    for (const ProgramOp& op : p.ops) {
      if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
      if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes.data(), l->bytes.size());
    }
    const auto control = control_events(p);
    const CoverageData d = cdp_only(CoverageInput{cfg, m.layers(), control});
    EXPECT_TRUE(d.illegal_hits().empty()) << cfg.name << " seed " << seed;
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

TEST(CdpCoverage, RandomSeedsReachTheNamedBins) {
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const CoverageData d = merged_cdp(cfg, 60);
    for (const char* c : {"overlap_le_lo", "overlap_lo_le", "disjoint_le_lo", "disjoint_lo_le", "lo_inside_le",
                          "le_inside_lo"})
      EXPECT_GT(hits(d, "cdp.layer", "lut_case", c), 0u) << name << " " << c;
    for (const char* p : {"hou", "hoU", "hOu", "hOU", "Hou", "HoU", "HOu", "HOU"})
      EXPECT_GT(hits(d, "cdp.layer", "priority", p), 0u) << name << " " << p;
    for (const char* c : {"lut_uflow", "lut_oflow", "lut_hybrid", "lut_le_hit", "lut_lo_hit"})
      EXPECT_GT(hits(d, "cdp.outcome", c, "some"), 0u) << name << " " << c;
    if (cfg.cdp_out_saturation) {
      EXPECT_GT(hits(d, "cdp.outcome", "out_saturation", "some"), 0u) << name;
    } else {
      EXPECT_GT(hits(d, "cdp.outcome", "out_saturation", "none"), 0u) << name << " (no counter: it reads 0)";
    }
    if (cfg.supports(Precision::Fp16)) {
      for (const char* c : {"nan_input", "inf_input", "nan_output"})
        EXPECT_GT(hits(d, "cdp.outcome", c, "some"), 0u) << name << " " << c;
    }
    EXPECT_GE(d.group("cdp.outcome")->percent(), 90.0) << name;
    EXPECT_GE(d.group("cdp.layer")->percent(), 70.0) << name;
  }
}

// small has no saturation counter, so its out_saturation item lacks the "some" bin, but a bin
// both configurations have keeps one kind: a kind conflict makes the regression drop a whole
// coverage file from its merge. (Other CDP items still differ in kind between the
// configurations: the coverage-merge issue.)
TEST(CdpCoverage, OutSaturationBinsOfBothConfigurationsAgreeInKind) {
  std::map<std::string, BinKind> kinds[2];
  const char* names[2] = {"small", "v1"};
  for (int c = 0; c < 2; ++c) {
    const CoverageData d = merged_cdp(HwConfig::get(names[c]), 3);
    for (const ItemData& i : d.group("cdp.outcome")->items)
      if (i.name == "out_saturation")
        for (const BinData& b : i.bins) kinds[c][b.name] = b.kind;
  }
  EXPECT_EQ(kinds[0].count("some"), 0u) << "small has no counter: no 'some' bin, not even ignored";
  EXPECT_EQ(kinds[1].count("some"), 1u);
  for (const auto& [bin, kind] : kinds[0])
    if (kinds[1].count(bin)) {
      EXPECT_EQ(kind, kinds[1].at(bin)) << "out_saturation." << bin;
    }
}

}  // namespace
}  // namespace dla::cov
