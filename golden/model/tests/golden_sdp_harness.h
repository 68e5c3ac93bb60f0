// Test helper: programs SDP / SDP_RDMA of a GoldenModel by register name and runs layers.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dla/golden_model.h"
#include "dla/register_map.h"

namespace dla::test {

class SdpHarness {
 public:
  explicit SdpHarness(const std::string& config = "v1")
      : cfg(HwConfig::get(config)), map(RegisterMap::of(cfg)), m(cfg, 7) {}

  uint32_t addr(const std::string& unit_reg) const {
    const RegInfo* r = map.find(unit_reg);
    if (!r) throw std::logic_error("no register " + unit_reg);
    return map.address_of(*r);
  }
  void sdp(const std::string& reg, uint32_t v) { m.csb_write(addr("SDP." + reg), v); }
  void rdma(const std::string& reg, uint32_t v) { m.csb_write(addr("SDP_RDMA." + reg), v); }
  uint32_t read_sdp(const std::string& reg) { return m.csb_read(addr("SDP." + reg)); }
  uint32_t read_rdma(const std::string& reg) { return m.csb_read(addr("SDP_RDMA." + reg)); }

  // Cube W x H x C on both units, every stage bypassed, streams disabled, CVT identity.
  void basic_layer(uint32_t w, uint32_t h, uint32_t c, uint32_t rdma_mode, uint32_t data_format) {
    for (const char* u : {"SDP.", "SDP_RDMA."}) {
      m.csb_write(addr(std::string(u) + "D_DATA_CUBE_WIDTH"), w - 1);
      m.csb_write(addr(std::string(u) + "D_DATA_CUBE_HEIGHT"), h - 1);
      m.csb_write(addr(std::string(u) + "D_DATA_CUBE_CHANNEL"), c - 1);
    }
    rdma("D_FEATURE_MODE_CFG", rdma_mode);
    rdma("D_SRC_DMA_CFG", 1);
    for (const char* s : {"D_BRDMA_CFG", "D_NRDMA_CFG", "D_ERDMA_CFG"}) rdma(s, 1);
    sdp("D_DATA_FORMAT", data_format);
    sdp("D_DST_DMA_CFG", 1);
    sdp("D_DP_BS_CFG", 1);
    sdp("D_DP_BN_CFG", 1);
    sdp("D_DP_EW_CFG", 1);
    sdp("D_CVT_SCALE", 1);
  }
  void src(uint64_t base, uint32_t line, uint32_t surface) {
    rdma("D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(base));
    rdma("D_SRC_BASE_ADDR_HIGH", static_cast<uint32_t>(base >> 32));
    rdma("D_SRC_LINE_STRIDE", line);
    rdma("D_SRC_SURFACE_STRIDE", surface);
  }
  void dst(uint64_t base, uint32_t line, uint32_t surface) {
    sdp("D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(base));
    sdp("D_DST_BASE_ADDR_HIGH", static_cast<uint32_t>(base >> 32));
    sdp("D_DST_LINE_STRIDE", line);
    sdp("D_DST_SURFACE_STRIDE", surface);
  }
  void load(uint64_t a, const std::vector<uint8_t>& bytes) { m.memory(MemPort::Dbb).load(a, bytes); }
  std::vector<uint8_t> mem(uint64_t a, size_t n) const { return m.memory(MemPort::Dbb).read(a, n); }
  // Arms SDP_RDMA then SDP (or the other order) and expects the SDP done interrupt.
  void run(bool sdp_first = false) {
    if (sdp_first) {
      sdp("D_OP_ENABLE", 1);
      rdma("D_OP_ENABLE", 1);
    } else {
      rdma("D_OP_ENABLE", 1);
      sdp("D_OP_ENABLE", 1);
    }
  }
  void program_lut(unsigned table, const std::vector<uint16_t>& entries) {
    sdp("S_LUT_ACCESS_CFG", (table << 16) | (1u << 17));
    for (uint16_t e : entries) sdp("S_LUT_ACCESS_DATA", e);
  }

  const HwConfig& cfg;
  const RegisterMap& map;
  GoldenModel m;
};

inline std::vector<uint8_t> le16(const std::vector<uint16_t>& v) {
  std::vector<uint8_t> b;
  for (uint16_t x : v) {
    b.push_back(static_cast<uint8_t>(x));
    b.push_back(static_cast<uint8_t>(x >> 8));
  }
  return b;
}

}  // namespace dla::test
