#include "dla/perf_budget.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "dla/regs.gen.h"

namespace dla {

namespace {

uint64_t div_up(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }
unsigned element_bytes(uint32_t precision_code) { return precision_code == 0 ? 1u : 2u; }

// A W x H x C feature cube in NVDLA's layout: W*H atoms per channel group of atom_bytes.
uint64_t cube_bytes(const HwConfig& cfg, uint64_t w, uint64_t h, uint64_t c, unsigned es) {
  return w * h * div_up(c * es, cfg.atom_bytes) * cfg.atom_bytes;
}
// Elements the unit processes: whole atoms, so padded channels count.
uint64_t cube_elements(const HwConfig& cfg, uint64_t w, uint64_t h, uint64_t c, unsigned es) {
  return cube_bytes(cfg, w, h, c, es) / es;
}

// Declared fixed latencies (cycles): pipeline fill and drain, the last write's B response,
// done into GLB. Measured margins are in docs/scoreboard.md.
constexpr uint64_t kFixedBdmaOp = 32;
constexpr uint64_t kFixedSdp = 40;
constexpr uint64_t kFixedPdp = 40;
constexpr uint64_t kFixedCdp = 40;
constexpr uint64_t kFixedConv = 200;
constexpr uint64_t kFixedRubik = 40;

LayerCost bdma_cost(const RegisterSnapshot& r) {
  namespace R = reg::BDMA;
  const uint64_t line = (uint64_t{r.field<R::CFG_LINE, R::CFG_LINE::SIZE>()} + 1) * 32;
  const uint64_t lines = uint64_t{r.field<R::CFG_LINE_REPEAT, R::CFG_LINE_REPEAT::NUMBER>()} + 1;
  const uint64_t surfs = uint64_t{r.field<R::CFG_SURF_REPEAT, R::CFG_SURF_REPEAT::NUMBER>()} + 1;
  LayerCost c{"bdma", line * lines * surfs, line * lines * surfs, 0, kFixedBdmaOp};
  return c;
}

LayerCost sdp_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace S = reg::SDP;
  const uint64_t w = uint64_t{r.field<S::D_DATA_CUBE_WIDTH, S::D_DATA_CUBE_WIDTH::WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<S::D_DATA_CUBE_HEIGHT, S::D_DATA_CUBE_HEIGHT::HEIGHT>()} + 1;
  const uint64_t ch = uint64_t{r.field<S::D_DATA_CUBE_CHANNEL, S::D_DATA_CUBE_CHANNEL::CHANNEL>()} + 1;
  const unsigned es = element_bytes(r.field<S::D_DATA_FORMAT, S::D_DATA_FORMAT::PROC_PRECISION>());
  const unsigned out_es = element_bytes(r.field<S::D_DATA_FORMAT, S::D_DATA_FORMAT::OUT_PRECISION>());
  const bool to_pdp = r.field<S::D_FEATURE_MODE_CFG, S::D_FEATURE_MODE_CFG::OUTPUT_DST>() == 1;
  LayerCost c;
  c.unit = "sdp";
  c.compute_cycles = div_up(cube_elements(cfg, w, h, ch, es), std::max(1u, cfg.sdp_throughput));
  c.write_bytes = to_pdp ? 0 : cube_bytes(cfg, w, h, ch, out_es);
  c.fixed_cycles = kFixedSdp;
  return c;
}

// SDP_RDMA: the input cube (unless on-flying from CACC) and the BS/BN/EW operand streams.
LayerCost sdp_rdma_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace R = reg::SDP_RDMA;
  const uint64_t w = uint64_t{r.field<R::D_DATA_CUBE_WIDTH, R::D_DATA_CUBE_WIDTH::WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<R::D_DATA_CUBE_HEIGHT, R::D_DATA_CUBE_HEIGHT::HEIGHT>()} + 1;
  const uint64_t ch = uint64_t{r.field<R::D_DATA_CUBE_CHANNEL, R::D_DATA_CUBE_CHANNEL::CHANNEL>()} + 1;
  const unsigned es = element_bytes(r.field<R::D_FEATURE_MODE_CFG, R::D_FEATURE_MODE_CFG::IN_PRECISION>());
  LayerCost c;
  c.unit = "sdp";
  if (r.field<R::D_FEATURE_MODE_CFG, R::D_FEATURE_MODE_CFG::FLYING_MODE>() == 0) c.read_bytes = cube_bytes(cfg, w, h, ch, es);
  const auto operand = [&](uint32_t value) {
    // DISABLE bit 0, DATA_USE bits 2:1 (2: both ALU and MUL), DATA_SIZE bit 3, DATA_MODE bit 4.
    if (value & 1u) return uint64_t{0};
    const uint64_t size = (value >> 3) & 1u ? 2 : 1, uses = ((value >> 1) & 3u) == 2 ? 2 : 1;
    const bool per_element = (value >> 4) & 1u;
    return per_element ? cube_bytes(cfg, w, h, ch, 1) * size * uses : div_up(ch * size * uses, cfg.atom_bytes) * cfg.atom_bytes;
  };
  c.read_bytes += operand(r.get(R::D_BRDMA_CFG::offset)) + operand(r.get(R::D_NRDMA_CFG::offset)) +
                  operand(r.get(R::D_ERDMA_CFG::offset));
  return c;
}

LayerCost pdp_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace P = reg::PDP;
  const uint64_t w = uint64_t{r.field<P::D_DATA_CUBE_IN_WIDTH, P::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<P::D_DATA_CUBE_IN_HEIGHT, P::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT>()} + 1;
  const uint64_t ch = uint64_t{r.field<P::D_DATA_CUBE_IN_CHANNEL, P::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL>()} + 1;
  const uint64_t ow = uint64_t{r.field<P::D_DATA_CUBE_OUT_WIDTH, P::D_DATA_CUBE_OUT_WIDTH::CUBE_OUT_WIDTH>()} + 1;
  const uint64_t oh = uint64_t{r.field<P::D_DATA_CUBE_OUT_HEIGHT, P::D_DATA_CUBE_OUT_HEIGHT::CUBE_OUT_HEIGHT>()} + 1;
  const unsigned es = element_bytes(r.field<P::D_DATA_FORMAT, P::D_DATA_FORMAT::INPUT_DATA>());
  const uint64_t splits = uint64_t{r.field<P::D_OPERATION_MODE_CFG, P::D_OPERATION_MODE_CFG::SPLIT_NUM>()} + 1;
  const uint64_t kw = uint64_t{r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_WIDTH>()} + 1;
  LayerCost c;
  c.unit = "pdp";
  const uint64_t kh = uint64_t{r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_HEIGHT>()} + 1;
  const uint64_t sh = uint64_t{r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT>()} + 1;
  const uint64_t pt = r.field<P::D_POOLING_PADDING_CFG, P::D_POOLING_PADDING_CFG::PAD_TOP>();
  // Split mode reads the columns a kernel overlaps again in the next split. The width pass
  // takes one slice of 2 x throughput bytes a cycle and emits one slice of a row result a cycle
  // (rtl/pdp/dla_pdp_width.sv): a row costs its input columns or its output columns, whichever
  // are more (wide right pads with stride 1 make more outputs than inputs).
  const uint64_t in_w = w + (splits - 1) * kw;
  const unsigned slice_bytes = 2 * std::max(1u, cfg.pdp_throughput);
  c.compute_cycles = div_up(cube_bytes(cfg, std::max(in_w, ow), h, ch, es), slice_bytes);
  // At a plane's last input row every output row still open completes; all but one are read back
  // from the line buffer a slice a cycle (rtl/pdp/dla_pdp_height.sv, flush). Open then: the rows
  // whose window holds the last row (deep bottom pads at stride 1 leave up to eight).
  uint64_t open_at_last = 0;
  for (uint64_t oy = 0; oy < oh; ++oy) {
    const int64_t first = static_cast<int64_t>(oy * sh) - static_cast<int64_t>(pt);
    if (first <= static_cast<int64_t>(h) - 1 && first + static_cast<int64_t>(kh) - 1 >= static_cast<int64_t>(h) - 1)
      ++open_at_last;
  }
  if (open_at_last > 1) c.compute_cycles += div_up(cube_bytes(cfg, ow, open_at_last - 1, ch, es), slice_bytes);
  c.write_bytes = cube_bytes(cfg, ow, oh, ch, es);
  c.fixed_cycles = kFixedPdp;
  return c;
}

LayerCost pdp_rdma_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace R = reg::PDP_RDMA;
  LayerCost c;
  c.unit = "pdp";
  if (r.field<R::D_FLYING_MODE, R::D_FLYING_MODE::FLYING_MODE>() == 0) return c;  // 1: off-flying (from memory)
  const uint64_t w = uint64_t{r.field<R::D_DATA_CUBE_IN_WIDTH, R::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<R::D_DATA_CUBE_IN_HEIGHT, R::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT>()} + 1;
  const uint64_t ch = uint64_t{r.field<R::D_DATA_CUBE_IN_CHANNEL, R::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL>()} + 1;
  const uint64_t splits = uint64_t{r.field<R::D_OPERATION_MODE_CFG, R::D_OPERATION_MODE_CFG::SPLIT_NUM>()} + 1;
  const uint64_t kw = uint64_t{r.field<R::D_POOLING_KERNEL_CFG, R::D_POOLING_KERNEL_CFG::KERNEL_WIDTH>()} + 1;
  c.read_bytes = cube_bytes(cfg, w + (splits - 1) * kw, h, ch, element_bytes(r.field<R::D_DATA_FORMAT, R::D_DATA_FORMAT::INPUT_DATA>()));
  return c;
}

LayerCost cdp_cost(const HwConfig& cfg, const RegisterSnapshot& r, bool rdma) {
  namespace R = reg::CDP_RDMA;
  LayerCost c;
  c.unit = "cdp";
  if (!rdma) {  // CDP itself: its cube is the RDMA's; CDP's own registers do not hold the size
    c.fixed_cycles = kFixedCdp;
    return c;
  }
  const uint64_t w = uint64_t{r.field<R::D_DATA_CUBE_WIDTH, R::D_DATA_CUBE_WIDTH::WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<R::D_DATA_CUBE_HEIGHT, R::D_DATA_CUBE_HEIGHT::HEIGHT>()} + 1;
  const uint64_t ch = uint64_t{r.field<R::D_DATA_CUBE_CHANNEL, R::D_DATA_CUBE_CHANNEL::CHANNEL>()} + 1;
  const unsigned es = element_bytes(r.field<R::D_DATA_FORMAT, R::D_DATA_FORMAT::INPUT_DATA>());
  c.read_bytes = cube_bytes(cfg, w, h, ch, es);
  c.write_bytes = c.read_bytes;  // the output cube has the input's size
  c.compute_cycles = div_up(cube_elements(cfg, w, h, ch, es), std::max(1u, cfg.cdp_throughput));
  return c;
}

// RUBIK (rtl/rubik, docs/rubik.md) moves chunks of at most 64 atoms: contract, B = floor(64/sx)
// atoms of each of the sx x-phases of one output line; split and merge, 64 elements of one row.
// A run of `a` consecutive atoms costs at most ceil((a + APB - 1) / APB) bus beats (its start
// may share a beat with other data), so the memory side counts beats, not bytes. Per chunk the
// unit spends two cycles claiming a buffer bank, then one per request (reads and writes of
// other chunks overlap).
LayerCost rubik_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace R = reg::RBK;
  const uint64_t mode = r.field<R::D_MISC_CFG, R::D_MISC_CFG::RUBIK_MODE>();
  const uint64_t bpe = element_bytes(r.field<R::D_MISC_CFG, R::D_MISC_CFG::IN_PRECISION>());
  const uint64_t w = uint64_t{r.field<R::D_DATAIN_SIZE_0, R::D_DATAIN_SIZE_0::DATAIN_WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<R::D_DATAIN_SIZE_0, R::D_DATAIN_SIZE_0::DATAIN_HEIGHT>()} + 1;
  const uint64_t ci = uint64_t{r.field<R::D_DATAIN_SIZE_1, R::D_DATAIN_SIZE_1::DATAIN_CHANNEL>()} + 1;
  const uint64_t co = uint64_t{r.field<R::D_DATAOUT_SIZE_1, R::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL>()} + 1;
  const uint64_t sx = uint64_t{r.field<R::D_DECONV_STRIDE, R::D_DECONV_STRIDE::DECONV_X_STRIDE>()} + 1;
  const uint64_t sy = uint64_t{r.field<R::D_DECONV_STRIDE, R::D_DECONV_STRIDE::DECONV_Y_STRIDE>()} + 1;
  const uint64_t atom = 32, lanes = atom / bpe, apb = std::max<uint64_t>(1, cfg.dbb_bytes() / atom);
  const uint64_t block = mode == 0 ? 64 / sx : 64;  // elements (contract: atoms) per chunk
  const auto run_beats = [&](uint64_t a) { return div_up(a + apb - 1, apb); };
  const auto row_atoms = [&](uint64_t n) { return div_up(n * bpe, atom); };
  // Sum of f(n) over the chunks of one row: full chunks of `block`, then the remainder.
  const auto over_chunks = [&](auto f) { return (w / block) * f(block) + (w % block ? f(w % block) : 0); };
  const uint64_t chunks_per_row = div_up(w, block);
  uint64_t rd = 0, wr = 0, chunks = 0, rd_runs = 0, wr_runs = 0;
  if (mode == 0) {  // contract: So*Hi*sy output lines
    const uint64_t lines = div_up(co, lanes) * h * sy;
    rd = lines * sx * over_chunks([&](uint64_t n) { return run_beats(n); });
    wr = lines * over_chunks([&](uint64_t n) { return run_beats(n * sx); });
    chunks = lines * chunks_per_row;
    rd_runs = chunks * sx;
    wr_runs = chunks;
  } else if (mode == 1) {  // split: ceil(Co/E) input surfaces, Co planes
    rd = div_up(co, lanes) * h * over_chunks([&](uint64_t n) { return run_beats(n); });
    wr = co * h * over_chunks([&](uint64_t n) { return run_beats(row_atoms(n)); });
    chunks = div_up(co, lanes) * h * chunks_per_row;
    rd_runs = chunks;
    wr_runs = co * h * chunks_per_row;
  } else {  // merge: Ci planes, ceil(Ci/E) output surfaces
    rd = ci * h * over_chunks([&](uint64_t n) { return run_beats(row_atoms(n)); });
    wr = div_up(ci, lanes) * h * over_chunks([&](uint64_t n) { return run_beats(n); });
    chunks = div_up(ci, lanes) * h * chunks_per_row;
    rd_runs = ci * h * chunks_per_row;
    wr_runs = chunks;
  }
  LayerCost c;
  c.unit = "rubik";
  c.read_bytes = rd * cfg.dbb_bytes();
  c.write_bytes = wr * cfg.dbb_bytes();
  c.compute_cycles = 2 * chunks + std::max(rd_runs, wr_runs);
  c.fixed_cycles = kFixedRubik;
  return c;
}

// CDMA: the input cube and the weights. CSC: one MAC atomic operation (atomic C channels x
// atomic K kernels of one output pixel) per cycle.
LayerCost cdma_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace C = reg::CDMA;
  const uint64_t w = uint64_t{r.field<C::D_DATAIN_SIZE_0, C::D_DATAIN_SIZE_0::DATAIN_WIDTH>()} + 1;
  const uint64_t h = uint64_t{r.field<C::D_DATAIN_SIZE_0, C::D_DATAIN_SIZE_0::DATAIN_HEIGHT>()} + 1;
  const uint64_t ch = uint64_t{r.field<C::D_DATAIN_SIZE_1, C::D_DATAIN_SIZE_1::DATAIN_CHANNEL>()} + 1;
  const unsigned es = element_bytes(r.field<C::D_MISC_CFG, C::D_MISC_CFG::IN_PRECISION>());
  LayerCost c;
  c.unit = "conv";
  c.read_bytes = cube_bytes(cfg, w, h, ch, es) + r.field<C::D_WEIGHT_BYTES, C::D_WEIGHT_BYTES::WEIGHT_BYTES>();
  c.fixed_cycles = kFixedConv;
  return c;
}

LayerCost csc_cost(const HwConfig& cfg, const RegisterSnapshot& r) {
  namespace C = reg::CSC;
  const uint64_t ow = uint64_t{r.field<C::D_DATAOUT_SIZE_0, C::D_DATAOUT_SIZE_0::DATAOUT_WIDTH>()} + 1;
  const uint64_t oh = uint64_t{r.field<C::D_DATAOUT_SIZE_0, C::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT>()} + 1;
  const uint64_t kw = uint64_t{r.field<C::D_WEIGHT_SIZE_EXT_0, C::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT>()} + 1;
  const uint64_t kh = uint64_t{r.field<C::D_WEIGHT_SIZE_EXT_0, C::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT>()} + 1;
  const uint64_t kc = uint64_t{r.field<C::D_WEIGHT_SIZE_EXT_1, C::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT>()} + 1;
  const uint64_t k = uint64_t{r.field<C::D_WEIGHT_SIZE_EXT_1, C::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL>()} + 1;
  const bool int8 = r.field<C::D_MISC_CFG, C::D_MISC_CFG::PROC_PRECISION>() == 0;
  const uint64_t atomic_c = std::max(1u, int8 ? cfg.conv_mac_atomic_c : cfg.conv_mac_atomic_c / 2);
  const uint64_t atomic_k = std::max(1u, int8 ? cfg.conv_mac_atomic_k : cfg.conv_mac_atomic_k / 2);
  LayerCost c;
  c.unit = "conv";
  c.compute_cycles = ow * oh * kw * kh * div_up(kc, atomic_c) * div_up(k, atomic_k);
  return c;
}

}  // namespace

std::optional<LayerCost> layer_cost(const HwConfig& cfg, const LayerRecord& rec) {
  if (!rec.completed) return std::nullopt;
  switch (rec.unit) {
    case Unit::BDMA: return bdma_cost(rec.regs);
    case Unit::SDP: return sdp_cost(cfg, rec.regs);
    case Unit::SDP_RDMA: return sdp_rdma_cost(cfg, rec.regs);
    case Unit::PDP: return pdp_cost(cfg, rec.regs);
    case Unit::PDP_RDMA: return pdp_rdma_cost(cfg, rec.regs);
    case Unit::CDP: return cdp_cost(cfg, rec.regs, false);
    case Unit::CDP_RDMA: return cdp_cost(cfg, rec.regs, true);
    case Unit::CDMA: return cdma_cost(cfg, rec.regs);
    case Unit::CSC: return csc_cost(cfg, rec.regs);
    case Unit::RBK: return rubik_cost(cfg, rec.regs);
    default: return std::nullopt;  // CMAC, CACC: their work is CSC's operations
  }
}

uint64_t PerfBudget::budget(double tolerance) const {
  return fixed_cycles + static_cast<uint64_t>(std::ceil(tolerance * static_cast<double>(bound() + latency_cycles)));
}

uint64_t read_ahead_atoms(const std::string& unit) {
  // The read-ahead buffers of dlaverif's RTL (rtl/pdp/dla_pdp.sv IBUF_ATOMS, rtl/cdp/dla_cdp.sv
  // IBUF_ATOMS, rtl/sdp/dla_sdp_rd_stream.sv DEPTH, rtl/bdma/dla_bdma.sv BUF_ATOMS).
  if (unit == "pdp") return 128;
  if (unit == "cdp") return 64;
  if (unit == "sdp") return 64;
  if (unit == "bdma") return 256;
  return 0;
}

PerfBudget window_budget(const HwConfig& cfg, const std::vector<LayerCost>& costs, uint32_t read_latency) {
  PerfBudget b;
  std::map<std::string, uint64_t> compute, bytes, reads;
  uint64_t read = 0, write = 0;
  for (const LayerCost& c : costs) {
    compute[c.unit] += c.compute_cycles;
    bytes[c.unit] += std::max(c.read_bytes, c.write_bytes);
    reads[c.unit] += c.read_bytes;
    read += c.read_bytes;
    write += c.write_bytes;
    b.fixed_cycles += c.fixed_cycles;
    ++b.layers;
  }
  b.fixed_cycles += kPerfWindowOverheadCycles;
  b.memory_cycles = div_up(std::max(read, write), cfg.dbb_bytes());
  // Read latency: a unit keeps at most min(read-ahead, outstanding bursts) atoms in flight (a
  // burst carries at least one atom), so each such round of reads waits the latency once. A
  // unit without a declared read-ahead is charged the latency per atom.
  if (read_latency)
    for (const auto& [unit, n] : reads) {
      const uint64_t in_flight = std::max<uint64_t>(
          1, std::min<uint64_t>(read_ahead_atoms(unit), cfg.axi_max_outstanding_reads));
      b.latency_cycles += uint64_t{read_latency} * div_up(div_up(n, cfg.atom_bytes), in_flight);
    }
  for (const auto& [unit, cycles] : compute)
    if (b.unit.empty() || cycles > b.compute_cycles) {
      b.unit = unit;
      b.compute_cycles = cycles;
    }
  if (b.memory_cycles > b.compute_cycles) {  // memory-bound: name the unit that moves most bytes
    uint64_t most = 0;
    for (const auto& [unit, n] : bytes)
      if (n > most) {
        most = n;
        b.unit = unit;
      }
  }
  return b;
}

std::optional<double> parse_perf_tolerance(const std::string& text, const std::string& what) {
  if (text.empty()) return kDefaultPerfTolerance;
  if (text == "off") return std::nullopt;
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(v >= 1.0) || !std::isfinite(v))
    throw std::invalid_argument(what + ": '" + text +
                                "' must be a number >= 1 (budget = fixed latency + tolerance x bound) or 'off'");
  return v;
}

std::string perf_signature(const std::string& unit, uint64_t cycles, uint64_t budget) {
  return "perf:" + unit + " cycles=" + std::to_string(cycles) + " budget=" + std::to_string(budget);
}

}  // namespace dla
