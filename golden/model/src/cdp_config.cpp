#include "cdp_config.h"

#include <fmt/format.h>

#include "dla/numerics/integer_ops.h"
#include "dla/regs.gen.h"

namespace dla::golden {

namespace {

namespace C = reg::CDP;
namespace RD = reg::CDP_RDMA;

uint64_t addr(const RegisterSnapshot& s, uint32_t low, uint32_t high) {
  return (uint64_t{s.get(high)} << 32) | s.get(low);
}

MemPort port_of(uint32_t ram_type) { return ram_type == 1 ? MemPort::Dbb : MemPort::Sram; }

// S_LUT_*_START/END: sx_38(HIGH[5:0]:LOW) in integer modes, the fp32 pattern LOW in fp16.
int64_t start_end(const RegisterSnapshot& s, uint32_t low, bool fp) {
  if (fp) return s.get(low);
  return num::sx((int64_t{s.get(low + 4) & 0x3f} << 32) | s.get(low), 38);
}

// LUT index selects: 6-bit signed in int8, 7-bit in int16, 8-bit in fp16 (spec §2.3).
int index_select(uint32_t byte, unsigned format) {
  const unsigned bits = format == 0 ? 6 : format == 1 ? 7 : 8;
  return static_cast<int>(num::sx(byte, bits));
}

}  // namespace

CdpLayer decode_cdp_layer(const RegisterSnapshot& cdp, const RegisterSnapshot& rdma) {
  CdpLayer l;
  l.width = rdma.field<RD::D_DATA_CUBE_WIDTH, RD::D_DATA_CUBE_WIDTH::WIDTH>() + 1;
  l.height = rdma.field<RD::D_DATA_CUBE_HEIGHT, RD::D_DATA_CUBE_HEIGHT::HEIGHT>() + 1;
  l.channels = rdma.field<RD::D_DATA_CUBE_CHANNEL, RD::D_DATA_CUBE_CHANNEL::CHANNEL>() + 1;
  l.src = addr(rdma, RD::D_SRC_BASE_ADDR_LOW::offset, RD::D_SRC_BASE_ADDR_HIGH::offset);
  l.src_line = rdma.get(RD::D_SRC_LINE_STRIDE::offset);
  l.src_surface = rdma.get(RD::D_SRC_SURFACE_STRIDE::offset);
  l.src_port = port_of(rdma.field<RD::D_SRC_DMA_CFG, RD::D_SRC_DMA_CFG::SRC_RAM_TYPE>());
  l.rdma_format = rdma.field<RD::D_DATA_FORMAT, RD::D_DATA_FORMAT::INPUT_DATA>();

  l.dst = addr(cdp, C::D_DST_BASE_ADDR_LOW::offset, C::D_DST_BASE_ADDR_HIGH::offset);
  l.dst_line = cdp.get(C::D_DST_LINE_STRIDE::offset);
  l.dst_surface = cdp.get(C::D_DST_SURFACE_STRIDE::offset);
  l.dst_port = port_of(cdp.field<C::D_DST_DMA_CFG, C::D_DST_DMA_CFG::DST_RAM_TYPE>());
  l.format = cdp.field<C::D_DATA_FORMAT, C::D_DATA_FORMAT::INPUT_DATA_TYPE>();
  l.sqsum_bypass = cdp.field<C::D_FUNC_BYPASS, C::D_FUNC_BYPASS::SQSUM_BYPASS>() != 0;
  l.mul_bypass = cdp.field<C::D_FUNC_BYPASS, C::D_FUNC_BYPASS::MUL_BYPASS>() != 0;
  l.nan_to_zero = cdp.field<C::D_NAN_FLUSH_TO_ZERO, C::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO>() != 0;
  l.radius = cdp.field<C::D_LRN_CFG, C::D_LRN_CFG::NORMALZ_LEN>() + 1;

  const bool int16 = l.format != 0;  // int16 widths also for the (ignored) fp16 values
  const uint32_t din_off = cdp.get(C::D_DATIN_OFFSET::offset);
  l.in_offset = int16 ? num::sx(din_off, 16) : num::sx(din_off, 8);
  l.in_scale = num::sx(cdp.get(C::D_DATIN_SCALE::offset), 16);
  l.in_shift = cdp.field<C::D_DATIN_SHIFTER, C::D_DATIN_SHIFTER::DATIN_SHIFTER>();
  const uint32_t dout_off = cdp.get(C::D_DATOUT_OFFSET::offset);
  l.out_offset = int16 ? num::sx(dout_off, 32) : num::sx(dout_off, 25);
  l.out_scale = num::sx(cdp.get(C::D_DATOUT_SCALE::offset), 16);
  l.out_shift = cdp.field<C::D_DATOUT_SHIFTER, C::D_DATOUT_SHIFTER::DATOUT_SHIFTER>();

  LutSettings& t = l.lut;
  const bool fp = l.format == 2;
  const uint32_t lc = cdp.get(C::S_LUT_CFG::offset), info = cdp.get(C::S_LUT_INFO::offset);
  t.le_linear = C::S_LUT_CFG::LUT_LE_FUNCTION::get(lc) != 0;
  t.uflow_priority_lo = C::S_LUT_CFG::LUT_UFLOW_PRIORITY::get(lc) != 0;
  t.oflow_priority_lo = C::S_LUT_CFG::LUT_OFLOW_PRIORITY::get(lc) != 0;
  t.hybrid_priority_lo = C::S_LUT_CFG::LUT_HYBRID_PRIORITY::get(lc) != 0;
  t.le_index_offset = static_cast<int>(num::sx(C::S_LUT_INFO::LUT_LE_INDEX_OFFSET::get(info), 8));
  t.le_index_select = index_select(C::S_LUT_INFO::LUT_LE_INDEX_SELECT::get(info), l.format);
  t.lo_index_select = index_select(C::S_LUT_INFO::LUT_LO_INDEX_SELECT::get(info), l.format);
  t.le_start = start_end(cdp, C::S_LUT_LE_START_LOW::offset, fp);
  t.le_end = start_end(cdp, C::S_LUT_LE_END_LOW::offset, fp);
  t.lo_start = start_end(cdp, C::S_LUT_LO_START_LOW::offset, fp);
  t.lo_end = start_end(cdp, C::S_LUT_LO_END_LOW::offset, fp);
  const uint32_t les = cdp.get(C::S_LUT_LE_SLOPE_SCALE::offset), lss = cdp.get(C::S_LUT_LE_SLOPE_SHIFT::offset);
  const uint32_t los = cdp.get(C::S_LUT_LO_SLOPE_SCALE::offset), lsh = cdp.get(C::S_LUT_LO_SLOPE_SHIFT::offset);
  t.le_uflow_scale = static_cast<uint16_t>(les);
  t.le_oflow_scale = static_cast<uint16_t>(les >> 16);
  t.lo_uflow_scale = static_cast<uint16_t>(los);
  t.lo_oflow_scale = static_cast<uint16_t>(los >> 16);
  t.le_uflow_shift = static_cast<int>(num::sx(lss & 0x1f, 5));
  t.le_oflow_shift = static_cast<int>(num::sx((lss >> 5) & 0x1f, 5));
  t.lo_uflow_shift = static_cast<int>(num::sx(lsh & 0x1f, 5));
  t.lo_oflow_shift = static_cast<int>(num::sx((lsh >> 5) & 0x1f, 5));
  l.le_start_compare = l.format == 0 ? num::sx(t.le_start, 22) : t.le_start;
  l.lo_start_compare = l.format == 0 ? num::sx(t.lo_start, 22) : t.lo_start;
  return l;
}

std::vector<std::string> cdp_layer_violations(const CdpLayer& l, const HwConfig& cfg) {
  std::vector<std::string> v;
  static const char* kNames[] = {"int8", "int16", "fp16", "reserved (3)"};
  if (l.format == 3) v.push_back("CDP.D_DATA_FORMAT = 3 is reserved");
  else if (!cfg.supports(l.precision()))
    v.push_back(fmt::format("CDP.D_DATA_FORMAT = {} but configuration '{}' has no {} datapath", kNames[l.format],
                            cfg.name, kNames[l.format]));
  if (l.rdma_format != l.format)
    v.push_back(fmt::format("CDP_RDMA.D_DATA_FORMAT = {} differs from CDP.D_DATA_FORMAT = {} (they must be equal, spec §2.2)",
                            kNames[l.rdma_format & 3], kNames[l.format]));
  if (l.format == 0) {
    if (l.lut.le_start != l.le_start_compare)
      v.push_back("int8: S_LUT_LE_START does not fit the 22 signed bits the int8 datapath compares (spec §2.7, §8 point 8)");
    if (l.lut.lo_start != l.lo_start_compare)
      v.push_back("int8: S_LUT_LO_START does not fit the 22 signed bits the int8 datapath compares (spec §2.7, §8 point 8)");
  }
  return v;
}

}  // namespace dla::golden
