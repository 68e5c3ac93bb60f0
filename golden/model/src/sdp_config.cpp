#include "sdp_config.h"

#include <fmt/format.h>

#include "dla/numerics/integer_ops.h"
#include "dla/regs.gen.h"

namespace dla::golden {

namespace {

namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;

int sx(uint32_t v, unsigned bits) { return static_cast<int>(num::sx(v, bits)); }

Precision precision_of(unsigned code) { return code <= 2 ? static_cast<Precision>(code) : Precision::Int8; }

struct Reader {
  const SdpRegReader& f;
  template <class Reg, class Field>
  uint32_t get() const { return Field::get(f(Reg::offset)); }
  uint32_t raw(uint32_t offset) const { return f(offset); }
};

// Address registers: full = HIGH << 32 | LOW, the low log2(A) bits ignored (sdp.md §2.1).
uint64_t address(uint32_t low, uint32_t high, unsigned atom) {
  return ((uint64_t{high} << 32) | low) & ~uint64_t{atom - 1};
}
uint64_t stride(uint32_t v, unsigned atom) { return v & ~uint64_t{atom - 1}; }

MemPort port_of(bool mc, const HwConfig& cfg) { return mc || !cfg.sram_if ? MemPort::Dbb : MemPort::Sram; }

void decode_rdma(const HwConfig& cfg, const Reader& r, SdpLayerConfig& l) {
  const unsigned a = cfg.atom_bytes;
  l.width = r.get<R::D_DATA_CUBE_WIDTH, R::D_DATA_CUBE_WIDTH::WIDTH>() + 1;
  l.height = r.get<R::D_DATA_CUBE_HEIGHT, R::D_DATA_CUBE_HEIGHT::HEIGHT>() + 1;
  l.channels = r.get<R::D_DATA_CUBE_CHANNEL, R::D_DATA_CUBE_CHANNEL::CHANNEL>() + 1;
  using FM = R::D_FEATURE_MODE_CFG;
  l.flying = r.get<FM, FM::FLYING_MODE>() != 0;
  l.winograd = r.get<FM, FM::WINOGRAD>() != 0;
  l.in_code = r.get<FM, FM::IN_PRECISION>();
  l.proc_code = r.get<FM, FM::PROC_PRECISION>();
  l.out_code = r.get<FM, FM::OUT_PRECISION>();
  l.in = precision_of(l.in_code);
  l.proc = precision_of(l.proc_code);
  l.out = precision_of(l.out_code);
  l.batches = r.get<FM, FM::BATCH_NUMBER>() + 1;
  l.src_base = address(r.raw(R::D_SRC_BASE_ADDR_LOW::offset), r.raw(R::D_SRC_BASE_ADDR_HIGH::offset), a);
  l.src_line_stride = stride(r.raw(R::D_SRC_LINE_STRIDE::offset), a);
  l.src_surface_stride = stride(r.raw(R::D_SRC_SURFACE_STRIDE::offset), a);
  const bool src_mc = r.get<R::D_SRC_DMA_CFG, R::D_SRC_DMA_CFG::SRC_RAM_TYPE>() != 0;
  l.src_port = port_of(src_mc, cfg);
  l.src_port_is_sram = !src_mc;
  l.rdma_nan_inf_count = r.get<R::D_PERF_ENABLE, R::D_PERF_ENABLE::PERF_NAN_INF_COUNT_EN>() != 0;

  // The three stream CFG registers share one layout: DISABLE[0] USE[2:1] SIZE[3] MODE[4] RAM[5].
  auto stream = [&](uint32_t cfg_off, uint32_t base_lo, uint32_t base_hi, uint32_t line, uint32_t surf) {
    const uint32_t v = r.raw(cfg_off);
    SdpOperandStream s;
    s.enabled = (v & 1u) == 0;
    s.use = static_cast<SdpOperandUse>((v >> 1) & 3u);
    s.two_byte = (v >> 3) & 1u;
    s.per_element = (v >> 4) & 1u;
    const bool mc = (v >> 5) & 1u;
    s.port = port_of(mc, cfg);
    s.port_is_sram = !mc;
    s.base = address(r.raw(base_lo), r.raw(base_hi), a);
    s.line_stride = stride(r.raw(line), a);
    s.surface_stride = stride(r.raw(surf), a);
    return s;
  };
  l.bs_stream = stream(R::D_BRDMA_CFG::offset, R::D_BS_BASE_ADDR_LOW::offset, R::D_BS_BASE_ADDR_HIGH::offset,
                       R::D_BS_LINE_STRIDE::offset, R::D_BS_SURFACE_STRIDE::offset);
  l.bn_stream = stream(R::D_NRDMA_CFG::offset, R::D_BN_BASE_ADDR_LOW::offset, R::D_BN_BASE_ADDR_HIGH::offset,
                       R::D_BN_LINE_STRIDE::offset, R::D_BN_SURFACE_STRIDE::offset);
  l.ew_stream = stream(R::D_ERDMA_CFG::offset, R::D_EW_BASE_ADDR_LOW::offset, R::D_EW_BASE_ADDR_HIGH::offset,
                       R::D_EW_LINE_STRIDE::offset, R::D_EW_SURFACE_STRIDE::offset);
}

// BS and BN share one register layout at different offsets: CFG, ALU_CFG, ALU_SRC_VALUE,
// MUL_CFG, MUL_SRC_VALUE at +0, +4, +8, +0xC, +0x10.
SdpXStage decode_x(const Reader& r, uint32_t base) {
  const uint32_t c = r.raw(base), alu = r.raw(base + 4), mul = r.raw(base + 0xc);
  SdpXStage x;
  x.bypass = c & 1u;
  x.alu_bypass = (c >> 1) & 1u;
  x.alu_algo = static_cast<SdpAluAlgo>((c >> 2) & 3u);
  x.mul_bypass = (c >> 4) & 1u;
  x.prelu = (c >> 5) & 1u;
  x.relu_bypass = (c >> 6) & 1u;
  x.alu_from_mem = alu & 1u;
  x.alu_shift = (alu >> 8) & 0x3fu;
  x.alu_operand = static_cast<uint16_t>(r.raw(base + 8));
  x.mul_from_mem = mul & 1u;
  x.mul_shift = (mul >> 8) & 0x3fu;  // only the low 6 bits of MUL_SHIFT_VALUE[15:8] are used
  x.mul_operand = static_cast<uint16_t>(r.raw(base + 0x10));
  return x;
}

SdpEwConverter decode_cvt(const Reader& r, uint32_t cfg_off, uint32_t offset_off) {
  SdpEwConverter c;
  c.bypass = (r.raw(cfg_off) >> 1) & 1u;
  c.offset = static_cast<int32_t>(r.raw(offset_off));
  c.scale = static_cast<int16_t>(r.raw(offset_off + 4));
  c.truncate = r.raw(offset_off + 8) & 0x3fu;
  return c;
}

void decode_sdp(const HwConfig& cfg, const Reader& r, SdpLayerConfig& l) {
  const unsigned a = cfg.atom_bytes;
  using FM = S::D_FEATURE_MODE_CFG;
  // Values SDP holds separately from SDP_RDMA: they must agree (sdp.md §2.4).
  auto check = [&](const char* what, uint32_t sdp_v, uint32_t rdma_v) {
    if (sdp_v != rdma_v) l.rdma_mismatches.push_back(fmt::format("{} (SDP {}, SDP_RDMA {})", what, sdp_v, rdma_v));
  };
  check("cube width", r.get<S::D_DATA_CUBE_WIDTH, S::D_DATA_CUBE_WIDTH::WIDTH>() + 1, l.width);
  check("cube height", r.get<S::D_DATA_CUBE_HEIGHT, S::D_DATA_CUBE_HEIGHT::HEIGHT>() + 1, l.height);
  check("cube channels", r.get<S::D_DATA_CUBE_CHANNEL, S::D_DATA_CUBE_CHANNEL::CHANNEL>() + 1, l.channels);
  check("FLYING_MODE", r.get<FM, FM::FLYING_MODE>(), l.flying);
  check("WINOGRAD", r.get<FM, FM::WINOGRAD>(), l.winograd);
  check("BATCH_NUMBER", r.get<FM, FM::BATCH_NUMBER>() + 1, l.batches);
  check("PROC_PRECISION", r.get<S::D_DATA_FORMAT, S::D_DATA_FORMAT::PROC_PRECISION>(), l.proc_code);
  check("OUT_PRECISION", r.get<S::D_DATA_FORMAT, S::D_DATA_FORMAT::OUT_PRECISION>(), l.out_code);
  // SDP's own copies govern its datapath and output; SDP_RDMA's govern the reading.
  l.flying = r.get<FM, FM::FLYING_MODE>() != 0;
  l.winograd = r.get<FM, FM::WINOGRAD>() != 0;
  l.batches = r.get<FM, FM::BATCH_NUMBER>() + 1;
  l.proc_code = r.get<S::D_DATA_FORMAT, S::D_DATA_FORMAT::PROC_PRECISION>();
  l.out_code = r.get<S::D_DATA_FORMAT, S::D_DATA_FORMAT::OUT_PRECISION>();
  l.proc = precision_of(l.proc_code);
  l.out = precision_of(l.out_code);
  l.output_to_pdp = r.get<FM, FM::OUTPUT_DST>() != 0;
  l.nan_to_zero = r.get<FM, FM::NAN_TO_ZERO>() != 0;
  l.dst_base = address(r.raw(S::D_DST_BASE_ADDR_LOW::offset), r.raw(S::D_DST_BASE_ADDR_HIGH::offset), a);
  l.dst_line_stride = stride(r.raw(S::D_DST_LINE_STRIDE::offset), a);
  l.dst_surface_stride = stride(r.raw(S::D_DST_SURFACE_STRIDE::offset), a);
  l.dst_batch_stride = stride(r.raw(S::D_DST_BATCH_STRIDE::offset), a);
  const bool dst_mc = r.get<S::D_DST_DMA_CFG, S::D_DST_DMA_CFG::DST_RAM_TYPE>() != 0;
  l.dst_port = port_of(dst_mc, cfg);
  l.dst_port_is_sram = !dst_mc;

  l.bs = decode_x(r, S::D_DP_BS_CFG::offset);
  l.bn = decode_x(r, S::D_DP_BN_CFG::offset);
  if (!cfg.sdp_bs) l.bs.bypass = true;
  if (!cfg.sdp_bn) l.bn.bypass = true;

  const uint32_t ew = r.raw(S::D_DP_EW_CFG::offset);
  SdpYStage& y = l.ew;
  y.bypass = (ew & 1u) || !cfg.sdp_ew;
  y.alu_bypass = (ew >> 1) & 1u;
  y.alu_algo = static_cast<SdpAluAlgo>((ew >> 2) & 3u);
  y.mul_bypass = (ew >> 4) & 1u;
  y.prelu = (ew >> 5) & 1u;
  y.lut_bypass = ((ew >> 6) & 1u) || !cfg.sdp_lut;
  y.alu_from_mem = r.raw(S::D_DP_EW_ALU_CFG::offset) & 1u;
  y.mul_from_mem = r.raw(S::D_DP_EW_MUL_CFG::offset) & 1u;
  y.alu_operand = r.raw(S::D_DP_EW_ALU_SRC_VALUE::offset);
  y.mul_operand = r.raw(S::D_DP_EW_MUL_SRC_VALUE::offset);
  y.alu_cvt = decode_cvt(r, S::D_DP_EW_ALU_CFG::offset, S::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset);
  y.mul_cvt = decode_cvt(r, S::D_DP_EW_MUL_CFG::offset, S::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset);
  y.truncate = r.get<S::D_DP_EW_TRUNCATE_VALUE, S::D_DP_EW_TRUNCATE_VALUE::EW_TRUNCATE>();

  l.cvt_offset = static_cast<int32_t>(r.raw(S::D_CVT_OFFSET::offset));
  l.cvt_scale = static_cast<int16_t>(r.raw(S::D_CVT_SCALE::offset));
  l.cvt_shift = r.get<S::D_CVT_SHIFT, S::D_CVT_SHIFT::CVT_SHIFT>();
  using PE = S::D_PERF_ENABLE;
  l.perf_lut = r.get<PE, PE::PERF_LUT_EN>() != 0;
  l.perf_sat = r.get<PE, PE::PERF_SAT_EN>() != 0;
  l.perf_nan_inf = r.get<PE, PE::PERF_NAN_INF_COUNT_EN>() != 0;

  LutSettings& t = l.lut;
  const uint32_t lc = r.raw(S::S_LUT_CFG::offset), info = r.raw(S::S_LUT_INFO::offset);
  t.le_linear = lc & 1u;
  t.uflow_priority_lo = (lc >> 4) & 1u;
  t.oflow_priority_lo = (lc >> 5) & 1u;
  t.hybrid_priority_lo = (lc >> 6) & 1u;
  t.le_index_offset = sx(info & 0xffu, 8);
  t.le_index_select = sx((info >> 8) & 0xffu, 8);
  t.lo_index_select = sx((info >> 16) & 0xffu, 8);
  // Integer modes read starts/ends as int32; fp16 mode as fp32 patterns (kept as bits).
  auto start_end = [&](uint32_t off) {
    const uint32_t v = r.raw(off);
    return l.fp() ? int64_t{v} : int64_t{static_cast<int32_t>(v)};
  };
  t.le_start = start_end(S::S_LUT_LE_START::offset);
  t.le_end = start_end(S::S_LUT_LE_END::offset);
  t.lo_start = start_end(S::S_LUT_LO_START::offset);
  t.lo_end = start_end(S::S_LUT_LO_END::offset);
  const uint32_t les = r.raw(S::S_LUT_LE_SLOPE_SCALE::offset), lss = r.raw(S::S_LUT_LE_SLOPE_SHIFT::offset);
  const uint32_t los = r.raw(S::S_LUT_LO_SLOPE_SCALE::offset), lsh = r.raw(S::S_LUT_LO_SLOPE_SHIFT::offset);
  t.le_uflow_scale = static_cast<uint16_t>(les);
  t.le_oflow_scale = static_cast<uint16_t>(les >> 16);
  t.lo_uflow_scale = static_cast<uint16_t>(los);
  t.lo_oflow_scale = static_cast<uint16_t>(los >> 16);
  t.le_uflow_shift = sx(lss & 0x1fu, 5);
  t.le_oflow_shift = sx((lss >> 5) & 0x1fu, 5);
  t.lo_uflow_shift = sx(lsh & 0x1fu, 5);
  t.lo_oflow_shift = sx((lsh >> 5) & 0x1fu, 5);

}

}  // namespace

SdpLayerConfig decode_sdp_rdma_layer(const HwConfig& cfg, const SdpRegReader& rdma) {
  SdpLayerConfig l;
  l.atom_bytes = cfg.atom_bytes;
  decode_rdma(cfg, Reader{rdma}, l);
  return l;
}

SdpLayerConfig decode_sdp_layer(const HwConfig& cfg, const SdpRegReader& sdp, const SdpRegReader& rdma) {
  SdpLayerConfig l = decode_sdp_rdma_layer(cfg, rdma);
  decode_sdp(cfg, Reader{sdp}, l);
  l.sat_flag_range = cfg.sdp_sat_flag == SdpSatFlag::Range;
  // Flying input without memory operands: SDP_RDMA takes no part in the layer, so SDP's own
  // cube registers govern and SDP_RDMA's copies need not agree.
  if (l.flying && !l.bs.needs_stream() && !l.bn.needs_stream() && !l.ew.needs_stream()) {
    const Reader r{sdp};
    l.width = r.get<S::D_DATA_CUBE_WIDTH, S::D_DATA_CUBE_WIDTH::WIDTH>() + 1;
    l.height = r.get<S::D_DATA_CUBE_HEIGHT, S::D_DATA_CUBE_HEIGHT::HEIGHT>() + 1;
    l.channels = r.get<S::D_DATA_CUBE_CHANNEL, S::D_DATA_CUBE_CHANNEL::CHANNEL>() + 1;
    l.rdma_mismatches.clear();
  }
  return l;
}

bool sdp_precision_legal(const HwConfig& cfg, Precision in, Precision proc, Precision out, std::string* why) {
  auto fail = [&](std::string m) {
    if (why) *why = std::move(m);
    return false;
  };
  for (Precision p : {in, proc, out})
    if (!cfg.supports(p))
      return fail(fmt::format("precision {} is not supported by configuration '{}'", precision_name(p), cfg.name));
  const bool v1_conversions = cfg.register_variant == "nvdlav1";
  if (in == proc && proc == out) return true;
  if (in == Precision::Fp16 && proc == Precision::Fp16 && out == Precision::Int16) return true;
  if (in == Precision::Int16 && proc == Precision::Int16 && out == Precision::Fp16) return true;
  if (in == Precision::Int16 && proc == Precision::Int8 && out == Precision::Int8) {
    if (v1_conversions) return true;
    return fail("the 16->8 input merge (IN INT16, PROC INT8) exists only on v1 (sdp.md §2.5, §4.4)");
  }
  if (in == Precision::Int8 && proc == Precision::Int8 && out != Precision::Int8) {
    if (v1_conversions) return true;
    return fail("the 8->16 output split (PROC INT8, OUT 16-bit) exists only on v1 (sdp.md §2.5, §11.5)");
  }
  return fail(fmt::format("IN {} / PROC {} / OUT {} is not a supported SDP precision combination (sdp.md §2.5)",
                          precision_name(in), precision_name(proc), precision_name(out)));
}

std::vector<SdpRuleViolation> sdp_rule_violations(const SdpLayerConfig& l, const HwConfig& cfg) {
  std::vector<SdpRuleViolation> v;
  auto undefined = [&](std::string m) { v.push_back({SdpRuleKind::Undefined, std::move(m)}); };
  for (const std::string& m : l.rdma_mismatches)
    undefined("SDP and SDP_RDMA disagree on " + m + " (sdp.md §2.4)");
  if (l.in_code > 2 || l.proc_code > 2 || l.out_code > 2) {
    undefined(fmt::format("precision code 3 is undefined (IN {}, PROC {}, OUT {})", l.in_code, l.proc_code, l.out_code));
  } else {
    std::string why;
    // In flying mode IN_PRECISION is irrelevant: check with IN = PROC.
    const Precision in = l.flying ? l.proc : l.in;
    if (!sdp_precision_legal(cfg, in, l.proc, l.out, &why)) undefined(why);
  }
  if ((l.merge_16_to_8() || l.split_8_to_16()) && (l.batches > 1 || l.winograd))
    undefined("the 16->8 / 8->16 precision modes require batch 1 and no Winograd (sdp.md §2.5)");
  if (!l.flying && (l.batches > 1 || l.winograd))
    undefined("batch and Winograd exist only with flying (CACC) input (sdp.md §11.4, §11.6)");
  if (l.ew.eql_mode() && (l.batches > 1 || l.winograd)) undefined("EQL mode is not allowed with batch or Winograd (sdp.md §10)");
  auto stream_rules = [&](const char* name, const SdpOperandStream& s, bool alu_mem, bool mul_mem) {
    const bool needed = alu_mem || mul_mem;
    if (s.enabled != needed) {
      undefined(fmt::format("{} operand stream is {} but its stage {} memory operands (sdp.md §2.4)", name,
                            s.enabled ? "enabled" : "disabled", needed ? "takes" : "takes no"));
      return;
    }
    if (!s.enabled) return;
    const SdpOperandUse want = alu_mem && mul_mem ? SdpOperandUse::Both : alu_mem ? SdpOperandUse::Alu : SdpOperandUse::Mul;
    if (s.use != want)
      undefined(fmt::format("{} DATA_USE is {} but the stage needs {} (sdp.md §2.4)", name, static_cast<unsigned>(s.use),
                            static_cast<unsigned>(want)));
    if (!s.two_byte && l.proc != Precision::Int8)
      undefined(fmt::format("{} DATA_SIZE ONE_BYTE is illegal with PROC {} (sdp.md §2.4)", name, precision_name(l.proc)));
    if (s.port_is_sram && !cfg.sram_if)
      undefined(fmt::format("{} reads the secondary memory (RAM_TYPE CV) but '{}' has none; read from DBB", name, cfg.name));
  };
  stream_rules("BRDMA (BS)", l.bs_stream, l.bs.alu_active() && l.bs.alu_from_mem, l.bs.mul_active() && l.bs.mul_from_mem);
  stream_rules("NRDMA (BN)", l.bn_stream, l.bn.alu_active() && l.bn.alu_from_mem, l.bn.mul_active() && l.bn.mul_from_mem);
  stream_rules("ERDMA (EW)", l.ew_stream, l.ew.alu_active() && l.ew.alu_from_mem, l.ew.mul_active() && l.ew.mul_from_mem);
  if (!l.flying && l.src_port_is_sram && !cfg.sram_if)
    undefined(fmt::format("input RAM_TYPE CV but '{}' has no secondary memory; read from DBB", cfg.name));
  if (l.writes_memory() && l.dst_port_is_sram && !cfg.sram_if)
    undefined(fmt::format("output RAM_TYPE CV but '{}' has no secondary memory; written to DBB", cfg.name));
  return v;
}

}  // namespace dla::golden
