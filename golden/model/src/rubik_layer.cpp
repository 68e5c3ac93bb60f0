#include "dla/rubik_layer.h"

#include <fmt/format.h>

#include "dla/regs.gen.h"

namespace dla {

namespace R = reg::RBK;

const char* rubik_mode_name(RubikMode m) {
  switch (m) {
    case RubikMode::Contract: return "contract";
    case RubikMode::Split: return "split";
    case RubikMode::Merge: return "merge";
  }
  return "reserved";
}

namespace {

MemPort port_of(uint32_t ram_type) { return ram_type == 1 ? MemPort::Dbb : MemPort::Sram; }
uint32_t ram_type_of(MemPort p) { return p == MemPort::Dbb ? 1u : 0u; }

const char* precision_text(uint32_t p) {
  static const char* kNames[] = {"int8", "int16", "fp16", "reserved"};
  return kNames[p & 3u];
}

}  // namespace

RubikExtent rubik_read_extent(const RubikLayer& l) {
  RubikExtent e{l.in_port, l.in, l.in};
  const uint64_t rows = uint64_t{l.height - 1} * l.in_line;
  switch (l.rubik_mode()) {
    case RubikMode::Contract: {
      const uint64_t phases = uint64_t{l.stride_x} * l.stride_y;
      e.end = l.in + (phases - 1) * l.contract0 + uint64_t{l.out_surfaces() - 1} * l.in_surface + rows +
              uint64_t{l.width} * kRubikAtom;
      break;
    }
    case RubikMode::Split:
      e.end = l.in + uint64_t{l.in_surfaces() - 1} * l.in_surface + rows + uint64_t{l.width} * kRubikAtom;
      break;
    case RubikMode::Merge:
      e.end = l.in + uint64_t{l.channels - 1} * l.in_planar + rows + l.plane_row_bytes();
      break;
  }
  return e;
}

RubikExtent rubik_write_extent(const RubikLayer& l) {
  RubikExtent e{l.out_port, l.out, l.out};
  switch (l.rubik_mode()) {
    case RubikMode::Contract:
      e.end = l.out + uint64_t{l.out_surfaces() - 1} * l.out_surface + uint64_t{l.height - 1} * l.contract1 +
              uint64_t{l.stride_y - 1} * l.out_line + uint64_t{l.width} * l.stride_x * kRubikAtom;
      break;
    case RubikMode::Split:
      e.end = l.out + uint64_t{l.out_channels - 1} * l.out_planar + uint64_t{l.height - 1} * l.out_line +
              l.plane_row_bytes();
      break;
    case RubikMode::Merge:
      e.end = l.out + uint64_t{l.in_surfaces() - 1} * l.out_surface + uint64_t{l.height - 1} * l.out_line +
              uint64_t{l.width} * kRubikAtom;
      break;
  }
  return e;
}

RubikLayer decode_rubik_registers(const RegisterSnapshot& s) {
  RubikLayer l;
  auto addr = [&](uint32_t low, uint32_t high) { return (uint64_t{s.get(high)} << 32) | s.get(low); };
  l.mode = s.field<R::D_MISC_CFG, R::D_MISC_CFG::RUBIK_MODE>();
  l.precision = s.field<R::D_MISC_CFG, R::D_MISC_CFG::IN_PRECISION>();
  l.width = s.field<R::D_DATAIN_SIZE_0, R::D_DATAIN_SIZE_0::DATAIN_WIDTH>() + 1;
  l.height = s.field<R::D_DATAIN_SIZE_0, R::D_DATAIN_SIZE_0::DATAIN_HEIGHT>() + 1;
  l.channels = s.field<R::D_DATAIN_SIZE_1, R::D_DATAIN_SIZE_1::DATAIN_CHANNEL>() + 1;
  l.out_channels = s.field<R::D_DATAOUT_SIZE_1, R::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL>() + 1;
  l.stride_x = s.field<R::D_DECONV_STRIDE, R::D_DECONV_STRIDE::DECONV_X_STRIDE>() + 1;
  l.stride_y = s.field<R::D_DECONV_STRIDE, R::D_DECONV_STRIDE::DECONV_Y_STRIDE>() + 1;
  l.in_port = port_of(s.field<R::D_DAIN_RAM_TYPE, R::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE>());
  l.out_port = port_of(s.field<R::D_DAOUT_RAM_TYPE, R::D_DAOUT_RAM_TYPE::DATAOUT_RAM_TYPE>());
  l.in = addr(R::D_DAIN_ADDR_LOW::offset, R::D_DAIN_ADDR_HIGH::offset);
  l.in_line = s.get(R::D_DAIN_LINE_STRIDE::offset);
  l.in_surface = s.get(R::D_DAIN_SURF_STRIDE::offset);
  l.in_planar = s.get(R::D_DAIN_PLANAR_STRIDE::offset);
  l.out = addr(R::D_DAOUT_ADDR_LOW::offset, R::D_DAOUT_ADDR_HIGH::offset);
  l.out_line = s.get(R::D_DAOUT_LINE_STRIDE::offset);
  l.out_surface = s.get(R::D_DAOUT_SURF_STRIDE::offset);
  l.out_planar = s.get(R::D_DAOUT_PLANAR_STRIDE::offset);
  l.contract0 = s.get(R::D_CONTRACT_STRIDE_0::offset);
  l.contract1 = s.get(R::D_CONTRACT_STRIDE_1::offset);
  l.perf_enable = s.field<R::D_PERF_ENABLE, R::D_PERF_ENABLE::PERF_EN>() != 0;
  return l;
}

std::vector<std::pair<uint32_t, uint32_t>> rubik_register_values(const RubikLayer& l) {
  auto low = [](uint64_t a) { return static_cast<uint32_t>(a); };
  auto high = [](uint64_t a) { return static_cast<uint32_t>(a >> 32); };
  uint32_t misc = R::D_MISC_CFG::RUBIK_MODE::put(0, l.mode);
  misc = R::D_MISC_CFG::IN_PRECISION::put(misc, l.precision);
  uint32_t size0 = R::D_DATAIN_SIZE_0::DATAIN_WIDTH::put(0, l.width - 1);
  size0 = R::D_DATAIN_SIZE_0::DATAIN_HEIGHT::put(size0, l.height - 1);
  uint32_t deconv = R::D_DECONV_STRIDE::DECONV_X_STRIDE::put(0, l.stride_x - 1);
  deconv = R::D_DECONV_STRIDE::DECONV_Y_STRIDE::put(deconv, l.stride_y - 1);
  return {{R::D_MISC_CFG::offset, misc},
          {R::D_DAIN_RAM_TYPE::offset, ram_type_of(l.in_port)},
          {R::D_DATAIN_SIZE_0::offset, size0},
          {R::D_DATAIN_SIZE_1::offset, l.channels - 1},
          {R::D_DAIN_ADDR_HIGH::offset, high(l.in)},
          {R::D_DAIN_ADDR_LOW::offset, low(l.in)},
          {R::D_DAIN_LINE_STRIDE::offset, low(l.in_line)},
          {R::D_DAIN_SURF_STRIDE::offset, low(l.in_surface)},
          {R::D_DAIN_PLANAR_STRIDE::offset, low(l.in_planar)},
          {R::D_DAOUT_RAM_TYPE::offset, ram_type_of(l.out_port)},
          {R::D_DATAOUT_SIZE_1::offset, l.out_channels - 1},
          {R::D_DAOUT_ADDR_HIGH::offset, high(l.out)},
          {R::D_DAOUT_ADDR_LOW::offset, low(l.out)},
          {R::D_DAOUT_LINE_STRIDE::offset, low(l.out_line)},
          {R::D_CONTRACT_STRIDE_0::offset, low(l.contract0)},
          {R::D_CONTRACT_STRIDE_1::offset, low(l.contract1)},
          {R::D_DAOUT_SURF_STRIDE::offset, low(l.out_surface)},
          {R::D_DAOUT_PLANAR_STRIDE::offset, low(l.out_planar)},
          {R::D_DECONV_STRIDE::offset, deconv},
          {R::D_PERF_ENABLE::offset, l.perf_enable ? 1u : 0u}};
}

std::vector<std::string> rubik_layer_violations(const RubikLayer& l, const HwConfig& cfg) {
  std::vector<std::string> v;
  if (l.mode > 2) v.push_back(fmt::format("D_MISC_CFG.RUBIK_MODE = {} is reserved (0 contract, 1 split, 2 merge; spec §4.1)", l.mode));
  if (l.precision > 2)
    v.push_back(fmt::format("D_MISC_CFG.IN_PRECISION = {} is reserved (0 int8, 1 int16, 2 fp16; spec §4.1)", l.precision));
  else if (!cfg.supports(static_cast<Precision>(l.precision)))
    v.push_back(fmt::format("D_MISC_CFG.IN_PRECISION = {}: configuration '{}' has no {}", precision_text(l.precision),
                            cfg.name, precision_text(l.precision)));
  if (!cfg.sram_if) {
    if (l.in_port == MemPort::Sram)
      v.push_back(fmt::format("D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE = CVIF but configuration '{}' has no SRAM interface", cfg.name));
    if (l.out_port == MemPort::Sram)
      v.push_back(fmt::format("D_DAOUT_RAM_TYPE.DATAOUT_RAM_TYPE = CVIF but configuration '{}' has no SRAM interface", cfg.name));
  }
  if (l.mode > 2 || l.precision > 2) return v;  // sizes below depend on both

  const uint64_t atom = kRubikAtom;
  auto at_least = [&](uint64_t stride, uint64_t need, const char* reg, const char* what) {
    if (stride < need)
      v.push_back(fmt::format("{} = {} is below {} = {} bytes: the layer's writes would overlap (spec §4)", reg, stride,
                              what, need));
  };
  switch (l.rubik_mode()) {
    case RubikMode::Contract: {
      const uint64_t so = l.out_surfaces(), wo_bytes = uint64_t{l.width} * l.stride_x * atom;
      if (uint64_t{l.stride_x} * l.stride_y > 1 && l.contract0 != so * l.in_surface)
        v.push_back(fmt::format(
            "D_CONTRACT_STRIDE_0 = {} must equal ceil(Co/E) x D_DAIN_SURF_STRIDE = {} x {} = {} in contract mode with "
            "sx*sy > 1 (spec §4.1 and open point 10: the reference model derives the phase stride from "
            "DAIN_SURF_STRIDE, the RTL reads CONTRACT_STRIDE_0; only this value makes them agree)",
            l.contract0, so, l.in_surface, so * l.in_surface));
      if (l.stride_y > 1) at_least(l.out_line, wo_bytes, "D_DAOUT_LINE_STRIDE", "one output line (Wi*sx atoms)");
      const uint64_t row_group = uint64_t{l.stride_y - 1} * l.out_line + wo_bytes;
      if (l.height > 1)
        at_least(l.contract1, row_group, "D_CONTRACT_STRIDE_1", "the sy output lines of one input row ((sy-1)*LO + Wi*sx*32)");
      if (so > 1)
        at_least(l.out_surface, uint64_t{l.height - 1} * l.contract1 + row_group, "D_DAOUT_SURF_STRIDE",
                 "one output surface ((Hi-1)*K1 + (sy-1)*LO + Wi*sx*32)");
      break;
    }
    case RubikMode::Split: {
      if (l.out_channels > l.channels)
        v.push_back(fmt::format("D_DATAOUT_SIZE_1.DATAOUT_CHANNEL + 1 = {} exceeds D_DATAIN_SIZE_1.DATAIN_CHANNEL + 1 = {} "
                                "in split mode: the extra planes would hold pad lanes or nothing (spec §4.3)",
                                l.out_channels, l.channels));
      if (l.height > 1)
        at_least(l.out_line, l.plane_row_bytes(), "D_DAOUT_LINE_STRIDE", "one plane row (ceil(Wi*bpe/32) atoms, §4.3)");
      if (l.out_channels > 1)
        at_least(l.out_planar, uint64_t{l.height - 1} * l.out_line + l.plane_row_bytes(), "D_DAOUT_PLANAR_STRIDE",
                 "one plane ((Hi-1)*LO + ceil(Wi*bpe/32)*32)");
      break;
    }
    case RubikMode::Merge: {
      const uint64_t line = uint64_t{l.width} * atom;
      if (l.height > 1) at_least(l.out_line, line, "D_DAOUT_LINE_STRIDE", "one output line (Wi atoms)");
      if (l.in_surfaces() > 1)
        at_least(l.out_surface, uint64_t{l.height - 1} * l.out_line + line, "D_DAOUT_SURF_STRIDE",
                 "one output surface ((Hi-1)*LO + Wi*32)");
      break;
    }
  }
  const RubikExtent r = rubik_read_extent(l), w = rubik_write_extent(l);
  if (r.port == w.port && r.begin < w.end && w.begin < r.end)
    v.push_back(fmt::format("the output range {} [{:#x}, {:#x}) overlaps the input range [{:#x}, {:#x}) "
                            "(D_DAOUT_ADDR_* against D_DAIN_ADDR_* and the strides): reads could see the layer's own "
                            "writes (spec §4)",
                            mem_port_name(w.port), w.begin, w.end, r.begin, r.end));
  return v;
}

}  // namespace dla
