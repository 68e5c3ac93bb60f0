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
