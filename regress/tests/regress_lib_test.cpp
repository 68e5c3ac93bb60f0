// Unit tests of the regression library: plans, job expansion, results store, reports.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dla/nvdla_errata.h"
#include "dla/nvdla_weight_credit.h"
#include "dla/register_map.h"
#include "dla/pdp_layer.h"
#include "dla/regression/job.h"
#include "dla/regression/plan.h"
#include "dla/regression/reports.h"
#include "dla/regression/results_db.h"
#include "dla/regression/slurm_launcher.h"
#include "dla/simulation.h"
#include "dla/warning_log.h"

namespace dla::regression {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("dla_regress_lib_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name, const std::string& text = "") const {
    const fs::path p = path_ / name;
    if (!text.empty()) std::ofstream(p) << text;
    return p.string();
  }

 private:
  fs::path path_;
};

// A PDP layer with an unused bottom row or right column is the known nv_small PDP erratum;
// the same layer trimmed is not.
TEST(NvdlaErrata, PdpLayerWithUnusedEdgesIsTheKnownErratum) {
  PdpLayer l;
  l.kernel_w = l.kernel_h = 2, l.stride_w = l.stride_h = 2;
  l.width = 4, l.height = 5;  // the fifth row is below the last window
  l.out_width = 2, l.out_height = 2;
  auto record = [](const PdpLayer& layer) {
    LayerRecord r;
    r.unit = Unit::PDP;
    r.completed = true;
    r.regs.unit = Unit::PDP;
    r.regs.values = pdp_register_values(layer);
    std::sort(r.regs.values.begin(), r.regs.values.end());
    return r;
  };
  EXPECT_EQ(nvdla_erratum_of(HwConfig::get("small"), {record(l)}), std::optional<std::string>("pdp-unused-edges"));
  pdp_trim_unused_edges(l);
  EXPECT_EQ(l.height, 4u);
  EXPECT_EQ(nvdla_erratum_of(HwConfig::get("small"), {record(l)}), std::nullopt);
  l.width = 5;  // a column right of the last window
  EXPECT_EQ(nvdla_erratum_of(HwConfig::get("small"), {record(l)}), std::optional<std::string>("pdp-unused-edges"));
}

// Consecutive conv layers: extra fetched weight entries with the same bank split, and a bank
// split change that shrinks a region, are NVIDIA's conv errata; exact sizes and growing
// regions are not.
TEST(NvdlaErrata, ConvLayerSequences) {
  const HwConfig& cfg = HwConfig::get("small");
  const RegisterMap& map = RegisterMap::of(cfg);
  // Records of one conv layer per unit with the fields the classifier reads.
  auto layer = [&](uint32_t bank, uint32_t weight_bytes, std::vector<LayerRecord>& out) {
    for (const char* unit : {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"}) {
      LayerRecord r;
      r.unit = *unit_from_name(unit);
      r.completed = true;
      r.regs.unit = r.unit;
      auto put = [&](const std::string& reg, uint32_t v) {
        if (const RegInfo* info = map.find(std::string(unit) + "." + reg))
          r.regs.values.emplace_back(map.address_of(*info) - *cfg.unit_base[static_cast<unsigned>(r.unit)], v);
      };
      put("D_BANK", bank);
      put("D_WEIGHT_BYTES", weight_bytes);
      put("D_WEIGHT_SIZE_0", 99);      // BPK 100
      put("D_WEIGHT_SIZE_1", 2);       // K 3: 300 bytes = 38 entries of 8 bytes = 304 bytes
      put("D_WEIGHT_SIZE_EXT_1", 2u << 16);
      std::sort(r.regs.values.begin(), r.regs.values.end());
      out.push_back(r);
    }
  };
  std::vector<LayerRecord> exact, padded, shrink, grow;
  layer(0x40004, 304, exact), layer(0x40004, 304, exact);
  layer(0x40004, 384, padded), layer(0x40004, 304, padded);
  layer(0x40004, 304, shrink), layer(0x30005, 304, shrink);
  layer(0x40004, 304, grow), layer(0x50005, 304, grow);
  EXPECT_EQ(nvdla_erratum_of(cfg, exact), std::nullopt);
  EXPECT_EQ(nvdla_erratum_of(cfg, padded), std::optional<std::string>("conv-weight-bytes-unreleased"));
  EXPECT_EQ(nvdla_erratum_of(cfg, shrink), std::optional<std::string>("conv-bank-region-shrinks"));
  EXPECT_EQ(nvdla_erratum_of(cfg, grow), std::nullopt);
  // Post-extension with an x stride above 1 (one image layer).
  std::vector<LayerRecord> post;
  layer(0x40004, 304, post);
  auto set = [&](Unit unit, const std::string& reg, uint32_t v) {
    for (LayerRecord& r : post)
      if (r.unit == unit) {
        const RegInfo* info = map.find(std::string(unit_name(unit)) + "." + reg);
        const uint32_t off = map.address_of(*info) - *cfg.unit_base[static_cast<unsigned>(unit)];
        auto& vals = r.regs.values;
        vals.erase(std::remove_if(vals.begin(), vals.end(), [&](const auto& p) { return p.first == off; }), vals.end());
        vals.emplace_back(off, v);
        std::sort(vals.begin(), vals.end());
      }
  };
  set(Unit::CSC, "D_DATAIN_FORMAT", 1);
  set(Unit::CSC, "D_POST_Y_EXTENSION", 1);
  EXPECT_EQ(nvdla_erratum_of(cfg, post), std::nullopt) << "x stride 1";
  set(Unit::CSC, "D_CONV_STRIDE_EXT", 1);
  EXPECT_EQ(nvdla_erratum_of(cfg, post), std::optional<std::string>("conv-post-extension-x-stride"));
  // One output column over more than three channel blocks (S x C = 28 on small, AC = 8).
  std::vector<LayerRecord> column;
  layer(0x40004, 304, column);
  post.swap(column);
  set(Unit::CSC, "D_DATAIN_FORMAT", 1);
  set(Unit::CSC, "D_DATAOUT_SIZE_0", 3u << 16);  // W_out = 1
  EXPECT_EQ(nvdla_erratum_of(cfg, post), std::nullopt) << "S x C = 3 (one block)";
  set(Unit::CSC, "D_WEIGHT_SIZE_EXT_1", (2u << 16) | 27u);
  EXPECT_EQ(nvdla_erratum_of(cfg, post), std::optional<std::string>("conv-image-single-column"));
}

// NVIDIA's CDMA never subtracts the weight releases CSC reports after CDMA's done: what earlier
// layers certainly left behind (each layer's last kernel group) plus a layer's largest group
// must fit the weight region, else its weight fetch hangs. Pinned one entry inside and one
// entry outside, as the probes on NVIDIA's RTL do (docs/nvdla-differential.md).
TEST(NvdlaErrata, ConvWeightReleaseLost) {
  const HwConfig& cfg = HwConfig::get("small");
  const RegisterMap& map = RegisterMap::of(cfg);
  constexpr uint32_t kSkipWeightRls = 1u << 28, kWeightReuse = 1u << 20;
  // Records of one int8 conv layer: K kernels of BPK bytes (WEIGHT_BYTES exactly K x BPK).
  auto layer = [&](std::vector<LayerRecord>& out, uint32_t bank, uint32_t k, uint32_t bpk, uint32_t misc = 0) {
    for (const char* unit : {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"}) {
      LayerRecord r;
      r.unit = *unit_from_name(unit);
      r.completed = true;
      r.regs.unit = r.unit;
      auto put = [&](const std::string& reg, uint32_t v) {
        if (const RegInfo* info = map.find(std::string(unit) + "." + reg))
          r.regs.values.emplace_back(map.address_of(*info) - *cfg.unit_base[static_cast<unsigned>(r.unit)], v);
      };
      put("D_MISC_CFG", misc);
      put("D_BANK", bank);
      put("D_WEIGHT_BYTES", k * bpk);
      put("D_WEIGHT_SIZE_0", bpk - 1);
      put("D_WEIGHT_SIZE_1", k - 1);
      put("D_WEIGHT_SIZE_EXT_1", (k - 1) << 16);
      std::sort(r.regs.values.begin(), r.regs.values.end());
      out.push_back(r);
    }
  };
  const auto lost = std::optional<std::string>("conv-weight-release-lost");
  // Layer 1: 7 kernels of 4,480 bytes, one group of 3,920 entries in 8 weight banks (4,096
  // entries), all left behind. The next layer's group of 176 entries fits, 184 do not.
  std::vector<LayerRecord> inside, outside;
  layer(inside, 0x70008, 7, 4480), layer(inside, 0x70008, 8, 176);
  layer(outside, 0x70008, 7, 4480), layer(outside, 0x70008, 8, 184);
  EXPECT_EQ(nvdla_erratum_of(cfg, inside), std::nullopt) << "3,920 + 176 = 4,096 entries";
  EXPECT_EQ(nvdla_erratum_of(cfg, outside), lost) << "3,920 + 184 = 4,104 entries";
  // conv.random seed 26 (nvdla_errata=avoid before this rule): groups of 1,024 and 896 entries
  // hang in 8 and 9 banks, fit in 10.
  for (const uint32_t banks : {8u, 9u, 10u}) {
    std::vector<LayerRecord> seq;
    layer(seq, (banks - 1) << 16 | 8, 7, 4480), layer(seq, (banks - 1) << 16 | 8, 15, 1024);
    EXPECT_EQ(nvdla_erratum_of(cfg, seq), banks < 10 ? lost : std::nullopt) << banks << " weight banks";
  }
  // Only the last group is certainly left behind: two groups of 224 entries in one bank leave
  // 224; then a group of 288 entries fits, 296 do not.
  std::vector<LayerRecord> last_in, last_out;
  layer(last_in, 0x00008, 16, 224), layer(last_in, 0x00008, 8, 288);
  layer(last_out, 0x00008, 16, 224), layer(last_out, 0x00008, 8, 296);
  EXPECT_EQ(nvdla_erratum_of(cfg, last_in), std::nullopt);
  EXPECT_EQ(nvdla_erratum_of(cfg, last_out), lost);
  // Kept weights (SKIP_WEIGHT_RLS) handed back when the next layer starts may be counted: not
  // certain. Reused instead, the reusing layer releases them after CDMA's done: left behind.
  std::vector<LayerRecord> handed_back, reused;
  layer(handed_back, 0x70008, 7, 4480, kSkipWeightRls), layer(handed_back, 0x70008, 15, 1024);
  layer(reused, 0x70008, 7, 4480, kSkipWeightRls), layer(reused, 0x70008, 7, 4480, kWeightReuse);
  EXPECT_EQ(nvdla_erratum_of(cfg, handed_back), std::nullopt);
  EXPECT_EQ(nvdla_erratum_of(cfg, reused), std::nullopt) << "the reusing layer fetches nothing";
  layer(reused, 0x70008, 15, 1024);
  EXPECT_EQ(nvdla_erratum_of(cfg, reused), lost);
}

// The bounds NVIDIA's CDMA count follows over a sequence (dla/nvdla_weight_credit.h).
TEST(NvdlaErrata, WeightCreditBoundsOverASequence) {
  EXPECT_EQ(nvdla_weight_group_entries(15, 1024, 15360, 8, 8), (std::vector<uint64_t>{1024, 896}));
  EXPECT_EQ(nvdla_weight_group_entries(3, 100, 304, 8, 8), (std::vector<uint64_t>{38}));
  EXPECT_EQ(nvdla_weight_group_entries(9, 12, 128, 8, 8), (std::vector<uint64_t>{12, 4}));  // last group to WEIGHT_BYTES
  NvdlaWeightCredit c;
  NvdlaWeightLayer a{512, {100, 100, 100}, false, false};
  EXPECT_EQ(NvdlaWeightCredit::need(a), 100u);
  c.run(a);  // 300 entries fit: at most all of them, at least the last group left behind
  EXPECT_EQ(c.low(a), 100u);
  EXPECT_EQ(c.high(), 300u);
  NvdlaWeightLayer b{512, {300, 300}, false, false};
  EXPECT_FALSE(c.certain_hang(b));
  EXPECT_TRUE(c.possible_hang(b));
  c.run(b);  // CDMA had room for 412 at most: the suffix of 300 was unreleased at its done
  EXPECT_EQ(c.low(b), 400u);
  EXPECT_EQ(c.high(), 512u);
  NvdlaWeightLayer kept{4096, {900}, true, false};
  EXPECT_EQ(NvdlaWeightCredit::need(kept), 900u);
  NvdlaWeightLayer reuse{4096, {}, false, true};
  EXPECT_EQ(NvdlaWeightCredit::need(reuse), 0u);
  EXPECT_FALSE(c.possible_hang(reuse));
}

// The error loading the plan at `path` gives, after "plan '<path>' "; "loaded" when it loads.
std::string load_error(const std::string& path) {
  try {
    load_plan(path);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what()).substr(path.size() + 8);
  }
  return "loaded";
}

// Every plan the project ships loads: knobs, configurations and covergroups still exist (a
// configuration that loses a unit stage loses its covergroups, and `make run` would refuse).
TEST(Plan, ShippedPlansAreValid) {
  for (const char* name : {"default.yaml", "mutation.yaml", "nvdla_small.yaml", "conv_v1.yaml"}) {
    const std::string path = std::string(DLA_SOURCE_DIR) + "/regress/plans/" + name;
    try {
      load_plan(path);
    } catch (const std::exception& e) {
      ADD_FAILURE() << path << ": " << e.what();
    }
  }
}

TEST(Plan, SeedCountsPerLevelAndExpansion) {
  TempDir d;
  const Plan p = load_plan(d.file("p.yaml", R"(
tests:
  - {name: r, test: regs.access, config: small, seeds: {smoke: 2, weekly: 5}}
  - {name: b, test: bdma.random, level: nightly, seeds: 3, first_seed: 10, knobs: {ports: dbb}, timeout: 9}
)"));
  ASSERT_EQ(p.entries.size(), 2u);
  EXPECT_EQ(p.entries[0].seed_count(Level::Smoke), 2u);
  EXPECT_EQ(p.entries[0].seed_count(Level::Nightly), 2u);
  EXPECT_EQ(p.entries[0].seed_count(Level::Weekly), 5u);
  EXPECT_EQ(p.entries[1].seed_count(Level::Smoke), 0u);
  EXPECT_EQ(expand(p, Level::Smoke).size(), 2u);
  const auto nightly = expand(p, Level::Nightly);
  ASSERT_EQ(nightly.size(), 5u);
  EXPECT_EQ(nightly[2].id, "b/10");
  EXPECT_EQ(nightly[4].seed, 12u);
  EXPECT_EQ(nightly[2].timeout_seconds, 9);
  EXPECT_EQ(expand(p, Level::Weekly, 1).size(), 2u);
  const auto args = nightly[2].run_args("/o");
  EXPECT_EQ(args, (std::vector<std::string>{"run", "--config", "v1", "--test", "bdma.random", "--seed", "10", "--knob",
                                            "ports=dbb", "--out", "/o/tests/b/10"}));
}

// `configs: [A, B]` runs one entry on each configuration, named <name>.<config>; a bad list is
// refused with the rule.
TEST(Plan, ConfigsListRunsTheEntryOnEachConfiguration) {
  TempDir d;
  const Plan p = load_plan(d.file("p.yaml", R"(
tests:
  - {name: r, test: regs.access, configs: [small, v1], seeds: 2, knobs: {alias_checks: "yes"}}
  - {name: s, test: regs.access, config: small}
)"));
  ASSERT_EQ(p.entries.size(), 3u);
  EXPECT_EQ(p.entries[0].name, "r.small");
  EXPECT_EQ(p.entries[0].config, "small");
  EXPECT_EQ(p.entries[1].name, "r.v1");
  EXPECT_EQ(p.entries[1].config, "v1");
  EXPECT_EQ(p.entries[1].knobs.at("alias_checks"), "yes");
  EXPECT_EQ(p.entries[1].seed_count(Level::Smoke), 2u);
  EXPECT_EQ(p.entries[2].name, "s");
  const auto error = [&](const std::string& entry) {
    const std::string path = d.file("bad.yaml", "tests:\n  - " + entry + "\n");
    return load_error(path);
  };
  EXPECT_EQ(error("{name: x, test: regs.access, config: v1, configs: [small]}"),
            "entry 1 ('x'): fields 'config' and 'configs' exclude each other");
  EXPECT_EQ(error("{name: x, test: regs.access, configs: []}"),
            "entry 1 ('x'): field 'configs' must be a non-empty list of configurations");
  EXPECT_EQ(error("{name: x, test: regs.access, configs: small}"),
            "entry 1 ('x'): field 'configs' must be a non-empty list of configurations");
  EXPECT_EQ(error("{name: x, test: regs.access, configs: [v1, v1]}"),
            "entry 1 ('x'): configuration 'v1' is listed twice in 'configs'");
  EXPECT_NE(error("{name: x, test: regs.access, configs: [small, huge]}").find("huge"), std::string::npos);
  EXPECT_EQ(error("{name: x.v1, test: regs.access}\n  - {name: x, test: regs.access, configs: [v1]}"),
            "entry 2 ('x'): entry name 'x.v1' is used twice");
}

TEST(Plan, PerfToleranceGoesToRunAndBadValuesNameTheRule) {
  TempDir d;
  const Plan p = load_plan(d.file("p.yaml", R"(
tests:
  - {name: a, test: regs.access, config: small, perf_tolerance: 2.5}
  - {name: b, test: regs.access, config: small, perf_tolerance: "off"}
  - {name: c, test: regs.access, config: small}
)"));
  const auto jobs = expand(p, Level::Smoke);
  ASSERT_EQ(jobs.size(), 3u);
  const auto has = [](const std::vector<std::string>& a, const std::string& v) {
    return std::find(a.begin(), a.end(), v) != a.end();
  };
  EXPECT_TRUE(has(jobs[0].run_args("/o"), "2.5"));
  EXPECT_TRUE(has(jobs[1].run_args("/o"), "off"));
  EXPECT_FALSE(has(jobs[2].run_args("/o"), "--perf-tolerance"));
  for (const char* bad : {"0.5", "fast", "nan", "1.5x"}) {
    const std::string path = d.file("bad.yaml", std::string("tests:\n  - {name: x, test: regs.access, config: small, "
                                                            "perf_tolerance: \"") + bad + "\"}\n");
    try {
      load_plan(path);
      ADD_FAILURE() << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "plan '" + path + "' entry 1 ('x'): field 'perf_tolerance': '" + bad +
                                           "' must be a number >= 1 (budget = fixed latency + tolerance x bound) or 'off'");
    }
  }
}

TEST(Plan, ErrorsNameFileEntryAndRule) {
  TempDir d;
  const std::string path = d.file("bad.yaml", "tests:\n  - {name: ok, test: regs.access}\n  - {name: x, test: regs.access, level: often}\n");
  try {
    load_plan(path);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "plan '" + path + "' entry 2 ('x'): level 'often' is not smoke, nightly or weekly");
  }
  EXPECT_THROW(load_plan(d.file("empty.yaml", "plan: x\n")), std::invalid_argument);
  EXPECT_THROW(load_plan(d.file("top.yaml", "tset: []\n")), std::invalid_argument);
}

TEST(Plan, GradingsResolveTheirPlanAndWaiversNextToThePlan) {
  TempDir d;
  d.file("grade.yaml", "tests:\n  - {name: g, test: bdma.random, owner: bdma}\n");
  d.file("w.yaml", "waivers: []\n");
  const Plan p = load_plan(d.file("main.yaml", R"(
tests:
  - {name: r, test: regs.access}
gradings:
  - {unit: bdma, config: v1, plan: grade.yaml, waivers: w.yaml, count: 5}
  - {unit: sdp, config: small, level: nightly, plan: grade.yaml}
)"));
  ASSERT_EQ(p.gradings.size(), 2u);
  EXPECT_EQ(p.gradings[0].unit, "bdma");
  EXPECT_EQ(p.gradings[0].level, Level::Weekly);  // the default: gradings are long
  EXPECT_EQ(p.gradings[0].count, 5u);
  EXPECT_EQ(p.gradings[0].plan_path, d.file("grade.yaml"));
  EXPECT_EQ(p.gradings[0].waivers_path, d.file("w.yaml"));
  EXPECT_EQ(p.gradings[1].level, Level::Nightly);
  EXPECT_EQ(p.gradings[1].config, "small");
  EXPECT_TRUE(p.gradings[1].waivers_path.empty());
}

// The code_coverage section: the waiver file next to the plan, the goals as regress takes them;
// every field's rule named when it is broken.
TEST(Plan, CodeCoverageSectionResolvesWaiversAndGoals) {
  TempDir d;
  d.file("ccw.yaml", "waivers:\n  - {file: rtl/pdp/dla_pdp.sv, lines: '3', reason: test}\n");
  const Plan p = load_plan(d.file("cc.yaml", "tests:\n  - {name: r, test: regs.access}\n"
                                             "code_coverage: {waivers: ccw.yaml, goals: {line: 95, toggle: 90.5}}\n"));
  EXPECT_EQ(p.code_coverage.waivers_path, d.file("ccw.yaml"));
  EXPECT_EQ(p.code_coverage.goals, "line=95,toggle=90.5");
  const Plan none = load_plan(d.file("none.yaml", "tests:\n  - {name: r, test: regs.access}\n"));
  EXPECT_TRUE(none.code_coverage.waivers_path.empty());
  EXPECT_TRUE(none.code_coverage.goals.empty());

  auto error = [&](const std::string& section) {
    const std::string path = d.file("bad.yaml", "tests:\n  - {name: r, test: regs.access}\ncode_coverage: " + section + "\n");
    return load_error(path);
  };
  EXPECT_EQ(error("{goal: {line: 95}}"), "code_coverage: unknown field 'goal' (fields: goals, waivers)");
  EXPECT_EQ(error("{goals: {line: 95}}"),
            "code_coverage goals: field 'toggle' is required (a percentage, 0 to 100)");
  EXPECT_EQ(error("{goals: {line: 95, toggle: 90, branch: 80}}"),
            "code_coverage goals: unknown field 'branch' (fields: line, toggle)");
  EXPECT_NE(error("{goals: {line: 101, toggle: 90}}").find("code_coverage goals: "), std::string::npos);
  EXPECT_NE(error("{goals: {line: 101, toggle: 90}}").find("101"), std::string::npos);
  EXPECT_NE(error("{waivers: nowhere.yaml}").find("code_coverage: waivers: "), std::string::npos);
  EXPECT_NE(error("{waivers: nowhere.yaml}").find("nowhere.yaml"), std::string::npos);
  d.file("noreason.yaml", "waivers:\n  - {file: a.sv, lines: 3}\n");
  EXPECT_NE(error("{waivers: noreason.yaml}").find("needs a 'reason'"), std::string::npos);
  EXPECT_EQ(error("[95, 90]"), "code_coverage: an entry must be a mapping of fields");
}

TEST(Plan, BadGradingsAreRefusedWithTheRule) {
  TempDir d;
  d.file("grade.yaml", "tests:\n  - {name: g, test: bdma.random, owner: bdma}\n");
  auto error = [&](const std::string& gradings) {
    const std::string path = d.file("bad.yaml", "tests:\n  - {name: r, test: regs.access}\ngradings:\n" + gradings);
    return load_error(path);
  };
  EXPECT_EQ(error("  - {unit: bdma, plan: missing.yaml}\n"),
            "grading 1: grading plan: cannot read plan '" + d.file("missing.yaml") + "'");
  EXPECT_EQ(error("  - {unit: bdma, plan: grade.yaml, config: huge}\n").substr(0, 11), "grading 1: ");
  EXPECT_NE(error("  - {unit: bdma, plan: grade.yaml, config: huge}\n").find("huge"), std::string::npos);
  EXPECT_EQ(error("  - {unit: bdma, plan: grade.yaml, level: hourly}\n"),
            "grading 1: level 'hourly' is not smoke, nightly or weekly");
  EXPECT_EQ(error("  - {unit: b-dma, plan: grade.yaml}\n"), "grading 1: unit 'b-dma' may only use letters, digits and '_'");
  EXPECT_EQ(error("  - {unit: bdma, plan: grade.yaml, mutants: 3}\n"),
            "grading 1: unknown field 'mutants' (fields: config, count, level, plan, unit, waivers)");
  EXPECT_EQ(error("  - {unit: bdma, plan: grade.yaml}\n  - {unit: bdma, plan: grade.yaml}\n"),
            "grading 2: unit 'bdma' on configuration 'v1' is graded twice");
  EXPECT_EQ(error("  - {unit: bdma, plan: grade.yaml, waivers: nowhere.yaml}\n"),
            "grading 1: waiver file '" + d.file("nowhere.yaml") + "' cannot be read");
  EXPECT_EQ(error("  - {unit: bdma, plan: bad.yaml}\n"), "grading 1: a plan cannot be its own grading plan");
  EXPECT_EQ(error("  {unit: bdma}\n"), " 'gradings' must be a list of entries");
}

Outcome outcome(const std::string& id, const std::string& status, const std::string& sig) {
  Outcome o;
  o.job_id = id;
  o.entry = id.substr(0, id.find('/'));
  o.config = "v1";
  o.test = "t";
  o.status = status;
  o.signature = sig;
  o.summary = "a <b> & \"c\"";
  o.result_dir = "tests/" + id;
  return o;
}

TEST(Reports, BucketsJunitAndHtml) {
  ReportInput in;
  in.run.plan = "p";
  in.run.level = "smoke";
  in.outcomes = {outcome("a/1", "pass", ""), outcome("a/2", "fail", "reg:X"), outcome("b/1", "crash", "crash:SIGSEGV"),
                 outcome("b/2", "fail", "reg:X")};
  const auto buckets = failure_buckets(in.outcomes);
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0].signature, "reg:X");
  EXPECT_EQ(buckets[0].outcomes.size(), 2u);
  const std::string x = junit_xml(in);
  EXPECT_NE(x.find("tests=\"4\" failures=\"2\" errors=\"1\""), std::string::npos);
  EXPECT_NE(x.find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_EQ(x.find("a <b>"), std::string::npos);
  const std::string h = html_report(in);
  EXPECT_NE(h.find("crash:SIGSEGV"), std::string::npos);
  EXPECT_NE(h.find("dlaverif repro"), std::string::npos);
  EXPECT_EQ(h.find("<script"), std::string::npos);  // static page
}

TEST(Reports, PercentPlotScalesPoints) {
  const std::string s = svg_percent_plot("t", {"#1", "#2"}, {0, 100});
  EXPECT_NE(s.find("<polyline"), std::string::npos);
  EXPECT_NE(s.find("cy=\"186.0\""), std::string::npos);  // 0 %: bottom of the plot area
  EXPECT_NE(s.find("cy=\"26.0\""), std::string::npos);   // 100 %: top
}

TEST(Reports, LinksMutationReportWhenTheOutDirHasOne) {
  TempDir d;
  ReportInput in;
  in.out_dir = fs::path(d.file("x")).parent_path().string();
  EXPECT_EQ(html_report(in).find("href=\"mutation.html\""), std::string::npos);
  d.file("mutation.html", "<html></html>");
  EXPECT_NE(html_report(in).find("href=\"mutation.html\""), std::string::npos);
}

TEST(ResultsDb, KeepsRunsResultsAndCoverage) {
  TempDir d;
  const std::string path = d.file("r.db");
  int64_t first = 0;
  {
    ResultsDb db(path);
    RunInfo i;
    i.started = utc_now();
    i.plan = "p";
    first = db.begin_run(i);
    db.record(first, outcome("a/1", "pass", ""));
    db.record(first, outcome("a/2", "fail", "reg:X"));
    db.record(first, outcome("a/2", "fail", "reg:Y"));  // a rerun replaces
    cov::CoverageData c;
    cov::GroupData g;
    g.name = "u.g";
    g.items.push_back(cov::ItemData{"p", {}, {{"x", cov::BinKind::Normal, 1}, {"y", cov::BinKind::Normal, 0}}});
    c.add(g);
    cov::CoverageData small = c;
    db.finish_run(first, c, {{"small", small}, {"v1", cov::CoverageData{}}});
  }
  ResultsDb db(path);  // reopened: history survives
  const int64_t second = db.begin_run(RunInfo{});
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(db.runs(10).size(), 1u);  // the second is not finished
  const RunInfo r = db.run(first);
  EXPECT_EQ(r.total, 2);
  EXPECT_EQ(r.passed, 1);
  EXPECT_DOUBLE_EQ(r.coverage, 50.0);
  const auto outs = db.outcomes(first);
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[1].signature, "reg:Y");
  ASSERT_EQ(db.group_coverage(first).size(), 1u);
  EXPECT_EQ(db.group_coverage(first)[0].hit_bins, 1);
  const auto per_config = db.config_group_coverage(first);  // v1 sampled no group: no row
  ASSERT_EQ(per_config.size(), 1u);
  EXPECT_EQ(per_config[0].config, "small");
  EXPECT_EQ(per_config[0].covergroup, "u.g");
  EXPECT_DOUBLE_EQ(per_config[0].percent, 50.0);
  EXPECT_THROW(ResultsDb("/nonexistent/dir/r.db"), std::runtime_error);
}

// Repeated warnings: one line each, "(xN)" when repeated, subjects listed up to a limit, in
// the order first seen; print() empties the log.
TEST(WarningLog, PrintsEachMessageOnceWithItsCount) {
  WarningLog log("regress");
  EXPECT_TRUE(log.empty());
  for (int i = 1; i <= 7; ++i) log.add("bin x.y.z is normal on one side", "cdp-v1/" + std::to_string(i));
  log.add("cannot read coverage file 'a.json'");
  log.add("bin x.y.z is normal on one side", "cdp-v1/1");  // a subject seen before is not listed twice
  EXPECT_EQ(log.distinct(), 2u);
  EXPECT_EQ(log.total(), 9u);
  EXPECT_EQ(log.count("bin x.y.z is normal on one side"), 8u);
  EXPECT_EQ(log.count("never added"), 0u);
  const auto lines = log.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "regress: warning (x8): bin x.y.z is normal on one side: cdp-v1/1, cdp-v1/2, cdp-v1/3, "
                      "cdp-v1/4, cdp-v1/5 and 2 more");
  EXPECT_EQ(lines[1], "regress: warning: cannot read coverage file 'a.json'");
  std::ostringstream os;
  log.print(os);
  EXPECT_EQ(os.str(), lines[0] + "\n" + lines[1] + "\n");
  EXPECT_TRUE(log.empty());
  WarningLog skipped("regress", "skipped");
  skipped.add("no nvdla model", "a");
  skipped.add("no nvdla model", "b");
  EXPECT_EQ(skipped.lines(), std::vector<std::string>{"regress: skipped (x2): no nvdla model: a, b"});
}

// Entries skipped for one reason (a DUT this build lacks) print as one line naming them all.
TEST(Plan, SkippedEntriesShareOneLine) {
  Plan p;
  for (const char* name : {"n1", "n2", "n3"}) {
    PlanEntry e;
    e.name = name;
    e.test = "regs.access";
    e.config = "small";
    e.dut = "no-such-dut";
    e.seeds = {{Level::Smoke, 1}};
    p.entries.push_back(e);
  }
  WarningLog skipped("regress", "skipped");
  EXPECT_TRUE(expand(p, Level::Smoke, 0, &skipped).empty());
  ASSERT_EQ(skipped.distinct(), 1u);
  EXPECT_EQ(skipped.total(), 3u);
  const std::string line = skipped.lines().at(0);
  EXPECT_EQ(line.rfind("regress: skipped (x3): no no-such-dut model of configuration small is built", 0), 0u) << line;
  EXPECT_NE(line.find("): n1, n2, n3"), std::string::npos) << line;
}

// A plan of two entries of `test` on `config`: "rtl" and its golden-only twin "golden".
Plan rtl_and_golden_entries(const std::string& test, const std::string& config) {
  Plan p;
  for (bool golden_only : {false, true}) {
    PlanEntry e;
    e.name = golden_only ? "golden" : "rtl";
    e.test = test;
    e.config = config;
    e.golden_only = golden_only;
    e.seeds = {{Level::Smoke, 2}};
    p.entries.push_back(e);
  }
  return p;
}

// An RTL entry of a configuration without a Verilated model (not in DLA_CONFIGS) is skipped
// with the option that builds it; its golden-only twin runs.
TEST(Plan, RtlEntriesOfConfigurationsWithoutAModelAreSkipped) {
  const HwConfig* unbuilt = nullptr;
  for (const HwConfig& c : HwConfig::all())
    if (!tb::find_simulation_model(c.name, tb::kPrimaryDut)) unbuilt = &c;
  if (!unbuilt) GTEST_SKIP() << "every configuration has a model in this build";
  WarningLog skipped("regress", "skipped");
  const std::vector<Job> jobs = expand(rtl_and_golden_entries("pdp.random", unbuilt->name), Level::Smoke, 0, &skipped);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].entry, "golden");
  ASSERT_EQ(skipped.distinct(), 1u);
  const std::string line = skipped.lines().at(0);
  EXPECT_NE(line.find("no rtl model of configuration " + unbuilt->name + " is built (configure with -DDLA_CONFIGS="),
            std::string::npos) << line;
  EXPECT_NE(line.find("): rtl"), std::string::npos) << line;
}

// What a model lacks for a test, on models described here (so it runs in every build): a
// convolution test needs the pipeline, a RUBIK test needs RUBIK, other tests need neither.
TEST(Plan, ModelLacksUnitNamesTheMissingUnitAndTheBuildOption) {
  tb::ModelInfo bare;
  bare.config = "v1";
  EXPECT_NE(model_lacks_unit("conv.random", bare).find("no convolution pipeline (configure with "
                                                       "-DDLA_DUT_CONV_CONFIGS=\"small;v1\")"),
            std::string::npos);
  EXPECT_NE(model_lacks_unit("rubik.random", bare).find("no RUBIK (configure with -DDLA_DUT_RUBIK=ON)"),
            std::string::npos);
  EXPECT_EQ(model_lacks_unit("pdp.random", bare), "");
  tb::ModelInfo full = bare;
  full.conv = true;
  full.rubik = true;
  EXPECT_EQ(model_lacks_unit("conv.random", full), "");
  EXPECT_EQ(model_lacks_unit("rubik.random", full), "");
  EXPECT_THROW(model_lacks_unit("no.such_test", full), std::invalid_argument);
}

// An RTL entry whose test needs a unit the built model lacks is skipped with one line, not run
// to an error (needs such a model: e.g. -DDLA_DUT_CONV_CONFIGS=small, where v1 lacks the
// pipeline; the decision itself is checked on every build above).
TEST(Plan, RtlEntriesNeedingAUnitTheModelLacksAreSkipped) {
  const HwConfig* lacking = nullptr;
  for (const HwConfig& c : HwConfig::all())
    if (const auto m = tb::find_simulation_model(c.name, tb::kPrimaryDut); m && !m->conv && c.has_unit(Unit::CDMA))
      lacking = &c;
  if (!lacking) GTEST_SKIP() << "every built model with CDMA has the convolution pipeline";
  WarningLog skipped("regress", "skipped");
  const std::vector<Job> jobs = expand(rtl_and_golden_entries("conv.random", lacking->name), Level::Smoke, 0, &skipped);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].entry, "golden");
  ASSERT_EQ(skipped.distinct(), 1u);
  const std::string line = skipped.lines().at(0);
  EXPECT_NE(line.find("has no convolution pipeline (configure with -DDLA_DUT_CONV_CONFIGS="), std::string::npos) << line;
}

// A coverage sample file of one test: one group "u.g" with bins a, b of the given hits.
std::string coverage_file(const TempDir& d, const std::string& name, const std::string& group, uint64_t a, uint64_t b,
                          cov::BinKind kind_b = cov::BinKind::Normal) {
  cov::CoverageData c;
  cov::GroupData g;
  g.name = group;
  g.samples = a + b;
  g.items.push_back(cov::ItemData{"p", {}, {{"a", cov::BinKind::Normal, a}, {"b", kind_b, b}}});
  c.add(g);
  const std::string path = d.file(name);
  c.save(path);
  return name;
}

// Coverage merged over the run and per configuration; a file that does not merge is left out
// of both, and the same refusal of several files is one warning with a count.
TEST(Reports, CoverageMergedPerConfiguration) {
  TempDir d;
  std::vector<Outcome> outs;
  auto add = [&](const std::string& id, const std::string& config, const std::string& file) {
    Outcome o = outcome(id, "pass", "");
    o.config = config;
    o.coverage_file = file;
    outs.push_back(o);
  };
  add("s/1", "small", coverage_file(d, "s1.json", "u.g", 1, 0));
  add("v/1", "v1", coverage_file(d, "v1.json", "u.g", 0, 1));
  add("v/2", "v1", coverage_file(d, "v2.json", "v.only", 1, 1));
  add("bad/1", "v1", coverage_file(d, "b1.json", "u.g", 5, 5, cov::BinKind::Ignore));  // b: ignore here, normal above
  add("bad/2", "small", coverage_file(d, "b2.json", "u.g", 5, 5, cov::BinKind::Ignore));
  add("none/1", "small", "");  // no sample (e.g. a crash)
  const std::string dir = fs::path(d.file("x")).parent_path().string();
  WarningLog warnings("regress");
  const MergedCoverage m = merge_run_coverage(outs, dir, warnings);
  EXPECT_EQ(warnings.distinct(), 1u);
  EXPECT_EQ(warnings.total(), 2u);
  EXPECT_NE(warnings.lines().at(0).find("warning (x2): "), std::string::npos) << warnings.lines().at(0);
  EXPECT_NE(warnings.lines().at(0).find("(left out of the merge): bad/1, bad/2"), std::string::npos);
  ASSERT_EQ(m.by_config.size(), 2u);
  EXPECT_DOUBLE_EQ(m.all.group("u.g")->percent(), 100.0);               // a from small, b from v1
  EXPECT_DOUBLE_EQ(m.by_config.at("small").group("u.g")->percent(), 50.0);
  EXPECT_DOUBLE_EQ(m.by_config.at("v1").group("u.g")->percent(), 50.0);
  EXPECT_EQ(m.by_config.at("small").group("v.only"), nullptr);
  EXPECT_EQ(m.all.group("u.g")->samples, 2u);  // the refused files added nothing

  const std::string table = coverage_table_text(m.all, m.by_config);
  EXPECT_EQ(table,
            "  covergroup  merged   small      v1\n"
            "  u.g         100.0%   50.0%   50.0%\n"
            "  v.only      100.0%       -  100.0%\n"
            "  total       100.0%   50.0%   75.0%\n");

  ReportInput in;
  in.outcomes = outs;
  in.coverage = m.all;
  in.coverage_by_config = m.by_config;
  const std::string h = html_report(in);
  EXPECT_NE(h.find("<th>coverage (merged)</th><th>bins hit</th><th>samples</th><th>small</th><th>v1</th>"),
            std::string::npos);
  EXPECT_NE(h.find("1 / 2 bins, 1 samples"), std::string::npos);  // u.g on small
  EXPECT_NE(h.find("<td class=\"meta\">-</td>"), std::string::npos);  // v.only on small
}

// The overhead figure and its breakdown from the tests' own accounts.
TEST(Reports, RunnerOverheadBreakdown) {
  Outcome a = outcome("a/1", "pass", "");
  a.wall_seconds = 0.100;
  a.test_seconds = 0.080;
  a.process_seconds = {{"startup", 0.004}, {"setup", 0.002}, {"record", 0.003}};
  Outcome b = outcome("a/2", "crash", "crash:SIGSEGV");  // no result.json: all of it is outside the test
  b.wall_seconds = 0.020;
  const RunnerOverhead r = runner_overhead({a, b});
  EXPECT_EQ(r.tests, 2u);
  EXPECT_NEAR(r.percent(), 100.0 * 0.040 / 0.120, 1e-9);
  EXPECT_NEAR(r.per_test_ms(), 20.0, 1e-9);
  EXPECT_NEAR(r.phases.at("other"), 0.011 + 0.020, 1e-12);
  EXPECT_EQ(r.text(), "runner overhead 33.3 % (20.0 ms a test: startup 2.0, setup 1.0, record 1.5, other 15.5)");
  EXPECT_EQ(RunnerOverhead{}.text(), "runner overhead n/a");
}

TEST(Slurm, ShellQuoting) {
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace dla::regression

namespace dla::regression {
namespace {
TEST(Reports, BucketsMaskValuesInSignatures) {
  EXPECT_EQ(bucket_of("hang:csb-read@0xc csb.queued=28"), "hang:csb-read@0x# csb.queued=#");
  EXPECT_EQ(bucket_of("reg:BDMA.CFG_LAUNCH0"), "reg:BDMA.CFG_LAUNCH0");
  EXPECT_EQ(bucket_of("sdp.out_saturation rtl=3 ref=5"), "sdp.out_saturation rtl=# ref=#");
  EXPECT_EQ(bucket_of("crash:exit-7"), "crash:exit-7");
}
}  // namespace
}  // namespace dla::regression
