#include "conv_engine.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "dla/formats/pixel_format.h"
#include "dla/formats/weight_format.h"
#include "dla/numerics/conv_fp16.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/float_format.h"
#include "dla/numerics/integer_ops.h"
#include "dla/numerics/winograd.h"
#include "dla/planted_bug.h"

namespace dla::golden {

namespace {

using Slices = std::vector<std::vector<uint16_t>>;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

int64_t as_int(uint16_t v, Precision p) { return p == Precision::Int8 ? num::sx(v, 8) : num::sx(v, 16); }

// The pad value as a processing-precision element (int8 lanes use the low byte).
uint16_t pad_element(uint16_t pad, Precision p) { return p == Precision::Int8 ? static_cast<uint16_t>(pad & 0xffu) : pad; }

uint16_t to_element(int64_t v, Precision p) {
  return static_cast<uint16_t>(p == Precision::Int8 ? (static_cast<uint64_t>(v) & 0xffu) : (static_cast<uint64_t>(v) & 0xffffu));
}

// The CDMA integer converter: sat_p(sat_17(rha((d - offset) * scale, truncate))).
int64_t cdma_convert(int64_t d, int64_t offset, int64_t scale, unsigned truncate) {
  return num::sat(num::rha((d - offset) * scale, truncate), 17);
}

struct Fp16Census {
  uint64_t nan = 0, inf = 0;
  void count(uint16_t v) {
    nan += num::kFp16.is_nan(v);
    inf += num::kFp16.is_inf_pattern(v);
  }
};

class Fetcher {
 public:
  Fetcher(const ConvLayer& l, const HwConfig& cfg, const SparseMemory& mem) : l_(l), cfg_(cfg), mem_(mem) {}

  // Direct mode: slices y * N + b of W x C elements; every fetched atom lane is counted.
  Slices feature(Fp16Census& census) const {
    const unsigned atom = cfg_.atom_bytes, es = l_.in_es(), per_atom = atom / es;
    const uint32_t surfaces = static_cast<uint32_t>(ceil_div(l_.channels, per_atom));
    const bool fp = l_.in == Precision::Fp16;
    Slices slices(size_t{l_.height} * l_.batches, std::vector<uint16_t>(size_t{l_.width} * l_.channels));
    std::vector<uint8_t> buf(atom);
    for (uint32_t y = 0; y < l_.height; ++y)
      for (uint32_t b = 0; b < l_.batches; ++b) {
        std::vector<uint16_t>& s = slices[size_t{y} * l_.batches + b];
        for (uint32_t sf = 0; sf < surfaces; ++sf)
          for (uint32_t x = 0; x < l_.width; ++x) {
            mem_.read(l_.data_addr0 + b * l_.batch_stride + sf * l_.surf_stride + y * l_.line_stride + uint64_t{x} * atom,
                      buf.data(), atom);
            for (unsigned i = 0; i < per_atom; ++i) {
              uint16_t v = es == 1 ? buf[i] : static_cast<uint16_t>(buf[2 * i] | (buf[2 * i + 1] << 8));
              if (fp) census.count(v);
              const uint32_t c = sf * per_atom + i;
              if (c >= l_.channels) continue;
              s[size_t{x} * l_.channels + c] = input_element(v);
            }
          }
      }
    return slices;
  }

  // Image mode: one padded line of (PL + W + PR) pixels x C components per image row.
  Slices image(Fp16Census& census) const {
    const auto fmt_code = static_cast<formats::PixelFormat>(l_.pixel_format);
    const formats::PixelFormatInfo& pf = formats::pixel_format_info(fmt_code);
    const unsigned c = pf.channels, bpp0 = pf.plane_bytes[0], bpp1 = pf.plane_bytes[1];
    const uint64_t line_pixels = uint64_t{l_.cdma_pad_left} + l_.width + l_.cdma_pad_right;
    const uint16_t pad = pad_element(l_.cdma_pad_value, l_.proc);
    const bool fp_pixels = pf.precision == Precision::Fp16;
    Slices slices(l_.height, std::vector<uint16_t>(line_pixels * c, pad));
    std::vector<uint8_t> p0(bpp0), p1(std::max(1u, bpp1));
    for (uint32_t y = 0; y < l_.height; ++y) {
      std::vector<uint16_t>& line = slices[y];
      const uint64_t row0 = l_.data_addr0 + uint64_t{y} * l_.line_stride, row1 = l_.data_addr1 + uint64_t{y} * l_.uv_line_stride;
      for (uint32_t x = 0; x < l_.width; ++x) {
        const uint64_t mx = uint64_t{l_.pixel_x_offset} + x;
        mem_.read(row0 + mx * bpp0, p0.data(), bpp0);
        if (pf.planes == 2) mem_.read(row1 + mx * bpp1, p1.data(), bpp1);
        const formats::PixelComponents comps = formats::unpack_pixel(fmt_code, p0.data(), pf.planes == 2 ? p1.data() : nullptr);
        for (unsigned i = 0; i < c; ++i)
          line[(uint64_t{l_.cdma_pad_left} + x) * c + i] = pixel_element(fmt_code, fp_pixels, comps[i], i);
      }
      if (fp_pixels) {  // from pixel X_OFFSET to the end of the line's last fetched atom
        const uint64_t first = uint64_t{l_.pixel_x_offset} * bpp0;
        const uint64_t end = ceil_div((uint64_t{l_.pixel_x_offset} + l_.width) * bpp0, cfg_.atom_bytes) * cfg_.atom_bytes;
        std::vector<uint8_t> bytes(end - first);
        mem_.read(row0 + first, bytes.data(), bytes.size());
        for (size_t k = 0; k + 1 < bytes.size(); k += 2) census.count(static_cast<uint16_t>(bytes[k] | (bytes[k + 1] << 8)));
      }
    }
    return slices;
  }

  // Winograd: the padded, stride-folded extended cube, one slice per extended row of
  // W_ext x C_ext elements; counted (and flushed) after padding.
  Slices winograd(Fp16Census& census) const {
    const unsigned sx = l_.cdma_stride_x, sy = l_.cdma_stride_y, es = l_.in_es(), per_atom = cfg_.atom_bytes / es;
    const uint32_t c = l_.channels, w_ext = l_.width_ext, h_ext = l_.height_ext;
    const uint64_t c_ext = uint64_t{c} * sx * sy;
    const bool fp = l_.in == Precision::Fp16;
    const uint16_t pad = pad_element(l_.cdma_pad_value, l_.proc);
    std::vector<uint8_t> el(es);
    auto input = [&](int64_t px, int64_t py, uint32_t ch) -> uint16_t {
      const int64_t ix = px - l_.cdma_pad_left, iy = py - l_.cdma_pad_top;
      if (ix < 0 || iy < 0 || ix >= l_.width || iy >= l_.height) return pad;
      mem_.read(l_.data_addr0 + (ch / per_atom) * l_.surf_stride + static_cast<uint64_t>(iy) * l_.line_stride +
                    static_cast<uint64_t>(ix) * cfg_.atom_bytes + (ch % per_atom) * es,
                el.data(), es);
      return es == 1 ? el[0] : static_cast<uint16_t>(el[0] | (el[1] << 8));
    };
    Slices slices(h_ext, std::vector<uint16_t>(w_ext * c_ext));
    for (uint32_t yy = 0; yy < h_ext; ++yy)
      for (uint32_t xx = 0; xx < w_ext; ++xx)
        for (unsigned v = 0; v < sy; ++v)
          for (unsigned u = 0; u < sx; ++u)
            for (uint32_t ch = 0; ch < c; ++ch) {
              uint16_t e = input(int64_t{xx} * sx + u, int64_t{yy} * sy + v, ch);
              if (fp) {
                census.count(e);
                if (l_.nan_to_zero && num::kFp16.is_nan(e)) e = 0;
              }
              slices[yy][xx * c_ext + (uint64_t{v} * sx + u) * c + ch] = e;
            }
    return slices;
  }

 private:
  // A fetched direct-mode element after the input stage (NaN flush or integer converter).
  uint16_t input_element(uint16_t v) const {
    if (l_.in == Precision::Fp16) return l_.nan_to_zero && num::kFp16.is_nan(v) ? 0 : v;
    if (!l_.cvt_en) return v;
    const int64_t z = cdma_convert(as_int(v, l_.in), l_.cvt_offset, l_.cvt_scale, l_.cvt_truncate);
    return to_element(num::sat(z, l_.proc == Precision::Int8 ? 8 : 16), l_.proc);
  }

  // One pixel component as stored in the CBUF (conversion, or raw bits).
  uint16_t pixel_element(formats::PixelFormat f, bool fp_pixels, uint16_t bits, unsigned component) const {
    if (fp_pixels) return l_.nan_to_zero && num::kFp16.is_nan(bits) ? 0 : bits;
    if (!l_.cvt_en) return to_element(bits, l_.proc);
    const int64_t p = formats::component_value(f, bits, l_.pixel_sign_override);
    const int64_t off = l_.mean_format ? l_.mean[component] : l_.cvt_offset;
    const int64_t z = cdma_convert(p, off, l_.cvt_scale, l_.cvt_truncate);
    switch (l_.proc) {
      case Precision::Int8: return to_element(num::sat(z, 8), Precision::Int8);
      case Precision::Int16: return to_element(num::sat(z, 16), Precision::Int16);
      case Precision::Fp16: return num::int17_to_fp16_ieee(static_cast<int32_t>(z));
    }
    return 0;
  }

  const ConvLayer& l_;
  const HwConfig& cfg_;
  const SparseMemory& mem_;
};

// ---------------------------------------------------------------------------- accumulation

// One output element's accumulator (CACC), integer or fp16.
class Accumulator {
 public:
  explicit Accumulator(Precision p) : p_(p) {}
  void add_int(int64_t partial) {
    // 34-bit partial sums for int8, 48-bit for int16, saturating after every addition.
    acc_ = first_ ? partial : num::sat(acc_ + partial, p_ == Precision::Int8 ? 34 : 48);
    first_ = false;
  }
  void add_fp(const num::CmacFp16Sum& partial) { fp_.add(partial); }
  // The delivered 32-bit value; `saturated` when the 32-bit clip changed it.
  uint32_t result(unsigned clip, bool& saturated) const {
    saturated = false;
    if (p_ == Precision::Fp16) return fp_.to_fp32();
    int64_t r = num::rha(acc_, clip);
    if (clip > 0 && planted("conv.clip_rounding") && acc_ < 0 && (-acc_ & ((int64_t{1} << clip) - 1)) == int64_t{1} << (clip - 1))
      ++r;  // a negative tie rounds up (toward +inf)
    const int64_t v = num::sat(r, 32);
    saturated = v != r;
    return static_cast<uint32_t>(v);
  }

 private:
  Precision p_;
  int64_t acc_ = 0;
  bool first_ = true;
  num::CaccFp48 fp_;
};

int64_t int_dot(const uint16_t* w, const uint16_t* d, unsigned lanes, Precision p) {
  int64_t s = 0;
  for (unsigned i = 0; i < lanes; ++i)
    if (w[i] && d[i]) s += as_int(w[i], p) * as_int(d[i], p);
  return s;
}

// Collects output atoms and the saturation count (D_OUT_SATURATION, with the configurable
// family's per-atom adder width).
class OutputWriter {
 public:
  OutputWriter(const ConvLayer& l, const HwConfig& cfg, unsigned lanes) : l_(l), cfg_(cfg) {
    out_.width = l.out_width;
    out_.height = l.out_height;
    out_.kernels = l.kernels;
    out_.batches = l.batches;
    out_.lanes = lanes;
    out_.proc = l.proc;
    out_.winograd = l.kind == ConvInputKind::Winograd;
    out_.values.assign(size_t{out_.groups()} * l.out_height * l.out_width * l.batches * lanes, 0);
  }
  uint32_t* atom(uint32_t g, uint32_t y, uint32_t x, uint32_t b) {
    return &out_.values[((((size_t{g} * out_.height + y) * out_.width + x) * out_.batches) + b) * out_.lanes];
  }
  // Counts the saturated lanes of one atom.
  void count_atom(unsigned saturated_lanes) {
    if (l_.proc == Precision::Fp16) return;
    saturated_ += cfg_.conv_sat_count_wraps ? saturated_lanes % out_.lanes : saturated_lanes;
  }
  ConvOutput take() { return std::move(out_); }
  uint64_t saturated() const { return saturated_; }

 private:
  const ConvLayer& l_;
  const HwConfig& cfg_;
  ConvOutput out_;
  uint64_t saturated_ = 0;
};

// ---------------------------------------------------------------------------- direct / image

// Direct and image convolution as a list of atomic operations per output pixel: each
// operation is AC data lanes and, per kernel, AC weight lanes; CACC adds the operations'
// partial sums in list order (channel block outermost, then kernel row, then column).
class DirectEngine {
 public:
  DirectEngine(const ConvLayer& l, const HwConfig& cfg, const Slices& slices, const formats::KernelSet& wt)
      : l_(l), cfg_(cfg), slices_(slices), wt_(wt), ac_(cfg.conv_mac_atomic_c) {
    build_ops();
    build_weights();
  }

  void run(OutputWriter& out) const {
    const unsigned ak = cfg_.conv_kernels_per_group(l_.proc);
    const size_t n_ops = ops_.size();
    const bool fp = l_.proc == Precision::Fp16;
    std::vector<uint16_t> data(n_ops * ac_);
    std::vector<int32_t> data_int(fp ? 0 : n_ops * ac_);
    for (uint32_t y = 0; y < l_.out_height; ++y)
      for (uint32_t x = 0; x < l_.out_width; ++x)
        for (uint32_t b = 0; b < l_.batches; ++b) {
          for (size_t o = 0; o < n_ops; ++o) fill_data(ops_[o], b, x, y, &data[o * ac_]);
          if (!fp)
            for (size_t i = 0; i < data.size(); ++i) data_int[i] = static_cast<int32_t>(as_int(data[i], l_.proc));
          for (uint32_t g = 0; g * ak < l_.kernels; ++g) {
            uint32_t* atom = out.atom(g, y, x, b);
            unsigned saturated = 0;
            for (unsigned i = 0; i < ak && g * ak + i < l_.kernels; ++i) {
              const uint32_t k = g * ak + i;
              Accumulator acc(l_.proc);
              for (size_t o = 0; o < n_ops; ++o) {
                const size_t wi = (size_t{k} * n_ops + o) * ac_;
                if (fp) {
                  acc.add_fp(num::cmac_fp16_dot(&weights_[wi], &data[o * ac_], ac_));
                } else {
                  // Exact: |w * d| < 2^30 per lane, at most 64 lanes per operation.
                  int64_t p = 0;
                  const int32_t* w = &weights_int_[wi];
                  const int32_t* d = &data_int[o * ac_];
                  for (unsigned j = 0; j < ac_; ++j) p += int64_t{w[j]} * d[j];
                  acc.add_int(p);
                }
              }
              bool s = false;
              atom[i] = acc.result(l_.clip_truncate, s);
              saturated += s;
            }
            out.count_atom(saturated);
          }
        }
  }

 private:
  struct Op {
    uint32_t block;  // channel block (AC lanes of C, or of S x C in image mode)
    uint32_t r, s;   // kernel row (first row of the group with post-extension) and column
  };

  void build_ops() {
    const uint32_t chans = l_.kind == ConvInputKind::Image ? l_.kernel_channels : l_.channels;
    const uint32_t blocks = static_cast<uint32_t>(ceil_div(chans, ac_));
    const unsigned p = l_.post_rows();
    if (l_.kind == ConvInputKind::Image && p > 1) {
      for (uint32_t t = 0; t * p < l_.kernel_height; ++t) ops_.push_back({0, t * p, 0});
      return;
    }
    for (uint32_t blk = 0; blk < blocks; ++blk)
      for (uint32_t r = 0; r < l_.kernel_height; ++r)
        for (uint32_t s = 0; s < (l_.kind == ConvInputKind::Image ? 1 : l_.kernel_width); ++s) ops_.push_back({blk, r, s});
  }

  void build_weights() {
    weights_.assign(size_t{l_.kernels} * ops_.size() * ac_, 0);
    const unsigned p = l_.post_rows();
    for (uint32_t k = 0; k < l_.kernels; ++k)
      for (size_t o = 0; o < ops_.size(); ++o) {
        uint16_t* w = &weights_[(size_t{k} * ops_.size() + o) * ac_];
        const Op& op = ops_[o];
        if (l_.kind == ConvInputKind::Image && p > 1) {
          const unsigned group = ac_ / p;
          for (unsigned j = 0; j < p; ++j) {
            const uint32_t r = op.r + j;
            if (r >= l_.kernel_height) continue;
            for (uint32_t kappa = 0; kappa < l_.kernel_channels && kappa < group; ++kappa)
              w[j * group + kappa] = wt_.at(k, r, 0, kappa);
          }
          continue;
        }
        const uint32_t chans = l_.kind == ConvInputKind::Image ? l_.kernel_channels : l_.channels;
        for (unsigned j = 0; j < ac_; ++j) {
          const uint32_t c = op.block * ac_ + j;
          if (c < chans) w[j] = wt_.at(k, op.r, op.s, c);
        }
      }
    if (l_.proc != Precision::Fp16) {
      weights_int_.resize(weights_.size());
      for (size_t i = 0; i < weights_.size(); ++i) weights_int_[i] = static_cast<int32_t>(as_int(weights_[i], l_.proc));
    }
  }

  void fill_data(const Op& op, uint32_t b, uint32_t x, uint32_t y, uint16_t* d) const {
    std::fill(d, d + ac_, uint16_t{0});
    const uint16_t pad = pad_element(l_.pad_value, l_.proc);
    if (l_.kind == ConvInputKind::Feature) {
      const int64_t ix = int64_t{x} * l_.stride_x + int64_t{op.s} * l_.dilation_x - l_.pad_left;
      int64_t iy = int64_t{y} * l_.stride_y + int64_t{op.r} * l_.dilation_y - l_.pad_top;
      if (iy == -1 && planted("conv.padding_row")) iy = 0;
      const bool inside = ix >= 0 && iy >= 0 && ix < l_.csc_width && iy < l_.csc_height;
      const std::vector<uint16_t>* line = inside ? &slices_[static_cast<size_t>(iy) * l_.batches + b] : nullptr;
      for (unsigned j = 0; j < ac_; ++j) {
        const uint32_t c = op.block * ac_ + j;
        if (c >= l_.channels) break;
        d[j] = inside ? (*line)[static_cast<size_t>(ix) * l_.channels + c] : pad;
      }
      return;
    }
    // Image: padded-line element x * sx * C + kappa of image row y * sy + r - PT.
    const unsigned p = l_.post_rows(), group = p > 1 ? ac_ / p : ac_;
    for (unsigned j = 0; j < p; ++j) {
      const int64_t iy = int64_t{y} * l_.stride_y + op.r + j - l_.pad_top;
      const bool inside = iy >= 0 && iy < l_.csc_height;
      const std::vector<uint16_t>* line = inside ? &slices_[static_cast<size_t>(iy)] : nullptr;
      for (unsigned lane = 0; lane < group; ++lane) {
        const uint32_t kappa = (p > 1 ? 0 : op.block * ac_) + lane;
        if (kappa >= l_.kernel_channels) break;
        const uint64_t e = uint64_t{x} * l_.stride_x * l_.channels + kappa;
        d[j * group + lane] = !inside ? pad : e < line->size() ? (*line)[e] : 0;
      }
    }
  }

  const ConvLayer& l_;
  const HwConfig& cfg_;
  const Slices& slices_;
  const formats::KernelSet& wt_;
  unsigned ac_;
  std::vector<Op> ops_;
  std::vector<uint16_t> weights_;      // (k, op) x AC lanes
  std::vector<int32_t> weights_int_;   // the same, sign-extended (integer precisions)
};

// ---------------------------------------------------------------------------- Winograd

// The output transform, or the planted one whose second row adds Q2 (row-major q, row i
// of the tile = q[4i .. 4i + 3]): Y = A^T Q A with A^T's second row (0, 1, 1, -1).
std::array<int64_t, 4> output_transform(const std::array<int64_t, 16>& q) {
  if (!planted("conv.winograd_coefficient")) return num::winograd_output_transform(q);
  std::array<int64_t, 16> flipped = q;
  const std::array<int64_t, 4> y0 = num::winograd_output_transform(q);
  for (unsigned c = 0; c < 4; ++c) flipped[8 + c] = -q[8 + c];  // row 2 negated: r1 = Q1 + Q2 - Q3
  const std::array<int64_t, 4> y1 = num::winograd_output_transform(flipped);
  return {y0[0], y0[1], y1[2], y1[3]};
}

void run_winograd(const ConvLayer& l, const HwConfig& cfg, const Slices& ext, const formats::KernelSet& u,
                  OutputWriter& out) {
  const unsigned ak = cfg.conv_kernels_per_group(l.proc);
  const uint32_t c_ext = l.csc_channels, blocks = c_ext / 4;
  const bool fp = l.proc == Precision::Fp16;
  const unsigned bits = l.proc == Precision::Int8 ? 8 : 16;
  std::vector<uint16_t> data(size_t{blocks} * 64), w(64);
  for (uint32_t ty = 0; ty < l.out_height / 2; ++ty)
    for (uint32_t tx = 0; tx < l.out_width / 2; ++tx) {
      // PRA of every 4 x 4 window of the tile, lane 4 * p + c of block blk.
      for (uint32_t blk = 0; blk < blocks; ++blk)
        for (unsigned c = 0; c < 4; ++c) {
          const uint32_t ch = blk * 4 + c;
          std::array<uint16_t, 16> tile{};
          for (unsigned i = 0; i < 4; ++i)
            for (unsigned j = 0; j < 4; ++j) tile[i * 4 + j] = ext[2 * ty + i][(size_t{2} * tx + j) * c_ext + ch];
          std::array<uint16_t, 16> v{};
          if (fp) {
            v = num::winograd_pra_fp16(tile);
          } else {
            std::array<int32_t, 16> t{};
            for (unsigned q = 0; q < 16; ++q) t[q] = static_cast<int32_t>(as_int(tile[q], l.proc));
            const std::array<int32_t, 16> r = num::winograd_pra_int(t, l.pra_truncate, bits);
            for (unsigned q = 0; q < 16; ++q) v[q] = to_element(r[q], l.proc);
          }
          for (unsigned q = 0; q < 16; ++q) data[blk * 64 + 4 * q + c] = v[q];
        }
      for (uint32_t g = 0; g * ak < l.kernels; ++g) {
        unsigned sat_count[4] = {0, 0, 0, 0};
        for (unsigned i = 0; i < ak && g * ak + i < l.kernels; ++i) {
          const uint32_t k = g * ak + i;
          std::array<Accumulator, 4> acc{Accumulator(l.proc), Accumulator(l.proc), Accumulator(l.proc), Accumulator(l.proc)};
          for (uint32_t blk = 0; blk < blocks; ++blk) {
            for (unsigned q = 0; q < 16; ++q)
              for (unsigned c = 0; c < 4; ++c) w[4 * q + c] = u.at(k, q / 4, q % 4, blk * 4 + c);
            const uint16_t* d = &data[blk * 64];
            if (fp) {
              num::CmacFp16Sum qs[16];
              num::cmac_fp16_grouped_dot(w.data(), d, 64, 4, qs);
              std::array<num::CmacFp16Sum, 4> y4;
              if (qs[0].exp == 63) {
                y4.fill(qs[0]);
              } else {
                std::array<int64_t, 16> m{};
                for (unsigned q = 0; q < 16; ++q) m[q] = qs[q].mant;
                const std::array<int64_t, 4> y = output_transform(m);
                for (unsigned o = 0; o < 4; ++o) y4[o] = num::CmacFp16Sum{qs[0].exp, y[o]};
              }
              for (unsigned o = 0; o < 4; ++o) acc[o].add_fp(y4[o]);
            } else {
              std::array<int64_t, 16> q16{};
              for (unsigned q = 0; q < 16; ++q) q16[q] = int_dot(&w[4 * q], d + 4 * q, 4, l.proc);
              const std::array<int64_t, 4> y = output_transform(q16);
              for (unsigned o = 0; o < 4; ++o) acc[o].add_int(y[o]);
            }
          }
          for (unsigned o = 0; o < 4; ++o) {
            bool s = false;
            out.atom(g, 2 * ty + o / 2, 2 * tx + o % 2, 0)[i] = acc[o].result(l.clip_truncate, s);
            sat_count[o] += s;
          }
        }
        for (unsigned o = 0; o < 4; ++o) out.count_atom(sat_count[o]);
      }
    }
}

// ---------------------------------------------------------------------------- weights

struct WeightFetch {
  std::vector<uint8_t> image;  // uncompressed weight image (at least K x BPK bytes)
  Fp16Census census;
};

std::optional<WeightFetch> fetch_weights(const ConvLayer& l, const HwConfig& cfg, const SparseMemory& mem,
                                         std::vector<std::string>& broken) {
  WeightFetch f;
  std::vector<uint8_t> raw(l.weight_bytes);
  mem.read(l.weight_addr, raw.data(), raw.size());
  if (l.proc == Precision::Fp16)
    for (size_t i = 0; i + 1 < raw.size(); i += 2) f.census.count(static_cast<uint16_t>(raw[i] | (raw[i + 1] << 8)));
  if (!l.compressed) {
    f.image = std::move(raw);
    return f;
  }
  const unsigned es = l.proc_es();
  const std::vector<uint64_t> groups =
      formats::weight_group_elements(l.kernels, l.bytes_per_kernel, es, cfg.conv_kernels_per_group(l.proc));
  formats::CompressedWeights cw;
  cw.total_elements = uint64_t{l.kernels} * l.bytes_per_kernel / es;
  cw.wmb.resize(l.wmb_bytes);
  mem.read(l.wmb_addr, cw.wmb.data(), cw.wmb.size());
  cw.wgs.resize(groups.size() * 4);
  mem.read(l.wgs_addr, cw.wgs.data(), cw.wgs.size());
  cw.data = std::move(raw);
  if (planted("conv.decompress_bit"))
    for (uint8_t& b : cw.wmb) {
      uint8_t r = 0;
      for (unsigned i = 0; i < 8; ++i) r = static_cast<uint8_t>(r | (((b >> i) & 1u) << (7 - i)));
      b = r;
    }
  uint64_t nnz = 0;
  for (uint64_t t = 0; t < cw.total_elements && t / 8 < cw.wmb.size(); ++t) nnz += (cw.wmb[t / 8] >> (t % 8)) & 1u;
  const uint64_t want_weight = formats::round_up_128(nnz * es), want_wmb = ceil_div(cw.total_elements, 1024) * 128;
  if (l.weight_bytes != want_weight)
    broken.push_back(fmt::format("compressed WEIGHT_BYTES {} but the mask selects {} elements ({} bytes rounded to 128)",
                                 l.weight_bytes, nnz, want_weight));
  if (l.wmb_bytes != want_wmb)
    broken.push_back(fmt::format("WMB_BYTES {} but {} weight elements need {} mask bytes", l.wmb_bytes, cw.total_elements,
                                 want_wmb));
  try {
    f.image = formats::decompress_weights(cw, es, groups);
  } catch (const std::invalid_argument& e) {
    broken.push_back(std::string("compressed weights: ") + e.what());
  }
  if (!broken.empty()) return std::nullopt;
  return f;
}

}  // namespace

std::optional<ConvRun> run_conv_layer(const ConvLayer& l, const HwConfig& cfg, ConvCbuf& cbuf, const ConvMemories& mem,
                                      const std::function<void(const std::string&)>& warn) {
  // What the CBUF offers this layer: kept slices survive only an unchanged mode and bank split.
  const bool same_setup = cbuf.has_data && cbuf.kind == l.kind && cbuf.data_bank == l.data_bank &&
                          cbuf.weight_bank == l.weight_bank && cbuf.proc == l.proc;
  std::vector<std::string> broken;
  if (!same_setup || !l.data_reuse) cbuf.clear_data();
  if (l.data_reuse && !cbuf.has_data)
    broken.push_back("DATA_REUSE = 1 but the CBUF keeps no data of an earlier layer with the same mode and banks");
  const bool full_reuse = l.data_reuse && cbuf.has_data && cbuf.data_kept_all;
  const uint32_t kept = l.data_reuse ? static_cast<uint32_t>(cbuf.slices.size()) : 0;
  if (l.data_reuse && cbuf.has_data &&
      (cbuf.slice_width != l.width || cbuf.slice_channels != l.channels || cbuf.batches != l.batches))
    broken.push_back(fmt::format("DATA_REUSE: kept slices are {}x{} (x{} batches) but this layer's input is {}x{} (x{})",
                                 cbuf.slice_width, cbuf.slice_channels, cbuf.batches, l.width, l.channels, l.batches));
  const bool same_weights = cbuf.has_weights && cbuf.kernels == l.kernels && cbuf.bytes_per_kernel == l.bytes_per_kernel &&
                            cbuf.weight_bytes == l.weight_bytes && cbuf.wmb_bytes == l.wmb_bytes &&
                            cbuf.compressed == l.compressed && cbuf.data_bank == l.data_bank &&
                            cbuf.weight_bank == l.weight_bank;
  if (l.weight_reuse && !cbuf.has_weights)
    broken.push_back("WEIGHT_REUSE = 1 but the previous layer released its weights (SKIP_WEIGHT_RLS = 0)");
  else if (l.weight_reuse && !same_weights)
    broken.push_back("WEIGHT_REUSE = 1 but K, BYTE_PER_KERNEL, WEIGHT_BYTES, WMB_BYTES, format or banks differ from the "
                     "kept weights");
  for (std::string& r : conv_rule_violations(l, cfg, kept, full_reuse)) broken.push_back(std::move(r));
  if (!broken.empty()) {
    for (const std::string& r : broken) warn(r);
    return std::nullopt;
  }

  ConvRun run;
  // CDMA: data.
  Fp16Census data_census;
  Slices slices;
  if (full_reuse) {
    slices = cbuf.slices;
  } else {
    const Fetcher fetch(l, cfg, mem.of(l.data_port));
    Slices fetched = l.kind == ConvInputKind::Image      ? fetch.image(data_census)
                     : l.kind == ConvInputKind::Winograd ? fetch.winograd(data_census)
                                                         : fetch.feature(data_census);
    slices = l.data_reuse ? cbuf.slices : Slices{};
    for (auto& s : fetched) slices.push_back(std::move(s));
  }
  // The rules above make the input exactly the lines CSC reads; check it rather than index
  // past the CBUF image if a rule ever misses a case.
  const size_t lines = size_t{l.csc_height} * (l.kind == ConvInputKind::Feature ? l.batches : 1);
  if (slices.size() != lines) {
    warn(fmt::format("the CBUF holds {} input lines but CSC reads {} (DATAIN_HEIGHT_EXT, reuse)", slices.size(), lines));
    return std::nullopt;
  }
  // CDMA: weights.
  std::vector<uint8_t> image;
  Fp16Census weight_census;
  if (l.weight_reuse) {
    image = cbuf.weight_image;
  } else {
    std::optional<WeightFetch> wf = fetch_weights(l, cfg, mem.of(l.weight_port), broken);
    if (!wf) {
      for (const std::string& r : broken) warn(r);
      return std::nullopt;
    }
    image = std::move(wf->image);
    weight_census = wf->census;
  }

  // CSC + CMAC + CACC.
  const unsigned ak = cfg.conv_kernels_per_group(l.proc), es = l.proc_es();
  const formats::WeightGrouping grouping{ak, cfg.conv_mac_atomic_c};
  OutputWriter out(l, cfg, ak);
  if (l.kind == ConvInputKind::Winograd) {
    const formats::KernelSet u = formats::winograd_weights_from_image(image, l.kernels, l.csc_channels, es, grouping);
    run_winograd(l, cfg, slices, u, out);
  } else {
    const formats::KernelSet wt =
        l.kind == ConvInputKind::Image
            ? formats::post_extended_weights_from_image(image, l.kernels, l.kernel_height, l.kernel_channels, es,
                                                        l.post_rows(), grouping)
            : formats::dc_weights_from_image(image, l.kernels, l.kernel_height, l.kernel_width, l.kernel_channels, es,
                                             grouping);
    DirectEngine(l, cfg, slices, wt).run(out);
  }
  run.counters.out_saturation = out.saturated();
  if (run.counters.out_saturation > 0 && planted("conv.out_saturation_count")) --run.counters.out_saturation;
  run.output = out.take();
  if (l.in == Precision::Fp16) {
    run.counters.nan_data = data_census.nan;
    run.counters.inf_data = data_census.inf;
  }
  if (l.proc == Precision::Fp16) {
    run.counters.nan_weight = weight_census.nan;
    run.counters.inf_weight = weight_census.inf;
  }

  // Release: what the next layer may reuse.
  cbuf.kind = l.kind;
  cbuf.data_bank = l.data_bank;
  cbuf.weight_bank = l.weight_bank;
  cbuf.proc = l.proc;
  cbuf.slice_width = l.width;
  cbuf.slice_channels = l.channels;
  cbuf.batches = l.batches;
  if (l.skip_data_rls) {
    cbuf.slices = std::move(slices);
    cbuf.data_kept_all = true;
  } else {
    const size_t release = std::min<size_t>(l.release_slices, slices.size());
    cbuf.slices.assign(std::make_move_iterator(slices.begin() + static_cast<std::ptrdiff_t>(release)),
                       std::make_move_iterator(slices.end()));
    cbuf.data_kept_all = false;
  }
  cbuf.has_data = !cbuf.slices.empty();
  if (l.skip_weight_rls) {
    cbuf.has_weights = true;
    cbuf.weight_image = std::move(image);
    cbuf.weight_bytes = l.weight_bytes;
    cbuf.wmb_bytes = l.wmb_bytes;
    cbuf.bytes_per_kernel = l.bytes_per_kernel;
    cbuf.kernels = l.kernels;
    cbuf.compressed = l.compressed;
  } else {
    cbuf.clear_weights();
  }
  return run;
}

}  // namespace dla::golden
