// conv.random: random legal convolution layers (conv.md) through CDMA, CSC, CMAC_A/B, CACC and
// SDP in flying mode, on alternating register groups:
// * direct mode in every precision of the configuration: kernels 1..32 within the CBUF,
//   strides 1..8, dilation 1..32, left/top padding and implicit right/bottom padding through
//   W_out/H_out, pad values, C below / not a multiple of the atom, K not a multiple of the
//   kernel group, CLIP_TRUNCATE edges and (int16) 32-bit saturating sums, the integer input
//   converter, batches (v1);
// * image mode: every pixel format the configuration's precisions allow, X offset, sign
//   override, per-component means or offset, scale and truncation, precision changes,
//   CDMA left/right and CSC top padding, post-extension (Y_EXTENSION) when S*C <= AC/P;
// * Winograd (v1): stride folding, CDMA padding, PRA truncation, transformed weights;
// * weight compression with random sparsity (v1), fp16 data and weights with NaN/Inf/
//   subnormal/zero/max values at a knob density, the secondary memory port (v1);
// * CBUF: random DATA/WEIGHT bank splits that fit, ENTRY_PER_SLICE by §8.2, FETCH_GRAIN,
//   and layer sequences with full and partial data reuse (SKIP_DATA_RLS / RLS_SLICES /
//   DATA_REUSE) and weight reuse (SKIP_WEIGHT_RLS / WEIGHT_REUSE);
// * SDP: output precision (v1: 8->16 split), BS/BN with register or per-kernel memory
//   operands, EW with register operands (v1), output converter.
// The scoreboard compares the SDP output windows (pad lanes included) with the golden model.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "conv_stimulus.h"
#include "dla/regs.gen.h"
#include "pdp_stimulus.h"
#include "region_start.h"
#include "generators.h"

namespace dla::stimulus {

namespace {

using formats::PixelFormat;
using formats::pixel_format_info;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
unsigned log2_ceil(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < v) ++n;
  return n;
}

// 1..max, biased to small values (1 often).
uint32_t pick_dim(Rng& r, uint32_t max) {
  if (max <= 1) return 1;
  const double u = r.unit();
  if (u < 0.12) return 1;
  if (u < 0.6) return static_cast<uint32_t>(r.uniform(1, std::min<uint32_t>(max, 8)));
  return static_cast<uint32_t>(r.uniform(1, max));
}

uint32_t pick_kernel(Rng& r, uint32_t max) {
  const double u = r.unit();
  if (u < 0.15) return 1;
  if (u < 0.6) return static_cast<uint32_t>(r.uniform(1, std::min<uint32_t>(max, 3)));
  if (u < 0.9) return static_cast<uint32_t>(r.uniform(1, std::min<uint32_t>(max, 7)));
  return static_cast<uint32_t>(r.uniform(1, max));
}

// Channels: below one atom, a multiple of it, or anything.
uint32_t pick_channels(Rng& r, uint32_t atom, uint32_t max) {
  const double u = r.unit();
  if (u < 0.3 && atom > 1) return static_cast<uint32_t>(r.uniform(1, std::min(atom - 1, max)));
  if (u < 0.5 && max >= atom) return atom * static_cast<uint32_t>(r.uniform(1, max / atom));
  return static_cast<uint32_t>(r.uniform(1, max));
}

uint32_t pick_kernels(Rng& r, uint32_t ak, uint32_t max) {
  const double u = r.unit();
  if (u < 0.3 && ak > 1) return static_cast<uint32_t>(r.uniform(1, std::min(ak - 1, max)));
  if (u < 0.45 && max > ak) return std::min<uint32_t>(max, ak * static_cast<uint32_t>(r.uniform(1, max / ak)) + static_cast<uint32_t>(r.uniform(0, 2)));
  return static_cast<uint32_t>(r.uniform(1, max));
}

uint32_t pick_stride(Rng& r) {
  const double u = r.unit();
  if (u < 0.55) return 1;
  if (u < 0.8) return 2;
  return static_cast<uint32_t>(r.uniform(3, 8));
}

uint16_t pad_value(Rng& r, Precision p) {
  if (r.chance(0.4)) return 0;
  switch (p) {
    case Precision::Int8: {  // only [7:0] is used: sometimes sign-extended, sometimes junk above
      const uint16_t b = static_cast<uint16_t>(r.below(256));
      return r.chance(0.5) ? static_cast<uint16_t>(static_cast<int8_t>(b)) : static_cast<uint16_t>(b | (r.below(256) << 8));
    }
    case Precision::Int16: return static_cast<uint16_t>(r.below(0x10000));
    default: {
      if (r.chance(0.1)) return static_cast<uint16_t>(r.chance(0.5) ? 0x7c00 : 0xfbff);
      const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
      return static_cast<uint16_t>(sign | (r.uniform(10, 17) << 10) | r.below(0x400));
    }
  }
}

// log2 of the typical accumulator magnitude of an integer layer.
unsigned acc_bits(const ConvLayerSpec& l, const HwConfig& cfg) {
  const ConvDerived d = conv_derived(l, cfg);
  uint64_t terms = uint64_t{d.kernel_c_ext} * d.kernel_w_ext * d.kernel_h_ext;
  unsigned data = l.data_bits;
  if (l.mode == ConvMode::Image) data = l.proc_precision == Precision::Int8 ? 8 : 14;
  unsigned bits = data + l.weight_bits - 2 + (log2_ceil(terms) + 1) / 2;
  if (l.mode == ConvMode::Winograd) bits += 4 - l.pra_truncate;
  if (l.saturating) bits = l.proc_precision == Precision::Int8 ? 14 + log2_ceil(terms) : 30 + log2_ceil(terms);
  return bits;
}

class Drawer {
 public:
  Drawer(const HwConfig& cfg, Rng& r, const ConvDrawOptions& opt, double scale) : cfg_(cfg), r_(r), opt_(opt) {
    lim_ = opt.limits;
    auto s = [&](uint32_t v) { return std::max<uint32_t>(1, static_cast<uint32_t>(v * scale)); };
    lim_.max_wh = s(lim_.max_wh);
    lim_.max_c = s(lim_.max_c);
    lim_.max_k = s(lim_.max_k);
    lim_.max_kernel = s(lim_.max_kernel);
  }

  std::optional<ConvLayerSpec> draw(const ConvLayerSpec* prev, ConvReuse rel);

 private:
  bool feature(bool has) const { return has || opt_.unsupported_ok; }
  MemPort port() { return feature(cfg_.sram_if) && r_.below(100) < opt_.sram_percent ? MemPort::Sram : MemPort::Dbb; }
  void draw_values(ConvLayerSpec& l);
  void draw_direct_input(ConvLayerSpec& l);
  bool draw_image_input(ConvLayerSpec& l, const ConvLayerSpec* same_weights);
  void draw_winograd_input(ConvLayerSpec& l, const ConvLayerSpec* same_weights);
  void draw_kernel(ConvLayerSpec& l);
  bool draw_geometry(ConvLayerSpec& l);
  bool draw_banks(ConvLayerSpec& l);
  // Entries the layer's weight fetch needs free at once on NVIDIA (its largest kernel group).
  uint64_t nvdla_need(const ConvLayerSpec& l) const { return NvdlaWeightCredit::need(conv_nvdla_weight_layer(l, cfg_)); }
  void draw_converter(ConvLayerSpec& l);

  const HwConfig& cfg_;
  Rng& r_;
  const ConvDrawOptions& opt_;
  ConvShapeLimits lim_;
};

void Drawer::draw_values(ConvLayerSpec& l) {
  const bool int8 = l.proc_precision == Precision::Int8;
  const unsigned max_bits = int8 ? 8 : 16;
  l.data_bits = static_cast<uint32_t>(r_.uniform(2, l.mode == ConvMode::Winograd && int8 ? 7 : max_bits));
  l.weight_bits = static_cast<uint32_t>(r_.uniform(2, max_bits));
  l.fp_data_exp = static_cast<uint32_t>(r_.uniform(12, 17));
  l.fp_weight_exp = static_cast<uint32_t>(r_.uniform(11, 16));
  l.saturating = l.proc_precision != Precision::Fp16 && l.mode != ConvMode::Winograd && r_.chance(0.08);
}

void Drawer::draw_converter(ConvLayerSpec& l) {
  // Direct int: (d - offset) * scale >> truncate, saturated to the precision (§4.1).
  const unsigned bits = l.proc_precision == Precision::Int8 ? 8 : 16;
  l.cvt_en = true;
  if (r_.chance(0.12)) {  // anything: saturating or zeroing
    l.cvt_offset = static_cast<int16_t>(r_.uniform_signed(-32768, 32767));
    l.cvt_scale = static_cast<int16_t>(r_.uniform_signed(-32768, 32767));
    l.cvt_truncate = static_cast<uint32_t>(r_.uniform(0, 63));
    return;
  }
  l.cvt_offset = static_cast<int16_t>(r_.chance(0.3) ? 0 : r_.uniform_signed(-(int64_t{1} << (bits - 2)), int64_t{1} << (bits - 2)));
  l.cvt_truncate = static_cast<uint32_t>(r_.uniform(0, 12));
  const int64_t mag = std::clamp<int64_t>(static_cast<int64_t>(std::ldexp(1.0, static_cast<int>(l.cvt_truncate)) * (0.3 + r_.unit())), 1, 32767);
  l.cvt_scale = static_cast<int16_t>(r_.chance(0.2) ? -mag : mag);
}

void Drawer::draw_direct_input(ConvLayerSpec& l) {
  const ConvDerived d0 = conv_derived(l, cfg_);
  if (opt_.compute_bound) {
    l.channels = d0.ac * static_cast<uint32_t>(r_.uniform(8, 12));
    l.width = static_cast<uint32_t>(r_.uniform(8, 16));
    l.height = static_cast<uint32_t>(r_.uniform(8, 16));
    l.data_port = port();
    return;
  }
  if (opt_.memory_bound) {
    l.channels = d0.ac * static_cast<uint32_t>(r_.uniform(4, 8));
    l.width = static_cast<uint32_t>(r_.uniform(2, 3));
    l.height = static_cast<uint32_t>(r_.uniform(2, 3));
    l.data_port = port();
    return;
  }
  l.channels = pick_channels(r_, d0.atom_elems, lim_.max_c);
  l.width = pick_dim(r_, lim_.max_wh);
  l.height = pick_dim(r_, lim_.max_wh);
  l.batches = feature(cfg_.conv_batching) && r_.below(100) < opt_.batch_percent
                  ? static_cast<uint32_t>(r_.uniform(2, std::max<uint32_t>(2, lim_.max_batches)))
                  : 1;
  if (l.proc_precision != Precision::Fp16 && r_.chance(0.35)) draw_converter(l);
  l.nan_to_zero = l.proc_precision == Precision::Fp16 && r_.chance(0.5);
  l.data_port = port();
}

bool Drawer::draw_image_input(ConvLayerSpec& l, const ConvLayerSpec* same) {
  if (same) {
    l.pixel_format = same->pixel_format;
  } else {
    std::vector<PixelFormat> candidates;
    for (unsigned f = 0; f < formats::kPixelFormatCount; ++f) {
      const auto& info = pixel_format_info(static_cast<PixelFormat>(f));
      if (!feature(cfg_.supports(info.precision))) continue;
      if (opt_.semi_planar_only && info.planes != 2) continue;
      const bool fp = info.precision == Precision::Fp16;
      const bool proc_ok = fp ? std::count(opt_.precisions.begin(), opt_.precisions.end(), Precision::Fp16) > 0 : true;
      if (proc_ok) candidates.push_back(static_cast<PixelFormat>(f));
    }
    if (candidates.empty()) return false;
    l.pixel_format = r_.choice(candidates);
  }
  const auto& info = pixel_format_info(l.pixel_format);
  l.in_precision = info.precision;
  if (same) {
    l.proc_precision = same->proc_precision;
  } else if (info.precision == Precision::Fp16) {
    l.proc_precision = Precision::Fp16;
  } else {
    const bool keep = std::count(opt_.precisions.begin(), opt_.precisions.end(), info.precision) > 0 && r_.chance(0.5);
    l.proc_precision = keep ? info.precision : r_.choice(opt_.precisions);
  }
  l.channels = info.channels;
  l.width = pick_dim(r_, lim_.max_wh);
  l.height = pick_dim(r_, lim_.max_wh);
  unsigned max_x = formats::max_x_offset(l.pixel_format, cfg_.atom_bytes);
  if (info.planes == 2) max_x = std::min(max_x, cfg_.atom_bytes / (2 * conv_es(info.precision)) - 1);
  l.pixel_x_offset = r_.chance(0.4) ? 0 : static_cast<uint32_t>(r_.uniform(0, std::min(max_x, 31u)));
  l.pixel_sign_override = r_.chance(0.3);
  const bool int_pixels = info.precision != Precision::Fp16;
  const bool to_fp16 = int_pixels && l.proc_precision == Precision::Fp16;
  l.cvt_en = int_pixels && (l.in_precision != l.proc_precision || r_.chance(0.8));
  l.nan_to_zero = !int_pixels && r_.chance(0.5);
  if (l.cvt_en) {
    const int in_bits = info.precision == Precision::Int8 ? 8 : 16;
    const int out_bits = l.proc_precision == Precision::Int8 ? 8 : l.proc_precision == Precision::Int16 ? 16 : 12;
    l.mean_format = !to_fp16 && r_.chance(0.5);
    const int64_t typical = int64_t{1} << (in_bits - 1);
    for (int16_t& m : l.mean)
      m = static_cast<int16_t>(r_.chance(0.2) ? 0 : std::clamp<int64_t>(r_.uniform_signed(-typical / 2, 2 * typical), -32768, 32767));
    l.cvt_offset = to_fp16 ? 0 : static_cast<int16_t>(std::clamp<int64_t>(r_.uniform_signed(-typical / 2, 2 * typical), -32768, 32767));
    if (r_.chance(0.1)) {
      l.cvt_scale = static_cast<int16_t>(r_.uniform_signed(-32768, 32767));
      l.cvt_truncate = static_cast<uint32_t>(r_.uniform(0, 63));
    } else {
      l.cvt_truncate = static_cast<uint32_t>(r_.uniform(0, 14));
      const double ratio = std::ldexp(1.0, out_bits - in_bits + static_cast<int>(r_.uniform_signed(-1, 2)));
      const int64_t mag = std::clamp<int64_t>(static_cast<int64_t>(std::ldexp(ratio, static_cast<int>(l.cvt_truncate)) * (0.5 + r_.unit())), 1, 32767);
      l.cvt_scale = static_cast<int16_t>(r_.chance(0.2) ? -mag : mag);
    }
  }
  if (to_fp16) {
    l.pad_value = l.cdma_pad_value = 0;
  } else {
    l.pad_value = pad_value(r_, l.proc_precision);
    l.cdma_pad_value = pad_value(r_, l.proc_precision);
  }
  l.data_port = port();
  return true;
}

void Drawer::draw_winograd_input(ConvLayerSpec& l, const ConvLayerSpec* same) {
  const ConvDerived d0 = conv_derived(l, cfg_);
  const uint32_t a = d0.atom_elems;
  if (same) {
    l.channels = same->channels;
    l.stride_x = same->stride_x;
    l.stride_y = same->stride_y;
  } else {
    l.channels = a * static_cast<uint32_t>(r_.uniform(1, std::max<uint32_t>(1, std::min<uint32_t>(4, lim_.max_c / a))));
    const uint32_t smax = opt_.winograd_max_stride;
    l.stride_x = r_.chance(0.7) ? 1 : static_cast<uint32_t>(r_.uniform(2, smax));
    l.stride_y = r_.chance(0.7) ? l.stride_x : (r_.chance(0.7) ? 1 : static_cast<uint32_t>(r_.uniform(2, smax)));
  }
  auto axis = [&](uint32_t stride, uint32_t& pad_lo, uint32_t& size, uint32_t& pad_hi) {
    const uint32_t ext = 4 * static_cast<uint32_t>(r_.uniform(2, std::max<uint32_t>(2, (lim_.max_wh + 4) / 4)));
    pad_lo = stride == 1 ? static_cast<uint32_t>(r_.uniform(0, 1)) : static_cast<uint32_t>(r_.uniform(0, 3 * stride - 1));
    const uint32_t rest = ext * stride - pad_lo;
    pad_hi = static_cast<uint32_t>(r_.uniform(0, std::min<uint32_t>({63, rest - 1, 3 * stride + 1})));
    size = rest - pad_hi;
  };
  axis(l.stride_x, l.pad_left, l.width, l.pad_right);
  axis(l.stride_y, l.pad_top, l.height, l.pad_bottom);
  l.cdma_pad_value = pad_value(r_, l.proc_precision);
  l.nan_to_zero = l.proc_precision == Precision::Fp16 && r_.chance(0.5);
  l.data_port = port();
}

void Drawer::draw_kernel(ConvLayerSpec& l) {
  const ConvDerived d0 = conv_derived(l, cfg_);
  l.kernels = pick_kernels(r_, d0.ak, lim_.max_k);
  if (l.mode == ConvMode::Winograd) {
    l.kernel_w = r_.chance(0.6) ? 3 * l.stride_x : static_cast<uint32_t>(r_.uniform(1, 3 * l.stride_x));
    l.kernel_h = r_.chance(0.6) ? 3 * l.stride_y : static_cast<uint32_t>(r_.uniform(1, 3 * l.stride_y));
    l.pra_truncate = l.proc_precision == Precision::Fp16 ? 0 : static_cast<uint32_t>(r_.uniform(0, 2));
  } else if (opt_.compute_bound) {
    l.kernels = d0.ak * static_cast<uint32_t>(r_.uniform(2, 4));
    l.kernel_w = l.kernel_h = 3;
  } else if (opt_.memory_bound) {
    l.kernels = d0.ak * static_cast<uint32_t>(r_.uniform(4, 8));
    l.kernel_w = l.width;
    l.kernel_h = l.height;
  } else {
    l.kernel_w = pick_kernel(r_, lim_.max_kernel);
    l.kernel_h = r_.chance(0.5) ? l.kernel_w : pick_kernel(r_, lim_.max_kernel);
    // Image mode: often a kernel narrow enough for post-extension (S*C <= AC/2).
    const uint32_t narrow = cfg_.conv_mac_atomic_c / (2 * l.channels);
    if (l.mode == ConvMode::Image && narrow >= 1 && r_.chance(0.3))
      l.kernel_w = static_cast<uint32_t>(r_.uniform(1, std::min(narrow, lim_.max_kernel)));
  }
  l.compressed = feature(cfg_.conv_compression) && r_.below(100) < opt_.compression_percent;
  l.sparsity_percent = l.compressed ? r_.choice(std::vector<uint32_t>{0, 30, 60, 90, 99}) : (r_.chance(0.1) ? 50 : 0);
  l.minimal_weight_bytes = !l.compressed && (opt_.avoid_nvdla_errata || (opt_.minimal_weight_bytes && r_.chance(0.15)));
  l.weight_port = port();
}

bool Drawer::draw_geometry(ConvLayerSpec& l) {
  switch (l.mode) {
    case ConvMode::Direct: {
      if (opt_.compute_bound) {
        l.stride_x = l.stride_y = l.dilation_x = l.dilation_y = 1;
        l.pad_left = l.pad_right = l.pad_top = l.pad_bottom = 1;
        l.out_width = l.width;
        l.out_height = l.csc_height();
        l.pad_value = pad_value(r_, l.proc_precision);
        return true;
      }
      if (opt_.memory_bound) {
        l.stride_x = l.stride_y = l.dilation_x = l.dilation_y = 1;
        l.pad_left = l.pad_right = l.pad_top = l.pad_bottom = 0;
        l.out_width = l.out_height = 1;
        l.pad_value = pad_value(r_, l.proc_precision);
        return true;
      }
      l.stride_x = pick_stride(r_);
      l.stride_y = r_.chance(0.6) ? l.stride_x : pick_stride(r_);
      auto dil = [&](uint32_t kernel, uint32_t size) -> uint32_t {
        if (kernel == 1 || r_.chance(0.72)) return 1;
        const uint32_t cap = std::clamp<uint32_t>((size + 31) / (kernel - 1), 1, 32);
        return static_cast<uint32_t>(r_.chance(0.6) ? r_.uniform(1, std::min<uint32_t>(4, cap)) : r_.uniform(1, cap));
      };
      l.dilation_x = dil(l.kernel_w, l.width);
      l.dilation_y = dil(l.kernel_h, l.csc_height());
      auto axis = [&](uint32_t kernel, uint32_t dilation, uint32_t size, uint32_t stride, uint32_t& lo, uint32_t& hi, uint32_t& out) {
        const uint32_t eff = (kernel - 1) * dilation + 1;
        lo = r_.chance(0.4) ? 0 : static_cast<uint32_t>(r_.uniform(0, std::min<uint32_t>(31, eff - 1)));
        const uint32_t hi_min = eff > lo + size ? eff - lo - size : 0, hi_max = std::max(hi_min, eff - 1);
        hi = r_.chance(0.3) ? hi_min : static_cast<uint32_t>(r_.uniform(hi_min, hi_max));
        out = (lo + size + hi - eff) / stride + 1;
      };
      axis(l.kernel_w, l.dilation_x, l.width, l.stride_x, l.pad_left, l.pad_right, l.out_width);
      axis(l.kernel_h, l.dilation_y, l.csc_height(), l.stride_y, l.pad_top, l.pad_bottom, l.out_height);
      l.pad_value = pad_value(r_, l.proc_precision);
      return true;
    }
    case ConvMode::Image: {
      l.stride_x = pick_stride(r_);
      l.stride_y = r_.chance(0.6) ? l.stride_x : pick_stride(r_);
      l.dilation_x = l.dilation_y = 1;
      if (!reuses_data(l.reuse)) {  // CDMA's left/right padding shapes the stored line: kept when reused
        l.pad_left = r_.chance(0.4) ? 0 : static_cast<uint32_t>(r_.uniform(0, std::min<uint32_t>(31, l.kernel_w - 1)));
        const uint32_t pr_min = l.kernel_w > l.pad_left + l.width ? l.kernel_w - l.pad_left - l.width : 0;
        const uint32_t pr_max = std::max(pr_min, std::min<uint32_t>(63, l.kernel_w - 1));
        l.pad_right = static_cast<uint32_t>(r_.uniform(pr_min, pr_max));
      }
      const uint64_t line = uint64_t{l.pad_left} + l.width + l.pad_right;
      if (line < l.kernel_w) return false;
      const uint32_t max_out = static_cast<uint32_t>((line - l.kernel_w) / l.stride_x + 1);
      l.out_width = r_.chance(0.8) ? max_out : static_cast<uint32_t>(r_.uniform(1, max_out));
      const uint32_t h = l.csc_height();
      l.pad_top = r_.chance(0.4) ? 0 : static_cast<uint32_t>(r_.uniform(0, std::min<uint32_t>(31, l.kernel_h - 1)));
      const uint32_t pb_min = l.kernel_h > l.pad_top + h ? l.kernel_h - l.pad_top - h : 0;
      l.pad_bottom = static_cast<uint32_t>(r_.uniform(pb_min, std::max(pb_min, l.kernel_h - 1)));
      l.out_height = (l.pad_top + h + l.pad_bottom - l.kernel_h) / l.stride_y + 1;
      const uint32_t sc = l.kernel_w * l.channels;
      const unsigned ac = cfg_.conv_mac_atomic_c;
      l.y_extension = 0;
      if (sc * 2 <= ac && r_.below(100) < opt_.post_extension_percent) l.y_extension = sc * 4 <= ac && r_.chance(0.5) ? 2 : 1;
      if (opt_.avoid_nvdla_errata && l.stride_x > 1) l.y_extension = 0;  // NVIDIA: post-extension needs x stride 1
      // NVIDIA: one output column with more than three channel blocks reads blocks 3.. early.
      if (opt_.avoid_nvdla_errata && l.out_width == 1 && sc > 3 * ac) return false;
      return true;
    }
    case ConvMode::Winograd: {
      const ConvDerived d = conv_derived(l, cfg_);
      l.dilation_x = l.dilation_y = 1;
      l.out_width = d.w_ext - 4;
      l.out_height = d.h_ext - 4;
      return true;
    }
  }
  return false;
}

bool Drawer::draw_banks(ConvLayerSpec& l) {
  const ConvDerived d = conv_derived(l, cfg_);
  const uint64_t depth = cfg_.conv_cbuf_bank_entries;
  const uint64_t need_d = std::max<uint64_t>(1, ceil_div(uint64_t{d.slices} * d.entries, depth));
  uint64_t need_w = std::max<uint64_t>(1, ceil_div(conv_weight_entries_needed(l, cfg_), depth));
  if (opt_.avoid_nvdla_errata)  // beside what NVIDIA's CDMA may still count as occupied
    need_w = std::max(need_w, ceil_div(opt_.nvdla_weight_entries_held + nvdla_need(l), depth));
  const uint64_t max_total = cfg_.conv_cbuf_banks - (l.compressed ? 1 : 0);
  if (need_d + need_w > max_total) return false;
  l.data_banks = static_cast<uint32_t>(r_.chance(0.3) ? need_d : r_.uniform(need_d, max_total - need_w));
  l.weight_banks = static_cast<uint32_t>(r_.chance(0.3) ? need_w : r_.uniform(need_w, max_total - l.data_banks));
  return true;
}

std::optional<ConvLayerSpec> Drawer::draw(const ConvLayerSpec* prev, ConvReuse rel) {
  ConvLayerSpec l;
  l.reuse = prev ? rel : ConvReuse::None;
  l.data_reuse = reuses_data(l.reuse);
  l.weight_reuse = reuses_weights(l.reuse);
  const ConvLayerSpec* same_weights = reuses_weights(l.reuse) ? prev : nullptr;
  if (l.data_reuse) {
    const ConvLayerSpec& p = *prev;
    l.mode = p.mode;
    l.in_precision = p.in_precision;
    l.proc_precision = p.proc_precision;
    l.width = p.width;
    l.channels = p.channels;
    l.batches = p.batches;
    l.pixel_format = p.pixel_format;
    l.pixel_x_offset = p.pixel_x_offset;
    l.pixel_sign_override = p.pixel_sign_override;
    l.mean_format = p.mean_format;
    std::copy(std::begin(p.mean), std::end(p.mean), std::begin(l.mean));
    l.cvt_en = p.cvt_en;
    l.cvt_truncate = p.cvt_truncate;
    l.cvt_offset = p.cvt_offset;
    l.cvt_scale = p.cvt_scale;
    l.nan_to_zero = p.nan_to_zero;
    l.data_port = p.data_port;
    l.cdma_pad_value = p.cdma_pad_value;
    l.data_bits = p.data_bits;
    l.fp_data_exp = p.fp_data_exp;
    if (l.mode == ConvMode::Image || l.mode == ConvMode::Winograd) {  // CDMA's padding is part of the stored data
      l.pad_left = p.pad_left;
      l.pad_right = p.pad_right;
    }
    if (l.mode == ConvMode::Winograd) {
      l.pad_top = p.pad_top;
      l.pad_bottom = p.pad_bottom;
      l.stride_x = p.stride_x;
      l.stride_y = p.stride_y;
    }
    l.data_banks = p.data_banks;
    l.weight_banks = p.weight_banks;
    if (l.reuse == ConvReuse::DataPartial) {
      const ConvCbufState before = conv_state_after(p, cfg_);
      l.kept_lines = before.kept_slices;
      const uint64_t cap = uint64_t{p.data_banks} * cfg_.conv_cbuf_bank_entries / p.entries_per_slice;
      if (cap <= l.kept_lines) return std::nullopt;
      l.height = static_cast<uint32_t>(r_.uniform(1, std::min<uint64_t>(cap - l.kept_lines, lim_.max_wh)));
      l.fetch_grain = 1;
    } else {  // CSC processes exactly the previous input, CDMA (fetching nothing) describes it
      l.height = p.height;
      l.kept_lines = p.kept_lines;
      l.src = p.src;
      l.src_line = p.src_line;
      l.src_surface = p.src_surface;
      l.src_batch = p.src_batch;
      l.src_uv = p.src_uv;
      l.src_uv_line = p.src_uv_line;
      l.fetch_grain = p.fetch_grain;
    }
  } else {
    if (same_weights) {
      l.mode = same_weights->mode;
      l.proc_precision = same_weights->proc_precision;
    } else {
      l.mode = r_.choice(opt_.modes);
      l.proc_precision = r_.choice(opt_.precisions);
    }
    l.in_precision = l.proc_precision;
    switch (l.mode) {
      case ConvMode::Direct:
        draw_direct_input(l);
        if (same_weights) l.channels = same_weights->channels;
        if (same_weights && opt_.memory_bound) {  // the kept kernel covers the whole input
          l.width = same_weights->kernel_w;
          l.height = same_weights->kernel_h;
        }
        break;
      case ConvMode::Image:
        if (!draw_image_input(l, same_weights)) return std::nullopt;
        break;
      case ConvMode::Winograd: draw_winograd_input(l, same_weights); break;
    }
    if (same_weights) {
      l.data_banks = same_weights->data_banks;
      l.weight_banks = same_weights->weight_banks;
    }
    l.fetch_grain = l.mode == ConvMode::Direct && l.height > 1 && r_.chance(0.4) ? static_cast<uint32_t>(r_.uniform(2, l.height)) : 1;
  }
  if (same_weights) {
    const ConvLayerSpec& p = *same_weights;
    l.kernels = p.kernels;
    l.kernel_w = p.kernel_w;
    l.kernel_h = p.kernel_h;
    l.compressed = p.compressed;
    l.minimal_weight_bytes = p.minimal_weight_bytes;
    l.sparsity_percent = p.sparsity_percent;
    l.weight_port = p.weight_port;
    l.weight_addr = p.weight_addr;
    l.weight_bytes = p.weight_bytes;
    l.wmb_addr = p.wmb_addr;
    l.wmb_bytes = p.wmb_bytes;
    l.wgs_addr = p.wgs_addr;
    l.weight_bits = p.weight_bits;
    l.fp_weight_exp = p.fp_weight_exp;
    l.pra_truncate = l.mode == ConvMode::Winograd && l.proc_precision != Precision::Fp16 ? static_cast<uint32_t>(r_.uniform(0, 2)) : 0;
  } else {
    draw_kernel(l);
  }
  if (!draw_geometry(l)) return std::nullopt;
  if (same_weights && l.mode == ConvMode::Image && l.y_extension != same_weights->y_extension) {
    const uint32_t sc = l.kernel_w * l.channels;
    if (sc * (1u << same_weights->y_extension) > cfg_.conv_mac_atomic_c) return std::nullopt;
    l.y_extension = same_weights->y_extension;  // the weight image's row packing
  }
  if (!l.data_reuse) {
    draw_values(l);
  } else {
    const uint32_t db = l.data_bits, de = l.fp_data_exp;
    draw_values(l);
    l.data_bits = db;
    l.fp_data_exp = de;
  }
  if (same_weights) {
    l.weight_bits = same_weights->weight_bits;
    l.fp_weight_exp = same_weights->fp_weight_exp;
  }
  l.entries_per_slice = conv_entries_per_slice(l, cfg_);
  l.release_slices = conv_derived(l, cfg_).slices;
  if (l.reuse == ConvReuse::None && !draw_banks(l)) return std::nullopt;
  if (opt_.avoid_nvdla_errata && prev && (l.data_banks != prev->data_banks || l.weight_banks != prev->weight_banks)) {
    // A bank-split change must not shrink either region (NVIDIA keeps ring positions).
    const uint32_t data = std::max(l.data_banks, prev->data_banks), weight = std::max(l.weight_banks, prev->weight_banks);
    if (data + weight > cfg_.conv_cbuf_banks - (l.compressed ? 1u : 0u)) return std::nullopt;
    l.data_banks = data;
    l.weight_banks = weight;
  }
  // NVIDIA's CDMA may still count earlier layers' weights as occupied: the largest kernel group
  // must fit beside them (conv-weight-release-lost).
  if (opt_.avoid_nvdla_errata && opt_.nvdla_weight_entries_held + nvdla_need(l) > uint64_t{l.weight_banks} * cfg_.conv_cbuf_bank_entries)
    return std::nullopt;
  // CLIP_TRUNCATE: aim the 32-bit result at a moderate magnitude; sometimes the edges 0 and 16.
  if (l.proc_precision != Precision::Fp16) {
    const int target = static_cast<int>(r_.uniform(6, 22));
    const double u = r_.unit();
    l.clip_truncate = u < 0.1 ? 0 : u < 0.2 ? 16 : u < 0.3 ? static_cast<uint32_t>(r_.uniform(0, 16))
                                                   : static_cast<uint32_t>(std::clamp(static_cast<int>(acc_bits(l, cfg_)) - target, 0, 16));
    if (l.saturating) l.clip_truncate = static_cast<uint32_t>(r_.uniform(0, 2));
  }
  if (conv_derived(l, cfg_).atomic_ops > lim_.max_atomic_ops) return std::nullopt;
  const ConvCbufState before = prev ? conv_state_after(*prev, cfg_) : ConvCbufState{};
  const unsigned checks = opt_.unsupported_ok ? 0u : unsigned{kConvCheckFeatures};
  if (!conv_layer_problems(l, cfg_, before, checks).empty()) return std::nullopt;
  return l;
}

// SDP stage operand in the processing precision.
uint16_t sdp_operand(Rng& r, Precision proc, int bits) {
  if (proc == Precision::Fp16) {
    const uint16_t sign = r.chance(0.3) ? 0x8000 : 0;
    return static_cast<uint16_t>(sign | (r.uniform(13, 16) << 10) | r.below(0x400));
  }
  const int b = std::clamp(bits, 1, 15);
  return static_cast<uint16_t>(r.uniform_signed(-(int64_t{1} << b), (int64_t{1} << b) - 1));
}

void random_xstage(ConvSdpXStage& st, const ConvLayerSpec& l, const HwConfig& cfg, Rng& r, int in_bits, bool sram) {
  const Precision proc = l.proc_precision;
  st.enabled = true;
  st.alu = r.chance(0.7);
  st.mul = r.chance(0.5);
  st.relu = r.chance(0.5);
  st.prelu = st.mul && r.chance(0.2);
  st.alu_algo = static_cast<uint32_t>(r.chance(0.6) ? 2 : r.below(2));
  st.alu_shift = proc == Precision::Fp16 ? 0 : static_cast<uint32_t>(std::clamp(in_bits - 12, 0, 20) + r.below(3));
  st.alu_operand = sdp_operand(r, proc, r.chance(0.7) ? 8 : 15);
  st.mul_operand = sdp_operand(r, proc, r.chance(0.7) ? 4 : 12);
  st.mul_shift = proc == Precision::Fp16 ? 0 : static_cast<uint32_t>(r.uniform(0, 6));
  st.alu_mem = st.alu && r.chance(0.25);
  st.mul_mem = st.mul && r.chance(0.25);
  st.two_byte = proc != Precision::Int8 || r.chance(0.5);
  st.operand_port = sram && cfg.sram_if && r.chance(0.3) ? MemPort::Sram : MemPort::Dbb;
}

// EW on with register operands (LUT bypassed).
void draw_ew_stage(ConvSdpSpec& s, bool fp, int in_bits, Rng& r) {
  s.ew = true;
  s.ew_alu = r.chance(0.7);
  s.ew_mul = r.chance(0.6);
  s.ew_prelu = s.ew_mul && r.chance(0.2);
  s.ew_alu_algo = static_cast<uint32_t>(r.chance(0.6) ? 2 : r.below(2));
  if (fp) {
    auto fp32 = [&](int lo, int hi) {
      return (r.chance(0.3) ? 0x80000000u : 0u) | (static_cast<uint32_t>(127 + r.uniform_signed(lo, hi)) << 23) |
             static_cast<uint32_t>(r.below(1u << 23));
    };
    s.ew_alu_operand = fp32(-3, 3);
    s.ew_mul_operand = fp32(-2, 2);
  } else {
    const int64_t span = int64_t{1} << std::clamp(in_bits, 1, 30);
    s.ew_alu_operand = static_cast<uint32_t>(r.uniform_signed(-span, span));
    const int64_t m = r.uniform_signed(-16, 16);
    s.ew_mul_operand = static_cast<uint32_t>(m);
    s.ew_truncate = static_cast<uint32_t>(r.chance(0.8) ? log2_ceil(static_cast<uint64_t>(std::llabs(m)) + 1) : r.uniform(0, 40));
  }
}

// EW with its ALU and/or MUL operand from memory (sdp_ew_memory_percent): per kernel or per
// element, 1- or 2-byte operands over their whole range, each through its integer converter
// (or bypassed) scaled so the ALU operand lands near the accumulator's width and the MUL's
// product keeps it (EW_TRUNCATE). fp16 ignores the converters: their fields are random.
void draw_ew_memory(ConvLayerSpec& l, const HwConfig& cfg, Rng& r, int in_bits, bool sram) {
  ConvSdpSpec& s = l.sdp;
  const bool fp = l.proc_precision == Precision::Fp16;
  draw_ew_stage(s, fp, in_bits, r);
  if (!s.ew_alu && !s.ew_mul) s.ew_alu = true;
  ConvSdpXStage& st = s.ew_stream;
  st = ConvSdpXStage{};
  st.enabled = true;
  st.alu = s.ew_alu;
  st.mul = s.ew_mul;
  st.alu_mem = st.alu && (!st.mul || r.chance(0.8));
  st.mul_mem = st.mul && (!st.alu_mem || r.chance(0.8));
  st.two_byte = l.proc_precision != Precision::Int8 || r.chance(0.5);
  st.per_element = r.chance(0.6);
  st.operand_port = sram && cfg.sram_if && r.chance(0.3) ? MemPort::Sram : MemPort::Dbb;
  const int b = st.two_byte ? 15 : 7;  // magnitude bits of a memory operand
  auto random_cvt = [&](ConvSdpSpec::EwConverter& c) {
    c.bypass = r.chance(0.5);
    c.offset = static_cast<int32_t>(r.next_u64());
    c.scale = static_cast<int16_t>(r.below(0x10000));
    c.truncate = static_cast<uint32_t>(r.below(64));
  };
  s.ew_alu_cvt = s.ew_mul_cvt = ConvSdpSpec::EwConverter{};
  if (fp) {
    random_cvt(s.ew_alu_cvt);
    random_cvt(s.ew_mul_cvt);
    return;
  }
  if (st.alu_mem && r.chance(0.7)) {
    auto& c = s.ew_alu_cvt;
    c.bypass = false;
    c.offset = static_cast<int32_t>(r.uniform_signed(-(int64_t{1} << (b - 2)), int64_t{1} << (b - 2)));
    c.truncate = static_cast<uint32_t>(in_bits < b ? b - in_bits + static_cast<int>(r.below(2)) : r.below(3));
    const int scale_bits = std::clamp(in_bits - b + static_cast<int>(c.truncate) + static_cast<int>(r.uniform_signed(-1, 1)), 0, 14);
    const int64_t mag = r.uniform(int64_t{1} << scale_bits, std::min<int64_t>((int64_t{2} << scale_bits) - 1, 32767));
    c.scale = static_cast<int16_t>(r.chance(0.2) ? -mag : mag);
  }
  int op_bits = b;  // magnitude bits of the MUL operand after its converter
  if (st.mul_mem && r.chance(0.5)) {
    auto& c = s.ew_mul_cvt;
    c.bypass = false;
    c.offset = static_cast<int32_t>(r.uniform_signed(-(int64_t{1} << (b - 3)), int64_t{1} << (b - 3)));
    c.scale = static_cast<int16_t>(r.uniform_signed(-4, 4));
    c.truncate = static_cast<uint32_t>(r.below(3));
    op_bits = b + 2 - static_cast<int>(c.truncate);
  }
  if (st.mul_mem) s.ew_truncate = static_cast<uint32_t>(std::max(0, op_bits + static_cast<int>(r.uniform_signed(-1, 1))));
}

// sdp_operand_pairs_percent: that share of the per-element operand streams (BS, BN, EW) carries
// both the ALU and the MUL operand, two bytes each (4 bytes an element: a stream's records use
// every byte), whatever the stage drew; the register operands the stage drew stay unused.
void pair_memory_operands(ConvLayerSpec& l, Rng& r, unsigned percent) {
  ConvSdpSpec& s = l.sdp;
  for (ConvSdpXStage* st : {&s.bs, &s.bn, &s.ew_stream}) {
    if (!st->uses_memory() || !st->per_element || r.below(100) >= percent) continue;
    st->alu = st->mul = st->alu_mem = st->mul_mem = st->two_byte = true;
    if (st == &s.ew_stream) {
      s.ew_alu = s.ew_mul = true;
      if (l.proc_precision != Precision::Fp16 && s.ew_mul_cvt.bypass)
        s.ew_truncate = static_cast<uint32_t>(r.uniform(14, 16));  // a 16-bit MUL operand keeps the scale
    }
  }
}

}  // namespace

ConvShapeLimits ConvShapeLimits::of(ConvSize s) {
  ConvShapeLimits l;
  switch (s) {
    case ConvSize::Small: l = {16, 64, 32, 32, 8192, 4}; break;
    case ConvSize::Medium: l = {64, 256, 128, 32, 131072, 8}; break;
    case ConvSize::Large: l = {256, 1024, 512, 32, 2'000'000, 32}; break;
  }
  return l;
}

std::optional<ConvLayerSpec> random_conv_layer(const HwConfig& cfg, Rng& shape, const ConvDrawOptions& opt,
                                               const ConvLayerSpec* prev, ConvReuse rel) {
  if (opt.modes.empty() || opt.precisions.empty()) throw std::logic_error("random_conv_layer: no mode or precision allowed");
  for (unsigned attempt = 0; attempt < 120; ++attempt) {
    const double scale = attempt < 30 ? 1.0 : attempt < 60 ? 0.5 : attempt < 90 ? 0.25 : 0.1;
    Drawer d(cfg, shape, opt, scale);
    if (auto l = d.draw(prev, rel)) return l;
  }
  return std::nullopt;
}

void random_conv_sdp(ConvLayerSpec& l, const HwConfig& cfg, Rng& r, const ConvDrawOptions& opt) {
  ConvSdpSpec& s = l.sdp;
  s = ConvSdpSpec{};
  const Precision proc = l.proc_precision;
  const bool fp = proc == Precision::Fp16;
  auto ok = [&](Precision p) { return cfg.supports(p); };
  s.out = proc;
  if (proc == Precision::Int8 && cfg.register_variant == "nvdlav1" && opt.sdp_split && l.batches == 1 &&
      l.mode != ConvMode::Winograd && ok(Precision::Int16) && ok(Precision::Fp16) && r.chance(0.3))
    s.out = r.chance(0.6) ? Precision::Int16 : Precision::Fp16;  // 8->16 split (sdp.md §11.5)
  if (proc == Precision::Int16 && ok(Precision::Fp16) && r.chance(0.3)) s.out = Precision::Fp16;
  if (proc == Precision::Fp16 && ok(Precision::Int16) && r.chance(0.3)) s.out = Precision::Int16;
  const int in_bits = std::max(1, static_cast<int>(acc_bits(l, cfg)) - static_cast<int>(l.clip_truncate));
  const bool sram = r.below(100) < opt.sram_percent;
  if (cfg.sdp_bs && r.chance(0.5)) random_xstage(s.bs, l, cfg, r, in_bits, sram);
  if (cfg.sdp_bn && r.chance(0.4)) random_xstage(s.bn, l, cfg, r, in_bits, sram);
  if (cfg.sdp_ew && opt.sdp_ew && r.chance(0.25)) draw_ew_stage(s, fp, in_bits, r);
  if (!fp) {
    const int out_bits = s.out == Precision::Int8 ? 8 : 16;
    const double u = r.unit();
    s.cvt_scale = static_cast<int16_t>(u < 0.3 ? 1 : u < 0.8 ? r.uniform_signed(-8, 8) : r.uniform_signed(-32768, 32767));
    const int scale_bits = s.cvt_scale == 0 ? 0 : static_cast<int>(log2_ceil(static_cast<uint64_t>(std::abs(static_cast<int>(s.cvt_scale))) + 1));
    const int aim = in_bits + scale_bits - out_bits + static_cast<int>(r.uniform_signed(-2, 1));
    s.cvt_shift = static_cast<uint32_t>(r.chance(0.1) ? r.uniform(0, 63) : static_cast<uint64_t>(std::clamp(aim, 0, 63)));
    s.cvt_offset = r.chance(0.5) ? 0 : static_cast<int32_t>(r.uniform_signed(-(int64_t{1} << std::clamp(in_bits - 2, 0, 30)),
                                                                            int64_t{1} << std::clamp(in_bits - 2, 0, 30)));
  } else if (r.chance(0.5)) {  // ignored in fp16 mode (sdp.md §2.4)
    s.cvt_offset = static_cast<int32_t>(r.next_u64());
    s.cvt_scale = static_cast<int16_t>(r.below(0x10000));
    s.cvt_shift = static_cast<uint32_t>(r.below(64));
  }
  s.nan_to_zero = fp && r.chance(0.4);
  s.perf_enable = static_cast<uint32_t>(r.below(4)) | (r.chance(0.7) ? 4u : 0) | (r.chance(0.5) ? 8u : 0);
  s.port = cfg.sram_if && sram ? MemPort::Sram : MemPort::Dbb;
}

bool set_release_for_next(ConvLayerSpec& l, const HwConfig& cfg, Rng& r, ConvReuse next, uint64_t weight_entries_held) {
  const ConvDerived d = conv_derived(l, cfg);
  const uint64_t depth = cfg.conv_cbuf_bank_entries;
  l.skip_data_rls = false;
  l.skip_weight_rls = false;
  l.release_slices = d.slices;
  auto keep_weights = [&]() {
    ConvLayerSpec t = l;
    t.skip_weight_rls = true;
    const uint64_t max_total = cfg.conv_cbuf_banks - (l.compressed ? 1 : 0);
    const uint64_t need = ceil_div(weight_entries_held + conv_weight_entries_needed(t, cfg), depth);
    if (need > l.weight_banks) {
      if (l.data_banks + need > max_total || l.reuse != ConvReuse::None) return false;  // banks are fixed when reusing
      l.weight_banks = static_cast<uint32_t>(need);
    }
    l.skip_weight_rls = true;
    return true;
  };
  switch (next) {
    case ConvReuse::None:
      if (r.chance(0.15)) l.skip_data_rls = true;
      else if (d.slices >= 2 && r.chance(0.15)) l.release_slices = static_cast<uint32_t>(r.uniform(1, d.slices - 1));
      if (r.chance(0.15)) {
        const ConvLayerSpec before = l;
        if (!keep_weights()) l = before;
      }
      return true;
    case ConvReuse::DataFull:
      if (l.kept_lines) return false;  // its CDMA describes only the new lines: keep full reuse unambiguous
      l.skip_data_rls = true;
      return true;
    case ConvReuse::DataPartial:
      if (l.mode == ConvMode::Winograd || l.batches != 1 || d.slices < 2) return false;
      l.release_slices = static_cast<uint32_t>(r.uniform(1, d.slices - 1));
      return true;
    case ConvReuse::Weights: return keep_weights();
    case ConvReuse::DataAndWeights:
      if (l.kept_lines) return false;
      l.skip_data_rls = true;
      return keep_weights();
  }
  return false;
}

Program conv_random_program(const HwConfig& cfg, uint64_t seed, const ConvRandomOptions& o) {
  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "conv.shape");
  Rng plan = Rng::stream(seed, "conv.plan");
  Rng layout = Rng::stream(seed, "conv.layout");
  Rng data = Rng::stream(seed, "conv.data");
  Rng fill = Rng::stream(seed, "conv.fill");
  Rng junk = Rng::stream(seed, "conv.junk");
  if (!o.knob_note.empty()) b.note(o.knob_note);
  ConvAllocator alloc(cfg, layout);
  if (o.high_addresses) {
    Rng high = Rng::stream(seed, "conv.high");
    alloc.restart_dbb(random_dbb_start_anywhere(cfg, high, true));
  }
  wait_cbuf_flush(p, cfg);
  std::optional<ConvLayerSpec> prev;
  ConvCbufState state;
  ConvReuse rel = ConvReuse::None;
  unsigned rdma_arms = 0;
  NvdlaWeightCredit nvdla_credit;  // what NVIDIA's CDMA may still count as occupied (avoid mode)
  Rng pdp_rng = Rng::stream(seed, "conv.pdp");
  Rng window_rng = Rng::stream(seed, "conv.window");
  Rng element_rng = Rng::stream(seed, "conv.sdp_element");
  Rng ew_memory_rng = Rng::stream(seed, "conv.sdp_ew_memory");
  Rng pairs_rng = Rng::stream(seed, "conv.sdp_pairs");
  unsigned pdp_layers = 0;         // PDP's own ping-pong group alternates per PDP layer
  ConvDrawOptions draw = o.draw;
  for (unsigned i = 0; i < o.layers; ++i) {
    if (o.draw.avoid_nvdla_errata) draw.nvdla_weight_entries_held = nvdla_credit.high();
    std::optional<ConvLayerSpec> cand = random_conv_layer(cfg, shape, draw, prev ? &*prev : nullptr, rel);
    if (!cand && rel != ConvReuse::None) {
      b.note(fmt::format("layer {}: no layer fits the planned {} reuse; drawn without reuse", i, conv_reuse_name(rel)));
      rel = ConvReuse::None;
      cand = random_conv_layer(cfg, shape, draw, prev ? &*prev : nullptr, rel);
    }
    if (!cand && o.draw.avoid_nvdla_errata && nvdla_credit.high() > 0) {  // only reset would make room again
      b.note(fmt::format("layer {}: no layer fits beside the {} weight entries NVIDIA's CDMA may still count "
                         "(nvdla_errata=avoid, conv-weight-release-lost); the sequence ends after {} layers",
                         i, nvdla_credit.high(), i));
      break;
    }
    if (!cand) throw std::logic_error(fmt::format("conv.random: no legal layer found on '{}' (seed {})", cfg.name, seed));
    ConvLayerSpec l = *cand;
    random_conv_sdp(l, cfg, shape, o.draw);
    bool windowed = false;
    if (o.window_percent > 0 && l.proc_precision != Precision::Fp16 && window_rng.below(100) < o.window_percent) {
      windowed = true;
      // Half the windows: CLIP_TRUNCATE 0, so the output shows accumulator bits [shift,
      // shift + out_bits) exactly (plus SDP's rounding bit below and saturation above), wherever
      // the default aim would have put them. The other half: CLIP_TRUNCATE leaves about out_bits
      // and SDP does not shift, so CACC's rounding (guard and sticky bits) lands in the output's
      // low bit instead of below SDP's shift.
      ConvSdpSpec w;
      w.out = l.sdp.out;
      w.port = l.sdp.port;
      w.perf_enable = l.sdp.perf_enable;
      const int out_bits = w.out == Precision::Int8 ? 8 : 16;
      const int bits = static_cast<int>(acc_bits(l, cfg));
      if (window_rng.chance(0.5)) {
        l.clip_truncate = 0;
        w.cvt_shift = static_cast<uint32_t>(window_rng.uniform(0, static_cast<uint64_t>(std::max(0, bits - out_bits + 2))));
      } else {
        l.clip_truncate = static_cast<uint32_t>(std::clamp(bits - out_bits + static_cast<int>(window_rng.uniform(0, 3)), 1, 16));
        w.cvt_shift = 0;
      }
      l.sdp = w;
    }
    if (o.sdp_per_element_percent > 0)
      for (ConvSdpXStage* st : {&l.sdp.bs, &l.sdp.bn})
        if (st->enabled && (st->alu || st->mul) && element_rng.below(100) < o.sdp_per_element_percent) {
          st->alu_mem = st->alu;
          st->mul_mem = st->mul;
          st->per_element = true;
        }
    if (o.sdp_ew_memory_percent > 0 && cfg.sdp_ew && o.draw.sdp_ew && !windowed &&
        ew_memory_rng.below(100) < o.sdp_ew_memory_percent)
      draw_ew_memory(l, cfg, ew_memory_rng,
                     std::max(1, static_cast<int>(acc_bits(l, cfg)) - static_cast<int>(l.clip_truncate)),
                     ew_memory_rng.below(100) < o.draw.sram_percent);
    if (o.sdp_operand_pairs_percent > 0) pair_memory_operands(l, pairs_rng, o.sdp_operand_pairs_percent);
    l.sdp.rdma_group = rdma_arms % 2;
    if (l.sdp.needs_rdma()) ++rdma_arms;
    ConvReuse next = ConvReuse::None;
    if (o.reuse && i + 1 < o.layers) {
      const double u = plan.unit();
      next = u < 0.3 ? ConvReuse::None : u < 0.5 ? ConvReuse::DataFull : u < 0.65 ? ConvReuse::DataPartial
           : u < 0.85 ? ConvReuse::Weights : ConvReuse::DataAndWeights;
    }
    // Kept weights must fit beside what NVIDIA's CDMA may still count (a reusing layer's are counted already).
    const uint64_t held = o.draw.avoid_nvdla_errata && !l.weight_reuse ? nvdla_credit.high() : 0;
    if (!set_release_for_next(l, cfg, plan, next, held)) {
      next = ConvReuse::None;
      set_release_for_next(l, cfg, plan, next, held);
    }
    if (o.junk) {
      l.junk_ignored_fields = true;
      l.junk_seed = junk.next_u64();
    }
    const bool full = l.reuse == ConvReuse::DataFull || l.reuse == ConvReuse::DataAndWeights;
    if (!full) place_conv_input(l, cfg, layout, alloc);
    const ConvLayerData values = random_conv_data(l, cfg, data, o.special);
    ConvWeightImage weights;
    if (!reuses_weights(l.reuse)) {
      weights = conv_weight_image(l, cfg, values.kernels, fill);
      l.weight_bytes = weights.weight_bytes;
      l.wmb_bytes = weights.wmb_bytes;
    }
    place_conv_outputs(l, cfg, layout, alloc, !reuses_weights(l.reuse));
    // conv -> SDP -> PDP: a pooling layer over the convolution's output cube, SDP's output
    // precision left at the processing precision (no 8->16 split into PDP).
    std::optional<PdpLayer> pdp;
    if (o.pdp_percent > 0 && cfg.has_unit(Unit::PDP) && l.batches == 1 && l.mode != ConvMode::Winograd &&
        pdp_rng.below(100) < o.pdp_percent) {
      PdpShapeLimits lim;
      lim.avoid_nvdla_errata = o.avoid_pdp_errata;
      for (int attempt = 0; attempt < 8 && !pdp; ++attempt)
        pdp = random_pdp_layer_for_cube(cfg, pdp_rng, lim, l.out_width, l.out_height, l.kernels, l.proc_precision);
      if (pdp) {
        l.sdp.out = l.proc_precision;
        l.sdp.to_pdp = true;
        const uint64_t atom = cfg.atom_bytes;
        const uint64_t lanes = atom / pdp->elem_bytes(), surfaces = (pdp->channels + lanes - 1) / lanes;
        pdp->dst_port = MemPort::Dbb;
        pdp->dst_line = pdp->out_width * atom + (pdp_rng.chance(0.5) ? 0 : pdp_rng.uniform(1, 3) * atom);
        pdp->dst_surface = pdp->out_height * pdp->dst_line + (pdp_rng.chance(0.5) ? 0 : pdp_rng.uniform(1, 3) * atom);
        const uint64_t extent = (surfaces - 1) * pdp->dst_surface + (pdp->out_height - 1) * pdp->dst_line +
                                uint64_t{pdp->out_width} * atom;
        pdp->dst = alloc.take(MemPort::Dbb, extent, atom);
        std::vector<uint8_t> prefill(extent);
        for (uint8_t& v : prefill) v = static_cast<uint8_t>(pdp_rng.below(256));
        b.load(MemPort::Dbb, pdp->dst, std::move(prefill));
      }
    }
    const std::vector<std::string> problems = conv_layer_problems(l, cfg, state);
    if (!problems.empty())
      throw std::logic_error(fmt::format("conv.random drew an illegal layer {} on '{}' (seed {}): {} [{}]", i, cfg.name, seed,
                                         problems.front(), describe_conv_layer(l, cfg)));
    const NvdlaWeightLayer nvdla_weights = conv_nvdla_weight_layer(l, cfg);
    if (o.draw.avoid_nvdla_errata && nvdla_credit.possible_hang(nvdla_weights))
      throw std::logic_error(fmt::format("conv.random drew layer {} on '{}' (seed {}) whose weight fetch may hang on NVIDIA "
                                         "(conv-weight-release-lost) with nvdla_errata=avoid", i, cfg.name, seed));
    nvdla_credit.run(nvdla_weights);
    const unsigned group = i % 2;
    b.note(fmt::format("layer {} group {}: {}", i, group, describe_conv_layer(l, cfg)));
    for (ConvMemoryImage& m : conv_layer_images(l, cfg, values, weights, fill)) b.load(m.port, m.addr, std::move(m.bytes));
    program_conv_layer(b, cfg, l, group);
    if (pdp) {  // armed last: SDP waits for it (on-flying back-pressure)
      const uint32_t base_pdp = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)];
      const unsigned pg = pdp_layers++ % 2;
      b.note(fmt::format("layer {}: SDP -> PDP on-flying, PDP group {}: {}", i, pg, describe_pdp_layer(*pdp)));
      b.write(base_pdp + reg::PDP::S_POINTER::offset, pg);
      for (const auto& [off, v] : pdp_register_values(*pdp)) b.write(base_pdp + off, v);
      b.write(base_pdp + reg::PDP::D_OP_ENABLE::offset, 1);
      finish_conv_layer(b, cfg, l, group, fmt::format("layer {}", i));
      finish_pdp_layer(b, cfg, pg, conv_timeout(l, cfg) + pdp_timeout(*pdp, cfg), fmt::format("layer {} (PDP)", i));
    } else {
      finish_conv_layer(b, cfg, l, group, fmt::format("layer {}", i));
    }
    state = conv_state_after(l, cfg);
    prev = l;
    rel = next;
  }
  conv_quiescent_checks(b, cfg, "at the end");
  return p;
}

namespace {

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  ConvRandomOptions o;
  o.layers = static_cast<unsigned>(k.integer("layers", 1, 64));
  const std::string size = k.choice("size", {"small", "medium", "large"});
  const std::string mode = k.choice("mode", {"mixed", "direct", "image", "winograd"});
  const std::string precision = k.choice("precision", {"any", "int8", "int16", "fp16"});
  o.reuse = k.choice("reuse", {"yes", "no"}) == "yes";
  const std::string subset = k.choice("subset", {"full", "nv_small_rtl"});
  const uint64_t special = k.integer("special_permille", 0, 1000);
  const uint64_t batch = k.integer("batch_percent", 0, 100), compression = k.integer("compression_percent", 0, 100);
  const uint64_t sram = k.integer("sram_percent", 0, 100), post = k.integer("post_extension_percent", 0, 100);
  const bool nv_small = subset == "nv_small_rtl";
  const bool avoid_errata = k.choice("nvdla_errata", {"allow", "avoid"}) == "avoid";
  const std::string shape = k.choice("shape", {"any", "compute_bound", "memory_bound"});
  const bool compute_bound = shape == "compute_bound", memory_bound = shape == "memory_bound";
  const bool semi_planar = k.choice("pixel_formats", {"any", "semi_planar"}) == "semi_planar";
  o.pdp_percent = static_cast<unsigned>(k.integer("pdp_percent", 0, 100));
  o.window_percent = static_cast<unsigned>(k.integer("window_percent", 0, 100));
  o.sdp_per_element_percent = static_cast<unsigned>(k.integer("sdp_per_element_percent", 0, 100));
  o.sdp_ew_memory_percent = static_cast<unsigned>(k.integer("sdp_ew_memory_percent", 0, 100));
  o.sdp_operand_pairs_percent = static_cast<unsigned>(k.integer("sdp_operand_pairs_percent", 0, 100));
  const uint64_t wino_stride = k.integer("winograd_max_stride", 2, 8);
  o.high_addresses = k.choice("high_addresses", {"off", "on"}) == "on";
  o.avoid_pdp_errata = avoid_errata;
  auto refuse = [&](const std::string& knob, const std::string& value, const std::string& why) {
    return std::invalid_argument(fmt::format("test 'conv.random': knob {}='{}' {}", knob, value, why));
  };

  ConvDrawOptions& d = o.draw;
  d.limits = ConvShapeLimits::of(size == "small" ? ConvSize::Small : size == "medium" ? ConvSize::Medium : ConvSize::Large);
  const bool winograd = cfg.conv_winograd && !nv_small;
  if (mode == "winograd" && !winograd)
    throw refuse("mode", mode, nv_small ? "conflicts with subset=nv_small_rtl (int8 direct and image only)"
                                        : fmt::format("needs Winograd, which configuration '{}' does not have", cfg.name));
  if ((compute_bound || memory_bound) && mode != "mixed" && mode != "direct")
    throw refuse("shape", shape, "needs direct layers (mode=direct or mixed), not mode=" + mode);
  if (semi_planar && mode != "mixed" && mode != "image")
    throw refuse("pixel_formats", "semi_planar", "needs image layers (mode=image or mixed), not mode=" + mode);
  d.semi_planar_only = semi_planar;
  d.winograd_max_stride = static_cast<uint32_t>(wino_stride);
  if (compute_bound || memory_bound) {
    d.modes = {ConvMode::Direct};
    d.compute_bound = compute_bound;
    d.memory_bound = memory_bound;
    // its layers need up to ~110,000 atomic operations whatever the size knob says
    d.limits.max_atomic_ops = std::max(d.limits.max_atomic_ops, ConvShapeLimits::of(ConvSize::Medium).max_atomic_ops);
  } else if (mode == "mixed") {
    d.modes = {ConvMode::Direct, ConvMode::Direct, ConvMode::Image};
    if (winograd) d.modes.push_back(ConvMode::Winograd);
  } else {
    d.modes = {mode == "direct" ? ConvMode::Direct : mode == "image" ? ConvMode::Image : ConvMode::Winograd};
  }
  for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16})
    if (cfg.supports(p) && (!nv_small || p == Precision::Int8) && (precision == "any" || precision == precision_name(p)))
      d.precisions.push_back(p);
  if (d.precisions.empty())
    throw refuse("precision", precision, nv_small ? "conflicts with subset=nv_small_rtl (int8 only)"
                                                  : fmt::format("is not a precision of configuration '{}'", cfg.name));
  if (o.sdp_ew_memory_percent > 0 && (!cfg.sdp_ew || nv_small))
    throw refuse("sdp_ew_memory_percent", std::to_string(o.sdp_ew_memory_percent),
                 nv_small ? "conflicts with subset=nv_small_rtl (its SDP has no EW stage)"
                          : fmt::format("needs SDP's EW stage, which configuration '{}' does not have", cfg.name));
  if (o.sdp_operand_pairs_percent > 0 && o.sdp_per_element_percent == 0 && o.sdp_ew_memory_percent == 0)
    throw refuse("sdp_operand_pairs_percent", std::to_string(o.sdp_operand_pairs_percent),
                 "needs per-element operand streams: set sdp_per_element_percent or sdp_ew_memory_percent");
  d.batch_percent = nv_small ? 0 : static_cast<unsigned>(batch);
  d.compression_percent = nv_small ? 0 : static_cast<unsigned>(compression);
  d.sram_percent = nv_small ? 0 : static_cast<unsigned>(sram);
  d.post_extension_percent = static_cast<unsigned>(post);
  d.sdp_split = d.sdp_ew = !nv_small;
  d.avoid_nvdla_errata = avoid_errata;
  o.special = static_cast<double>(special) / 1000.0;
  o.knob_note = fmt::format("knobs: layers={} size={} mode={} precision={} reuse={} subset={} special_permille={} "
                            "batch_percent={} compression_percent={} sram_percent={} post_extension_percent={} "
                            "nvdla_errata={}",
                            o.layers, size, mode, precision, o.reuse ? "yes" : "no", subset, special, batch, compression,
                            sram, post, avoid_errata ? "avoid" : "allow");
  if (shape != "any") o.knob_note += " shape=" + shape;
  if (o.pdp_percent > 0) o.knob_note += fmt::format(" pdp_percent={}", o.pdp_percent);
  if (o.window_percent > 0) o.knob_note += fmt::format(" window_percent={}", o.window_percent);
  if (o.sdp_per_element_percent > 0) o.knob_note += fmt::format(" sdp_per_element_percent={}", o.sdp_per_element_percent);
  if (o.sdp_ew_memory_percent > 0) o.knob_note += fmt::format(" sdp_ew_memory_percent={}", o.sdp_ew_memory_percent);
  if (o.sdp_operand_pairs_percent > 0)
    o.knob_note += fmt::format(" sdp_operand_pairs_percent={}", o.sdp_operand_pairs_percent);
  if (semi_planar) o.knob_note += " pixel_formats=semi_planar";
  if (wino_stride != 3) o.knob_note += fmt::format(" winograd_max_stride={}", wino_stride);
  if (o.high_addresses) o.knob_note += " high_addresses=on";
  return conv_random_program(cfg, seed, o);
}

std::string no_conv(const HwConfig& cfg) {
  for (Unit u : {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC, Unit::SDP, Unit::SDP_RDMA})
    if (!cfg.has_unit(u)) return std::string("the configuration has no ") + unit_name(u);
  return "";
}

}  // namespace

TestGenerator make_conv_random_generator() {
  TestGenerator g;
  g.needs_conv = true;
  g.name = "conv.random";
  g.description = "random legal convolution layers (direct, image, Winograd; every precision; CBUF split, release and "
                  "reuse sequences; compression, batching) through CDMA..CACC into SDP on both groups";
  g.knobs = {{"layers", "3", "layers, alternating register groups (nvdla_errata=avoid: fewer when no further layer fits beside "
                             "the weight entries NVIDIA's CDMA may still count, noted)"},
             {"size", "small", "small (W,H <= 16, C <= 64, K <= 32, <= 8192 atomic operations) | medium | large"},
             {"mode", "mixed", "mixed | direct | image | winograd (configurations with Winograd)"},
             {"precision", "any", "processing precision: any | int8 | int16 | fp16 (the configuration's)"},
             {"reuse", "yes", "yes: consecutive layers reuse data (full or partial) and weights | no"},
             {"subset", "full", "full | nv_small_rtl: only what NVIDIA's nv_small RTL runs (int8 direct and image)"},
             {"special_permille", "20", "per-mille density of fp16 NaN/Inf/subnormal/+-0/max and integer extremes in the "
                                        "data (a quarter of it in the weights)"},
             {"batch_percent", "25", "per-cent of direct layers with 2+ batches (configurations with batching)"},
             {"compression_percent", "25", "per-cent of layers with compressed weights (configurations with compression)"},
             {"sram_percent", "20", "per-cent of input/weight/output regions on the secondary port (configurations with one)"},
             {"post_extension_percent", "40", "per-cent of image layers with S*C <= AC/2 that use Y_EXTENSION"},
             {"pdp_percent", "0", "per-cent of layers (one batch, not Winograd) whose SDP output streams on-flying into a "
                                  "random PDP pooling layer over the convolution's output (conv -> SDP -> PDP)"},
             {"window_percent", "0", "per-cent of integer layers whose output is a random window of the accumulator "
                                     "bits, low bits included (SDP BS/BN/EW bypassed, converter scale 1, offset 0; half "
                                     "CLIP_TRUNCATE 0 and shift 0..accumulator width, half CLIP_TRUNCATE to about the "
                                     "output width and shift 0, so CACC's rounding shows)"},
             {"high_addresses", "off", "on: the DBB regions (input, weights, SDP operands and output) start anywhere in "
                                       "the configuration's address space, not just above 0x8000_0000"},
             {"winograd_max_stride", "3", "largest Winograd stride (2..8; strides above 1 are drawn from 2 to it)"},
             {"sdp_per_element_percent", "0", "per-cent of enabled SDP BS/BN stages whose operands come per element "
                                              "from memory (a W x H x K operand cube, the same for every batch)"},
             {"sdp_ew_memory_percent", "0", "per-cent of layers (no output window) whose SDP EW stage takes its ALU and/or "
                                            "MUL operand from memory (per kernel or per element, 1 or 2 bytes, through the "
                                            "operand converters; configurations with EW)"},
             {"sdp_operand_pairs_percent", "0", "per-cent of per-element SDP operand streams (BS, BN, EW) that carry both "
                                                "the ALU and the MUL operand, two bytes each (with sdp_per_element_percent or "
                                                "sdp_ew_memory_percent)"},
             {"pixel_formats", "any", "any | semi_planar: image layers use only the two-plane formats (Y plane and an "
                                     "interleaved UV plane, both read walkers of CDMA's image fetch); mode image or mixed"},
             {"shape", "any", "any | compute_bound: direct 3x3 layers over 8..12 full channel blocks and full kernel groups "
                              "(throughput checks) | memory_bound: weight-streaming direct layers, one output pixel, "
                              "the kernel as large as the 2..3 x 2..3 input, 4..8 channel blocks, 4..8 kernel groups"},
             {"nvdla_errata", "allow", "allow | avoid: WEIGHT_BYTES exactly what CSC consumes, bank-split changes "
                                       "that never shrink a region, post-extension only with x stride 1, no image "
                                       "layer of one output column over more than 3 channel blocks, kernel groups that "
                                       "fit beside the weight entries NVIDIA's CDMA may still count (NVIDIA's nv_small "
                                       "RTL conv errata, docs/nvdla-differential.md)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = no_conv;
  return g;
}

}  // namespace dla::stimulus
