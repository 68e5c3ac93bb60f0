// PDP coverage: every completed PDP layer the golden model ran (spec
// pdp_cdp_bdma_rubik_glb.md §1). Two groups:
//   pdp.layer    method, precision, kernel, stride, padding class, split mode, kernels larger
//                than the input, and their crosses with the method
//   pdp.outcome  what happened: windows with padded positions (used by average), NaN/Inf in
//                and NaN out (fp16 counters latched at done); a window without any real
//                element is illegal (§1.4: pads below the kernel guarantee one)
#include <algorithm>
#include <map>

#include <string>

#include "dla/coverage/covergroup.h"
#include "dla/pdp_layer.h"
#include "dla/regs.gen.h"
#include "models/models.h"

namespace dla::cov {

namespace {

namespace P = reg::PDP;

enum PadClass : int64_t { kNoPad = 0, kPadWidthOnly = 1, kPadHeightOnly = 2, kPadBoth = 3 };
enum WindowPadding : int64_t { kNoPaddedWindow = 0, kSomePadded = 1, kAllPadding = 2 };
constexpr int64_t kNotApplicable = -1, kZero = 0, kNonZero = 1;

void kernel_bins(Coverpoint& p) { p.bin("1", 1).bin("2", 2).bin("3", 3).bin("4-5", 4, 5).bin("6-7", 6, 7).bin("8", 8); }
void stride_bins(Coverpoint& p) { p.bin("1", 1).bin("2", 2).bin("3-4", 3, 4).bin("5-8", 5, 8).bin("9-16", 9, 16); }
// Stride against kernel: overlapping windows, adjacent, gaps between windows.
void stride_vs_kernel_bins(Coverpoint& p) { p.bin("overlap", -1).bin("adjacent", 0).bin("gap", 1); }
int64_t compare(uint32_t stride, uint32_t kernel) { return stride < kernel ? -1 : stride == kernel ? 0 : 1; }
void counter_bins(Coverpoint& p) {
  p.ignore("n/a", kNotApplicable, kNotApplicable).ignore("zero", kZero, kZero).bin("nonzero", kNonZero);
}
int64_t counter_state(bool applicable, uint32_t value) { return !applicable ? kNotApplicable : value ? kNonZero : kZero; }

// The most padded window of the layer, over every stripe (positions outside a stripe's
// columns or outside [0, H) are padding, as the golden model computes them).
WindowPadding window_padding(const PdpLayer& l) {
  auto real = [](int64_t start, uint32_t k, uint32_t size) {
    return std::max<int64_t>(0, std::min<int64_t>(start + k, size) - std::max<int64_t>(start, 0));
  };
  WindowPadding worst = kNoPaddedWindow;
  bool any_row_padded = false, any_row_empty = false;
  for (uint32_t oy = 0; oy < l.out_height; ++oy) {
    const int64_t nr = real(int64_t{oy} * l.stride_h - l.pad_top, l.kernel_h, l.height);
    any_row_padded = any_row_padded || nr < l.kernel_h;
    any_row_empty = any_row_empty || nr == 0;
  }
  for (const PdpStripe& st : pdp_stripes(l))
    for (uint32_t ox = 0; ox < st.out_width; ++ox) {
      const int64_t nc = real(int64_t{ox} * l.stride_w - st.pad_left, l.kernel_w, st.in_width);
      if (nc == 0) return kAllPadding;
      if (nc < l.kernel_w) worst = kSomePadded;
    }
  if (any_row_empty) return kAllPadding;
  return any_row_padded ? kSomePadded : worst;
}

class PdpCoverage : public UnitCoverage {
 public:
  explicit PdpCoverage(const HwConfig& cfg)
      : fp_(cfg.supports(Precision::Fp16)),
        layer_("pdp.layer", "each PDP layer: method x precision, kernel, stride, padding class, split mode"),
        outcome_("pdp.outcome", "each PDP layer: padded windows (used in average), NaN/Inf in, NaN out") {
    layer_.coverpoint("method").bin("average", 0).bin("max", 1).bin("min", 2).illegal("reserved", 3, 3);
    Coverpoint& prec = layer_.coverpoint("precision");
    prec.bin("int8", 0);
    for (const auto& [p, name] : {std::pair{Precision::Int16, "int16"}, std::pair{Precision::Fp16, "fp16"}}) {
      const int64_t code = static_cast<int64_t>(p);
      if (cfg.supports(p)) prec.bin(name, code);
      // Named apart from the other configuration's normal bin: coverage of different
      // configurations is merged, and one name with two kinds drops a whole file.
      else prec.illegal(std::string(name) + "_unsupported", code, code);
    }
    prec.illegal("reserved", 3, 3);
    kernel_bins(layer_.coverpoint("kernel_w"));
    kernel_bins(layer_.coverpoint("kernel_h"));
    stride_bins(layer_.coverpoint("stride_w"));
    stride_bins(layer_.coverpoint("stride_h"));
    stride_vs_kernel_bins(layer_.coverpoint("stride_vs_kernel_w"));
    stride_vs_kernel_bins(layer_.coverpoint("stride_vs_kernel_h"));
    layer_.coverpoint("padding").bin("none", kNoPad).bin("width_only", kPadWidthOnly).bin("height_only", kPadHeightOnly)
        .bin("both", kPadBoth);
    layer_.coverpoint("split").bin("off", 1).bin("2", 2).bin("3-5", 3, 5).ignore("6+", 6, 256);
    layer_.coverpoint("kernel_vs_input").bin("fits", 0).bin("wider", 1).bin("taller", 2).bin("both", 3);
    layer_.coverpoint("cube").bin("1x1", 0).bin("line", 1).bin("plane", 2);
    layer_.cross("method_x_precision", {"method", "precision"});
    layer_.cross("method_x_kernel_w", {"method", "kernel_w"});
    layer_.cross("method_x_kernel_h", {"method", "kernel_h"});
    layer_.cross("method_x_stride_vs_kernel_w", {"method", "stride_vs_kernel_w"});
    layer_.cross("method_x_padding", {"method", "padding"});
    layer_.cross("method_x_split", {"method", "split"});
    layer_.cross("precision_x_split", {"precision", "split"});
    layer_.cross("precision_x_padding", {"precision", "padding"});
    layer_.cross("split_x_padding", {"split", "padding"});

    outcome_.coverpoint("method").bin("average", 0).bin("max", 1).bin("min", 2).illegal("reserved", 3, 3);
    outcome_.coverpoint("window_padding").bin("none", kNoPaddedWindow).bin("some_padded", kSomePadded)
        .illegal("all_padding", kAllPadding, kAllPadding);
    outcome_.cross("method_x_window_padding", {"method", "window_padding"});  // (average, some_padded): pads used
    if (fp_) {
      counter_bins(outcome_.coverpoint("nan_in"));
      counter_bins(outcome_.coverpoint("inf_in"));
      counter_bins(outcome_.coverpoint("nan_out"));
      outcome_.coverpoint("nan_to_zero").ignore("n/a", -1, -1).bin("off", 0).bin("on", 1);
      outcome_.cross("nan_in_x_nan_to_zero", {"nan_in", "nan_to_zero"});
    }
  }

  void sample(const CoverageInput& in) override {
    for (const LayerRecord& r : in.layers)
      if (r.unit == Unit::PDP && r.completed) sample_layer(r.regs);
  }

  std::vector<GroupData> data() const override { return {layer_.data(), outcome_.data()}; }

 private:
  void sample_layer(const RegisterSnapshot& s) {
    const PdpLayer l = decode_pdp_registers(s);
    const bool pad_w = l.pad_left || l.pad_right, pad_h = l.pad_top || l.pad_bottom;
    const int64_t pad = pad_w && pad_h ? kPadBoth : pad_w ? kPadWidthOnly : pad_h ? kPadHeightOnly : kNoPad;
    const int64_t larger = (l.kernel_w > l.width ? 1 : 0) | (l.kernel_h > l.height ? 2 : 0);
    const int64_t cube = l.width == 1 && l.height == 1 ? 0 : l.height == 1 || l.width == 1 ? 1 : 2;
    layer_.sample({{"method", l.method},
                   {"precision", l.format},
                   {"kernel_w", l.kernel_w},
                   {"kernel_h", l.kernel_h},
                   {"stride_w", l.stride_w},
                   {"stride_h", l.stride_h},
                   {"stride_vs_kernel_w", compare(l.stride_w, l.kernel_w)},
                   {"stride_vs_kernel_h", compare(l.stride_h, l.kernel_h)},
                   {"padding", pad},
                   {"split", int64_t{l.split_num} + 1},
                   {"kernel_vs_input", larger},
                   {"cube", cube}});

    std::map<std::string, int64_t> o = {{"method", l.method}, {"window_padding", window_padding(l)}};
    if (fp_) {
      const bool fp = l.is_fp16();
      const bool counts_in = fp && l.off_flying;
      o["nan_in"] = counter_state(counts_in, s.get(P::D_NAN_INPUT_NUM::offset));
      o["inf_in"] = counter_state(counts_in, s.get(P::D_INF_INPUT_NUM::offset));
      o["nan_out"] = counter_state(fp, s.get(P::D_NAN_OUTPUT_NUM::offset));
      o["nan_to_zero"] = fp ? int64_t{l.nan_to_zero} : -1;
    }
    outcome_.sample(o);
  }

  bool fp_;
  Covergroup layer_, outcome_;
};

}  // namespace

std::unique_ptr<UnitCoverage> make_pdp_coverage(const HwConfig& cfg) {
  if (!cfg.has_unit(Unit::PDP) || !cfg.has_unit(Unit::PDP_RDMA)) return nullptr;
  return std::make_unique<PdpCoverage>(cfg);
}

}  // namespace dla::cov
