// sdp.random: legality (the golden model raises no rule warning and every layer completes),
// determinism, knob handling, and coverage of the settings the issue lists.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <set>
#include <variant>

#include "dla/golden_model.h"
#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "armed_writes_check.h"
#include "busy_reads_check.h"
#include "high_addresses_check.h"
#include "program_executor.h"

namespace dla {
namespace {

const TestGenerator& sdp_random() { return find_test_generator("sdp.random"); }

struct SdpRun {
  Program program;
  std::vector<std::string> failures, warnings;
};

SdpRun run(const HwConfig& cfg, uint64_t seed, const Knobs& k = {}) {
  SdpRun r{sdp_random().generate(cfg, seed, k), {}, {}};
  GoldenModel m(cfg, seed);
  const auto res = test::execute(r.program, m);
  r.failures = res.failures;
  r.warnings = m.warnings();
  return r;
}

TEST(SdpRandom, EverySeedIsLegalAndCompletesOnBothConfigurations) {
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      const SdpRun r = run(cfg, seed);
      EXPECT_TRUE(r.failures.empty()) << name << " seed " << seed << ": " << r.failures.front();
      EXPECT_TRUE(r.warnings.empty()) << name << " seed " << seed << ": " << r.warnings.front();
    }
  }
}

// sram_percent: the input, the output and every memory operand stream go to the CV-SRAM at that
// rate, their RAM-type bits saying so; clean on the golden model; 0 is the default; refused on a
// configuration without the SRAM port.
TEST(SdpRandom, SramPercentMovesRegionsToTheSramWithTheirRamType) {
  namespace R = reg::SDP_RDMA;
  namespace S = reg::SDP;
  const HwConfig& v1 = HwConfig::get("v1");
  const uint32_t rdma = *v1.unit_base[static_cast<unsigned>(Unit::SDP_RDMA)];
  const uint32_t sdp = *v1.unit_base[static_cast<unsigned>(Unit::SDP)];
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const SdpRun half = run(v1, seed, {{"sram_percent", "50"}, {"layers", "3"}});
    EXPECT_TRUE(half.failures.empty()) << "seed " << seed << ": " << half.failures.front();
    EXPECT_TRUE(half.warnings.empty()) << "seed " << seed << ": " << half.warnings.front();
    EXPECT_EQ(test::writes_and_loads(sdp_random().generate(v1, seed, {{"sram_percent", "0"}})),
              test::writes_and_loads(sdp_random().generate(v1, seed)))
        << "seed " << seed << ": sram_percent=0 is not the default";
  }
  unsigned regions = 0, in_sram = 0, sram_loads = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const SdpRun all = run(v1, seed, {{"sram_percent", "100"}, {"layers", "3"}});
    EXPECT_TRUE(all.failures.empty()) << "seed " << seed << ": " << all.failures.front();
    for (const ProgramOp& op : all.program.ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) sram_loads += l->port == MemPort::Sram;
      const auto* w = std::get_if<RegWrite>(&op);
      if (w == nullptr) continue;
      if (w->addr == rdma + R::D_SRC_DMA_CFG::offset || w->addr == sdp + S::D_DST_DMA_CFG::offset) {
        ++regions;
        in_sram += (w->data & 1u) == 0;
      }
      for (uint32_t stream : {R::D_BRDMA_CFG::offset, R::D_NRDMA_CFG::offset, R::D_ERDMA_CFG::offset})
        if (w->addr == rdma + stream && (w->data & 1u) == 0) {  // an enabled stream
          ++regions;
          in_sram += (w->data >> 5 & 1u) == 0;
        }
    }
  }
  EXPECT_GE(regions, 30u);
  EXPECT_EQ(in_sram, regions) << "every region in the SRAM at 100 %";
  EXPECT_GE(sram_loads, regions);
  EXPECT_THROW(sdp_random().generate(HwConfig::get("small"), 1, {{"sram_percent", "10"}}), std::invalid_argument);
}

// lut_readback=on: every LUT load writes past each table's end and reads both whole tables back
// (65 + 1 and 257 + 1 reads, the golden model's values expected); clean on the golden model;
// off is the default; refused without the LUT.
TEST(SdpRandom, LutReadbackReadsBothWholeTablesAndOffIsTheDefault) {
  namespace S = reg::SDP;
  const HwConfig& v1 = HwConfig::get("v1");
  const uint32_t sdp = *v1.unit_base[static_cast<unsigned>(Unit::SDP)];
  unsigned loads = 0, readbacks = 0, overruns = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const SdpRun r = run(v1, seed, {{"lut_readback", "on"}, {"layers", "3"}});
    EXPECT_TRUE(r.failures.empty()) << "seed " << seed << ": " << r.failures.front();
    EXPECT_TRUE(r.warnings.empty()) << "seed " << seed << ": " << r.warnings.front();
    unsigned data_writes = 0, table_entries = 0;
    for (const ProgramOp& op : r.program.ops) {
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (w->addr == sdp + S::S_LUT_ACCESS_CFG::offset) {
          if (table_entries != 0 && data_writes > table_entries) ++overruns;
          data_writes = 0;
          table_entries = (w->data >> 17 & 1u) ? ((w->data >> 16 & 1u) ? 257 : 65) : 0;
          loads += (w->data >> 17 & 1u) && !(w->data >> 16 & 1u);
        }
        if (w->addr == sdp + S::S_LUT_ACCESS_DATA::offset) ++data_writes;
      }
      if (const auto* rd = std::get_if<RegRead>(&op))
        readbacks += rd->addr == sdp + S::S_LUT_ACCESS_DATA::offset && rd->what.find("(read back)") != std::string::npos;
    }
    EXPECT_EQ(test::writes_and_loads(sdp_random().generate(v1, seed, {{"lut_readback", "off"}})),
              test::writes_and_loads(sdp_random().generate(v1, seed)))
        << "seed " << seed << ": lut_readback=off is not the default";
  }
  EXPECT_GE(loads, 5u) << "too few LUT loads in 30 layers";
  EXPECT_EQ(readbacks, loads * (66u + 258u)) << "each LUT load reads both whole tables and one entry past each end";
  EXPECT_GE(overruns, loads) << "too few writes past a table's end";
  EXPECT_THROW(sdp_random().generate(HwConfig::get("small"), 1, {{"lut_readback", "on"}}), std::invalid_argument);
}

// high_addresses=on: the regions start anywhere in the address space (every bit toggles).
TEST(SdpRandom, HighAddressesToggleEveryAddressBitAndOffIsTheDefault) {
  test::expect_high_addresses_toggle_every_bit("sdp.random");
}

TEST(SdpRandom, ArmedWritesAreReadBackAndOffIsTheDefault) { test::expect_armed_writes_read_back("sdp.random", Unit::SDP); }

// busy_reads=on: twelve arm-cleared counters per layer; SDP's one and SDP_RDMA's four stall counters.
TEST(SdpRandom, BusyReadsFollowEveryArmAndOffIsTheDefault) {
  test::expect_busy_reads_after_every_arm(
      "sdp.random", {{"max_width", "24"}, {"max_height", "16"}, {"max_channels", "64"}, {"layers", "3"}}, 12, 5);
}

TEST(SdpRandom, KnobsAreValidatedAndWideLayersAppear) {
  const HwConfig& cfg = HwConfig::get("small");
  EXPECT_THROW(sdp_random().generate(cfg, 1, {{"layers", "0"}}), std::invalid_argument);
  EXPECT_THROW(sdp_random().generate(cfg, 1, {{"wide", "2"}}), std::invalid_argument);
  EXPECT_THROW(sdp_random().generate(cfg, 1, {{"max_widht", "2"}}), std::invalid_argument);
  bool wide = false;
  for (uint64_t seed = 1; seed < 10 && !wide; ++seed) {
    const SdpRun r = run(cfg, seed, {{"wide", "1"}, {"layers", "2"}});
    EXPECT_TRUE(r.failures.empty() && r.warnings.empty()) << seed;
    for (const auto& n : r.program.notes) wide = wide || n.find(": 8192x1x") != std::string::npos;
  }
  EXPECT_TRUE(wide);
}

// Over a modest number of seeds every listed setting shows up (notes name them).
TEST(SdpRandom, CoversPrecisionsStreamsLutCasesAndPriorities) {
  std::set<std::string> seen;
  const HwConfig& cfg = HwConfig::get("v1");
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const Program p = sdp_random().generate(cfg, seed, {{"layers", "4"}});
    for (const std::string& n : p.notes) {
      for (const char* key : {"int8/int8/int8", "int16/int16/int16", "fp16/fp16/fp16", "fp16/fp16/int16", "int16/int16/fp16",
                              "int16/int8/int8", "int8/int8/int16", "int8/int8/fp16", "overlap LE<LO", "overlap LO<LE",
                              "disjoint LE<LO", "disjoint LO<LE", "LO inside LE", "LE inside LO", "LE linear", "LE exponent",
                              "(both,2B,elem)", "(alu,1B,kernel)", "(mul,2B,kernel)", "(alu,1B,elem)", ": 1x1x1 "})
        if (n.find(key) != std::string::npos) seen.insert(key);
      for (unsigned prio = 0; prio < 8; ++prio)
        if (n.find(fmt::format("prio {}]", prio)) != std::string::npos) seen.insert(fmt::format("prio {}", prio));
    }
  }
  EXPECT_EQ(seen.size(), 21u + 8u) << [&] {
    std::string s;
    for (const auto& x : seen) s += x + "; ";
    return s;
  }();
}

// pow2_rounding_percent=100: every integer layer's BS and BN are on and multiply by +-2^k; one
// rounds (a shift 0..9 above k, after the other's exact scale-up), EW is off and the output converter the
// identity (so the rounding reaches the output), on both configurations, legal and clean on the
// golden model; 0 (the default) leaves the programs as they were.
TEST(SdpRandom, Pow2RoundingLayersShiftJustAboveTheMultiplierAndShowIt) {
  namespace S = reg::SDP;
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    unsigned stages = 0, negative = 0, scaled_up = 0, saturating = 0;
    std::set<int> gaps;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const SdpRun r = run(cfg, seed, {{"pow2_rounding_percent", "100"}});
      EXPECT_TRUE(r.failures.empty()) << name << " seed " << seed << ": " << r.failures.front();
      EXPECT_TRUE(r.warnings.empty()) << name << " seed " << seed << ": " << r.warnings.front();
      GoldenModel m(cfg, seed);
      test::execute(r.program, m);
      for (const LayerRecord& l : m.layers()) {
        if (l.unit != Unit::SDP || S::D_DATA_FORMAT::PROC_PRECISION::get(l.regs.get(S::D_DATA_FORMAT::offset)) == 2)
          continue;
        EXPECT_EQ(l.regs.get(S::D_DP_EW_CFG::offset) & 1u, 1u) << name << " seed " << seed << ": EW on";
        EXPECT_EQ(l.regs.get(S::D_CVT_SCALE::offset), 1u) << name << " seed " << seed;
        EXPECT_EQ(l.regs.get(S::D_CVT_SHIFT::offset), 0u) << name << " seed " << seed;
        EXPECT_EQ(l.regs.get(S::D_CVT_OFFSET::offset), 0u) << name << " seed " << seed;
        int gap[2] = {0, 0};  // shift - k of BS, BN
        for (unsigned i = 0; i < 2; ++i) {
          const uint32_t stage = i == 0 ? S::D_DP_BS_CFG::offset : S::D_DP_BN_CFG::offset;
          const uint32_t mul = i == 0 ? S::D_DP_BS_MUL_CFG::offset : S::D_DP_BN_MUL_CFG::offset;
          EXPECT_EQ(l.regs.get(stage) & 0x51u, 0x40u) << name << " seed " << seed << ": stage off, MUL or ReLU";
          const int32_t v = static_cast<int16_t>(l.regs.get(mul + 4) & 0xffffu);
          const uint32_t mag = static_cast<uint32_t>(v < 0 ? -v : v);
          ASSERT_TRUE(mag != 0 && (mag & (mag - 1)) == 0) << name << " seed " << seed << ": operand " << v;
          int k = 0;
          while ((1u << k) != mag) ++k;
          gap[i] = static_cast<int>((l.regs.get(mul) >> 8) & 0xffu) - k;
          negative += v < 0;
          ++stages;
        }
        // BS rounds (gap 0..9) and BN is exact, or BS scales up by 2^u (gap -u) and BN rounds
        // with u more shift
        const bool bs_rounds = gap[1] == 0 && gap[0] >= 0;
        const int rounding = bs_rounds ? gap[0] : gap[0] + gap[1];
        const uint32_t round_alu = l.regs.get(bs_rounds ? S::D_DP_BS_ALU_CFG::offset : S::D_DP_BN_ALU_CFG::offset);
        const bool saturated = ((round_alu >> 8) & 0x3fu) >= 31;  // the ALU operand saturates
        EXPECT_TRUE(gap[0] >= -8 && (saturated ? rounding >= 24 && rounding <= 30 : rounding >= 0 && rounding <= 9))
            << name << " seed " << seed << ": gaps " << gap[0] << " " << gap[1];
        saturating += saturated;
        gaps.insert(rounding);
        scaled_up += gap[0] < 0;
      }
    }
    EXPECT_GE(stages, 40u) << name;
    EXPECT_GE(gaps.size(), 8u) << name;  // 1..3 mostly, up to 9 sometimes, 24..30 when saturating
    EXPECT_TRUE(gaps.count(1) && gaps.count(2) && gaps.count(3)) << name;
    EXPECT_GT(scaled_up, 0u) << name;
    EXPECT_GT(saturating, 0u) << name;
    EXPECT_GT(negative, 0u) << name;
    EXPECT_LT(negative, stages) << name;
  }
  const HwConfig& small = HwConfig::get("small");
  EXPECT_EQ(sdp_random().generate(small, 4, {}).notes, sdp_random().generate(small, 4, {{"pow2_rounding_percent", "0"}}).notes);
}

// fp16_data=wide on v1: every layer fp16 in, legal and clean on the golden model, NaN and Inf
// inputs counted; the loaded data holds subnormals of every leading-zero count, the memory
// operands tiny values the usual operands never have; usual is the default and a configuration
// without fp16 refuses the knob by name.
TEST(SdpRandom, WideFp16DataIsFp16OnlyCleanWithEverySubnormalShift) {
  namespace RD = reg::SDP_RDMA;
  const HwConfig& v1 = HwConfig::get("v1");
  const Knobs wide{{"fp16_data", "wide"}, {"layers", "3"}};
  auto subnormal_leads = [](const Program& p) {
    std::array<uint64_t, 10> n{};
    for (const ProgramOp& op : p.ops)
      if (const auto* l = std::get_if<MemLoad>(&op))
        for (size_t i = 0; i + 1 < l->bytes.size(); i += 2) {
          const unsigned v = l->bytes[i] | l->bytes[i + 1] << 8;
          if ((v & 0x7c00u) == 0 && (v & 0x3ffu) != 0) ++n[static_cast<size_t>(31 - __builtin_clz(v & 0x3ffu))];
        }
    return n;
  };
  // Memory operands (BS/BN/EW streams): the loads at the base addresses the program writes to
  // SDP_RDMA's D_{BS,BN,EW}_BASE_ADDR_LOW. The usual fp16 operands have exponents 10..17 (or a
  // special); the wide ones reach 2..5 and subnormals with the leading one low.
  const uint32_t rdma = *v1.unit_base[static_cast<unsigned>(Unit::SDP_RDMA)];
  auto tiny_operands = [&](const Program& p) {
    std::set<uint32_t> bases;
    for (const ProgramOp& op : p.ops)
      if (const auto* w = std::get_if<RegWrite>(&op))
        for (uint32_t off : {RD::D_BS_BASE_ADDR_LOW::offset, RD::D_BN_BASE_ADDR_LOW::offset, RD::D_EW_BASE_ADDR_LOW::offset})
          if (w->addr == rdma + off) bases.insert(w->data);
    uint64_t tiny = 0;
    for (const ProgramOp& op : p.ops)
      if (const auto* l = std::get_if<MemLoad>(&op); l && bases.count(static_cast<uint32_t>(l->addr)))
        for (size_t i = 0; i + 1 < l->bytes.size(); i += 2) {
          const unsigned v = l->bytes[i] | l->bytes[i + 1] << 8, e = (v >> 10) & 0x1fu;
          tiny += (e >= 2 && e <= 5) || (e == 0 && (v & 0x3ffu) != 0 && (v & 0x3ffu) < 8);
        }
    return tiny;
  };
  uint64_t tiny_wide = 0;
  std::array<uint64_t, 10> leads_wide{}, leads_usual{};
  uint64_t nan_in = 0, inf_in = 0, layers = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Program p = sdp_random().generate(v1, seed, wide);
    GoldenModel m(v1, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures.front();
    EXPECT_TRUE(m.warnings().empty()) << "seed " << seed << ": " << m.warnings().front();
    for (const LayerRecord& r : m.layers()) {
      if (r.unit != Unit::SDP_RDMA) continue;
      ++layers;
      EXPECT_TRUE(r.completed) << "seed " << seed;
      EXPECT_EQ((r.regs.field<RD::D_FEATURE_MODE_CFG, RD::D_FEATURE_MODE_CFG::IN_PRECISION>()), 2u) << "seed " << seed;
      nan_in += r.regs.get(RD::D_STATUS_NAN_INPUT_NUM::offset);
      inf_in += r.regs.get(RD::D_STATUS_INF_INPUT_NUM::offset);
    }
    tiny_wide += tiny_operands(p);
    const std::array<uint64_t, 10> w = subnormal_leads(p), u = subnormal_leads(sdp_random().generate(v1, seed, {{"layers", "3"}}));
    for (size_t k = 0; k < w.size(); ++k) {
      leads_wide[k] += w[k];
      leads_usual[k] += u[k];
    }
    EXPECT_EQ(test::writes_and_loads(sdp_random().generate(v1, seed, {{"fp16_data", "usual"}})),
              test::writes_and_loads(sdp_random().generate(v1, seed)))
        << "seed " << seed << ": fp16_data=usual is not the default";
  }
  EXPECT_EQ(layers, 8u * 3u);
  EXPECT_GE(tiny_wide, 20u) << "memory operands of the wide layers: tiny normals and low subnormals";
  EXPECT_GT(nan_in, 0u);
  EXPECT_GT(inf_in, 0u);
  // A uniform mantissa puts the leading one at bit 0 once in 1024 subnormals; the wide data's
  // own draw puts it at every bit alike (about 1 in 160 fp16 elements each).
  for (size_t k = 0; k < leads_wide.size(); ++k)
    EXPECT_GE(leads_wide[k], 40u) << "subnormals with the leading one at bit " << k << " (usual data: " << leads_usual[k] << ")";
  try {
    sdp_random().generate(HwConfig::get("small"), 1, {{"fp16_data", "wide"}});
    ADD_FAILURE() << "small has no fp16: fp16_data=wide must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fp16_data"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'small'"), std::string::npos) << e.what();
  }
}

// fp16_data=corners on v1: legal and clean on the golden model; the register operands of BS, BN
// (16-bit) and EW (fp32) are often corners (Inf, NaN, +-0, largest, smallest), which the usual and
// wide draws never make (normal values of moderate exponent), and most loaded fp16 values are
// corners; small refuses the knob by name.
TEST(SdpRandom, Fp16CornersMakeOperandsAndElementsCorners) {
  namespace S = reg::SDP;
  const HwConfig& v1 = HwConfig::get("v1");
  const uint32_t sdp = *v1.unit_base[static_cast<unsigned>(Unit::SDP)];
  const std::set<uint32_t> regs16 = {sdp + S::D_DP_BS_ALU_SRC_VALUE::offset, sdp + S::D_DP_BS_MUL_SRC_VALUE::offset,
                                     sdp + S::D_DP_BN_ALU_SRC_VALUE::offset, sdp + S::D_DP_BN_MUL_SRC_VALUE::offset};
  const std::set<uint32_t> regs32 = {sdp + S::D_DP_EW_ALU_SRC_VALUE::offset, sdp + S::D_DP_EW_MUL_SRC_VALUE::offset};
  struct Count {
    uint64_t special16 = 0, special32 = 0, values = 0, inf = 0, nan = 0, zero = 0, max = 0;
  };
  auto count = [&](const Program& p) {
    Count c;
    for (const ProgramOp& op : p.ops) {
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (regs16.count(w->addr)) c.special16 += ((w->data >> 10) & 0x1fu) == 0x1fu;
        if (regs32.count(w->addr)) c.special32 += ((w->data >> 23) & 0xffu) == 0xffu;
      } else if (const auto* l = std::get_if<MemLoad>(&op)) {
        for (size_t i = 0; i + 1 < l->bytes.size(); i += 2) {
          const unsigned v = l->bytes[i] | l->bytes[i + 1] << 8;
          ++c.values;
          c.inf += (v & 0x7fffu) == 0x7c00u;
          c.nan += (v & 0x7c00u) == 0x7c00u && (v & 0x3ffu) != 0;
          c.zero += (v & 0x7fffu) == 0;
          c.max += (v & 0x7fffu) == 0x7bffu;
        }
      }
    }
    return c;
  };
  Count corners, wide;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Program p = sdp_random().generate(v1, seed, {{"fp16_data", "corners"}, {"layers", "3"}});
    GoldenModel m(v1, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures.front();
    EXPECT_TRUE(m.warnings().empty()) << "seed " << seed << ": " << m.warnings().front();
    const Count c = count(p), w = count(sdp_random().generate(v1, seed, {{"fp16_data", "wide"}, {"layers", "3"}}));
    corners.special16 += c.special16, corners.special32 += c.special32, corners.inf += c.inf, corners.nan += c.nan;
    corners.zero += c.zero, corners.max += c.max, corners.values += c.values;
    wide.special16 += w.special16, wide.special32 += w.special32;
  }
  EXPECT_GE(corners.special16, 4u * wide.special16 + 4u) << "BS/BN register operands that are Inf or NaN (wide: "
                                                          << wide.special16 << ")";
  EXPECT_GE(corners.special32, 4u * wide.special32 + 2u) << "EW register operands that are Inf or NaN (wide: "
                                                          << wide.special32 << ")";
  // Loaded values (input cubes, operand streams and the output windows' fill): a corner is one
  // of 20 values, so each kind below is a few per cent of them.
  EXPECT_GT(corners.inf * 50, corners.values) << corners.inf << " of " << corners.values;
  EXPECT_GT(corners.nan * 50, corners.values) << corners.nan << " of " << corners.values;
  EXPECT_GT(corners.zero * 50, corners.values) << corners.zero << " of " << corners.values;
  EXPECT_GT(corners.max * 50, corners.values) << corners.max << " of " << corners.values;
  try {
    sdp_random().generate(HwConfig::get("small"), 1, {{"fp16_data", "corners"}});
    ADD_FAILURE() << "small has no fp16: fp16_data=corners must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fp16_data=corners"), std::string::npos) << e.what();
  }
}

// The random data reach the interesting outcomes: NaN in and out, saturation, every LUT
// counter, EQL with and without a difference.
TEST(SdpRandom, ReachesEveryCounter) {
  std::map<std::string, bool> nonzero;
  const HwConfig& cfg = HwConfig::get("v1");
  const RegisterMap& map = RegisterMap::of(cfg);
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    const Program p = sdp_random().generate(cfg, seed, {{"layers", "4"}});
    GoldenModel m(cfg, seed);
    for (const ProgramOp& op : p.ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).write(l->addr, l->bytes);
      else if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
      else if (const auto* rd = std::get_if<RegRead>(&op)) {
        const uint32_t v = m.csb_read(rd->addr);
        for (const char* reg : {"SDP.D_STATUS_NAN_OUTPUT_NUM", "SDP.D_PERF_OUT_SATURATION", "SDP.D_PERF_LUT_UFLOW",
                                "SDP.D_PERF_LUT_OFLOW", "SDP.D_PERF_LUT_HYBRID", "SDP.D_PERF_LUT_LE_HIT",
                                "SDP.D_PERF_LUT_LO_HIT", "SDP.D_STATUS", "SDP_RDMA.D_STATUS_NAN_INPUT_NUM",
                                "SDP_RDMA.D_STATUS_INF_INPUT_NUM"})
          if (rd->addr == map.address_of(*map.find(reg)) && v) nonzero[reg] = true;
      }
    }
  }
  EXPECT_EQ(nonzero.size(), 10u);
}

}  // namespace
}  // namespace dla
