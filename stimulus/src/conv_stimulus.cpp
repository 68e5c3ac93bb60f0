#include "conv_stimulus.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "dla/numerics/float_convert.h"
#include "dla/regs.gen.h"

namespace dla::stimulus {

namespace CD = reg::CDMA;
namespace CS = reg::CSC;
namespace CA = reg::CACC;
namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;
using formats::PixelFormat;
using formats::pixel_format_info;

namespace {

uint32_t base_of(const HwConfig& cfg, Unit u) {
  if (!cfg.has_unit(u)) throw std::logic_error(fmt::format("configuration '{}' has no {}", cfg.name, unit_name(u)));
  return *cfg.unit_base[static_cast<unsigned>(u)];
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t round_up(uint64_t a, uint64_t m) { return ceil_div(a, m) * m; }
unsigned log2_ceil(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < v) ++n;
  return n;
}
uint32_t p32(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
uint32_t u16(int v) { return static_cast<uint32_t>(static_cast<uint16_t>(v)); }

const formats::PixelFormatInfo& pix(const ConvLayerSpec& l) { return pixel_format_info(l.pixel_format); }
bool semi_planar(const ConvLayerSpec& l) { return l.mode == ConvMode::Image && pix(l).planes == 2; }
bool pixel_fp16(PixelFormat f) { return pixel_format_info(f).precision == Precision::Fp16; }

// ---- values

uint16_t fp16_special(Rng& r) {
  const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
  switch (r.below(6)) {
    case 0: return static_cast<uint16_t>(sign | 0x7c00 | r.uniform(1, 0x3ff));  // NaN
    case 1: return static_cast<uint16_t>(sign | 0x7c00);                        // +-Inf
    case 2: return static_cast<uint16_t>(sign | r.uniform(1, 0x3ff));           // subnormal
    case 3: return sign;                                                        // +-0
    case 4: return static_cast<uint16_t>(sign | 0x7bff);                        // +-max
    default: return static_cast<uint16_t>(sign | 0x0400);                       // +-min normal
  }
}

// A finite fp16 with exponent field in [center - 3, center + 3].
uint16_t fp16_moderate(Rng& r, int center) {
  const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
  const int e = std::clamp(center + static_cast<int>(r.uniform_signed(-3, 3)), 1, 30);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(e) << 10) | r.below(0x400));
}

uint16_t int_value(Rng& r, unsigned bits, unsigned magnitude_bits, double special, bool saturating) {
  const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
  if (saturating) return static_cast<uint16_t>(r.chance(0.8) ? (r.chance(0.5) ? lo : hi) : r.uniform_signed(lo, hi));
  if (r.chance(special)) return static_cast<uint16_t>(r.choice(std::vector<int64_t>{lo, hi, 0, -1, 1, lo + 1, hi - 1}));
  const unsigned m = std::clamp(magnitude_bits, 1u, bits);
  const int64_t half = int64_t{1} << (m - 1);
  return static_cast<uint16_t>(r.uniform_signed(-half, half - 1));
}

uint16_t element(Rng& r, Precision p, unsigned magnitude_bits, int fp_center, double special, bool saturating) {
  if (p == Precision::Fp16) return r.chance(special) ? fp16_special(r) : fp16_moderate(r, fp_center);
  const uint16_t v = int_value(r, p == Precision::Int8 ? 8 : 16, magnitude_bits, special, saturating);
  return p == Precision::Int8 ? static_cast<uint16_t>(v & 0xffu) : v;
}

uint16_t float_to_fp16(double v) {
  const float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return num::fp32_to_fp16(bits);
}
double fp16_to_double(uint16_t h) {
  const uint32_t bits = num::fp16_to_fp32(h);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

const char* conv_mode_name(ConvMode m) {
  switch (m) {
    case ConvMode::Direct: return "direct";
    case ConvMode::Image: return "image";
    default: return "winograd";
  }
}

const char* conv_reuse_name(ConvReuse r) {
  static const char* kNames[] = {"none", "data_full", "data_partial", "weights", "data_and_weights"};
  return kNames[static_cast<unsigned>(r)];
}

uint32_t ConvSdpXStage::cfg_register() const {
  // BYPASS[0] ALU_BYPASS[1] ALU_ALGO[3:2] MUL_BYPASS[4] MUL_PRELU[5] RELU_BYPASS[6]
  return (enabled ? 0u : 1u) | (alu ? 0u : 2u) | (alu_algo << 2) | (mul ? 0u : 0x10u) | (prelu ? 0x20u : 0u) |
         (relu ? 0u : 0x40u);
}

// ------------------------------------------------------------------ derived quantities

uint32_t conv_entries_per_slice(const ConvLayerSpec& l, const HwConfig& cfg) {
  const uint64_t e_bytes = cfg.conv_cbuf_entry_bytes, es = l.proc_es();
  const uint64_t a = cfg.atom_bytes / es, ape = std::max(1u, cfg.conv_cbuf_entry_bytes / cfg.atom_bytes);
  switch (l.mode) {
    case ConvMode::Direct: {
      const uint64_t n = ceil_div(l.channels, a), q = n / ape, r = n % ape, w = l.width;
      uint64_t extra = 0;
      if (r == 0) extra = 0;
      else if (2 * r > ape) extra = w;
      else if (2 * r == ape) extra = ceil_div(w, 2);
      else if (4 * r == ape) extra = ceil_div(w, 4);
      else extra = ceil_div(w * (uint64_t{1} << log2_ceil(r)), ape);  // ape >= 8 (not in the spec's configurations)
      return static_cast<uint32_t>(q * w + extra);
    }
    case ConvMode::Image: {
      const uint64_t line = uint64_t{l.pad_left} + l.width + l.pad_right;
      return static_cast<uint32_t>(ceil_div(line * l.channels * es, e_bytes));
    }
    default: {
      const uint64_t w_ext = (uint64_t{l.pad_left} + l.width + l.pad_right) / l.stride_x;
      const uint64_t n = l.channels / a;
      return static_cast<uint32_t>(w_ext * n * l.stride_x * l.stride_y / ape);
    }
  }
}

ConvDerived conv_derived(const ConvLayerSpec& l, const HwConfig& cfg) {
  ConvDerived d;
  const unsigned es = l.proc_es();
  d.atom_elems = cfg.atom_bytes / es;
  d.ak = cfg.conv_kernels_per_group(l.proc_precision);
  d.ac = cfg.conv_mac_atomic_c;
  d.ape = std::max(1u, cfg.conv_cbuf_entry_bytes / cfg.atom_bytes);
  d.groups = static_cast<uint32_t>(ceil_div(l.kernels, d.ak));
  const uint64_t outs = uint64_t{l.out_width} * l.out_height;
  switch (l.mode) {
    case ConvMode::Direct:
      d.w_ext = d.cdma_w_ext = l.width;
      d.h_ext = l.csc_height();
      d.cdma_h_ext = l.height;
      d.c_ext = l.channels;
      d.kernel_w_ext = l.kernel_w;
      d.kernel_h_ext = l.kernel_h;
      d.kernel_c_ext = l.channels;
      d.bytes_per_kernel = uint64_t{l.kernel_h} * l.kernel_w * l.channels * es;
      d.slices = l.batches * l.csc_height();
      d.cdma_slices = l.batches * l.height;
      d.atomic_ops = l.batches * outs * ceil_div(l.channels, d.ac) * l.kernel_h * l.kernel_w * d.groups;
      break;
    case ConvMode::Image: {
      d.w_ext = d.cdma_w_ext = l.width;
      d.h_ext = l.csc_height();
      d.cdma_h_ext = l.height;
      d.c_ext = l.channels;
      d.kernel_w_ext = 1;
      d.kernel_h_ext = l.kernel_h;
      d.kernel_c_ext = l.kernel_w * l.channels;
      d.bytes_per_kernel = uint64_t{l.kernel_h} * l.kernel_w * l.channels * es;
      d.slices = l.csc_height();
      d.cdma_slices = l.height;
      const uint64_t p = uint64_t{1} << l.y_extension;
      d.atomic_ops = outs * ceil_div(d.kernel_c_ext, d.ac) * ceil_div(l.kernel_h, p) * d.groups;
      break;
    }
    case ConvMode::Winograd:
      d.w_ext = d.cdma_w_ext = (l.pad_left + l.width + l.pad_right) / l.stride_x;
      d.h_ext = d.cdma_h_ext = (l.pad_top + l.height + l.pad_bottom) / l.stride_y;
      d.c_ext = l.channels * l.stride_x * l.stride_y;
      d.kernel_w_ext = d.kernel_h_ext = 4;
      d.kernel_c_ext = d.c_ext;
      d.bytes_per_kernel = 16ull * d.c_ext * es;
      d.slices = d.cdma_slices = d.h_ext;
      d.atomic_ops = ceil_div(l.out_width, 2) * ceil_div(l.out_height, 2) * ceil_div(d.c_ext, 4) * d.groups;
      break;
  }
  d.entries = conv_entries_per_slice(l, cfg);
  const unsigned out_epa = cfg.atom_bytes / conv_es(l.sdp.out);
  if (l.proc_precision == Precision::Int8 && l.sdp.out != Precision::Int8)
    d.out_surfaces = static_cast<uint32_t>(2 * ceil_div(l.kernels, cfg.atom_bytes));  // 8->16 split
  else
    d.out_surfaces = static_cast<uint32_t>(ceil_div(l.kernels, out_epa));
  return d;
}

uint64_t conv_uncompressed_weight_bytes(const ConvLayerSpec& l, const HwConfig& cfg) {
  const uint64_t raw = uint64_t{l.kernels} * conv_derived(l, cfg).bytes_per_kernel;
  return l.minimal_weight_bytes ? round_up(raw, cfg.conv_cbuf_entry_bytes) : formats::round_up_128(raw);
}

uint64_t conv_weight_entries_needed(const ConvLayerSpec& l, const HwConfig& cfg) {
  const ConvDerived d = conv_derived(l, cfg);
  const uint64_t e = cfg.conv_cbuf_entry_bytes;
  if (l.skip_weight_rls) {
    const uint64_t bytes = l.weight_bytes ? l.weight_bytes : conv_uncompressed_weight_bytes(l, cfg);
    return ceil_div(bytes, e);
  }
  const uint64_t group = uint64_t{std::min<uint32_t>(d.ak, l.kernels)} * d.bytes_per_kernel;
  return ceil_div(group, e) + 2;  // a group straddles one more entry; one more as margin (§8.1)
}

NvdlaWeightLayer conv_nvdla_weight_layer(const ConvLayerSpec& l, const HwConfig& cfg) {
  const ConvDerived d = conv_derived(l, cfg);
  NvdlaWeightLayer w;
  w.region = uint64_t{l.weight_banks} * cfg.conv_cbuf_bank_entries;
  w.keeps = l.skip_weight_rls;
  w.reuses = l.weight_reuse;
  if (!l.compressed && !l.weight_reuse)
    w.groups = nvdla_weight_group_entries(l.kernels, d.bytes_per_kernel,
                                          l.weight_bytes ? l.weight_bytes : conv_uncompressed_weight_bytes(l, cfg), d.ak,
                                          cfg.conv_cbuf_entry_bytes);
  return w;
}

uint64_t conv_output_extent(const ConvLayerSpec& l, const HwConfig& cfg) {
  const ConvDerived d = conv_derived(l, cfg);
  return uint64_t{l.batches - 1} * l.sdp.batch_stride + uint64_t{d.out_surfaces - 1} * l.sdp.surface_stride +
         uint64_t{l.out_height - 1} * l.sdp.line_stride + uint64_t{l.out_width} * cfg.atom_bytes;
}

uint64_t conv_operand_cube_extent(const ConvLayerSpec& l, const HwConfig& cfg, const ConvSdpXStage& st) {
  const uint64_t epa = cfg.atom_bytes / l.proc_es();
  return (ceil_div(l.kernels, epa) - 1) * st.op_surface + uint64_t{l.out_height - 1} * st.op_line +
         uint64_t{l.out_width} * epa * st.operand_bytes_per_element();
}

uint64_t conv_input_extent(const ConvLayerSpec& l, const HwConfig& cfg, bool plane1) {
  const uint64_t a = cfg.atom_bytes;
  if (l.mode == ConvMode::Image) {
    const auto& info = pix(l);
    const unsigned p = plane1 ? 1 : 0;
    if (plane1 && info.planes != 2) return 0;
    const uint64_t line = plane1 ? l.src_uv_line : l.src_line;
    // Whole atoms of the last line, rounded to 64 bytes (the DMA may read a full beat).
    return round_up(uint64_t{l.height - 1} * line + round_up(uint64_t{l.pixel_x_offset + l.width} * info.plane_bytes[p], a),
                    64);
  }
  if (plane1) return 0;
  const uint64_t surfaces = ceil_div(l.channels, a / l.in_es());
  return round_up(uint64_t{l.batches - 1} * l.src_batch + (surfaces - 1) * l.src_surface +
                      uint64_t{l.height - 1} * l.src_line + uint64_t{l.width} * a,
                  64);
}

ConvCbufState conv_state_after(const ConvLayerSpec& l, const HwConfig& cfg) {
  ConvCbufState s;
  const ConvDerived d = conv_derived(l, cfg);
  s.valid = true;
  s.mode = l.mode;
  s.data_banks = l.data_banks;
  s.weight_banks = l.weight_banks;
  s.kept_slices = l.skip_data_rls ? d.slices : d.slices - std::min(d.slices, l.release_slices);
  s.weights_kept = l.skip_weight_rls;
  s.compressed = l.compressed;
  s.kernels = l.kernels;
  s.bytes_per_kernel = d.bytes_per_kernel;
  s.weight_bytes = l.weight_bytes;
  s.wmb_bytes = l.wmb_bytes;
  s.layer = l;
  return s;
}

// ------------------------------------------------------------------ legality

std::vector<std::string> conv_layer_problems(const ConvLayerSpec& l, const HwConfig& cfg, const ConvCbufState& before,
                                             unsigned checks) {
  std::vector<std::string> v;
  auto bad = [&](std::string m) { v.push_back(std::move(m)); };
  const bool features = (checks & kConvCheckFeatures) != 0, memory = (checks & kConvCheckMemory) != 0;
  const ConvDerived d = conv_derived(l, cfg);
  const uint64_t depth = cfg.conv_cbuf_bank_entries, e_bytes = cfg.conv_cbuf_entry_bytes, a = cfg.atom_bytes;
  const bool v1 = cfg.register_variant == "nvdlav1";

  // Features of the configuration (conv.md §1.1).
  if (features) {
    for (Precision p : {l.in_precision, l.proc_precision, l.sdp.out})
      if (!cfg.supports(p)) bad(fmt::format("precision {} is not supported by '{}'", precision_name(p), cfg.name));
    if (l.mode == ConvMode::Winograd && !cfg.conv_winograd) bad("Winograd on a configuration without it");
    if (l.batches > 1 && !cfg.conv_batching) bad("batching on a configuration without it");
    if (l.compressed && !cfg.conv_compression) bad("weight compression on a configuration without it");
    if ((l.data_port == MemPort::Sram || l.weight_port == MemPort::Sram || l.sdp.port == MemPort::Sram ||
         (l.sdp.bs.uses_memory() && l.sdp.bs.operand_port == MemPort::Sram) ||
         (l.sdp.bn.uses_memory() && l.sdp.bn.operand_port == MemPort::Sram) ||
         (l.sdp.ew_stream.uses_memory() && l.sdp.ew_stream.operand_port == MemPort::Sram)) &&
        !cfg.sram_if)
      bad("secondary memory port on a configuration without it");
  }

  // Sizes and register ranges.
  if (l.width < 1 || l.height < 1 || l.channels < 1 || l.kernels < 1 || l.out_width < 1 || l.out_height < 1)
    bad("zero size");
  if (d.w_ext > 8192 || d.h_ext > 8192 || d.c_ext > 8192 || l.kernels > 8192 || l.out_width > 8192 ||
      l.out_height > 8192 || d.kernel_c_ext > 8192)
    bad("a size exceeds its 13-bit field");
  if (l.kernel_w > 32 || l.kernel_h > 32) bad("kernel larger than 32");
  if (l.stride_x < 1 || l.stride_x > 8 || l.stride_y < 1 || l.stride_y > 8) bad("stride outside 1..8");
  if (l.dilation_x < 1 || l.dilation_x > 32 || l.dilation_y < 1 || l.dilation_y > 32) bad("dilation outside 1..32");
  if (l.batches < 1 || l.batches > 32) bad("batches outside 1..32");
  if (uint64_t{l.out_width} * l.out_height > (uint64_t{1} << 21)) bad("ATOMICS exceeds 21 bits");
  if (d.bytes_per_kernel > (uint64_t{1} << 18)) bad("BYTE_PER_KERNEL exceeds 18 bits");
  if (l.clip_truncate > 16) bad("CLIP_TRUNCATE above 16");
  if (l.cvt_truncate > 63) bad("CVT_TRUNCATE above 63");
  if (l.entries_per_slice != d.entries)
    bad(fmt::format("ENTRY_PER_SLICE {} differs from the §8.2 value {}", l.entries_per_slice, d.entries));
  if (l.entries_per_slice > (v1 ? 4096u : 16384u)) bad("ENTRY_PER_SLICE exceeds its field");

  // Modes (§4, §5, §6).
  if (l.mode != ConvMode::Image && l.in_precision != l.proc_precision) bad("IN and PROC precision differ outside image mode");
  if (l.cvt_en && l.proc_precision == Precision::Fp16 && l.mode != ConvMode::Image) bad("CVT_EN with fp16");
  if (l.mode != ConvMode::Direct && l.batches > 1) bad("batches outside direct feature mode");
  if (l.mode != ConvMode::Direct && (l.dilation_x != 1 || l.dilation_y != 1)) bad("dilation outside direct mode");
  if (l.mode == ConvMode::Direct) {
    const uint64_t sw = uint64_t{l.kernel_w - 1} * l.dilation_x + 1, sh = uint64_t{l.kernel_h - 1} * l.dilation_y + 1;
    if (l.pad_left > 31 || l.pad_top > 31) bad("CSC padding above 31");
    if (l.pad_left >= sw || l.pad_top >= sh) bad("padding reaches past the first window");
    const uint64_t last_x = uint64_t{l.out_width - 1} * l.stride_x, last_y = uint64_t{l.out_height - 1} * l.stride_y;
    if (last_x >= uint64_t{l.pad_left} + l.width || last_y >= uint64_t{l.pad_top} + l.csc_height())
      bad("an output window lies entirely in the right or bottom padding");
  }
  if (l.mode == ConvMode::Image) {
    const auto& info = pix(l);
    if (l.channels != info.channels) bad("C differs from the pixel format's component count");
    if (info.precision != l.in_precision) bad("IN_PRECISION differs from the pixel format's precision");
    if (info.precision == Precision::Fp16 && (l.proc_precision != Precision::Fp16 || l.cvt_en))
      bad("fp16 pixels need PROC fp16 and CVT_EN = 0");
    if (l.in_precision != l.proc_precision && !l.cvt_en) bad("a precision change needs CVT_EN = 1");
    if (l.proc_precision == Precision::Fp16 && info.precision != Precision::Fp16 &&
        (l.pad_value != 0 || l.cdma_pad_value != 0 || (l.cvt_en && !l.mean_format && l.cvt_offset != 0) ||
         (l.cvt_en && l.mean_format && (l.mean[0] | l.mean[1] | l.mean[2] | l.mean[3]) != 0)))
      bad("integer pixels to fp16 need offset 0 and pad values 0");
    if (l.pixel_x_offset > formats::max_x_offset(l.pixel_format, cfg.atom_bytes)) bad("PIXEL_X_OFFSET too large");
    if (info.planes == 2 && uint64_t{l.pixel_x_offset} * 2 * conv_es(info.precision) >= a)
      bad("semi-planar X offset beyond one atom of plane 1 (conv.md §11.1 point 5)");
    if (l.pad_left > 31 || l.pad_right > 63 || l.pad_top > 31) bad("image padding outside its fields");
    const uint64_t line = uint64_t{l.pad_left} + l.width + l.pad_right;
    if (uint64_t{l.out_width - 1} * l.stride_x + l.kernel_w > line) bad("a window leaves the padded line");
    if (l.pad_top >= l.kernel_h) bad("top padding reaches past the first window");
    if (uint64_t{l.out_height - 1} * l.stride_y >= uint64_t{l.pad_top} + l.csc_height())
      bad("an output window lies entirely in the bottom padding");
    if (l.y_extension > 2) bad("Y_EXTENSION above 2");
    if (l.y_extension > 0 && uint64_t{l.kernel_w} * l.channels * (1u << l.y_extension) > d.ac)
      bad("post-extension needs S*C <= AC/P");
    if (memory && l.src_line < uint64_t{l.pixel_x_offset + l.width} * info.plane_bytes[0]) bad("pixel line stride too small");
    if (memory && info.planes == 2 && l.src_uv_line < uint64_t{l.pixel_x_offset + l.width} * info.plane_bytes[1])
      bad("pixel UV line stride too small");
  }
  if (l.mode == ConvMode::Winograd) {
    if (l.channels % d.atom_elems != 0) bad("Winograd C is not a multiple of the atom");
    if (l.cvt_en) bad("CVT_EN in Winograd mode");
    const uint64_t tw = uint64_t{l.pad_left} + l.width + l.pad_right, th = uint64_t{l.pad_top} + l.height + l.pad_bottom;
    if (tw % (4ull * l.stride_x) != 0 || th % (4ull * l.stride_y) != 0) bad("padded Winograd cube not divisible by 4*stride");
    if (l.pad_left >= 3 * l.stride_x || l.pad_top >= 3 * l.stride_y || (l.stride_x == 1 && l.pad_left > 1) ||
        (l.stride_y == 1 && l.pad_top > 1))
      bad("Winograd left/top padding too large");
    if (l.pad_left > 31 || l.pad_right > 63 || l.pad_top > 31 || l.pad_bottom > 63) bad("Winograd padding outside its fields");
    if (d.w_ext <= 4 || d.h_ext <= 4 || l.out_width != d.w_ext - 4 || l.out_height != d.h_ext - 4)
      bad("Winograd output must be W_ext-4 x H_ext-4 with W_ext, H_ext > 4");
    if (l.kernel_w > 3 * l.stride_x || l.kernel_h > 3 * l.stride_y) bad("kernel does not fold into 3x3");
    if (l.pra_truncate > 2) bad("PRA_TRUNCATE above 2");
  }

  const uint64_t raw = uint64_t{l.kernels} * d.bytes_per_kernel;
  const uint64_t wmb_formula = ceil_div(raw / l.proc_es(), 1024) * 128;
  // Memory and weight sizes (once placed).
  if (memory) {
  auto aligned = [&](uint64_t x) { return x % a == 0; };
  if (!aligned(l.src) || !aligned(l.src_line) || !aligned(l.src_surface) || !aligned(l.src_batch) || !aligned(l.src_uv) ||
      !aligned(l.src_uv_line) || !aligned(l.weight_addr) || !aligned(l.sdp.dst) || !aligned(l.sdp.line_stride) ||
      !aligned(l.sdp.surface_stride) || !aligned(l.sdp.batch_stride))
    bad("an address or stride is not atom aligned");
  if (l.mode != ConvMode::Image) {
    const uint64_t surfaces = ceil_div(l.channels, a / l.in_es());
    if (l.src_line < uint64_t{l.width} * a || l.src_surface < uint64_t{l.height} * l.src_line ||
        (l.batches > 1 && l.src_batch < surfaces * l.src_surface))
      bad("input strides overlap");
  }
  if (l.compressed && (l.wgs_addr % 32 != 0 || !aligned(l.wmb_addr))) bad("WGS/WMB address not aligned");
  if (l.mode == ConvMode::Direct && l.fetch_grain > 1 && l.src_line != uint64_t{l.width} * a)
    bad("FETCH_GRAIN > 0 needs LINE_PACKED");
  if (l.batches > 1 && (l.sdp.dst % 64 || l.sdp.line_stride % 64 || l.sdp.surface_stride % 64 || l.sdp.batch_stride % 64))
    bad("batching needs 64-byte aligned output");
  if (l.batches > 1 && !(l.out_width == 1 && l.out_height == 1) && l.sdp.line_stride == uint64_t{l.out_width} * a)
    bad("batching needs an unpacked output line");
  if (l.sdp.line_stride < uint64_t{l.out_width} * a || (l.sdp.surface_stride < uint64_t{l.out_height} * l.sdp.line_stride &&
                                                          !(l.out_width == 1 && l.out_height == 1 && l.batches == 1)))
    bad("output strides overlap");
  if (l.out_width == 1 && l.out_height == 1 && l.batches == 1 && l.sdp.surface_stride != a)
    bad("a 1x1 output needs surface stride = atom");

  // Weights.
  if (!l.compressed && (l.weight_bytes < raw || l.weight_bytes % e_bytes != 0)) bad("WEIGHT_BYTES below K*BPK or not an entry multiple");
  if (l.compressed && (l.weight_bytes % 128 != 0 || l.weight_bytes == 0 || l.wmb_bytes != wmb_formula))
    bad("compressed WEIGHT_BYTES/WMB_BYTES not as §7.3");
  if (v1 && l.weight_bytes % 128 != 0) bad("WEIGHT_BYTES not a multiple of 128 on nv_full");
  }

  if (l.fetch_grain < 1 || (l.mode == ConvMode::Direct && l.fetch_grain > l.height) || (l.mode != ConvMode::Direct && l.fetch_grain != 1))
    bad("FETCH_GRAIN outside 1..H");

  // CBUF (§8).
  const uint64_t max_banks = cfg.conv_cbuf_banks - (l.compressed ? 1 : 0);
  if (l.data_banks < 1 || l.weight_banks < 1 || uint64_t{l.data_banks} + l.weight_banks > max_banks)
    bad(fmt::format("DATA_BANK+1 + WEIGHT_BANK+1 = {} exceeds {} banks", l.data_banks + l.weight_banks, max_banks));
  if (uint64_t{d.slices} * l.entries_per_slice > uint64_t{l.data_banks} * depth)
    bad(fmt::format("{} slices of {} entries do not fit {} data banks", d.slices, l.entries_per_slice, l.data_banks));
  if (conv_weight_entries_needed(l, cfg) > uint64_t{l.weight_banks} * depth) bad("weights do not fit the weight banks");
  if (l.compressed && (l.skip_weight_rls ? ceil_div(wmb_formula, e_bytes) : ceil_div(ceil_div(raw / l.proc_es(), 8), e_bytes) + 2) > depth)
    bad("WMB does not fit its bank");
  if (!l.skip_data_rls && (l.release_slices < 1 || l.release_slices > d.slices)) bad("RLS_SLICES outside the layer's slices");
  if (l.release_slices > 4096) bad("RLS_SLICES exceeds 12 bits");

  // Reuse (§8.4, §8.5).
  const bool same_cbuf = before.valid && before.mode == l.mode && before.data_banks == l.data_banks &&
                         before.weight_banks == l.weight_banks;
  if (l.data_reuse) {
    if (!same_cbuf || before.kept_slices == 0) bad("DATA_REUSE without kept data (mode, banks or release)");
    else if (before.layer.skip_data_rls) {
      const ConvLayerSpec& p = before.layer;
      if (p.width != l.width || p.csc_height() != l.csc_height() || p.channels != l.channels || p.batches != l.batches ||
          p.proc_precision != l.proc_precision || p.entries_per_slice != l.entries_per_slice)
        bad("full DATA_REUSE with an input different from the previous layer's");
    } else {
      if (l.kept_lines * l.batches != before.kept_slices || l.batches != 1 || l.mode == ConvMode::Winograd)
        bad("partial DATA_REUSE: kept lines differ from the slices the previous layer kept");
      if (before.layer.width != l.width || before.layer.channels != l.channels ||
          before.layer.entries_per_slice != l.entries_per_slice)
        bad("partial DATA_REUSE with a different line layout");
    }
  } else if (l.kept_lines != 0) {
    bad("kept lines without DATA_REUSE");
  }
  if (l.weight_reuse) {
    if (!same_cbuf || !before.weights_kept) bad("WEIGHT_REUSE after a layer that released its weights");
    else if (before.compressed != l.compressed || before.kernels != l.kernels || before.bytes_per_kernel != d.bytes_per_kernel ||
             before.weight_bytes != l.weight_bytes || before.wmb_bytes != l.wmb_bytes)
      bad("WEIGHT_REUSE with different weights");
  }
  return v;
}

// ------------------------------------------------------------------ data

ConvLayerData random_conv_data(const ConvLayerSpec& l, const HwConfig& cfg, Rng& r, double special) {
  ConvLayerData d;
  const bool sat = l.saturating && l.proc_precision != Precision::Fp16;
  const double sparsity = l.sparsity_percent / 100.0;
  if (l.mode == ConvMode::Image) {
    d.plane0 = r.bytes(conv_input_extent(l, cfg, false));
    d.plane1 = r.bytes(conv_input_extent(l, cfg, true));
    if (pixel_fp16(l.pixel_format))
      for (size_t i = 0; i + 1 < d.plane0.size(); i += 2) {
        const uint16_t h = r.chance(special) ? fp16_special(r) : fp16_moderate(r, static_cast<int>(l.fp_data_exp));
        d.plane0[i] = static_cast<uint8_t>(h);
        d.plane0[i + 1] = static_cast<uint8_t>(h >> 8);
      }
  } else {
    formats::FeatureTensor t({l.width, l.height, l.channels, l.batches}, l.in_es());
    for (uint32_t n = 0; n < l.batches; ++n)
      for (uint32_t y = 0; y < l.height; ++y)
        for (uint32_t x = 0; x < l.width; ++x)
          for (uint32_t c = 0; c < l.channels; ++c)
            t.set(x, y, c, n, element(r, l.in_precision, l.data_bits, static_cast<int>(l.fp_data_exp), special, sat));
    d.features = std::move(t);
  }
  formats::KernelSet k(l.kernels, l.kernel_h, l.kernel_w, l.channels, l.proc_es());
  // Winograd integer kernels stay small enough for U = (2G) g (2G)^T to fit the element.
  const unsigned wbits = l.mode == ConvMode::Winograd && l.proc_precision != Precision::Fp16
                             ? std::min(l.weight_bits, l.proc_precision == Precision::Int8 ? 4u : 12u)
                             : l.weight_bits;
  const double wspecial = l.mode == ConvMode::Winograd ? 0.0 : special / 4;
  bool any = false;
  for (uint16_t& w : k.values) {
    w = r.chance(sparsity) ? 0 : element(r, l.proc_precision, wbits, static_cast<int>(l.fp_weight_exp), wspecial, sat);
    any = any || (w != 0 && w != 0x8000);
  }
  if (!any && !k.values.empty()) k.values[r.below(k.values.size())] = l.proc_precision == Precision::Fp16 ? 0x3c00 : 1;
  d.kernels = std::move(k);
  return d;
}

formats::KernelSet conv_winograd_weights(const ConvLayerSpec& l, const formats::KernelSet& k) {
  const formats::KernelSet f = formats::winograd_fold_stride(k, l.stride_x, l.stride_y);
  formats::KernelSet u(f.k, 4, 4, f.c, f.elem_bytes);
  const bool fp = l.proc_precision == Precision::Fp16;
  const int64_t lim = l.proc_precision == Precision::Int8 ? 127 : 32767;
  for (uint32_t kk = 0; kk < f.k; ++kk)
    for (uint32_t c = 0; c < f.c; ++c) {
      if (fp) {
        std::array<double, 9> g{};
        for (unsigned i = 0; i < 9; ++i) g[i] = fp16_to_double(f.at(kk, i / 3, i % 3, c));
        const auto t = formats::winograd_transform(g);
        for (unsigned i = 0; i < 16; ++i) u.at(kk, i / 4, i % 4, c) = float_to_fp16(t[i]);
      } else {
        std::array<int64_t, 9> g{};
        for (unsigned i = 0; i < 9; ++i) {
          const uint16_t raw = f.at(kk, i / 3, i % 3, c);
          g[i] = f.elem_bytes == 1 ? static_cast<int8_t>(raw) : static_cast<int16_t>(raw);
        }
        const auto t = formats::winograd_transform_scaled(g);
        for (unsigned i = 0; i < 16; ++i) u.at(kk, i / 4, i % 4, c) = static_cast<uint16_t>(std::clamp(t[i], -lim - 1, lim));
      }
    }
  return u;
}

ConvWeightImage conv_weight_image(const ConvLayerSpec& l, const HwConfig& cfg, const formats::KernelSet& k, Rng& fill) {
  const ConvDerived d = conv_derived(l, cfg);
  const formats::WeightGrouping g{d.ak, d.ac};
  std::vector<uint8_t> img;
  switch (l.mode) {
    case ConvMode::Direct: img = formats::dc_weight_image(k, g); break;
    case ConvMode::Image:
      img = formats::post_extended_weight_image(formats::pre_extend_image_weights(k), 1u << l.y_extension, g);
      break;
    case ConvMode::Winograd: img = formats::winograd_weight_image(conv_winograd_weights(l, k), g); break;
  }
  ConvWeightImage w;
  if (!l.compressed) {
    w.weight_bytes = conv_uncompressed_weight_bytes(l, cfg);
    w.weights = std::move(img);
    const size_t real = w.weights.size();
    w.weights.resize(w.weight_bytes);
    fill.fill(w.weights.data() + real, w.weights.size() - real);  // fetched, never used
    return w;
  }
  const unsigned es = l.proc_es();
  const auto groups = formats::weight_group_elements(l.kernels, d.bytes_per_kernel, es, d.ak);
  formats::CompressedWeights cw = formats::compress_weights(img, es, groups);
  const size_t real = cw.nonzero_elements * es;
  w.weights = std::move(cw.data);
  fill.fill(w.weights.data() + real, w.weights.size() - real);
  w.weight_bytes = w.weights.size();
  w.wmb = std::move(cw.wmb);
  w.wmb_bytes = w.wmb.size();
  w.wgs = std::move(cw.wgs);
  const size_t wgs_real = w.wgs.size();
  w.wgs.resize(round_up(wgs_real, 64));  // read in 32-byte units (whole beats loaded); the rest is ignored
  fill.fill(w.wgs.data() + wgs_real, w.wgs.size() - wgs_real);
  return w;
}

std::vector<ConvMemoryImage> conv_layer_images(const ConvLayerSpec& l, const HwConfig& cfg, const ConvLayerData& d,
                                               const ConvWeightImage& weights, Rng& fill) {
  std::vector<ConvMemoryImage> out;
  const uint64_t a = cfg.atom_bytes;
  const bool full_reuse = l.reuse == ConvReuse::DataFull || l.reuse == ConvReuse::DataAndWeights;
  if (!full_reuse) {
    if (l.mode == ConvMode::Image) {
      out.push_back({l.data_port, l.src, d.plane0, "pixel plane 0"});
      if (semi_planar(l)) out.push_back({l.data_port, l.src_uv, d.plane1, "pixel plane 1"});
    } else {
      const formats::FeatureTensor& t = *d.features;
      std::vector<uint8_t> bytes = fill.bytes(conv_input_extent(l, cfg));  // gaps and pad lanes random
      const unsigned es = l.in_es();
      for (uint32_t n = 0; n < l.batches; ++n)
        for (uint32_t y = 0; y < l.height; ++y)
          for (uint32_t x = 0; x < l.width; ++x)
            for (uint32_t c = 0; c < l.channels; ++c) {
              const uint64_t at = n * l.src_batch + (c / (a / es)) * l.src_surface + y * l.src_line + x * a + (c % (a / es)) * es;
              const uint16_t v = t.get(x, y, c, n);
              bytes[at] = static_cast<uint8_t>(v);
              if (es == 2) bytes[at + 1] = static_cast<uint8_t>(v >> 8);
            }
      out.push_back({l.data_port, l.src, std::move(bytes), "feature cube"});
    }
  }
  if (!reuses_weights(l.reuse)) {
    out.push_back({l.weight_port, l.weight_addr, weights.weights, "weights"});
    if (l.compressed) {
      out.push_back({l.weight_port, l.wmb_addr, weights.wmb, "weight mask bits"});
      out.push_back({l.weight_port, l.wgs_addr, weights.wgs, "weight group sizes"});
    }
  }
  const unsigned epa = cfg.atom_bytes / l.proc_es();
  for (const ConvSdpXStage* st : {&l.sdp.bs, &l.sdp.bn, &l.sdp.ew_stream}) {
    if (!st->uses_memory()) continue;
    const bool ew = st == &l.sdp.ew_stream;
    const uint64_t bpe = st->operand_bytes_per_element();
    std::vector<uint8_t> ops(round_up(st->per_element ? conv_operand_cube_extent(l, cfg, *st) : ceil_div(l.kernels, epa) * epa * bpe,
                                      64));  // whole beats loaded
    for (size_t i = 0; i + (st->two_byte ? 2 : 1) <= ops.size(); i += st->two_byte ? 2 : 1) {
      uint16_t x = 0;
      if (l.proc_precision == Precision::Fp16) x = fp16_moderate(fill, 15);
      else if (ew) x = static_cast<uint16_t>(st->two_byte ? fill.uniform_signed(-32768, 32767) : fill.uniform_signed(-128, 127));
      else x = static_cast<uint16_t>(fill.uniform_signed(st->two_byte ? -1024 : -100, st->two_byte ? 1024 : 100));
      ops[i] = static_cast<uint8_t>(x);
      if (st->two_byte) ops[i + 1] = static_cast<uint8_t>(x >> 8);
    }
    out.push_back({st->operand_port, st->operands, std::move(ops),
                   ew ? "SDP EW operands" : st == &l.sdp.bs ? "SDP BS operands" : "SDP BN operands"});
  }
  // Output window pre-filled so that a byte written wrongly (or not at all) shows.
  out.push_back({l.sdp.port, l.sdp.dst, fill.bytes(conv_output_extent(l, cfg)), "SDP output window"});
  return out;
}

// ------------------------------------------------------------------ placement

ConvAllocator::ConvAllocator(const HwConfig& cfg, Rng& layout) : rng_(layout) {
  next_[0] = cfg.dbb_addr_bits > 32 && layout.chance(0.3) ? (layout.uniform(1, 0xf) << 32) | 0x80000000ull
                                                          : 0x80000000ull + layout.uniform(0, 0xfff) * 0x1000;
  next_[1] = layout.uniform(0, 0xff) * 0x1000;
}

uint64_t ConvAllocator::take(MemPort port, uint64_t bytes, uint64_t align) {
  uint64_t& n = next_[static_cast<unsigned>(port)];
  n = round_up(n + rng_.uniform(0, 3) * align, align);
  const uint64_t at = n;
  n = round_up(n + bytes, 64);
  return at;
}

void place_conv_input(ConvLayerSpec& l, const HwConfig& cfg, Rng& r, ConvAllocator& alloc) {
  const uint64_t a = cfg.atom_bytes;
  auto gap = [&](bool packed) { return packed ? 0 : r.uniform(1, 3) * a; };
  {
    if (l.mode == ConvMode::Image) {
      const auto& info = pix(l);
      l.src_line = round_up(uint64_t{l.pixel_x_offset + l.width} * info.plane_bytes[0], a) + gap(r.chance(0.5));
      l.src_surface = l.src_batch = 0;
      l.src = alloc.take(l.data_port, conv_input_extent(l, cfg, false), a);
      if (info.planes == 2) {
        l.src_uv_line = round_up(uint64_t{l.pixel_x_offset + l.width} * info.plane_bytes[1], a) + gap(r.chance(0.5));
        l.src_uv = alloc.take(l.data_port, conv_input_extent(l, cfg, true), a);
      } else {
        l.src_uv = l.src_uv_line = 0;
      }
    } else {
      const uint64_t surfaces = ceil_div(l.channels, a / l.in_es());
      const bool line_packed = l.fetch_grain > 1 || r.chance(0.5);
      l.src_line = uint64_t{l.width} * a + gap(line_packed);
      l.src_surface = uint64_t{l.height} * l.src_line + gap(r.chance(0.5));
      l.src_batch = l.batches > 1 ? surfaces * l.src_surface + gap(r.chance(0.4)) : 0;
      l.src_uv = l.src_uv_line = 0;
      l.src = alloc.take(l.data_port, conv_input_extent(l, cfg), a);
    }
  }
}

void place_conv_outputs(ConvLayerSpec& l, const HwConfig& cfg, Rng& r, ConvAllocator& alloc, bool place_weights) {
  const uint64_t a = cfg.atom_bytes;
  auto gap = [&](bool packed) { return packed ? 0 : r.uniform(1, 3) * a; };
  if (place_weights) {
    l.weight_addr = alloc.take(l.weight_port, l.weight_bytes, 256);
    if (l.compressed) {
      l.wmb_addr = alloc.take(l.weight_port, l.wmb_bytes, 256);
      l.wgs_addr = alloc.take(l.weight_port, round_up(uint64_t{conv_derived(l, cfg).groups} * 4, 64), 256);
    } else {
      l.wmb_addr = l.wgs_addr = 0;
      l.wmb_bytes = 0;
    }
  }
  const unsigned epa = cfg.atom_bytes / l.proc_es();
  for (ConvSdpXStage* st : {&l.sdp.bs, &l.sdp.bn, &l.sdp.ew_stream}) {
    if (!st->uses_memory()) continue;
    if (st->per_element) {  // a W x H x K operand cube; W = H = 1: surfaces back to back (§5.3)
      const uint64_t pos = uint64_t{epa} * st->operand_bytes_per_element();
      const bool one = l.out_width == 1 && l.out_height == 1;
      st->op_line = uint64_t{l.out_width} * pos + gap(r.chance(0.5));
      st->op_surface = one ? pos : uint64_t{l.out_height} * st->op_line + gap(r.chance(0.5));
      st->operands = alloc.take(st->operand_port, round_up(conv_operand_cube_extent(l, cfg, *st), 64), a);
      continue;
    }
    st->operands = alloc.take(st->operand_port, round_up(ceil_div(l.kernels, epa) * epa * st->operand_bytes_per_element(), 64), a);
  }
  // SDP output. Batching: 64-byte aligned base and strides, lines never packed (but 1x1).
  const ConvDerived d = conv_derived(l, cfg);
  const bool batch = l.batches > 1, one = l.out_width == 1 && l.out_height == 1;
  const uint64_t al = batch ? 64 : a;
  ConvSdpSpec& s = l.sdp;
  s.line_stride = round_up(uint64_t{l.out_width} * a + gap(batch ? one : r.chance(0.5)), al);
  if (batch && !one && s.line_stride == uint64_t{l.out_width} * a) s.line_stride += 64;
  s.surface_stride = round_up(uint64_t{l.out_height} * s.line_stride + gap(r.chance(0.5)), al);
  if (one && !batch) s.surface_stride = a;  // W = H = 1: surfaces back to back (sdp.md §11.3)
  s.batch_stride = batch ? round_up(uint64_t{d.out_surfaces} * s.surface_stride + gap(r.chance(0.4)), al) : 0;
  s.dst = alloc.take(s.port, conv_output_extent(l, cfg), al);
}

// ------------------------------------------------------------------ programming

uint32_t conv_done_bits(unsigned group) {
  const uint32_t g = group & 1u;
  return (1u << g) | (1u << (16 + g)) | (1u << (18 + g)) | (1u << (20 + g));
}

void wait_cbuf_flush(Program& p, const HwConfig& cfg) {
  PollReg poll;
  poll.addr = base_of(cfg, Unit::CDMA) + CD::S_CBUF_FLUSH_STATUS::offset;
  poll.mask = 1;
  poll.expect = 1;
  poll.what = "CDMA.S_CBUF_FLUSH_STATUS.FLUSH_DONE before the first layer";
  p.ops.push_back(poll);
}

void program_conv_layer(ProgramBuilder& b, const HwConfig& cfg, const ConvLayerSpec& l, unsigned group) {
  const ConvDerived d = conv_derived(l, cfg);
  const uint32_t cdma = base_of(cfg, Unit::CDMA), csc = base_of(cfg, Unit::CSC), cma = base_of(cfg, Unit::CMAC_A),
                 cmb = base_of(cfg, Unit::CMAC_B), cacc = base_of(cfg, Unit::CACC), sdp = base_of(cfg, Unit::SDP),
                 rdma = base_of(cfg, Unit::SDP_RDMA);
  const uint64_t a = cfg.atom_bytes;
  Rng junk(l.junk_seed);
  const bool j = l.junk_ignored_fields;
  auto any = [&](unsigned bits) { return static_cast<uint32_t>(bits >= 32 ? junk.next_u64() : junk.below(uint64_t{1} << bits)); };
  auto junk_addr = [&]() { return static_cast<uint32_t>(junk.next_u64()) & ~static_cast<uint32_t>(a - 1); };

  const bool image = l.mode == ConvMode::Image, wino = l.mode == ConvMode::Winograd, direct = l.mode == ConvMode::Direct;
  const uint32_t mode = wino ? 1 : 0, in = static_cast<uint32_t>(l.in_precision), proc = static_cast<uint32_t>(l.proc_precision);
  const uint32_t misc = mode | (in << 8) | (proc << 12) | (l.data_reuse ? 1u << 16 : 0) | (l.weight_reuse ? 1u << 20 : 0) |
                        (l.skip_data_rls ? 1u << 24 : 0) | (l.skip_weight_rls ? 1u << 28 : 0);
  const uint32_t bank = (l.data_banks - 1) | ((l.weight_banks - 1) << 16);
  const uint32_t entries = l.entries_per_slice - 1;
  const bool line_packed = !image && l.src_line == uint64_t{l.width} * a;
  const bool surf_packed = line_packed && l.src_surface == uint64_t{l.height} * l.src_line;

  // ---- CDMA
  b.write(cdma + CD::S_POINTER::offset, group);
  if (j) b.write(cdma + CD::S_ARBITER::offset, any(4) | (any(4) << 16));
  auto w = [&](uint32_t unit, uint32_t off, uint32_t v) { b.write(unit + off, v); };
  w(cdma, CD::D_MISC_CFG::offset, misc);
  uint32_t fmt_reg = image ? 1u | (static_cast<uint32_t>(l.pixel_format) << 8) | (l.pixel_sign_override ? 1u << 20 : 0) : 0;
  if (j && !image) fmt_reg |= (any(6) % 36) << 8 | (any(1) << 20);
  w(cdma, CD::D_DATAIN_FORMAT::offset, fmt_reg);
  w(cdma, CD::D_DATAIN_SIZE_0::offset, (l.width - 1) | ((l.height - 1) << 16));
  w(cdma, CD::D_DATAIN_SIZE_1::offset, l.channels - 1);
  w(cdma, CD::D_DATAIN_SIZE_EXT_0::offset, (d.cdma_w_ext - 1) | ((d.cdma_h_ext - 1) << 16));
  w(cdma, CD::D_PIXEL_OFFSET::offset, image ? l.pixel_x_offset : (j ? any(5) : 0));
  w(cdma, CD::D_DAIN_RAM_TYPE::offset, l.data_port == MemPort::Dbb ? 1 : 0);
  w(cdma, CD::D_DAIN_ADDR_HIGH_0::offset, hi32(l.src));
  w(cdma, CD::D_DAIN_ADDR_LOW_0::offset, p32(l.src));
  const bool uv = semi_planar(l);
  w(cdma, CD::D_DAIN_ADDR_HIGH_1::offset, uv ? hi32(l.src_uv) : (j ? any(4) : 0));
  w(cdma, CD::D_DAIN_ADDR_LOW_1::offset, uv ? p32(l.src_uv) : (j ? junk_addr() : 0));
  w(cdma, CD::D_LINE_STRIDE::offset, p32(l.src_line));
  w(cdma, CD::D_LINE_UV_STRIDE::offset, uv ? p32(l.src_uv_line) : (j ? junk_addr() & 0xffffu : 0));
  w(cdma, CD::D_SURF_STRIDE::offset, image ? (j ? junk_addr() & 0xfffffu : 0) : p32(l.src_surface));
  w(cdma, CD::D_DAIN_MAP::offset, image ? (j ? any(1) | (any(1) << 16) : 0) : (line_packed ? 1u : 0) | (surf_packed ? 1u << 16 : 0));
  w(cdma, CD::D_RESERVED_X_CFG::offset, j ? any(10) | (any(10) << 16) : 0);
  w(cdma, CD::D_RESERVED_Y_CFG::offset, j ? any(3) | (any(5) << 16) : 0);
  w(cdma, CD::D_BATCH_NUMBER::offset, l.batches - 1);
  w(cdma, CD::D_BATCH_STRIDE::offset, l.batches > 1 ? p32(l.src_batch) : (j ? junk_addr() & 0xffffffu : 0));
  w(cdma, CD::D_ENTRY_PER_SLICE::offset, entries);
  w(cdma, CD::D_FETCH_GRAIN::offset, l.fetch_grain - 1);
  w(cdma, CD::D_WEIGHT_FORMAT::offset, l.compressed ? 1 : 0);
  w(cdma, CD::D_WEIGHT_SIZE_0::offset, p32(d.bytes_per_kernel - 1));
  w(cdma, CD::D_WEIGHT_SIZE_1::offset, l.kernels - 1);
  w(cdma, CD::D_WEIGHT_RAM_TYPE::offset, l.weight_port == MemPort::Dbb ? 1 : 0);
  w(cdma, CD::D_WEIGHT_ADDR_HIGH::offset, hi32(l.weight_addr));
  w(cdma, CD::D_WEIGHT_ADDR_LOW::offset, p32(l.weight_addr));
  w(cdma, CD::D_WEIGHT_BYTES::offset, p32(l.weight_bytes));
  w(cdma, CD::D_WGS_ADDR_HIGH::offset, l.compressed ? hi32(l.wgs_addr) : (j ? any(4) : 0));
  w(cdma, CD::D_WGS_ADDR_LOW::offset, l.compressed ? p32(l.wgs_addr) : (j ? junk_addr() : 0));
  w(cdma, CD::D_WMB_ADDR_HIGH::offset, l.compressed ? hi32(l.wmb_addr) : (j ? any(4) : 0));
  w(cdma, CD::D_WMB_ADDR_LOW::offset, l.compressed ? p32(l.wmb_addr) : (j ? junk_addr() : 0));
  w(cdma, CD::D_WMB_BYTES::offset, l.compressed ? p32(l.wmb_bytes) : 0);
  const bool means_used = image && l.cvt_en && l.mean_format;
  w(cdma, CD::D_MEAN_FORMAT::offset, image ? (l.mean_format ? 1 : 0) : (j ? any(1) : 0));
  w(cdma, CD::D_MEAN_GLOBAL_0::offset, means_used || (image && !j) ? u16(l.mean[0]) | (u16(l.mean[1]) << 16) : (j ? any(32) : 0));
  w(cdma, CD::D_MEAN_GLOBAL_1::offset, means_used || (image && !j) ? u16(l.mean[2]) | (u16(l.mean[3]) << 16) : (j ? any(32) : 0));
  if (l.cvt_en || !j) {
    w(cdma, CD::D_CVT_CFG::offset, (l.cvt_en ? 1u : 0) | (l.cvt_truncate << 4));
    w(cdma, CD::D_CVT_OFFSET::offset, u16(l.cvt_offset));
    w(cdma, CD::D_CVT_SCALE::offset, u16(l.cvt_scale));
  } else {  // converter off: truncate, offset and scale have no effect
    w(cdma, CD::D_CVT_CFG::offset, any(6) << 4);
    w(cdma, CD::D_CVT_OFFSET::offset, any(16));
    w(cdma, CD::D_CVT_SCALE::offset, any(16));
  }
  w(cdma, CD::D_CONV_STRIDE::offset, (l.stride_x - 1) | ((l.stride_y - 1) << 16));
  uint32_t cdma_pad = 0, cdma_pad_value = 0;
  if (image) cdma_pad = l.pad_left | (l.pad_right << 8), cdma_pad_value = l.cdma_pad_value;
  if (wino) cdma_pad = l.pad_left | (l.pad_right << 8) | (l.pad_top << 16) | (l.pad_bottom << 24), cdma_pad_value = l.cdma_pad_value;
  if (direct && j) cdma_pad = any(5) | (any(6) << 8) | (any(5) << 16) | (any(6) << 24), cdma_pad_value = any(16);
  w(cdma, CD::D_ZERO_PADDING::offset, cdma_pad);
  w(cdma, CD::D_ZERO_PADDING_VALUE::offset, cdma_pad_value);
  w(cdma, CD::D_BANK::offset, bank);
  const bool fp = l.proc_precision == Precision::Fp16 || l.in_precision == Precision::Fp16;
  w(cdma, CD::D_NAN_FLUSH_TO_ZERO::offset, fp ? (l.nan_to_zero ? 1 : 0) : (j ? any(1) : 0));
  w(cdma, CD::D_PERF_ENABLE::offset, j ? any(1) : 0);
  w(cdma, CD::D_CYA::offset, j ? any(32) : 0);

  // ---- CSC
  b.write(csc + CS::S_POINTER::offset, group);
  w(csc, CS::D_MISC_CFG::offset, misc);
  w(csc, CS::D_DATAIN_FORMAT::offset, image ? 1 : 0);
  w(csc, CS::D_DATAIN_SIZE_EXT_0::offset, (d.w_ext - 1) | ((d.h_ext - 1) << 16));
  w(csc, CS::D_DATAIN_SIZE_EXT_1::offset, d.c_ext - 1);
  w(csc, CS::D_BATCH_NUMBER::offset, l.batches - 1);
  w(csc, CS::D_POST_Y_EXTENSION::offset, image ? l.y_extension : 0);
  w(csc, CS::D_ENTRY_PER_SLICE::offset, entries);
  w(csc, CS::D_WEIGHT_FORMAT::offset, l.compressed ? 1 : 0);
  w(csc, CS::D_WEIGHT_SIZE_EXT_0::offset, (d.kernel_w_ext - 1) | ((d.kernel_h_ext - 1) << 16));
  w(csc, CS::D_WEIGHT_SIZE_EXT_1::offset, (d.kernel_c_ext - 1) | ((l.kernels - 1) << 16));
  w(csc, CS::D_WEIGHT_BYTES::offset, p32(l.weight_bytes));
  w(csc, CS::D_WMB_BYTES::offset, l.compressed ? p32(l.wmb_bytes) : 0);
  w(csc, CS::D_DATAOUT_SIZE_0::offset, (l.out_width - 1) | ((l.out_height - 1) << 16));
  w(csc, CS::D_DATAOUT_SIZE_1::offset, l.kernels - 1);
  w(csc, CS::D_ATOMICS::offset, l.out_width * l.out_height - 1);
  w(csc, CS::D_RELEASE::offset, l.skip_data_rls && j ? any(12) : l.release_slices - 1);
  w(csc, CS::D_CONV_STRIDE_EXT::offset, wino ? 0 : (l.stride_x - 1) | ((l.stride_y - 1) << 16));
  w(csc, CS::D_DILATION_EXT::offset, direct ? (l.dilation_x - 1) | ((l.dilation_y - 1) << 16) : 0);
  uint32_t csc_pad = direct ? l.pad_left | (l.pad_top << 16) : image ? l.pad_top << 16 : 0;
  if (j && image) csc_pad |= any(5);                       // PAD_LEFT unused in image mode
  if (j && wino) csc_pad = any(5) | (any(5) << 16);        // ignored in Winograd mode
  w(csc, CS::D_ZERO_PADDING::offset, csc_pad);
  w(csc, CS::D_ZERO_PADDING_VALUE::offset, wino ? 0 : l.pad_value);
  w(csc, CS::D_BANK::offset, bank);
  w(csc, CS::D_PRA_CFG::offset, wino ? l.pra_truncate : (j ? any(2) : 0));
  w(csc, CS::D_CYA::offset, j ? any(32) : 0);

  // ---- CMAC_A, CMAC_B
  for (uint32_t cmac : {cma, cmb}) {
    b.write(cmac + reg::CMAC_A::S_POINTER::offset, group);
    w(cmac, reg::CMAC_A::D_MISC_CFG::offset, mode | (proc << 12));
  }

  // ---- CACC
  const bool out_line_packed = l.sdp.line_stride == uint64_t{l.out_width} * a;
  const bool out_surf_packed = out_line_packed && l.sdp.surface_stride == uint64_t{l.out_height} * l.sdp.line_stride;
  const bool batch = l.batches > 1;
  b.write(cacc + CA::S_POINTER::offset, group);
  w(cacc, CA::D_MISC_CFG::offset, mode | (proc << 12));
  w(cacc, CA::D_DATAOUT_SIZE_0::offset, (l.out_width - 1) | ((l.out_height - 1) << 16));
  w(cacc, CA::D_DATAOUT_SIZE_1::offset, l.kernels - 1);
  w(cacc, CA::D_DATAOUT_ADDR::offset, batch || !j ? p32(l.sdp.dst) : junk_addr());
  w(cacc, CA::D_BATCH_NUMBER::offset, l.batches - 1);
  w(cacc, CA::D_LINE_STRIDE::offset, batch || !j ? p32(l.sdp.line_stride) & 0xffffffu : junk_addr() & 0xffffffu);
  w(cacc, CA::D_SURF_STRIDE::offset, !j ? p32(l.sdp.surface_stride) & 0xffffffu : junk_addr() & 0xffffffu);
  w(cacc, CA::D_DATAOUT_MAP::offset, batch || !j ? (out_line_packed ? 1u : 0) | (out_surf_packed ? 1u << 16 : 0) : any(1) | (any(1) << 16));
  w(cacc, CA::D_CLIP_CFG::offset, l.proc_precision == Precision::Fp16 ? (j ? any(5) : 0) : l.clip_truncate);
  w(cacc, CA::D_CYA::offset, j ? any(32) : 0);

  // ---- SDP_RDMA (its own group) and SDP
  const ConvSdpSpec& s = l.sdp;
  const uint32_t out = static_cast<uint32_t>(s.out);
  b.write(rdma + R::S_POINTER::offset, s.rdma_group);
  b.write(sdp + S::S_POINTER::offset, group);
  for (uint32_t base : {rdma + R::D_DATA_CUBE_WIDTH::offset, sdp + S::D_DATA_CUBE_WIDTH::offset}) {
    b.write(base, l.out_width - 1);
    b.write(base + 4, l.out_height - 1);
    b.write(base + 8, l.kernels - 1);
  }
  w(rdma, R::D_SRC_BASE_ADDR_LOW::offset, 0);
  w(rdma, R::D_SRC_BASE_ADDR_HIGH::offset, 0);
  w(rdma, R::D_SRC_LINE_STRIDE::offset, 0);
  w(rdma, R::D_SRC_SURFACE_STRIDE::offset, 0);
  w(rdma, R::D_FEATURE_MODE_CFG::offset,
    1u | (wino ? 2u : 0) | (proc << 2) | (proc << 4) | (out << 6) | ((l.batches - 1) << 8));
  w(rdma, R::D_SRC_DMA_CFG::offset, 1);
  w(rdma, R::D_PERF_ENABLE::offset, 0);
  auto stream = [&](uint32_t cfg_off, uint32_t base_off, const ConvSdpXStage& st) {
    if (!st.uses_memory()) {
      w(rdma, cfg_off, 1);  // disabled
      for (uint32_t o = 0; o < 0x14; o += 4) w(rdma, base_off + o, 0);
      return;
    }
    const bool alu_mem = st.alu && st.alu_mem, mul_mem = st.mul && st.mul_mem;
    const uint32_t use = alu_mem && mul_mem ? 2 : alu_mem ? 1 : 0;
    w(rdma, cfg_off, (use << 1) | (st.two_byte ? 8u : 0) | (st.per_element ? 0x10u : 0) |
                         (st.operand_port == MemPort::Dbb ? 0x20u : 0));  // DATA_MODE: per kernel or per element
    w(rdma, base_off, p32(st.operands));
    w(rdma, base_off + 4, hi32(st.operands));
    w(rdma, base_off + 8, p32(st.op_line));
    w(rdma, base_off + 0xc, p32(st.op_surface));
    w(rdma, base_off + 0x10, 0);  // batch stride: every batch uses the same operands
  };
  stream(R::D_BRDMA_CFG::offset, R::D_BS_BASE_ADDR_LOW::offset, s.bs);
  stream(R::D_NRDMA_CFG::offset, R::D_BN_BASE_ADDR_LOW::offset, s.bn);
  stream(R::D_ERDMA_CFG::offset, R::D_EW_BASE_ADDR_LOW::offset, s.ew_stream);

  w(sdp, S::D_DST_BASE_ADDR_LOW::offset, p32(s.dst));
  w(sdp, S::D_DST_BASE_ADDR_HIGH::offset, hi32(s.dst));
  w(sdp, S::D_DST_LINE_STRIDE::offset, p32(s.line_stride));
  w(sdp, S::D_DST_SURFACE_STRIDE::offset, p32(s.surface_stride));
  auto xstage = [&](uint32_t base, const ConvSdpXStage& st) {
    w(sdp, base, st.cfg_register());
    w(sdp, base + 4, (st.alu_mem ? 1u : 0) | (st.alu_shift << 8));
    w(sdp, base + 8, st.alu_operand);
    w(sdp, base + 0xc, (st.mul_mem ? 1u : 0) | (st.mul_shift << 8));
    w(sdp, base + 0x10, st.mul_operand);
  };
  xstage(S::D_DP_BS_CFG::offset, s.bs);
  xstage(S::D_DP_BN_CFG::offset, s.bn);
  const uint32_t ew = (s.ew ? 0u : 1u) | (s.ew_alu ? 0u : 2u) | (s.ew_alu_algo << 2) | (s.ew_mul ? 0u : 0x10u) |
                      (s.ew_prelu ? 0x20u : 0) | 0x40u;  // LUT bypassed
  w(sdp, S::D_DP_EW_CFG::offset, ew);
  const ConvSdpXStage& es = s.ew_stream;
  // SRC[0] (memory), CVT_BYPASS[1]
  w(sdp, S::D_DP_EW_ALU_CFG::offset, (es.uses_memory() && es.alu_mem ? 1u : 0) | (s.ew_alu_cvt.bypass ? 2u : 0));
  w(sdp, S::D_DP_EW_ALU_SRC_VALUE::offset, s.ew_alu_operand);
  w(sdp, S::D_DP_EW_MUL_CFG::offset, (es.uses_memory() && es.mul_mem ? 1u : 0) | (s.ew_mul_cvt.bypass ? 2u : 0));
  w(sdp, S::D_DP_EW_MUL_SRC_VALUE::offset, s.ew_mul_operand);
  for (const auto& [off, c] : {std::pair{S::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset, s.ew_alu_cvt},
                               std::pair{S::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset, s.ew_mul_cvt}}) {
    w(sdp, off, static_cast<uint32_t>(c.offset));
    w(sdp, off + 4, u16(c.scale));
    w(sdp, off + 8, c.truncate);
  }
  w(sdp, S::D_DP_EW_TRUNCATE_VALUE::offset, s.ew_truncate);
  w(sdp, S::D_FEATURE_MODE_CFG::offset,
    1u | (s.to_pdp ? 2u : 0) | (wino ? 4u : 0) | (s.nan_to_zero ? 8u : 0) | ((l.batches - 1) << 8));
  w(sdp, S::D_DST_DMA_CFG::offset, s.port == MemPort::Dbb ? 1 : 0);
  w(sdp, S::D_DST_BATCH_STRIDE::offset, p32(s.batch_stride));
  w(sdp, S::D_DATA_FORMAT::offset, proc | (out << 2));
  w(sdp, S::D_CVT_OFFSET::offset, static_cast<uint32_t>(s.cvt_offset));
  w(sdp, S::D_CVT_SCALE::offset, u16(s.cvt_scale));
  w(sdp, S::D_CVT_SHIFT::offset, s.cvt_shift);
  w(sdp, S::D_PERF_ENABLE::offset, s.perf_enable);

  // ---- arm: SDP (after its SDP_RDMA), CACC, CMAC_A, CMAC_B, CSC, CDMA
  if (s.needs_rdma()) w(rdma, R::D_OP_ENABLE::offset, 1);
  w(sdp, S::D_OP_ENABLE::offset, 1);
  w(cacc, CA::D_OP_ENABLE::offset, 1);
  w(cma, reg::CMAC_A::D_OP_ENABLE::offset, 1);
  w(cmb, reg::CMAC_B::D_OP_ENABLE::offset, 1);
  w(csc, CS::D_OP_ENABLE::offset, 1);
  w(cdma, CD::D_OP_ENABLE::offset, 1);
}

uint64_t conv_timeout(const ConvLayerSpec& l, const HwConfig& cfg) {
  const ConvDerived d = conv_derived(l, cfg);
  const uint64_t bytes = conv_input_extent(l, cfg) + conv_input_extent(l, cfg, true) + l.weight_bytes + l.wmb_bytes;
  const uint64_t out_atoms = uint64_t{l.out_width} * l.out_height * l.batches * d.out_surfaces;
  return 200'000 + 16 * (d.atomic_ops + bytes / cfg.dbb_bytes() + out_atoms * 16);
}

void finish_conv_layer(ProgramBuilder& b, const HwConfig& cfg, const ConvLayerSpec& l, unsigned group,
                       const std::string& what) {
  const uint32_t glb = base_of(cfg, Unit::GLB) + reg::GLB::S_INTR_STATUS::offset;
  const uint32_t bits = conv_done_bits(group);
  b.wait_intr(bits, conv_timeout(l, cfg));
  b.read(glb, bits, bits, fmt::format("GLB SDP/CDMA_DAT/CDMA_WT/CACC done of group {} after {}", group, what));
  b.write(glb, bits);
  // The group's statistics (the pointers still select it).
  const uint32_t cacc = base_of(cfg, Unit::CACC), cdma = base_of(cfg, Unit::CDMA), sdp = base_of(cfg, Unit::SDP);
  b.read(cacc + CA::D_OUT_SATURATION::offset, 0xffffffffu, std::nullopt, fmt::format("CACC.D_OUT_SATURATION after {}", what));
  if (l.in_precision == Precision::Fp16 || l.proc_precision == Precision::Fp16)
    for (const auto& [off, name] : {std::pair<uint32_t, const char*>{CD::D_NAN_INPUT_DATA_NUM::offset, "D_NAN_INPUT_DATA_NUM"},
                                    {CD::D_NAN_INPUT_WEIGHT_NUM::offset, "D_NAN_INPUT_WEIGHT_NUM"},
                                    {CD::D_INF_INPUT_DATA_NUM::offset, "D_INF_INPUT_DATA_NUM"},
                                    {CD::D_INF_INPUT_WEIGHT_NUM::offset, "D_INF_INPUT_WEIGHT_NUM"}})
      b.read(cdma + off, 0xffffffffu, std::nullopt, fmt::format("CDMA.{} after {}", name, what));
  if (l.sdp.out == Precision::Fp16)
    b.read(sdp + S::D_STATUS_NAN_OUTPUT_NUM::offset, 0xffffffffu, std::nullopt, fmt::format("SDP.D_STATUS_NAN_OUTPUT_NUM after {}", what));
  if (l.sdp.perf_enable & 4u)
    b.read(sdp + S::D_PERF_OUT_SATURATION::offset, 0xffffffffu, std::nullopt, fmt::format("SDP.D_PERF_OUT_SATURATION after {}", what));
}

void conv_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when) {
  for (Unit u : {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC, Unit::SDP})
    b.read(base_of(cfg, u) + CD::S_STATUS::offset, 0xffffffffu, 0u, fmt::format("{}.S_STATUS idle {}", unit_name(u), when));
  b.read(base_of(cfg, Unit::GLB) + reg::GLB::S_INTR_STATUS::offset, 0xffffffffu, 0u, "GLB.S_INTR_STATUS all clear " + when);
}

std::string describe_conv_layer(const ConvLayerSpec& l, const HwConfig& cfg) {
  const ConvDerived d = conv_derived(l, cfg);
  std::string s = fmt::format("{} {}->{} in {}x{}x{}", conv_mode_name(l.mode), precision_name(l.in_precision),
                              precision_name(l.proc_precision), l.width, l.height, l.channels);
  if (l.kept_lines) s += fmt::format(" (+{} kept lines)", l.kept_lines);
  if (l.batches > 1) s += fmt::format(" x{} batches", l.batches);
  if (l.mode == ConvMode::Image)
    s += fmt::format(" {} xoff {} sign {} cvt {} (mean {} [{} {} {} {}] off {} scale {} trunc {}) P {}", pix(l).name,
                     l.pixel_x_offset, l.pixel_sign_override, l.cvt_en, l.mean_format, l.mean[0], l.mean[1], l.mean[2],
                     l.mean[3], l.cvt_offset, l.cvt_scale, l.cvt_truncate, 1u << l.y_extension);
  else if (l.cvt_en)
    s += fmt::format(" cvt(off {} scale {} trunc {})", l.cvt_offset, l.cvt_scale, l.cvt_truncate);
  s += fmt::format(" kernel {}x{}x{} K {} stride {}x{} dil {}x{} pad L{} R{} T{} B{} ({:#x}/{:#x}) out {}x{}", l.kernel_w,
                   l.kernel_h, l.channels, l.kernels, l.stride_x, l.stride_y, l.dilation_x, l.dilation_y, l.pad_left,
                   l.pad_right, l.pad_top, l.pad_bottom, l.pad_value, l.cdma_pad_value, l.out_width, l.out_height);
  if (l.mode == ConvMode::Winograd) s += fmt::format(" ext {}x{}x{} pra {}", d.w_ext, d.h_ext, d.c_ext, l.pra_truncate);
  s += fmt::format(" clip {}{}{} nan0 {} | cbuf {}+{} banks, {} entries/slice x {} slices, grain {}, rls {} skip d{} w{}, "
                   "reuse {} | weights {}B{} ({}) | atomics {}",
                   l.clip_truncate, l.compressed ? " compressed" : "", l.minimal_weight_bytes ? " minimal" : "",
                   l.nan_to_zero, l.data_banks, l.weight_banks, l.entries_per_slice, d.slices, l.fetch_grain,
                   l.release_slices, l.skip_data_rls, l.skip_weight_rls, conv_reuse_name(l.reuse), l.weight_bytes,
                   l.compressed ? fmt::format(" wmb {}B", l.wmb_bytes) : "", l.weight_port == MemPort::Dbb ? "dbb" : "sram",
                   d.atomic_ops);
  const ConvSdpSpec& p = l.sdp;
  std::string ew = fmt::format("{}", p.ew);
  if (p.ew_stream.uses_memory()) {
    const ConvSdpXStage& es = p.ew_stream;
    auto cvt = [](const ConvSdpSpec::EwConverter& c) {
      return c.bypass ? std::string("bypass") : fmt::format("{} {} {}", c.offset, c.scale, c.truncate);
    };
    ew += fmt::format("(mem {}{} {}B {} alu cvt({}) mul cvt({}) trunc {})", es.alu_mem ? "alu" : "", es.mul_mem ? "mul" : "",
                      es.two_byte ? 2 : 1, es.per_element ? "elem" : "kernel", cvt(p.ew_alu_cvt), cvt(p.ew_mul_cvt),
                      p.ew_truncate);
  }
  s += fmt::format(" | sdp out {} bs {:02x}{} bn {:02x}{} ew {} cvt({} {} {}) nan0 {} -> {}@{:#x} line {} surf {} batch {}",
                   precision_name(p.out), p.bs.cfg_register(), p.bs.uses_memory() ? "(mem)" : "", p.bn.cfg_register(),
                   p.bn.uses_memory() ? "(mem)" : "", ew, p.cvt_offset, p.cvt_scale, p.cvt_shift, p.nan_to_zero,
                   p.port == MemPort::Dbb ? "dbb" : "sram", p.dst, p.line_stride, p.surface_stride, p.batch_stride);
  return s;
}

}  // namespace dla::stimulus
