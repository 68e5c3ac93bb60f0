// conv.random and conv.illegal. The programs are decoded back into per-layer register groups
// by a small register-file model written here (S_POINTER, D_ groups, OP_ENABLE), and every
// layer is checked against the rules of conv.md by a checker written here from the spec,
// independently of conv_stimulus.cpp (§2.6 cross-unit equality, §8.2 ENTRY_PER_SLICE, CBUF fit
// and bank split, FETCH_GRAIN, mode and feature restrictions, reuse legality, SDP flying-mode
// agreement); memory footprints are checked against the program's loads. Then: determinism,
// knob validation, coverage over seeds, the worked example of conv.md §10.1 register by
// register, the illegal cases (each breaks exactly the rule it names), and, once the golden
// model has the convolution datapath, golden-only runs.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "conv_stimulus.h"
#include "dla/formats/pixel_format.h"
#include "dla/golden_model.h"
#include "dla/nvdla_weight_credit.h"
#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"
#include "high_addresses_check.h"
#include "program_executor.h"

namespace dla {
namespace {

namespace CD = reg::CDMA;
namespace CS = reg::CSC;
namespace CA = reg::CACC;
namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;

uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// ---------------------------------------------------------------- register-file model

struct Regs {
  std::map<uint32_t, uint32_t> v;
  uint32_t get(uint32_t off) const {
    const auto it = v.find(off);
    return it == v.end() ? 0 : it->second;
  }
  uint32_t f(uint32_t off, unsigned lsb, unsigned width) const { return (get(off) >> lsb) & ((width >= 32 ? 0 : 1u << width) - 1); }
};

struct LayerView {
  unsigned index = 0, group = 0;
  Regs cdma, csc, cmac_a, cmac_b, cacc, sdp, rdma;
  bool rdma_armed = false;
};

const std::vector<Unit> kUnits = {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC, Unit::SDP, Unit::SDP_RDMA};

// Replays the program's CSB writes; a layer is the set of groups armed up to CDMA's arming.
std::vector<LayerView> decode(const HwConfig& cfg, const Program& p, std::vector<std::string>& problems) {
  const RegisterMap& map = RegisterMap::of(cfg);
  struct State {
    unsigned producer = 0, arms = 0;
    Regs g[2];
    Regs armed;
    bool armed_now = false;
  };
  std::map<Unit, State> st;
  std::vector<LayerView> layers;
  std::vector<Unit> order;
  for (const ProgramOp& op : p.ops) {
    const auto* w = std::get_if<RegWrite>(&op);
    if (!w) continue;
    const auto unit = cfg.unit_at(w->addr);
    if (!unit || std::find(kUnits.begin(), kUnits.end(), *unit) == kUnits.end()) continue;
    const uint32_t off = w->addr & 0xfffu;
    State& s = st[*unit];
    if (off == 0x004) {  // S_POINTER
      s.producer = w->data & 1u;
      continue;
    }
    const RegInfo* info = map.at(w->addr);
    if (!info) {
      problems.push_back(fmt::format("write to {}+0x{:03x}: no register there", unit_name(*unit), off));
      continue;
    }
    if (!info->dual) continue;
    if ((w->data & ~info->stored_mask()) != 0)
      problems.push_back(fmt::format("{}.{} = 0x{:x} sets bits the configuration does not store (0x{:x})", unit_name(*unit),
                                     info->name, w->data, info->stored_mask()));
    if (*map.dual_base(*unit) == off) {  // D_OP_ENABLE
      if ((w->data & 1u) == 0) continue;
      if (s.producer != s.arms % 2)
        problems.push_back(fmt::format("{} armed group {} but its previous layers leave group {} next", unit_name(*unit),
                                       s.producer, s.arms % 2));
      ++s.arms;
      s.g[s.producer].v[off] = 1;
      s.armed = s.g[s.producer];
      s.armed_now = true;
      order.push_back(*unit);
      if (*unit != Unit::CDMA) continue;
      LayerView l;
      l.index = static_cast<unsigned>(layers.size());
      l.group = s.producer;
      l.cdma = st[Unit::CDMA].armed;
      l.csc = st[Unit::CSC].armed;
      l.cmac_a = st[Unit::CMAC_A].armed;
      l.cmac_b = st[Unit::CMAC_B].armed;
      l.cacc = st[Unit::CACC].armed;
      l.sdp = st[Unit::SDP].armed;
      State& rd = st[Unit::SDP_RDMA];
      l.rdma_armed = rd.armed_now;
      l.rdma = rd.armed_now ? rd.armed : rd.g[rd.producer];
      std::vector<Unit> want = {Unit::SDP, Unit::CACC, Unit::CMAC_A, Unit::CMAC_B, Unit::CSC, Unit::CDMA};
      if (l.rdma_armed) want.insert(want.begin(), Unit::SDP_RDMA);
      if (order != want) problems.push_back(fmt::format("layer {}: arming order differs from SDP_RDMA?, SDP, CACC, CMAC_A, CMAC_B, CSC, CDMA", l.index));
      for (Unit u : kUnits)
        if (u != Unit::SDP_RDMA && st[u].producer != l.group)
          problems.push_back(fmt::format("layer {}: {} armed group {} while CDMA armed {}", l.index, unit_name(u), st[u].producer, l.group));
      order.clear();
      for (auto& [u, x] : st) x.armed_now = false;
      layers.push_back(std::move(l));
    } else {
      s.g[s.producer].v[off] = w->data & info->stored_mask();
    }
  }
  return layers;
}

// ---------------------------------------------------------------- independent checker

struct Kept {  // what CBUF holds after a layer (conv.md §8.4, §8.5)
  bool valid = false;
  unsigned kind = 0;  // 0 feature direct, 1 image, 2 Winograd
  uint32_t dbank = 0, wbank = 0;
  uint64_t slices = 0;
  bool all_data = false;  // SKIP_DATA_RLS
  uint32_t w = 0, h = 0, c = 0, n = 0, proc = 0, entries = 0;
  bool weights = false, compressed = false;
  uint32_t k = 0;
  uint64_t bpk = 0, wbytes = 0, wmbbytes = 0;
};

struct Decoded {  // the layer in plain numbers (from the registers)
  unsigned kind = 0, mode = 0, in = 0, proc = 0, es = 1;
  bool data_reuse = false, weight_reuse = false, skip_d = false, skip_w = false, compressed = false;
  uint32_t w = 0, h = 0, c = 0, n = 1;  // CDMA
  uint32_t cw = 0, ch = 0, cc = 0;      // CSC
  uint32_t kw = 0, kh = 0, kc = 0, k = 0, ow = 0, oh = 0;
  uint32_t sx = 1, sy = 1, dx = 1, dy = 1, pl = 0, pt = 0, cpl = 0, cpr = 0, cpt = 0, cpb = 0;
  uint32_t entries = 0, dbank = 0, wbank = 0, grains = 0, rls = 0, yext = 0;
  uint64_t bpk = 0, wbytes = 0, wmbbytes = 0;
  unsigned pixel = 0, xoff = 0;
  uint64_t slices = 0;
};

Decoded decode_layer(const LayerView& l) {
  Decoded d;
  const Regs& a = l.cdma;
  const Regs& s = l.csc;
  const uint32_t misc = a.get(CD::D_MISC_CFG::offset);
  d.mode = misc & 1u;
  d.in = (misc >> 8) & 3u;
  d.proc = (misc >> 12) & 3u;
  d.es = d.proc == 0 ? 1 : 2;
  d.data_reuse = (misc >> 16) & 1u;
  d.weight_reuse = (misc >> 20) & 1u;
  d.skip_d = (misc >> 24) & 1u;
  d.skip_w = (misc >> 28) & 1u;
  const bool image = a.f(CD::D_DATAIN_FORMAT::offset, 0, 1);
  d.kind = d.mode ? 2 : image ? 1 : 0;
  d.pixel = a.f(CD::D_DATAIN_FORMAT::offset, 8, 6);
  d.xoff = a.f(CD::D_PIXEL_OFFSET::offset, 0, 5);
  d.w = a.f(CD::D_DATAIN_SIZE_0::offset, 0, 13) + 1;
  d.h = a.f(CD::D_DATAIN_SIZE_0::offset, 16, 13) + 1;
  d.c = a.f(CD::D_DATAIN_SIZE_1::offset, 0, 13) + 1;
  d.n = a.f(CD::D_BATCH_NUMBER::offset, 0, 5) + 1;
  d.cw = s.f(CS::D_DATAIN_SIZE_EXT_0::offset, 0, 13) + 1;
  d.ch = s.f(CS::D_DATAIN_SIZE_EXT_0::offset, 16, 13) + 1;
  d.cc = s.f(CS::D_DATAIN_SIZE_EXT_1::offset, 0, 13) + 1;
  d.kw = s.f(CS::D_WEIGHT_SIZE_EXT_0::offset, 0, 5) + 1;
  d.kh = s.f(CS::D_WEIGHT_SIZE_EXT_0::offset, 16, 5) + 1;
  d.kc = s.f(CS::D_WEIGHT_SIZE_EXT_1::offset, 0, 13) + 1;
  d.k = s.f(CS::D_WEIGHT_SIZE_EXT_1::offset, 16, 13) + 1;
  d.ow = s.f(CS::D_DATAOUT_SIZE_0::offset, 0, 13) + 1;
  d.oh = s.f(CS::D_DATAOUT_SIZE_0::offset, 16, 13) + 1;
  d.sx = s.f(CS::D_CONV_STRIDE_EXT::offset, 0, 3) + 1;
  d.sy = s.f(CS::D_CONV_STRIDE_EXT::offset, 16, 3) + 1;
  d.dx = s.f(CS::D_DILATION_EXT::offset, 0, 5) + 1;
  d.dy = s.f(CS::D_DILATION_EXT::offset, 16, 5) + 1;
  d.pl = s.f(CS::D_ZERO_PADDING::offset, 0, 5);
  d.pt = s.f(CS::D_ZERO_PADDING::offset, 16, 5);
  d.cpl = a.f(CD::D_ZERO_PADDING::offset, 0, 5);
  d.cpr = a.f(CD::D_ZERO_PADDING::offset, 8, 6);
  d.cpt = a.f(CD::D_ZERO_PADDING::offset, 16, 5);
  d.cpb = a.f(CD::D_ZERO_PADDING::offset, 24, 6);
  d.entries = a.f(CD::D_ENTRY_PER_SLICE::offset, 0, 14) + 1;
  d.dbank = a.f(CD::D_BANK::offset, 0, 5) + 1;
  d.wbank = a.f(CD::D_BANK::offset, 16, 5) + 1;
  d.grains = a.f(CD::D_FETCH_GRAIN::offset, 0, 12);
  d.rls = s.f(CS::D_RELEASE::offset, 0, 12) + 1;
  d.yext = s.f(CS::D_POST_Y_EXTENSION::offset, 0, 2);
  d.bpk = uint64_t{a.f(CD::D_WEIGHT_SIZE_0::offset, 0, 18)} + 1;
  d.wbytes = a.get(CD::D_WEIGHT_BYTES::offset);
  d.wmbbytes = a.get(CD::D_WMB_BYTES::offset);
  d.compressed = a.f(CD::D_WEIGHT_FORMAT::offset, 0, 1);
  d.slices = d.kind == 0 ? uint64_t{d.n} * d.ch : d.ch;
  return d;
}

uint64_t addr64(const Regs& r, uint32_t low, uint32_t high) { return (uint64_t{r.get(high)} << 32) | r.get(low); }

std::vector<std::string> check_layer(const HwConfig& cfg, const LayerView& l, Kept& kept) {
  std::vector<std::string> v;
  auto bad = [&](const std::string& m) { v.push_back(m); };
  const Decoded d = decode_layer(l);
  const Regs& a = l.cdma;
  const Regs& s = l.csc;
  const uint64_t A = cfg.atom_bytes, E = cfg.conv_cbuf_entry_bytes, depth = cfg.conv_cbuf_bank_entries;
  const uint64_t ape = E / A, lanes = A / d.es, ac = cfg.conv_mac_atomic_c;
  const uint64_t ak = d.proc == 0 ? A : A / 2;

  // §2.6: cross-unit equality.
  for (const auto& [name, r] : {std::pair<const char*, const Regs*>{"CSC", &l.csc}, {"CMAC_A", &l.cmac_a}, {"CMAC_B", &l.cmac_b}, {"CACC", &l.cacc}}) {
    const uint32_t m = r->get(0x00c);
    if ((m & 1u) != d.mode || ((m >> 12) & 3u) != d.proc) bad(fmt::format("mode mismatch: {} CONV_MODE/PROC_PRECISION differ from CDMA", name));
  }
  const uint32_t cm = a.get(CD::D_MISC_CFG::offset), sm = s.get(CS::D_MISC_CFG::offset);
  if ((cm & 0x11110300u) != (sm & 0x11110300u)) bad("misc mismatch: CDMA and CSC D_MISC_CFG differ");
  if (a.f(CD::D_DATAIN_FORMAT::offset, 0, 1) != s.f(CS::D_DATAIN_FORMAT::offset, 0, 1)) bad("misc mismatch: DATAIN_FORMAT differs");
  if (a.get(CD::D_WEIGHT_FORMAT::offset) != s.get(CS::D_WEIGHT_FORMAT::offset)) bad("misc mismatch: WEIGHT_FORMAT differs");
  if (a.get(CD::D_ENTRY_PER_SLICE::offset) != s.get(CS::D_ENTRY_PER_SLICE::offset)) bad("entry mismatch: ENTRY_PER_SLICE differs");
  if (a.get(CD::D_BANK::offset) != s.get(CS::D_BANK::offset)) bad("bank mismatch: D_BANK differs");
  if (d.wbytes != s.get(CS::D_WEIGHT_BYTES::offset) || d.wmbbytes != s.get(CS::D_WMB_BYTES::offset) ||
      a.f(CD::D_WEIGHT_SIZE_1::offset, 0, 13) + 1 != d.k)
    bad("weight mismatch: WEIGHT_BYTES / WMB_BYTES / WEIGHT_KERNEL differ");
  if (d.n != s.f(CS::D_BATCH_NUMBER::offset, 0, 5) + 1 || d.n != l.cacc.f(CA::D_BATCH_NUMBER::offset, 0, 5) + 1)
    bad("batch mismatch: BATCHES differ");
  if (l.cacc.get(CA::D_DATAOUT_SIZE_0::offset) != s.get(CS::D_DATAOUT_SIZE_0::offset) ||
      l.cacc.get(CA::D_DATAOUT_SIZE_1::offset) != s.get(CS::D_DATAOUT_SIZE_1::offset))
    bad("size mismatch: CSC and CACC output sizes differ");
  if (s.f(CS::D_DATAOUT_SIZE_1::offset, 0, 13) + 1 != d.k) bad("size mismatch: DATAOUT_CHANNEL differs from WEIGHT_KERNEL");
  if (s.f(CS::D_ATOMICS::offset, 0, 21) + 1 != uint64_t{d.ow} * d.oh) bad("atomics: ATOMICS is not W_out*H_out-1");

  // Features of the configuration.
  if (d.mode == 1 && !cfg.conv_winograd) bad("unsupported: Winograd");
  if (d.n > 1 && !cfg.conv_batching) bad("unsupported: batching");
  if (d.compressed && !cfg.conv_compression) bad("unsupported: compression");
  for (unsigned p : {d.in, d.proc})
    if (p > 2 || !cfg.supports(static_cast<Precision>(p))) bad(fmt::format("unsupported: precision code {}", p));
  const bool sram_used = a.f(CD::D_DAIN_RAM_TYPE::offset, 0, 1) == 0 || a.f(CD::D_WEIGHT_RAM_TYPE::offset, 0, 1) == 0 ||
                         l.sdp.f(S::D_DST_DMA_CFG::offset, 0, 1) == 0;
  if (sram_used && !cfg.sram_if) bad("unsupported: secondary memory port");
  const bool cvt = a.f(CD::D_CVT_CFG::offset, 0, 1);
  if (cvt && (d.in == 2 || d.proc == 2) && d.kind != 1) bad("cvt fp16: CVT_EN with fp16 data");

  // Mode-specific sizes (§4, §5, §6).
  uint64_t bpk = 0, expected_entries = 0;
  uint32_t kept_lines = 0;
  if (d.data_reuse && kept.valid && !kept.all_data) kept_lines = static_cast<uint32_t>(kept.slices);
  if (d.kind == 0) {
    if (d.in != d.proc) bad("precision: IN differs from PROC in direct mode");
    if (d.cw != d.w || d.ch != d.h + kept_lines || d.cc != d.c) bad("size mismatch: CDMA and CSC input sizes differ");
    if (a.get(CD::D_DATAIN_SIZE_EXT_0::offset) != a.get(CD::D_DATAIN_SIZE_0::offset)) bad("size mismatch: CDMA SIZE_EXT_0 differs from SIZE_0");
    if (d.kc != d.c) bad("size mismatch: WEIGHT_CHANNEL_EXT differs from C");
    bpk = uint64_t{d.kw} * d.kh * d.c * d.es;
    const uint64_t n = cdiv(d.c, lanes), q = n / ape, r = n % ape;
    uint64_t extra = 0;
    if (r != 0) extra = 2 * r > ape ? d.w : 2 * r == ape ? cdiv(d.w, 2) : cdiv(d.w, 4);
    expected_entries = q * d.w + extra;
    const uint64_t sw = uint64_t{d.kw - 1} * d.dx + 1, sh = uint64_t{d.kh - 1} * d.dy + 1;
    if (d.pl >= sw || d.pt >= sh || uint64_t{d.ow - 1} * d.sx >= d.pl + d.cw || uint64_t{d.oh - 1} * d.sy >= d.pt + d.ch)
      bad("geometry: an output window holds no input position");
    if (a.f(CD::D_CONV_STRIDE::offset, 0, 3) + 1 != d.sx || a.f(CD::D_CONV_STRIDE::offset, 16, 3) + 1 != d.sy)
      bad("size mismatch: CDMA stride differs from CSC");
  } else if (d.kind == 1) {
    const auto& info = formats::pixel_format_info(static_cast<formats::PixelFormat>(d.pixel));
    if (d.n != 1 || d.dx != 1 || d.dy != 1) bad("image: batches or dilation");
    if (d.c != info.channels || d.in != static_cast<unsigned>(info.precision)) bad("image: C or IN_PRECISION differs from the pixel format");
    if (info.precision == Precision::Fp16 && (d.proc != 2 || cvt)) bad("image: fp16 pixels need fp16 and no converter");
    if (d.in != d.proc && !cvt) bad("image: precision change without CVT_EN");
    if (d.xoff > A / info.plane_bytes[0] - 1) bad("image: X offset");
    if (info.planes == 2 && uint64_t{d.xoff} * 2 * (info.precision == Precision::Int8 ? 1 : 2) >= A) bad("image: semi-planar X offset");
    if (d.cw != d.w || d.ch != d.h + kept_lines || d.cc != d.c) bad("size mismatch: CDMA and CSC input sizes differ");
    if (d.kw != 1 || d.kc % d.c != 0) bad("image: WEIGHT_WIDTH_EXT must be 0 and channels S*C");
    const uint64_t sk = d.kc / d.c, line = uint64_t{d.cpl} + d.w + d.cpr;
    bpk = uint64_t{d.kh} * d.kc * d.es;
    expected_entries = cdiv(line * d.c * d.es, E);
    if (uint64_t{d.ow - 1} * d.sx + sk > line) bad("image: a window leaves the padded line");
    if (d.pt >= d.kh || uint64_t{d.oh - 1} * d.sy >= d.pt + d.ch) bad("geometry: an output window holds no input row");
    if (d.yext > 2 || (d.yext > 0 && d.kc * (1u << d.yext) > ac)) bad("image: post-extension needs S*C <= AC/P");
    if (a.f(CD::D_LINE_STRIDE::offset, 0, 32) < uint64_t{d.xoff + d.w} * info.plane_bytes[0]) bad("image: line stride");
    if (info.planes == 2 && a.get(CD::D_LINE_UV_STRIDE::offset) < uint64_t{d.xoff + d.w} * info.plane_bytes[1]) bad("image: UV line stride");
    if (d.proc == 2 && info.precision != Precision::Fp16 &&
        (a.get(CD::D_ZERO_PADDING_VALUE::offset) != 0 || s.get(CS::D_ZERO_PADDING_VALUE::offset) != 0))
      bad("image: integer pixels to fp16 need zero pad values");
  } else {
    const uint32_t sx = a.f(CD::D_CONV_STRIDE::offset, 0, 3) + 1, sy = a.f(CD::D_CONV_STRIDE::offset, 16, 3) + 1;
    const uint64_t tw = uint64_t{d.cpl} + d.w + d.cpr, th = uint64_t{d.cpt} + d.h + d.cpb;
    if (d.in != d.proc || cvt || d.n != 1) bad("winograd: precision change, converter or batches");
    if (d.c % lanes != 0) bad("winograd: C not a multiple of the atom");
    if (tw % (4 * sx) || th % (4 * sy)) bad("winograd: padded size not divisible by 4*stride");
    if (d.cpl >= 3 * sx || d.cpt >= 3 * sy || (sx == 1 && d.cpl > 1) || (sy == 1 && d.cpt > 1)) bad("winograd: left/top padding");
    const uint64_t we = tw / sx, he = th / sy;
    if (a.f(CD::D_DATAIN_SIZE_EXT_0::offset, 0, 13) + 1 != we || a.f(CD::D_DATAIN_SIZE_EXT_0::offset, 16, 13) + 1 != he ||
        d.cw != we || d.ch != he || d.cc != uint64_t{d.c} * sx * sy)
      bad("size mismatch: Winograd extended sizes");
    if (we <= 4 || he <= 4 || d.ow != we - 4 || d.oh != he - 4) bad("winograd: output must be W_ext-4 x H_ext-4");
    if (d.kw != 4 || d.kh != 4 || d.kc != d.cc || d.sx != 1 || d.sy != 1 || d.dx != 1 || d.dy != 1) bad("winograd: CSC kernel/stride fields");
    bpk = 16 * uint64_t{d.cc} * d.es;
    expected_entries = we * (d.c / lanes) * sx * sy / ape;
  }
  if (d.bpk != bpk) bad(fmt::format("weight size: BYTE_PER_KERNEL+1 = {}, expected {}", d.bpk, bpk));
  if (d.entries != expected_entries) bad(fmt::format("entry_per_slice: {} entries, §8.2 gives {}", d.entries, expected_entries));

  // Weights.
  const uint64_t raw = uint64_t{d.k} * bpk;
  if (!d.compressed && (d.wbytes < raw || d.wbytes % E != 0)) bad("weight size: WEIGHT_BYTES below K*BPK or not an entry multiple");
  if (d.compressed && (d.wbytes % 128 != 0 || d.wbytes == 0 || d.wmbbytes != cdiv(raw / d.es, 1024) * 128))
    bad("weight size: compressed sizes");

  // Memory layout of the input (feature modes): strides, packing flags, FETCH_GRAIN (§3.1, §8.3).
  const uint64_t line = a.get(CD::D_LINE_STRIDE::offset), surf = a.get(CD::D_SURF_STRIDE::offset);
  const bool lp = a.f(CD::D_DAIN_MAP::offset, 0, 1), sp = a.f(CD::D_DAIN_MAP::offset, 16, 1);
  if (d.kind != 1) {
    if (line % A || surf % A || addr64(a, CD::D_DAIN_ADDR_LOW_0::offset, CD::D_DAIN_ADDR_HIGH_0::offset) % A) bad("layout: unaligned input");
    if (line < uint64_t{d.w} * A || surf < uint64_t{d.h} * line) bad("layout: input strides overlap");
    if (lp != (line == uint64_t{d.w} * A) || sp != (lp && surf == uint64_t{d.h} * line)) bad("layout: LINE_PACKED/SURF_PACKED");
  }
  if (d.grains + 1 > (d.kind == 0 ? d.h : 1) || (d.grains > 0 && !lp)) bad("fetch grain: GRAINS+1 > H or GRAINS > 0 unpacked");

  // CBUF (§8.1-8.5).
  const uint64_t max_banks = cfg.conv_cbuf_banks - (d.compressed ? 1 : 0);
  if (uint64_t{d.dbank} + d.wbank > max_banks) bad(fmt::format("bank sum: {} + {} banks > {}", d.dbank, d.wbank, max_banks));
  if (d.slices * d.entries > uint64_t{d.dbank} * depth) bad(fmt::format("data overflow: {} slices x {} entries > {} banks", d.slices, d.entries, d.dbank));
  const uint64_t group = std::min<uint64_t>(ak, d.k) * bpk;
  if ((d.skip_w ? cdiv(d.wbytes, E) : cdiv(group, E) + 1) > uint64_t{d.wbank} * depth) bad("weight overflow: weights do not fit");
  if (!d.skip_d && d.rls > d.slices) bad("release: RLS_SLICES beyond the layer's slices");
  const bool same = kept.valid && kept.kind == d.kind && kept.dbank == d.dbank && kept.wbank == d.wbank;
  if (d.data_reuse) {
    if (!same || kept.slices == 0) bad("data reuse: nothing kept");
    else if (kept.all_data && (kept.w != d.cw || kept.h != d.ch || kept.c != d.cc || kept.n != d.n || kept.proc != d.proc || kept.entries != d.entries))
      bad("data reuse: full reuse of a different input");
    else if (!kept.all_data && (kept.w != d.cw || kept.c != d.cc || kept.entries != d.entries || d.n != 1 || d.kind == 2))
      bad("data reuse: partial reuse of a different line layout");
  }
  if (d.weight_reuse && (!same || !kept.weights || kept.compressed != d.compressed || kept.k != d.k || kept.bpk != bpk ||
                         kept.wbytes != d.wbytes || kept.wmbbytes != d.wmbbytes))
    bad("weight reuse: no identical weights kept");

  // SDP in flying mode behind CACC.
  const Regs& sd = l.sdp;
  const Regs& rd = l.rdma;
  const uint32_t fm = sd.get(S::D_FEATURE_MODE_CFG::offset), rfm = rd.get(R::D_FEATURE_MODE_CFG::offset);
  const uint32_t sproc = sd.f(S::D_DATA_FORMAT::offset, 0, 2), sout = sd.f(S::D_DATA_FORMAT::offset, 2, 2);
  if ((fm & 1u) != 1 || ((fm >> 1) & 1u) != 0 || ((fm >> 2) & 1u) != d.mode || ((fm >> 8) & 0x1fu) + 1 != d.n || sproc != d.proc)
    bad("sdp: not flying to memory with the conv's mode, batches and precision");
  if ((rfm & 1u) != 1 || ((rfm >> 1) & 1u) != d.mode || ((rfm >> 8) & 0x1fu) + 1 != d.n || ((rfm >> 4) & 3u) != sproc ||
      ((rfm >> 6) & 3u) != sout)
    bad("sdp: SDP_RDMA disagrees");
  for (const Regs* r : {&sd, &rd}) {
    const uint32_t base = r == &sd ? S::D_DATA_CUBE_WIDTH::offset : R::D_DATA_CUBE_WIDTH::offset;
    if (r->get(base) + 1 != d.ow || r->get(base + 4) + 1 != d.oh || r->get(base + 8) + 1 != d.k)
      bad(fmt::format("sdp: {} cube {}x{}x{} differs from the conv output {}x{}x{}", r == &sd ? "SDP" : "SDP_RDMA", r->get(base) + 1,
                      r->get(base + 4) + 1, r->get(base + 8) + 1, d.ow, d.oh, d.k));
  }
  if (sout > 2 || !cfg.supports(static_cast<Precision>(sout)) ||
      (sproc == 0 && sout != 0 && (cfg.register_variant != "nvdlav1" || d.n > 1 || d.mode == 1)) ||
      (sproc != 0 && sout == 0))
    bad("sdp: output precision");
  for (const auto& [cfg_off, stage_off] : {std::pair<uint32_t, uint32_t>{R::D_BRDMA_CFG::offset, S::D_DP_BS_CFG::offset},
                                            {R::D_NRDMA_CFG::offset, S::D_DP_BN_CFG::offset}}) {
    const uint32_t st = sd.get(stage_off);
    const bool on = (st & 1u) == 0, alu = on && !((st >> 1) & 1u) && (sd.get(stage_off + 4) & 1u),
               mul = on && !((st >> 4) & 1u) && (sd.get(stage_off + 0xc) & 1u);
    const bool enabled = (rd.get(cfg_off) & 1u) == 0;
    if (enabled != (alu || mul)) bad("sdp: operand stream enable differs from the stage's memory operands");
    if (enabled && (((rd.get(cfg_off) >> 1) & 3u) != (alu && mul ? 2u : alu ? 1u : 0u) || (sproc != 0 && !((rd.get(cfg_off) >> 3) & 1u))))
      bad("sdp: operand stream DATA_USE / DATA_SIZE");
    if (enabled && !l.rdma_armed) bad("sdp: operand stream without SDP_RDMA armed");
  }
  if (!(sd.get(S::D_DP_EW_CFG::offset) & 1u) && !cfg.sdp_ew) bad("sdp: EW on a configuration without it");
  const uint64_t ol = sd.get(S::D_DST_LINE_STRIDE::offset), os = sd.get(S::D_DST_SURFACE_STRIDE::offset);
  const bool one = d.ow == 1 && d.oh == 1;
  if (ol < uint64_t{d.ow} * A || (one && d.n == 1 ? os != A : os < uint64_t{d.oh} * ol)) bad("sdp: output strides");
  if (d.n > 1) {
    const uint64_t dst = addr64(sd, S::D_DST_BASE_ADDR_LOW::offset, S::D_DST_BASE_ADDR_HIGH::offset);
    if (dst % 64 || ol % 64 || os % 64 || sd.get(S::D_DST_BATCH_STRIDE::offset) % 64 || (!one && ol == uint64_t{d.ow} * A))
      bad("sdp: batch output alignment / packing");
    if (l.cacc.get(CA::D_DATAOUT_ADDR::offset) != static_cast<uint32_t>(dst) || l.cacc.get(CA::D_LINE_STRIDE::offset) != (ol & 0xffffffu))
      bad("sdp: CACC output address/line stride differ from SDP's with batches");
  }

  // The CBUF after the layer.
  Kept next;
  next.valid = true;
  next.kind = d.kind;
  next.dbank = d.dbank;
  next.wbank = d.wbank;
  next.all_data = d.skip_d;
  next.slices = d.skip_d ? d.slices : d.slices - std::min<uint64_t>(d.slices, d.rls);
  next.w = d.cw, next.h = d.ch, next.c = d.cc, next.n = d.n, next.proc = d.proc, next.entries = d.entries;
  next.weights = d.skip_w;
  next.compressed = d.compressed;
  next.k = d.k;
  next.bpk = bpk;
  next.wbytes = d.wbytes;
  next.wmbbytes = d.wmbbytes;
  kept = next;
  return v;
}

// ---------------------------------------------------------------- memory footprints

struct Intervals {
  std::map<uint64_t, uint64_t> m;  // start -> end, disjoint, merged
  void add(uint64_t lo, uint64_t hi) {
    if (lo >= hi) return;
    auto it = m.upper_bound(lo);
    if (it != m.begin() && std::prev(it)->second >= lo) {
      --it;
      lo = std::min(lo, it->first);
      hi = std::max(hi, it->second);
      it = m.erase(it);
    }
    while (it != m.end() && it->first <= hi) {
      hi = std::max(hi, it->second);
      it = m.erase(it);
    }
    m[lo] = hi;
  }
  bool covers(uint64_t lo, uint64_t hi) const {
    auto it = m.upper_bound(lo);
    return lo >= hi || (it != m.begin() && std::prev(it)->second >= hi);
  }
  bool touches(uint64_t lo, uint64_t hi) const {
    auto it = m.upper_bound(lo);
    if (it != m.begin() && std::prev(it)->second > lo) return true;
    return it != m.end() && it->first < hi;
  }
};

struct Footprint {
  std::vector<std::tuple<MemPort, uint64_t, uint64_t, std::string>> reads, writes;
};

Footprint footprint(const HwConfig& cfg, const LayerView& l, const Kept& before) {
  Footprint f;
  const Decoded d = decode_layer(l);
  const Regs& a = l.cdma;
  const uint64_t A = cfg.atom_bytes;
  const MemPort dport = a.f(CD::D_DAIN_RAM_TYPE::offset, 0, 1) ? MemPort::Dbb : MemPort::Sram;
  const MemPort wport = a.f(CD::D_WEIGHT_RAM_TYPE::offset, 0, 1) ? MemPort::Dbb : MemPort::Sram;
  const bool full_reuse = d.data_reuse && before.all_data;
  if (!full_reuse) {
    const uint64_t base = addr64(a, CD::D_DAIN_ADDR_LOW_0::offset, CD::D_DAIN_ADDR_HIGH_0::offset);
    const uint64_t line = a.get(CD::D_LINE_STRIDE::offset);
    if (d.kind == 1) {
      const auto& info = formats::pixel_format_info(static_cast<formats::PixelFormat>(d.pixel));
      const uint64_t uv = addr64(a, CD::D_DAIN_ADDR_LOW_1::offset, CD::D_DAIN_ADDR_HIGH_1::offset);
      for (uint32_t y = 0; y < d.h; ++y) {
        f.reads.emplace_back(dport, base + y * line, base + y * line + cdiv(uint64_t{d.xoff + d.w} * info.plane_bytes[0], A) * A, "plane 0");
        if (info.planes == 2) {
          const uint64_t uvl = a.get(CD::D_LINE_UV_STRIDE::offset);
          f.reads.emplace_back(dport, uv + y * uvl, uv + y * uvl + cdiv(uint64_t{d.xoff + d.w} * info.plane_bytes[1], A) * A, "plane 1");
        }
      }
    } else {
      const uint64_t surf = a.get(CD::D_SURF_STRIDE::offset), batch = a.get(CD::D_BATCH_STRIDE::offset);
      const uint64_t surfaces = cdiv(d.c, A / (d.in == 0 ? 1 : 2));
      for (uint32_t n = 0; n < d.n; ++n)
        for (uint64_t sf = 0; sf < surfaces; ++sf)
          for (uint32_t y = 0; y < d.h; ++y) {
            const uint64_t at = base + n * batch + sf * surf + y * line;
            f.reads.emplace_back(dport, at, at + uint64_t{d.w} * A, "feature line");
          }
    }
  }
  if (!d.weight_reuse) {
    const uint64_t w = addr64(a, CD::D_WEIGHT_ADDR_LOW::offset, CD::D_WEIGHT_ADDR_HIGH::offset);
    f.reads.emplace_back(wport, w, w + d.wbytes, "weights");
    if (d.compressed) {
      const uint64_t wmb = addr64(a, CD::D_WMB_ADDR_LOW::offset, CD::D_WMB_ADDR_HIGH::offset);
      const uint64_t wgs = addr64(a, CD::D_WGS_ADDR_LOW::offset, CD::D_WGS_ADDR_HIGH::offset);
      const uint64_t ak = d.proc == 0 ? A : A / 2;
      f.reads.emplace_back(wport, wmb, wmb + d.wmbbytes, "WMB");
      f.reads.emplace_back(wport, wgs, wgs + cdiv(cdiv(d.k, ak) * 4, 32) * 32, "WGS");
    }
  }
  const Regs& sd = l.sdp;
  const Regs& rd = l.rdma;
  const uint32_t sproc = sd.f(S::D_DATA_FORMAT::offset, 0, 2), sout = sd.f(S::D_DATA_FORMAT::offset, 2, 2);
  const uint64_t epa = A / (sproc == 0 ? 1 : 2);
  for (const auto& [cfg_off, lo_off] : {std::pair<uint32_t, uint32_t>{R::D_BRDMA_CFG::offset, R::D_BS_BASE_ADDR_LOW::offset},
                                         {R::D_NRDMA_CFG::offset, R::D_BN_BASE_ADDR_LOW::offset}}) {
    const uint32_t c = rd.get(cfg_off);
    if (c & 1u) continue;
    const uint64_t bpe = (((c >> 3) & 1u) ? 2 : 1) * (((c >> 1) & 3u) == 2 ? 2 : 1);
    const uint64_t base = addr64(rd, lo_off, lo_off + 4);
    f.reads.emplace_back((c >> 5) & 1u ? MemPort::Dbb : MemPort::Sram, base, base + cdiv(d.k, epa) * epa * bpe, "SDP operands");
  }
  const uint64_t dst = addr64(sd, S::D_DST_BASE_ADDR_LOW::offset, S::D_DST_BASE_ADDR_HIGH::offset);
  const uint64_t ol = sd.get(S::D_DST_LINE_STRIDE::offset), os = sd.get(S::D_DST_SURFACE_STRIDE::offset),
                 ob = sd.get(S::D_DST_BATCH_STRIDE::offset);
  const uint64_t surfaces = sproc == 0 && sout != 0 ? 2 * cdiv(d.k, A) : cdiv(d.k, A / (sout == 0 ? 1 : 2));
  const MemPort oport = sd.f(S::D_DST_DMA_CFG::offset, 0, 1) ? MemPort::Dbb : MemPort::Sram;
  if (d.ow == 1 && d.oh == 1 && d.n == 1) {
    f.writes.emplace_back(oport, dst, dst + surfaces * A, "output");
  } else {
    for (uint32_t n = 0; n < d.n; ++n)
      for (uint64_t sf = 0; sf < surfaces; ++sf)
        for (uint32_t y = 0; y < d.oh; ++y) {
          const uint64_t at = dst + n * ob + sf * os + y * ol;
          f.writes.emplace_back(oport, at, at + uint64_t{d.ow} * A, "output line");
        }
  }
  return f;
}

// Loads cover every byte read and written; outputs never overlap anything read or written by
// another region of the program.
std::vector<std::string> check_memory(const HwConfig& cfg, const Program& p, const std::vector<LayerView>& layers) {
  std::vector<std::string> v;
  Intervals loaded[2];
  for (const ProgramOp& op : p.ops)
    if (const auto* m = std::get_if<MemLoad>(&op)) loaded[static_cast<unsigned>(m->port)].add(m->addr, m->addr + m->bytes.size());
  Intervals reads[2], writes[2];
  Kept kept;
  for (const LayerView& l : layers) {
    const Footprint f = footprint(cfg, l, kept);
    check_layer(cfg, l, kept);
    for (const auto& [port, lo, hi, what] : f.reads) {
      if (!loaded[static_cast<unsigned>(port)].covers(lo, hi))
        v.push_back(fmt::format("layer {}: {} [{:#x}, {:#x}) on {} is not loaded", l.index, what, lo, hi, mem_port_name(port)));
      if (writes[static_cast<unsigned>(port)].touches(lo, hi))
        v.push_back(fmt::format("layer {}: {} [{:#x}, {:#x}) was written by an earlier layer", l.index, what, lo, hi));
      reads[static_cast<unsigned>(port)].add(lo, hi);
    }
    Intervals mine[2];
    for (const auto& [port, lo, hi, what] : f.writes) {
      const unsigned pi = static_cast<unsigned>(port);
      if (!loaded[pi].covers(lo, hi)) v.push_back(fmt::format("layer {}: {} [{:#x}, {:#x}) not pre-filled", l.index, what, lo, hi));
      if (reads[pi].touches(lo, hi) || writes[pi].touches(lo, hi))
        v.push_back(fmt::format("layer {}: {} [{:#x}, {:#x}) overlaps another region", l.index, what, lo, hi));
      mine[pi].add(lo, hi);
    }
    for (unsigned pi = 0; pi < 2; ++pi)
      for (const auto& [lo, hi] : mine[pi].m) writes[pi].add(lo, hi);
  }
  return v;
}

struct Checked {
  std::vector<LayerView> layers;
  std::vector<std::string> problems;
};

Checked check_program(const HwConfig& cfg, const Program& p) {
  Checked c;
  c.layers = decode(cfg, p, c.problems);
  Kept kept;
  for (const LayerView& l : c.layers)
    for (const std::string& m : check_layer(cfg, l, kept)) c.problems.push_back(fmt::format("layer {}: {}", l.index, m));
  return c;
}

// ---------------------------------------------------------------- conv.random

std::string describe(const Program& p) {
  std::string s;
  for (const ProgramOp& op : p.ops) {
    if (const auto* l = std::get_if<MemLoad>(&op)) {
      uint64_t h = 1469598103934665603ull;
      for (uint8_t b : l->bytes) h = (h ^ b) * 1099511628211ull;
      s += fmt::format("L{}:{:x}:{}:{:x};", static_cast<int>(l->port), l->addr, l->bytes.size(), h);
    } else if (const auto* w = std::get_if<RegWrite>(&op)) {
      s += fmt::format("W{:x}={:x};", w->addr, w->data);
    } else {
      s += fmt::format("op{};", op.index());
    }
  }
  return s;
}

TEST(ConvRandom, SameSeedSameProgramOtherSeedOtherProgram) {
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const TestGenerator& g = find_test_generator("conv.random");
    const Program a = g.generate(cfg, 42), b = g.generate(cfg, 42), c = g.generate(cfg, 43);
    EXPECT_EQ(describe(a), describe(b)) << name;
    EXPECT_EQ(a.notes, b.notes) << name;
    EXPECT_NE(describe(a), describe(c)) << name;
  }
}

// Every field of every op, the header and the notes, FNV-1a: two programs with the same
// digest load the same bytes, write the same registers and check the same things.
class Fnv {
 public:
  void add(const std::string& s) {
    for (char c : s) byte(static_cast<uint8_t>(c));
    byte(0xff);
  }
  void add(uint64_t v) {
    for (int i = 0; i < 8; ++i) byte(static_cast<uint8_t>(v >> (8 * i)));
  }
  void add(const std::vector<uint8_t>& v) {
    add(uint64_t{v.size()});
    for (uint8_t b : v) byte(b);
  }
  uint64_t value() const { return h_; }

 private:
  void byte(uint8_t b) { h_ = (h_ ^ b) * 1099511628211ull; }
  uint64_t h_ = 1469598103934665603ull;
};

uint64_t program_digest(const Program& p) {
  Fnv f;
  f.add(p.test);
  f.add(p.config);
  f.add(p.seed);
  for (const std::string& n : p.notes) f.add(n);
  for (const ProgramOp& op : p.ops) {
    f.add(uint64_t{op.index()});
    std::visit(
        [&](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, MemLoad>) {
            f.add(static_cast<uint64_t>(o.port)), f.add(o.addr), f.add(o.bytes);
          } else if constexpr (std::is_same_v<T, MemFill>) {
            f.add(static_cast<uint64_t>(o.port)), f.add(o.addr), f.add(o.size), f.add(uint64_t{o.value});
            f.add(uint64_t{o.address_byte});
          } else if constexpr (std::is_same_v<T, RegWrite>) {
            f.add(uint64_t{o.addr}), f.add(uint64_t{o.data}), f.add(uint64_t{o.nposted});
          } else if constexpr (std::is_same_v<T, RegRead>) {
            f.add(uint64_t{o.addr}), f.add(uint64_t{o.mask}), f.add(o.expect ? uint64_t{*o.expect} | (1ull << 32) : 0);
            f.add(o.what);
          } else if constexpr (std::is_same_v<T, WaitIntr>) {
            f.add(uint64_t{o.status_bits}), f.add(o.timeout_cycles), f.add(o.what);
          } else if constexpr (std::is_same_v<T, WaitIntrLine>) {
            f.add(o.timeout_cycles), f.add(o.what);
          } else if constexpr (std::is_same_v<T, PollReg>) {
            f.add(uint64_t{o.addr}), f.add(uint64_t{o.mask}), f.add(uint64_t{o.expect});
            f.add(static_cast<uint64_t>(o.compare)), f.add(o.timeout_cycles), f.add(o.what);
          } else if constexpr (std::is_same_v<T, CheckCrc>) {
            f.add(static_cast<uint64_t>(o.port)), f.add(o.addr), f.add(o.size), f.add(uint64_t{o.crc}), f.add(o.what);
          } else if constexpr (std::is_same_v<T, CheckMem>) {
            f.add(static_cast<uint64_t>(o.port)), f.add(o.addr), f.add(o.expect), f.add(o.what);
          } else if constexpr (std::is_same_v<T, Idle>) {
            f.add(uint64_t{o.cycles});
          }
        },
        op);
  }
  return f.value();
}

// conv.random's programs at the knob settings the plans use are pinned. A knob added to
// conv.random must leave them unchanged at its default (its own Rng stream, drawn only when the
// knob is set), so every seed of default.yaml and mutation.yaml keeps meaning the same layers,
// bytes and checks. Change the digests only when a default draw is changed on purpose, and say
// so in the commit.
TEST(ConvRandom, ProgramsAtThePlansKnobsArePinned) {
  struct Pin {
    const char* config;
    Knobs knobs;
    uint64_t seed;
    uint64_t digest;
  };
  const std::vector<Pin> pins = {
      {"small", {}, 1, 0xf6a25fbd2af94edfull},
      {"small", {}, 2, 0x8f3eec8640dc5409ull},
      {"small", {}, 3, 0x74aa61f069ebe64bull},
      {"small", {}, 4, 0xe94160765235cc61ull},
      {"small", {}, 5, 0x6bd46f4b4e4c7c79ull},
      {"small", {}, 6, 0xe80ae9e094b49a47ull},
      {"v1", {}, 1, 0xecc327a413ab6d92ull},
      {"v1", {}, 2, 0x1ad031e00adbd4bbull},
      {"v1", {}, 3, 0x101c6e8f867c7315ull},
      {"v1", {}, 4, 0x1fcec21b0393261aull},
      {"small", {{"pdp_percent", "100"}}, 1, 0xa7f9057269645466ull},
      {"small", {{"pdp_percent", "100"}}, 2, 0xc5717f230bae3bb2ull},
      {"v1", {{"pdp_percent", "100"}}, 1, 0x37842638172afc58ull},
      {"small", {{"mode", "image"}}, 1, 0xe88299502a486bc5ull},
      {"small", {{"mode", "image"}}, 2, 0x1f2b9a075763516full},
      {"small", {{"layers", "5"}}, 1, 0x71d9026ca04a2109ull},
      {"small", {{"layers", "5"}}, 2, 0xe328e129aa707de2ull},
      {"small", {{"size", "medium"}}, 1, 0xb75d49cfc409ee32ull},
      {"small", {{"mode", "image"}, {"post_extension_percent", "100"}}, 1, 0x040e18f63cc2f150ull},
      {"small", {{"layers", "8"}}, 1, 0x2b8a5e701f02f96aull},
      {"small", {{"mode", "image"}, {"size", "medium"}}, 1, 0x922b5199a83dfaccull},
  };
  const TestGenerator& g = find_test_generator("conv.random");
  for (const Pin& pin : pins) {
    std::string label = fmt::format("{} seed {}", pin.config, pin.seed);
    for (const auto& [k, v] : pin.knobs) label += fmt::format(" {}={}", k, v);
    EXPECT_EQ(fmt::format("{:#018x}", program_digest(g.generate(HwConfig::get(pin.config), pin.seed, pin.knobs))),
              fmt::format("{:#018x}", pin.digest))
        << label;
  }
}

TEST(ConvRandom, BadKnobsAreRejectedNamingTheKnob) {
  const TestGenerator& g = find_test_generator("conv.random");
  auto message = [&](const char* config, const Knobs& k) -> std::string {
    try {
      g.generate(HwConfig::get(config), 1, k);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const std::pair<Knobs, const char*> bad[] = {
      {{{"layers", "0"}}, "layers='0'"},
      {{{"layers", "x"}}, "layers='x'"},
      {{{"size", "huge"}}, "size='huge'"},
      {{{"mode", "depthwise"}}, "mode='depthwise'"},
      {{{"precision", "fp32"}}, "precision='fp32'"},
      {{{"reuse", "maybe"}}, "reuse='maybe'"},
      {{{"subset", "nv_large"}}, "subset='nv_large'"},
      {{{"special_permille", "1001"}}, "special_permille='1001'"},
      {{{"batch_percent", "101"}}, "batch_percent='101'"},
      {{{"compression_percent", "-1"}}, "compression_percent='-1'"},
      {{{"sram_percent", "200"}}, "sram_percent='200'"},
      {{{"post_extension_percent", "abc"}}, "post_extension_percent='abc'"},
      {{{"layer", "2"}}, "unknown knob 'layer'"},
  };
  for (const auto& [k, want] : bad)
    for (const char* config : {"small", "v1"}) {
      const std::string m = message(config, k);
      EXPECT_NE(m.find(want), std::string::npos) << config << ": '" << m << "' does not name " << want;
    }
  // Values that exist but not on this configuration.
  EXPECT_NE(message("small", {{"mode", "winograd"}}).find("mode='winograd'"), std::string::npos);
  EXPECT_NE(message("small", {{"precision", "int16"}}).find("precision='int16'"), std::string::npos);
  EXPECT_NE(message("small", {{"precision", "fp16"}}).find("precision='fp16'"), std::string::npos);
  EXPECT_NE(message("v1", {{"mode", "winograd"}, {"subset", "nv_small_rtl"}}).find("mode='winograd'"), std::string::npos);
  EXPECT_NE(message("v1", {{"precision", "fp16"}, {"subset", "nv_small_rtl"}}).find("precision='fp16'"), std::string::npos);
  EXPECT_EQ(message("v1", {{"mode", "winograd"}, {"precision", "fp16"}, {"size", "medium"}, {"layers", "1"}}), "");
  // EW memory operands: small's SDP has no EW stage; nv_small_rtl programs none.
  for (const auto& [config, k] : {std::pair<const char*, Knobs>{"small", {{"sdp_ew_memory_percent", "50"}}},
                                  std::pair<const char*, Knobs>{"v1", {{"sdp_ew_memory_percent", "50"}, {"subset", "nv_small_rtl"}}}}) {
    const std::string m = message(config, k);
    EXPECT_NE(m.find("sdp_ew_memory_percent='50'"), std::string::npos) << config << ": " << m;
    EXPECT_NE(m.find("EW stage"), std::string::npos) << config << ": " << m;
  }
  EXPECT_NE(message("v1", {{"sdp_ew_memory_percent", "101"}}).find("sdp_ew_memory_percent='101'"), std::string::npos);
  EXPECT_NE(message("v1", {{"sdp_operand_pairs_percent", "50"}}).find("needs per-element operand streams"), std::string::npos);
}

struct Coverage {
  std::map<std::string, unsigned> seen;
  void add(const std::string& f) { ++seen[f]; }
  bool has(const std::string& f) const { return seen.count(f) != 0; }
};

void note_features(const HwConfig& cfg, const LayerView& l, const Kept& before, Coverage& cov) {
  const Decoded d = decode_layer(l);
  const char* kinds[] = {"direct", "image", "winograd"};
  const std::string kind = kinds[d.kind];
  cov.add(kind);
  cov.add(kind + "_" + precision_name(static_cast<Precision>(d.proc)));
  cov.add(fmt::format("group{}", l.group));
  const uint64_t A = cfg.atom_bytes, lanes = A / d.es, ak = d.proc == 0 ? A : A / 2;
  if (d.kind == 0) {
    if (d.c % lanes) cov.add("c_not_atom_multiple");
    if (d.c < lanes) cov.add("c_below_atom");
    if (d.dx > 1 || d.dy > 1) cov.add("dilation");
    if (d.dx >= 8 || d.dy >= 8) cov.add("dilation_ge8");
    if (d.sx > 2 || d.sy > 2) cov.add("stride_gt2");
    if (d.pl > 0 || d.pt > 0) cov.add("pad_left_top");
    const uint64_t sw = uint64_t{d.kw - 1} * d.dx + 1;
    if (uint64_t{d.ow - 1} * d.sx + sw > d.pl + d.cw) cov.add("implicit_right_pad");
    if (d.kw >= 8 || d.kh >= 8) cov.add("kernel_ge8");
    if (d.n > 1) cov.add("batches");
    if (l.cdma.f(CD::D_CVT_CFG::offset, 0, 1)) cov.add("direct_cvt");
    if (d.grains > 0) cov.add("fetch_grain");
    if (l.csc.get(CS::D_ZERO_PADDING_VALUE::offset) != 0) cov.add("pad_value");
  }
  if (d.kind == 1) {
    const auto& info = formats::pixel_format_info(static_cast<formats::PixelFormat>(d.pixel));
    cov.add(std::string("pixel_") + info.name);
    const unsigned code = d.pixel;
    cov.add(info.planes == 2 ? (info.precision == Precision::Int8 ? "pixels_semi_8" : "pixels_semi_16")
            : info.precision == Precision::Fp16 ? "pixels_fp16"
            : code >= 20 && code <= 25         ? "pixels_10bit"
            : info.precision == Precision::Int16 ? "pixels_16bit"
                                                 : "pixels_8bit");
    if (info.planes == 2) cov.add("semi_planar");
    if (d.xoff) cov.add("x_offset");
    if (l.cdma.f(CD::D_DATAIN_FORMAT::offset, 20, 1)) cov.add("sign_override");
    if (l.cdma.f(CD::D_MEAN_FORMAT::offset, 0, 1)) cov.add("mean_format");
    if (d.in != d.proc) cov.add("image_precision_change");
    if (d.cpl || d.cpr) cov.add("image_lr_pad");
    if (d.pt) cov.add("image_top_pad");
    if (d.yext == 1) cov.add("post_ext_2");
    if (d.yext == 2) cov.add("post_ext_4");
  }
  if (d.kind == 2) {
    if (l.cdma.f(CD::D_CONV_STRIDE::offset, 0, 3) > 0) cov.add("winograd_stride");
    if (l.csc.f(CS::D_PRA_CFG::offset, 0, 2) > 0) cov.add("pra_truncate");
  }
  if (d.k % ak) cov.add("k_not_group_multiple");
  if (d.k > ak) cov.add("several_groups");
  if (d.compressed) cov.add("compressed");
  if (d.proc != 2) {
    const uint32_t clip = l.cacc.f(CA::D_CLIP_CFG::offset, 0, 5);
    if (clip == 0) cov.add("clip0");
    if (clip == 16) cov.add("clip16");
  }
  if (d.data_reuse) cov.add(before.all_data ? "data_reuse_full" : "data_reuse_partial");
  if (d.weight_reuse) cov.add("weight_reuse");
  if (!d.skip_d && d.rls < d.slices) cov.add("partial_release");
  if (d.skip_w) cov.add("skip_weight_rls");
  if (d.wbytes % 128) cov.add("minimal_weight_bytes");
  if (!l.cdma.f(CD::D_DAIN_RAM_TYPE::offset, 0, 1) || !l.cdma.f(CD::D_WEIGHT_RAM_TYPE::offset, 0, 1)) cov.add("sram");
  if (l.rdma_armed) cov.add("sdp_operands");
  if (l.sdp.f(S::D_DATA_FORMAT::offset, 0, 2) == 0 && l.sdp.f(S::D_DATA_FORMAT::offset, 2, 2) != 0) cov.add("sdp_split");
  if (!(l.sdp.get(S::D_DP_BS_CFG::offset) & 1u)) cov.add("sdp_bs");
  if (!(l.sdp.get(S::D_DP_EW_CFG::offset) & 1u)) cov.add("sdp_ew");
  if (d.ow == 1 && d.oh == 1) cov.add("out_1x1");
}

Coverage run_seeds(const char* config, uint64_t first, uint64_t n, const Knobs& knobs = {}) {
  const HwConfig& cfg = HwConfig::get(config);
  const TestGenerator& g = find_test_generator("conv.random");
  Coverage cov;
  for (uint64_t seed = first; seed < first + n; ++seed) {
    const Program p = g.generate(cfg, seed, knobs);
    const Checked c = check_program(cfg, p);
    EXPECT_TRUE(c.problems.empty()) << config << " seed " << seed << ": " << c.problems.front();
    const auto mem = check_memory(cfg, p, c.layers);
    EXPECT_TRUE(mem.empty()) << config << " seed " << seed << ": " << mem.front();
    Kept kept;
    for (const LayerView& l : c.layers) {
      note_features(cfg, l, kept, cov);
      check_layer(cfg, l, kept);
    }
    EXPECT_FALSE(c.layers.empty());
    // Every layer waits for its four done bits; the program begins with the CBUF flush poll.
    unsigned waits = 0;
    for (const ProgramOp& op : p.ops) waits += std::holds_alternative<WaitIntr>(op) ? 1 : 0;
    EXPECT_EQ(waits, c.layers.size()) << config << " seed " << seed;
    EXPECT_TRUE(std::holds_alternative<PollReg>(p.ops.front())) << "the program must poll S_CBUF_FLUSH_STATUS first";
  }
  return cov;
}

const char* kCommonFeatures[] = {
    "direct", "image", "direct_int8", "image_int8", "group0", "group1", "c_not_atom_multiple", "c_below_atom", "dilation",
    "dilation_ge8", "stride_gt2", "pad_left_top", "implicit_right_pad", "kernel_ge8", "direct_cvt", "fetch_grain",
    "pad_value", "semi_planar", "x_offset", "sign_override", "mean_format", "image_lr_pad", "image_top_pad",
    "post_ext_2", "post_ext_4", "k_not_group_multiple", "several_groups", "clip0", "clip16", "data_reuse_full",
    "data_reuse_partial", "weight_reuse", "partial_release", "skip_weight_rls", "sdp_operands", "sdp_bs", "out_1x1",
    "pixel_T_R8", "pixels_8bit", "pixels_semi_8"};

TEST(ConvRandom, EveryLayerIsLegalAndCoversTheFeaturesOnSmall) {
  const Coverage cov = run_seeds("small", 1, 150);
  for (const char* f : kCommonFeatures) EXPECT_TRUE(cov.has(f)) << "150 seeds on small never produced " << f;
  for (const char* f : {"minimal_weight_bytes"}) EXPECT_TRUE(cov.has(f)) << f;
  for (const char* f : {"winograd", "batches", "compressed", "sram", "sdp_split", "sdp_ew", "direct_int16", "direct_fp16"})
    EXPECT_FALSE(cov.has(f)) << "small has no " << f;
}

TEST(ConvRandom, EveryLayerIsLegalAndCoversTheFeaturesOnV1) {
  const Coverage cov = run_seeds("v1", 1, 150);
  for (const char* f : kCommonFeatures) EXPECT_TRUE(cov.has(f)) << "150 seeds on v1 never produced " << f;
  for (const char* f : {"winograd", "winograd_int8", "winograd_int16", "winograd_fp16", "direct_int16", "direct_fp16",
                        "image_int16", "image_fp16", "image_precision_change", "batches", "compressed", "sram", "sdp_split",
                        "sdp_ew", "winograd_stride", "pra_truncate", "pixels_fp16", "pixels_10bit", "pixels_16bit",
                        "pixels_semi_16"})
    EXPECT_TRUE(cov.has(f)) << "150 seeds on v1 never produced " << f;
}

TEST(ConvRandom, KnobsSteerTheDraw) {
  for (const char* mode : {"direct", "image", "winograd"}) {
    const Coverage c = run_seeds("v1", 300, 15, {{"mode", mode}});
    for (const char* other : {"direct", "image", "winograd"})
      EXPECT_EQ(c.has(other), std::string(other) == mode) << "mode=" << mode << " produced " << other;
  }
  const Coverage fp = run_seeds("v1", 400, 15, {{"precision", "fp16"}});
  for (const char* f : {"direct_int8", "direct_int16", "winograd_int8", "winograd_int16"}) EXPECT_FALSE(fp.has(f)) << f;
  const Coverage none = run_seeds("v1", 500, 15, {{"reuse", "no"}});
  EXPECT_FALSE(none.has("data_reuse_full") || none.has("data_reuse_partial") || none.has("weight_reuse"));
  const Coverage plain = run_seeds("v1", 600, 15, {{"batch_percent", "0"}, {"compression_percent", "0"}, {"sram_percent", "0"}});
  EXPECT_FALSE(plain.has("batches") || plain.has("compressed") || plain.has("sram"));
  const Coverage medium = run_seeds("small", 700, 5, {{"size", "medium"}, {"layers", "2"}});
  EXPECT_TRUE(medium.has("direct") || medium.has("image"));
}

// Every layer of seeds 1..6 of conv.random with knob shape=<shape> (2 layers) on small and v1
// is legal and passes `check(cfg, layer, config, seed)`; the shape is refused with image mode.
template <typename Check>
void check_shape_layers(const char* shape, Check check) {
  const TestGenerator& g = find_test_generator("conv.random");
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      const Program p = g.generate(cfg, seed, {{"shape", shape}, {"layers", "2"}});
      const Checked c = check_program(cfg, p);
      ASSERT_TRUE(c.problems.empty()) << config << " seed " << seed << ": " << c.problems.front();
      ASSERT_FALSE(c.layers.empty());
      for (const LayerView& l : c.layers) check(cfg, decode_layer(l), config, seed);
    }
    EXPECT_THROW(g.generate(cfg, 1, {{"shape", shape}, {"mode", "image"}}), std::invalid_argument);
  }
}

// shape=compute_bound: legal direct 3x3 layers, stride and dilation 1, full channel blocks
// and kernel groups, output as large as the input (throughput checks).
// high_addresses=on: input, weights, SDP operands and outputs start anywhere in the address space
// (every address bit above the atom toggles over seeds), the layers run clean; off is the default.
TEST(ConvRandom, HighAddressesToggleEveryAddressBitAndOffIsTheDefault) {
  test::expect_high_addresses_toggle_every_bit("conv.random");
}

TEST(ConvRandom, ComputeBoundShape) {
  check_shape_layers("compute_bound", [](const HwConfig& cfg, const Decoded& d, const char* config, uint64_t seed) {
    const unsigned ac = cfg.conv_mac_atomic_c;
    const unsigned ak = cfg.conv_kernels_per_group(static_cast<Precision>(d.proc));
    EXPECT_EQ(d.kind, 0u) << config << " seed " << seed;
    EXPECT_EQ(d.kw, 3u);
    EXPECT_EQ(d.kh, 3u);
    EXPECT_EQ(d.sx * d.sy * d.dx * d.dy, 1u);
    EXPECT_EQ(d.c % ac, 0u) << d.c;
    EXPECT_GE(d.c / ac, 8u);
    EXPECT_EQ(d.k % ak, 0u) << d.k;
    EXPECT_EQ(d.ow, d.cw);
    EXPECT_EQ(d.oh, d.ch);
  });
  EXPECT_THROW(find_test_generator("conv.random").generate(HwConfig::get("small"), 1, {{"shape", "square"}}),
               std::invalid_argument);
}

// shape=memory_bound: legal weight-streaming direct layers: one output pixel, the kernel as
// large as the input, no padding, full channel blocks and 4..8 full kernel groups, so every
// atomic operation needs AC x AK weight elements.
TEST(ConvRandom, MemoryBoundShape) {
  check_shape_layers("memory_bound", [](const HwConfig& cfg, const Decoded& d, const char* config, uint64_t seed) {
    const unsigned ac = cfg.conv_mac_atomic_c;
    const unsigned ak = cfg.conv_kernels_per_group(static_cast<Precision>(d.proc));
    EXPECT_EQ(d.kind, 0u) << config << " seed " << seed;
    EXPECT_EQ(d.kw, d.cw);
    EXPECT_EQ(d.kh, d.ch);
    EXPECT_GE(d.cw * d.ch, 4u);
    EXPECT_LE(d.cw * d.ch, 9u);
    EXPECT_EQ(d.ow * d.oh, 1u);
    EXPECT_EQ(d.pl + d.pt, 0u);
    EXPECT_EQ(d.c % ac, 0u) << d.c;
    EXPECT_GE(d.c / ac, 4u);
    EXPECT_EQ(d.k % ak, 0u) << d.k;
    EXPECT_GE(d.k / ak, 4u);
  });
}

// pixel_formats=semi_planar: every image layer uses a two-plane format (Y + interleaved UV),
// the layers stay legal, both formats of the configuration show up, and modes without image
// layers are refused.
TEST(ConvRandom, SemiPlanarPixelFormats) {
  const TestGenerator& g = find_test_generator("conv.random");
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    std::set<unsigned> seen;
    unsigned images = 0;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const Program p = g.generate(cfg, seed, {{"pixel_formats", "semi_planar"}, {"mode", "image"}});
      const Checked c = check_program(cfg, p);
      ASSERT_TRUE(c.problems.empty()) << config << " seed " << seed << ": " << c.problems.front();
      for (const LayerView& l : c.layers) {
        const Decoded d = decode_layer(l);
        ASSERT_EQ(d.kind, 1u) << config << " seed " << seed;
        ++images;
        seen.insert(d.pixel);
        EXPECT_EQ(formats::pixel_format_info(static_cast<formats::PixelFormat>(d.pixel)).planes, 2u)
            << config << " seed " << seed << ": " << formats::pixel_format_info(static_cast<formats::PixelFormat>(d.pixel)).name;
      }
    }
    EXPECT_GE(images, 20u) << config;
    EXPECT_GE(seen.size(), 2u) << config << ": both byte orders of the UV plane";
    EXPECT_THROW(g.generate(cfg, 1, {{"pixel_formats", "semi_planar"}, {"mode", "direct"}}), std::invalid_argument);
    EXPECT_THROW(g.generate(cfg, 1, {{"pixel_formats", "planar"}}), std::invalid_argument);
  }
}

// subset=nv_small_rtl: what NVIDIA's nv_small RTL runs. On small that is everything the
// configuration has, so the programs are identical; on v1 int8 direct/image only.
TEST(ConvRandom, NvSmallRtlSubset) {
  const TestGenerator& g = find_test_generator("conv.random");
  for (uint64_t seed = 1; seed <= 5; ++seed)
    EXPECT_EQ(describe(g.generate(HwConfig::get("small"), seed)),
              describe(g.generate(HwConfig::get("small"), seed, {{"subset", "nv_small_rtl"}})))
        << seed;
  const Coverage c = run_seeds("v1", 800, 40, {{"subset", "nv_small_rtl"}});
  for (const char* f : {"winograd", "batches", "compressed", "sram", "sdp_split", "sdp_ew", "direct_int16", "direct_fp16",
                        "image_int16", "image_fp16"})
    EXPECT_FALSE(c.has(f)) << "nv_small_rtl produced " << f;
  EXPECT_TRUE(c.has("direct_int8") && c.has("image_int8"));
}

// nvdla_errata=avoid keeps every weight fetch clear of NVIDIA's lost weight releases
// (conv-weight-release-lost, dla/nvdla_weight_credit.h): each layer's largest kernel group (all
// its weights with SKIP_WEIGHT_RLS) fits its weight region beside every entry CDMA may still
// count. 'allow' draws sequences that may hang (the check can fail); a sequence too long for
// the CBUF ends early, noted.
TEST(ConvRandom, AvoidingNvdlaErrataKeepsWeightFetchesClearOfLostReleases) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator("conv.random");
  auto possible_hangs = [&](const Program& p) {
    const Checked c = check_program(cfg, p);
    EXPECT_TRUE(c.problems.empty()) << c.problems.front();
    NvdlaWeightCredit credit;
    unsigned hangs = 0;
    bool prev_keeps = false;
    for (const LayerView& l : c.layers) {
      const Decoded d = decode_layer(l);
      NvdlaWeightLayer w;
      w.region = uint64_t{d.wbank} * cfg.conv_cbuf_bank_entries;
      w.keeps = d.skip_w;
      w.reuses = d.weight_reuse && prev_keeps;
      if (!w.reuses)
        w.groups = nvdla_weight_group_entries(d.k, d.bpk, d.wbytes, cfg.conv_kernels_per_group(Precision::Int8),
                                              cfg.conv_cbuf_entry_bytes);
      hangs += credit.possible_hang(w) ? 1 : 0;
      credit.run(w);
      prev_keeps = d.skip_w;
    }
    return hangs;
  };
  unsigned allowed = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    allowed += possible_hangs(g.generate(cfg, seed, {{"layers", "4"}}));
    EXPECT_EQ(possible_hangs(g.generate(cfg, seed, {{"layers", "4"}, {"nvdla_errata", "avoid"}})), 0u) << "seed " << seed;
  }
  EXPECT_GT(allowed, 0u) << "no 'allow' sequence of 100 seeds may hang: the check proves nothing";
  unsigned ended = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const Program p = g.generate(cfg, seed, {{"layers", "64"}, {"nvdla_errata", "avoid"}});
    EXPECT_EQ(possible_hangs(p), 0u) << "seed " << seed;
    for (const std::string& n : p.notes) ended += n.find("the sequence ends after") != std::string::npos ? 1 : 0;
  }
  EXPECT_GT(ended, 0u) << "12 sequences of 64 layers all fit beside NVIDIA's lost weight releases";
}

// Generated values: fp16 data carries specials at the knob's density, integer layers extremes.
TEST(ConvRandom, SpecialValueDensityFollowsTheKnob) {
  using stimulus::ConvLayerSpec;
  const HwConfig& cfg = HwConfig::get("v1");
  ConvLayerSpec l;
  l.in_precision = l.proc_precision = Precision::Fp16;
  l.width = l.height = 16;
  l.channels = 64;
  l.kernels = 4;
  auto count = [&](double special) {
    Rng r(7);
    const auto d = stimulus::random_conv_data(l, cfg, r, special);
    unsigned n = 0;
    for (uint32_t y = 0; y < 16; ++y)
      for (uint32_t x = 0; x < 16; ++x)
        for (uint32_t c = 0; c < 64; ++c) {
          const uint16_t v = d.features->get(x, y, c);
          n += ((v & 0x7c00) == 0x7c00 || (v & 0x7c00) == 0) ? 1 : 0;  // NaN, Inf, subnormal, zero
        }
    return n;
  };
  EXPECT_EQ(count(0.0), 0u);
  const unsigned dense = count(0.5);
  EXPECT_GT(dense, 16u * 16 * 64 / 5);
  EXPECT_LT(dense, 16u * 16 * 64 / 2);
}

// ---------------------------------------------------------------- conv.md §10.1

TEST(ConvStimulus, WorkedExampleRegistersAndMemoryImages) {
  using namespace stimulus;
  const HwConfig& cfg = HwConfig::get("small");
  ConvLayerSpec l;
  l.width = 3, l.height = 2, l.channels = 3;
  l.kernel_w = l.kernel_h = 2, l.kernels = 2;
  l.pad_left = 1, l.pad_value = 2;
  l.out_width = 3, l.out_height = 1;
  l.clip_truncate = 2;
  l.data_banks = l.weight_banks = 1;
  l.entries_per_slice = conv_entries_per_slice(l, cfg);
  EXPECT_EQ(l.entries_per_slice, 3u);
  l.release_slices = 2;
  l.src = 0x80000000, l.src_line = 24, l.src_surface = 48;
  l.weight_addr = 0x80001000;
  l.sdp.dst = 0x80002000, l.sdp.line_stride = 24, l.sdp.surface_stride = 24;
  EXPECT_TRUE(conv_layer_problems(l, cfg, ConvCbufState{}, kConvCheckFeatures).empty());  // before placement

  ConvLayerData d;
  formats::FeatureTensor t({3, 2, 3, 1}, 1);
  const int in[2][3][3] = {{{1, -2, 3}, {4, 0, -1}, {2, 2, 2}}, {{-3, 1, 0}, {5, -4, 2}, {0, 1, -2}}};
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x)
      for (uint32_t c = 0; c < 3; ++c) t.set(x, y, c, static_cast<uint16_t>(static_cast<uint8_t>(in[y][x][c])));
  d.features = t;
  formats::KernelSet k(2, 2, 2, 3, 1);
  const int w[2][4][3] = {{{1, 0, -1}, {2, 1, 0}, {0, -1, 1}, {1, 1, 1}}, {{-2, 1, 3}, {0, 0, 1}, {1, 2, -1}, {-1, 0, 2}}};
  for (uint32_t kk = 0; kk < 2; ++kk)
    for (uint32_t rs = 0; rs < 4; ++rs)
      for (uint32_t c = 0; c < 3; ++c) k.at(kk, rs / 2, rs % 2, c) = static_cast<uint16_t>(static_cast<uint8_t>(w[kk][rs][c]));
  d.kernels = k;
  Rng fill(1);
  const ConvWeightImage wi = conv_weight_image(l, cfg, d.kernels, fill);
  l.weight_bytes = wi.weight_bytes;
  EXPECT_EQ(wi.weight_bytes, 128u);
  const std::vector<uint8_t> want_w = {0x01, 0x00, 0xff, 0xfe, 0x01, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x01,
                                       0x00, 0xff, 0x01, 0x01, 0x02, 0xff, 0x01, 0x01, 0x01, 0xff, 0x00, 0x02};
  EXPECT_EQ(std::vector<uint8_t>(wi.weights.begin(), wi.weights.begin() + 24), want_w);
  EXPECT_TRUE(conv_layer_problems(l, cfg, ConvCbufState{}).empty()) << conv_layer_problems(l, cfg, ConvCbufState{}).front();

  const auto images = conv_layer_images(l, cfg, d, wi, fill);
  ASSERT_GE(images.size(), 3u);
  EXPECT_EQ(images[0].addr, 0x80000000u);
  const uint8_t rows[2][3][3] = {{{0x01, 0xfe, 0x03}, {0x04, 0x00, 0xff}, {0x02, 0x02, 0x02}},
                                 {{0xfd, 0x01, 0x00}, {0x05, 0xfc, 0x02}, {0x00, 0x01, 0xfe}}};
  for (unsigned y = 0; y < 2; ++y)
    for (unsigned x = 0; x < 3; ++x)
      for (unsigned c = 0; c < 3; ++c) EXPECT_EQ(images[0].bytes[y * 24 + x * 8 + c], rows[y][x][c]) << y << x << c;

  Program p;
  ProgramBuilder b(cfg, p);
  program_conv_layer(b, cfg, l, 0);
  std::vector<std::string> problems;
  const auto layers = decode(cfg, p, problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  ASSERT_EQ(layers.size(), 1u);
  const LayerView& v = layers[0];
  Kept kept;
  const auto rule = check_layer(cfg, v, kept);
  EXPECT_TRUE(rule.empty()) << rule.front();
  // The table of §10.1 ("every other D_ field 0"; addresses and CACC's output fields aside).
  const std::map<uint32_t, uint32_t> cdma = {
      {CD::D_OP_ENABLE::offset, 1},        {CD::D_MISC_CFG::offset, 0},          {CD::D_DATAIN_FORMAT::offset, 0},
      {CD::D_DATAIN_SIZE_0::offset, 0x00010002}, {CD::D_DATAIN_SIZE_1::offset, 2}, {CD::D_DATAIN_SIZE_EXT_0::offset, 0x00010002},
      {CD::D_LINE_STRIDE::offset, 24},     {CD::D_SURF_STRIDE::offset, 48},      {CD::D_DAIN_MAP::offset, 0x00010001},
      {CD::D_ENTRY_PER_SLICE::offset, 2},  {CD::D_WEIGHT_SIZE_0::offset, 11},    {CD::D_WEIGHT_SIZE_1::offset, 1},
      {CD::D_WEIGHT_BYTES::offset, 128},   {CD::D_BANK::offset, 0},              {CD::D_DAIN_RAM_TYPE::offset, 1},
      {CD::D_WEIGHT_RAM_TYPE::offset, 1},  {CD::D_DAIN_ADDR_LOW_0::offset, 0x80000000u},
      {CD::D_WEIGHT_ADDR_LOW::offset, 0x80001000u}};
  const std::map<uint32_t, uint32_t> csc = {
      {CS::D_OP_ENABLE::offset, 1},           {CS::D_DATAIN_SIZE_EXT_0::offset, 0x00010002}, {CS::D_DATAIN_SIZE_EXT_1::offset, 2},
      {CS::D_WEIGHT_SIZE_EXT_0::offset, 0x00010001}, {CS::D_WEIGHT_SIZE_EXT_1::offset, 0x00010002},
      {CS::D_DATAOUT_SIZE_0::offset, 2},     {CS::D_DATAOUT_SIZE_1::offset, 1},  {CS::D_ATOMICS::offset, 2},
      {CS::D_ZERO_PADDING::offset, 1},       {CS::D_ZERO_PADDING_VALUE::offset, 2}, {CS::D_CONV_STRIDE_EXT::offset, 0},
      {CS::D_DILATION_EXT::offset, 0},       {CS::D_ENTRY_PER_SLICE::offset, 2}, {CS::D_WEIGHT_BYTES::offset, 128},
      {CS::D_BANK::offset, 0},               {CS::D_RELEASE::offset, 1}};
  const std::map<uint32_t, uint32_t> cacc = {{CA::D_OP_ENABLE::offset, 1},
                                             {CA::D_DATAOUT_SIZE_0::offset, 2},
                                             {CA::D_DATAOUT_SIZE_1::offset, 1},
                                             {CA::D_CLIP_CFG::offset, 2},
                                             {CA::D_DATAOUT_ADDR::offset, 0x80002000u},
                                             {CA::D_LINE_STRIDE::offset, 24},
                                             {CA::D_SURF_STRIDE::offset, 24},
                                             {CA::D_DATAOUT_MAP::offset, 0x00010001}};
  auto compare = [&](const char* unit, const Regs& got, const std::map<uint32_t, uint32_t>& want) {
    for (const auto& [off, value] : got.v) {
      const auto it = want.find(off);
      EXPECT_EQ(value, it == want.end() ? 0u : it->second) << unit << "+0x" << std::hex << off;
    }
    for (const auto& [off, value] : want) EXPECT_TRUE(got.v.count(off)) << unit << "+0x" << std::hex << off << " never written";
  };
  compare("CDMA", v.cdma, cdma);
  compare("CSC", v.csc, csc);
  compare("CACC", v.cacc, cacc);
  compare("CMAC_A", v.cmac_a, {{0x008, 1}});
  compare("CMAC_B", v.cmac_b, {{0x008, 1}});
  // SDP pass-through, flying, int8 to memory.
  EXPECT_EQ(v.sdp.get(S::D_FEATURE_MODE_CFG::offset), 1u);
  EXPECT_EQ(v.sdp.get(S::D_DATA_FORMAT::offset), 0u);
  EXPECT_EQ(v.sdp.get(S::D_CVT_SCALE::offset), 1u);
  EXPECT_EQ(v.sdp.get(S::D_DP_BS_CFG::offset) & 1u, 1u);
  EXPECT_EQ(v.sdp.get(S::D_DATA_CUBE_CHANNEL::offset), 1u);
  EXPECT_FALSE(v.rdma_armed);

  // Golden model (once it has the convolution datapath): the delivered bytes of §10.1.
  GoldenModel m(cfg, 1);
  if (!m.has_datapath(Unit::CDMA)) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  Program run;
  ProgramBuilder rb(cfg, run);
  for (const ConvMemoryImage& img : images) rb.load(img.port, img.addr, img.bytes);
  program_conv_layer(rb, cfg, l, 0);
  finish_conv_layer(rb, cfg, l, 0, "the example");
  const auto res = test::execute(run, m);
  EXPECT_TRUE(res.failures.empty()) << res.failures.front();
  EXPECT_TRUE(m.warnings().empty()) << m.warnings().front();
  const std::vector<uint8_t> want = {0xff, 0x04, 0, 0, 0, 0, 0, 0, 0x02, 0x01, 0, 0, 0, 0, 0, 0, 0x04, 0xfb, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(m.memory(MemPort::Dbb).read(0x80002000u, 24), want);
}

// §8.2 on both geometries, including the three remainder cases of ape = 4.
TEST(ConvStimulus, EntryPerSliceFormula) {
  using namespace stimulus;
  ConvLayerSpec l;
  l.width = 10;
  const HwConfig& v1 = HwConfig::get("v1");
  const HwConfig& small = HwConfig::get("small");
  const std::pair<uint32_t, uint32_t> v1_int8[] = {{32, 3}, {64, 5}, {96, 10}, {128, 10}, {160, 13}, {1, 3}};
  for (const auto& [c, e] : v1_int8) {
    l.channels = c;
    EXPECT_EQ(conv_entries_per_slice(l, v1), e) << "C " << c;
  }
  l.in_precision = l.proc_precision = Precision::Int16;
  l.channels = 16;  // one 16-lane surface: r = 1 -> ceil(W/4)
  EXPECT_EQ(conv_entries_per_slice(l, v1), 3u);
  l.in_precision = l.proc_precision = Precision::Int8;
  l.channels = 17;
  EXPECT_EQ(conv_entries_per_slice(l, small), 30u);  // 3 surfaces x W
  l.mode = ConvMode::Image;
  l.pixel_format = formats::PixelFormat::T_A8R8G8B8;
  l.channels = 4;
  l.pad_left = 2, l.pad_right = 3;
  EXPECT_EQ(conv_entries_per_slice(l, small), 8u);  // 15 pixels x 4 bytes / 8
  EXPECT_EQ(conv_entries_per_slice(l, v1), 1u);
  l.mode = ConvMode::Winograd;
  l.channels = 64, l.width = 14, l.pad_left = 1, l.pad_right = 1, l.stride_x = l.stride_y = 1;
  EXPECT_EQ(conv_entries_per_slice(l, v1), 8u);  // (16/4) * 2 surfaces
}

// ---------------------------------------------------------------- conv.illegal

using stimulus::conv_illegal_cases;
using stimulus::conv_illegal_program;

// The keyword the independent checker reports for each refused case.
const std::map<std::string, std::string> kCaseKeyword = {
    {"mode_mismatch", "mode mismatch"},     {"misc_mismatch", "mismatch"},          {"size_mismatch", "size mismatch"},
    {"atomics", "atomics"},                 {"entry_mismatch", "entry mismatch"},   {"entry_per_slice", "entry_per_slice"},
    {"bank_mismatch", "bank mismatch"},     {"weight_mismatch", "weight mismatch"}, {"batch_mismatch", "batch mismatch"},
    {"data_overflow", "data overflow"},     {"bank_sum", "bank sum"},               {"winograd_unsupported", "unsupported: Winograd"},
    {"batch_unsupported", "unsupported: batching"}, {"compression_unsupported", "unsupported: compression"},
    {"int16_unsupported", "unsupported: precision"}, {"fp16_unsupported", "unsupported: precision"},
    {"cvt_fp16", "cvt fp16"},               {"fetch_grain", "fetch grain"},         {"weight_reuse_after_release", "weight reuse"},
    {"data_reuse_after_release", "data reuse"}};

bool applies(const HwConfig& cfg, const std::string& c) {
  if (c == "winograd_unsupported") return !cfg.conv_winograd;
  if (c == "batch_unsupported") return !cfg.conv_batching;
  if (c == "compression_unsupported") return !cfg.conv_compression;
  if (c == "int16_unsupported") return !cfg.supports(Precision::Int16);
  if (c == "fp16_unsupported") return !cfg.supports(Precision::Fp16);
  if (c == "cvt_fp16") return cfg.supports(Precision::Fp16);
  return true;
}

TEST(ConvIllegal, RefusedCasesNameTheirRule) {
  const TestGenerator& g = find_test_generator("conv.illegal");
  for (const auto& c : conv_illegal_cases()) {
    if (c.runs) continue;
    try {
      g.generate(HwConfig::get("v1"), 1, {{"case", c.name}});
      ADD_FAILURE() << c.name << " was not refused";
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("case=" + c.name + " is refused"), std::string::npos) << m;
      EXPECT_NE(m.find("conv.md §"), std::string::npos) << m;
      EXPECT_NE(m.find("undefined"), std::string::npos) << m;
    }
  }
  EXPECT_THROW(g.generate(HwConfig::get("v1"), 1, {{"case", "nope"}}), std::invalid_argument);
  EXPECT_EQ(kCaseKeyword.size() + 1, conv_illegal_cases().size());
}

// Each refused case's program breaks its own rule (the independent checker finds it in the
// last layer, and only the rules the case implies), notes it, and never waits for that layer.
TEST(ConvIllegal, EachProgramBreaksTheRuleItNames) {
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (const auto& c : conv_illegal_cases()) {
      if (c.runs) continue;
      if (!applies(cfg, c.name)) {
        EXPECT_THROW(conv_illegal_program(cfg, 1, c.name), std::invalid_argument) << config << " " << c.name;
        continue;
      }
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        const Program p = conv_illegal_program(cfg, seed, c.name);
        const Checked k = check_program(cfg, p);
        ASSERT_FALSE(k.layers.empty()) << config << " " << c.name;
        const std::string last = fmt::format("layer {}: ", k.layers.size() - 1);
        const std::string& key = kCaseKeyword.at(c.name);
        bool found = false;
        for (const std::string& m : k.problems) {
          EXPECT_EQ(m.rfind(last, 0), 0u) << config << " " << c.name << " seed " << seed << ": an earlier layer breaks a rule: " << m;
          found = found || m.find(key) != std::string::npos;
        }
        EXPECT_TRUE(found) << config << " " << c.name << " seed " << seed << ": checker did not report '" << key << "'"
                           << (k.problems.empty() ? std::string(" (no problem at all)") : "; first: " + k.problems.front());
        bool noted = false;
        for (const std::string& n : p.notes) noted = noted || n.find(c.rule) != std::string::npos;
        EXPECT_TRUE(noted) << c.name;
        unsigned waits = 0;
        for (const ProgramOp& op : p.ops) waits += std::holds_alternative<WaitIntr>(op) ? 1 : 0;
        EXPECT_EQ(waits, k.layers.size() - 1) << config << " " << c.name << ": the broken layer must not be waited for";
      }
    }
  }
}

TEST(ConvIllegal, IgnoredFieldsRunsLegallyWithRandomValuesInEveryIgnoredField) {
  const TestGenerator& g = find_test_generator("conv.illegal");
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    std::set<uint32_t> cya;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const Program p = g.generate(cfg, seed);
      const Checked c = check_program(cfg, p);
      EXPECT_TRUE(c.problems.empty()) << config << " seed " << seed << ": " << c.problems.front();
      const auto mem = check_memory(cfg, p, c.layers);
      EXPECT_TRUE(mem.empty()) << config << " seed " << seed << ": " << mem.front();
      for (const LayerView& l : c.layers) {
        cya.insert(l.cdma.get(CD::D_CYA::offset));
        cya.insert(l.csc.get(CS::D_CYA::offset));
        cya.insert(l.cacc.get(CA::D_CYA::offset));
      }
    }
    EXPECT_GT(cya.size(), 30u) << config;
  }
}

// ---------------------------------------------------------------- golden-only runs

bool golden_has_conv() {
  GoldenModel m(HwConfig::get("small"), 1);
  return m.has_datapath(Unit::CDMA) && m.has_datapath(Unit::CSC) && m.has_datapath(Unit::CACC);
}

TEST(ConvGolden, RandomProgramsRunCleanOnTheGoldenModel) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      const Program p = find_test_generator("conv.random").generate(cfg, seed);
      GoldenModel m(cfg, seed);
      const auto res = test::execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures.front();
      EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings().front();
    }
  }
}

// pdp_percent: conv -> SDP -> PDP. Every layer that can (one batch, not Winograd) sends SDP's
// output on-flying to a PDP layer that is armed and waited for, the programs run clean on the
// golden model (SDP, PDP and all five conv units complete), and the default draws none.
TEST(ConvGolden, ConvSdpPdpLayersRunClean) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  unsigned to_pdp = 0;
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    const RegisterMap& map = RegisterMap::of(cfg);
    const uint32_t pdp_enable = map.address_of(*map.find("PDP.D_OP_ENABLE"));
    const uint32_t sdp_mode = map.address_of(*map.find("SDP.D_FEATURE_MODE_CFG"));
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      for (const char* pct : {"0", "100"}) {
        const Program p = find_test_generator("conv.random").generate(cfg, seed, {{"pdp_percent", pct}});
        unsigned pdp_arms = 0, sdp_to_pdp = 0;
        for (const ProgramOp& op : p.ops)
          if (const auto* w = std::get_if<RegWrite>(&op)) {
            pdp_arms += w->addr == pdp_enable && (w->data & 1u);
            sdp_to_pdp += w->addr == sdp_mode && (w->data & 2u);
          }
        EXPECT_EQ(pdp_arms, sdp_to_pdp) << config << " seed " << seed;
        if (std::string(pct) == "0") {
          EXPECT_EQ(pdp_arms, 0u) << config << " seed " << seed;
          continue;
        }
        to_pdp += pdp_arms;
        GoldenModel m(cfg, seed);
        const auto res = test::execute(p, m);
        EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures.front();
        EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings().front();
      }
    }
  }
  EXPECT_GE(to_pdp, 40u) << "too few conv -> SDP -> PDP layers drawn for this check to mean much";
}

// window_percent: integer layers show a window of the accumulator from bit 0 up (SDP converter
// scale 1 and offset 0, X stages and EW bypassed): either CACC CLIP_TRUNCATE 0 with any shift,
// or a CLIP_TRUNCATE of 1..16 with SDP shift 0 (CACC's rounding in the output's low bit). The
// programs run clean on the golden model. (window_percent=0 leaving the default programs
// unchanged is ConvRandom.ProgramsAtThePlansKnobsArePinned.)
TEST(ConvGolden, WindowLayersRunClean) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  const TestGenerator& g = find_test_generator("conv.random");
  unsigned windows = 0, low = 0, rounding = 0;
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    const RegisterMap& map = RegisterMap::of(cfg);
    const uint32_t clip = map.address_of(*map.find("CACC.D_CLIP_CFG"));
    const uint32_t scale = map.address_of(*map.find("SDP.D_CVT_SCALE"));
    const uint32_t shift = map.address_of(*map.find("SDP.D_CVT_SHIFT"));
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const Program p = g.generate(cfg, seed, {{"window_percent", "100"}});
      // small is int8 only: every layer gets a window (v1's fp16 layers keep their draws)
      if (std::string(config) == "small") {
        std::vector<uint32_t> clips, shifts;  // one of each per layer, in layer order
        for (const ProgramOp& op : p.ops)
          if (const auto* w = std::get_if<RegWrite>(&op)) {
            if (w->addr == scale) {
              EXPECT_EQ(w->data & 0xffffu, 1u) << config << " seed " << seed;
            }
            if (w->addr == shift) shifts.push_back(w->data & 0x3fu);
            if (w->addr == clip) clips.push_back(w->data & 0x1fu);
          }
        ASSERT_EQ(clips.size(), shifts.size()) << config << " seed " << seed;
        for (size_t i = 0; i < clips.size(); ++i) {
          ++windows;
          if (clips[i] == 0) {
            low += shifts[i] < 4;
          } else {
            EXPECT_EQ(shifts[i], 0u) << config << " seed " << seed << " layer " << i << ": CLIP_TRUNCATE " << clips[i];
            EXPECT_LE(clips[i], 16u) << config << " seed " << seed << " layer " << i;
            ++rounding;
          }
        }
      }
      GoldenModel m(cfg, seed);
      const auto res = test::execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures.front();
      EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings().front();
    }
  }
  EXPECT_EQ(windows, 30u) << "every layer of small (10 seeds x 3 layers) gets a window";
  EXPECT_GE(low, 3u) << "too few CLIP_TRUNCATE 0 windows at the accumulators' lowest bits";
  EXPECT_GE(rounding, 8u) << "too few windows that show CACC's rounding";
}

// sdp_per_element_percent: BS/BN stages take their operands per element from memory
// (SDP_RDMA DATA_MODE = per element, with the operand cube's line and surface strides), also
// in batched layers; the programs run clean on the golden model. (0 leaving the default
// programs unchanged is ConvRandom.ProgramsAtThePlansKnobsArePinned.)
TEST(ConvGolden, PerElementSdpOperandsRunClean) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  const TestGenerator& g = find_test_generator("conv.random");
  unsigned per_element = 0, batched = 0;
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    const RegisterMap& map = RegisterMap::of(cfg);
    const uint32_t brdma = map.address_of(*map.find("SDP_RDMA.D_BRDMA_CFG"));
    const uint32_t nrdma = map.address_of(*map.find("SDP_RDMA.D_NRDMA_CFG"));
    const uint32_t batch = map.address_of(*map.find("SDP.D_FEATURE_MODE_CFG"));
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const Program p = g.generate(cfg, seed, {{"sdp_per_element_percent", "100"}, {"batch_percent", "50"}});
      bool elem = false;
      for (const ProgramOp& op : p.ops)
        if (const auto* w = std::get_if<RegWrite>(&op)) {
          if ((w->addr == brdma || w->addr == nrdma) && (w->data & 1u) == 0 && (w->data & 0x10u)) {
            ++per_element;
            elem = true;
          }
          if (w->addr == batch && ((w->data >> 8) & 0x1fu) != 0 && elem) ++batched;
        }
      GoldenModel m(cfg, seed);
      const auto res = test::execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << config << " seed " << seed << ": " << res.failures.front();
      EXPECT_TRUE(m.warnings().empty()) << config << " seed " << seed << ": " << m.warnings().front();
    }
  }
  EXPECT_GE(per_element, 30u) << "too few per-element operand streams drawn";
  EXPECT_GE(batched, 3u) << "too few batched layers after a per-element operand stream";
}

// sdp_ew_memory_percent: SDP's EW stage takes its ALU and/or MUL operand from memory (ERDMA),
// per kernel and per element, 1 and 2 bytes, both operands in one stream, through the integer
// operand converters, in batched and Winograd layers too; the programs run clean on the
// golden model. (0 leaving the default programs unchanged is ProgramsAtThePlansKnobsArePinned.)
TEST(ConvGolden, EwMemoryOperandsRunClean) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  const TestGenerator& g = find_test_generator("conv.random");
  const HwConfig& cfg = HwConfig::get("v1");
  const RegisterMap& map = RegisterMap::of(cfg);
  const uint32_t erdma = map.address_of(*map.find("SDP_RDMA.D_ERDMA_CFG"));
  const uint32_t alu_cfg = map.address_of(*map.find("SDP.D_DP_EW_ALU_CFG"));
  const uint32_t mul_cfg = map.address_of(*map.find("SDP.D_DP_EW_MUL_CFG"));
  const uint32_t mode = map.address_of(*map.find("SDP.D_FEATURE_MODE_CFG"));
  std::map<std::string, unsigned> seen;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const Program p = g.generate(cfg, seed, {{"sdp_ew_memory_percent", "100"}, {"batch_percent", "50"}});
    bool stream = false;
    for (const ProgramOp& op : p.ops)
      if (const auto* w = std::get_if<RegWrite>(&op)) {
        if (w->addr == erdma) {
          stream = (w->data & 1u) == 0;
          if (!stream) continue;
          ++seen["stream"];
          ++seen[(w->data & 0x10u) ? "per element" : "per kernel"];
          ++seen[(w->data & 0x8u) ? "2 bytes" : "1 byte"];
          if (((w->data >> 1) & 3u) == 2) ++seen["alu and mul"];
        }
        if (stream && (w->addr == alu_cfg || w->addr == mul_cfg) && (w->data & 3u) == 1) ++seen["converter"];
        if (stream && w->addr == mode && ((w->data >> 8) & 0x1fu) != 0) ++seen["batched"];
        if (stream && w->addr == mode && (w->data & 4u)) ++seen["winograd"];
      }
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures.front();
    EXPECT_TRUE(m.warnings().empty()) << "seed " << seed << ": " << m.warnings().front();
  }
  for (const char* what : {"per element", "per kernel", "2 bytes", "1 byte", "alu and mul", "converter", "batched", "winograd"})
    EXPECT_GE(seen[what], 2u) << "too few EW operand streams with " << what;
  EXPECT_GE(seen["stream"], 30u) << "too few EW operand streams (36 layers)";
}

// sdp_operand_pairs_percent=100: every per-element operand stream (BS, BN, EW) carries both
// operands, two bytes each; the programs run clean on the golden model.
TEST(ConvGolden, OperandPairsRunClean) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  const TestGenerator& g = find_test_generator("conv.random");
  const HwConfig& cfg = HwConfig::get("v1");
  const RegisterMap& map = RegisterMap::of(cfg);
  std::set<uint32_t> streams;
  for (const char* name : {"SDP_RDMA.D_BRDMA_CFG", "SDP_RDMA.D_NRDMA_CFG", "SDP_RDMA.D_ERDMA_CFG"})
    streams.insert(map.address_of(*map.find(name)));
  unsigned per_element = 0, paired = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Program p = g.generate(cfg, seed, {{"sdp_per_element_percent", "100"}, {"sdp_ew_memory_percent", "100"},
                                             {"sdp_operand_pairs_percent", "100"}, {"batch_percent", "50"}});
    for (const ProgramOp& op : p.ops)
      if (const auto* w = std::get_if<RegWrite>(&op))
        if (streams.count(w->addr) && (w->data & 1u) == 0 && (w->data & 0x10u)) {
          ++per_element;
          if (((w->data >> 1) & 3u) == 2 && (w->data & 8u)) ++paired;
        }
    GoldenModel m(cfg, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures.front();
    EXPECT_TRUE(m.warnings().empty()) << "seed " << seed << ": " << m.warnings().front();
  }
  EXPECT_GE(per_element, 20u) << "too few per-element operand streams";
  EXPECT_EQ(paired, per_element) << "a per-element stream without both 2-byte operands";
}

// The compared region is exactly SDP's output: every byte of every output atom (pad lanes of
// the last surface included) is written by the golden model, and nothing else is.
TEST(ConvGolden, TheOutputWindowsAreWrittenCompletelyAndNothingElse) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  unsigned clean = 0;
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      const Program p = find_test_generator("conv.random").generate(cfg, seed);
      GoldenModel m(cfg, seed);
      for (const ProgramOp& op : p.ops) {  // loads are not part of the write footprint
        if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes);
        if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
      }
      if (!m.warnings().empty()) continue;  // reported by RandomProgramsRunCleanOnTheGoldenModel
      ++clean;
      std::vector<std::string> problems;
      const auto layers = decode(cfg, p, problems);
      Intervals out[2];
      Kept kept;
      for (const LayerView& l : layers) {
        for (const auto& [port, lo, hi, what] : footprint(cfg, l, kept).writes) out[static_cast<unsigned>(port)].add(lo, hi);
        check_layer(cfg, l, kept);
      }
      for (unsigned pi = 0; pi < 2; ++pi) {
        const SparseMemory& mem = m.memory(static_cast<MemPort>(pi));
        for (const auto& [lo, hi] : out[pi].m) {
          uint64_t missing = 0;
          for (uint64_t a = lo; a < hi; ++a) missing += mem.in_footprint(a) ? 0 : 1;
          EXPECT_EQ(missing, 0u) << config << " seed " << seed << ": output [" << std::hex << lo << ", " << hi << ") not all written";
        }
        uint64_t stray = 0;
        mem.for_each_page_with_footprint([&](uint64_t base, const uint8_t*, const uint8_t*, const uint8_t* f) {
          for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i)
            if (f[i] && !out[pi].covers(base + i, base + i + 1)) ++stray;
        });
        EXPECT_EQ(stray, 0u) << config << " seed " << seed << ": bytes written outside the output windows";
      }
    }
  }
  EXPECT_GT(clean, 40u);
}

TEST(ConvGolden, TheGoldenModelWarnsOnEveryRefusedCase) {
  if (!golden_has_conv()) GTEST_SKIP() << "the golden model has no convolution datapath yet";
  for (const char* config : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(config);
    for (const auto& c : conv_illegal_cases()) {
      if (c.runs || !applies(cfg, c.name)) continue;
      for (uint64_t seed = 1; seed <= 4; ++seed) {
        GoldenModel m(cfg, seed);
        test::execute(conv_illegal_program(cfg, seed, c.name), m);
        EXPECT_FALSE(m.warnings().empty()) << config << " " << c.name << " seed " << seed << ": no warning";
      }
    }
  }
}

}  // namespace
}  // namespace dla
