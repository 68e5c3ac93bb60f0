// The LUT model shared by SDP and CDP (lut_tables, lut_index) and SDP's LUT arithmetic
// (sdp_lut): access port, index/fraction, table choice, interpolation, extrapolation.
#include <gtest/gtest.h>

#include "golden_sdp_harness.h"
#include "../src/lut_index.h"
#include "../src/lut_tables.h"
#include "../src/sdp_lut.h"

namespace dla::golden {
namespace {

constexpr LutClass U = LutClass::Underflow, O = LutClass::Overflow, H = LutClass::Hit;

TEST(GoldenLutPort, AutoIncrementWriteAndReadBack) {
  LutTables t;
  LutAccessPort p(LutPortPolicy::AdvanceOnEveryAccess);
  p.write_cfg((1u << 17) | (1u << 16) | 5);  // write LO from 5
  for (uint16_t v : {11, 12, 13}) p.write_data(t, v);
  EXPECT_EQ(t.at(LutTableId::LO, 5), 11);
  EXPECT_EQ(t.at(LutTableId::LO, 7), 13);
  EXPECT_EQ(t.at(LutTableId::LE, 5), 0);
  p.write_cfg((1u << 16) | 6);  // read LO from 6
  EXPECT_EQ(p.read_data(t), 12);
  EXPECT_EQ(p.read_data(t), 13);
  EXPECT_EQ(p.address(), 8u);
}

// sdp.md §15 item 5, RTL rule: DATA accesses of either kind advance the 10-bit address,
// only WRITE-type writes store, and only to existing entries.
TEST(GoldenLutPort, RtlPolicyAdvancesOnEveryAccessAndWraps) {
  LutTables t;
  LutAccessPort p(LutPortPolicy::AdvanceOnEveryAccess);
  p.write_cfg(3);  // READ type, LE, address 3
  p.write_data(t, 0x55);  // not stored, but advances
  EXPECT_EQ(t.at(LutTableId::LE, 3), 0);
  EXPECT_EQ(p.address(), 4u);
  p.write_cfg((1u << 17) | 64);  // write LE[64], then beyond the table
  p.write_data(t, 0x77);
  p.write_data(t, 0x88);  // address 65: no entry, dropped
  EXPECT_EQ(t.at(LutTableId::LE, 64), 0x77);
  EXPECT_EQ(p.address(), 66u);
  p.write_cfg((1u << 17) | 0x3ff);
  p.write_data(t, 1);
  EXPECT_EQ(p.address(), 0u);  // 10-bit wrap
  EXPECT_EQ(p.read_data(t), 0);  // a read while type is WRITE still returns and advances
  EXPECT_EQ(p.address(), 1u);
}

TEST(GoldenLutPort, TypedPolicyForCdpStopsAtTheLastEntry) {
  LutTables t;
  LutAccessPort p(LutPortPolicy::TypedAndClamped);
  p.write_cfg((1u << 17) | 63);
  p.write_data(t, 1);
  p.write_data(t, 2);
  p.write_data(t, 3);  // stays at 64
  EXPECT_EQ(t.at(LutTableId::LE, 64), 3);
  EXPECT_EQ(p.address(), 64u);
  EXPECT_EQ(p.read_data(t), 0);  // wrong type: no read
  EXPECT_EQ(p.address(), 64u);
}

TEST(GoldenLutPort, CsbReadBackThroughTheGoldenModel) {
  test::SdpHarness h;
  std::vector<uint16_t> lo(257);
  for (unsigned i = 0; i < 257; ++i) lo[i] = static_cast<uint16_t>(i * 7 + 1);
  h.program_lut(1, lo);
  h.sdp("S_LUT_ACCESS_CFG", (1u << 16) | 250);
  for (unsigned i = 250; i < 257; ++i) EXPECT_EQ(h.read_sdp("S_LUT_ACCESS_DATA"), lo[i]) << i;
  EXPECT_EQ(h.read_sdp("S_LUT_ACCESS_CFG"), (1u << 16) | 250);  // the written value, not the address
}

TEST(GoldenLutIndex, LinearIndexFractionAndOverflow) {
  LutIndex r = lut_linear_index(2234, 4, 256, 35);  // §13.2 LO
  EXPECT_EQ(r.cls, H);
  EXPECT_EQ(r.index, 139u);
  EXPECT_EQ(r.fraction, 0x500000000ull);
  EXPECT_EQ(lut_linear_index(0, 4, 256, 35).cls, U);  // d = 0 is an underflow
  EXPECT_EQ(lut_linear_index(-5, 4, 256, 35).cls, U);
  r = lut_linear_index(256 << 4, 4, 256, 35);
  EXPECT_EQ(r.cls, O);
  EXPECT_EQ(r.index, 256u);
  r = lut_linear_index((256 << 4) - 1, 4, 256, 35);
  EXPECT_EQ(r.cls, H);
  EXPECT_EQ(r.index, 255u);
  EXPECT_EQ(r.fraction, 15ull << 31);
  r = lut_linear_index(3, -5, 64, 35);  // negative select: left shift, no fraction
  EXPECT_EQ(r.cls, O);
  r = lut_linear_index(1, -5, 64, 35);
  EXPECT_EQ(r.cls, H);
  EXPECT_EQ(r.index, 32u);
  EXPECT_EQ(r.fraction, 0u);
  EXPECT_EQ(lut_linear_index(1, -100, 256, 35).cls, O);  // huge shift saturates the index
  r = lut_linear_index(0x7fffffff, 40, 64, 35);  // select beyond the fraction width: truncated
  EXPECT_EQ(r.index, 0u);
  EXPECT_EQ(r.fraction, 0x7fffffffull >> 5);
  r = lut_linear_index(5, 3, 64, 16);  // CDP width: frac16
  EXPECT_EQ(r.fraction, 5ull << 13);
}

TEST(GoldenLutIndex, ExponentIndexAndFraction) {
  LutIndex r = lut_exponent_index(1234, 2, 35);  // §13.2 LE
  EXPECT_EQ(r.cls, H);
  EXPECT_EQ(r.index, 8u);
  EXPECT_EQ(r.fraction, 0x1A4000000ull);
  EXPECT_EQ(lut_exponent_index(2, 2, 35).cls, U);  // log2 below the offset
  EXPECT_EQ(lut_exponent_index(0, -10, 35).cls, U);
  r = lut_exponent_index(1, -63, 35);  // e = 0: index 63, the last hit
  EXPECT_EQ(r.cls, H);
  EXPECT_EQ(r.index, 63u);
  EXPECT_EQ(r.fraction, 0u);
  r = lut_exponent_index(2, -63, 35);  // index 64 overflows
  EXPECT_EQ(r.cls, O);
  EXPECT_EQ(r.index, 64u);
}

// sdp.md §8.3: all nine class pairs under each priority bit.
TEST(GoldenLutChoice, PriorityTable) {
  LutSettings s;
  const LutTableId LE = LutTableId::LE, LO = LutTableId::LO;
  auto choose = [&](LutClass le, LutClass lo) { return lut_choose(le, lo, s); };
  auto same = [](LutChoice c, LutTableId t, LutClass k) { return c.table == t && c.cls == k; };
  for (int bits = 0; bits < 8; ++bits) {
    s.uflow_priority_lo = bits & 1;
    s.oflow_priority_lo = bits & 2;
    s.hybrid_priority_lo = bits & 4;
    const LutTableId uf = s.uflow_priority_lo ? LO : LE, of = s.oflow_priority_lo ? LO : LE,
                     hy = s.hybrid_priority_lo ? LO : LE;
    EXPECT_TRUE(same(choose(U, U), uf, U)) << bits;
    EXPECT_TRUE(same(choose(O, O), of, O)) << bits;
    EXPECT_TRUE(same(choose(H, H), hy, H)) << bits;
    EXPECT_TRUE(same(choose(U, O), hy, hy == LE ? U : O)) << bits;
    EXPECT_TRUE(same(choose(O, U), hy, hy == LE ? O : U)) << bits;
    EXPECT_TRUE(same(choose(H, U), LE, H)) << bits;
    EXPECT_TRUE(same(choose(H, O), LE, H)) << bits;
    EXPECT_TRUE(same(choose(U, H), LO, H)) << bits;
    EXPECT_TRUE(same(choose(O, H), LO, H)) << bits;
  }
}

struct GoldenSdpLut : ::testing::Test {
  LutTables tables;
  LutSettings s;
  void SetUp() override {
    for (unsigned i = 0; i < 65; ++i) tables.set(LutTableId::LE, i, static_cast<uint16_t>(100 * i));
    for (unsigned i = 0; i < 257; ++i) tables.set(LutTableId::LO, i, static_cast<uint16_t>(-10 * static_cast<int>(i)));
  }
  int32_t run(int32_t x) const { return static_cast<int32_t>(SdpLut(s, tables, false).evaluate(static_cast<uint32_t>(x)).value); }
};

TEST_F(GoldenSdpLut, IntegerInterpolationRoundsHalfAwayFromZero) {
  s.le_linear = true;
  s.le_index_select = 1;
  s.le_start = 0;
  tables.set(LutTableId::LE, 0, 0);
  tables.set(LutTableId::LE, 1, 3);
  EXPECT_EQ(run(1), 2);  // 1.5 -> 2
  tables.set(LutTableId::LE, 1, static_cast<uint16_t>(-3));
  EXPECT_EQ(run(1), -2);  // -1.5 -> -2
  tables.set(LutTableId::LE, 1, static_cast<uint16_t>(-32768));
  tables.set(LutTableId::LE, 2, 32767);
  EXPECT_EQ(run(2), -32768);  // exact entries at F = 0
  EXPECT_EQ(run(3), -1);      // (-32768 + 32767) / 2 = -0.5 -> -1 (half away from zero)
}

TEST_F(GoldenSdpLut, ExtrapolationSlopesShiftsAndSaturation) {
  s.le_linear = true;
  s.le_start = 100;
  s.le_end = 164;
  s.le_index_select = 0;
  s.lo_start = 1000;  // LO underflows everywhere below
  s.le_uflow_scale = 3;
  s.le_uflow_shift = 1;  // right shift with rounding
  EXPECT_EQ(run(95), -8);  // LE[0] + (95 - 100) * 3 / 2 = -7.5 -> -8
  s.le_uflow_shift = -2;  // left shift
  EXPECT_EQ(run(95), -60);
  s.le_uflow_scale = 0x7fff;
  s.le_uflow_shift = -16;
  EXPECT_EQ(run(-2000000000), INT32_MIN);  // SRS saturates, then the sum saturates
  s.oflow_priority_lo = false;
  s.lo_start = -1000000;  // LO overflows above 1000000-ish... keep LO hit free: index >= 256
  s.lo_index_select = 0;
  s.le_oflow_scale = static_cast<uint16_t>(-2);
  s.le_oflow_shift = 0;
  // x = 200000: LE overflows (index 199900 >= 64), LO overflows too; OFLOW priority LE
  EXPECT_EQ(run(200000), 6400 + (200000 - 164) * -2);
}

// sdp.md §15 item 1: exponent-mode underflow anchor bias 2^OFF for 0 <= OFF <= 31, else 0.
TEST_F(GoldenSdpLut, Open1IntegerExponentUnderflowBias) {
  EXPECT_EQ(sdp_lut_int_bias(0), 1);
  EXPECT_EQ(sdp_lut_int_bias(31), int64_t{1} << 31);
  EXPECT_EQ(sdp_lut_int_bias(32), 0);
  EXPECT_EQ(sdp_lut_int_bias(-1), 0);
  s.le_linear = false;
  s.le_index_offset = 0;
  s.le_start = 0;
  s.lo_start = 1000;
  s.le_uflow_scale = 1;
  tables.set(LutTableId::LE, 0, 0);
  EXPECT_EQ(run(-5), -6);  // anchor 0 + 2^0
  s.le_index_offset = 32;
  EXPECT_EQ(run(-5), -5);  // no bias at OFF = 32
}

// sdp.md §15 item 2: the fp bias exponent field is OFF + 127 mod 256.
TEST(GoldenSdpLutFp, Open2FpBiasWrapsTheExponentField) {
  EXPECT_EQ(sdp_lut_fp_bias(0), 0x3f800000u);
  EXPECT_EQ(sdp_lut_fp_bias(-126), 0x00800000u);
  EXPECT_EQ(sdp_lut_fp_bias(-127), 0x00000000u);
  EXPECT_EQ(sdp_lut_fp_bias(-128), 0x7f800000u);
  EXPECT_EQ(sdp_lut_fp_bias(127), 0x7f000000u);
}

// sdp.md §15 item 6: integer LE linear with SEL >= 33 and D >= 2^31 uses the v1 fraction.
TEST_F(GoldenSdpLut, Open6LeLinearWideSelectUsesTheSignExtendedFraction) {
  s.le_linear = true;
  s.le_index_select = 33;
  s.lo_index_select = 33;
  s.le_start = INT32_MIN;
  s.lo_start = INT32_MIN;
  const SdpLut lut(s, tables, false);
  const uint64_t d = (uint64_t{1} << 31) + 5;  // x = 5
  const LutIndex le = lut.index_int(LutTableId::LE, 5), lo = lut.index_int(LutTableId::LO, 5);
  EXPECT_EQ(le.cls, H);
  EXPECT_EQ(le.index, 0u);
  EXPECT_EQ(lo.fraction, d << 2);
  EXPECT_EQ(le.fraction, ((d + (uint64_t{1} << 35) - (uint64_t{1} << 32)) << 2) & ((uint64_t{1} << 35) - 1));
  const LutIndex small = lut.index_int(LutTableId::LE, -5);  // D < 2^31: plain rule
  EXPECT_EQ(small.fraction, ((uint64_t{1} << 31) - 5) << 2);
}

TEST(GoldenSdpLutFp, Fp16LinearHitExponentHitAndUnderflow) {
  LutTables t;
  t.set(LutTableId::LO, 2, 0x3c00);  // 1.0
  t.set(LutTableId::LO, 3, 0x4000);  // 2.0
  t.set(LutTableId::LE, 0, 0x4200);  // 3.0
  t.set(LutTableId::LE, 1, 0x4400);  // 4.0
  LutSettings s;
  s.le_linear = false;
  s.le_index_offset = 0;
  s.le_start = 0x00000000;  // 0.0
  s.lo_start = 0x00000000;
  s.lo_index_select = -1;  // entries 0.5 apart
  s.hybrid_priority_lo = true;
  const SdpLut lut(s, t, true);
  // x = 1.25: LO index floor(2.5) = 2, F = 0.5 -> 1.5; LE e = 0 -> index 0, F = 0.25 -> 3.25
  SdpLutOutcome o = lut.evaluate(0x3fa00000);
  EXPECT_EQ(o.choice.table, LutTableId::LO);
  EXPECT_EQ(o.value, 0x3fc00000u);
  s.hybrid_priority_lo = false;
  o = SdpLut(s, t, true).evaluate(0x3fa00000);
  EXPECT_EQ(o.value, 0x40500000u);  // 3.25
  // NaN and non-positive distances underflow in both tables
  o = SdpLut(s, t, true).evaluate(0x7fc00001);
  EXPECT_EQ(o.le, U);
  EXPECT_EQ(o.lo, U);
  o = SdpLut(s, t, true).evaluate(0x80000000);
  EXPECT_EQ(o.lo, U);
}

}  // namespace
}  // namespace dla::golden
