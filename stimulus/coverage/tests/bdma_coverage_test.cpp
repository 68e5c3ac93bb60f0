#include <gtest/gtest.h>

#include <type_traits>

#include "dla/coverage/unit_coverage.h"
#include "dla/golden_model.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"

namespace dla::cov {
namespace {

namespace B = reg::BDMA;

// Plays the program's loads and writes on the golden model (waits and reads do not change it).
std::vector<LayerRecord> golden_layers(const HwConfig& cfg, const Program& p) {
  GoldenModel m(cfg, 1);
  for (const ProgramOp& op : p.ops) {
    if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
    if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes.data(), l->bytes.size());
  }
  return m.layers();
}

CoverageData coverage_of(const HwConfig& cfg, const Program& p) {
  const auto layers = golden_layers(cfg, p);
  const auto control = control_events(p);
  return sample_coverage(CoverageInput{cfg, layers, control});
}

const ItemData& item(const CoverageData& d, const std::string& group, const std::string& name) {
  for (const ItemData& i : d.group(group)->items)
    if (i.name == name) return i;
  throw std::logic_error("no item " + name);
}

uint64_t hits(const CoverageData& d, const std::string& group, const std::string& it, const std::string& bin) {
  for (const BinData& b : item(d, group, it).bins)
    if (b.name == bin) return b.hits;
  throw std::logic_error("no bin " + bin);
}

// A hand-made program: one op per batch, described by the caller.
struct Builder {
  const HwConfig& cfg;
  Program p;
  uint32_t reg(uint32_t off) const { return *cfg.unit_base[static_cast<unsigned>(Unit::BDMA)] + off; }
  void w(uint32_t off, uint32_t v) {
    RegWrite rw;
    rw.addr = reg(off);
    rw.data = v;
    p.ops.push_back(rw);
  }
  void op(uint32_t line_bytes, uint32_t lines, uint32_t src_stride, bool src_dbb, bool dst_dbb, uint64_t dst = 0x1000) {
    w(B::CFG_SRC_ADDR_LOW::offset, 0x2000);
    w(B::CFG_DST_ADDR_LOW::offset, static_cast<uint32_t>(dst));
    w(B::CFG_DST_ADDR_HIGH::offset, static_cast<uint32_t>(dst >> 32));
    w(B::CFG_LINE::offset, line_bytes / 32 - 1);
    w(B::CFG_CMD::offset, (src_dbb ? 1u : 0u) | (dst_dbb ? 2u : 0u));
    w(B::CFG_LINE_REPEAT::offset, lines - 1);
    w(B::CFG_SRC_LINE::offset, src_stride);
    w(B::CFG_DST_LINE::offset, line_bytes);
    w(B::CFG_SURF_REPEAT::offset, 0);
    w(B::CFG_OP::offset, 1);
  }
  void launch(unsigned g) { w(g ? B::CFG_LAUNCH1::offset : B::CFG_LAUNCH0::offset, 1); }
  void wait(unsigned g) {
    WaitIntr wi;
    wi.status_bits = 1u << (6 + g);
    p.ops.push_back(wi);
  }
};

TEST(BdmaCoverage, OperationsLandInTheirBins) {
  const HwConfig& cfg = HwConfig::get("v1");
  Builder b{cfg, {}};
  b.op(64, 1, 64, true, false);                    // single line: stride class ignored
  b.op(1024, 8, 1024 + 64, false, true, 0x1'0000'1000ull);  // gapped source, DBB above 4 GiB
  b.launch(0);
  b.wait(0);
  const CoverageData d = coverage_of(cfg, b.p);
  EXPECT_EQ(d.group("bdma.op")->samples, 2u);
  EXPECT_EQ(hits(d, "bdma.op", "line_bytes", "64"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "line_bytes", "288-1K"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "lines", "8"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "src_line_stride", "single"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "src_line_stride", "gapped"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "dst_line_stride", "packed"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "dst_region", "dbb_high"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "ports", "dbb,sram"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "ports", "sram,dbb"), 1u);
  EXPECT_EQ(hits(d, "bdma.op", "ports_x_group", "dbb,sram,0"), 1u);
  EXPECT_EQ(hits(d, "bdma.batch", "ops", "2"), 1u);
  EXPECT_TRUE(d.illegal_hits().empty());
}

TEST(BdmaCoverage, BackToBackIsALaunchWhileTheOtherGroupIsBusy) {
  const HwConfig& cfg = HwConfig::get("v1");
  Builder b{cfg, {}};
  b.op(32, 1, 32, true, true);
  b.launch(0);                 // other idle
  b.op(32, 1, 32, true, true);
  b.op(32, 1, 32, true, true);
  b.launch(1);                 // group 0 still busy
  b.wait(0);
  b.op(32, 1, 32, true, true);
  b.launch(0);                 // group 1 still busy
  b.wait(0);
  b.wait(1);
  b.op(32, 1, 32, true, true);
  b.launch(1);                 // both idle
  const CoverageData d = coverage_of(cfg, b.p);
  EXPECT_EQ(hits(d, "bdma.batch", "group_x_back_to_back", "0,other_idle"), 1u);
  EXPECT_EQ(hits(d, "bdma.batch", "group_x_back_to_back", "1,other_busy"), 1u);
  EXPECT_EQ(hits(d, "bdma.batch", "group_x_back_to_back", "0,other_busy"), 1u);
  EXPECT_EQ(hits(d, "bdma.batch", "group_x_back_to_back", "1,other_idle"), 1u);
  EXPECT_EQ(hits(d, "bdma.batch", "ops", "1"), 3u);
  EXPECT_EQ(hits(d, "bdma.batch", "ops", "2"), 1u);
}

TEST(BdmaCoverage, RepeatCountsBeyondTheStorePathAreIllegal) {
  const HwConfig& cfg = HwConfig::get("v1");
  Builder b{cfg, {}};
  b.op(32, 9000, 32, true, true);
  b.launch(0);
  const CoverageData d = coverage_of(cfg, b.p);
  ASSERT_EQ(d.illegal_hits().size(), 1u);
  EXPECT_EQ(d.illegal_hits()[0].item, "lines");
}

TEST(BdmaCoverage, RandomSeedsCoverTheBasicBins) {
  const HwConfig& cfg = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("bdma.random");
  CoverageData merged;
  for (uint64_t seed = 1; seed <= 10; ++seed) merged.merge(coverage_of(cfg, g.generate(cfg, seed)));
  EXPECT_EQ(item(merged, "bdma.op", "ports_x_group").hit_bins(), 8u);
  EXPECT_EQ(item(merged, "bdma.batch", "group_x_back_to_back").hit_bins(), 4u);
  EXPECT_GT((merged.group("bdma.op")->percent() + merged.group("bdma.batch")->percent()) / 2, 40.0);
  EXPECT_TRUE(merged.illegal_hits().empty());
}

TEST(BdmaCoverage, OnlyConfigurationsWithBdmaHaveItsGroups) {
  auto bdma_groups = [](const char* cfg) {
    std::vector<std::string> g;
    for (const std::string& n : covergroup_names(HwConfig::get(cfg)))
      if (n.rfind("bdma.", 0) == 0) g.push_back(n);
    return g;
  };
  EXPECT_EQ(bdma_groups("v1"), (std::vector<std::string>{"bdma.batch", "bdma.op"}));
  EXPECT_TRUE(bdma_groups("small").empty());
}

}  // namespace
}  // namespace dla::cov
