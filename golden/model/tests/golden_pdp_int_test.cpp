// Golden PDP, integer paths (spec §1.4-§1.7, §1.10, §7.1): worked example, padding classes,
// reciprocal rounding, wrap-around, pad lanes.
#include <gtest/gtest.h>

#include "golden_pdp_util.h"

namespace dla {
namespace {

using pdptest::PdpHarness;

// Spec §7.1 input plane (h, w).
constexpr int kPlane71[4][4] = {{10, -20, 30, 7}, {5, 100, -128, 64}, {-127, 0, -1, 3}, {-50, 25, 12, 9}};

PdpLayer worked_example_layer(const HwConfig& cfg, PoolMethod method) {
  PdpLayer l = pdptest::make_layer(cfg, 0, method, 4, 4, 1, 3, 3, 2, 2, {1, 1, 1, 1});
  pdptest::set_int_pad_value(l, -3);
  return l;
}

void fill_worked_example(PdpHarness& t, const PdpLayer& l) {
  // Every lane (pad lanes included) holds the plane, shifted by the lane so lanes differ.
  t.fill_input(l, [](uint32_t w, uint32_t h, uint32_t c) {
    return static_cast<uint16_t>(static_cast<uint8_t>(c == 0 ? kPlane71[h][w] : (kPlane71[h][w] + int(c)) % 100));
  });
}

class GoldenPdpWorkedExample : public ::testing::TestWithParam<const char*> {};

TEST_P(GoldenPdpWorkedExample, AverageMaxMinOfSection71) {
  struct Case {
    PoolMethod method;
    int expect[2][2];  // [oy][ox]
  };
  const Case cases[] = {{PoolMethod::Average, {{9, 5}, {-6, 9}}},
                        {PoolMethod::Max, {{100, 100}, {100, 100}}},
                        {PoolMethod::Min, {{-20, -128}, {-127, -128}}}};
  for (const Case& c : cases) {
    PdpHarness t(GetParam());
    const PdpLayer l = worked_example_layer(t.cfg, c.method);
    ASSERT_EQ(l.out_width, 2u);
    ASSERT_EQ(l.recip_w, 0x5555u);
    ASSERT_EQ(l.pad_value[0], 0x7FFFDu);
    ASSERT_EQ(l.pad_value[6], 0x7FFEBu);
    ASSERT_TRUE(pdp_layer_violations(l, t.cfg).empty());
    fill_worked_example(t, l);
    t.run(l);
    t.expect_done(0);
    for (uint32_t oy = 0; oy < 2; ++oy)
      for (uint32_t ox = 0; ox < 2; ++ox)
        EXPECT_EQ(t.output_int(l, ox, oy, 0), c.expect[oy][ox])
            << pool_method_name(c.method) << " output (" << ox << "," << oy << ")";
    EXPECT_TRUE(t.m.warnings().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, GoldenPdpWorkedExample, ::testing::Values("v1", "small"));

// The §7.1 tie case and other exact halves: both reciprocal steps round half away from zero.
TEST(GoldenPdpRounding, ExactHalvesRoundAwayFromZeroAtBothSteps) {
  struct Case {
    int sum;     // T of a 2x2 window (RECIP 0x8000 twice)
    int expect;  // rha(rha(T/2)/2)
  };
  // T=-10: A=-5, -2.5 -> -3. T=-5: A=-2.5 -> -3, -1.5 -> -2 (half-up: -2, -1). T=6: 1.5 -> 2.
  const Case cases[] = {{-10, -3}, {10, 3}, {-5, -2}, {5, 2}, {-6, -2}, {6, 2}, {-2, -1}, {2, 1}, {-1, -1}, {1, 1}};
  for (const Case& c : cases) {
    PdpHarness t("small");
    PdpLayer l = pdptest::make_layer(t.cfg, 0, PoolMethod::Average, 2, 2, 1, 2, 2, 1, 1);
    ASSERT_EQ(l.recip_w, 0x8000u);
    // Window of four elements summing to c.sum: (sum, 0, 0, 0).
    t.fill_input(l, [&](uint32_t w, uint32_t h, uint32_t) {
      return static_cast<uint16_t>(static_cast<uint8_t>(w == 0 && h == 0 ? c.sum : 0));
    });
    t.run(l);
    EXPECT_EQ(t.output_int(l, 0, 0, 0), c.expect) << "T = " << c.sum;
  }
}

// Spec §1.7 / open point 4: the RTL's stage widths, not the reference model's 32 bits.
TEST(GoldenPdpOpenPoints, NonStandardReciprocalsWrapAtTheRtlStageWidths) {
  struct Case {
    const char* what;
    uint32_t format, kw, recip_w, recip_h;
    int64_t element;
    int64_t expect;
  };
  const Case cases[] = {
      // int8: 254 * 0x8000 = 127, then 127 * 0x10200 rounds to 128 -> wraps to -128.
      {"int8 final wrap", 0, 2, 0x8000, 0x10200, 127, -128},
      // int8: T = 1000, width stage 1999.98 -> keeps 10 bits + round = 976 (11-bit stage), * 0.5 -> 488 -> 104.
      {"int8 width stage", 0, 8, 0x1FFFF, 0x8000, 125, 104},
      // int16: 65534 * 0x8000 = 32767, * 0x10002 rounds to 32768 -> -32768.
      {"int16 final wrap", 1, 2, 0x8000, 0x10002, 32767, -32768},
      // int16: T = 262136 * 0x1FFFF -> 19-bit stage 262124, * 0x5555 -> 21837.
      {"int16 width stage", 1, 8, 0x1FFFF, 0x5555, 32767, 21837},
  };
  for (const Case& c : cases) {
    PdpHarness t("v1");
    PdpLayer l = pdptest::make_layer(t.cfg, c.format, PoolMethod::Average, c.kw, 1, 1, c.kw, 1, 1, 1);
    l.recip_w = c.recip_w;
    l.recip_h = c.recip_h;
    t.fill_input(l, [&](uint32_t, uint32_t, uint32_t) { return static_cast<uint16_t>(c.element); });
    t.run(l);
    EXPECT_EQ(t.output_int(l, 0, 0, 0), c.expect) << c.what;
  }
}

// Spec §1.6 table / open point 3: int8 width padding reads bits [10:0] of the entry (the
// reference model would sign-extend from bit 7), the height padding all 19 bits.
TEST(GoldenPdpOpenPoints, Int8PadEntriesUseTheRtlBits) {
  PdpHarness t("small");
  // 1x1 input, kernel 2x1 with one left pad column: out = rha(rha((x + PV_w(1)) * 0x8000)).
  PdpLayer l = pdptest::make_layer(t.cfg, 0, PoolMethod::Average, 1, 1, 1, 2, 1, 1, 1, {1, 0, 0, 0});
  l.pad_value[0] = 0x000FD;  // bits [10:0] = +253; sign-extended from bit 7 it would be -3
  l.recip_w = 0x2000;        // 1/8 keeps the result in range: (1 + 253) / 8 = 31.75 -> 32
  t.fill_input(l, [](uint32_t, uint32_t, uint32_t) { return uint16_t{1}; });
  t.run(l);
  EXPECT_EQ(t.output_int(l, 0, 0, 0), 32);

  // Height padding: sx_19(entry) * kw, kept in 14 bits. Kernel 1x2, one top pad row.
  PdpHarness u("small");
  PdpLayer h = pdptest::make_layer(u.cfg, 0, PoolMethod::Average, 1, 1, 1, 1, 2, 1, 1, {0, 1, 0, 0});
  h.pad_value[0] = 0x7FF00;  // -256 in 19 bits (would be 0 if only bits [7:0] were used)
  h.recip_h = 0x2000;        // (4 - 256) / 8 = -31.5 -> -32
  u.fill_input(h, [](uint32_t, uint32_t, uint32_t) { return uint16_t{4}; });
  u.run(h);
  EXPECT_EQ(u.output_int(h, 0, 0, 0), -32);
}

// Each padding class against an independent reference: T = real sum + v * padded count.
struct PadCase {
  const char* name;
  uint32_t w, h, kw, kh, sw, sh;
  std::array<uint32_t, 4> pads;
  int64_t v;
};

void PrintTo(const PadCase& c, std::ostream* os) { *os << c.name; }

class GoldenPdpPadding : public ::testing::TestWithParam<PadCase> {};

TEST_P(GoldenPdpPadding, AverageMatchesTheClosedForm) {
  const PadCase& pc = GetParam();
  for (const char* config : {"small", "v1"}) {
    PdpHarness t(config);
    PdpLayer l = pdptest::make_layer(t.cfg, 0, PoolMethod::Average, pc.w, pc.h, 3, pc.kw, pc.kh, pc.sw, pc.sh, pc.pads);
    pdptest::set_int_pad_value(l, pc.v);
    ASSERT_TRUE(pdp_layer_violations(l, t.cfg).empty()) << pdp_layer_violations(l, t.cfg)[0];
    auto value = [](uint32_t w, uint32_t h, uint32_t c) {
      return static_cast<int64_t>(static_cast<int8_t>((w * 37 + h * 91 + c * 53 + 11) & 0xFF));
    };
    t.fill_input(l, [&](uint32_t w, uint32_t h, uint32_t c) { return static_cast<uint16_t>(value(w, h, c) & 0xFF); });
    t.run(l);
    t.expect_done(0);
    for (uint32_t c = 0; c < pdptest::lanes(t.cfg, l); ++c)  // real and pad lanes alike
      for (uint32_t oy = 0; oy < l.out_height; ++oy)
        for (uint32_t ox = 0; ox < l.out_width; ++ox) {
          const int64_t ref = pdptest::reference_int_average(
              [&](int64_t x, int64_t y) { return value(static_cast<uint32_t>(x), static_cast<uint32_t>(y), c); }, l,
              pc.v, ox, oy);
          ASSERT_EQ(t.output_int(l, ox, oy, c), ref) << config << " lane " << c << " out (" << ox << "," << oy << ")";
        }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Classes, GoldenPdpPadding,
    ::testing::Values(PadCase{"none", 5, 4, 2, 2, 1, 1, {0, 0, 0, 0}, 0},
                      PadCase{"left", 6, 3, 3, 1, 1, 1, {2, 0, 0, 0}, -5},
                      PadCase{"right", 6, 3, 4, 1, 2, 1, {0, 0, 3, 0}, 7},
                      PadCase{"top", 3, 6, 1, 3, 1, 2, {0, 2, 0, 0}, -9},
                      PadCase{"bottom", 3, 6, 2, 4, 1, 1, {0, 0, 0, 3}, 4},
                      PadCase{"all_sides_corners", 5, 5, 3, 3, 2, 2, {1, 1, 1, 1}, -3},
                      PadCase{"kernel_wider_than_input", 2, 2, 8, 8, 1, 1, {6, 6, 6, 6}, 2},
                      PadCase{"one_element_cube", 1, 1, 3, 3, 2, 2, {2, 2, 0, 0}, -1},
                      PadCase{"asymmetric_large", 9, 7, 8, 5, 3, 2, {7, 4, 5, 2}, 127},
                      PadCase{"stride_beyond_kernel", 9, 9, 2, 2, 4, 3, {1, 1, 1, 1}, -128}),
    [](const ::testing::TestParamInfo<PadCase>& i) { return std::string(i.param.name); });

// Max/min ignore padding and every pad value; extremes of int8/int16 survive unchanged.
TEST(GoldenPdpExtremes, MaxMinIgnorePaddingAndKeepExtremes) {
  for (uint32_t format : {0u, 1u}) {
    for (PoolMethod method : {PoolMethod::Max, PoolMethod::Min}) {
      PdpHarness t("v1");
      PdpLayer l = pdptest::make_layer(t.cfg, format, method, 3, 3, 2, 3, 3, 1, 1, {2, 2, 2, 2});
      pdptest::set_int_pad_value(l, method == PoolMethod::Max ? 100000 : -100000);  // would win if used
      const int64_t lo = format == 0 ? -128 : -32768, hi = format == 0 ? 127 : 32767;
      t.fill_input(l, [&](uint32_t w, uint32_t h, uint32_t c) {
        const int64_t v = (w + h + c) % 3 == 0 ? hi : (w + h + c) % 3 == 1 ? lo : 0;
        return static_cast<uint16_t>(v & 0xFFFF);
      });
      t.run(l);
      for (uint32_t oy = 0; oy < l.out_height; ++oy)
        for (uint32_t ox = 0; ox < l.out_width; ++ox)
          for (uint32_t c = 0; c < 2; ++c) {
            int64_t expect = method == PoolMethod::Max ? lo : hi;
            for (int64_t y = int64_t{oy} - 2; y < int64_t{oy} + 1; ++y)
              for (int64_t x = int64_t{ox} - 2; x < int64_t{ox} + 1; ++x)
                if (x >= 0 && x < 3 && y >= 0 && y < 3) {
                  const uint32_t k = static_cast<uint32_t>(x + y) + c;
                  const int64_t v = k % 3 == 0 ? hi : k % 3 == 1 ? lo : 0;
                  expect = method == PoolMethod::Max ? std::max(expect, v) : std::min(expect, v);
                }
            ASSERT_EQ(t.output_int(l, ox, oy, c), expect);
          }
    }
  }
}

// Spec §1.10, §6.1: pad lanes are pooled like channels, every lane of an output atom is
// written, gaps left by larger strides keep their contents.
TEST(GoldenPdpPadLanes, PadLanesArePooledAndGapsAreUntouched) {
  PdpHarness t("small");  // 8 lanes per atom: 19 channels = 3 surfaces, 5 pad lanes
  PdpLayer l = pdptest::make_layer(t.cfg, 0, PoolMethod::Max, 4, 3, 19, 2, 2, 2, 1);
  l.dst_line = (l.out_width + 1) * 8;        // one gap atom per line
  l.dst_surface = l.dst_line * l.out_height + 16;  // two gap atoms per surface
  const uint64_t extent = 3 * l.dst_surface;
  t.m.memory(MemPort::Dbb).load(l.dst, std::vector<uint8_t>(extent, 0xA5));
  t.fill_input(l, [](uint32_t w, uint32_t h, uint32_t c) { return static_cast<uint16_t>((c * 5 + w + 3 * h) & 0x7F); });
  t.run(l);
  for (uint32_t c = 16; c < 24; ++c)  // last surface: real lanes 16..18, pad lanes 19..23
    for (uint32_t oy = 0; oy < l.out_height; ++oy)
      for (uint32_t ox = 0; ox < l.out_width; ++ox) {
        const int64_t expect = (c * 5 + (2 * ox + 1) + 3 * (oy + 1)) & 0x7F;
        EXPECT_EQ(t.output_int(l, ox, oy, c), expect) << "lane " << c;
      }
  size_t untouched = 0;
  for (uint64_t a = l.dst; a < l.dst + extent; ++a) {
    const uint64_t off = a - l.dst, in_surface = off % l.dst_surface, in_line = in_surface % l.dst_line;
    const bool data = in_surface < l.dst_line * l.out_height && in_line < l.out_width * 8u;
    if (!data) {
      ASSERT_EQ(t.m.memory(MemPort::Dbb).read_byte(a), 0xA5) << "gap byte at offset " << off << " was written";
      ++untouched;
    }
  }
  EXPECT_EQ(untouched, 3u * (l.out_height * 8u + 16u));
}

}  // namespace
}  // namespace dla
