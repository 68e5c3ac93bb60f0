#include "dla/pdp_layer.h"

#include <fmt/format.h>

#include <algorithm>

#include "dla/numerics/float_convert.h"
#include "dla/regs.gen.h"

namespace dla {

namespace P = reg::PDP;
namespace RD = reg::PDP_RDMA;

const char* pool_method_name(PoolMethod m) {
  switch (m) {
    case PoolMethod::Average: return "average";
    case PoolMethod::Max: return "max";
    case PoolMethod::Min: return "min";
  }
  return "?";
}

uint32_t pdp_output_size(uint32_t in, uint32_t pad_a, uint32_t pad_b, uint32_t k, uint32_t s) {
  const uint64_t plane = uint64_t{pad_a} + in + pad_b;
  if (plane < k || s == 0) return 0;
  return static_cast<uint32_t>((plane - k) / s + 1);
}

uint32_t fp17_of_integer(uint32_t k) {
  if (k == 0) return 0;
  unsigned e = 0;
  while ((k >> (e + 1)) != 0) ++e;
  const uint32_t man = e <= 10 ? (k << (10 - e)) & 0x3FFu : (k >> (e - 10)) & 0x3FFu;
  return ((31u + e) << 10) | man;
}

uint32_t pdp_reciprocal(uint32_t k, bool fp16) {
  if (k == 0) return 0;
  if (!fp16) return (65536u + k / 2) / k;
  if (k == 1) return fp17_of_integer(1);
  // 1/k as a 60-bit fraction; for k <= 16 the truncation never meets a rounding tie.
  return num::ufrac_to_fp17((uint64_t{1} << 60) / k, 60);
}

std::vector<PdpStripe> pdp_stripes(const PdpLayer& l) {
  if (l.split_num == 0) return {PdpStripe{0, l.width, l.pad_left, l.pad_right, 0, l.out_width}};
  const int64_t ov = int64_t{l.kernel_w} - int64_t{l.stride_w};
  const uint32_t n = l.split_num + 1;
  std::vector<PdpStripe> s;
  s.push_back(PdpStripe{0, l.in_first, l.pad_left, 0, 0, l.out_first});
  auto width = [](int64_t w) { return static_cast<uint32_t>(w < 0 ? 0 : w); };
  for (uint32_t j = 1; j + 1 < n; ++j)
    s.push_back(PdpStripe{int64_t{l.in_first} + int64_t{j - 1} * l.in_mid - ov, width(int64_t{l.in_mid} + ov), 0, 0,
                          l.out_first + (j - 1) * l.out_mid, l.out_mid});
  s.push_back(PdpStripe{int64_t{l.in_first} + int64_t{n - 2} * l.in_mid - ov, width(int64_t{l.in_last} + ov), 0,
                        l.pad_right, l.out_first + (n - 2) * l.out_mid, l.out_last});
  return s;
}

uint32_t pdp_open_rows(const PdpLayer& l) {
  if (l.stride_h == 0 || l.stride_h >= l.kernel_h) return 1;
  return (l.kernel_h + l.stride_h - 1) / l.stride_h;
}

uint32_t pdp_line_buffer_columns(const PdpLayer& l, const HwConfig& cfg) {
  uint32_t cols = cfg.pdp_max_stripe_columns;
  if (cfg.pdp_line_buffer_atoms != 0) {
    uint32_t share = 1;
    while (share < pdp_open_rows(l)) share *= 2;
    const uint32_t shared = cfg.pdp_line_buffer_atoms / share;
    cols = cols == 0 ? shared : std::min(cols, shared);
  }
  return cols;
}

namespace {
uint32_t unused_extent(uint32_t in, uint32_t pad_a, uint32_t pad_b, uint32_t k, uint32_t s) {
  const uint64_t plane = uint64_t{pad_a} + in + pad_b;
  if (plane < k || s == 0) return 0;
  return static_cast<uint32_t>((plane - k) % s);
}
// Shrinks pad_b, then in, by the unused extent.
void trim_extent(uint32_t& in, uint32_t& pad_b, uint32_t unused) {
  const uint32_t from_pad = std::min(pad_b, unused);
  pad_b -= from_pad;
  in -= unused - from_pad;
}
}  // namespace

uint32_t pdp_unused_rows(const PdpLayer& l) {
  return unused_extent(l.height, l.pad_top, l.pad_bottom, l.kernel_h, l.stride_h);
}
uint32_t pdp_unused_columns(const PdpLayer& l) {
  return unused_extent(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
}

void pdp_trim_unused_edges(PdpLayer& l) {
  // The plane keeps at least one kernel and pad_a < kernel: at least one input element stays.
  trim_extent(l.height, l.pad_bottom, pdp_unused_rows(l));
  trim_extent(l.width, l.pad_right, pdp_unused_columns(l));
}

std::vector<std::string> pdp_layer_violations(const PdpLayer& l, const HwConfig& cfg) {
  std::vector<std::string> v;
  if (l.format > 2) v.push_back(fmt::format("D_DATA_FORMAT.INPUT_DATA={} is reserved (0 int8, 1 int16, 2 fp16)", l.format));
  else if (!cfg.supports(static_cast<Precision>(l.format)))
    v.push_back(fmt::format("D_DATA_FORMAT: configuration '{}' does not support {} (spec §0.1)", cfg.name,
                            precision_name(static_cast<Precision>(l.format))));
  if (l.method > 2) v.push_back(fmt::format("D_OPERATION_MODE_CFG.POOLING_METHOD={} is reserved", l.method));
  if (l.kernel_w > 8 || l.kernel_h > 8)
    v.push_back(fmt::format("D_POOLING_KERNEL_CFG: kernel {}x{} outside 1..8 (spec §1.4)", l.kernel_w, l.kernel_h));
  if (l.pad_left >= l.kernel_w || l.pad_right >= l.kernel_w || l.pad_top >= l.kernel_h || l.pad_bottom >= l.kernel_h)
    v.push_back(fmt::format("D_POOLING_PADDING_CFG: pads l{} t{} r{} b{} must be below the kernel {}x{} so that every "
                            "window holds a real element (spec §1.4)",
                            l.pad_left, l.pad_top, l.pad_right, l.pad_bottom, l.kernel_w, l.kernel_h));
  if (l.out_channels != l.channels)
    v.push_back(fmt::format("D_DATA_CUBE_OUT_CHANNEL: {} channels out, {} in; they must be equal (spec §1.4)",
                            l.out_channels, l.channels));
  const uint32_t ow = pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
  const uint32_t oh = pdp_output_size(l.height, l.pad_top, l.pad_bottom, l.kernel_h, l.stride_h);
  if (l.out_height != oh)
    v.push_back(fmt::format("D_DATA_CUBE_OUT_HEIGHT: {} rows programmed, floor((pt+H+pb-kh)/sh)+1 = {} (spec §1.4)",
                            l.out_height, oh));
  if (l.split_num == 0) {
    if (l.out_width != ow)
      v.push_back(fmt::format("D_DATA_CUBE_OUT_WIDTH: {} columns programmed, floor((pl+W+pr-kw)/sw)+1 = {} (spec §1.4)",
                              l.out_width, ow));
  } else {
    const uint32_t n = l.split_num + 1;
    const int64_t ov = int64_t{l.kernel_w} - int64_t{l.stride_w};
    const int64_t sw = l.stride_w;
    auto outputs = [&](int64_t plane) { return plane < l.kernel_w ? 0 : (plane - l.kernel_w) / sw + 1; };
    const uint64_t in_sum = uint64_t{l.in_first} + uint64_t{n - 2} * l.in_mid + l.in_last;
    const uint64_t out_sum = uint64_t{l.out_first} + uint64_t{n - 2} * l.out_mid + l.out_last;
    if (in_sum != l.width)
      v.push_back(fmt::format("D_PARTIAL_WIDTH_IN: first {} + {} x mid {} + last {} = {} differs from the width {} "
                              "(spec §1.11)", l.in_first, n - 2, l.in_mid, l.in_last, in_sum, l.width));
    if (out_sum != ow)
      v.push_back(fmt::format("D_PARTIAL_WIDTH_OUT: first {} + {} x mid {} + last {} = {} differs from the output "
                              "width {} (spec §1.11)", l.out_first, n - 2, l.out_mid, l.out_last, out_sum, ow));
    if (outputs(int64_t{l.pad_left} + l.in_first) != l.out_first ||
        int64_t{l.out_first} * sw - l.pad_left + ov != l.in_first)
      v.push_back(fmt::format("D_PARTIAL_WIDTH_IN/OUT: first stripe of {} inputs gives {} outputs, {} programmed; "
                              "it must hold Fi = Fo*sw - pl + kw - sw (spec §1.11)",
                              l.in_first, outputs(int64_t{l.pad_left} + l.in_first), l.out_first));
    if (n > 2 && int64_t{l.in_mid} != int64_t{l.out_mid} * sw)
      v.push_back(fmt::format("D_PARTIAL_WIDTH_IN/OUT: middle stripes of {} inputs must be {} outputs x stride {} "
                              "(spec §1.11)", l.in_mid, l.out_mid, sw));
    if (outputs(int64_t{l.in_last} + ov + l.pad_right) != l.out_last)
      v.push_back(fmt::format("D_PARTIAL_WIDTH_IN/OUT: last stripe of {} inputs gives {} outputs, {} programmed "
                              "(spec §1.11)", l.in_last, outputs(int64_t{l.in_last} + ov + l.pad_right), l.out_last));
    for (const PdpStripe& s : pdp_stripes(l))
      if (s.in_start < 0 || s.in_width == 0) {
        v.push_back("D_PARTIAL_WIDTH_IN: a stripe starts before column 0 or has no input columns (spec §1.11)");
        break;
      }
  }
  if (const uint32_t cols = pdp_line_buffer_columns(l, cfg); cols != 0)
    for (const PdpStripe& s : pdp_stripes(l))
      if (s.out_width > cols) {
        v.push_back(fmt::format("{}: a stripe of {} output columns exceeds the {} that configuration '{}''s line "
                                "buffer holds with {} open input rows (kernel height {}, stride {}); split the layer "
                                "(docs/pdp.md)", l.split_num == 0 ? "D_DATA_CUBE_OUT_WIDTH" : "D_PARTIAL_WIDTH_OUT",
                                s.out_width, cols, cfg.name, pdp_open_rows(l), l.kernel_h, l.stride_h));
        break;
      }
  const uint64_t atom = cfg.atom_bytes;
  if (l.src % atom || l.src_line % atom || l.src_surface % atom || l.dst % atom || l.dst_line % atom ||
      l.dst_surface % atom)
    v.push_back(fmt::format("source/destination address and strides must be multiples of the {}-byte atom "
                            "(spec §0.4)", atom));
  return v;
}

bool pdp_set_split(PdpLayer& l, const HwConfig& cfg, uint32_t stripes, uint32_t out_first, uint32_t out_mid) {
  if (stripes < 2 || stripes > 256 || out_first == 0 || out_mid == 0) return false;
  const int64_t ov = int64_t{l.kernel_w} - int64_t{l.stride_w}, n = stripes;
  const int64_t ow = pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
  const int64_t fi = int64_t{out_first} * l.stride_w - l.pad_left + ov;
  const int64_t mi = int64_t{out_mid} * l.stride_w;
  const int64_t lo = ow - out_first - (n - 2) * out_mid;
  const int64_t li = int64_t{l.width} - fi - (n - 2) * mi;
  auto field_ok = [](int64_t v) { return v >= 1 && v <= 1024; };
  if (!field_ok(fi) || !field_ok(mi) || !field_ok(lo) || !field_ok(li) || out_first > 1024 || out_mid > 1024)
    return false;
  PdpLayer t = l;
  t.split_num = stripes - 1;
  t.in_first = static_cast<uint32_t>(fi), t.in_mid = static_cast<uint32_t>(mi), t.in_last = static_cast<uint32_t>(li);
  t.out_first = out_first, t.out_mid = out_mid, t.out_last = static_cast<uint32_t>(lo);
  if (stripes == 2) t.in_mid = t.out_mid = 1;  // unused with two stripes
  if (!pdp_layer_violations(t, cfg).empty()) return false;
  l = t;
  return true;
}

namespace {
uint32_t minus1(uint32_t v) { return v == 0 ? 0 : v - 1; }
uint64_t addr(const RegisterSnapshot& s, uint32_t low, uint32_t high) {
  return (uint64_t{s.get(high)} << 32) | s.get(low);
}
MemPort port_of(uint32_t ram_type) { return ram_type == 1 ? MemPort::Dbb : MemPort::Sram; }
uint32_t ram_type_of(MemPort p) { return p == MemPort::Dbb ? 1u : 0u; }
uint32_t partial(uint32_t first, uint32_t last, uint32_t mid) {
  return (minus1(first) & 0x3FFu) | (minus1(last) & 0x3FFu) << 10 | (minus1(mid) & 0x3FFu) << 20;
}
}  // namespace

PdpLayer decode_pdp_registers(const RegisterSnapshot& r) {
  PdpLayer l;
  l.format = r.field<P::D_DATA_FORMAT, P::D_DATA_FORMAT::INPUT_DATA>();
  l.method = r.field<P::D_OPERATION_MODE_CFG, P::D_OPERATION_MODE_CFG::POOLING_METHOD>();
  l.off_flying = r.field<P::D_OPERATION_MODE_CFG, P::D_OPERATION_MODE_CFG::FLYING_MODE>() == 1;
  l.split_num = r.field<P::D_OPERATION_MODE_CFG, P::D_OPERATION_MODE_CFG::SPLIT_NUM>();
  l.nan_to_zero = r.field<P::D_NAN_FLUSH_TO_ZERO, P::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO>() == 1;
  l.width = r.field<P::D_DATA_CUBE_IN_WIDTH, P::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH>() + 1;
  l.height = r.field<P::D_DATA_CUBE_IN_HEIGHT, P::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT>() + 1;
  l.channels = r.field<P::D_DATA_CUBE_IN_CHANNEL, P::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL>() + 1;
  l.out_width = r.field<P::D_DATA_CUBE_OUT_WIDTH, P::D_DATA_CUBE_OUT_WIDTH::CUBE_OUT_WIDTH>() + 1;
  l.out_height = r.field<P::D_DATA_CUBE_OUT_HEIGHT, P::D_DATA_CUBE_OUT_HEIGHT::CUBE_OUT_HEIGHT>() + 1;
  l.out_channels = r.field<P::D_DATA_CUBE_OUT_CHANNEL, P::D_DATA_CUBE_OUT_CHANNEL::CUBE_OUT_CHANNEL>() + 1;
  l.kernel_w = r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_WIDTH>() + 1;
  l.kernel_h = r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_HEIGHT>() + 1;
  l.stride_w = r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH>() + 1;
  l.stride_h = r.field<P::D_POOLING_KERNEL_CFG, P::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT>() + 1;
  l.pad_left = r.field<P::D_POOLING_PADDING_CFG, P::D_POOLING_PADDING_CFG::PAD_LEFT>();
  l.pad_top = r.field<P::D_POOLING_PADDING_CFG, P::D_POOLING_PADDING_CFG::PAD_TOP>();
  l.pad_right = r.field<P::D_POOLING_PADDING_CFG, P::D_POOLING_PADDING_CFG::PAD_RIGHT>();
  l.pad_bottom = r.field<P::D_POOLING_PADDING_CFG, P::D_POOLING_PADDING_CFG::PAD_BOTTOM>();
  l.recip_w = r.field<P::D_RECIP_KERNEL_WIDTH, P::D_RECIP_KERNEL_WIDTH::RECIP_KERNEL_WIDTH>();
  l.recip_h = r.field<P::D_RECIP_KERNEL_HEIGHT, P::D_RECIP_KERNEL_HEIGHT::RECIP_KERNEL_HEIGHT>();
  for (unsigned n = 0; n < 7; ++n)
    l.pad_value[n] = r.get(P::D_POOLING_PADDING_VALUE_1_CFG::offset + 4 * n) & 0x7FFFFu;
  const uint32_t pin = r.get(P::D_PARTIAL_WIDTH_IN::offset), pout = r.get(P::D_PARTIAL_WIDTH_OUT::offset);
  l.in_first = P::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_FIRST::get(pin) + 1;
  l.in_last = P::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_LAST::get(pin) + 1;
  l.in_mid = P::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_MID::get(pin) + 1;
  l.out_first = P::D_PARTIAL_WIDTH_OUT::PARTIAL_WIDTH_OUT_FIRST::get(pout) + 1;
  l.out_last = P::D_PARTIAL_WIDTH_OUT::PARTIAL_WIDTH_OUT_LAST::get(pout) + 1;
  l.out_mid = P::D_PARTIAL_WIDTH_OUT::PARTIAL_WIDTH_OUT_MID::get(pout) + 1;
  l.src = addr(r, P::D_SRC_BASE_ADDR_LOW::offset, P::D_SRC_BASE_ADDR_HIGH::offset);
  l.src_line = r.get(P::D_SRC_LINE_STRIDE::offset);
  l.src_surface = r.get(P::D_SRC_SURFACE_STRIDE::offset);
  l.dst = addr(r, P::D_DST_BASE_ADDR_LOW::offset, P::D_DST_BASE_ADDR_HIGH::offset);
  l.dst_line = r.get(P::D_DST_LINE_STRIDE::offset);
  l.dst_surface = r.get(P::D_DST_SURFACE_STRIDE::offset);
  l.dst_port = port_of(r.field<P::D_DST_RAM_CFG, P::D_DST_RAM_CFG::DST_RAM_TYPE>());
  return l;
}

PdpLayer decode_pdp_rdma_registers(const RegisterSnapshot& r) {
  PdpLayer l;
  l.format = r.field<RD::D_DATA_FORMAT, RD::D_DATA_FORMAT::INPUT_DATA>();
  l.off_flying = r.field<RD::D_FLYING_MODE, RD::D_FLYING_MODE::FLYING_MODE>() == 1;
  l.split_num = r.field<RD::D_OPERATION_MODE_CFG, RD::D_OPERATION_MODE_CFG::SPLIT_NUM>();
  l.width = r.field<RD::D_DATA_CUBE_IN_WIDTH, RD::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH>() + 1;
  l.height = r.field<RD::D_DATA_CUBE_IN_HEIGHT, RD::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT>() + 1;
  l.channels = r.field<RD::D_DATA_CUBE_IN_CHANNEL, RD::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL>() + 1;
  l.kernel_w = r.field<RD::D_POOLING_KERNEL_CFG, RD::D_POOLING_KERNEL_CFG::KERNEL_WIDTH>() + 1;
  l.stride_w = r.field<RD::D_POOLING_KERNEL_CFG, RD::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH>() + 1;
  l.pad_left = r.field<RD::D_POOLING_PADDING_CFG, RD::D_POOLING_PADDING_CFG::PAD_WIDTH>();
  const uint32_t pin = r.get(RD::D_PARTIAL_WIDTH_IN::offset);
  l.in_first = RD::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_FIRST::get(pin) + 1;
  l.in_last = RD::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_LAST::get(pin) + 1;
  l.in_mid = RD::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_MID::get(pin) + 1;
  l.src = addr(r, RD::D_SRC_BASE_ADDR_LOW::offset, RD::D_SRC_BASE_ADDR_HIGH::offset);
  l.src_line = r.get(RD::D_SRC_LINE_STRIDE::offset);
  l.src_surface = r.get(RD::D_SRC_SURFACE_STRIDE::offset);
  l.src_port = port_of(r.field<RD::D_SRC_RAM_CFG, RD::D_SRC_RAM_CFG::SRC_RAM_TYPE>());
  return l;
}

std::vector<std::string> pdp_rdma_mismatches(const PdpLayer& c, const PdpLayer& r) {
  std::vector<std::string> m;
  auto check = [&](const char* what, uint64_t a, uint64_t b) {
    if (a != b) m.push_back(fmt::format("{} (PDP {}, PDP_RDMA {})", what, a, b));
  };
  check("D_DATA_CUBE_IN_WIDTH", c.width, r.width);
  check("D_DATA_CUBE_IN_HEIGHT", c.height, r.height);
  check("D_DATA_CUBE_IN_CHANNEL", c.channels, r.channels);
  check("D_DATA_FORMAT", c.format, r.format);
  check("kernel width", c.kernel_w, r.kernel_w);
  check("kernel stride width", c.stride_w, r.stride_w);
  check("SPLIT_NUM", c.split_num, r.split_num);
  if (c.split_num != 0) {
    check("PARTIAL_WIDTH_IN_FIRST", c.in_first, r.in_first);
    check("PARTIAL_WIDTH_IN_LAST", c.in_last, r.in_last);
    check("PARTIAL_WIDTH_IN_MID", c.in_mid, r.in_mid);
  }
  return m;
}

std::vector<std::pair<uint32_t, uint32_t>> pdp_register_values(const PdpLayer& l) {
  std::vector<std::pair<uint32_t, uint32_t>> v;
  v.emplace_back(P::D_DATA_CUBE_IN_WIDTH::offset, minus1(l.width));
  v.emplace_back(P::D_DATA_CUBE_IN_HEIGHT::offset, minus1(l.height));
  v.emplace_back(P::D_DATA_CUBE_IN_CHANNEL::offset, minus1(l.channels));
  v.emplace_back(P::D_DATA_CUBE_OUT_WIDTH::offset, minus1(l.out_width));
  v.emplace_back(P::D_DATA_CUBE_OUT_HEIGHT::offset, minus1(l.out_height));
  v.emplace_back(P::D_DATA_CUBE_OUT_CHANNEL::offset, minus1(l.out_channels));
  uint32_t mode = P::D_OPERATION_MODE_CFG::POOLING_METHOD::put(0, l.method);
  mode = P::D_OPERATION_MODE_CFG::FLYING_MODE::put(mode, l.off_flying ? 1 : 0);
  mode = P::D_OPERATION_MODE_CFG::SPLIT_NUM::put(mode, l.split_num);
  v.emplace_back(P::D_OPERATION_MODE_CFG::offset, mode);
  v.emplace_back(P::D_NAN_FLUSH_TO_ZERO::offset, l.nan_to_zero ? 1u : 0u);
  v.emplace_back(P::D_PARTIAL_WIDTH_IN::offset, partial(l.in_first, l.in_last, l.in_mid));
  v.emplace_back(P::D_PARTIAL_WIDTH_OUT::offset, partial(l.out_first, l.out_last, l.out_mid));
  uint32_t k = P::D_POOLING_KERNEL_CFG::KERNEL_WIDTH::put(0, minus1(l.kernel_w));
  k = P::D_POOLING_KERNEL_CFG::KERNEL_HEIGHT::put(k, minus1(l.kernel_h));
  k = P::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH::put(k, minus1(l.stride_w));
  k = P::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT::put(k, minus1(l.stride_h));
  v.emplace_back(P::D_POOLING_KERNEL_CFG::offset, k);
  v.emplace_back(P::D_RECIP_KERNEL_WIDTH::offset, l.recip_w & 0x1FFFFu);
  v.emplace_back(P::D_RECIP_KERNEL_HEIGHT::offset, l.recip_h & 0x1FFFFu);
  uint32_t pad = P::D_POOLING_PADDING_CFG::PAD_LEFT::put(0, l.pad_left);
  pad = P::D_POOLING_PADDING_CFG::PAD_TOP::put(pad, l.pad_top);
  pad = P::D_POOLING_PADDING_CFG::PAD_RIGHT::put(pad, l.pad_right);
  pad = P::D_POOLING_PADDING_CFG::PAD_BOTTOM::put(pad, l.pad_bottom);
  v.emplace_back(P::D_POOLING_PADDING_CFG::offset, pad);
  for (unsigned n = 0; n < 7; ++n)
    v.emplace_back(P::D_POOLING_PADDING_VALUE_1_CFG::offset + 4 * n, l.pad_value[n] & 0x7FFFFu);
  v.emplace_back(P::D_SRC_BASE_ADDR_LOW::offset, static_cast<uint32_t>(l.src));
  v.emplace_back(P::D_SRC_BASE_ADDR_HIGH::offset, static_cast<uint32_t>(l.src >> 32));
  v.emplace_back(P::D_SRC_LINE_STRIDE::offset, static_cast<uint32_t>(l.src_line));
  v.emplace_back(P::D_SRC_SURFACE_STRIDE::offset, static_cast<uint32_t>(l.src_surface));
  v.emplace_back(P::D_DST_BASE_ADDR_LOW::offset, static_cast<uint32_t>(l.dst));
  v.emplace_back(P::D_DST_BASE_ADDR_HIGH::offset, static_cast<uint32_t>(l.dst >> 32));
  v.emplace_back(P::D_DST_LINE_STRIDE::offset, static_cast<uint32_t>(l.dst_line));
  v.emplace_back(P::D_DST_SURFACE_STRIDE::offset, static_cast<uint32_t>(l.dst_surface));
  v.emplace_back(P::D_DST_RAM_CFG::offset, ram_type_of(l.dst_port));
  v.emplace_back(P::D_DATA_FORMAT::offset, l.format);
  return v;
}

std::vector<std::pair<uint32_t, uint32_t>> pdp_rdma_register_values(const PdpLayer& l) {
  std::vector<std::pair<uint32_t, uint32_t>> v;
  v.emplace_back(RD::D_DATA_CUBE_IN_WIDTH::offset, minus1(l.width));
  v.emplace_back(RD::D_DATA_CUBE_IN_HEIGHT::offset, minus1(l.height));
  v.emplace_back(RD::D_DATA_CUBE_IN_CHANNEL::offset, minus1(l.channels));
  v.emplace_back(RD::D_FLYING_MODE::offset, l.off_flying ? 1u : 0u);
  v.emplace_back(RD::D_SRC_BASE_ADDR_LOW::offset, static_cast<uint32_t>(l.src));
  v.emplace_back(RD::D_SRC_BASE_ADDR_HIGH::offset, static_cast<uint32_t>(l.src >> 32));
  v.emplace_back(RD::D_SRC_LINE_STRIDE::offset, static_cast<uint32_t>(l.src_line));
  v.emplace_back(RD::D_SRC_SURFACE_STRIDE::offset, static_cast<uint32_t>(l.src_surface));
  v.emplace_back(RD::D_SRC_RAM_CFG::offset, ram_type_of(l.src_port));
  v.emplace_back(RD::D_DATA_FORMAT::offset, l.format);
  v.emplace_back(RD::D_OPERATION_MODE_CFG::offset, l.split_num & 0xFFu);
  uint32_t k = RD::D_POOLING_KERNEL_CFG::KERNEL_WIDTH::put(0, minus1(l.kernel_w));
  k = RD::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH::put(k, minus1(l.stride_w));
  v.emplace_back(RD::D_POOLING_KERNEL_CFG::offset, k);
  v.emplace_back(RD::D_POOLING_PADDING_CFG::offset, l.pad_left);
  v.emplace_back(RD::D_PARTIAL_WIDTH_IN::offset, partial(l.in_first, l.in_last, l.in_mid));
  return v;
}

}  // namespace dla
