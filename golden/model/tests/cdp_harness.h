// Test helper: programs CDP / CDP_RDMA of a GoldenModel by register name and runs layers;
// plus the LRN table of the spec's worked example (§7.2).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dla/golden_model.h"
#include "dla/register_map.h"

namespace dla::test {

class CdpHarness {
 public:
  explicit CdpHarness(const std::string& config = "small")
      : cfg(HwConfig::get(config)), map(RegisterMap::of(cfg)), m(cfg, 7) {}

  uint32_t addr(const std::string& unit_reg) const {
    const RegInfo* r = map.find(unit_reg);
    if (!r) throw std::logic_error("no register " + unit_reg);
    return map.address_of(*r);
  }
  void cdp(const std::string& reg, uint32_t v) { m.csb_write(addr("CDP." + reg), v); }
  void rdma(const std::string& reg, uint32_t v) { m.csb_write(addr("CDP_RDMA." + reg), v); }
  uint32_t read_cdp(const std::string& reg) { return m.csb_read(addr("CDP." + reg)); }

  // Cube W x H x C in `format` from 0x80000000 (packed) to 0x90000000 (packed), n = 3,
  // identity converters, both bypasses off.
  void layer(uint32_t w, uint32_t h, uint32_t c, uint32_t format) {
    const uint32_t atom = cfg.atom_bytes, lanes = format == 0 ? atom : atom / 2;
    const uint32_t line = w * atom, surface = h * line;
    surfaces = (c + lanes - 1) / lanes;
    rdma("D_DATA_CUBE_WIDTH", w - 1);
    rdma("D_DATA_CUBE_HEIGHT", h - 1);
    rdma("D_DATA_CUBE_CHANNEL", c - 1);
    rdma("D_SRC_BASE_ADDR_LOW", kSrc);
    rdma("D_SRC_LINE_STRIDE", line);
    rdma("D_SRC_SURFACE_STRIDE", surface);
    rdma("D_SRC_DMA_CFG", 1);
    rdma("D_DATA_FORMAT", format);
    cdp("D_DST_BASE_ADDR_LOW", kDst);
    cdp("D_DST_LINE_STRIDE", line);
    cdp("D_DST_SURFACE_STRIDE", surface);
    cdp("D_DST_DMA_CFG", 1);
    cdp("D_DATA_FORMAT", format);
    bytes = surfaces * surface;
  }
  void load(const std::vector<uint8_t>& data) { m.memory(MemPort::Dbb).load(kSrc, data); }
  std::vector<uint8_t> output() const { return m.memory(MemPort::Dbb).read(kDst, bytes); }
  void program_lut(unsigned table, const std::vector<uint16_t>& entries) {
    cdp("S_LUT_ACCESS_CFG", (table << 16) | (1u << 17));
    for (uint16_t e : entries) cdp("S_LUT_ACCESS_DATA", e);
  }
  // Arms CDP_RDMA and CDP (either order); true when the CDP done interrupt of group 0 rose.
  bool run(bool cdp_first = false) {
    if (cdp_first) {
      cdp("D_OP_ENABLE", 1);
      rdma("D_OP_ENABLE", 1);
    } else {
      rdma("D_OP_ENABLE", 1);
      cdp("D_OP_ENABLE", 1);
    }
    const uint32_t status = m.csb_read(addr("GLB.S_INTR_STATUS"));
    return (status & 0x4u) != 0;
  }

  static constexpr uint32_t kSrc = 0x80000000u, kDst = 0x90000000u;
  const HwConfig& cfg;
  const RegisterMap& map;
  GoldenModel m;
  uint32_t surfaces = 1, bytes = 0;
};

// The spec §7.2 LRN function f(s) = (1 + s/4096)^(-3/4), scaled to Q15.
inline uint16_t lrn_q15(double s) { return static_cast<uint16_t>(std::lround(32767.0 * std::pow(1.0 + s / 4096.0, -0.75))); }

// Programs the §7.2 LUT setup: LO linear from 0 step 128, LE exponential from 0, hybrid
// priority LO, all slopes 0.
inline void program_lrn_example_lut(CdpHarness& h) {
  std::vector<uint16_t> le(65), lo(257);
  for (unsigned i = 0; i < 65; ++i) le[i] = lrn_q15(std::ldexp(1.0, static_cast<int>(i)));
  for (unsigned j = 0; j < 257; ++j) lo[j] = lrn_q15(128.0 * j);
  h.program_lut(0, le);
  h.program_lut(1, lo);
  h.cdp("S_LUT_INFO", 0x00070000);
  h.cdp("S_LUT_CFG", 0x40);
  h.cdp("S_LUT_LO_END_LOW", 32768);
}

}  // namespace dla::test
