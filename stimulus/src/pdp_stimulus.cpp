#include "pdp_stimulus.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/regs.gen.h"
#include "region_start.h"
#include "wide_fp16_values.h"

namespace dla::stimulus {

namespace {

namespace P = reg::PDP;
namespace RD = reg::PDP_RDMA;

uint32_t pick_kernel(Rng& r) { return r.chance(0.5) ? static_cast<uint32_t>(r.uniform(1, 3)) : static_cast<uint32_t>(r.uniform(1, 8)); }

uint32_t pick_stride(Rng& r, uint32_t k) {
  if (r.chance(0.6)) return static_cast<uint32_t>(r.uniform(1, k));
  if (r.chance(0.75)) return static_cast<uint32_t>(r.uniform(1, std::min<uint32_t>(16, k + 2)));
  return static_cast<uint32_t>(r.uniform(1, 16));
}

uint32_t pick_pad(Rng& r, uint32_t k) { return r.chance(0.5) ? 0 : static_cast<uint32_t>(r.uniform(0, k - 1)); }

// Input extent along one axis: the padded plane must hold one kernel; sometimes the kernel
// is larger than the input.
uint32_t pick_extent(Rng& r, uint32_t k, uint32_t pad_a, uint32_t pad_b, uint32_t max) {
  const uint32_t lo = std::max<int64_t>(1, int64_t{k} - pad_a - pad_b);
  const uint32_t hi = std::max(lo, max);
  if (lo < k && r.chance(0.2)) return static_cast<uint32_t>(r.uniform(lo, std::min(hi, k - 1)));
  return static_cast<uint32_t>(r.uniform(lo, hi));
}

// Pads around a single element so that the padded plane holds the kernel.
void pads_for_one(Rng& r, uint32_t k, uint32_t& a, uint32_t& b) {
  a = static_cast<uint32_t>(r.uniform(0, k - 1));
  b = static_cast<uint32_t>(r.uniform(k - 1 - a, k - 1));
}

uint16_t random_fp16_normal(Rng& r) {
  const uint32_t s = r.chance(0.5) ? 1 : 0;
  const uint32_t e = static_cast<uint32_t>(r.uniform(10, 20));
  return static_cast<uint16_t>(s << 15 | e << 10 | r.uniform(0, 0x3FF));
}

uint16_t random_fp16(Rng& r) {
  if (!r.chance(0.12)) return random_fp16_normal(r);
  const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
  switch (r.below(6)) {
    case 0: return sign;                                                          // +-0
    case 1: return sign | 0x7C00;                                                 // +-Inf
    case 2: return static_cast<uint16_t>(sign | 0x7C00 | r.uniform(1, 0x3FF));    // NaN
    case 3: return static_cast<uint16_t>(sign | r.uniform(1, 0x3FF));             // subnormal
    case 4: return sign | 0x7BFF;                                                 // max finite
    default: return static_cast<uint16_t>(sign | 0x0400 | r.uniform(0, 0x3FF));  // smallest normals
  }
}

int64_t random_int(Rng& r, unsigned bits) {
  const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
  if (r.chance(0.15)) {
    const int64_t extremes[] = {lo, hi, 0, -1, 1, lo + 1, hi - 1};
    return extremes[r.below(7)];
  }
  return r.uniform_signed(lo, hi);
}

// Kernel, stride, pads and extent of a layer as the default draw makes them.
void draw_usual_shape(PdpLayer& l, Rng& r, const PdpShapeLimits& lim) {
  l.kernel_w = pick_kernel(r), l.kernel_h = pick_kernel(r);
  l.stride_w = pick_stride(r, l.kernel_w), l.stride_h = pick_stride(r, l.kernel_h);
  if (r.chance(0.08)) {  // 1x1x1 cube
    l.width = l.height = l.channels = 1;
    pads_for_one(r, l.kernel_w, l.pad_left, l.pad_right);
    pads_for_one(r, l.kernel_h, l.pad_top, l.pad_bottom);
  } else {
    l.pad_left = pick_pad(r, l.kernel_w), l.pad_right = pick_pad(r, l.kernel_w);
    l.pad_top = pick_pad(r, l.kernel_h), l.pad_bottom = pick_pad(r, l.kernel_h);
    l.width = pick_extent(r, l.kernel_w, l.pad_left, l.pad_right, lim.max_width);
    l.height = pick_extent(r, l.kernel_h, l.pad_top, l.pad_bottom, lim.max_height);
    l.channels = r.chance(0.1) ? 1 : static_cast<uint32_t>(r.uniform(1, lim.max_channels));
  }
}

// The largest kernel (8 x 8) with leading pads of 7: with stride 1 the first row and column each
// open eight windows at once, every slot of the width and height passes (stride 2: four). The
// default draw makes such a layer about once in a thousand.
void draw_full_kernel_shape(PdpLayer& l, Rng& r, const PdpShapeLimits& lim) {
  const bool eight = !lim.full_kernel_any_size || r.chance(0.5);  // no draw for 8x8 only: seeds keep their layers
  l.kernel_w = eight ? 8 : static_cast<uint32_t>(r.uniform(2, 7));
  l.kernel_h = eight ? 8 : static_cast<uint32_t>(r.uniform(2, 7));
  l.stride_w = static_cast<uint32_t>(r.uniform(1, 2)), l.stride_h = static_cast<uint32_t>(r.uniform(1, 2));
  l.pad_left = l.kernel_w - 1, l.pad_top = l.kernel_h - 1;
  l.pad_right = static_cast<uint32_t>(r.uniform(0, l.kernel_w - 1));
  l.pad_bottom = static_cast<uint32_t>(r.uniform(0, l.kernel_h - 1));
  l.width = pick_extent(r, l.kernel_w, l.pad_left, l.pad_right, lim.max_width);
  l.height = pick_extent(r, l.kernel_h, l.pad_top, l.pad_bottom, lim.max_height);
  l.channels = static_cast<uint32_t>(r.uniform(1, lim.max_channels));
}

// Narrows an unsplit layer until its output fits the line buffer (no random draws).
void narrow_to_line_buffer(PdpLayer& l, const HwConfig& cfg) {
  const uint32_t cols = pdp_line_buffer_columns(l, cfg);
  if (cols == 0 || l.out_width <= cols) return;
  // (pl + W + pr - kw) / sw + 1 <= cols; positive because pads are below the kernel
  const int64_t w = int64_t{cols - 1} * l.stride_w + l.kernel_w - l.pad_left - l.pad_right;
  l.width = static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>(l.width, w)));
  l.out_width = pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
}

// Splits a layer whose stripes do not fit the line buffer into the fewest stripes that do
// (no random draws). Returns false when no consistent split exists.
bool split_for_line_buffer(PdpLayer& l, const HwConfig& cfg) {
  const uint32_t cols = pdp_line_buffer_columns(l, cfg);
  // A middle stripe reads Mo * sw columns, and its partial width field holds at most 1024.
  const uint32_t mid = std::max<uint32_t>(1, std::min<uint32_t>(cols, 1024 / l.stride_w));
  PdpLayer whole = l;
  whole.split_num = 0;
  for (uint32_t n = std::max<uint32_t>(2, (l.out_width + mid - 1) / mid); n <= std::min<uint32_t>(l.out_width, 256); ++n)
    for (uint32_t fo = cols; fo >= 1; --fo) {
      PdpLayer t = whole;
      if (pdp_set_split(t, cfg, n, fo, mid)) {
        l = t;
        return true;
      }
    }
  return false;
}

}  // namespace

bool avoid_nvdla_errata_knob(const std::string& value) { return value == "avoid"; }

void set_pdp_fp16_pad_value(PdpLayer& l, uint16_t value) {
  const uint32_t v = num::fp16_to_fp17(value);
  for (uint32_t n = 1; n <= 7; ++n) l.pad_value[n - 1] = num::mul17(v, fp17_of_integer(n));
}

PdpLayer random_pdp_layer(const HwConfig& cfg, Rng& r, const PdpShapeLimits& lim) {
  std::vector<Precision> precisions;
  for (Precision p : cfg.precisions)
    if (lim.precisions.empty() || std::find(lim.precisions.begin(), lim.precisions.end(), p) != lim.precisions.end())
      precisions.push_back(p);
  if (precisions.empty())
    throw std::invalid_argument("PDP layer: none of the requested precisions exists in configuration '" + cfg.name + "'");
  PdpLayer l;
  l.format = static_cast<uint32_t>(r.choice(precisions));
  l.method = static_cast<uint32_t>(r.choice(lim.methods));
  if (lim.full_kernel_percent > 0 && r.below(100) < lim.full_kernel_percent)
    draw_full_kernel_shape(l, r, lim);
  else
    draw_usual_shape(l, r, lim);
  l.out_channels = l.channels;
  l.out_width = pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
  l.out_height = pdp_output_size(l.height, l.pad_top, l.pad_bottom, l.kernel_h, l.stride_h);
  if (!lim.split_allowed) narrow_to_line_buffer(l, cfg);
  if (lim.avoid_nvdla_errata) pdp_trim_unused_edges(l);

  const bool fp16 = l.is_fp16();
  l.nan_to_zero = fp16 && r.chance(0.5);
  l.recip_w = pdp_reciprocal(l.kernel_w, fp16);
  l.recip_h = pdp_reciprocal(l.kernel_h, fp16);
  if (r.chance(lim.nonstandard_recip_percent / 100.0)) {  // still exact: RND / mul17 define the result
    auto any = [&]() {
      return fp16 ? static_cast<uint32_t>(r.uniform(24, 33) << 10 | r.uniform(0, 0x3FF))
                  : static_cast<uint32_t>(r.uniform(0, 0x1FFFF));
    };
    l.recip_w = any();
    if (r.chance(0.5)) l.recip_h = any();
  }
  if (fp16) {
    set_pdp_fp16_pad_value(l, random_fp16(r));
  } else {
    const int64_t v = random_int(r, l.format == 0 ? 8 : 16);
    for (uint32_t n = 1; n <= 7; ++n) l.pad_value[n - 1] = static_cast<uint32_t>(v * n) & 0x7FFFFu;
  }
  if (l.out_width >= 2 && r.chance(lim.split_percent / 100.0)) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      const uint32_t n = static_cast<uint32_t>(r.uniform(2, std::min<uint32_t>(l.out_width, 5)));
      const uint32_t fo = static_cast<uint32_t>(r.uniform(1, l.out_width - (n - 1)));
      const uint32_t mo = static_cast<uint32_t>(r.uniform(1, std::max<uint32_t>(1, (l.out_width - fo) / (n - 1))));
      if (pdp_set_split(l, cfg, n, fo, mo)) break;
    }
  }
  const uint32_t cols = pdp_line_buffer_columns(l, cfg);
  // (an unsplittable layer was narrowed above, so it never gets here)
  if (cols != 0 && l.split_num == 0 && l.out_width > cols) {
    bool fits = lim.split_allowed && split_for_line_buffer(l, cfg);
    // Wider than 256 stripes hold (a tall kernel leaves a stripe few columns: 7031 columns under
    // a 7-row kernel on small): halve the width until it splits or fits (no random draws).
    while (!fits && lim.split_allowed && l.width > 1) {
      l.width /= 2;
      l.out_width = pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
      if (lim.avoid_nvdla_errata) pdp_trim_unused_edges(l);
      fits = l.out_width <= cols || split_for_line_buffer(l, cfg);
    }
    if (!fits) throw std::logic_error("random_pdp_layer: no split fits the line buffer: " + describe_pdp_layer(l));
  }
  const auto v = pdp_layer_violations(l, cfg);
  if (!v.empty()) throw std::logic_error("random_pdp_layer made an illegal layer: " + v[0]);
  return l;
}

std::optional<PdpLayer> random_pdp_layer_for_cube(const HwConfig& cfg, Rng& r, const PdpShapeLimits& lim, uint32_t width,
                                                  uint32_t height, uint32_t channels, Precision format) {
  PdpLayer l;
  l.format = static_cast<uint32_t>(format);
  l.method = static_cast<uint32_t>(r.choice(lim.methods));
  l.off_flying = false;
  l.width = width, l.height = height, l.channels = l.out_channels = channels;
  auto axis = [&](uint32_t size, uint32_t& k, uint32_t& s, uint32_t& lo, uint32_t& hi) {
    k = std::min<uint32_t>(pick_kernel(r), size + 2);  // padding makes up at most two columns here
    s = pick_stride(r, k);
    lo = pick_pad(r, k), hi = pick_pad(r, k);
    while (lo + size + hi < k) ++hi;  // at least one window (pads stay below the kernel: k <= size + 2)
  };
  axis(width, l.kernel_w, l.stride_w, l.pad_left, l.pad_right);
  axis(height, l.kernel_h, l.stride_h, l.pad_top, l.pad_bottom);
  if (l.pad_right >= l.kernel_w || l.pad_bottom >= l.kernel_h) return std::nullopt;
  l.out_width = pdp_output_size(l.width, l.pad_left, l.pad_right, l.kernel_w, l.stride_w);
  l.out_height = pdp_output_size(l.height, l.pad_top, l.pad_bottom, l.kernel_h, l.stride_h);
  if (lim.avoid_nvdla_errata) {
    PdpLayer t = l;
    pdp_trim_unused_edges(t);
    if (t.width != l.width || t.height != l.height || t.pad_right != l.pad_right || t.pad_bottom != l.pad_bottom)
      return std::nullopt;
  }
  const uint32_t cols = pdp_line_buffer_columns(l, cfg);
  if (cols != 0 && l.out_width > cols) return std::nullopt;
  const bool fp16 = l.is_fp16();
  l.nan_to_zero = fp16 && r.chance(0.5);
  l.recip_w = pdp_reciprocal(l.kernel_w, fp16);
  l.recip_h = pdp_reciprocal(l.kernel_h, fp16);
  if (fp16) {
    set_pdp_fp16_pad_value(l, random_fp16(r));
  } else {
    const int64_t v = random_int(r, l.format == 0 ? 8 : 16);
    for (uint32_t n = 1; n <= 7; ++n) l.pad_value[n - 1] = static_cast<uint32_t>(v * n) & 0x7FFFFu;
  }
  if (!pdp_layer_violations(l, cfg).empty()) return std::nullopt;
  return l;
}

PdpRegionAllocator::PdpRegionAllocator(const HwConfig& cfg, Rng& rng, bool anywhere)
    : cfg_(cfg), rng_(rng),
      // Anywhere: a 4 KiB page (the layers' atom offsets vary the bits below). The usual start
      // (0x8000_0000 + 64 MiB at most on 32-bit) leaves address bits 26..31 constant.
      dbb_(anywhere                     ? random_dbb_start_anywhere(cfg, rng, false)
           : cfg.dbb_addr_bits > 32 && rng.chance(0.3) ? (rng.uniform(1, 0xff) << 32) + rng.uniform(0, 0xffff) * 0x1000
                                                     : 0x8000'0000ull + rng.uniform(0, 0x3fff) * 0x1000,
           cfg.atom_bytes, 6),
      sram_(random_sram_start(rng), cfg.atom_bytes, 6) {}

uint64_t PdpRegionAllocator::take(MemPort port, uint64_t bytes) {
  return (port == MemPort::Dbb ? dbb_ : sram_).take(rng_, bytes);
}

uint64_t pdp_input_extent(const PdpLayer& l, const HwConfig& cfg) {
  const uint64_t lanes = cfg.atom_bytes / l.elem_bytes(), s = (l.channels + lanes - 1) / lanes;
  return (s - 1) * l.src_surface + (l.height - 1) * l.src_line + uint64_t{l.width} * cfg.atom_bytes;
}

uint64_t PdpRegionAllocator::room(MemPort port) const {
  // SRAM: the same address width as the DBB port (the allocator keeps SRAM regions low).
  const unsigned bits = cfg_.dbb_addr_bits;
  const uint64_t top = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits);
  const uint64_t n = (port == MemPort::Dbb ? dbb_ : sram_).next();
  return n >= top ? 0 : top - n;
}

static uint64_t output_extent(const PdpLayer& l, const HwConfig& cfg) {
  const uint64_t lanes = cfg.atom_bytes / l.elem_bytes(), s = (l.channels + lanes - 1) / lanes;
  return (s - 1) * l.dst_surface + (l.out_height - 1) * l.dst_line + uint64_t{l.out_width} * cfg.atom_bytes;
}

void place_pdp_layer(PdpLayer& l, const HwConfig& cfg, Rng& r, PdpRegionAllocator& alloc) {
  const uint64_t atom = cfg.atom_bytes;
  auto gap = [&]() { return r.chance(0.5) ? 0 : r.uniform(1, 3) * atom; };
  l.src_line = l.width * atom + gap();
  l.src_surface = l.height * l.src_line + gap();
  l.dst_line = l.out_width * atom + gap();
  l.dst_surface = l.out_height * l.dst_line + gap();
  auto port = [&]() { return cfg.sram_if && r.chance(0.25) ? MemPort::Sram : MemPort::Dbb; };
  l.src_port = port();
  l.dst_port = port();
  l.src = alloc.take(l.src_port, pdp_input_extent(l, cfg));
  l.dst = alloc.take(l.dst_port, output_extent(l, cfg));
}

bool widen_pdp_output_strides(PdpLayer& l, const HwConfig& cfg, Rng& r, PdpRegionAllocator& alloc) {
  if (l.dst_port != MemPort::Dbb) return false;
  const uint64_t atom = cfg.atom_bytes;
  PdpLayer w = l;
  w.dst_line = uint64_t{l.out_width} * atom + r.uniform(uint64_t{1} << 20, (uint64_t{1} << 24) - 1) / atom * atom;
  w.dst_surface = uint64_t{l.out_height} * w.dst_line + r.uniform(0, 3) * atom;
  const uint64_t extent = output_extent(w, cfg);
  if (extent > alloc.room(MemPort::Dbb) / 2) return false;
  w.dst = alloc.take(MemPort::Dbb, extent);
  l = w;
  return true;
}

std::vector<uint8_t> random_pdp_input(const PdpLayer& l, const HwConfig& cfg, Rng& r, Rng* wide_fp16) {
  std::vector<uint8_t> bytes = r.bytes(static_cast<size_t>(pdp_input_extent(l, cfg)));
  std::optional<WideFp16Values> wide;
  if (wide_fp16 && l.is_fp16()) wide.emplace(*wide_fp16, cfg.atom_bytes / 2);
  const unsigned eb = l.elem_bytes(), lanes = cfg.atom_bytes / eb;
  const uint32_t surfaces = (l.channels + lanes - 1) / lanes;
  for (uint32_t s = 0; s < surfaces; ++s)
    for (uint32_t h = 0; h < l.height; ++h)
      for (uint32_t w = 0; w < l.width; ++w)
        for (unsigned lane = 0; lane < lanes; ++lane) {
          const size_t at = static_cast<size_t>(s * l.src_surface + h * l.src_line + uint64_t{w} * cfg.atom_bytes) +
                            lane * eb;
          const uint64_t v = wide ? wide->next() : l.is_fp16() ? random_fp16(r) : static_cast<uint64_t>(random_int(r, 8 * eb));
          bytes[at] = static_cast<uint8_t>(v);
          if (eb == 2) bytes[at + 1] = static_cast<uint8_t>(v >> 8);
        }
  return bytes;
}

void program_pdp_layer(ProgramBuilder& b, const HwConfig& cfg, const PdpLayer& l, unsigned group, bool rdma_first,
                       int rdma_format_override, Rng* armed_writes, int perf_enable) {
  const uint32_t rdma = *cfg.unit_base[static_cast<unsigned>(Unit::PDP_RDMA)];
  const uint32_t pdp = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)];
  b.write(rdma + RD::S_POINTER::offset, group);
  b.write(pdp + P::S_POINTER::offset, group);
  for (auto [off, v] : pdp_rdma_register_values(l)) {
    if (off == RD::D_DATA_FORMAT::offset && rdma_format_override >= 0) v = static_cast<uint32_t>(rdma_format_override);
    b.write(rdma + off, v);
  }
  for (const auto& [off, v] : pdp_register_values(l)) b.write(pdp + off, v);
  if (perf_enable >= 0) {
    b.write(rdma + RD::D_PERF_ENABLE::offset, static_cast<uint32_t>(perf_enable) & 1u);
    b.write(pdp + P::D_PERF_ENABLE::offset, (static_cast<uint32_t>(perf_enable) >> 1) & 1u);
  }
  const uint32_t first = rdma_first ? rdma : pdp, second = rdma_first ? pdp : rdma;
  b.write(first + P::D_OP_ENABLE::offset, 1);
  if (armed_writes) {
    // The first unit's group is armed and the layer cannot end before the second is: writes to
    // each of the group's registers (other values), and D_OP_ENABLE = 0, must be dropped (the
    // read-backs follow the golden model).
    Rng& r = *armed_writes;
    const auto values = rdma_first ? pdp_rdma_register_values(l) : pdp_register_values(l);
    const char* unit = rdma_first ? "PDP_RDMA" : "PDP";
    for (const auto& [off, v] : values) b.write(first + off, v ^ static_cast<uint32_t>(r.uniform(1, 0xffffffffu)));
    b.write(first + P::D_OP_ENABLE::offset, 0);
    for (const auto& written : values)
      b.read(first + written.first, 0xffffffffu, std::nullopt,
             fmt::format("{} register 0x{:03x} group {} after a write while armed", unit, written.first, group));
    b.read(first + P::D_OP_ENABLE::offset, 0xffffffffu, 1u,
           fmt::format("{}.D_OP_ENABLE group {} still armed after a write of 0", unit, group));
  }
  b.write(second + P::D_OP_ENABLE::offset, 1);
}

void finish_pdp_layer(ProgramBuilder& b, const HwConfig& cfg, unsigned group, uint64_t timeout,
                      const std::string& what) {
  const uint32_t pdp = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)];
  const uint32_t glb_status = b.addr("GLB.S_INTR_STATUS");
  const uint32_t bit = 1u << (4 + group);
  b.wait_intr(bit, timeout);
  b.read(glb_status, bit, bit, fmt::format("GLB PDP_DONE_STATUS{} set after {}", group, what));
  b.write(glb_status, bit);
  b.write(pdp + P::S_POINTER::offset, group);
  b.read(pdp + P::D_NAN_INPUT_NUM::offset, 0xffffffffu, std::nullopt, fmt::format("PDP.D_NAN_INPUT_NUM group {} after {}", group, what));
  b.read(pdp + P::D_INF_INPUT_NUM::offset, 0xffffffffu, std::nullopt, fmt::format("PDP.D_INF_INPUT_NUM group {} after {}", group, what));
  b.read(pdp + P::D_NAN_OUTPUT_NUM::offset, 0xffffffffu, std::nullopt, fmt::format("PDP.D_NAN_OUTPUT_NUM group {} after {}", group, what));
}

void pdp_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when) {
  b.read(*cfg.unit_base[static_cast<unsigned>(Unit::PDP)] + P::S_STATUS::offset, 0xffffffffu, 0u,
         "PDP.S_STATUS idle " + when);
  b.read(*cfg.unit_base[static_cast<unsigned>(Unit::PDP_RDMA)] + RD::S_STATUS::offset, 0xffffffffu, 0u,
         "PDP_RDMA.S_STATUS idle " + when);
  b.read(b.addr("GLB.S_INTR_STATUS"), 0xffffffffu, 0u, "GLB.S_INTR_STATUS all clear " + when);
}

uint64_t pdp_timeout(const PdpLayer& l, const HwConfig& cfg) {
  const uint64_t lanes = cfg.atom_bytes / l.elem_bytes(), s = (l.channels + lanes - 1) / lanes;
  const uint64_t atoms = s * (uint64_t{l.width} * l.height * 2 + uint64_t{l.out_width} * l.out_height);
  return 20'000 + atoms * 64;
}

std::string describe_pdp_layer(const PdpLayer& l) {
  std::string s = fmt::format(
      "{} {} {}x{}x{} -> {}x{}, kernel {}x{} stride {}x{} pads l{} t{} r{} b{}, recip 0x{:x}/0x{:x}",
      precision_name(static_cast<Precision>(l.format)), pool_method_name(static_cast<PoolMethod>(l.method)), l.width,
      l.height, l.channels, l.out_width, l.out_height, l.kernel_w, l.kernel_h, l.stride_w, l.stride_h, l.pad_left,
      l.pad_top, l.pad_right, l.pad_bottom, l.recip_w, l.recip_h);
  if (l.split_num)
    s += fmt::format(", split {} stripes in {}/{}/{} out {}/{}/{}", l.split_num + 1, l.in_first, l.in_mid, l.in_last,
                     l.out_first, l.out_mid, l.out_last);
  if (l.nan_to_zero) s += ", NaN flush";
  s += fmt::format(", src {} 0x{:x} line {} surf {}, dst {} 0x{:x} line {} surf {}", mem_port_name(l.src_port), l.src,
                   l.src_line, l.src_surface, mem_port_name(l.dst_port), l.dst, l.dst_line, l.dst_surface);
  return s;
}

}  // namespace dla::stimulus
