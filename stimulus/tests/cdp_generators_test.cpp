// cdp.random and cdp.illegal on the golden model: every generated layer legal and complete,
// the feature space reached over seeds (lengths, precisions, bypasses, LUT cases and modes,
// cube shapes, every counter), the planted CDP bugs visible within 50 seeds, and the
// documented / refused cases of cdp.illegal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <variant>

#include "dla/golden_model.h"
#include "dla/planted_bug.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "armed_writes_check.h"
#include "cdp_stimulus.h"
#include "busy_reads_check.h"
#include "high_addresses_check.h"
#include "program_executor.h"

namespace dla {
namespace {

namespace C = reg::CDP;
namespace RD = reg::CDP_RDMA;

struct Seen {
  std::set<std::string> features;
  bool has(const std::string& f) const { return features.count(f) != 0; }
};

void note_layer(const LayerRecord& cdp, const LayerRecord& rdma, const HwConfig& cfg, Seen& s) {
  const RegisterSnapshot& r = cdp.regs;
  const unsigned fmt = r.field<C::D_DATA_FORMAT, C::D_DATA_FORMAT::INPUT_DATA_TYPE>();
  s.features.insert(precision_name(static_cast<Precision>(fmt)));
  s.features.insert("n" + std::to_string(2 * r.field<C::D_LRN_CFG, C::D_LRN_CFG::NORMALZ_LEN>() + 3));
  s.features.insert("bypass" + std::to_string(r.get(C::D_FUNC_BYPASS::offset)));
  s.features.insert(C::S_LUT_CFG::LUT_LE_FUNCTION::get(r.get(C::S_LUT_CFG::offset)) ? "le_linear" : "le_exponent");
  s.features.insert("priority" + std::to_string((r.get(C::S_LUT_CFG::offset) >> 4) & 7u));
  const uint32_t lanes = cfg.atom_bytes / (fmt == 0 ? 1 : 2);
  const uint32_t w = rdma.regs.get(RD::D_DATA_CUBE_WIDTH::offset) + 1, h = rdma.regs.get(RD::D_DATA_CUBE_HEIGHT::offset) + 1;
  const uint32_t c = rdma.regs.get(RD::D_DATA_CUBE_CHANNEL::offset) + 1;
  if (w == 1 && h == 1 && c == 1) s.features.insert("1x1x1");
  if (c % lanes != 0) s.features.insert("c_not_multiple_of_atom");
  if (c > 2 * lanes) s.features.insert("three_surfaces_or_more");
  const std::pair<uint32_t, const char*> counters[] = {
      {C::D_PERF_LUT_UFLOW::offset, "uflow"},     {C::D_PERF_LUT_OFLOW::offset, "oflow"},
      {C::D_PERF_LUT_HYBRID::offset, "hybrid"},   {C::D_PERF_LUT_LE_HIT::offset, "le_hit"},
      {C::D_PERF_LUT_LO_HIT::offset, "lo_hit"},   {C::D_OUT_SATURATION::offset, "saturation"},
      {C::D_NAN_INPUT_NUM::offset, "nan_in"},     {C::D_INF_INPUT_NUM::offset, "inf_in"},
      {C::D_NAN_OUTPUT_NUM::offset, "nan_out"}};
  for (const auto& [off, name] : counters)
    if (r.get(off) != 0) s.features.insert(name);
}

Seen run_seeds(const std::string& config, uint64_t first, uint64_t seeds, const Knobs& knobs = {}) {
  const HwConfig& cfg = HwConfig::get(config);
  const TestGenerator& g = find_test_generator("cdp.random");
  Seen seen;
  for (uint64_t seed = first; seed < first + seeds; ++seed) {
    const Program p = g.generate(cfg, seed, knobs);
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures[0];
    EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings()[0];
    const LayerRecord* rdma = nullptr;
    for (const LayerRecord& r : m.layers()) {
      EXPECT_TRUE(r.completed) << config << " seed " << seed;
      if (r.unit == Unit::CDP_RDMA) rdma = &r;
      if (r.unit == Unit::CDP && rdma) note_layer(r, *rdma, cfg, seen);
      if (r.unit == Unit::CDP && r.group == 1) seen.features.insert("group1");
    }
  }
  return seen;
}

const char* kCommon[] = {"n3", "n5", "n7", "n9", "bypass0", "bypass1", "bypass2", "bypass3", "le_linear", "le_exponent",
                         "priority0", "priority7", "1x1x1", "c_not_multiple_of_atom", "three_surfaces_or_more",
                         "uflow", "oflow", "hybrid", "le_hit", "lo_hit", "group1"};

// 200 consecutive seeds per configuration (issue 6 acceptance, golden side).
TEST(CdpRandom, EveryLayerIsLegalAndRunsCleanOnSmall) {
  const Seen s = run_seeds("small", 1, 200);
  for (const char* f : kCommon) EXPECT_TRUE(s.has(f)) << "200 seeds on small never produced " << f;
  EXPECT_FALSE(s.has("int16"));
  EXPECT_FALSE(s.has("saturation")) << "nv_small's CDP has no D_OUT_SATURATION counter: it reads 0";
}

TEST(CdpRandom, EveryLayerIsLegalAndRunsCleanOnV1) {
  const Seen s = run_seeds("v1", 1, 200);
  for (const char* f : kCommon) EXPECT_TRUE(s.has(f)) << "200 seeds on v1 never produced " << f;
  for (const char* f : {"int8", "int16", "fp16", "nan_in", "inf_in", "nan_out", "saturation"})
    EXPECT_TRUE(s.has(f)) << "200 seeds on v1 never produced " << f;
}

TEST(CdpRandom, SameSeedSameProgram) {
  const HwConfig& cfg = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("cdp.random");
  const Program a = g.generate(cfg, 42), b = g.generate(cfg, 42), c = g.generate(cfg, 43);
  EXPECT_EQ(a.ops.size(), b.ops.size());
  EXPECT_EQ(a.notes, b.notes);
  EXPECT_NE(a.notes, c.notes);
}

TEST(CdpRandom, LutKnobsAtTheirDefaultsKeepEveryProgram) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("cdp.random");
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Program a = g.generate(cfg, seed), b = g.generate(cfg, seed, {{"lut_readback", "sample"}, {"lut_sweep_percent", "0"}});
    EXPECT_EQ(a.ops.size(), b.ops.size()) << seed;
  }
}

// lut_readback=all reads every entry of both tables after programming, on each layer.
TEST(CdpRandom, FullLutReadBackReadsEveryEntry) {
  const HwConfig& cfg = HwConfig::get("small");
  const Program p = find_test_generator("cdp.random").generate(cfg, 7, {{"lut_readback", "all"}, {"layers", "3"}});
  const uint32_t data = *cfg.unit_base[static_cast<unsigned>(Unit::CDP)] + C::S_LUT_ACCESS_DATA::offset;
  unsigned reads = 0;
  for (const ProgramOp& op : p.ops)
    if (const auto* r = std::get_if<RegRead>(&op); r && r->addr == data) ++reads;
  EXPECT_EQ(reads, 3u * (65 + 257));
  GoldenModel m(cfg, 7);
  const auto res = test::execute(p, m);
  EXPECT_TRUE(res.failures.empty()) << res.failures[0];
}

// No S_LUT_ACCESS_DATA read directly follows a write of S_LUT_ACCESS_CFG: NVIDIA's CDP answers a
// DATA read in the clock after an address change with the entry at the previous address, and the
// CSB master may issue a read right behind a write; a CFG read (blocking) sits in between.
TEST(CdpRandom, NoLutDataReadDirectlyAfterTheAddressIsWritten) {
  const HwConfig& cfg = HwConfig::get("small");
  const uint32_t base = *cfg.unit_base[static_cast<unsigned>(Unit::CDP)];
  unsigned readbacks = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed)
    for (const char* mode : {"sample", "all"}) {
      const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"lut_readback", mode}});
      bool after_cfg_write = false;
      for (const ProgramOp& op : p.ops) {
        if (const auto* w = std::get_if<RegWrite>(&op)) {
          after_cfg_write = w->addr == base + C::S_LUT_ACCESS_CFG::offset;
        } else if (const auto* r = std::get_if<RegRead>(&op)) {
          if (r->addr == base + C::S_LUT_ACCESS_DATA::offset) {
            EXPECT_FALSE(after_cfg_write) << "seed " << seed << " " << mode << ": " << r->what;
            readbacks += after_cfg_write ? 0 : 1;
          }
          after_cfg_write = false;
        }
      }
    }
  EXPECT_GT(readbacks, 0u);
}

// lut_sweep_percent=100: every int8 value but START itself (-128, an underflow) hits both
// tables (HYBRID = 255), and both hybrid priorities occur, so each table is swept entry by entry.
TEST(CdpRandom, LutSweepLayersHitEveryEntryOfBothTables) {
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    std::set<unsigned> priorities;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"lut_sweep_percent", "100"}});
      GoldenModel m(cfg, seed);
      const auto res = test::execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures[0];
      for (const LayerRecord& r : m.layers()) {
        if (r.unit != Unit::CDP) continue;
        EXPECT_EQ(r.regs.get(C::D_PERF_LUT_HYBRID::offset), 255u) << config << " seed " << seed;
        EXPECT_EQ(r.regs.get(C::D_PERF_LUT_UFLOW::offset), 1u) << config << " seed " << seed;
        EXPECT_EQ(r.regs.get(C::D_PERF_LUT_LE_HIT::offset) + r.regs.get(C::D_PERF_LUT_LO_HIT::offset) +
                      r.regs.get(C::D_PERF_LUT_OFLOW::offset),
                  0u)
            << config << " seed " << seed;
        priorities.insert(C::S_LUT_CFG::LUT_HYBRID_PRIORITY::get(r.regs.get(C::S_LUT_CFG::offset)));
      }
    }
    EXPECT_EQ(priorities.size(), 2u) << config;
  }
}

// rounding_percent=100: every integer layer's input converter shifts right by 1..24 and the
// layers stay legal and clean on the golden model.
TEST(CdpRandom, RoundingConverterLayersShiftAndRunClean) {
  const HwConfig& cfg = HwConfig::get("small");
  std::set<uint32_t> shifts;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"rounding_percent", "100"}});
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    for (const LayerRecord& r : m.layers())
      if (r.unit == Unit::CDP) shifts.insert(r.regs.get(C::D_DATIN_SHIFTER::offset));
  }
  EXPECT_EQ(shifts.count(0), 0u);
  EXPECT_GE(shifts.size(), 10u);
  EXPECT_LE(*shifts.rbegin(), 24u);
}

// pow2_rounding_percent=100: every integer layer's converter scales are +-2^k, the input shift
// lies 1..9 above k (a few bits of x - offset under the rounding point), and the layers stay clean
// on the golden model; off (the default) leaves the programs as they were.
TEST(CdpRandom, Pow2RoundingScalesArePowersOfTwoJustBelowTheShift) {
  const HwConfig& cfg = HwConfig::get("small");
  const auto exponent = [](uint32_t reg) {  // k when the 16-bit scale is +-2^k, else -1
    const int32_t v = static_cast<int16_t>(reg & 0xffffu);
    const uint32_t m = static_cast<uint32_t>(v < 0 ? -v : v);
    return m != 0 && (m & (m - 1)) == 0 ? static_cast<int>(std::log2(m)) : -1;
  };
  unsigned layers = 0, negative = 0;
  std::set<int> gaps;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"pow2_rounding_percent", "100"}});
    EXPECT_NE(p.notes.front().find("pow2_rounding_percent=100"), std::string::npos);
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    for (const LayerRecord& r : m.layers()) {
      if (r.unit != Unit::CDP || C::D_DATA_FORMAT::INPUT_DATA_TYPE::get(r.regs.get(C::D_DATA_FORMAT::offset)) == 2) continue;
      ++layers;
      const uint32_t in_scale = r.regs.get(C::D_DATIN_SCALE::offset), out_scale = r.regs.get(C::D_DATOUT_SCALE::offset);
      const int k = exponent(in_scale);
      ASSERT_GE(k, 0) << "seed " << seed << ": DATIN_SCALE " << in_scale;
      EXPECT_GE(exponent(out_scale), 0) << "seed " << seed << ": DATOUT_SCALE " << out_scale;
      const int gap = static_cast<int>(r.regs.get(C::D_DATIN_SHIFTER::offset)) - k;
      EXPECT_TRUE(gap >= 1 && gap <= 9) << "seed " << seed << ": shift " << gap << " above 2^" << k;
      gaps.insert(gap);
      negative += (in_scale & 0x8000u) != 0;
    }
  }
  EXPECT_GE(layers, 20u);
  EXPECT_GE(gaps.size(), 6u);
  EXPECT_GT(negative, 0u);
  EXPECT_LT(negative, layers);
  const Program plain = find_test_generator("cdp.random").generate(cfg, 3, {});
  const Program off = find_test_generator("cdp.random").generate(cfg, 3, {{"pow2_rounding_percent", "0"}});
  EXPECT_EQ(plain.ops.size(), off.ops.size());
  EXPECT_EQ(plain.notes, off.notes);
}

// lut_scramble=on: some layers program LO before LE, some write DATA past a table's end (the
// tables keep their contents: the full read-back still matches), idle cycles fall between
// read-back reads; clean on the golden model; off is the default.
TEST(CdpRandom, LutScrambleReordersTablesWritesPastTheEndAndIdles) {
  const HwConfig& cfg = HwConfig::get("small");
  const uint32_t cdp = *cfg.unit_base[static_cast<unsigned>(Unit::CDP)];
  unsigned lo_first = 0, le_first = 0, past_end = 0, idles = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"lut_scramble", "on"}, {"lut_readback", "all"}});
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    bool first_seen = false;  // the layer's first table write seen
    for (const ProgramOp& op : p.ops) {
      if (std::holds_alternative<Idle>(op)) ++idles;
      const auto* w = std::get_if<RegWrite>(&op);
      if (!w) continue;
      if (w->addr == cdp + C::S_LUT_CFG::offset) first_seen = false;  // a new layer's LUT
      if (w->addr == cdp + C::S_LUT_ACCESS_CFG::offset) {
        if (((w->data >> 17) & 1u) && (w->data & 0x3ffu) == 0 && !first_seen) {
          first_seen = true;
          ((w->data >> 16) & 1u ? lo_first : le_first)++;
        }
        if (((w->data >> 17) & 1u) && (w->data & 0x3ffu) >= (((w->data >> 16) & 1u) ? 257u : 65u)) ++past_end;
      }
    }
    EXPECT_EQ(test::writes_and_loads(find_test_generator("cdp.random").generate(cfg, seed, {{"lut_scramble", "off"}})),
              test::writes_and_loads(find_test_generator("cdp.random").generate(cfg, seed)))
        << "seed " << seed << ": lut_scramble=off is not the default";
  }
  EXPECT_GT(lo_first, 0u);
  EXPECT_GT(le_first, 0u);
  EXPECT_GT(past_end, 0u);
  EXPECT_GT(idles, 0u);
}

// early_rdma_percent=100: CDP_RDMA.D_OP_ENABLE is written before the group's first CDP
// register on every layer, and the layers still run clean on the golden model.
TEST(CdpRandom, EarlyRdmaArmsCdpRdmaBeforeCdpIsProgrammed) {
  const HwConfig& cfg = HwConfig::get("small");
  const uint32_t rdma_en = *cfg.unit_base[static_cast<unsigned>(Unit::CDP_RDMA)] + RD::D_OP_ENABLE::offset;
  const uint32_t bypass = *cfg.unit_base[static_cast<unsigned>(Unit::CDP)] + C::D_FUNC_BYPASS::offset;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Program p = find_test_generator("cdp.random").generate(cfg, seed, {{"early_rdma_percent", "100"}});
    std::vector<uint32_t> order;
    for (const ProgramOp& op : p.ops)
      if (const auto* w = std::get_if<RegWrite>(&op); w && (w->addr == rdma_en || w->addr == bypass)) order.push_back(w->addr);
    EXPECT_EQ(order, (std::vector<uint32_t>{rdma_en, bypass, rdma_en, bypass})) << "seed " << seed;
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
  }
}

// armed_writes=on: every register of the first-armed unit's group is written again (another value)
// and read back, and D_OP_ENABLE = 0 is read back as 1, between the two arms of every layer; the
// layers still run what was programmed before (the golden model drops the writes, so the
// read-backs hold the RTL to it). Off is the default program.
TEST(CdpRandom, ArmedWritesAreReadBackAndOffIsTheDefault) { test::expect_armed_writes_read_back("cdp.random", Unit::CDP); }

// busy_reads=on: nine arm-cleared counters per layer; CDP's and CDP_RDMA's stall counters.
TEST(CdpRandom, BusyReadsFollowEveryArmAndOffIsTheDefault) {
  test::expect_busy_reads_after_every_arm(
      "cdp.random", {{"max_width", "16"}, {"max_height", "8"}, {"max_surfaces", "8"}, {"layers", "3"}}, 9, 2);
}

TEST(CdpRandom, HighAddressesToggleEveryAddressBitAndOffIsTheDefault) {
  test::expect_high_addresses_toggle_every_bit("cdp.random");
}

// fp16_corners=on (v1): fp16 layers only, clean on the golden model, NaNs in and out; tiny-LUT
// and special-run layers both drawn; off is the default program; a configuration without fp16
// refuses the knob by name.
TEST(CdpRandom, Fp16CornersAreCleanFp16OnlyAndOffIsTheDefault) {
  const Knobs on{{"fp16_corners", "on"}, {"layers", "3"}};
  const Seen s = run_seeds("v1", 1, 20, on);
  for (const char* f : {"fp16", "nan_in", "nan_out", "le_hit", "lo_hit"})
    EXPECT_TRUE(s.has(f)) << "20 fp16_corners seeds never produced " << f;
  EXPECT_FALSE(s.has("int8") || s.has("int16")) << "fp16_corners makes fp16 layers only";
  const HwConfig& v1 = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("cdp.random");
  unsigned tiny = 0, runs = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const std::string& n : g.generate(v1, seed, on).notes) {
      tiny += n.find("tiny LUT") != std::string::npos;
      runs += n.find("special runs") != std::string::npos;
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, {{"fp16_corners", "off"}})),
              test::writes_and_loads(g.generate(v1, seed)))
        << "seed " << seed << ": fp16_corners=off is not the default";
  }
  EXPECT_GT(tiny, 5u);
  EXPECT_GT(runs, 5u);
  try {
    g.generate(HwConfig::get("small"), 1, {{"fp16_corners", "on"}});
    ADD_FAILURE() << "small has no fp16: fp16_corners=on must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fp16_corners"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'small'"), std::string::npos) << e.what();
  }
}

// The tiny LUT: every entry at fp16's bottom (exponent field 0..2), +0 common, and +0 followed by
// a nonzero entry (the interval whose difference is exact at 2^-25) in both tables.
TEST(CdpRandom, TinyLutHoldsZerosBesideTinyEntries) {
  using namespace stimulus;
  CdpLayerSpec l;
  l.precision = Precision::Fp16;
  l.lut.le.assign(65, 0x3c00);
  l.lut.lo.assign(257, 0x3c00);
  Rng r(5);
  make_cdp_tiny_lut(l, r);
  for (const std::vector<uint16_t>* t : {&l.lut.le, &l.lut.lo}) {
    unsigned zeros = 0, zero_then_tiny = 0;
    for (size_t i = 0; i < t->size(); ++i) {
      EXPECT_LE(((*t)[i] >> 10) & 0x1fu, 2u) << "entry " << i << " = " << (*t)[i];
      zeros += (*t)[i] == 0;
      zero_then_tiny += i + 1 < t->size() && (*t)[i] == 0 && ((*t)[i + 1] & 0x7fffu) != 0;
    }
    EXPECT_GT(zeros, t->size() / 5);
    EXPECT_GT(zero_then_tiny, 0u);
  }
  CdpLayerSpec int8 = l;
  int8.precision = Precision::Int8;
  int8.lut.le.assign(65, 7);
  make_cdp_tiny_lut(int8, r);
  EXPECT_EQ(int8.lut.le, std::vector<uint16_t>(65, 7)) << "integer layers are left alone";
}

// Special runs: neighbouring channels of one pixel both special (NaN beside NaN, a negative NaN
// with a single payload bit among them), across a surface boundary too; pad lanes untouched.
TEST(CdpRandom, SpecialRunsPutSpecialsSideBySide) {
  using namespace stimulus;
  const HwConfig& cfg = HwConfig::get("v1");
  const unsigned lanes = cfg.atom_bytes / 2;
  CdpLayerSpec l;
  l.precision = Precision::Fp16;
  l.width = 16;
  l.height = 8;
  l.channels = lanes + lanes / 2;  // two surfaces, the second half full
  l.src_line = uint64_t{l.width} * cfg.atom_bytes;
  l.src_surface = l.height * l.src_line;
  std::vector<uint8_t> bytes(2 * l.src_surface, 0);
  for (size_t i = 0; i + 1 < bytes.size(); i += 2) bytes[i + 1] = 0x3c;  // 1.0 everywhere
  Rng r(11);
  add_cdp_special_runs(bytes, l, cfg, r);
  auto at = [&](uint32_t w, uint32_t h, uint32_t c) {
    const uint64_t o = (c / lanes) * l.src_surface + h * l.src_line + uint64_t{w} * cfg.atom_bytes + (c % lanes) * 2;
    return static_cast<uint16_t>(bytes[o] | bytes[o + 1] << 8);
  };
  auto nan = [](uint16_t v) { return (v & 0x7c00u) == 0x7c00u && (v & 0x3ffu) != 0; };
  unsigned nan_pairs = 0, special_pairs = 0, across = 0, negative_single_bit = 0;
  for (uint32_t h = 0; h < l.height; ++h)
    for (uint32_t w = 0; w < l.width; ++w) {
      for (uint32_t c = 0; c + 1 < l.channels; ++c) {
        const uint16_t a = at(w, h, c), b = at(w, h, c + 1);
        const bool both = a != 0x3c00 && b != 0x3c00;
        special_pairs += both;
        nan_pairs += nan(a) && nan(b);
        across += both && c + 1 == lanes;
      }
      for (uint32_t c = 0; c < l.channels; ++c) {
        const uint16_t v = at(w, h, c);
        negative_single_bit += nan(v) && (v & 0x8000u) && __builtin_popcount(v & 0x3ffu) == 1;
      }
      for (uint32_t c = l.channels; c < 2 * lanes; ++c) EXPECT_EQ(at(w, h, c), 0x3c00) << "pad lane " << c;
    }
  EXPECT_GT(special_pairs, 10u);
  EXPECT_GT(nan_pairs, 0u);
  EXPECT_GT(across, 0u);
  EXPECT_GT(negative_single_bit, 0u);
}

// An integer-only layer shaper leaves an fp16 layer as it was (its LUT and bypasses).
void expect_fp16_left_alone(void (*make)(stimulus::CdpLayerSpec&, Rng&)) {
  stimulus::CdpLayerSpec fp;
  fp.precision = Precision::Fp16;
  fp.lut.le.assign(65, 7);
  Rng r(1);
  make(fp, r);
  EXPECT_EQ(fp.lut.le, std::vector<uint16_t>(65, 7)) << "fp16 layers are left alone";
  EXPECT_FALSE(fp.mul_bypass);
}

// sat_edge: E - offset lands on max, max+1, max+2, min, min-1, min-2 of the output width (all six
// over the draws), with MUL_BYPASS on, scale 2^k and shift k; both tables hold a run of two or
// more E entries; int8 keeps the 25 offset bits the unit reads; fp16 layers are left alone.
TEST(CdpRandom, SatEdgePutsTheFlatLutValueAtTheOutputEdge) {
  using namespace stimulus;
  for (const Precision precision : {Precision::Int8, Precision::Int16}) {
    const int64_t max = precision == Precision::Int8 ? 127 : 32767, min = -max - 1;
    std::set<int64_t> beyond;
    Rng r(3);
    for (int draw = 0; draw < 200; ++draw) {
      CdpLayerSpec l;
      l.precision = precision;
      // Distinct fillers: two equal neighbours can only be a run of E.
      l.lut.le.resize(65);
      l.lut.lo.resize(257);
      for (size_t i = 0; i < l.lut.le.size(); ++i) l.lut.le[i] = static_cast<uint16_t>(20000 + i);
      for (size_t i = 0; i < l.lut.lo.size(); ++i) l.lut.lo[i] = static_cast<uint16_t>(30000 + i);
      make_cdp_sat_edge(l, r);
      EXPECT_TRUE(l.mul_bypass);
      ASSERT_LE(l.datout_shifter, 14u);
      EXPECT_EQ(l.datout_scale, 1u << l.datout_shifter);
      std::set<int64_t> runs;  // values of equal neighbours, both tables
      for (const std::vector<uint16_t>* t : {&l.lut.le, &l.lut.lo}) {
        bool run = false;
        for (size_t i = 0; i + 1 < t->size(); ++i)
          if ((*t)[i] == (*t)[i + 1]) {
            run = true;
            runs.insert(static_cast<int16_t>((*t)[i]));
          }
        EXPECT_TRUE(run) << "draw " << draw << ": no run of E in a table";
      }
      ASSERT_EQ(runs.size(), 1u) << "draw " << draw << ": one value E in every run";
      const int64_t e = *runs.begin();
      const uint32_t raw = precision == Precision::Int8 ? l.datout_offset & 0x1ffffffu : l.datout_offset;
      const int64_t offset = precision == Precision::Int8 ? (static_cast<int64_t>(raw) ^ 0x1000000) - 0x1000000
                                                          : static_cast<int32_t>(raw);
      const int64_t v = e - offset;
      EXPECT_TRUE((v >= max && v <= max + 2) || (v <= min && v >= min - 2)) << "draw " << draw << ": E - offset = " << v;
      beyond.insert(v >= max ? v - max : v - min);
    }
    EXPECT_EQ(beyond, (std::set<int64_t>{-2, -1, 0, 1, 2})) << precision_name(precision);
  }
  expect_fp16_left_alone(stimulus::make_cdp_sat_edge);
}

// The knob on the golden model: clean on both configurations, saturation counted on v1, off is
// the default program; and it shows the one-step quirk: counting every clamped element (the plant
// cdp.saturation_quirk) changes the counters of most knob seeds, where the default programs
// rarely reach it.
TEST(CdpRandom, SatEdgeIsCleanAndShowsTheSaturationQuirk) {
  const Knobs on{{"sat_edge_percent", "100"}, {"layers", "3"}};
  EXPECT_TRUE(run_seeds("v1", 1, 20, on).has("saturation"));
  run_seeds("small", 1, 20, on);
  const TestGenerator& g = find_test_generator("cdp.random");
  const HwConfig& v1 = HwConfig::get("v1");
  unsigned edge_layers = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const std::string& n : g.generate(v1, seed, on).notes) edge_layers += n.find("saturation edge") != std::string::npos;
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, {{"sat_edge_percent", "0"}})),
              test::writes_and_loads(g.generate(v1, seed)))
        << "seed " << seed << ": sat_edge_percent=0 is not the default";
  }
  EXPECT_GT(edge_layers, 20u) << "int8/int16 layers of 20 seeds x 3";
  auto counters = [&](uint64_t seed, const Knobs& knobs, bool plant) {
    const golden::PlantedBugScope scope(plant ? std::vector<std::string>{"cdp.saturation_quirk"}
                                              : std::vector<std::string>{});
    GoldenModel m(v1, 1);
    test::execute(g.generate(v1, seed, knobs), m);
    std::vector<uint32_t> out;
    for (const LayerRecord& r : m.layers())
      if (r.unit == Unit::CDP) out.push_back(r.regs.get(C::D_OUT_SATURATION::offset));
    return out;
  };
  unsigned with_knob = 0, without = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    with_knob += counters(seed, on, false) != counters(seed, on, true);
    without += counters(seed, {}, false) != counters(seed, {}, true);
  }
  EXPECT_GE(with_knob, 8u) << "the quirk plant changed D_OUT_SATURATION in " << with_knob << " of 20 knob seeds";
  std::printf("cdp.saturation_quirk changed D_OUT_SATURATION in %u of 20 seeds with sat_edge_percent=100, %u without\n",
              with_knob, without);
  EXPECT_GT(with_knob, without);
}

// Golden outputs (memory and counters) of a seed, with the given plants enabled.
std::pair<std::vector<uint8_t>, std::vector<uint32_t>> golden_outcome(const HwConfig& cfg, uint64_t seed,
                                                                      const std::vector<std::string>& plants,
                                                                      const Knobs& knobs = {}) {
  const golden::PlantedBugScope scope(plants);
  const Program p = find_test_generator("cdp.random").generate(cfg, seed, knobs);
  GoldenModel m(cfg, 1);
  test::execute(p, m);
  std::vector<uint8_t> mem;
  std::vector<uint32_t> counters;
  const LayerRecord* rdma = nullptr;
  for (const LayerRecord& r : m.layers()) {
    if (r.unit == Unit::CDP_RDMA) rdma = &r;
    if (r.unit != Unit::CDP || !rdma) continue;
    for (uint32_t off = C::D_NAN_INPUT_NUM::offset; off <= C::D_PERF_LUT_LO_HIT::offset; off += 4)
      counters.push_back(r.regs.get(off));
    const uint64_t dst = r.regs.get(C::D_DST_BASE_ADDR_LOW::offset);
    const uint64_t n = uint64_t{r.regs.get(C::D_DST_SURFACE_STRIDE::offset)} * 4 + 4096;
    const auto bytes = m.memory(MemPort::Dbb).read(dst, n);
    mem.insert(mem.end(), bytes.begin(), bytes.end());
  }
  return {mem, counters};
}

// exact_lut: MUL_BYPASS on, identity output converter, table entries small, slopes of +-1..300
// with shifts 1..15; half the layers get an input scale +-2^k (k <= 15) with a shift k + 1 (ties)
// or k + 2..9 (single sticky bits), the rest keep the drawn converter; fp16 is left alone.
TEST(CdpRandom, ExactLutMakesTheOutputTheLutResult) {
  using namespace stimulus;
  const HwConfig& v1 = HwConfig::get("v1");
  for (const Precision precision : {Precision::Int8, Precision::Int16}) {
    const int64_t entry_max = precision == Precision::Int8 ? 100 : 20000;
    std::set<int> input_gaps;  // shift - k of the 2^k input scales
    unsigned kept = 0;
    Rng shape(5), r(7);
    CdpShapeLimits lim;
    lim.precisions = {precision};
    for (int draw = 0; draw < 200; ++draw) {
      CdpLayerSpec l = random_cdp_layer(v1, shape, lim);
      const uint32_t scale = l.datin_scale, shifter = l.datin_shifter;
      make_cdp_exact_lut(l, r);
      EXPECT_TRUE(l.mul_bypass);
      EXPECT_EQ(l.datout_offset, 0u);
      EXPECT_EQ(l.datout_scale, 1u);
      EXPECT_EQ(l.datout_shifter, 0u);
      std::set<uint16_t> distinct;
      for (const std::vector<uint16_t>* t : {&l.lut.le, &l.lut.lo})
        for (uint16_t e : *t) {
          EXPECT_LE(std::abs(static_cast<int64_t>(static_cast<int16_t>(e))), entry_max) << "draw " << draw;
          distinct.insert(e);
        }
      EXPECT_GT(distinct.size(), 60u) << "draw " << draw << ": entries should differ";
      for (const auto& [scales, shifts] : {std::pair{l.lut.le_slope_scale, l.lut.le_slope_shift},
                                           std::pair{l.lut.lo_slope_scale, l.lut.lo_slope_shift}})
        for (unsigned half = 0; half < 2; ++half) {
          const int64_t k = static_cast<int16_t>(scales >> (16 * half));
          const uint32_t sh = (shifts >> (5 * half)) & 0x1fu;
          EXPECT_TRUE(std::abs(k) >= 1 && std::abs(k) <= 300) << "draw " << draw << ": slope scale " << k;
          EXPECT_TRUE(sh >= 1 && sh <= 15) << "draw " << draw << ": slope shift " << sh;
        }
      if (l.datin_scale == scale && l.datin_shifter == shifter) {
        ++kept;
        continue;
      }
      const int64_t m = std::abs(static_cast<int64_t>(static_cast<int16_t>(l.datin_scale)));
      ASSERT_TRUE(m != 0 && (m & (m - 1)) == 0) << "draw " << draw << ": input scale " << m << " not a power of 2";
      const int k = static_cast<int>(std::log2(static_cast<double>(m)));
      EXPECT_LE(k, 15);
      input_gaps.insert(static_cast<int>(l.datin_shifter) - k);
    }
    EXPECT_EQ(input_gaps, (std::set<int>{1, 2, 3, 4, 5, 6, 7, 8, 9})) << precision_name(precision);
    EXPECT_GT(kept, 50u);
    EXPECT_LT(kept, 150u);
  }
  expect_fp16_left_alone(stimulus::make_cdp_exact_lut);
}

// The knob on the golden model: clean on both configurations, 0 is the default program; and it has
// teeth where the usual draw has few: rounding negative ties toward zero in the input converter
// and the LUT stage (the plant cdp.negative_ties) changes the outcome of most knob seeds on small,
// whose int8 layers otherwise lose the one-LSB difference in the square sum and the output shift.
TEST(CdpRandom, ExactLutIsCleanAndShowsNegativeTieRounding) {
  const Knobs on{{"exact_lut_percent", "100"}, {"layers", "4"}};
  run_seeds("v1", 1, 20, on);
  run_seeds("small", 1, 20, on);
  const TestGenerator& g = find_test_generator("cdp.random");
  const HwConfig& small = HwConfig::get("small");
  unsigned exact_layers = 0, with_knob = 0, without = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const std::string& n : g.generate(small, seed, on).notes) exact_layers += n.find("exact LUT output") != std::string::npos;
    EXPECT_EQ(test::writes_and_loads(g.generate(small, seed, {{"exact_lut_percent", "0"}})),
              test::writes_and_loads(g.generate(small, seed)))
        << "seed " << seed << ": exact_lut_percent=0 is not the default";
  }
  EXPECT_EQ(exact_layers, 80u) << "every layer of 20 seeds x 4 (small is int8 only)";
  // and what the hardware is programmed with says so: every layer's output is the LUT result
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    GoldenModel m(small, seed);
    test::execute(g.generate(small, seed, on), m);
    unsigned cdp_layers = 0;
    for (const LayerRecord& r : m.layers()) {
      if (r.unit != Unit::CDP) continue;
      ++cdp_layers;
      EXPECT_EQ((r.regs.field<C::D_FUNC_BYPASS, C::D_FUNC_BYPASS::MUL_BYPASS>()), 1u) << "seed " << seed;
      EXPECT_EQ(r.regs.get(C::D_DATOUT_SCALE::offset) & 0xffffu, 1u) << "seed " << seed;
      EXPECT_EQ(r.regs.get(C::D_DATOUT_SHIFTER::offset) & 0x3fu, 0u) << "seed " << seed;
      EXPECT_EQ(r.regs.get(C::D_DATOUT_OFFSET::offset), 0u) << "seed " << seed;
    }
    EXPECT_EQ(cdp_layers, 4u) << "seed " << seed;
  }
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    with_knob += golden_outcome(small, seed, {}, on) != golden_outcome(small, seed, {"cdp.negative_ties"}, on);
    without += golden_outcome(small, seed, {}) != golden_outcome(small, seed, {"cdp.negative_ties"});
  }
  std::printf("cdp.negative_ties changed the outcome of %u of 20 small seeds with exact_lut_percent=100, %u without\n",
              with_knob, without);
  EXPECT_GE(with_knob, 10u);
  EXPECT_GT(with_knob, without);
}

// lut_class: every element of an integer layer lands in the chosen class, so that class's counter
// holds the whole cube (every lane of its atoms) and the other four hold 0 (split: one table above the values, the other
// below, which NVDLA counts as hybrid; le_hit and lo_hit: the other table sometimes ends at a
// threshold and the values below it are hybrid, so class + hybrid is the cube and both occur in a
// layer); fp16 layers and lut_class=off keep their programs.
TEST(CdpRandom, LutClassPutsEveryElementInOneCounter) {
  const TestGenerator& g = find_test_generator("cdp.random");
  const std::pair<const char*, uint32_t> classes[] = {
      {"le_hit", C::D_PERF_LUT_LE_HIT::offset}, {"lo_hit", C::D_PERF_LUT_LO_HIT::offset},
      {"hybrid", C::D_PERF_LUT_HYBRID::offset}, {"uflow", C::D_PERF_LUT_UFLOW::offset},
      {"oflow", C::D_PERF_LUT_OFLOW::offset},   {"split", C::D_PERF_LUT_HYBRID::offset}};
  const uint32_t all_counters[] = {C::D_PERF_LUT_LE_HIT::offset, C::D_PERF_LUT_LO_HIT::offset,
                                   C::D_PERF_LUT_HYBRID::offset, C::D_PERF_LUT_UFLOW::offset,
                                   C::D_PERF_LUT_OFLOW::offset};
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (const auto& [name, counter] : classes) {
      unsigned integer_layers = 0, mixed_layers = 0;
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        const Knobs knobs{{"lut_class", name}, {"layers", "3"}, {"max_width", "24"}, {"max_height", "5"},
                          {"special_permille", "200"}};
        GoldenModel m(cfg, seed);
        const auto res = test::execute(g.generate(cfg, seed, knobs), m);
        ASSERT_TRUE(res.failures.empty()) << config << " " << name << " seed " << seed << ": " << res.failures[0];
        EXPECT_TRUE(m.warnings().empty()) << config << " " << name << " seed " << seed << ": " << m.warnings()[0];
        const LayerRecord* rdma = nullptr;
        for (const LayerRecord& r : m.layers()) {
          if (r.unit == Unit::CDP_RDMA) rdma = &r;
          if (r.unit != Unit::CDP || rdma == nullptr) continue;
          if (r.regs.field<C::D_DATA_FORMAT, C::D_DATA_FORMAT::INPUT_DATA_TYPE>() == 2) continue;  // fp16
          ++integer_layers;
          // The counters count every lane of every atom, pad lanes included.
          const uint32_t lanes = cfg.atom_bytes / (r.regs.field<C::D_DATA_FORMAT, C::D_DATA_FORMAT::INPUT_DATA_TYPE>() == 0 ? 1 : 2);
          const uint32_t c = rdma->regs.get(RD::D_DATA_CUBE_CHANNEL::offset) + 1;
          const uint32_t elements = (rdma->regs.get(RD::D_DATA_CUBE_WIDTH::offset) + 1) *
                                    (rdma->regs.get(RD::D_DATA_CUBE_HEIGHT::offset) + 1) * ((c + lanes - 1) / lanes) * lanes;
          const bool hit_class = counter == C::D_PERF_LUT_LE_HIT::offset || counter == C::D_PERF_LUT_LO_HIT::offset;
          const uint32_t hybrid = hit_class ? r.regs.get(C::D_PERF_LUT_HYBRID::offset) : 0u;
          mixed_layers += hybrid != 0 && r.regs.get(counter) != 0;
          for (const uint32_t other : all_counters)
            EXPECT_EQ(r.regs.get(other), other == counter                                  ? elements - hybrid
                                         : other == C::D_PERF_LUT_HYBRID::offset && hit_class ? hybrid
                                                                                              : 0u)
                << config << " " << name << " seed " << seed << " counter 0x" << std::hex << other;
        }
      }
      EXPECT_GE(integer_layers, 6u) << config << " " << name;
      if (std::string(name) == "le_hit" || std::string(name) == "lo_hit") {
        EXPECT_GE(mixed_layers, 2u) << config << " " << name;
      }
    }
    for (uint64_t seed = 1; seed <= 10; ++seed)
      EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"lut_class", "off"}})),
                test::writes_and_loads(g.generate(cfg, seed)))
          << config << " seed " << seed << ": lut_class=off is not the default";
  }
  EXPECT_THROW(g.generate(HwConfig::get("small"), 1, {{"lut_class", "le"}}), std::invalid_argument);
}

// back_to_back_percent: a layer's successor (the other group) is armed before the layer's done
// interrupt is awaited, so two layers are armed at once; the LUT, which has one copy for both
// groups, is not written while a layer is armed. Clean on the golden model; 0 is the default.
TEST(CdpRandom, BackToBackArmsTheNextLayerBeforeTheDoneInterrupt) {
  const Knobs on{{"back_to_back_percent", "100"}, {"layers", "6"}};
  run_seeds("v1", 1, 10, on);
  run_seeds("small", 1, 10, on);
  const TestGenerator& g = find_test_generator("cdp.random");
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    const uint32_t cdp = *cfg.unit_base[static_cast<unsigned>(Unit::CDP)];
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const Program p = g.generate(cfg, seed, on);
      unsigned armed = 0, most_armed = 0, chained_notes = 0, lut_writes_while_armed = 0;
      for (const ProgramOp& op : p.ops) {
        if (const auto* w = std::get_if<RegWrite>(&op)) {
          if (w->addr == cdp + C::D_OP_ENABLE::offset && w->data == 1) most_armed = std::max(most_armed, ++armed);
          lut_writes_while_armed += armed != 0 && w->addr >= cdp + C::S_LUT_ACCESS_CFG::offset &&
                                    w->addr <= cdp + C::S_LUT_LO_SLOPE_SHIFT::offset;
        } else if (std::holds_alternative<WaitIntr>(op)) {
          --armed;
        }
      }
      for (const std::string& n : p.notes) chained_notes += n.find("armed before layer") != std::string::npos;
      EXPECT_EQ(chained_notes, 3u) << config << " seed " << seed << ": every other layer of 6 is queued";
      EXPECT_EQ(most_armed, 2u) << config << " seed " << seed;
      EXPECT_EQ(lut_writes_while_armed, 0u) << config << " seed " << seed;
      EXPECT_EQ(test::writes_and_loads(g.generate(cfg, seed, {{"back_to_back_percent", "0"}})),
                test::writes_and_loads(g.generate(cfg, seed)))
          << config << " seed " << seed << ": back_to_back_percent=0 is not the default";
    }
  }
}

// sram_percent: each layer's input and output go to the CV-SRAM at that rate, with the RAM-type
// bits saying so; clean on the golden model; 0 is the default; refused without the SRAM port.
TEST(CdpRandom, SramPercentMovesRegionsToTheSramWithTheirRamType) {
  const HwConfig& v1 = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("cdp.random");
  run_seeds("v1", 1, 10, {{"sram_percent", "50"}, {"layers", "4"}});
  unsigned src_sram = 0, dst_sram = 0, layers = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    GoldenModel m(v1, seed);
    test::execute(g.generate(v1, seed, {{"sram_percent", "100"}, {"layers", "3"}}), m);
    for (const LayerRecord& r : m.layers()) {
      if (r.unit == Unit::CDP_RDMA) src_sram += r.regs.get(RD::D_SRC_DMA_CFG::offset) == 0;
      if (r.unit == Unit::CDP) {
        ++layers;
        dst_sram += r.regs.get(C::D_DST_DMA_CFG::offset) == 0;
      }
    }
    EXPECT_EQ(test::writes_and_loads(g.generate(v1, seed, {{"sram_percent", "0"}})),
              test::writes_and_loads(g.generate(v1, seed)))
        << "seed " << seed << ": sram_percent=0 is not the default";
  }
  EXPECT_EQ(layers, 15u);
  EXPECT_EQ(src_sram, 15u) << "every input in the SRAM at 100 %";
  EXPECT_EQ(dst_sram, 15u) << "every output in the SRAM at 100 %";
  EXPECT_THROW(g.generate(HwConfig::get("small"), 1, {{"sram_percent", "10"}}), std::invalid_argument);
}

// The checker proof's precondition: each CDP plant changes what the golden model predicts
// within 50 seeds on both configurations (the RTL proof then needs the CDP RTL).
TEST(CdpRandom, PlantedBugsChangeTheGoldenOutcomeWithin50Seeds) {
  for (const char* config : {"small", "v1"})
    for (const char* plant : {"cdp.window_edge", "cdp.lut_priority"}) {
      const HwConfig& cfg = HwConfig::get(config);
      unsigned differing = 0;
      for (uint64_t seed = 1; seed <= 50; ++seed)
        differing += golden_outcome(cfg, seed, {}) != golden_outcome(cfg, seed, {plant});
      EXPECT_GE(differing, 3u) << plant << " on " << config << " changed only " << differing << " of 50 seeds";
    }
}

TEST(CdpIllegal, StartOutside22BitsRunsOnSmallWithTheDocumentedCompare) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("cdp.illegal");
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Program p = g.generate(cfg, seed, {{"case", "start_outside_22_bits"}});
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures[0];
    ASSERT_FALSE(m.warnings().empty());
    EXPECT_NE(m.warnings()[0].find("22 signed bits"), std::string::npos) << m.warnings()[0];
  }
}

TEST(CdpIllegal, FormatMismatchRunsWithCdpFormatGoverning) {
  const HwConfig& cfg = HwConfig::get("v1");
  const Program p = find_test_generator("cdp.illegal").generate(cfg, 3, {{"case", "format_mismatch"}});
  GoldenModel m(cfg, 3);
  EXPECT_TRUE(test::execute(p, m).failures.empty());
  ASSERT_FALSE(m.warnings().empty());
  EXPECT_NE(m.warnings()[0].find("differs from CDP.D_DATA_FORMAT"), std::string::npos) << m.warnings()[0];
}

TEST(CdpIllegal, UndefinedCasesAreRefusedNamingTheRule) {
  const TestGenerator& g = find_test_generator("cdp.illegal");
  const std::pair<const char*, const char*> refused[] = {
      {"v1", "size_mismatch"},       {"small", "size_mismatch"}, {"v1", "reserved_format"},
      {"small", "unsupported_precision"}, {"v1", "start_outside_22_bits"}, {"small", "format_mismatch"}};
  for (const auto& [config, c] : refused) {
    try {
      g.generate(HwConfig::get(config), 1, {{"case", c}});
      ADD_FAILURE() << c << " on " << config << " was not refused";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("is refused"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dla
