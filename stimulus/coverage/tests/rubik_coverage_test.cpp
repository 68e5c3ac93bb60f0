// RUBIK coverage model: the class limits of each item on hand-made layer records, the
// back-to-back detection on hand-made register traffic, and 60 rubik.random golden runs (no
// illegal hit, the named bins reached, both groups well covered).
#include <gtest/gtest.h>

#include "dla/coverage/unit_coverage.h"
#include "dla/golden_model.h"
#include "dla/regs.gen.h"
#include "dla/rubik_layer.h"
#include "dla/test_generator.h"

namespace dla::cov {
namespace {

namespace R = reg::RBK;

const HwConfig& v1() { return HwConfig::get("v1"); }

CoverageData rubik_only(const CoverageInput& in) {
  CoverageData d;
  for (const UnitCoverageModel& m : unit_coverage_models())
    if (m.unit == "rubik")
      if (auto u = m.make(in.config)) {
        u->sample(in);
        for (GroupData& g : u->data()) d.add(std::move(g));
      }
  return d;
}

uint64_t hits(const CoverageData& d, const std::string& group, const std::string& item, const std::string& bin) {
  for (const ItemData& i : d.group(group)->items)
    if (i.name == item)
      for (const BinData& b : i.bins)
        if (b.name == bin) return b.hits;
  ADD_FAILURE() << "no bin " << group << "." << item << "." << bin;
  return 0;
}

LayerRecord record(const RubikLayer& l, int group = 0) {
  LayerRecord r;
  r.unit = Unit::RBK;
  r.group = group;
  r.completed = true;
  r.regs.unit = Unit::RBK;
  r.regs.group = group;
  r.regs.values = rubik_register_values(l);
  return r;
}

CoverageData sample_layers(const std::vector<LayerRecord>& layers, const std::vector<ControlEvent>& control = {}) {
  return rubik_only(CoverageInput{v1(), layers, control});
}

RubikLayer split(Precision p, uint32_t width, uint32_t channels) {
  RubikLayer l;
  l.mode = 1, l.precision = static_cast<uint32_t>(p), l.width = width, l.height = 1;
  l.channels = l.out_channels = channels;
  l.in_line = width * 32, l.in_surface = width * 32;
  l.out_line = l.plane_row_bytes(), l.out_planar = l.plane_row_bytes();
  return l;
}

TEST(RubikCoverage, WidthChannelAndTailClassLimits) {
  const auto d = sample_layers({record(split(Precision::Int8, 1, 1)), record(split(Precision::Int8, 8, 31)),
                                record(split(Precision::Int8, 9, 32)), record(split(Precision::Int8, 63, 64)),
                                record(split(Precision::Int16, 64, 16)), record(split(Precision::Fp16, 65, 33)),
                                record(split(Precision::Fp16, 17, 2))});
  EXPECT_EQ(hits(d, "rubik.layer", "width", "1"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "width", "2-8"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "width", "9-63"), 3u);
  EXPECT_EQ(hits(d, "rubik.layer", "width", "64"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "width", "65+"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "channels", "1"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "channels", "below_atom"), 2u);  // 31 int8, 2 fp16
  EXPECT_EQ(hits(d, "rubik.layer", "channels", "one_atom"), 2u);    // 32 int8, 16 int16
  EXPECT_EQ(hits(d, "rubik.layer", "channels", "multiple"), 1u);    // 64 int8
  EXPECT_EQ(hits(d, "rubik.layer", "channels", "unaligned"), 1u);   // 33 fp16
  // Tails: 1, 8, 9, 63 bytes and 65*2, 17*2 bytes end inside an atom; 64*2 does not.
  EXPECT_EQ(hits(d, "rubik.layer", "width_tail", "tail"), 6u);
  EXPECT_EQ(hits(d, "rubik.layer", "width_tail", "atom_aligned"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "planes", "all"), 7u);
  EXPECT_EQ(hits(d, "rubik.layer", "out_layout", "packed"), 7u);
  EXPECT_EQ(hits(d, "rubik.layer", "stride_x", "n/a"), 7u);
  EXPECT_TRUE(d.illegal_hits().empty());
}

TEST(RubikCoverage, ContractStridesAndLayouts) {
  RubikLayer l;
  l.mode = 0, l.precision = 0, l.width = 2, l.height = 2, l.out_channels = 40, l.stride_x = 9, l.stride_y = 2;
  l.in_line = 64, l.in_surface = 128, l.contract0 = 256;
  l.out_line = 2 * 9 * 32, l.contract1 = 2 * l.out_line, l.out_surface = 2 * l.contract1;
  RubikLayer gapped = l;
  gapped.contract1 += 32, gapped.out_surface += 64;
  const auto d = sample_layers({record(l), record(gapped, 1)});
  EXPECT_EQ(hits(d, "rubik.layer", "stride_x", "9-32"), 2u);
  EXPECT_EQ(hits(d, "rubik.layer", "stride_y", "2-8"), 2u);
  EXPECT_EQ(hits(d, "rubik.layer", "stride_x_x_stride_y", "9-32,2-8"), 2u);
  EXPECT_EQ(hits(d, "rubik.layer", "contract_stride_1", "sy_lines"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "contract_stride_1", "other"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "out_layout", "packed"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "out_layout", "gapped"), 1u);
  EXPECT_EQ(hits(d, "rubik.layer", "channels", "unaligned"), 2u) << "Co = 40 int8";
  EXPECT_EQ(hits(d, "rubik.layer", "width_tail", "n/a"), 2u);
  EXPECT_EQ(hits(d, "rubik.layer", "group", "1"), 1u);
}

TEST(RubikCoverage, ReservedModeAndPrecisionAreIllegal) {
  RubikLayer l = split(Precision::Int8, 4, 4);
  l.mode = 3;
  RubikLayer p = split(Precision::Int8, 4, 4);
  p.precision = 3;
  const auto d = sample_layers({record(l), record(p)});
  EXPECT_EQ(d.illegal_hits().size(), 2u);
}

TEST(RubikCoverage, BackToBackArmingFromTheRegisterTraffic) {
  const uint32_t rbk = *v1().unit_base[static_cast<unsigned>(Unit::RBK)];
  using K = ControlEvent::Kind;
  const std::vector<ControlEvent> control = {
      {K::Write, rbk + R::S_POINTER::offset, 0}, {K::Write, rbk + R::D_OP_ENABLE::offset, 1},  // group 0, other idle
      {K::Write, rbk + R::S_POINTER::offset, 1}, {K::Write, rbk + R::D_OP_ENABLE::offset, 1},  // group 1 behind 0
      {K::WaitIntr, 0, 1u << 8},                                                                  // group 0 done
      {K::Write, rbk + R::S_POINTER::offset, 0}, {K::Write, rbk + R::D_OP_ENABLE::offset, 1},  // group 0 behind 1
      {K::WaitIntr, 0, 3u << 8},
      {K::Write, rbk + R::S_POINTER::offset, 1}, {K::Write, rbk + R::D_OP_ENABLE::offset, 0},  // not an arming
      {K::Write, rbk + R::D_OP_ENABLE::offset, 1}};                                              // group 1, other idle
  const auto d = sample_layers({}, control);
  EXPECT_EQ(d.group("rubik.flow")->samples, 4u);
  EXPECT_EQ(hits(d, "rubik.flow", "group_x_back_to_back", "0,other_idle"), 1u);
  EXPECT_EQ(hits(d, "rubik.flow", "group_x_back_to_back", "1,other_outstanding"), 1u);
  EXPECT_EQ(hits(d, "rubik.flow", "group_x_back_to_back", "0,other_outstanding"), 1u);
  EXPECT_EQ(hits(d, "rubik.flow", "group_x_back_to_back", "1,other_idle"), 1u);
}

CoverageData random_coverage(uint64_t seeds, const Knobs& knobs) {
  CoverageData all;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const Program p = find_test_generator("rubik.random").generate(v1(), seed, knobs);
    GoldenModel m(v1(), seed);
    for (const ProgramOp& op : p.ops) {
      if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
      if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes.data(), l->bytes.size());
    }
    const auto control = control_events(p);
    const CoverageData d = rubik_only(CoverageInput{v1(), m.layers(), control});
    EXPECT_TRUE(d.illegal_hits().empty()) << "seed " << seed;
    all.merge(d);
  }
  return all;
}

TEST(RubikCoverage, SixtyRandomSeedsReachTheNamedBins) {
  const CoverageData all = random_coverage(60, {});
  for (const char* mode : {"contract", "split", "merge"})
    for (const char* prec : {"int8", "int16", "fp16"})
      EXPECT_GT(hits(all, "rubik.layer", "mode_x_precision", std::string(mode) + "," + prec), 0u) << mode << " " << prec;
  for (const char* c : {"1", "below_atom", "one_atom", "multiple", "unaligned"})
    EXPECT_GT(hits(all, "rubik.layer", "channels", c), 0u) << c;
  for (const char* w : {"1", "2-8", "9-63", "64", "65+"}) EXPECT_GT(hits(all, "rubik.layer", "width", w), 0u) << w;
  EXPECT_GT(hits(all, "rubik.layer", "planes", "subset"), 0u);
  EXPECT_GT(hits(all, "rubik.layer", "width_tail", "tail"), 0u);
  EXPECT_GT(hits(all, "rubik.layer", "width_tail", "atom_aligned"), 0u);
  EXPECT_GT(hits(all, "rubik.flow", "back_to_back", "other_outstanding"), 0u);
  const double layer = all.group("rubik.layer")->percent(), flow = all.group("rubik.flow")->percent();
  std::cout << "rubik.layer " << layer << " %, rubik.flow " << flow << " %\n";
  for (const Hole& h : all.holes()) std::cout << "hole: " << h.path() << "\n";
  EXPECT_GE(layer, 85.0);
  EXPECT_EQ(flow, 100.0);
}

// The default knobs keep deconvolution strides <= 4 and heights <= 4; the plan's contract
// entry (regress/plans/default.yaml, rubik-contract-v1) adds the rest.
TEST(RubikCoverage, WithTheContractEntryEveryBinIsReached) {
  CoverageData all = random_coverage(60, {});
  all.merge(random_coverage(40, {{"mode", "contract"}, {"max_deconv_stride", "32"}, {"max_height", "6"},
                                 {"max_width", "4"}, {"max_channels", "16"}}));
  for (const Hole& h : all.holes()) ADD_FAILURE() << "hole: " << h.path();
  EXPECT_EQ(all.group("rubik.layer")->percent(), 100.0);
}

TEST(RubikCoverage, ConfigurationsWithoutRubikHaveNoModel) {
  for (const UnitCoverageModel& m : unit_coverage_models())
    if (m.unit == "rubik") {
      EXPECT_EQ(m.make(HwConfig::get("small")), nullptr);
      EXPECT_NE(m.make(v1()), nullptr);
    }
}

}  // namespace
}  // namespace dla::cov
