// CDP datapath stages (spec §2.5, §2.6, §2.8-§2.11): converters, the window across atom and
// surface boundaries, pad lanes, bypasses, the saturation counter's one-step quirk, fp16 NaN
// handling and the fp16 counters.
#include <gtest/gtest.h>

#include "../src/cdp_datapath.h"
#include "dla/planted_bug.h"

namespace dla::golden {
namespace {

// LUT that always returns LE[0] = y through an underflow with zero slope.
struct ConstLut {
  explicit ConstLut(int16_t y) {
    tables.set(LutTableId::LE, 0, static_cast<uint16_t>(y));
    layer.lut.le_linear = true;
    layer.lut.le_start = layer.lut.lo_start = layer.le_start_compare = layer.lo_start_compare = int64_t{1} << 36;
  }
  LutTables tables;
  CdpLayer layer;
};

TEST(CdpDatapath, Int8InputConverterUsesLowOffsetByteAndNineBitSaturation) {
  ConstLut c(1);
  c.layer.format = 0;
  c.layer.in_offset = -128;  // what decode makes of DATIN_OFFSET = 0x80
  const CdpDatapath dp(c.layer, c.tables, 8);
  EXPECT_EQ(dp.input_convert(0x80), 0);   // -128 - (-128)
  EXPECT_EQ(dp.input_convert(0x7f), 255);
  c.layer.in_scale = 3;
  const CdpDatapath dp3(c.layer, c.tables, 8);
  EXPECT_EQ(dp3.input_convert(0x7f), 255);  // 765 saturates to 9 bits
  c.layer.in_offset = 2;
  c.layer.in_shift = 1;
  const CdpDatapath ex(c.layer, c.tables, 8);
  EXPECT_EQ(ex.input_convert(static_cast<uint8_t>(-7)), -14);  // -13.5 -> -14 (§7.2)
  EXPECT_EQ(ex.input_convert(45), 65);                         // 64.5 -> 65
}

TEST(CdpDatapath, SaturationCounterIgnoresOneStepClips) {
  ConstLut c(1);
  c.layer.format = 0;
  c.layer.out_shift = 4;
  const CdpDatapath dp(c.layer, c.tables, 8);
  bool sat = false;
  EXPECT_EQ(dp.output_convert(2042, sat), 127);  // 127.6 -> 127 (rounds to 128, clipped)
  EXPECT_FALSE(sat);
  EXPECT_EQ(dp.output_convert(2053, sat), 127);  // 128.3 -> 127
  EXPECT_FALSE(sat);
  EXPECT_EQ(dp.output_convert(129 * 16, sat), 127);  // 129.0 -> 127 counts
  EXPECT_TRUE(sat);
  EXPECT_EQ(dp.output_convert(-129 * 16, sat), 0x80);  // -129 -> -128, one step: not counted
  EXPECT_FALSE(sat);
  EXPECT_EQ(dp.output_convert(-130 * 16, sat), 0x80);
  EXPECT_TRUE(sat);
}

TEST(CdpDatapath, WindowCrossesSurfacesPadLanesAreZeroAndStillCounted) {
  // 4 lanes per atom, C = 6 over two surfaces (lanes 6, 7 are pads); n = 3; SQSUM feeds the
  // LUT, MUL bypassed, LUT = identity-like linear LO table: out = SUM via slope 1 extrapolation.
  LutTables t;
  CdpLayer l;
  l.format = 0;
  l.channels = 6;
  l.radius = 1;
  l.mul_bypass = true;
  l.lut.le_linear = true;
  l.lut.le_start = l.lut.lo_start = l.le_start_compare = l.lo_start_compare = 1000;  // both underflow
  l.lut.le_uflow_scale = 1;  // LE[0] + (s - 1000) * 1
  t.set(LutTableId::LE, 0, 1000);
  const CdpDatapath dp(l, t, 4);
  CdpCounters c;
  const std::vector<uint16_t> in = {1, 2, 3, 4, 5, 6, 0x55, 0x66};
  const std::vector<uint16_t> out = dp.process(in, c);
  const int sums[] = {1 + 4, 1 + 4 + 9, 4 + 9 + 16, 9 + 16 + 25, 16 + 25 + 36, 25 + 36, 36, 0};
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(static_cast<int8_t>(out[i]), sums[i]) << "lane " << i;
  EXPECT_EQ(c.lut_uflow, 8u);
  {  // the planted bug stops the window at the surface edge: lanes 3 and 4 change
    const PlantedBugScope plant({"cdp.window_edge"});
    CdpCounters c2;
    const std::vector<uint16_t> bad = dp.process(in, c2);
    EXPECT_EQ(static_cast<int8_t>(bad[3]), 9 + 16);
    EXPECT_EQ(static_cast<int8_t>(bad[4]), 25 + 36);
  }
}

TEST(CdpDatapath, MultiplyByTheSourceAndSquareSumBypass) {
  ConstLut c(3);
  c.layer.format = 1;  // int16
  c.layer.channels = 2;
  c.layer.sqsum_bypass = true;
  const CdpDatapath dp(c.layer, c.tables, 2);
  CdpCounters k;
  const std::vector<uint16_t> out = dp.process({100, static_cast<uint16_t>(-20000)}, k);
  EXPECT_EQ(out[0], 300);
  EXPECT_EQ(out[1], 0x8000);  // -60000 saturates to int16
  EXPECT_EQ(k.out_saturation, 1u);
}

TEST(CdpDatapath, Fp16NanFlushPassThroughAndCounters) {
  ConstLut c(0x3c00);  // fp16 1.0 in LE[0]
  c.layer.format = 2;
  c.layer.channels = 3;
  c.layer.lut.le_start = c.layer.lut.lo_start = 0x7f000000;  // huge fp32: everything underflows
  c.layer.mul_bypass = true;
  const CdpDatapath dp(c.layer, c.tables, 4);
  CdpCounters k;
  const std::vector<uint16_t> in = {0x7e01, 0x7c00, 0x4000, 0xfe00};  // NaN, +Inf, 2.0, pad NaN
  std::vector<uint16_t> out = dp.process(in, k);
  EXPECT_EQ(out[0], 0x7e01);  // MUL_BYPASS: a NaN input passes through as itself
  EXPECT_EQ(k.nan_input, 2u);
  EXPECT_EQ(k.inf_input, 1u);
  EXPECT_EQ(out[1], 0x7e01);  // lane 1's window sum holds lane 0's NaN square
  EXPECT_EQ(k.nan_output, 2u);
  EXPECT_EQ(k.lut_uflow, 4u);  // NaN sums underflow too
  c.layer.nan_to_zero = true;
  c.layer.mul_bypass = false;
  const CdpDatapath flush(c.layer, c.tables, 4);
  CdpCounters f;
  out = flush.process(in, f);
  EXPECT_EQ(out[0], 0x0000);  // flushed to +0, times the LUT result
  EXPECT_EQ(out[2], 0x4000);  // 2.0 * 1.0
  EXPECT_EQ(out[3], 0x0000);  // pad lane: +0 * 1.0
  EXPECT_EQ(f.nan_input, 2u);  // counted before flushing
  EXPECT_EQ(f.nan_output, 0u);
}

}  // namespace
}  // namespace dla::golden
