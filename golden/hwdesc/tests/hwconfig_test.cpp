#include <gtest/gtest.h>

#include <stdexcept>

#include "dla/hwconfig.h"

namespace dla {
namespace {

TEST(HwConfig, BothShippedConfigurationsExist) {
  EXPECT_EQ(HwConfig::get("v1").name, "v1");
  EXPECT_EQ(HwConfig::get("small").name, "small");
}

// The default follows the build (DLA_DEFAULT_CONFIG / DLA_CONFIGS), so a build for an RTL that
// implements only some configurations never defaults to one without a model.
TEST(HwConfig, DefaultIsTheBuildsDefault) {
  EXPECT_EQ(HwConfig::default_config().name, DLA_TEST_DEFAULT_CONFIG);
  EXPECT_EQ(&HwConfig::default_config(), &HwConfig::get(DLA_TEST_DEFAULT_CONFIG));
}

TEST(HwConfig, UnknownConfigurationNamesTheKnownOnes) {
  try {
    HwConfig::get("nv_huge");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("nv_huge"), std::string::npos);
    EXPECT_NE(msg.find("v1"), std::string::npos);
    EXPECT_NE(msg.find("small"), std::string::npos);
  }
}

TEST(HwConfig, V1FactsFromTheSeedDocuments) {
  const auto& c = HwConfig::get("v1");
  EXPECT_EQ(c.atom_bytes, 32u);
  EXPECT_EQ(c.dbb_data_bits, 512u);
  EXPECT_EQ(c.dbb_bytes(), 64u);
  EXPECT_TRUE(c.sram_if);
  EXPECT_FALSE(c.cfgrom);
  EXPECT_TRUE(c.supports(Precision::Int16));
  EXPECT_TRUE(c.supports(Precision::Fp16));
  EXPECT_EQ(c.bdma_queue_depth, 20u);
  // nvdlav1 map: GLB at 0, BDMA at 0x4000, RUBIK at 0x10000, no CFGROM.
  EXPECT_EQ(*c.unit_base[static_cast<unsigned>(Unit::GLB)], 0x0000u);
  EXPECT_EQ(*c.unit_base[static_cast<unsigned>(Unit::BDMA)], 0x4000u);
  EXPECT_EQ(*c.unit_base[static_cast<unsigned>(Unit::RBK)], 0x10000u);
  EXPECT_FALSE(c.has_unit(Unit::CFGROM));
  EXPECT_TRUE(c.cdp_out_saturation);
}

TEST(HwConfig, SmallFactsFromNvSmall) {
  const auto& c = HwConfig::get("small");
  EXPECT_EQ(c.atom_bytes, 8u);
  EXPECT_EQ(c.dbb_data_bits, 64u);
  EXPECT_FALSE(c.sram_if);
  EXPECT_TRUE(c.cfgrom);
  EXPECT_TRUE(c.supports(Precision::Int8));
  EXPECT_FALSE(c.supports(Precision::Int16));
  EXPECT_FALSE(c.has_unit(Unit::BDMA));
  EXPECT_FALSE(c.has_unit(Unit::RBK));
  EXPECT_FALSE(c.has_unit(Unit::CVIF));
  EXPECT_EQ(*c.unit_base[static_cast<unsigned>(Unit::CFGROM)], 0x0000u);
  EXPECT_EQ(*c.unit_base[static_cast<unsigned>(Unit::GLB)], 0x1000u);
  EXPECT_EQ(*c.unit_base[static_cast<unsigned>(Unit::PDP)], 0xb000u);
  EXPECT_FALSE(c.cdp_out_saturation);  // nv_small's CDP has no D_OUT_SATURATION counter
}

TEST(HwConfig, UnitAtDecodesWindows) {
  const auto& v1 = HwConfig::get("v1");
  EXPECT_EQ(v1.unit_at(0x4040), Unit::BDMA);
  EXPECT_EQ(v1.unit_at(0xa00c), Unit::SDP_RDMA);
  EXPECT_FALSE(v1.unit_at(0x1000).has_value());  // GEC window: not modelled
  const auto& small = HwConfig::get("small");
  EXPECT_EQ(small.unit_at(0xa00c), Unit::PDP_RDMA);
  EXPECT_FALSE(small.unit_at(0x10000).has_value());
}

TEST(HwConfig, UnitNames) {
  EXPECT_STREQ(unit_name(Unit::CDP_RDMA), "CDP_RDMA");
  EXPECT_EQ(unit_from_name("RUBIK"), Unit::RBK);
  EXPECT_EQ(unit_from_name("RBK"), Unit::RBK);
  EXPECT_FALSE(unit_from_name("FOO").has_value());
}

}  // namespace
}  // namespace dla
