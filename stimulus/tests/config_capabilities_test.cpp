// Generators never draw a layer the configuration cannot run: for every configuration file and
// every random generator that supports it, every layer the golden model executes uses only the
// precisions, SDP stages, memory ports, address range and convolution features the
// configuration has, and every layer completes. The checker is itself checked against planted
// layers and against v1 programs judged as if they ran on configurations without v1's features.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "dla/golden_model.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "program_executor.h"

namespace dla {
namespace {

bool supported(const HwConfig& cfg, uint32_t precision) {
  return precision <= 2 && cfg.supports(static_cast<Precision>(precision));
}

// What a layer uses that `cfg` lacks ("" when nothing).
std::vector<std::string> capability_violations(const HwConfig& cfg, const LayerRecord& l) {
  std::vector<std::string> v;
  const RegisterSnapshot& s = l.regs;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) v.push_back(fmt::format("{}: {}", unit_name(l.unit), what));
  };
  auto precision = [&](uint32_t p, const char* field) {
    need(supported(cfg, p), fmt::format("{} = {} is not a precision of {}", field, p, cfg.name));
  };
  auto memory = [&](uint32_t ram_type, const char* field) {  // 0 = CV (SRAM), 1 = MC (DBB)
    need(ram_type == 1 || cfg.sram_if, fmt::format("{} selects the SRAM port, which {} lacks", field, cfg.name));
  };
  need(cfg.has_unit(l.unit), fmt::format("unit absent from {}", cfg.name));
  switch (l.unit) {
    case Unit::SDP: {
      namespace R = reg::SDP;
      const uint32_t ew = s.get(R::D_DP_EW_CFG::offset);
      need(cfg.sdp_bs || R::D_DP_BS_CFG::BS_BYPASS::get(s.get(R::D_DP_BS_CFG::offset)), "BS enabled");
      need(cfg.sdp_bn || R::D_DP_BN_CFG::BN_BYPASS::get(s.get(R::D_DP_BN_CFG::offset)), "BN enabled");
      need(cfg.sdp_ew || R::D_DP_EW_CFG::EW_BYPASS::get(ew), "EW enabled");
      need(cfg.sdp_lut || R::D_DP_EW_CFG::EW_BYPASS::get(ew) || R::D_DP_EW_CFG::EW_LUT_BYPASS::get(ew), "LUT enabled");
      precision(s.field<R::D_DATA_FORMAT, R::D_DATA_FORMAT::PROC_PRECISION>(), "PROC_PRECISION");
      precision(s.field<R::D_DATA_FORMAT, R::D_DATA_FORMAT::OUT_PRECISION>(), "OUT_PRECISION");
      if (!s.field<R::D_FEATURE_MODE_CFG, R::D_FEATURE_MODE_CFG::OUTPUT_DST>())  // 0: to memory
        memory(s.field<R::D_DST_DMA_CFG, R::D_DST_DMA_CFG::DST_RAM_TYPE>(), "DST_RAM_TYPE");
      break;
    }
    case Unit::SDP_RDMA: {
      namespace R = reg::SDP_RDMA;
      precision(s.field<R::D_FEATURE_MODE_CFG, R::D_FEATURE_MODE_CFG::IN_PRECISION>(), "IN_PRECISION");
      if (!s.field<R::D_FEATURE_MODE_CFG, R::D_FEATURE_MODE_CFG::FLYING_MODE>())
        memory(s.field<R::D_SRC_DMA_CFG, R::D_SRC_DMA_CFG::SRC_RAM_TYPE>(), "SRC_RAM_TYPE");
      if (!s.field<R::D_BRDMA_CFG, R::D_BRDMA_CFG::BRDMA_DISABLE>())
        memory(s.field<R::D_BRDMA_CFG, R::D_BRDMA_CFG::BRDMA_RAM_TYPE>(), "BRDMA_RAM_TYPE");
      if (!s.field<R::D_NRDMA_CFG, R::D_NRDMA_CFG::NRDMA_DISABLE>())
        memory(s.field<R::D_NRDMA_CFG, R::D_NRDMA_CFG::NRDMA_RAM_TYPE>(), "NRDMA_RAM_TYPE");
      if (!s.field<R::D_ERDMA_CFG, R::D_ERDMA_CFG::ERDMA_DISABLE>()) {
        need(cfg.sdp_ew, "EW operand read enabled");
        memory(s.field<R::D_ERDMA_CFG, R::D_ERDMA_CFG::ERDMA_RAM_TYPE>(), "ERDMA_RAM_TYPE");
      }
      break;
    }
    case Unit::PDP:
      precision(s.field<reg::PDP::D_DATA_FORMAT, reg::PDP::D_DATA_FORMAT::INPUT_DATA>(), "INPUT_DATA");
      memory(s.field<reg::PDP::D_DST_RAM_CFG, reg::PDP::D_DST_RAM_CFG::DST_RAM_TYPE>(), "DST_RAM_TYPE");
      break;
    case Unit::PDP_RDMA:
      precision(s.field<reg::PDP_RDMA::D_DATA_FORMAT, reg::PDP_RDMA::D_DATA_FORMAT::INPUT_DATA>(), "INPUT_DATA");
      memory(s.field<reg::PDP_RDMA::D_SRC_RAM_CFG, reg::PDP_RDMA::D_SRC_RAM_CFG::SRC_RAM_TYPE>(), "SRC_RAM_TYPE");
      break;
    case Unit::CDP:
      precision(s.field<reg::CDP::D_DATA_FORMAT, reg::CDP::D_DATA_FORMAT::INPUT_DATA_TYPE>(), "INPUT_DATA_TYPE");
      memory(s.field<reg::CDP::D_DST_DMA_CFG, reg::CDP::D_DST_DMA_CFG::DST_RAM_TYPE>(), "DST_RAM_TYPE");
      break;
    case Unit::CDP_RDMA:
      precision(s.field<reg::CDP_RDMA::D_DATA_FORMAT, reg::CDP_RDMA::D_DATA_FORMAT::INPUT_DATA>(), "INPUT_DATA");
      memory(s.field<reg::CDP_RDMA::D_SRC_DMA_CFG, reg::CDP_RDMA::D_SRC_DMA_CFG::SRC_RAM_TYPE>(), "SRC_RAM_TYPE");
      break;
    case Unit::CDMA: {
      namespace R = reg::CDMA;
      precision(s.field<R::D_MISC_CFG, R::D_MISC_CFG::IN_PRECISION>(), "IN_PRECISION");
      precision(s.field<R::D_MISC_CFG, R::D_MISC_CFG::PROC_PRECISION>(), "PROC_PRECISION");
      need(cfg.conv_winograd || !s.field<R::D_MISC_CFG, R::D_MISC_CFG::CONV_MODE>(), "Winograd");
      need(cfg.conv_batching || !s.field<R::D_BATCH_NUMBER, R::D_BATCH_NUMBER::BATCHES>(), "batching");
      need(cfg.conv_compression || !s.field<R::D_WEIGHT_FORMAT, R::D_WEIGHT_FORMAT::WEIGHT_FORMAT>(), "weight compression");
      memory(s.field<R::D_DAIN_RAM_TYPE, R::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE>(), "DATAIN_RAM_TYPE");
      memory(s.field<R::D_WEIGHT_RAM_TYPE, R::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE>(), "WEIGHT_RAM_TYPE");
      break;
    }
    case Unit::RBK:
      precision(s.field<reg::RBK::D_MISC_CFG, reg::RBK::D_MISC_CFG::IN_PRECISION>(), "IN_PRECISION");
      memory(s.field<reg::RBK::D_DAIN_RAM_TYPE, reg::RBK::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE>(), "DATAIN_RAM_TYPE");
      memory(s.field<reg::RBK::D_DAOUT_RAM_TYPE, reg::RBK::D_DAOUT_RAM_TYPE::DATAOUT_RAM_TYPE>(), "DATAOUT_RAM_TYPE");
      break;
    default: break;
  }
  return v;
}

// What the program's memory preloads use that `cfg` lacks.
std::vector<std::string> memory_violations(const HwConfig& cfg, const Program& p) {
  std::vector<std::string> v;
  const uint64_t limit = cfg.dbb_addr_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << cfg.dbb_addr_bits) - 1;
  auto check = [&](MemPort port, uint64_t addr, uint64_t size) {
    if (port == MemPort::Sram && !cfg.sram_if) v.push_back(fmt::format("load on the SRAM port at {:#x}", addr));
    if (size && addr + size - 1 > limit)
      v.push_back(fmt::format("load at {:#x}+{:#x} beyond {}-bit addresses", addr, size, cfg.dbb_addr_bits));
  };
  for (const ProgramOp& op : p.ops) {
    if (const auto* l = std::get_if<MemLoad>(&op)) check(l->port, l->addr, l->bytes.size());
    if (const auto* f = std::get_if<MemFill>(&op)) check(f->port, f->addr, f->size);
  }
  return v;
}

// The generators whose every layer must be runnable (the *.illegal tests break rules on
// purpose, regs.access arms units with arbitrary register values).
bool random_generator(const TestGenerator& g) {
  return g.name.size() > 7 && g.name.compare(g.name.size() - 7, 7, ".random") == 0;
}

constexpr uint64_t kSeeds = 6;

TEST(ConfigCapabilities, GeneratorsDrawOnlyLayersTheConfigurationCanRun) {
  size_t layers = 0, programs = 0;
  for (const TestGenerator& g : test_generators()) {
    if (!random_generator(g)) continue;
    for (const HwConfig& cfg : HwConfig::all()) {
      if (!g.supports(cfg)) continue;
      for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
        SCOPED_TRACE(fmt::format("{} on {} seed {}", g.name, cfg.name, seed));
        const Program p = g.generate(cfg, seed);
        GoldenModel m(cfg);
        const auto res = test::execute(p, m);
        EXPECT_TRUE(res.failures.empty()) << res.failures.size() << " failures, first: " << res.failures[0];
        for (const std::string& e : memory_violations(cfg, p)) ADD_FAILURE() << e;
        for (const LayerRecord& l : m.layers()) {
          EXPECT_TRUE(l.completed) << unit_name(l.unit) << " layer did not complete";
          for (const std::string& e : capability_violations(cfg, l)) ADD_FAILURE() << e;
          ++layers;
        }
        ++programs;
      }
    }
  }
  EXPECT_GT(programs, 0u);
  EXPECT_GT(layers, programs);
  std::cout << programs << " programs, " << layers << " layers checked\n";
}

// Every configuration can run some random test (a configuration no generator supports would
// silently go untested).
TEST(ConfigCapabilities, EveryConfigurationHasRandomTests) {
  for (const HwConfig& cfg : HwConfig::all()) {
    std::vector<std::string> runs;
    for (const TestGenerator& g : test_generators())
      if (random_generator(g) && g.supports(cfg)) runs.push_back(g.name);
    for (const char* unit_test : {"sdp.random", "pdp.random", "cdp.random", "sdp_pdp.random", "conv.random"})
      EXPECT_NE(std::find(runs.begin(), runs.end(), unit_test), runs.end()) << cfg.name << " cannot run " << unit_test;
    EXPECT_EQ(std::find(runs.begin(), runs.end(), "bdma.random") != runs.end(), cfg.has_unit(Unit::BDMA)) << cfg.name;
  }
}

// The checker finds what a configuration lacks: a planted SDP layer with EW and the LUT on, and
// v1's own programs judged against the configurations without v1's features.
TEST(ConfigCapabilities, TheCheckerCatchesPlantedLayers) {
  LayerRecord sdp;
  sdp.unit = Unit::SDP;
  sdp.regs.unit = Unit::SDP;
  sdp.regs.values = {{reg::SDP::D_DP_BS_CFG::offset, 1}, {reg::SDP::D_DP_BN_CFG::offset, 1},
                     {reg::SDP::D_DP_EW_CFG::offset, 0},  // EW and LUT on
                     {reg::SDP::D_DST_DMA_CFG::offset, 1}};  // output to the DBB
  EXPECT_TRUE(capability_violations(HwConfig::get("v1"), sdp).empty());
  const auto small = capability_violations(HwConfig::get("small"), sdp);
  ASSERT_EQ(small.size(), 2u);
  EXPECT_EQ(small[0], "SDP: EW enabled");
  EXPECT_EQ(small[1], "SDP: LUT enabled");

  // v1 programs use int16/fp16, the SRAM port and EW; judged as nv_small they must be caught.
  const HwConfig& v1 = HwConfig::get("v1");
  const HwConfig& small_cfg = HwConfig::get("small");
  std::set<std::string> caught;
  for (const char* name : {"sdp.random", "pdp.random", "cdp.random", "conv.random"}) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const Program p = find_test_generator(name).generate(v1, seed);
      GoldenModel m(v1);
      test::execute(p, m);
      for (const LayerRecord& l : m.layers())
        for (const std::string& e : capability_violations(small_cfg, l)) caught.insert(e.substr(e.find(": ") + 2, 12));
      for (const std::string& e : memory_violations(small_cfg, p)) caught.insert(e.substr(0, 12));
    }
  }
  for (const char* kind : {"EW enabled", "PROC_PRECISI", "INPUT_DATA =", "load on the "})
    EXPECT_TRUE(caught.count(std::string(kind).substr(0, 12))) << "never caught: " << kind;
}

}  // namespace
}  // namespace dla
