// sdp.random's sticky sweeps (sdp_sticky_sweep.h): the arithmetic that makes each probe put a
// single set bit under the rounding point's guard bit, the register ranges, the positions the
// sweeps reach, and whole programs on the golden model.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <variant>

#include "dla/golden_model.h"
#include "dla/planted_bug.h"
#include "dla/regs.gen.h"
#include "dla/sparse_memory.h"
#include "dla/test_generator.h"
#include "program_executor.h"
#include "sdp_sticky_sweep.h"

namespace dla {
namespace {

using stimulus::SdpStickySweep;

// Every page of a memory, in address order.
std::vector<uint8_t> image(const SparseMemory& m) {
  std::vector<uint8_t> v;
  m.for_each_page([&](uint64_t, const uint8_t* data, const uint8_t*) { v.insert(v.end(), data, data + SparseMemory::kPageBytes); });
  return v;
}

// The value at the rounding point and the set bits below its guard bit.
struct AtPoint {
  bool guard = false;
  std::vector<unsigned> sticky;
};
AtPoint at_point(int32_t x, const SdpStickySweep& s) {
  // |x| < 2^16 and K <= 45: v fits 64 bits
  const int64_t v = int64_t{x} * (int64_t{1} << s.scale_to_point());
  const auto u = static_cast<uint64_t>(v);
  AtPoint p;
  p.guard = (u >> (s.shift - 1)) & 1;
  for (unsigned i = 0; i + 1 < s.shift; ++i)
    if ((u >> i) & 1) p.sticky.push_back(i);
  return p;
}

TEST(SdpStickySweep, EachNegativeProbeLeavesOneStickyBitUnderASetGuard) {
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    Rng r = Rng::stream(1, "test");
    for (int draw = 0; draw < 200; ++draw) {
      const SdpStickySweep s = stimulus::draw_sdp_sticky_sweep(cfg, r);
      const std::vector<int32_t> probes = s.probes();
      const int32_t top = int32_t{1} << s.a;
      std::set<unsigned> seen;
      for (unsigned b = 0; b < s.a; ++b) {
        const AtPoint p = at_point(-top + (int32_t{1} << b), s);
        EXPECT_TRUE(p.guard) << config << " " << s.describe() << " b " << b;
        ASSERT_EQ(p.sticky.size(), 1u) << config << " " << s.describe() << " b " << b;
        EXPECT_EQ(p.sticky[0], b + s.scale_to_point());
        seen.insert(p.sticky[0]);
      }
      EXPECT_EQ(seen.size(), s.a) << "positions K .. K + a - 1";
      const AtPoint tie = at_point(-top, s);
      EXPECT_TRUE(tie.guard && tie.sticky.empty()) << "an exact tie";
      // every probe fits the precision; the register fields hold their values
      const int32_t lo = s.precision == Precision::Int16 ? -32768 : -128, hi = -lo - 1;
      for (int32_t v : probes) EXPECT_TRUE(v >= lo && v <= hi) << v;
      EXPECT_LE(std::max({s.k_bs, s.k_bn, s.c_cvt}), 14u);
      EXPECT_LE(s.m_ew, 30u);
      // BS and BN results before the point saturate at 32 bits: their scale must leave room
      const uint32_t before = s.point == SdpStickySweep::Point::Bs   ? 0
                              : s.point == SdpStickySweep::Point::Bn ? s.k_bs
                                                                     : s.k_bs + s.k_bn;
      EXPECT_LE(s.a + 1 + before, 31u) << s.describe() << ": a stage output before the point leaves 32 bits";
      const bool ew = s.point == SdpStickySweep::Point::Ew;
      EXPECT_LE(s.shift, ew ? 1023u : 63u) << "the point's shift field";
      if (s.point != SdpStickySweep::Point::Cvt) {
        EXPECT_EQ(s.c_cvt, 0u) << "the converter after the point is the identity";
      }
      if (s.point == SdpStickySweep::Point::Bs) {
        EXPECT_EQ(s.k_bn + s.m_ew, 0u);
      }
      EXPECT_LE(s.scale_to_point(), 45u);
    }
  }
}

// Over many draws every point occurs and the probed positions cover each point's shifter from
// bit 0 to past the middle of its width (BS/BN/converter 49 bits, EW 64).
TEST(SdpStickySweep, DrawsReachEveryPointAndDeepPositions) {
  const HwConfig& cfg = HwConfig::get("v1");
  Rng r = Rng::stream(2, "test");
  std::map<SdpStickySweep::Point, std::set<unsigned>> positions;
  for (int draw = 0; draw < 2000; ++draw) {
    const SdpStickySweep s = stimulus::draw_sdp_sticky_sweep(cfg, r);
    for (unsigned b = 0; b < s.a; ++b) positions[s.point].insert(b + s.scale_to_point());
  }
  ASSERT_EQ(positions.size(), 4u) << "BS, BN, EW and the converter";
  for (const auto& [point, at] : positions) {
    EXPECT_EQ(*at.begin(), 0u);
    EXPECT_GE(*at.rbegin(), point == SdpStickySweep::Point::Bs ? 28u : 40u) << static_cast<int>(point);
  }
}

// The programs run clean on the golden model (small and v1), off is the default, and the
// output converter's tie rule planted wrong (sdp.rounding) changes their outputs.
TEST(SdpStickySweep, LayersRunCleanAndShowARoundingPlant) {
  const TestGenerator& g = find_test_generator("sdp.random");
  unsigned changed = 0, changed_usual = 0;
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const Knobs k = {{"sticky_sweep_percent", "100"}, {"layers", "4"}};
      const Program p = g.generate(cfg, seed, k);
      GoldenModel m(cfg, seed);
      const auto res = test::execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures.front();
      EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings().front();
      unsigned sweeps = 0;
      for (const std::string& n : p.notes) sweeps += n.find("sticky-sweep(") != std::string::npos;
      EXPECT_EQ(sweeps, 4u) << config << " seed " << seed;
      EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"sticky_sweep_percent", "0"}})),
                test::writes_and_loads(g.generate(cfg, seed)))
          << "sticky_sweep_percent=0 is not the default";
      auto plant_changes = [&](const Program& prog) {
        GoldenModel clean(cfg, seed);
        test::execute(prog, clean);
        const golden::PlantedBugScope plant({"sdp.rounding"});
        GoldenModel planted(cfg, seed);
        test::execute(prog, planted);
        return image(planted.memory(MemPort::Dbb)) != image(clean.memory(MemPort::Dbb));
      };
      changed += plant_changes(p);
      changed_usual += plant_changes(g.generate(cfg, seed, {{"layers", "4"}}));
    }
  }
  std::printf("sdp.rounding changed the outputs of %u of 16 sweep programs, %u of 16 usual ones\n", changed, changed_usual);
  EXPECT_GE(changed, 6u) << "sdp.rounding changed the outputs of only " << changed << " of 16 programs";
  EXPECT_GT(changed, changed_usual) << "the sweeps show the tie rule no better than the usual draw";
}

}  // namespace
}  // namespace dla
