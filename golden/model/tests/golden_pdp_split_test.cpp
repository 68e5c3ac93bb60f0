// Golden PDP split-width mode (spec §1.11, §6.1): consistent stripes give the unsplit result,
// stripe boundaries for overlapping, touching and gapped kernels, partial-width rules.
#include <gtest/gtest.h>

#include "golden_pdp_util.h"

namespace dla {
namespace {

using pdptest::PdpHarness;

struct SplitCase {
  const char* name;
  uint32_t format, method, w, h, c, kw, kh, sw, sh;
  std::array<uint32_t, 4> pads;
  uint32_t stripes, out_first, out_mid;
};

uint16_t split_input(uint32_t w, uint32_t h, uint32_t c, uint32_t format) {
  const uint32_t x = (w * 2654435761u) ^ (h * 40503u) ^ (c * 2246822519u);
  if (format == 2) return static_cast<uint16_t>(0x3C00 + (x % 0x0800) - 0x0400) | static_cast<uint16_t>((x & 0x10000) ? 0x8000 : 0);
  return static_cast<uint16_t>(x >> 7);
}

void PrintTo(const SplitCase& c, std::ostream* os) { *os << c.name; }

class GoldenPdpSplit : public ::testing::TestWithParam<SplitCase> {};

TEST_P(GoldenPdpSplit, StripesReproduceTheUnsplitLayer) {
  const SplitCase& sc = GetParam();
  const char* config = sc.format == 0 ? "small" : "v1";
  PdpHarness whole(config), split(config);
  PdpLayer l = pdptest::make_layer(whole.cfg, sc.format, static_cast<PoolMethod>(sc.method), sc.w, sc.h, sc.c, sc.kw,
                                   sc.kh, sc.sw, sc.sh, sc.pads);
  if (sc.format != 2) pdptest::set_int_pad_value(l, -7);
  else for (uint32_t n = 1; n <= 7; ++n) l.pad_value[n - 1] = fp17_of_integer(n) | 0x10000;  // -n
  PdpLayer s = l;
  ASSERT_TRUE(pdp_set_split(s, split.cfg, sc.stripes, sc.out_first, sc.out_mid)) << sc.name;
  ASSERT_EQ(pdp_stripes(s).size(), sc.stripes);
  auto value = [&](uint32_t w, uint32_t h, uint32_t c) { return split_input(w, h, c, sc.format); };
  whole.fill_input(l, value);
  split.fill_input(s, value);
  whole.run(l);
  split.run(s);
  split.expect_done(0);
  EXPECT_TRUE(split.m.warnings().empty());
  const uint32_t channels = pdptest::surfaces(whole.cfg, l) * pdptest::lanes(whole.cfg, l);
  for (uint32_t c = 0; c < channels; ++c)
    for (uint32_t oy = 0; oy < l.out_height; ++oy)
      for (uint32_t ox = 0; ox < l.out_width; ++ox)
        ASSERT_EQ(split.output(s, ox, oy, c), whole.output(l, ox, oy, c))
            << sc.name << ": output (" << ox << "," << oy << ") lane " << c;
  // Same bytes written, nothing else: compare the write footprints.
  std::vector<uint64_t> a, b;
  whole.m.memory(MemPort::Dbb).for_each_page_with_footprint([&](uint64_t base, const uint8_t*, const uint8_t*, const uint8_t* fp) {
    for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i) if (fp[i]) a.push_back(base + i);
  });
  split.m.memory(MemPort::Dbb).for_each_page_with_footprint([&](uint64_t base, const uint8_t*, const uint8_t*, const uint8_t* fp) {
    for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i) if (fp[i]) b.push_back(base + i);
  });
  EXPECT_EQ(a, b);
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, GoldenPdpSplit,
    ::testing::Values(
        // The published 3-stripe max test's geometry (kw 4 > sw 2: two overlap columns).
        SplitCase{"trace_16x6x16_overlap", 0, 1, 16, 6, 16, 4, 2, 2, 2, {2, 1, 2, 1}, 3, 1, 6},
        SplitCase{"two_stripes_overlap_avg", 0, 0, 5, 7, 8, 4, 1, 2, 1, {1, 0, 0, 0}, 2, 1, 1},
        SplitCase{"touching_kw_eq_sw_avg", 0, 0, 12, 4, 9, 3, 3, 3, 1, {0, 1, 0, 1}, 4, 1, 1},
        SplitCase{"gap_kw_lt_sw_min", 0, 2, 17, 3, 8, 2, 2, 4, 2, {1, 0, 1, 1}, 3, 1, 2},
        SplitCase{"many_stripes_avg_pads", 0, 0, 23, 5, 20, 5, 3, 2, 2, {3, 2, 4, 2}, 5, 2, 2},
        SplitCase{"int16_avg", 1, 0, 14, 4, 20, 3, 3, 1, 1, {1, 1, 2, 1}, 3, 4, 5},
        SplitCase{"fp16_avg", 2, 0, 13, 3, 17, 3, 2, 2, 1, {2, 1, 1, 0}, 3, 2, 2},
        SplitCase{"fp16_max", 2, 1, 11, 3, 5, 4, 2, 3, 1, {3, 0, 2, 1}, 2, 2, 1}),
    [](const ::testing::TestParamInfo<SplitCase>& i) { return std::string(i.param.name); });

// The stripe table of §1.11 for the published 16x6x16 test (W 16, kw 4, sw 2, pads 2/2).
TEST(GoldenPdpSplitPlan, StripeColumnsFollowTheSpecTable) {
  const HwConfig& cfg = HwConfig::get("small");
  PdpLayer l = pdptest::make_layer(cfg, 0, PoolMethod::Max, 16, 6, 16, 4, 2, 2, 2, {2, 1, 2, 1});
  ASSERT_TRUE(pdp_set_split(l, cfg, 3, 1, 6));
  EXPECT_EQ(l.in_first, 2u);
  EXPECT_EQ(l.in_mid, 12u);
  EXPECT_EQ(l.in_last, 2u);
  EXPECT_EQ(l.out_last, 2u);
  const auto s = pdp_stripes(l);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].in_start, 0);  EXPECT_EQ(s[0].in_width, 2u);  EXPECT_EQ(s[0].pad_left, 2u);
  EXPECT_EQ(s[0].out_start, 0u); EXPECT_EQ(s[0].out_width, 1u);
  EXPECT_EQ(s[1].in_start, 0);  EXPECT_EQ(s[1].in_width, 14u); EXPECT_EQ(s[1].pad_left, 0u);
  EXPECT_EQ(s[1].out_start, 1u); EXPECT_EQ(s[1].out_width, 6u);
  EXPECT_EQ(s[2].in_start, 12); EXPECT_EQ(s[2].in_width, 4u);  EXPECT_EQ(s[2].pad_right, 2u);
  EXPECT_EQ(s[2].out_start, 7u); EXPECT_EQ(s[2].out_width, 2u);
  // Register encoding of the trace: PARTIAL_WIDTH_IN 0xb00401, PARTIAL_WIDTH_OUT 0x500400.
  for (const auto& [off, v] : pdp_register_values(l)) {
    if (off == reg::PDP::D_PARTIAL_WIDTH_IN::offset) {
      EXPECT_EQ(v, 0xb00401u);
    }
    if (off == reg::PDP::D_PARTIAL_WIDTH_OUT::offset) {
      EXPECT_EQ(v, 0x500400u);
    }
    if (off == reg::PDP::D_OPERATION_MODE_CFG::offset) {
      EXPECT_EQ(v, 0x211u);
    }
  }
}

// Partial widths that do not add up, or stripes that do not start their first window at
// the right column, are reported (the generators never produce them).
TEST(GoldenPdpSplitPlan, InconsistentPartialWidthsAreViolations) {
  const HwConfig& cfg = HwConfig::get("small");
  PdpLayer l = pdptest::make_layer(cfg, 0, PoolMethod::Max, 16, 6, 16, 4, 2, 2, 2, {2, 1, 2, 1});
  ASSERT_TRUE(pdp_set_split(l, cfg, 3, 1, 6));
  EXPECT_TRUE(pdp_layer_violations(l, cfg).empty());
  PdpLayer a = l;
  a.in_first += 1, a.in_last -= 1;  // sums still match, first stripe misaligned
  EXPECT_FALSE(pdp_layer_violations(a, cfg).empty());
  PdpLayer b = l;
  b.out_last += 1;
  const auto v = pdp_layer_violations(b, cfg);
  ASSERT_FALSE(v.empty());
  EXPECT_NE(v[0].find("D_PARTIAL_WIDTH_OUT"), std::string::npos) << v[0];
  EXPECT_FALSE(pdp_set_split(l, cfg, 3, 9, 6));  // no room for a last stripe
}

// fp16 input counters follow the RDMA's reads: overlap columns are read (and counted) once
// per stripe that reads them (spec §1.9 "elements read by PDP_RDMA", §6.1 read order).
TEST(GoldenPdpSplitCounters, OverlapColumnsAreCountedPerRead) {
  PdpHarness t("v1");
  PdpLayer l = pdptest::make_layer(t.cfg, 2, PoolMethod::Max, 5, 1, 16, 4, 1, 2, 1, {1, 0, 0, 0});
  ASSERT_TRUE(pdp_set_split(l, t.cfg, 2, 1, 1));
  const auto s = pdp_stripes(l);
  ASSERT_EQ(s.size(), 2u);
  // first stripe reads columns 0..2, second 1..4: columns 1 and 2 are read twice.
  ASSERT_EQ(s[0].in_width, 3u);
  ASSERT_EQ(s[1].in_start, 1);
  t.fill_input(l, [](uint32_t w, uint32_t, uint32_t c) {
    if (c == 0 && w == 1) return uint16_t{0x7E01};  // NaN
    if (c == 3 && w == 4) return uint16_t{0xFC00};  // -Inf, read once
    if (c == 4 && w == 2) return uint16_t{0x7C00};  // +Inf, read twice
    return uint16_t{0x3C00};
  });
  t.run(l);
  EXPECT_EQ(t.counter(reg::PDP::D_NAN_INPUT_NUM::offset, 0), 2u);
  EXPECT_EQ(t.counter(reg::PDP::D_INF_INPUT_NUM::offset, 0), 3u);
}

}  // namespace
}  // namespace dla
