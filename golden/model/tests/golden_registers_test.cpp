// Register semantics of the golden model: reset values, storage masks, GLB interrupts.
#include <gtest/gtest.h>

#include <utility>

#include "dla/golden_model.h"
#include "dla/regs.gen.h"

namespace dla {
namespace {

// Expected read-after-reset computed field by field from the description (not through
// RegInfo helpers): constants and storage read their reset, write-only fields read 0. One
// status is set by the unit itself before a test starts: CBUF is flushed (FLUSH_DONE reads 1).
uint32_t expected_reset_read(const RegInfo& r) {
  uint32_t v = 0;
  for (const FieldInfo& f : r.fields)
    if (f.access != Access::WO) v |= (f.reset << f.lsb) & f.store_mask;
  if (r.unit == Unit::CDMA && r.name == "S_CBUF_FLUSH_STATUS") v |= 1u;
  return v;
}

class GoldenRegisters : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenRegisters, EveryRegisterReadsItsResetValue) {
  const HwConfig& cfg = HwConfig::get(GetParam());
  GoldenModel m(cfg);
  const RegisterMap& map = RegisterMap::of(cfg);
  ASSERT_FALSE(map.registers().empty());
  for (const RegInfo& r : map.registers())
    EXPECT_EQ(m.csb_read(map.address_of(r)), expected_reset_read(r))
        << unit_name(r.unit) << "." << r.name;
}

TEST_P(GoldenRegisters, WritableBitsStoreAndEverythingElseReadsZeroOrUnchanged) {
  const HwConfig& cfg = HwConfig::get(GetParam());
  GoldenModel m(cfg);
  const RegisterMap& map = RegisterMap::of(cfg);
  size_t checked = 0;
  for (const RegInfo& r : map.registers()) {
    if (r.unit == Unit::GLB || r.unit == Unit::BDMA) continue;  // have side effects
    if (r.name == "D_OP_ENABLE" || r.name == "S_POINTER") continue;
    bool plain = true;
    for (const FieldInfo& f : r.fields) plain = plain && f.access == Access::RW && !f.hw_modified;
    if (!plain) continue;
    const uint32_t a = map.address_of(r);
    uint32_t store = 0;
    for (const FieldInfo& f : r.fields) store |= f.store_mask;
    for (uint32_t pattern : {0xffffffffu, 0x5a5a5a5au, 0u}) {
      m.csb_write(a, pattern);
      EXPECT_EQ(m.csb_read(a), pattern & store) << unit_name(r.unit) << "." << r.name;
    }
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

INSTANTIATE_TEST_SUITE_P(Configs, GoldenRegisters, ::testing::Values("v1", "small"));

TEST(GoldenRegisters, NvdlaV1AddressFieldsKeepOnlyBits31To5) {
  const HwConfig& cfg = HwConfig::get("v1");
  GoldenModel m(cfg);
  const uint32_t a = *cfg.unit_base[static_cast<unsigned>(Unit::BDMA)] + reg::BDMA::CFG_SRC_LINE::offset;
  m.csb_write(a, 0x1234567f);
  EXPECT_EQ(m.csb_read(a), 0x12345660u);
}

TEST(GoldenRegisters, UnmappedAddressesReadZeroAndIgnoreWrites) {
  const HwConfig& cfg = HwConfig::get("v1");
  GoldenModel m(cfg);
  const uint32_t glb = *cfg.unit_base[static_cast<unsigned>(Unit::GLB)];
  m.csb_write(glb + 0x100, 0xffffffffu);
  EXPECT_EQ(m.csb_read(glb + 0x100), 0u);
  m.csb_write(0x3f000, 0x1);  // a window with no unit
  EXPECT_EQ(m.csb_read(0x3f000), 0u);
  EXPECT_TRUE(m.warnings().empty());
}

TEST(GoldenRegisters, SmallHasCfgromConstantsAndNoBdma) {
  const HwConfig& cfg = HwConfig::get("small");
  GoldenModel m(cfg);
  const uint32_t rom = *cfg.unit_base[static_cast<unsigned>(Unit::CFGROM)];
  EXPECT_EQ(m.csb_read(rom + reg::CFGROM::CFGROM_HW_VERSION::offset), 0x00010001u);
  m.csb_write(rom, 0);
  EXPECT_EQ(m.csb_read(rom), 0x00010001u) << "a constant ignores writes";
  EXPECT_FALSE(m.has_datapath(Unit::BDMA));
}

struct Glb {
  explicit Glb(const HwConfig& c) : base(*c.unit_base[static_cast<unsigned>(Unit::GLB)]) {}
  uint32_t base;
  uint32_t version() const { return base + reg::GLB::S_NVDLA_HW_VERSION::offset; }
  uint32_t mask() const { return base + reg::GLB::S_INTR_MASK::offset; }
  uint32_t set() const { return base + reg::GLB::S_INTR_SET::offset; }
  uint32_t status() const { return base + reg::GLB::S_INTR_STATUS::offset; }
};

TEST(GoldenGlb, VersionSetStatusWriteOneToClearAndMask) {
  // v1 has every interrupt source; nv_small (small) ties BDMA (bits 7:6) and RUBIK (9:8) off.
  for (const auto& [name, sources] : {std::pair<const char*, uint32_t>{"v1", 0x003f03ffu}, {"small", 0x003f003fu}}) {
    const HwConfig& cfg = HwConfig::get(name);
    GoldenModel m(cfg);
    const Glb g(cfg);
    EXPECT_EQ(m.csb_read(g.version()), 0x00303031u) << name;
    EXPECT_FALSE(m.intr_line());
    m.csb_write(g.set(), 0xffffffffu);
    EXPECT_EQ(m.csb_read(g.set()), 0u) << "S_INTR_SET is write-only";
    EXPECT_EQ(m.csb_read(g.status()), sources) << name << ": only existing sources set";
    EXPECT_TRUE(m.intr_line());
    m.csb_write(g.status(), 0x00000041u);  // W1C two bits (bit 6: BDMA, absent on small)
    EXPECT_EQ(m.csb_read(g.status()), sources & ~0x41u);
    m.csb_write(g.status(), 0);  // writing 0 clears nothing
    EXPECT_EQ(m.csb_read(g.status()), sources & ~0x41u);
    m.csb_write(g.mask(), sources & ~0x41u);  // mask every pending bit: line drops, status stays
    EXPECT_FALSE(m.intr_line());
    EXPECT_EQ(m.intr_status(), sources & ~0x41u);
    m.csb_write(g.mask(), sources & ~0x43u);
    EXPECT_TRUE(m.intr_line());
    m.csb_write(g.status(), 0xffffffffu);
    EXPECT_EQ(m.csb_read(g.status()), 0u);
    EXPECT_FALSE(m.intr_line());
  }
}

}  // namespace
}  // namespace dla
