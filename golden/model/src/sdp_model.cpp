#include "sdp_model.h"

#include <algorithm>

#include <fmt/format.h>

#include "dla/numerics/float_format.h"
#include "dla/planted_bug.h"
#include "dla/regs.gen.h"
#include "sdp_datapath.h"

namespace dla::golden {

namespace {

namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;

uint32_t sat32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, 0xffffffffu)); }

// Registers of SDP_RDMA's CONSUMER group, as a snapshot (SDP armed before SDP_RDMA).
RegisterSnapshot rdma_consumer_snapshot(UnitContext& ctx) {
  RegisterSnapshot snap;
  snap.unit = Unit::SDP_RDMA;
  for (uint32_t off = R::D_OP_ENABLE::offset; off <= R::D_PERF_ERDMA_READ_STALL::offset; off += 4)
    snap.values.emplace_back(off, ctx.stored(Unit::SDP_RDMA, off));
  return snap;
}

}  // namespace

SdpCounters run_sdp_layer(const SdpLayerConfig& l, const LutTables& tables, SdpInputSource& in,
                          const SparseMemory& operand_mem_dbb, const SparseMemory& operand_mem_sram, SdpOutputSink* out) {
  SdpCounters c;
  const SdpDatapath dp(l, tables);
  auto mem_of = [&](const SdpOperandStream& s) -> const SparseMemory& {
    return s.port == MemPort::Sram ? operand_mem_sram : operand_mem_dbb;
  };
  const SdpOperandReader bs(l, l.bs_stream, mem_of(l.bs_stream));
  const SdpOperandReader bn(l, l.bn_stream, mem_of(l.bn_stream));
  const SdpOperandReader ew(l, l.ew_stream, mem_of(l.ew_stream));
  const bool read_bs = l.bs.needs_stream(), read_bn = l.bn.needs_stream(), read_ew = l.ew.needs_stream();
  const bool streams_to_pdp = l.output_to_pdp && !l.ew.eql_mode();

  const unsigned lanes = l.proc_lanes(), a = l.atom_bytes;
  const unsigned batches = l.flying ? l.batches : 1;  // memory input: one batch (sdp.md §15 item 8)
  std::vector<uint32_t> x(lanes);
  std::vector<uint16_t> o(lanes);
  std::vector<uint8_t> atom(a);
  const bool out16 = l.out != Precision::Int8;

  for (uint32_t sf = 0; sf < l.proc_surfaces(); ++sf)
    for (uint32_t h = 0; h < l.height; ++h)
      for (uint32_t w = 0; w < l.width; ++w)
        for (unsigned n = 0; n < batches; ++n) {
          in.read_atom(n, sf, h, w, x.data());
          for (unsigned lane = 0; lane < lanes; ++lane) {
            SdpElementOperands ops;
            if (read_bs) std::tie(ops.bs_alu, ops.bs_mul) = bs.get(sf, h, w, lane);
            if (read_bn) std::tie(ops.bn_alu, ops.bn_mul) = bn.get(sf, h, w, lane);
            if (read_ew) std::tie(ops.ew_alu, ops.ew_mul) = ew.get(sf, h, w, lane);
            const SdpElementResult r = dp.process(x[lane], ops);
            o[lane] = r.out;
            // Every output of every layer (§15 item 11) that reaches SDP's write side: the
            // compare sits there, so data streamed to PDP never sets it (as NVDLA's RTL).
            c.unequal = c.unequal || (r.out != 0 && !streams_to_pdp);
            if (l.out == Precision::Fp16) {
              if (num::kFp16.is_nan(r.out)) ++c.nan_output;  // counted unconditionally (§15 item 4)
              if (r.out == 0x7bff || r.out == 0xfbff) c.out_saturation += l.perf_sat;
            } else {
              c.out_saturation += l.perf_sat && r.cvt_saturated;
            }
            if (r.lut_used && l.perf_lut) {
              c.lut_uflow += r.lut.choice.cls == LutClass::Underflow;
              c.lut_oflow += r.lut.choice.cls == LutClass::Overflow;
              c.lut_hybrid += r.lut.choice.cls == LutClass::Hit;
              c.lut_le_hit += r.lut.le == LutClass::Hit;
              c.lut_lo_hit += r.lut.lo == LutClass::Hit;
            }
          }
          if (!out) continue;
          if (!out16) {  // int8 output: one byte per lane
            for (unsigned lane = 0; lane < lanes; ++lane) atom[lane] = static_cast<uint8_t>(o[lane]);
            out->write_atom(n, sf, h, w, atom.data());
            continue;
          }
          // 16-bit output: a/2 lanes per output atom; an int8 processing atom splits in two (§11.5).
          const unsigned per_atom = a / 2, parts = lanes / per_atom;
          for (unsigned part = 0; part < parts; ++part) {
            for (unsigned i = 0; i < per_atom; ++i) {
              atom[2 * i] = static_cast<uint8_t>(o[part * per_atom + i]);
              atom[2 * i + 1] = static_cast<uint8_t>(o[part * per_atom + i] >> 8);
            }
            out->write_atom(n, sf * parts + part, h, w, atom.data());
          }
        }
  return c;
}

SdpModel::SdpModel(const HwConfig& cfg, std::shared_ptr<SdpPair> pair, std::shared_ptr<SdpPdpChannel> to_pdp)
    : cfg_(cfg), pair_(std::move(pair)), to_pdp_(std::move(to_pdp)) {}

bool SdpModel::ready(const RegisterSnapshot& regs, UnitContext& ctx) {
  const SdpLayerConfig own = decode_sdp_layer(cfg_, [&](uint32_t o) { return regs.get(o); }, [](uint32_t) { return 0u; });
  // A flying layer waits for the convolution output it processes.
  if (own.flying && flying_input_ && !flying_input_->available()) return false;
  // (SDP's own view: its stage settings say which operand streams it reads; the RDMA's
  // registers are not read here, so a flying layer without operand streams needs no RDMA.)
  const bool needs_rdma = !own.flying || own.bs.needs_stream() || own.bn.needs_stream() || own.ew.needs_stream();
  const bool has_rdma = cfg_.has_unit(Unit::SDP_RDMA);
  // The layer starts only once SDP_RDMA's group is armed too (or the RDMA already ran): until
  // then SDP's group stays armed and drops writes, which a test can read back.
  if (needs_rdma && has_rdma && pair_->rdma_first.empty() && ctx.stored(Unit::SDP_RDMA, R::D_OP_ENABLE::offset) == 0)
    return false;
  // An SDP layer that sends to PDP is observable before it completes (PDP's done needs it),
  // so it also waits, as the RTL does, for the SDP_RDMA run that delivers its input.
  if (!own.output_to_pdp || own.ew.eql_mode() || !to_pdp_) return true;
  if (needs_rdma && has_rdma && pair_->rdma_first.empty()) return false;
  return to_pdp_->cubes.empty() && pdp_armed_on_flying(ctx);
}

void SdpModel::on_write(uint32_t offset, uint32_t data, UnitContext&) {
  // Without a LUT (nv_small) S_LUT_ACCESS_CFG is a plain register and DATA writes are dropped,
  // so the tables stay empty and DATA reads 0.
  if (!cfg_.sdp_lut) return;
  if (offset == S::S_LUT_ACCESS_CFG::offset) port_.write_cfg(data);
  else if (offset == S::S_LUT_ACCESS_DATA::offset) port_.write_data(tables_, data);
}

std::optional<uint32_t> SdpModel::read_hw(uint32_t offset) const {
  if (offset == S::S_LUT_ACCESS_DATA::offset) return port_.read_data(tables_);
  return std::nullopt;
}

std::optional<LayerResult> SdpModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  const SdpRegReader sdp = [&](uint32_t o) { return regs.get(o); };
  // Whether this layer needs SDP_RDMA, from SDP's own view of it.
  const SdpLayerConfig own = decode_sdp_layer(cfg_, sdp, [](uint32_t) { return 0u; });
  const bool flying = S::D_FEATURE_MODE_CFG::FLYING_MODE::get(regs.get(S::D_FEATURE_MODE_CFG::offset)) != 0;
  const bool needs_rdma = !flying || own.bs.needs_stream() || own.bn.needs_stream() || own.ew.needs_stream();

  RegisterSnapshot rdma;
  if (needs_rdma && !pair_->rdma_first.empty()) {
    rdma = std::move(pair_->rdma_first.front());
    pair_->rdma_first.pop_front();
  } else {
    rdma = rdma_consumer_snapshot(ctx);
    if (needs_rdma) ++pair_->sdp_first;
  }
  const SdpLayerConfig l = decode_sdp_layer(cfg_, sdp, [&](uint32_t o) { return rdma.get(o); });

  bool runnable = true;
  for (const SdpRuleViolation& v : sdp_rule_violations(l, cfg_)) {
    ctx.warn(fmt::format("SDP group {}: {}", regs.group, v.message));
    if (v.kind == SdpRuleKind::Unsupported) runnable = false;
  }
  if (l.flying && !flying_input_) {
    ctx.warn(fmt::format("SDP group {}: flying input, but configuration '{}' has no convolution pipeline; the layer "
                         "never completes", regs.group, cfg_.name));
    return std::nullopt;
  }
  if (l.flying)
    if (const auto why = flying_input_->mismatch(l)) {
      ctx.warn(fmt::format("SDP group {}: {}; the layer never completes", regs.group, *why));
      return std::nullopt;
    }
  if (!runnable) return std::nullopt;
  const bool streams_to_pdp = l.output_to_pdp && !l.ew.eql_mode();
  if (streams_to_pdp && !to_pdp_) {
    ctx.warn(fmt::format("SDP group {}: OUTPUT_DST = PDP, but configuration '{}' has no PDP; the layer never completes",
                         regs.group, cfg_.name));
    return std::nullopt;
  }

  std::string why;
  const bool defined = l.in_code <= 2 && l.proc_code <= 2 && l.out_code <= 2 &&
                       sdp_precision_legal(cfg_, l.flying ? l.proc : l.in, l.proc, l.out, &why);
  SdpCounters c;
  if (!defined) {
    ctx.warn(fmt::format("SDP group {}: undefined precision combination: nothing is written and counters read 0",
                         regs.group));
  } else {
    SdpMemoryInput mem_in(l, ctx.memory(l.src_port));
    SdpInputSource& in = l.flying ? *flying_input_ : static_cast<SdpInputSource&>(mem_in);
    SdpMemoryOutput mem_out(l, ctx.memory(l.dst_port));
    pdp_stream_.atoms.clear();
    pdp_stream_.atom_bytes = l.atom_bytes;
    SdpOutputSink* out = l.ew.eql_mode() ? nullptr : l.output_to_pdp ? static_cast<SdpOutputSink*>(&pdp_stream_) : &mem_out;
    c = run_sdp_layer(l, tables_, in, ctx.memory(MemPort::Dbb), ctx.memory(MemPort::Sram), out);
    if (streams_to_pdp) {  // the cube goes to PDP's on-flying input, in SDP's output order
      SdpPdpChannel::Cube cube{regs.group, l.atom_bytes, l.out_code, {}};
      cube.atoms.reserve(pdp_stream_.atoms.size());
      for (SdpCollectedOutput::Atom& a : pdp_stream_.atoms) cube.atoms.push_back(std::move(a.bytes));
      pdp_stream_.atoms.clear();
      to_pdp_->cubes.push_back(std::move(cube));
    }
    if (l.flying) flying_input_->consume();
    // Checker-proof plants (off unless a test enables them).
    if (c.out_saturation > 0 && planted("sdp.out_saturation_count")) --c.out_saturation;
    if (c.nan_output > 0 && planted("sdp.nan_output_count")) --c.nan_output;
  }
  // One saturation counter serves both groups and PERF_SAT_EN gates its clear as well as its
  // counting: a layer without it reports what the last enabled layer left there.
  if (l.perf_sat) out_saturation_ = sat32(c.out_saturation);
  LayerResult res;
  res.counters = {{S::D_STATUS::offset, c.unequal ? 1u : 0u},
                  {S::D_STATUS_NAN_INPUT_NUM::offset, 0},
                  {S::D_STATUS_INF_INPUT_NUM::offset, 0},
                  {S::D_STATUS_NAN_OUTPUT_NUM::offset, sat32(c.nan_output)},
                  {S::D_PERF_WDMA_WRITE_STALL::offset, 0},
                  {S::D_PERF_LUT_UFLOW::offset, sat32(c.lut_uflow)},
                  {S::D_PERF_LUT_OFLOW::offset, sat32(c.lut_oflow)},
                  {S::D_PERF_OUT_SATURATION::offset, out_saturation_},
                  {S::D_PERF_LUT_HYBRID::offset, sat32(c.lut_hybrid)},
                  {S::D_PERF_LUT_LE_HIT::offset, sat32(c.lut_le_hit)},
                  {S::D_PERF_LUT_LO_HIT::offset, sat32(c.lut_lo_hit)}};
  return res;
}

// SDP_RDMA's group stays armed until SDP's is (the pair starts together; writes to it are
// dropped meanwhile), unless SDP already ran the layer with the RDMA's registers.
bool SdpRdmaModel::ready(const RegisterSnapshot&, UnitContext& ctx) {
  return pair_->sdp_first > 0 || ctx.stored(Unit::SDP, S::D_OP_ENABLE::offset) != 0;
}

std::optional<LayerResult> SdpRdmaModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  if (pair_->sdp_first > 0) --pair_->sdp_first;
  else pair_->rdma_first.push_back(regs);

  const SdpLayerConfig l = decode_sdp_rdma_layer(cfg_, [&](uint32_t o) { return regs.get(o); });
  uint64_t nan = 0, inf = 0;
  // sdp.md §4.2: every fp16 element read from memory, pad lanes included.
  if (!l.flying && l.in == Precision::Fp16 && l.in_code == 2 && l.rdma_nan_inf_count) {
    const unsigned a = l.atom_bytes, lanes = a / 2;
    const uint32_t surfaces = (l.channels + lanes - 1) / lanes;
    std::vector<uint8_t> buf(a);
    const SparseMemory& mem = ctx.memory(l.src_port);
    for (uint32_t sf = 0; sf < surfaces; ++sf)
      for (uint32_t h = 0; h < l.height; ++h)
        for (uint32_t w = 0; w < l.width; ++w) {
          mem.read(SdpMemoryInput::atom_address(l, sf, h, w), buf.data(), a);
          for (unsigned i = 0; i < lanes; ++i) {
            const uint16_t v = static_cast<uint16_t>(buf[2 * i] | (buf[2 * i + 1] << 8));
            nan += num::kFp16.is_nan(v);
            inf += num::kFp16.is_inf_pattern(v);
          }
        }
  }
  LayerResult res;
  res.counters = {{R::D_STATUS_NAN_INPUT_NUM::offset, sat32(nan)},
                  {R::D_STATUS_INF_INPUT_NUM::offset, sat32(inf)},
                  {R::D_PERF_MRDMA_READ_STALL::offset, 0},
                  {R::D_PERF_BRDMA_READ_STALL::offset, 0},
                  {R::D_PERF_NRDMA_READ_STALL::offset, 0},
                  {R::D_PERF_ERDMA_READ_STALL::offset, 0}};
  res.interrupt_bits = 0u;  // SDP_RDMA has no done interrupt
  return res;
}

std::vector<std::unique_ptr<UnitModel>> make_sdp_unit_models(const HwConfig& cfg, std::shared_ptr<SdpPdpChannel> to_pdp,
                                                             std::shared_ptr<SdpInputSource> flying_input) {
  std::vector<std::unique_ptr<UnitModel>> v;
  if (!cfg.has_unit(Unit::SDP)) return v;
  auto pair = std::make_shared<SdpPair>();
  auto sdp = std::make_unique<SdpModel>(cfg, pair, std::move(to_pdp));
  if (flying_input) sdp->set_flying_input(std::move(flying_input));
  v.push_back(std::move(sdp));
  if (cfg.has_unit(Unit::SDP_RDMA)) v.push_back(std::make_unique<SdpRdmaModel>(cfg, pair));
  return v;
}

}  // namespace dla::golden
