// Convolution pipeline coverage (docs/conv.md, spec conv.md): one sample per conv layer the
// golden model completed. The five units complete one layer together and in order, so the
// i-th completed CDMA, CSC, CMAC_A, CMAC_B and CACC records are one layer; it is decoded with
// golden::decode_conv_layer from their register snapshots (CDMA's and CACC's carry the
// counters latched at done).
//   conv.layer    mode, precision, pixel format, kernel / stride / dilation / padding classes,
//                 channel and kernel-count classes against AC / AK, batch, compression,
//                 post-extension, CVT, CLIP_TRUNCATE class, CBUF bank shares, data reuse
//                 (full / partial, from the previous layer's SKIP_DATA_RLS), weight reuse,
//                 data and weight release; crosses mode x precision, mode x kernel,
//                 precision x clip, data reuse x weight reuse.
//   conv.outcome  CACC D_OUT_SATURATION zero / non-zero (x precision), and on fp16
//                 configurations CDMA's four NaN/Inf counters zero / non-zero (data counters
//                 x mode).
// A bin the configuration can never hit is left out, never declared ignore: coverage files
// of different configurations are merged and one bin with two kinds makes them unmergeable.
#include <algorithm>
#include <map>
#include <string>

#include "dla/conv_layer.h"
#include "dla/coverage/covergroup.h"
#include "dla/formats/pixel_format.h"
#include "dla/regs.gen.h"
#include "models/models.h"

namespace dla::cov {

namespace {

using golden::ConvInputKind;
using golden::ConvLayer;

constexpr int64_t kNa = -1;  // coverpoint does not apply to this layer (ignore bin "n/a")

enum Mode : int64_t { kDirect = 0, kImage = 1, kWinograd = 2 };
enum KernelClass : int64_t { k1x1 = 0, kKernelSmall = 1, kKernelMedium = 2, kKernelLarge = 3 };
enum StrideClass : int64_t { kStride1 = 0, kStride2 = 1, kStrideOver2 = 2 };
enum DilationClass : int64_t { kDilNone = 0, kDilX = 1, kDilY = 2, kDilBoth = 3 };
enum PaddingClass : int64_t { kPadNone = 0, kPadLeadOnly = 1, kPadTrailOnly = 2, kPadBoth = 3 };
enum BlockClass : int64_t { kBelowOne = 0, kMultiple = 1, kPartialLast = 2 };
enum BankClass : int64_t { kOneBank = 0, kUpToHalf = 1, kOverHalf = 2 };
enum DataReuse : int64_t { kNoReuse = 0, kPartialReuse = 1, kFullReuse = 2, kReuseUnknown = 3 };
enum DataRelease : int64_t { kReleaseAll = 0, kReleasePartial = 1, kReleaseSkip = 2 };
enum Counter : int64_t { kZero = 0, kNonZero = 1, kFp16Counted = 2 };

const char* const kPrecisionNames[] = {"int8", "int16", "fp16"};

int64_t mode_of(const ConvLayer& l) {
  return l.kind == ConvInputKind::Image ? kImage : l.kind == ConvInputKind::Winograd ? kWinograd : kDirect;
}

// Kernel extent (largest of R and S) as the software wrote it: direct R x S; image R x S with
// S = pre-extended channels / C; Winograd: the folded 3x3 kernel covers 3*sx x 3*sy input
// positions (spec §6.1: software folds an R x S kernel of stride s into 3x3 over C*sx*sy).
int64_t kernel_class(const ConvLayer& l) {
  uint32_t r = l.kernel_height, s = l.kernel_width;
  if (l.kind == ConvInputKind::Image) s = l.kernel_channels / std::max<uint32_t>(l.channels, 1);
  if (l.kind == ConvInputKind::Winograd) {
    r = 3 * l.cdma_stride_y;
    s = 3 * l.cdma_stride_x;
  }
  const uint32_t m = std::max(r, s);
  return m <= 1 ? k1x1 : m <= 3 ? kKernelSmall : m <= 7 ? kKernelMedium : kKernelLarge;
}

// Winograd's stride is CDMA's folding stride (CSC's must be 1); direct and image use CSC's.
int64_t stride_class(unsigned s) { return s <= 1 ? kStride1 : s == 2 ? kStride2 : kStrideOver2; }
unsigned stride_x(const ConvLayer& l) { return l.kind == ConvInputKind::Winograd ? l.cdma_stride_x : l.stride_x; }
unsigned stride_y(const ConvLayer& l) { return l.kind == ConvInputKind::Winograd ? l.cdma_stride_y : l.stride_y; }

int64_t dilation_class(const ConvLayer& l) {
  if (l.kind != ConvInputKind::Feature) return kNa;  // image and Winograd have no dilation
  return (l.dilation_x > 1 ? kDilX : kDilNone) | (l.dilation_y > 1 ? kDilY : kDilNone);
}

// Lead padding: the first window starts left of / above the input (direct: CSC PAD_LEFT/TOP;
// image: CDMA PAD_LEFT and CSC PAD_TOP). Trail padding: the last window ends right of / below
// it, which direct mode only expresses through the output size (no right/bottom register);
// image: right through CDMA's padded line, bottom through the output size. Winograd: CDMA's
// four padding fields.
int64_t padding_class(const ConvLayer& l) {
  bool lead = false, trail = false;
  switch (l.kind) {
    case ConvInputKind::Feature:
    case ConvInputKind::Image: {
      const bool image = l.kind == ConvInputKind::Image;
      const uint64_t pl = image ? l.cdma_pad_left : l.pad_left, pt = l.pad_top;
      const uint64_t s = image ? l.kernel_channels / std::max<uint32_t>(l.channels, 1) : l.kernel_width;
      const uint64_t dx = image ? 1 : l.dilation_x, dy = image ? 1 : l.dilation_y;
      const uint64_t w = image ? l.width : l.csc_width, h = l.csc_height;
      const uint64_t last_x = (uint64_t{l.out_width} - 1) * l.stride_x + (s - 1) * dx;   // padded coordinates
      const uint64_t last_y = (uint64_t{l.out_height} - 1) * l.stride_y + (uint64_t{l.kernel_height} - 1) * dy;
      lead = pl > 0 || pt > 0;
      trail = last_x >= pl + w || last_y >= pt + h;
      break;
    }
    case ConvInputKind::Winograd:
      lead = l.cdma_pad_left > 0 || l.cdma_pad_top > 0;
      trail = l.cdma_pad_right > 0 || l.cdma_pad_bottom > 0;
      break;
  }
  return lead ? (trail ? kPadBoth : kPadLeadOnly) : (trail ? kPadTrailOnly : kPadNone);
}

// n against a block size: below one block, whole blocks, whole blocks plus a partial one.
int64_t block_class(uint64_t n, uint64_t block) {
  return n < block ? kBelowOne : n % block == 0 ? kMultiple : kPartialLast;
}

// Channels one kernel position spans, split by CSC into AC-lane blocks: direct C, image the
// pre-extended S x C, Winograd the folded C x sx x sy.
uint64_t mac_channels(const ConvLayer& l) {
  return l.kind == ConvInputKind::Image ? l.kernel_channels : l.kind == ConvInputKind::Winograd ? l.csc_channels : l.channels;
}

int64_t bank_class(unsigned banks_minus_1, unsigned total) {
  const uint64_t n = uint64_t{banks_minus_1} + 1;
  return n == 1 ? kOneBank : 2 * n <= total ? kUpToHalf : kOverHalf;
}

// Largest |sum| an int8/int16 output element can reach, against CACC's 32-bit clip. An output
// element sums at most one kernel's R*S*C products (one per weight element) and every weight
// element of the kernel is in the CBUF weight banks while it is used: at most (banks - 1) banks
// (the data region has at least one), so elements <= (banks - 1) * depth * entry / es. Data
// and weights are int8 or int16 after CDMA (CVT and pixel conversion saturate to the
// processing precision, padding values are of that precision), so one product is at most
// (-2^(b-1))^2 = 2^(2b-2). CLIP_TRUNCATE only shrinks the value. Winograd's input transform adds
// or subtracts up to 4 inputs per position: a factor 4 more.
//   small (nv_small, int8 only): 31 banks x 512 x 8 B = 126976 elements x 2^14 = 2080374784
//   < 2^31: D_OUT_SATURATION is always 0, its "nonzero" bin does not exist.
//   v1: int8 15 x 256 x 128 = 491520 elements x 2^14 >= 2^31 (and int16: 2 products suffice).
bool conv_can_saturate(const HwConfig& cfg) {
  const uint64_t weight_bytes =
      uint64_t{cfg.conv_cbuf_banks - 1} * cfg.conv_cbuf_bank_entries * cfg.conv_cbuf_entry_bytes;
  for (Precision p : {Precision::Int8, Precision::Int16}) {
    if (!cfg.supports(p)) continue;
    const unsigned es = p == Precision::Int8 ? 1 : 2;
    const uint64_t max_product = uint64_t{1} << (16 * es - 2);
    const uint64_t gain = cfg.conv_winograd ? 4 : 1;
    if (weight_bytes / es * max_product * gain >= (uint64_t{1} << 31)) return true;
  }
  return false;
}

void na_or(Coverpoint& p) { p.ignore("n/a", kNa, kNa); }
void zero_nonzero(Coverpoint& p) { p.bin("zero", kZero).bin("nonzero", kNonZero).ignore("n/a", kNa, kNa); }
int64_t counter(bool applies, uint32_t v) { return !applies ? kNa : v ? kNonZero : kZero; }

class ConvCoverage : public UnitCoverage {
 public:
  explicit ConvCoverage(const HwConfig& cfg)
      : cfg_(cfg),
        fp16_(cfg.supports(Precision::Fp16)),
        layer_("conv.layer", "each convolution layer: mode, precision, pixel format, kernel/stride/dilation/padding, "
                             "C and K against AC/AK, batch, compression, post-extension, CVT, clip, CBUF banks, "
                             "reuse and release"),
        outcome_("conv.outcome", "each convolution layer's counters: CACC output saturation, CDMA NaN/Inf "
                                 "input counts") {
    mode_bins(layer_.coverpoint("mode"));
    precision_bins(layer_.coverpoint("precision"));

    Coverpoint& pf = layer_.coverpoint("pixel_format");
    na_or(pf);
    for (unsigned f = 0; f < formats::kPixelFormatCount; ++f) {
      const formats::PixelFormatInfo& info = formats::pixel_format_info(static_cast<formats::PixelFormat>(f));
      if (cfg.supports(info.precision)) pf.bin(info.name, f);
    }

    layer_.coverpoint("kernel").bin("1x1", k1x1).bin("small_le3", kKernelSmall).bin("medium_le7", kKernelMedium)
        .bin("large", kKernelLarge);
    for (const char* axis : {"stride_x", "stride_y"})
      layer_.coverpoint(axis).bin("1", kStride1).bin("2", kStride2).bin("3+", kStrideOver2);
    Coverpoint& dil = layer_.coverpoint("dilation");
    dil.bin("none", kDilNone).bin("x_only", kDilX).bin("y_only", kDilY).bin("both", kDilBoth);
    na_or(dil);
    layer_.coverpoint("padding").bin("none", kPadNone).bin("left_top_only", kPadLeadOnly)
        .bin("right_bottom_only", kPadTrailOnly).bin("both", kPadBoth);
    layer_.coverpoint("channels").bin("below_ac", kBelowOne).bin("multiple_of_ac", kMultiple)
        .bin("partial_last_block", kPartialLast);
    layer_.coverpoint("kernels").bin("below_ak", kBelowOne).bin("multiple_of_ak", kMultiple)
        .bin("partial_last_group", kPartialLast);
    Coverpoint& batch = layer_.coverpoint("batch");
    batch.bin("1", 1);
    if (cfg.conv_batching) batch.bin("2+", 2, 32);
    if (cfg.conv_compression) layer_.coverpoint("compression").bin("off", 0).bin("on", 1);
    Coverpoint& post = layer_.coverpoint("post_extension");
    post.bin("p1", 0).bin("p2", 1).bin("p4", 2);
    na_or(post);
    layer_.coverpoint("cvt").bin("off", 0).bin("on", 1);
    Coverpoint& clip = layer_.coverpoint("clip_truncate");
    clip.bin("0", 0).bin("1-8", 1, 8).bin("9-16", 9, 16).illegal("17+", 17, 31);  // §4.5: valid 0..16
    na_or(clip);
    for (const char* banks : {"data_banks", "weight_banks"})
      layer_.coverpoint(banks).bin("one", kOneBank).bin("up_to_half", kUpToHalf).bin("over_half", kOverHalf);
    layer_.coverpoint("data_reuse").bin("none", kNoReuse).bin("partial", kPartialReuse).bin("full", kFullReuse)
        .ignore("unknown", kReuseUnknown, kReuseUnknown);
    layer_.coverpoint("weight_reuse").bin("off", 0).bin("on", 1);
    layer_.coverpoint("data_release").bin("all", kReleaseAll).bin("partial", kReleasePartial).bin("skip", kReleaseSkip);
    layer_.coverpoint("weight_release").bin("release", 0).bin("skip", 1);

    layer_.cross("mode_x_precision", {"mode", "precision"});
    Cross& mk = layer_.cross("mode_x_kernel", {"mode", "kernel"});
    if (cfg.conv_winograd) mk.ignore({"winograd", "1x1"});  // the folded 3x3 kernel spans >= 3x3
    Cross& pc = layer_.cross("precision_x_clip", {"precision", "clip_truncate"});
    if (fp16_) pc.ignore({"fp16", "*"});  // §4.5: no truncation in fp16 (sampled "n/a")
    layer_.cross("data_reuse_x_weight_reuse", {"data_reuse", "weight_reuse"});

    precision_bins(outcome_.coverpoint("precision"));
    Coverpoint& sat = outcome_.coverpoint("out_saturation");
    sat.bin("zero", kZero);
    if (conv_can_saturate(cfg)) sat.bin("nonzero", kNonZero);
    sat.ignore("n/a", kNa, kNa);
    // §4.6: fp16 layers do not count; a non-zero count there is an error.
    if (fp16_) sat.illegal("fp16_counted", kFp16Counted, kFp16Counted);
    Cross& ps = outcome_.cross("precision_x_saturation", {"precision", "out_saturation"});
    if (fp16_) ps.ignore({"fp16", "*"});
    if (fp16_) {
      mode_bins(outcome_.coverpoint("mode"));
      for (const char* c : {"nan_data", "inf_data", "nan_weight", "inf_weight"}) zero_nonzero(outcome_.coverpoint(c));
      outcome_.cross("mode_x_nan_data", {"mode", "nan_data"});
      outcome_.cross("mode_x_inf_data", {"mode", "inf_data"});
    }
  }

  void sample(const CoverageInput& in) override {
    bool prev_skip_data_rls = false, have_prev = false;
    for (const golden::CompletedConvLayer& c : golden::completed_conv_layers(cfg_, in.layers)) {
      const ConvLayer& l = c.layer;
      const int64_t reuse = !l.data_reuse ? kNoReuse : !have_prev ? kReuseUnknown : prev_skip_data_rls ? kFullReuse
                                                                                                        : kPartialReuse;
      sample_layer(l, reuse, c.cdma->regs, c.cacc->regs);
      prev_skip_data_rls = l.skip_data_rls;
      have_prev = true;
    }
  }

  std::vector<GroupData> data() const override { return {layer_.data(), outcome_.data()}; }

 private:


  void mode_bins(Coverpoint& p) const {
    p.bin("direct", kDirect).bin("image", kImage);
    if (cfg_.conv_winograd) p.bin("winograd", kWinograd);
  }

  // The configuration's precisions only (an absent bin, not an ignored one); code 3 is
  // undefined (the pipeline refuses the layer): illegal on every configuration.
  void precision_bins(Coverpoint& p) const {
    for (int64_t v = 0; v < 3; ++v)
      if (cfg_.supports(static_cast<Precision>(v))) p.bin(kPrecisionNames[v], v);
    p.illegal("reserved", 3, 3);
  }

  void sample_layer(const ConvLayer& l, int64_t reuse, const RegisterSnapshot& cdma, const RegisterSnapshot& cacc) {
    const int64_t mode = mode_of(l);
    const bool image = l.kind == ConvInputKind::Image, fp = l.proc == Precision::Fp16;
    const uint64_t slices = uint64_t{l.csc_height} * l.batches;
    std::map<std::string, int64_t> v = {
        {"mode", mode},
        {"precision", l.proc_code},
        {"pixel_format", image ? int64_t{l.pixel_format} : kNa},
        {"kernel", kernel_class(l)},
        {"stride_x", stride_class(stride_x(l))},
        {"stride_y", stride_class(stride_y(l))},
        {"dilation", dilation_class(l)},
        {"padding", padding_class(l)},
        {"channels", block_class(mac_channels(l), cfg_.conv_mac_atomic_c)},
        {"kernels", block_class(l.kernels, cfg_.conv_kernels_per_group(l.proc))},
        {"batch", l.batches},
        {"post_extension", image ? int64_t{l.y_extension} : kNa},
        {"cvt", l.cvt_en ? 1 : 0},
        {"clip_truncate", fp ? kNa : int64_t{l.clip_truncate}},
        {"data_banks", bank_class(l.data_bank, cfg_.conv_cbuf_banks)},
        {"weight_banks", bank_class(l.weight_bank, cfg_.conv_cbuf_banks)},
        {"data_reuse", reuse},
        {"weight_reuse", l.weight_reuse ? 1 : 0},
        {"data_release", l.skip_data_rls ? kReleaseSkip : l.release_slices < slices ? kReleasePartial : kReleaseAll},
        {"weight_release", l.skip_weight_rls ? 1 : 0}};
    if (cfg_.conv_compression) v["compression"] = l.compressed ? 1 : 0;
    layer_.sample(v);

    namespace D = reg::CDMA;
    const uint32_t saturated = cacc.get(reg::CACC::D_OUT_SATURATION::offset);
    std::map<std::string, int64_t> o = {
        {"precision", l.proc_code},
        {"out_saturation", fp ? (saturated ? kFp16Counted : kNa) : saturated ? kNonZero : kZero}};
    if (fp16_) {
      o["mode"] = mode;
      // §9: data counters count fp16 input data CDMA fetched (none with full data reuse),
      // weight counters fp16 weights it fetched (none with weight reuse).
      const bool data = l.in == Precision::Fp16 && reuse != kFullReuse;
      const bool weights = fp && !l.weight_reuse;
      o["nan_data"] = counter(data, cdma.get(D::D_NAN_INPUT_DATA_NUM::offset));
      o["inf_data"] = counter(data, cdma.get(D::D_INF_INPUT_DATA_NUM::offset));
      o["nan_weight"] = counter(weights, cdma.get(D::D_NAN_INPUT_WEIGHT_NUM::offset));
      o["inf_weight"] = counter(weights, cdma.get(D::D_INF_INPUT_WEIGHT_NUM::offset));
    }
    outcome_.sample(o);
  }

  const HwConfig& cfg_;
  bool fp16_;
  Covergroup layer_, outcome_;
};

}  // namespace

std::unique_ptr<UnitCoverage> make_conv_coverage(const HwConfig& cfg) {
  for (Unit u : {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC})
    if (!cfg.has_unit(u)) return nullptr;
  return std::make_unique<ConvCoverage>(cfg);
}

}  // namespace dla::cov
