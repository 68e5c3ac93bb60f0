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

// NVDLA's six int8 configurations of the configurable tree plus nv_full (v1), every parameter
// of the hardware-configuration tables (trace format spec 6.1, conv spec 1.1), written here
// independently of rtl/configs/ so that a wrong file fails.
struct NvdlaRow {
  const char* nvdla;  // NVDLA's name
  const char* ours;   // the file in rtl/configs/
  unsigned mac_c, mac_k, atom, banks, depth, entry, dbb, sram, addr;
  bool bs, bn, ew, lut;
  unsigned tp_sdp, tp_pdp, tp_cdp;
};
constexpr NvdlaRow kNvdlaTable[] = {
    {"nv_small", "small", 8, 8, 8, 32, 512, 8, 64, 0, 32, true, true, false, false, 1, 1, 1},
    {"nv_small_256", "nv_small_256", 32, 8, 8, 32, 128, 32, 64, 0, 32, true, true, false, false, 1, 1, 1},
    {"nv_small_256_full", "nv_small_256_full", 32, 8, 8, 32, 128, 32, 64, 64, 32, true, true, true, true, 2, 1, 1},
    {"nv_medium_512", "nv_medium_512", 32, 16, 16, 32, 512, 32, 128, 0, 64, true, true, false, false, 4, 2, 2},
    {"nv_medium_1024_full", "nv_medium_1024_full", 32, 32, 32, 32, 512, 32, 256, 256, 64, true, true, true, true, 8, 4, 4},
    {"nv_large", "nv_large", 64, 32, 32, 16, 512, 64, 256, 256, 64, true, true, true, true, 16, 8, 8},
    {"nv_full", "v1", 64, 32, 32, 16, 256, 128, 512, 512, 64, true, true, true, true, 16, 8, 8},
};

TEST(HwConfig, EveryNvdlaConfigurationHasItsTableParameters) {
  for (const NvdlaRow& r : kNvdlaTable) {
    SCOPED_TRACE(r.nvdla);
    const HwConfig* found = HwConfig::find(r.nvdla);
    ASSERT_NE(found, nullptr) << "no configuration named or aliased " << r.nvdla;
    const HwConfig& c = *found;
    EXPECT_EQ(c.name, r.ours);
    EXPECT_EQ(c.conv_mac_atomic_c, r.mac_c);
    EXPECT_EQ(c.conv_mac_atomic_k, r.mac_k);
    EXPECT_EQ(c.atom_bytes, r.atom);
    EXPECT_EQ(c.conv_cbuf_banks, r.banks);
    EXPECT_EQ(c.conv_cbuf_bank_entries, r.depth);
    EXPECT_EQ(c.conv_cbuf_entry_bytes, r.entry);
    EXPECT_EQ(c.dbb_data_bits, r.dbb);
    EXPECT_EQ(c.sram_if, r.sram != 0);
    EXPECT_EQ(c.sram_data_bits, r.sram);
    EXPECT_EQ(c.has_unit(Unit::CVIF), r.sram != 0);
    EXPECT_EQ(c.dbb_addr_bits, r.addr);
    EXPECT_EQ(c.sdp_bs, r.bs);
    EXPECT_EQ(c.sdp_bn, r.bn);
    EXPECT_EQ(c.sdp_ew, r.ew);
    EXPECT_EQ(c.sdp_lut, r.lut);
    EXPECT_EQ(c.sdp_throughput, r.tp_sdp);
    EXPECT_EQ(c.pdp_throughput, r.tp_pdp);
    EXPECT_EQ(c.cdp_throughput, r.tp_cdp);
    const bool full = std::string(r.nvdla) == "nv_full";
    // The configurable tree: int8 only, no BDMA/RUBIK, no Winograd/batching/compression, the
    // master register map with CFGROM.
    EXPECT_EQ(c.supports(Precision::Int16), full);
    EXPECT_EQ(c.supports(Precision::Fp16), full);
    EXPECT_EQ(c.has_unit(Unit::BDMA), full);
    EXPECT_EQ(c.has_unit(Unit::RBK), full);
    EXPECT_EQ(c.conv_winograd, full);
    EXPECT_EQ(c.conv_batching, full);
    EXPECT_EQ(c.conv_compression, full);
    EXPECT_EQ(c.cfgrom, !full);
    EXPECT_EQ(c.register_variant, full ? "nvdlav1" : "master");
  }
  EXPECT_EQ(HwConfig::all().size(), std::size(kNvdlaTable)) << "a configuration file not in NVDLA's table";
}

TEST(HwConfig, FindTakesOurNamesAndNvdlasNames) {
  EXPECT_EQ(HwConfig::find("small"), &HwConfig::get("small"));
  EXPECT_EQ(HwConfig::find("nv_small"), &HwConfig::get("small"));
  EXPECT_EQ(HwConfig::find("nvdlav1"), &HwConfig::get("v1"));
  EXPECT_EQ(HwConfig::find("nv_full"), &HwConfig::get("v1"));
  EXPECT_EQ(HwConfig::find("nv_large"), &HwConfig::get("nv_large"));
  EXPECT_EQ(HwConfig::find("nv_huge"), nullptr);
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
