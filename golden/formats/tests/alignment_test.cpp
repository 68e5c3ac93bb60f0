#include <gtest/gtest.h>

#include "dla/formats/alignment.h"

namespace dla::formats {
namespace {

// The seed's table for the v1 atom (32 bytes), transcribed row by row. 0 = "NA".
struct Row { DataFormat f; uint32_t start, line, surface, planar, size; };
const Row kSeedTable[] = {
    {DataFormat::FeatureCube, 32, 32, 32, 32, 0},
    {DataFormat::Weight, 256, 0, 0, 0, 128},
    {DataFormat::WeightMaskBits, 256, 0, 0, 0, 128},
    {DataFormat::WeightGroupSize, 256, 0, 0, 0, 128},
    {DataFormat::PitchLinearPixel, 32, 32, 0, 0, 0},
    {DataFormat::Bias, 32, 32, 32, 0, 0},
    {DataFormat::Prelu, 32, 0, 0, 0, 0},
    {DataFormat::BatchNorm, 32, 0, 0, 0, 0},
    {DataFormat::ElementWise, 32, 32, 0, 0, 32},
};

uint32_t or0(const std::optional<uint32_t>& v) { return v.value_or(0); }

TEST(AlignmentTable, MatchesTheSeedForTheV1Atom) {
  for (const Row& r : kSeedTable) {
    SCOPED_TRACE(data_format_name(r.f));
    const AlignmentRule a = alignment_rule(r.f, 32);
    EXPECT_EQ(or0(a.start), r.start);
    EXPECT_EQ(or0(a.line_stride), r.line);
    EXPECT_EQ(or0(a.surface_stride), r.surface);
    EXPECT_EQ(or0(a.planar_stride), r.planar);
    EXPECT_EQ(or0(a.data_size), r.size);
  }
}

// conv.md §3.1: feature strides are multiples of the atom (8 B on nv_small); weights keep
// 256/128 on every configuration.
TEST(AlignmentTable, ScalesAtomEntriesWithTheAtomSize) {
  const AlignmentRule f = alignment_rule(DataFormat::FeatureCube, 8);
  EXPECT_EQ(or0(f.start), 8u);
  EXPECT_EQ(or0(f.line_stride), 8u);
  const AlignmentRule w = alignment_rule(DataFormat::Weight, 8);
  EXPECT_EQ(or0(w.start), 256u);
  EXPECT_EQ(or0(w.data_size), 128u);
  EXPECT_THROW(alignment_rule(DataFormat::Bias, 24), std::invalid_argument);
}

TEST(AlignmentTable, ViolationsNameFormatQuantityAndRule) {
  RegionParams r;
  r.start = 0x1080;
  r.data_size = 246;
  const auto v = alignment_violation(DataFormat::Weight, r);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("weight"), std::string::npos) << *v;
  EXPECT_NE(v->find("start address 0x1080 is not a multiple of 256 bytes"), std::string::npos) << *v;
  r.start = 0x1100;
  EXPECT_NE(alignment_violation(DataFormat::Weight, r)->find("data size 0xf6 is not a multiple of 128"),
            std::string::npos);
  r.data_size = 256;
  EXPECT_FALSE(alignment_violation(DataFormat::Weight, r).has_value());
  RegionParams e;
  e.start = 0x40;
  e.line_stride = 0x48;
  EXPECT_THROW(check_alignment(DataFormat::ElementWise, e), std::invalid_argument);
  e.line_stride = 0x60;
  EXPECT_NO_THROW(check_alignment(DataFormat::ElementWise, e));
  // "NA" quantities are not checked even when given.
  RegionParams p;
  p.start = 0x20;
  p.line_stride = 3;
  EXPECT_FALSE(alignment_violation(DataFormat::Prelu, p).has_value());
}

}  // namespace
}  // namespace dla::formats
