// The performance budget's formulas (docs/scoreboard.md, "Performance budget").
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <string>
#include <cmath>
#include <stdexcept>

#include "dla/hwconfig.h"
#include "dla/perf_budget.h"
#include "dla/regs.gen.h"

namespace dla {
namespace {

LayerRecord record(Unit unit, std::vector<std::pair<uint32_t, uint32_t>> values) {
  std::sort(values.begin(), values.end());
  LayerRecord r;
  r.unit = unit;
  r.group = 0;
  r.regs.unit = unit;
  r.regs.group = 0;
  r.regs.values = std::move(values);
  r.completed = true;
  return r;
}

TEST(PerfBudget, CdpIsComputeBoundOnSmallAtOneElementACycle) {
  namespace R = reg::CDP_RDMA;
  const HwConfig& cfg = HwConfig::get("small");  // 8-byte atoms, 64-bit DBB, CDP 1 element a cycle
  // 5 x 3 x 12 int8: 2 channel atoms of 8 bytes per pixel -> 30 atoms, 240 bytes, 240 elements.
  const auto rdma = layer_cost(cfg, record(Unit::CDP_RDMA, {{R::D_DATA_CUBE_WIDTH::offset, 4},
                                                            {R::D_DATA_CUBE_HEIGHT::offset, 2},
                                                            {R::D_DATA_CUBE_CHANNEL::offset, 11}}));
  const auto cdp = layer_cost(cfg, record(Unit::CDP, {}));
  ASSERT_TRUE(rdma && cdp);
  EXPECT_EQ(rdma->unit, "cdp");
  EXPECT_EQ(rdma->read_bytes, 240u);
  EXPECT_EQ(rdma->write_bytes, 240u);
  EXPECT_EQ(rdma->compute_cycles, 240u);
  const PerfBudget b = window_budget(cfg, {*rdma, *cdp});
  EXPECT_EQ(b.unit, "cdp");
  EXPECT_EQ(b.memory_cycles, 30u);  // 240 bytes / 8 bytes a beat
  EXPECT_EQ(b.compute_cycles, 240u);
  EXPECT_EQ(b.bound(), 240u);
  EXPECT_EQ(b.budget(1.5), cdp->fixed_cycles + kPerfWindowOverheadCycles + 360u);
  EXPECT_EQ(b.budget(1.0), cdp->fixed_cycles + kPerfWindowOverheadCycles + 240u);
}

// PDP's width pass takes one input slice and emits one row-result slice a cycle: a row costs
// its input or its output columns, whichever are more (wide right pads at stride 1).
TEST(PerfBudget, PdpRowsCostTheirInputOrOutputColumnsWhicheverAreMore) {
  namespace P = reg::PDP;
  const HwConfig& cfg = HwConfig::get("small");  // 8-byte atoms, PDP throughput 1: 2-byte slices
  auto pdp = [&](uint32_t w, uint32_t ow) {
    // w x 8 rows x 17 int8 channels (3 atoms a pixel) -> ow x 12
    return layer_cost(cfg, record(Unit::PDP, {{P::D_DATA_CUBE_IN_WIDTH::offset, w - 1},
                                              {P::D_DATA_CUBE_IN_HEIGHT::offset, 7},
                                              {P::D_DATA_CUBE_IN_CHANNEL::offset, 16},
                                              {P::D_DATA_CUBE_OUT_WIDTH::offset, ow - 1},
                                              {P::D_DATA_CUBE_OUT_HEIGHT::offset, 11},
                                              {P::D_DATA_CUBE_OUT_CHANNEL::offset, 16}}));
  };
  ASSERT_EQ(cfg.pdp_throughput, 1u);
  const auto more_out = pdp(7, 12), more_in = pdp(12, 7);
  ASSERT_TRUE(more_out && more_in);
  EXPECT_EQ(more_out->compute_cycles, 12u * 8 * 3 * 8 / 2);  // 12 output columns, not 7 inputs
  EXPECT_EQ(more_in->compute_cycles, 12u * 8 * 3 * 8 / 2);   // 12 input columns
  EXPECT_EQ(more_out->write_bytes, 12u * 12 * 3 * 8);
  // 8-row kernel at stride 1 with top pad 7 over 2 input rows -> 6 output rows: rows 1..5 hold the
  // last input row, so four of them are read back from the line buffer after it (15 columns each).
  const auto flushed = layer_cost(cfg, record(Unit::PDP, {{P::D_DATA_CUBE_IN_WIDTH::offset, 9},
                                                          {P::D_DATA_CUBE_IN_HEIGHT::offset, 1},
                                                          {P::D_DATA_CUBE_IN_CHANNEL::offset, 16},
                                                          {P::D_DATA_CUBE_OUT_WIDTH::offset, 14},
                                                          {P::D_DATA_CUBE_OUT_HEIGHT::offset, 5},
                                                          {P::D_DATA_CUBE_OUT_CHANNEL::offset, 16},
                                                          {P::D_POOLING_KERNEL_CFG::offset, 7u << 8},
                                                          {P::D_POOLING_PADDING_CFG::offset, 7u << 4}}));
  ASSERT_TRUE(flushed);
  EXPECT_EQ(flushed->compute_cycles, (15u * 2 + 15u * 4) * 3 * 8 / 2);
}

TEST(PerfBudget, BdmaIsMemoryBoundAndConcurrentUnitsTakeTheSlowest) {
  namespace B = reg::BDMA;
  const HwConfig& cfg = HwConfig::get("v1");  // 64-byte DBB
  // 4 lines of 2 x 32 bytes, 3 surfaces: 768 bytes each way.
  const auto op = layer_cost(cfg, record(Unit::BDMA, {{B::CFG_LINE::offset, 1},
                                                      {B::CFG_LINE_REPEAT::offset, 3},
                                                      {B::CFG_SURF_REPEAT::offset, 2}}));
  ASSERT_TRUE(op);
  EXPECT_EQ(op->read_bytes, 768u);
  EXPECT_EQ(op->compute_cycles, 0u);
  const PerfBudget one = window_budget(cfg, {*op});
  EXPECT_EQ(one.unit, "bdma");
  EXPECT_EQ(one.memory_cycles, 12u);
  // Two operations share the port: the memory bound adds up.
  EXPECT_EQ(window_budget(cfg, {*op, *op}).memory_cycles, 24u);
  // Units run concurrently: the slower sets the compute bound; one unit's layers add up.
  LayerCost a{"sdp", 0, 0, 100, 10}, b{"pdp", 0, 0, 70, 10};
  EXPECT_EQ(window_budget(cfg, {a, b}).compute_cycles, 100u);
  EXPECT_EQ(window_budget(cfg, {a, b}).unit, "sdp");
  EXPECT_EQ(window_budget(cfg, {a, b, b}).compute_cycles, 140u);
  EXPECT_EQ(window_budget(cfg, {a, b, b}).unit, "pdp");
  EXPECT_EQ(window_budget(cfg, {a, b, b}).fixed_cycles, 30u + kPerfWindowOverheadCycles);
}

TEST(PerfBudget, UnfinishedLayersAndUnitsWithoutAFormulaCostNothing) {
  const HwConfig& cfg = HwConfig::get("small");
  LayerRecord r = record(Unit::CDP_RDMA, {});
  r.completed = false;
  EXPECT_FALSE(layer_cost(cfg, r));
  EXPECT_FALSE(layer_cost(cfg, record(Unit::CACC, {})));
  EXPECT_FALSE(layer_cost(cfg, record(Unit::GLB, {})));
}

// Read latency charged per round of reads in flight: CDP on small keeps min(64 atoms of
// read-ahead, 32 outstanding bursts) = 32 atoms in flight, so 30 atoms are one round and 100
// atoms four; a unit without a declared read-ahead pays the latency per atom.
TEST(PerfBudget, ReadLatencyIsChargedPerRoundOfReadsInFlight) {
  const HwConfig& cfg = HwConfig::get("small");
  LayerCost cdp{"cdp", 30 * 8, 30 * 8, 30 * 8, 40};
  EXPECT_EQ(window_budget(cfg, {cdp}).latency_cycles, 0u);  // not asked for
  PerfBudget b = window_budget(cfg, {cdp}, 48);
  EXPECT_EQ(b.latency_cycles, 48u);
  EXPECT_EQ(b.budget(1.5), b.fixed_cycles + static_cast<uint64_t>(std::ceil(1.5 * (240 + 48))));
  cdp.read_bytes = 100 * 8;
  EXPECT_EQ(window_budget(cfg, {cdp}, 48).latency_cycles, 4u * 48u);
  const LayerCost pdp{"pdp", 100 * 8, 0, 0, 40};  // another unit's reads: its own rounds
  EXPECT_EQ(window_budget(cfg, {cdp, pdp}, 48).latency_cycles, 8u * 48u);
  EXPECT_EQ(read_ahead_atoms("rubik"), 0u);
  EXPECT_EQ(window_budget(cfg, {LayerCost{"rubik", 3 * 8, 0, 0, 40}}, 10).latency_cycles, 30u);
}

// The read-ahead the latency term assumes must not exceed the RTL's buffer (else a correct DUT
// is charged too little latency): each is the default of the parameter that sizes it, which the
// top level leaves at its default (SDP's is at least 64).
TEST(PerfBudget, ReadAheadSizesAreTheRtlsBuffers) {
  const auto parameter = [](const std::string& file, const std::string& pattern) -> uint64_t {
    std::ifstream in(std::string(DLA_RTL_DIR) + "/" + file);
    EXPECT_TRUE(in) << "cannot read rtl/" << file;
    const std::regex re(pattern);
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_search(line, m, re)) return std::stoull(m[1].str());
    ADD_FAILURE() << "rtl/" << file << ": no line matches " << pattern;
    return 0;
  };
  EXPECT_EQ(read_ahead_atoms("pdp"), parameter("pdp/dla_pdp.sv", R"(parameter int IBUF_ATOMS\s*=\s*(\d+))"));
  EXPECT_EQ(read_ahead_atoms("cdp"), parameter("cdp/dla_cdp.sv", R"(parameter int IBUF_ATOMS\s*=\s*(\d+))"));
  EXPECT_EQ(read_ahead_atoms("bdma"), parameter("bdma/dla_bdma.sv", R"(parameter int BUF_ATOMS\s*=\s*(\d+))"));
  EXPECT_EQ(read_ahead_atoms("sdp"), parameter("sdp/dla_sdp.sv", R"(localparam int RD_DEPTH\s*=.*:\s*(\d+);)"));
  std::ifstream top(std::string(DLA_RTL_DIR) + "/top/NV_nvdla.sv");
  ASSERT_TRUE(top) << "cannot read rtl/top/NV_nvdla.sv";
  std::string line;
  while (std::getline(top, line))
    for (const char* p : {".IBUF_ATOMS(", ".BUF_ATOMS("})
      EXPECT_EQ(line.find(p), std::string::npos) << "the top level sets " << p << "...): read_ahead_atoms() must follow";
}

TEST(PerfBudget, ToleranceParsingNamesTheRule) {
  EXPECT_EQ(parse_perf_tolerance("", "x"), kDefaultPerfTolerance);
  EXPECT_EQ(parse_perf_tolerance("2", "x"), 2.0);
  EXPECT_EQ(parse_perf_tolerance("1", "x"), 1.0);
  EXPECT_FALSE(parse_perf_tolerance("off", "x"));
  for (const char* bad : {"0.99", "-2", "abc", "1.5 ", "inf", "nan", "OFF"}) {
    try {
      parse_perf_tolerance(bad, "--perf-tolerance");
      ADD_FAILURE() << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), std::string("--perf-tolerance: '") + bad +
                                           "' must be a number >= 1 (budget = fixed latency + tolerance x bound) or 'off'");
    }
  }
  EXPECT_EQ(perf_signature("cdp", 404, 368), "perf:cdp cycles=404 budget=368");
}

}  // namespace
}  // namespace dla
