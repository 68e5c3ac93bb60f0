#include <gtest/gtest.h>

#include "dla/register_map.h"
#include "dla/regs.gen.h"

namespace dla {
namespace {

TEST(RegsAccessors, FieldGetPutRoundTrip) {
  using L = reg::BDMA::CFG_LINE::SIZE;
  static_assert(L::msb == 12 && L::lsb == 0, "CFG_LINE.SIZE is [12:0]");
  EXPECT_EQ(L::get(0xffffffffu), 0x1fffu);
  EXPECT_EQ(L::put(0u, 7u), 7u);
  using G = reg::BDMA::STATUS::GRP1_BUSY;
  EXPECT_EQ(G::put(0u, 1u), 0x400u);
  EXPECT_EQ(G::get(0x114u), 0u);
  EXPECT_EQ(reg::BDMA::STATUS::FREE_SLOT::get(0x114u), 20u);
}

TEST(RegsAccessors, EnumConstants) {
  EXPECT_EQ(reg::BDMA::CFG_CMD::SRC_RAM_TYPE::MC, 1u);
  EXPECT_EQ(reg::BDMA::CFG_CMD::SRC_RAM_TYPE::CVSRAM, 0u);
}

TEST(RegsAccessors, OffsetsAgreeWithTheRuntimeTables) {
  const auto& m = RegisterMap::of(HwConfig::get("v1"));
  EXPECT_EQ(m.find("BDMA.CFG_LAUNCH1")->offset, reg::BDMA::CFG_LAUNCH1::offset);
  EXPECT_EQ(m.find("SDP.D_OP_ENABLE")->offset, reg::SDP::D_OP_ENABLE::offset);
  EXPECT_TRUE(reg::SDP::D_OP_ENABLE::dual);
  EXPECT_FALSE(reg::SDP::S_POINTER::dual);
}

}  // namespace
}  // namespace dla
