// CDP's LUT stage (spec §2.7) and the open points it resolves: interpolation primitive,
// d = 0 underflows, overflow decided by the index only, exponent-mode underflow anchor,
// negative slope shifts, the int8 22-bit START compare, selection and counters.
#include <gtest/gtest.h>

#include "../src/cdp_lut.h"
#include "../src/lut_tables.h"

namespace dla::golden {
namespace {

constexpr LutClass U = LutClass::Underflow, O = LutClass::Overflow, H = LutClass::Hit;

LutTables ramp_tables() {
  LutTables t;
  for (unsigned i = 0; i < 65; ++i) t.set(LutTableId::LE, i, static_cast<uint16_t>(1000 + 10 * i));
  for (unsigned i = 0; i < 257; ++i) t.set(LutTableId::LO, i, static_cast<uint16_t>(-2000 - 4 * static_cast<int>(i)));
  return t;
}

int32_t value(const CdpLutOutcome& o) { return static_cast<int32_t>(o.value); }

TEST(CdpLut, InterpolationPrimitive) {
  EXPECT_EQ(cdp_interp(9800, 6306, 9800, 28360, 16), 8288);  // spec §7.2, c = 3, LE
  EXPECT_EQ(cdp_interp(7852, 7825, 7852, 25600, 16), 7841);  // -10.55 rounds to -11
  EXPECT_EQ(cdp_interp(100, 7, 3, 5, 1), 110);               // rha(20, 1) = 10
  EXPECT_EQ(cdp_interp(100, 3, 7, 5, 3), 97);                // rha(-20, 3) = -2.5 -> -3
  EXPECT_EQ(cdp_interp(0, 10, 0, 3, -3), 240);               // negative shift: left
  EXPECT_EQ(cdp_interp(0, int64_t{1} << 37, 0, 32767, -16), 32767);  // saturates, no wrap
  EXPECT_EQ(cdp_interp(0, -(int64_t{1} << 37), 0, 32767, -16), -32768);
}

TEST(CdpLut, InputExactlyAtStartUnderflows) {
  const LutTables t = ramp_tables();
  LutSettings s;
  s.le_linear = true;
  s.le_start = 100;
  s.lo_start = 100;
  const CdpLut lut(s, t, false, 100, 100);
  EXPECT_EQ(lut.index_int(LutTableId::LE, 100).cls, U);
  EXPECT_EQ(lut.index_int(LutTableId::LO, 100).cls, U);
  EXPECT_EQ(lut.index_int(LutTableId::LE, 101).cls, H);
}

TEST(CdpLut, OverflowFromIndexOnlyAndEndIsTheAnchor) {
  const LutTables t = ramp_tables();
  LutSettings s;
  s.le_linear = true;
  s.le_index_select = 2;  // 4 per entry: 64 entries cover d < 256
  s.le_end = 50;          // deliberately not START + 256: only the anchor
  s.le_oflow_scale = 3;
  s.le_oflow_shift = 1;
  s.lo_start = 1 << 20;  // LO underflows
  const CdpLut lut(s, t, false, 0, s.lo_start);
  EXPECT_EQ(lut.index_int(LutTableId::LE, 255).cls, H);
  EXPECT_EQ(lut.index_int(LutTableId::LE, 256).cls, O);
  // LE over, LO under: hybrid priority LE -> LE[64] + rha((300 - 50) * 3, 1) = 1640 + 375.
  EXPECT_EQ(value(lut.evaluate_int(300)), 1640 + 375);
}

TEST(CdpLut, LinearHitInterpolatesWithSixteenBitFraction) {
  const LutTables t = ramp_tables();
  LutSettings s;
  s.lo_index_select = 3;  // 8 per entry
  s.lo_start = -16;
  s.le_start = 1 << 20;  // LE underflows (exponent mode)
  s.uflow_priority_lo = true;
  const CdpLut lut(s, t, false, s.le_start, -16);
  // d = 21: idx 2, remainder 5 -> frac 5 << 13; LO[2] = -2008, LO[3] = -2012.
  const CdpLutOutcome o = lut.evaluate_int(5);
  EXPECT_EQ(o.lo, H);
  EXPECT_EQ(o.le, U);
  EXPECT_EQ(value(o), -2008 + cdp_interp(0, -2012, -2008, 5 << 13, 16));
  // negative select: idx = d << 2, fraction 0
  s.lo_index_select = -2;
  const CdpLut lut2(s, t, false, s.le_start, -16);
  const LutIndex i = lut2.index_int(LutTableId::LO, -16 + 7);
  EXPECT_EQ(i.cls, H);
  EXPECT_EQ(i.index, 28u);
  EXPECT_EQ(i.fraction, 0u);
  EXPECT_EQ(lut2.index_int(LutTableId::LO, -16 + 64).cls, O);
}

TEST(CdpLut, ExponentUnderflowAnchor) {
  EXPECT_EQ(cdp_exponent_uflow_anchor(-5, 3), 3);
  EXPECT_EQ(cdp_exponent_uflow_anchor(-5, -3), -5);   // negative offset: START itself
  EXPECT_EQ(cdp_exponent_uflow_anchor(-5, 40), -5);   // 2^40 mod 2^39 = 0
  EXPECT_EQ(cdp_exponent_uflow_anchor(0, 38), -(int64_t{1} << 38));  // modulo 2^39, signed
  const LutTables t = ramp_tables();
  LutSettings s;
  s.le_index_offset = 4;  // entries from d = 16
  s.le_uflow_scale = 2;
  s.lo_start = 1 << 20;
  const CdpLut lut(s, t, false, 0, s.lo_start);
  // s = 10: e = 3 < 4 underflows; anchor 0 + 16: LE[0] + (10 - 16) * 2.
  EXPECT_EQ(value(lut.evaluate_int(10)), 1000 - 12);
  EXPECT_EQ(lut.index_int(LutTableId::LE, 16).cls, H);
}

TEST(CdpLut, Int8ComparesTwentyTwoBitsOfStartButAnchorsWithAll38) {
  const LutTables t = ramp_tables();
  LutSettings s;
  s.le_linear = true;
  s.le_start = (int64_t{1} << 22) + 100;  // sx_22 = 100
  s.le_uflow_scale = 1;
  s.lo_start = int64_t{1} << 30;
  const CdpLut lut(s, t, false, 100, int64_t{1} << 30);  // int8: compare values sx_22
  EXPECT_EQ(lut.index_int(LutTableId::LE, 50).cls, U);
  EXPECT_EQ(lut.index_int(LutTableId::LE, 101).cls, H);
  // underflow extrapolates from the full START: LE[0] + (50 - START) saturates low.
  EXPECT_EQ(value(lut.evaluate_int(50)), -32768);
}

TEST(CdpLut, SelectionTable) {
  LutSettings s;
  auto pick = [&](LutClass le, LutClass lo) { return lut_choose(le, lo, s).table; };
  EXPECT_EQ(pick(H, U), LutTableId::LE);
  EXPECT_EQ(pick(H, O), LutTableId::LE);
  EXPECT_EQ(pick(U, H), LutTableId::LO);
  EXPECT_EQ(pick(O, H), LutTableId::LO);
  s.hybrid_priority_lo = true;
  EXPECT_EQ(pick(H, H), LutTableId::LO);
  EXPECT_EQ(pick(U, O), LutTableId::LO);
  EXPECT_EQ(pick(O, U), LutTableId::LO);
  EXPECT_EQ(pick(U, U), LutTableId::LE);
  s.uflow_priority_lo = true;
  EXPECT_EQ(pick(U, U), LutTableId::LO);
  EXPECT_EQ(pick(O, O), LutTableId::LE);
  s.oflow_priority_lo = true;
  EXPECT_EQ(pick(O, O), LutTableId::LO);
}

TEST(CdpLut, Fp16LinearHitAndFraction) {
  LutTables t;
  t.set(LutTableId::LO, 2, 0x3c00);  // 1.0
  t.set(LutTableId::LO, 3, 0x4000);  // 2.0
  LutSettings s;
  s.lo_index_select = -1;             // entries 0.5 apart
  s.lo_start = 0;                     // +0.0
  s.le_start = 0x4b800000;            // 2^24: LE underflows
  const CdpLut lut(s, t, true, 0, 0);
  const LutIndex i = lut.index_fp(LutTableId::LO, 0x3fa00000);  // 1.25 -> t = 2.5
  EXPECT_EQ(i.cls, H);
  EXPECT_EQ(i.index, 2u);
  EXPECT_EQ(i.fraction, 0x8000u);
  EXPECT_EQ(lut.evaluate_fp(0x3fa00000).value, 0x07e00u);  // fp17 1.5
  EXPECT_EQ(lut.index_fp(LutTableId::LO, 0xbf800000).cls, U);  // negative d
  EXPECT_EQ(lut.index_fp(LutTableId::LO, 0x7fc00000).cls, U);  // NaN d
}

}  // namespace
}  // namespace dla::golden
