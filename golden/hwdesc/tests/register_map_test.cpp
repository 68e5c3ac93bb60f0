#include <gtest/gtest.h>

#include <set>

#include "dla/register_map.h"

namespace dla {
namespace {

const RegisterMap& v1() { return RegisterMap::of(HwConfig::get("v1")); }
const RegisterMap& small() { return RegisterMap::of(HwConfig::get("small")); }

TEST(RegisterMap, V1HasTheNvdlav1RegisterCount) {
  // nvdlav1 has the same 395 registers as master outside CFGROM/GEC.
  EXPECT_EQ(v1().registers().size(), 395u);
}

TEST(RegisterMap, SmallLacksBdmaRubikAndCvif) {
  EXPECT_TRUE(small().unit_registers(Unit::BDMA).empty());
  EXPECT_TRUE(small().unit_registers(Unit::RBK).empty());
  EXPECT_EQ(small().unit_registers(Unit::CFGROM).size(), 104u);
}

// One CFGROM word's field value in configuration `config` (as the register description has it).
uint32_t cfgrom(const std::string& config, const std::string& word) {
  const RegInfo* r = RegisterMap::of(HwConfig::get(config)).find("NVDLA_CFGROM." + word + "_0");
  EXPECT_TRUE(r != nullptr && r->fields.size() == 1) << config << " " << word;
  return r && r->fields.size() == 1 ? r->fields[0].reset : 0xdeadbeefu;  // the field's value
}

// `small` reads nv_small's ROM (the values of NVDLA's register description; gen_regs.py's own
// test checks every derived word of small against it).
TEST(RegisterMap, SmallCfgromWordsAreNvSmallsRom) {
  ASSERT_FALSE(HwConfig::get("small").cfgrom_words.empty());
  EXPECT_EQ(cfgrom("small", "CFGROM_CSC_BASE_ATOMIC_C"), 8u);
  EXPECT_EQ(cfgrom("small", "CFGROM_CBUF_BASE_CBUF_BANK_DEPTH"), 512u);
  EXPECT_EQ(cfgrom("small", "CFGROM_SDP_EW_THROUGHPUT"), 0u);
  EXPECT_EQ(cfgrom("small", "CFGROM_CIF_BASE_MEM_ADDR_WIDTH"), 32u);
}

// Other configurations read their own numbers (the table of NVDLA's configurations).
TEST(RegisterMap, CfgromWordsFollowTheConfiguration) {
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_CMAC_A_BASE_ATOMIC_C"), 64u);
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_CACC_BASE_ATOMIC_K"), 32u);
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_CBUF_BASE_CBUF_BANK_NUM"), 16u);
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_CIF_BASE_WIDTH"), 32u);
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_CIF_BASE_MEM_ADDR_WIDTH"), 64u);
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_SDP_EW_THROUGHPUT"), 16u);
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_PDP_BASE_THROUGHPUT"), 8u);
  EXPECT_EQ(cfgrom("nv_medium_512", "CFGROM_SDP_EW_THROUGHPUT"), 0u);  // no EW
  EXPECT_EQ(cfgrom("nv_medium_512", "CFGROM_SDP_BS_THROUGHPUT"), 4u);
  EXPECT_EQ(cfgrom("nv_medium_512", "CFGROM_PDP_RDMA_BASE_ATOMIC_M"), 16u);
  EXPECT_EQ(cfgrom("nv_small_256", "CFGROM_CSC_BASE_ATOMIC_C"), 32u);
  EXPECT_EQ(cfgrom("nv_small_256", "CFGROM_CDMA_BASE_CBUF_BANK_DEPTH"), 128u);
  EXPECT_EQ(cfgrom("nv_small_256", "CFGROM_CIF_BASE_WIDTH"), 8u);
  // Words that are not numbers of the configuration keep nv_small's values.
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_HW_VERSION"), cfgrom("small", "CFGROM_HW_VERSION"));
  EXPECT_EQ(cfgrom("nv_large", "CFGROM_SDP_CAP_COMPAT"), cfgrom("small", "CFGROM_SDP_CAP_COMPAT"));
  EXPECT_TRUE(HwConfig::get("v1").cfgrom_words.empty());
}

TEST(RegisterMap, AddressesFollowTheConfigurationMap) {
  const RegInfo* r = v1().find("NVDLA_PDP.D_OP_ENABLE_0");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(v1().address_of(*r), 0xd008u);
  const RegInfo* s = small().find("NVDLA_PDP.D_OP_ENABLE_0");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(small().address_of(*s), 0xb008u);
  EXPECT_EQ(v1().at(0xd008), r);
  EXPECT_EQ(v1().at(0xd00c)->name, "D_DATA_CUBE_IN_WIDTH");
}

TEST(RegisterMap, TraceSymbolsStripExactlyOneSuffix) {
  const RegInfo* a = small().find("NVDLA_CDMA.D_DATAIN_SIZE_0_0");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->name, "D_DATAIN_SIZE_0");
  const RegInfo* b = small().find("NVDLA_CDMA.D_DATAIN_SIZE_1_0");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->name, "D_DATAIN_SIZE_1");
  EXPECT_EQ(small().find("CDMA.D_DATAIN_SIZE_0"), a);  // plain register name
  EXPECT_EQ(small().find("NVDLA_CFGROM.CFGROM_HW_VERSION_0")->reset_value(), 0x10001u);
  EXPECT_EQ(v1().find("NVDLA_RUBIK.D_OP_ENABLE_0"), v1().find("RBK.D_OP_ENABLE"));
  EXPECT_EQ(v1().find("NVDLA_PDP.NO_SUCH_REG_0"), nullptr);
  EXPECT_EQ(v1().find("garbage"), nullptr);
}

TEST(RegisterMap, Nvdlav1StoresAddressLowAsThirtyTwoByteAligned) {
  const RegInfo* v = v1().find("SDP.D_DST_BASE_ADDR_LOW");
  const RegInfo* m = small().find("SDP.D_DST_BASE_ADDR_LOW");
  ASSERT_NE(v, nullptr);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(v->stored_mask(), 0xffffffe0u);
  EXPECT_EQ(m->stored_mask(), 0xffffffffu);
  // The field still reads as a byte address on both.
  EXPECT_EQ(v->fields[0].get(0x80000040u & v->stored_mask()), 0x80000040u);
  const RegInfo* bank = v1().find("CDMA.D_BANK");
  ASSERT_NE(bank, nullptr);
  EXPECT_EQ(bank->field("DATA_BANK")->store_mask, 0x0000000fu);
  EXPECT_EQ(small().find("CDMA.D_BANK")->field("DATA_BANK")->store_mask, 0x0000001fu);
}

TEST(RegisterMap, ResetValuesDifferBetweenVariants) {
  // master resets every SDP BS bypass bit to 1; nvdlav1 resets them to 0.
  EXPECT_EQ(v1().find("SDP.D_DP_BS_CFG")->reset_value(), 0u);
  EXPECT_NE(small().find("SDP.D_DP_BS_CFG")->reset_value(), 0u);
  EXPECT_EQ(v1().find("GLB.S_NVDLA_HW_VERSION")->reset_value(), 0x00303031u);
  EXPECT_EQ(small().find("GLB.S_NVDLA_HW_VERSION")->reset_value(), 0x00303031u);
  EXPECT_EQ(v1().find("BDMA.STATUS")->reset_value(), 0x114u);
}

TEST(RegisterMap, AccessClassesAndMasks) {
  const RegInfo* set = v1().find("GLB.S_INTR_SET");
  EXPECT_EQ(set->readable_mask(), 0u);           // write-only
  EXPECT_EQ(set->writable_mask(), 0u);           // no storage
  const RegInfo* status = v1().find("GLB.S_INTR_STATUS");
  EXPECT_EQ(status->writable_mask(), 0u);        // hardware-owned (W1C)
  EXPECT_EQ(status->readable_mask(), 0x003f03ffu);
  const RegInfo* op = v1().find("PDP.D_OP_ENABLE");
  EXPECT_TRUE(op->dual);
  EXPECT_TRUE(op->fields[0].hw_modified);
  EXPECT_TRUE(v1().find("BDMA.CFG_OP")->fields[0].trigger);
  EXPECT_EQ(v1().find("BDMA.CFG_LINE")->writable_mask(), 0x1fffu);
  EXPECT_EQ(v1().find("BDMA.STATUS")->writable_mask(), 0u);
}

TEST(RegisterMap, DualGroupsStartAtOpEnable) {
  EXPECT_EQ(v1().dual_base(Unit::PDP), 0x008u);
  EXPECT_EQ(v1().dual_base(Unit::CDMA), 0x010u);
  EXPECT_EQ(v1().dual_base(Unit::SDP), 0x038u);
  EXPECT_EQ(v1().dual_base(Unit::CDP), 0x048u);
  EXPECT_FALSE(v1().dual_base(Unit::BDMA).has_value());
  EXPECT_FALSE(v1().dual_base(Unit::GLB).has_value());
}

TEST(RegisterMap, NoTwoRegistersShareAnAddress) {
  for (const RegisterMap* m : {&v1(), &small()}) {
    std::set<uint32_t> seen;
    for (const auto& r : m->registers())
      EXPECT_TRUE(seen.insert(m->address_of(r)).second) << unit_name(r.unit) << "." << r.name;
  }
}

}  // namespace
}  // namespace dla
