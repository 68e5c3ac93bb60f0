// Convolution coverage model over hand-built layer records: the five units' register
// snapshots are written from a golden::ConvLayer (the encoder is checked against
// decode_conv_layer first), so each test states a layer in plain values and checks which bins
// it lands in. Also: which bins each configuration has (absent, not ignored, where a
// configuration cannot hit them), that bins of both configurations agree in kind, and 60
// conv.random golden runs per configuration (every completed layer sampled, no illegal bin).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "dla/conv_layer.h"
#include "dla/coverage/unit_coverage.h"
#include "dla/golden_model.h"
#include "dla/regs.gen.h"
#include "dla/test_generator.h"

namespace dla::cov {
namespace {

using golden::ConvInputKind;
using golden::ConvLayer;

// Counters latched at done (CDMA's NaN/Inf counts, CACC's D_OUT_SATURATION).
struct Latched {
  uint32_t saturation = 0, nan_data = 0, nan_weight = 0, inf_data = 0, inf_weight = 0;
};

class Snap {
 public:
  explicit Snap(Unit u) : unit_(u) {}
  template <class Reg, class Field>
  Snap& set(uint64_t v) {
    uint32_t& r = regs_[Reg::offset];
    r = Field::put(r, static_cast<uint32_t>(v));
    return *this;
  }
  Snap& raw(uint32_t offset, uint32_t v) {
    regs_[offset] = v;
    return *this;
  }
  LayerRecord record(bool completed = true) const {
    LayerRecord r;
    r.unit = r.regs.unit = unit_;
    r.group = r.regs.group = 0;
    r.regs.values.assign(regs_.begin(), regs_.end());  // sorted by offset
    r.completed = completed;
    return r;
  }

 private:
  Unit unit_;
  std::map<uint32_t, uint32_t> regs_;
};

// The five records (CDMA, CSC, CMAC_A, CMAC_B, CACC) whose registers describe `l`.
std::vector<LayerRecord> records_of(const ConvLayer& l, const Latched& c = {}) {
  namespace D = reg::CDMA;
  namespace C = reg::CSC;
  namespace A = reg::CACC;
  const unsigned mode = l.kind == ConvInputKind::Winograd ? 1 : 0, pixel = l.kind == ConvInputKind::Image ? 1 : 0;
  Snap cdma(Unit::CDMA), csc(Unit::CSC), cmac_a(Unit::CMAC_A), cmac_b(Unit::CMAC_B), cacc(Unit::CACC);
  using DM = D::D_MISC_CFG;
  cdma.set<DM, DM::CONV_MODE>(mode).set<DM, DM::IN_PRECISION>(l.in_code).set<DM, DM::PROC_PRECISION>(l.proc_code)
      .set<DM, DM::DATA_REUSE>(l.data_reuse).set<DM, DM::WEIGHT_REUSE>(l.weight_reuse)
      .set<DM, DM::SKIP_DATA_RLS>(l.skip_data_rls).set<DM, DM::SKIP_WEIGHT_RLS>(l.skip_weight_rls);
  cdma.set<D::D_DATAIN_FORMAT, D::D_DATAIN_FORMAT::DATAIN_FORMAT>(pixel)
      .set<D::D_DATAIN_FORMAT, D::D_DATAIN_FORMAT::PIXEL_FORMAT>(l.pixel_format)
      .set<D::D_DATAIN_SIZE_0, D::D_DATAIN_SIZE_0::DATAIN_WIDTH>(l.width - 1)
      .set<D::D_DATAIN_SIZE_0, D::D_DATAIN_SIZE_0::DATAIN_HEIGHT>(l.height - 1)
      .set<D::D_DATAIN_SIZE_1, D::D_DATAIN_SIZE_1::DATAIN_CHANNEL>(l.channels - 1)
      .set<D::D_DATAIN_SIZE_EXT_0, D::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT>(l.width_ext - 1)
      .set<D::D_DATAIN_SIZE_EXT_0, D::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT>(l.height_ext - 1)
      .set<D::D_CVT_CFG, D::D_CVT_CFG::CVT_EN>(l.cvt_en)
      .set<D::D_CONV_STRIDE, D::D_CONV_STRIDE::CONV_X_STRIDE>(l.cdma_stride_x - 1)
      .set<D::D_CONV_STRIDE, D::D_CONV_STRIDE::CONV_Y_STRIDE>(l.cdma_stride_y - 1)
      .set<D::D_ZERO_PADDING, D::D_ZERO_PADDING::PAD_LEFT>(l.cdma_pad_left)
      .set<D::D_ZERO_PADDING, D::D_ZERO_PADDING::PAD_RIGHT>(l.cdma_pad_right)
      .set<D::D_ZERO_PADDING, D::D_ZERO_PADDING::PAD_TOP>(l.cdma_pad_top)
      .set<D::D_ZERO_PADDING, D::D_ZERO_PADDING::PAD_BOTTOM>(l.cdma_pad_bottom)
      .set<D::D_BANK, D::D_BANK::DATA_BANK>(l.data_bank)
      .set<D::D_BANK, D::D_BANK::WEIGHT_BANK>(l.weight_bank)
      .set<D::D_BATCH_NUMBER, D::D_BATCH_NUMBER::BATCHES>(l.batches - 1)
      .set<D::D_WEIGHT_FORMAT, D::D_WEIGHT_FORMAT::WEIGHT_FORMAT>(l.compressed)
      .set<D::D_WEIGHT_SIZE_1, D::D_WEIGHT_SIZE_1::WEIGHT_KERNEL>(l.kernels - 1)
      .raw(D::D_NAN_INPUT_DATA_NUM::offset, c.nan_data)
      .raw(D::D_NAN_INPUT_WEIGHT_NUM::offset, c.nan_weight)
      .raw(D::D_INF_INPUT_DATA_NUM::offset, c.inf_data)
      .raw(D::D_INF_INPUT_WEIGHT_NUM::offset, c.inf_weight);
  using CM = C::D_MISC_CFG;
  csc.set<CM, CM::CONV_MODE>(mode).set<CM, CM::IN_PRECISION>(l.in_code).set<CM, CM::PROC_PRECISION>(l.proc_code)
      .set<CM, CM::DATA_REUSE>(l.data_reuse).set<CM, CM::WEIGHT_REUSE>(l.weight_reuse)
      .set<CM, CM::SKIP_DATA_RLS>(l.skip_data_rls).set<CM, CM::SKIP_WEIGHT_RLS>(l.skip_weight_rls);
  csc.set<C::D_DATAIN_FORMAT, C::D_DATAIN_FORMAT::DATAIN_FORMAT>(pixel)
      .set<C::D_WEIGHT_FORMAT, C::D_WEIGHT_FORMAT::WEIGHT_FORMAT>(l.compressed)
      .set<C::D_BANK, C::D_BANK::DATA_BANK>(l.data_bank)
      .set<C::D_BANK, C::D_BANK::WEIGHT_BANK>(l.weight_bank)
      .set<C::D_BATCH_NUMBER, C::D_BATCH_NUMBER::BATCHES>(l.batches - 1)
      .set<C::D_DATAIN_SIZE_EXT_0, C::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT>(l.csc_width - 1)
      .set<C::D_DATAIN_SIZE_EXT_0, C::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT>(l.csc_height - 1)
      .set<C::D_DATAIN_SIZE_EXT_1, C::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT>(l.csc_channels - 1)
      .set<C::D_POST_Y_EXTENSION, C::D_POST_Y_EXTENSION::Y_EXTENSION>(l.y_extension)
      .set<C::D_WEIGHT_SIZE_EXT_0, C::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT>(l.kernel_width - 1)
      .set<C::D_WEIGHT_SIZE_EXT_0, C::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT>(l.kernel_height - 1)
      .set<C::D_WEIGHT_SIZE_EXT_1, C::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT>(l.kernel_channels - 1)
      .set<C::D_WEIGHT_SIZE_EXT_1, C::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL>(l.kernels - 1)
      .set<C::D_DATAOUT_SIZE_0, C::D_DATAOUT_SIZE_0::DATAOUT_WIDTH>(l.out_width - 1)
      .set<C::D_DATAOUT_SIZE_0, C::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT>(l.out_height - 1)
      .set<C::D_DATAOUT_SIZE_1, C::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL>(l.kernels - 1)
      .set<C::D_ATOMICS, C::D_ATOMICS::ATOMICS>(l.out_width * l.out_height - 1)
      .set<C::D_RELEASE, C::D_RELEASE::RLS_SLICES>(l.release_slices - 1)
      .set<C::D_CONV_STRIDE_EXT, C::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT>(l.stride_x - 1)
      .set<C::D_CONV_STRIDE_EXT, C::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT>(l.stride_y - 1)
      .set<C::D_DILATION_EXT, C::D_DILATION_EXT::X_DILATION_EXT>(l.dilation_x - 1)
      .set<C::D_DILATION_EXT, C::D_DILATION_EXT::Y_DILATION_EXT>(l.dilation_y - 1)
      .set<C::D_ZERO_PADDING, C::D_ZERO_PADDING::PAD_LEFT>(l.pad_left)
      .set<C::D_ZERO_PADDING, C::D_ZERO_PADDING::PAD_TOP>(l.pad_top);
  using MA = reg::CMAC_A::D_MISC_CFG;
  using MB = reg::CMAC_B::D_MISC_CFG;
  cmac_a.set<MA, MA::CONV_MODE>(mode).set<MA, MA::PROC_PRECISION>(l.proc_code);
  cmac_b.set<MB, MB::CONV_MODE>(mode).set<MB, MB::PROC_PRECISION>(l.proc_code);
  using AM = A::D_MISC_CFG;
  cacc.set<AM, AM::CONV_MODE>(mode).set<AM, AM::PROC_PRECISION>(l.proc_code)
      .set<A::D_DATAOUT_SIZE_0, A::D_DATAOUT_SIZE_0::DATAOUT_WIDTH>(l.out_width - 1)
      .set<A::D_DATAOUT_SIZE_0, A::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT>(l.out_height - 1)
      .set<A::D_DATAOUT_SIZE_1, A::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL>(l.kernels - 1)
      .set<A::D_BATCH_NUMBER, A::D_BATCH_NUMBER::BATCHES>(l.batches - 1)
      .set<A::D_CLIP_CFG, A::D_CLIP_CFG::CLIP_TRUNCATE>(l.clip_truncate)
      .raw(A::D_OUT_SATURATION::offset, c.saturation);
  return {cdma.record(), csc.record(), cmac_a.record(), cmac_b.record(), cacc.record()};
}

void set_precision(ConvLayer& l, Precision in, Precision proc) {
  l.in = in;
  l.proc = proc;
  l.in_code = static_cast<unsigned>(in);
  l.proc_code = static_cast<unsigned>(proc);
}

// A direct int8 layer: W x H x C input, R x S x K kernel, the output of a stride-1 convolution
// without padding (no padding class), half the banks each, released entirely.
ConvLayer direct(uint32_t w = 6, uint32_t h = 5, uint32_t c = 8, uint32_t r = 3, uint32_t s = 3, uint32_t k = 8) {
  ConvLayer l;
  l.kind = ConvInputKind::Feature;
  l.width = l.csc_width = l.width_ext = w;
  l.height = l.csc_height = l.height_ext = h;
  l.channels = l.csc_channels = l.kernel_channels = c;
  l.kernel_height = r;
  l.kernel_width = s;
  l.kernels = l.cdma_kernels = l.out_channels = k;
  l.out_width = w - s + 1;
  l.out_height = h - r + 1;
  l.atomics = l.out_width * l.out_height;
  l.data_bank = 3;
  l.weight_bank = 3;
  l.release_slices = h;
  return l;
}

// An image layer: W x H pixels of format `pf` with `comps` components, kernel R x S (S folded
// into the channels), CDMA padding left/right, output filling the padded line.
ConvLayer image(unsigned pf, uint32_t comps, uint32_t r = 3, uint32_t s = 3, unsigned pl = 0, unsigned pr = 0) {
  ConvLayer l = direct(8, 6, comps, r, 1, 8);
  l.kind = ConvInputKind::Image;
  l.pixel_format = pf;
  l.kernel_channels = s * comps;
  l.cdma_pad_left = pl;
  l.cdma_pad_right = pr;
  l.out_width = pl + 8 + pr - s + 1;
  l.atomics = l.out_width * l.out_height;
  return l;
}

// A v1 Winograd layer: C channels (fp16/int16: 16 per atom), CDMA stride s folding, padding
// 1 left/top, the rest on the right/bottom.
ConvLayer winograd(unsigned s, Precision p = Precision::Int16) {
  ConvLayer l;
  l.kind = ConvInputKind::Winograd;
  set_precision(l, p, p);
  l.width = l.height = 8 * s - 1;
  l.channels = 16;
  l.cdma_stride_x = l.cdma_stride_y = s;
  l.cdma_pad_left = l.cdma_pad_top = 1;
  l.width_ext = l.height_ext = l.csc_width = l.csc_height = 8;
  l.csc_channels = l.kernel_channels = 16 * s * s;
  l.kernel_width = l.kernel_height = 4;
  l.kernels = l.cdma_kernels = l.out_channels = 16;
  l.out_width = l.out_height = 4;
  l.atomics = 16;
  l.data_bank = l.weight_bank = 3;
  l.release_slices = 8;
  return l;
}

CoverageData conv_only(const HwConfig& cfg, const std::vector<LayerRecord>& layers) {
  const std::vector<ControlEvent> control;
  const CoverageInput in{cfg, layers, control};
  CoverageData d;
  for (const UnitCoverageModel& m : unit_coverage_models())
    if (m.unit == "conv")
      if (auto u = m.make(cfg)) {
        u->sample(in);
        for (GroupData& g : u->data()) d.add(std::move(g));
      }
  return d;
}

std::vector<LayerRecord> sequence(const std::vector<ConvLayer>& layers) {
  std::vector<LayerRecord> v;
  for (const ConvLayer& l : layers)
    for (LayerRecord& r : records_of(l)) v.push_back(std::move(r));
  return v;
}

const ItemData* find_item(const CoverageData& d, const std::string& group, const std::string& item) {
  const GroupData* g = d.group(group);
  if (!g) return nullptr;
  for (const ItemData& i : g->items)
    if (i.name == item) return &i;
  return nullptr;
}

// Names of the bins (any kind) of an item with at least one hit.
std::set<std::string> hit(const CoverageData& d, const std::string& group, const std::string& item) {
  std::set<std::string> s;
  const ItemData* i = find_item(d, group, item);
  if (!i) {
    ADD_FAILURE() << "no item " << group << "." << item;
    return s;
  }
  for (const BinData& b : i->bins)
    if (b.hits) s.insert(b.name);
  return s;
}

std::set<std::string> bins_of(const CoverageData& d, const std::string& group, const std::string& item) {
  std::set<std::string> s;
  if (const ItemData* i = find_item(d, group, item))
    for (const BinData& b : i->bins) s.insert(b.name);
  return s;
}

using Names = std::set<std::string>;

// The bins one layer lands in, item by item of conv.layer.
Names layer_bin(const HwConfig& cfg, const ConvLayer& l, const std::string& item) {
  return hit(conv_only(cfg, records_of(l)), "conv.layer", item);
}

const HwConfig& small() { return HwConfig::get("small"); }
const HwConfig& v1() { return HwConfig::get("v1"); }

TEST(ConvCoverage, TestEncoderMatchesTheDecoder) {
  ConvLayer l = direct(7, 5, 20, 2, 3, 17);
  set_precision(l, Precision::Int16, Precision::Int16);
  l.stride_x = 2;
  l.stride_y = 3;
  l.dilation_x = 2;
  l.pad_left = 1;
  l.pad_top = 2;
  l.batches = 3;
  l.clip_truncate = 11;
  l.data_reuse = l.skip_weight_rls = l.cvt_en = l.compressed = true;
  l.release_slices = 4;
  const auto recs = records_of(l);
  auto reader = [&](size_t i) { return [&recs, i](uint32_t off) { return recs[i].regs.get(off); }; };
  const ConvLayer d = golden::decode_conv_layer(v1(), reader(0), reader(1), reader(2), reader(3), reader(4));
  EXPECT_TRUE(d.mismatches.empty()) << d.mismatches.front();
  EXPECT_EQ(d.kind, l.kind);
  EXPECT_EQ(d.proc, Precision::Int16);
  EXPECT_EQ(d.width, 7u);
  EXPECT_EQ(d.csc_height, 5u);
  EXPECT_EQ(d.channels, 20u);
  EXPECT_EQ(d.kernel_height, 2u);
  EXPECT_EQ(d.kernel_width, 3u);
  EXPECT_EQ(d.kernels, 17u);
  EXPECT_EQ(d.stride_x, 2u);
  EXPECT_EQ(d.stride_y, 3u);
  EXPECT_EQ(d.dilation_x, 2u);
  EXPECT_EQ(d.dilation_y, 1u);
  EXPECT_EQ(d.pad_left, 1u);
  EXPECT_EQ(d.pad_top, 2u);
  EXPECT_EQ(d.batches, 3u);
  EXPECT_EQ(d.clip_truncate, 11u);
  EXPECT_EQ(d.release_slices, 4u);
  EXPECT_TRUE(d.data_reuse && d.skip_weight_rls && d.cvt_en && d.compressed);
  EXPECT_FALSE(d.weight_reuse || d.skip_data_rls);
}

TEST(ConvCoverage, GroupsExistOnBothConfigurations) {
  for (const char* name : {"small", "v1"}) {
    const auto g = covergroup_names(HwConfig::get(name));
    for (const char* want : {"conv.layer", "conv.outcome"})
      EXPECT_NE(std::find(g.begin(), g.end(), want), g.end()) << name << " " << want;
  }
}

// small (nv_small) is int8-only, without Winograd, batching or compression and cannot
// saturate CACC's 32-bit clip: those bins are absent (not ignored) there.
TEST(ConvCoverage, BinsAConfigurationCannotHitAreAbsent) {
  const CoverageData s = conv_only(small(), {}), v = conv_only(v1(), {});
  EXPECT_EQ(bins_of(s, "conv.layer", "mode"), (Names{"direct", "image"}));
  EXPECT_EQ(bins_of(v, "conv.layer", "mode"), (Names{"direct", "image", "winograd"}));
  EXPECT_EQ(bins_of(s, "conv.layer", "precision"), (Names{"int8", "reserved"}));
  EXPECT_EQ(bins_of(v, "conv.layer", "precision"), (Names{"int8", "int16", "fp16", "reserved"}));
  EXPECT_EQ(bins_of(s, "conv.layer", "batch"), (Names{"1"}));
  EXPECT_EQ(bins_of(v, "conv.layer", "batch"), (Names{"1", "2+"}));
  EXPECT_EQ(find_item(s, "conv.layer", "compression"), nullptr);
  EXPECT_NE(find_item(v, "conv.layer", "compression"), nullptr);
  EXPECT_EQ(bins_of(s, "conv.outcome", "out_saturation"), (Names{"zero", "n/a"}));
  EXPECT_EQ(bins_of(v, "conv.outcome", "out_saturation"), (Names{"zero", "nonzero", "n/a", "fp16_counted"}));
  for (const char* c : {"nan_data", "inf_data", "nan_weight", "inf_weight", "mode"}) {
    EXPECT_EQ(find_item(s, "conv.outcome", c), nullptr) << c;
    EXPECT_EQ(bins_of(v, "conv.outcome", c).count("nonzero"), std::string(c) == "mode" ? 0u : 1u) << c;
  }
  // Pixel formats: small has the 13 formats of 8-bit components, v1 all 36 (+ "n/a").
  const Names pf_small = bins_of(s, "conv.layer", "pixel_format");
  EXPECT_EQ(pf_small.size(), 13u + 1);
  for (const char* f : {"T_R8", "T_A8B8G8R8", "T_R8G8B8X8", "T_A8Y8U8V8", "T_V8U8Y8A8", "T_Y8___U8V8_N444", "T_Y8___V8U8_N444"})
    EXPECT_EQ(pf_small.count(f), 1u) << f;
  for (const char* f : {"T_R10", "T_R16_F", "T_A2B10G10R10", "T_Y16___V16U16_N444"}) EXPECT_EQ(pf_small.count(f), 0u) << f;
  EXPECT_EQ(bins_of(v, "conv.layer", "pixel_format").size(), 36u + 1);
}

// Coverage files of both configurations merge: a bin both define has one kind (a kind
// conflict drops a whole file from the regression's merge), over every conv item.
TEST(ConvCoverage, BinsOfBothConfigurationsAgreeInKind) {
  const CoverageData s = conv_only(small(), {}), v = conv_only(v1(), {});
  size_t shared = 0;
  for (const char* group : {"conv.layer", "conv.outcome"})
    for (const ItemData& si : s.group(group)->items) {
      const ItemData* vi = find_item(v, group, si.name);
      ASSERT_NE(vi, nullptr) << group << "." << si.name << " exists on small only";
      for (const BinData& sb : si.bins)
        for (const BinData& vb : vi->bins)
          if (sb.name == vb.name) {
            ++shared;
            EXPECT_EQ(sb.kind, vb.kind) << group << "." << si.name << "." << sb.name;
          }
    }
  EXPECT_GT(shared, 80u);
  CoverageData merged = s;
  EXPECT_NO_THROW(merged.merge(v));
}

TEST(ConvCoverage, OutSaturationBinsOfBothConfigurationsAgreeInKind) {
  std::map<std::string, BinKind> kinds[2];
  const char* names[2] = {"small", "v1"};
  for (int c = 0; c < 2; ++c) {
    const CoverageData d = conv_only(HwConfig::get(names[c]), {});
    for (const BinData& b : find_item(d, "conv.outcome", "out_saturation")->bins) kinds[c][b.name] = b.kind;
  }
  EXPECT_EQ(kinds[0].count("nonzero"), 0u) << "an int8 sum on small never reaches 2^31: no 'nonzero' bin, not even ignored";
  EXPECT_EQ(kinds[1].count("nonzero"), 1u);
  for (const auto& [bin, kind] : kinds[0])
    if (kinds[1].count(bin)) {
      EXPECT_EQ(kind, kinds[1].at(bin)) << "out_saturation." << bin;
    }
}

TEST(ConvCoverage, DirectLayerLandsInItsBins) {
  ConvLayer l = direct(9, 12, 12, 3, 3, 8);  // AC = AK = 8 on small
  l.stride_x = 1;
  l.stride_y = 3;
  l.dilation_x = 2;
  l.pad_left = 1;
  l.pad_top = 1;
  l.out_width = 6;   // last window at padded x 5 + 2*2 = 9 < 1 + 9: inside
  l.out_height = 4;  // last window at padded y 9 + 2 = 11 < 1 + 12: inside
  l.clip_truncate = 5;
  l.cvt_en = true;
  l.data_bank = 0;    // 1 of 32 banks
  l.weight_bank = 20; // 21 of 32
  l.skip_weight_rls = true;
  l.release_slices = 12;
  const CoverageData d = conv_only(small(), records_of(l));
  EXPECT_EQ(d.group("conv.layer")->samples, 1u);
  EXPECT_EQ(d.group("conv.outcome")->samples, 1u);
  const std::map<std::string, Names> want = {
      {"mode", {"direct"}},        {"precision", {"int8"}},
      {"pixel_format", {"n/a"}},   {"kernel", {"small_le3"}},
      {"stride_x", {"1"}},         {"stride_y", {"3+"}},
      {"dilation", {"x_only"}},    {"padding", {"left_top_only"}},
      {"channels", {"partial_last_block"}}, {"kernels", {"multiple_of_ak"}},
      {"batch", {"1"}},            {"post_extension", {"n/a"}},
      {"cvt", {"on"}},             {"clip_truncate", {"1-8"}},
      {"data_banks", {"one"}},     {"weight_banks", {"over_half"}},
      {"data_reuse", {"none"}},    {"weight_reuse", {"off"}},
      {"data_release", {"all"}},   {"weight_release", {"skip"}},
      {"mode_x_precision", {"direct,int8"}}, {"mode_x_kernel", {"direct,small_le3"}},
      {"precision_x_clip", {"int8,1-8"}},   {"data_reuse_x_weight_reuse", {"none,off"}}};
  for (const auto& [item, bins] : want) EXPECT_EQ(hit(d, "conv.layer", item), bins) << item;
  EXPECT_EQ(d.group("conv.layer")->items.size(), want.size()) << "a conv.layer item this test does not check";
  EXPECT_EQ(hit(d, "conv.outcome", "out_saturation"), (Names{"zero"}));
  EXPECT_EQ(hit(d, "conv.outcome", "precision_x_saturation"), (Names{"int8,zero"}));
  EXPECT_TRUE(d.illegal_hits().empty());
}

// Each axis has its own stride class (a swapped classifier fails here), at the class limits.
TEST(ConvCoverage, StrideClassesPerAxis) {
  const std::pair<unsigned, const char*> classes[] = {{1, "1"}, {2, "2"}, {3, "3+"}, {8, "3+"}};
  for (const auto& [sx, cx] : classes)
    for (const auto& [sy, cy] : classes) {
      ConvLayer l = direct(20, 20, 8, 1, 1, 8);
      l.stride_x = sx;
      l.stride_y = sy;
      l.out_width = (20 - 1) / sx + 1;
      l.out_height = (20 - 1) / sy + 1;
      const CoverageData d = conv_only(small(), records_of(l));
      EXPECT_EQ(hit(d, "conv.layer", "stride_x"), Names{cx}) << sx << "x" << sy;
      EXPECT_EQ(hit(d, "conv.layer", "stride_y"), Names{cy}) << sx << "x" << sy;
      EXPECT_EQ(hit(d, "conv.layer", "padding"), Names{"none"}) << sx << "x" << sy;
    }
}

TEST(ConvCoverage, KernelDilationAndBlockClassesAtTheirLimits) {
  struct K {
    uint32_t r, s;
    const char* cls;
  };
  for (const K& k : {K{1, 1, "1x1"}, K{1, 2, "small_le3"}, K{3, 3, "small_le3"}, K{4, 1, "medium_le7"},
                     K{2, 7, "medium_le7"}, K{8, 1, "large"}, K{3, 32, "large"}}) {
    const ConvLayer l = direct(40, 40, 8, k.r, k.s, 8);
    EXPECT_EQ(layer_bin(small(), l, "kernel"), Names{k.cls}) << k.r << "x" << k.s;
    EXPECT_EQ(layer_bin(small(), l, "mode_x_kernel"), Names{std::string("direct,") + k.cls}) << k.r << "x" << k.s;
  }
  // Dilation (direct only; image and Winograd have none).
  const std::pair<std::pair<unsigned, unsigned>, const char*> dil[] = {
      {{1, 1}, "none"}, {{2, 1}, "x_only"}, {{1, 3}, "y_only"}, {{2, 2}, "both"}};
  for (const auto& [d, cls] : dil) {
    ConvLayer l = direct(12, 12, 8, 2, 2, 8);
    l.dilation_x = d.first;
    l.dilation_y = d.second;
    l.out_width = 12 - d.first;
    l.out_height = 12 - d.second;
    EXPECT_EQ(layer_bin(small(), l, "dilation"), Names{cls}) << cls;
  }
  // C against AC and K against AK: small AC = AK = 8; v1 AC = 64, AK 32 (int8) / 16 (int16).
  struct B {
    const char* cfg;
    Precision p;
    uint32_t c, k;
    const char *c_cls, *k_cls;
  };
  for (const B& b : {B{"small", Precision::Int8, 7, 1, "below_ac", "below_ak"},
                     B{"small", Precision::Int8, 8, 8, "multiple_of_ac", "multiple_of_ak"},
                     B{"small", Precision::Int8, 24, 16, "multiple_of_ac", "multiple_of_ak"},
                     B{"small", Precision::Int8, 9, 9, "partial_last_block", "partial_last_group"},
                     B{"v1", Precision::Int8, 63, 31, "below_ac", "below_ak"},
                     B{"v1", Precision::Int8, 128, 64, "multiple_of_ac", "multiple_of_ak"},
                     B{"v1", Precision::Int16, 65, 16, "partial_last_block", "multiple_of_ak"},
                     B{"v1", Precision::Int16, 64, 17, "multiple_of_ac", "partial_last_group"},
                     B{"v1", Precision::Int8, 64, 17, "multiple_of_ac", "below_ak"}}) {
    ConvLayer l = direct(4, 4, b.c, 1, 1, b.k);
    set_precision(l, b.p, b.p);
    const HwConfig& cfg = HwConfig::get(b.cfg);
    EXPECT_EQ(layer_bin(cfg, l, "channels"), Names{b.c_cls}) << b.cfg << " C=" << b.c;
    EXPECT_EQ(layer_bin(cfg, l, "kernels"), Names{b.k_cls}) << b.cfg << " K=" << b.k;
  }
}

TEST(ConvCoverage, PaddingClassesOfEachMode) {
  // Direct: left/top from CSC's registers, right/bottom only through the output size.
  ConvLayer none = direct(6, 6, 8, 3, 3, 8);  // out 4x4: inside
  ConvLayer lead = none;
  lead.pad_top = 1;
  lead.out_height = 5;  // last window rows 4..6 of the padded 7 rows (1 + 6): inside
  ConvLayer trail = none;
  trail.out_width = 5;  // last window columns 4..6, input ends at 5: implicit right padding
  ConvLayer both = lead;
  both.pad_left = 2;
  both.out_width = 6;  // last window columns 5..7, the input ends at padded column 2 + 6 - 1 = 7: inside
  EXPECT_EQ(layer_bin(small(), none, "padding"), Names{"none"});
  EXPECT_EQ(layer_bin(small(), lead, "padding"), Names{"left_top_only"});
  EXPECT_EQ(layer_bin(small(), trail, "padding"), Names{"right_bottom_only"});
  EXPECT_EQ(layer_bin(small(), both, "padding"), Names{"left_top_only"});
  both.out_height = 6;  // rows 5..7 of 7 padded rows: bottom padding
  EXPECT_EQ(layer_bin(small(), both, "padding"), Names{"both"});
  // Dilation widens the window: 3 columns at dilation 2 span 5.
  ConvLayer dilated = none;
  dilated.dilation_x = 2;
  dilated.out_width = 2;  // columns 1..5: inside
  EXPECT_EQ(layer_bin(small(), dilated, "padding"), Names{"none"});
  dilated.out_width = 3;  // columns 2..6
  EXPECT_EQ(layer_bin(small(), dilated, "padding"), Names{"right_bottom_only"});

  // Image: left/right are CDMA's padded line, top CSC's, bottom through the output size.
  EXPECT_EQ(layer_bin(small(), image(0, 1, 3, 3, 0, 0), "padding"), Names{"none"});
  EXPECT_EQ(layer_bin(small(), image(0, 1, 3, 3, 2, 0), "padding"), Names{"left_top_only"});
  EXPECT_EQ(layer_bin(small(), image(0, 1, 3, 3, 0, 1), "padding"), Names{"right_bottom_only"});
  ConvLayer img = image(0, 1, 3, 3, 0, 0);
  img.out_height = 5;  // rows 4..6 of 6
  EXPECT_EQ(layer_bin(small(), img, "padding"), Names{"right_bottom_only"});
  img.pad_top = 1;  // rows 4..6 of 1 + 6: inside again
  EXPECT_EQ(layer_bin(small(), img, "padding"), Names{"left_top_only"});
  img.out_height = 6;  // rows 5..7
  EXPECT_EQ(layer_bin(small(), img, "padding"), Names{"both"});

  // Winograd: CDMA's four fields.
  ConvLayer w = winograd(1);
  EXPECT_EQ(layer_bin(v1(), w, "padding"), Names{"left_top_only"});
  w.cdma_pad_bottom = 1;
  EXPECT_EQ(layer_bin(v1(), w, "padding"), Names{"both"});
  w.cdma_pad_left = w.cdma_pad_top = 0;
  EXPECT_EQ(layer_bin(v1(), w, "padding"), Names{"right_bottom_only"});
}

TEST(ConvCoverage, ImageLayers) {
  // T_R8 (code 0, 1 component), 3x2 kernel: S = kernel channels / C = 2.
  ConvLayer l = image(0, 1, 3, 2);
  l.y_extension = 2;  // P = 4
  l.cvt_en = true;
  const CoverageData d = conv_only(small(), records_of(l));
  EXPECT_EQ(hit(d, "conv.layer", "mode"), Names{"image"});
  EXPECT_EQ(hit(d, "conv.layer", "pixel_format"), Names{"T_R8"});
  EXPECT_EQ(hit(d, "conv.layer", "post_extension"), Names{"p4"});
  EXPECT_EQ(hit(d, "conv.layer", "kernel"), Names{"small_le3"});
  EXPECT_EQ(hit(d, "conv.layer", "channels"), Names{"below_ac"});  // S x C = 2 < 8
  EXPECT_EQ(hit(d, "conv.layer", "dilation"), Names{"n/a"});
  EXPECT_EQ(hit(d, "conv.layer", "mode_x_kernel"), Names{"image,small_le3"});
  // T_A8R8G8B8 (code 13, 4 components), 1x5 kernel: pre-extended 20 channels.
  const ConvLayer wide = image(13, 4, 1, 5);
  EXPECT_EQ(layer_bin(small(), wide, "pixel_format"), Names{"T_A8R8G8B8"});
  EXPECT_EQ(layer_bin(small(), wide, "kernel"), Names{"medium_le7"});
  EXPECT_EQ(layer_bin(small(), wide, "channels"), Names{"partial_last_block"});
  EXPECT_EQ(layer_bin(small(), wide, "post_extension"), Names{"p1"});
  // A 16-bit format on v1 (T_R16_F, code 5, fp16): its own bin; fp16 has no clip class.
  ConvLayer f = image(5, 1);
  set_precision(f, Precision::Fp16, Precision::Fp16);
  f.clip_truncate = 3;
  EXPECT_EQ(layer_bin(v1(), f, "pixel_format"), Names{"T_R16_F"});
  EXPECT_EQ(layer_bin(v1(), f, "mode_x_precision"), Names{"image,fp16"});
  EXPECT_EQ(layer_bin(v1(), f, "clip_truncate"), Names{"n/a"});
  EXPECT_EQ(layer_bin(v1(), f, "precision_x_clip"), Names{});
}

// Winograd's stride is CDMA's folding stride; its kernel class is what the folded 3x3 kernel
// spans (3s x 3s); it has no dilation.
TEST(ConvCoverage, WinogradUsesTheFoldingStride) {
  const std::tuple<unsigned, const char*, const char*> cases[] = {
      {1, "1", "small_le3"}, {2, "2", "medium_le7"}, {3, "3+", "large"}};
  for (const auto& [s, stride, kernel] : cases) {
    const CoverageData d = conv_only(v1(), records_of(winograd(s)));
    EXPECT_EQ(hit(d, "conv.layer", "mode"), Names{"winograd"}) << s;
    EXPECT_EQ(hit(d, "conv.layer", "stride_x"), Names{stride}) << s;
    EXPECT_EQ(hit(d, "conv.layer", "stride_y"), Names{stride}) << s;
    EXPECT_EQ(hit(d, "conv.layer", "kernel"), Names{kernel}) << s;
    EXPECT_EQ(hit(d, "conv.layer", "dilation"), Names{"n/a"}) << s;
    EXPECT_EQ(hit(d, "conv.layer", "mode_x_precision"), Names{"winograd,int16"}) << s;
  }
  const CoverageData empty = conv_only(v1(), {});
  for (const ItemData& i : empty.group("conv.layer")->items)
    if (i.name == "mode_x_kernel") {
      for (const BinData& b : i.bins) EXPECT_EQ(b.kind == BinKind::Ignore, b.name == "winograd,1x1") << b.name;
    }
}

TEST(ConvCoverage, ClipBatchCompressionAndBanks) {
  struct C {
    unsigned clip;
    const char* cls;
  };
  for (const C& c : {C{0, "0"}, C{1, "1-8"}, C{8, "1-8"}, C{9, "9-16"}, C{16, "9-16"}}) {
    ConvLayer l = direct();
    l.clip_truncate = c.clip;
    EXPECT_EQ(layer_bin(small(), l, "clip_truncate"), Names{c.cls}) << c.clip;
    EXPECT_EQ(layer_bin(small(), l, "precision_x_clip"), Names{std::string("int8,") + c.cls}) << c.clip;
  }
  ConvLayer over = direct();
  over.clip_truncate = 17;  // §4.5: valid 0..16, such a layer never completes
  EXPECT_EQ(conv_only(small(), records_of(over)).illegal_hits().size(), 1u);

  ConvLayer b = direct();
  b.batches = 4;
  b.compressed = true;
  EXPECT_EQ(layer_bin(v1(), b, "batch"), Names{"2+"});
  EXPECT_EQ(layer_bin(v1(), b, "compression"), Names{"on"});
  EXPECT_EQ(layer_bin(v1(), direct(), "compression"), Names{"off"});

  // Bank shares of 32 (small) and 16 (v1) banks.
  struct Bk {
    const char* cfg;
    unsigned bank;  // DATA_BANK (banks - 1)
    const char* cls;
  };
  for (const Bk& k : {Bk{"small", 0, "one"}, Bk{"small", 1, "up_to_half"}, Bk{"small", 15, "up_to_half"},
                      Bk{"small", 16, "over_half"}, Bk{"v1", 7, "up_to_half"}, Bk{"v1", 8, "over_half"}}) {
    ConvLayer l = direct();
    l.data_bank = k.bank;
    l.weight_bank = 0;
    EXPECT_EQ(layer_bin(HwConfig::get(k.cfg), l, "data_banks"), Names{k.cls}) << k.cfg << " " << k.bank;
    EXPECT_EQ(layer_bin(HwConfig::get(k.cfg), l, "weight_banks"), Names{"one"}) << k.cfg << " " << k.bank;
  }
}

// Full or partial data reuse follows from the previous layer's SKIP_DATA_RLS (spec §8.4).
TEST(ConvCoverage, ReuseAndReleaseAcrossLayers) {
  ConvLayer keep_all = direct(6, 5);  // keeps its slices and weights
  keep_all.skip_data_rls = keep_all.skip_weight_rls = true;
  ConvLayer full = keep_all;          // CDMA fetches nothing; releases 2 of its 5 slices
  full.skip_data_rls = full.skip_weight_rls = false;
  full.data_reuse = full.weight_reuse = true;
  full.release_slices = 2;
  ConvLayer partial = direct(6, 2);   // the 3 kept lines + 2 new
  partial.csc_height = 5;
  partial.out_height = 3;
  partial.data_reuse = true;
  partial.release_slices = 5;
  const ConvLayer fresh = direct();   // no reuse, releases all
  const CoverageData d = conv_only(small(), sequence({keep_all, full, partial, fresh}));
  auto hits = [&](const std::string& item) {
    std::map<std::string, uint64_t> m;
    for (const BinData& bin : find_item(d, "conv.layer", item)->bins)
      if (bin.hits) m[bin.name] = bin.hits;
    return m;
  };
  using Hits = std::map<std::string, uint64_t>;
  EXPECT_EQ(hits("data_reuse"), (Hits{{"none", 2}, {"full", 1}, {"partial", 1}}));
  EXPECT_EQ(hits("weight_reuse"), (Hits{{"off", 3}, {"on", 1}}));
  EXPECT_EQ(hits("data_release"), (Hits{{"skip", 1}, {"partial", 1}, {"all", 2}}));
  EXPECT_EQ(hits("weight_release"), (Hits{{"skip", 1}, {"release", 3}}));
  EXPECT_EQ(hits("data_reuse_x_weight_reuse"), (Hits{{"none,off", 2}, {"full,on", 1}, {"partial,off", 1}}));

  // A first layer that claims reuse (the pipeline refuses it) is neither full nor partial.
  EXPECT_EQ(layer_bin(small(), partial, "data_reuse"), Names{"unknown"});
}

// The i-th completed record of each of the five units is one layer, whatever else is between
// them; records that never completed and other units' records are skipped.
TEST(ConvCoverage, PairsTheIthCompletedRecordOfEachUnit) {
  ConvLayer a = direct();
  set_precision(a, Precision::Int16, Precision::Int16);
  const ConvLayer b = direct();  // int8
  Latched sat;
  sat.saturation = 3;
  const auto ra = records_of(a, sat), rb = records_of(b);
  LayerRecord refused = rb[0];
  refused.completed = false;
  LayerRecord sdp;
  sdp.unit = sdp.regs.unit = Unit::SDP;
  sdp.completed = true;
  // CDMA and CSC of both layers first, a refused CDMA layer and an SDP layer in between,
  // CACC's records last, and a third CDMA record without partners.
  const std::vector<LayerRecord> recs = {ra[0], refused, rb[0], ra[1], sdp, rb[1], ra[2], ra[3], rb[2],
                                         rb[3], ra[4], sdp, rb[4], rb[0]};
  const CoverageData d = conv_only(v1(), recs);
  EXPECT_EQ(d.group("conv.layer")->samples, 2u);
  EXPECT_EQ(hit(d, "conv.outcome", "precision_x_saturation"), (Names{"int16,nonzero", "int8,zero"}));
}

TEST(ConvCoverage, OutcomeCountersOnV1) {
  Latched nan_in;
  nan_in.nan_data = 2;
  nan_in.inf_weight = 1;
  nan_in.saturation = 0;
  ConvLayer f = direct(4, 4, 16, 1, 1, 16);
  set_precision(f, Precision::Fp16, Precision::Fp16);
  ConvLayer i8 = direct(4, 4, 16, 1, 1, 16);
  Latched i8_counts;
  i8_counts.nan_data = 5;  // an int layer's counters do not apply
  i8_counts.saturation = 1;
  std::vector<LayerRecord> recs = records_of(f, nan_in);
  for (LayerRecord& r : records_of(i8, i8_counts)) recs.push_back(std::move(r));
  const CoverageData d = conv_only(v1(), recs);
  EXPECT_EQ(hit(d, "conv.outcome", "nan_data"), (Names{"nonzero", "n/a"}));
  EXPECT_EQ(hit(d, "conv.outcome", "inf_data"), (Names{"zero", "n/a"}));
  EXPECT_EQ(hit(d, "conv.outcome", "nan_weight"), (Names{"zero", "n/a"}));
  EXPECT_EQ(hit(d, "conv.outcome", "inf_weight"), (Names{"nonzero", "n/a"}));
  EXPECT_EQ(hit(d, "conv.outcome", "mode_x_nan_data"), (Names{"direct,nonzero"}));
  EXPECT_EQ(hit(d, "conv.outcome", "out_saturation"), (Names{"n/a", "nonzero"}));
  EXPECT_EQ(hit(d, "conv.outcome", "precision_x_saturation"), (Names{"int8,nonzero"}));
  EXPECT_TRUE(d.illegal_hits().empty());

  // Image int8 pixels converted to fp16: data not counted, weights are.
  ConvLayer img = image(0, 1);
  set_precision(img, Precision::Int8, Precision::Fp16);
  img.cvt_en = true;
  const CoverageData di = conv_only(v1(), records_of(img));
  EXPECT_EQ(hit(di, "conv.outcome", "nan_data"), Names{"n/a"});
  EXPECT_EQ(hit(di, "conv.outcome", "nan_weight"), Names{"zero"});

  // Reused weights are not fetched (not counted); fp16 layers never count saturation (§4.6).
  ConvLayer keep = f;
  keep.skip_weight_rls = keep.skip_data_rls = true;
  ConvLayer reuse = f;
  reuse.weight_reuse = reuse.data_reuse = true;
  Latched bad;
  bad.saturation = 1;
  std::vector<LayerRecord> seq = records_of(keep);
  for (LayerRecord& r : records_of(reuse, bad)) seq.push_back(std::move(r));
  const CoverageData dr = conv_only(v1(), seq);
  EXPECT_EQ(hit(dr, "conv.outcome", "nan_weight"), (Names{"zero", "n/a"}));
  EXPECT_EQ(hit(dr, "conv.outcome", "nan_data"), (Names{"zero", "n/a"}));  // full data reuse: nothing fetched
  ASSERT_EQ(dr.illegal_hits().size(), 1u);
  EXPECT_EQ(dr.illegal_hits()[0].bin, "fp16_counted");
}

// conv.random through the golden model: every completed layer is sampled once (the five
// units' records paired), nothing lands in an illegal bin, and the generator's basic
// features reach their bins. (Holes left at 60 seeds: docs/coverage.md.)
TEST(ConvCoverage, RandomSeedsSampleEveryCompletedLayer) {
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    CoverageData all;
    uint64_t completed = 0;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      const Program p = find_test_generator("conv.random").generate(cfg, seed, {});
      GoldenModel m(cfg, seed);
      for (const ProgramOp& op : p.ops) {
        if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
        if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes.data(), l->bytes.size());
      }
      for (const LayerRecord& r : m.layers()) completed += r.unit == Unit::CACC && r.completed;
      const CoverageData d = conv_only(cfg, m.layers());
      for (const IllegalHit& h : d.illegal_hits())
        ADD_FAILURE() << name << " seed " << seed << ": illegal " << h.group << "." << h.item << "." << h.bin;
      all.merge(d);
    }
    EXPECT_GT(completed, 60u) << name;
    EXPECT_EQ(all.group("conv.layer")->samples, completed) << name;
    EXPECT_EQ(all.group("conv.outcome")->samples, completed) << name;
    Names modes = {"direct", "image"}, precisions = {"int8"};
    if (cfg.conv_winograd) modes.insert("winograd");
    if (cfg.supports(Precision::Int16)) precisions.insert("int16");
    if (cfg.supports(Precision::Fp16)) precisions.insert("fp16");
    auto normal_hits = [&](const std::string& item) {
      Names n = hit(all, "conv.layer", item);
      for (const char* ignored : {"n/a", "reserved", "unknown"}) n.erase(ignored);
      return n;
    };
    EXPECT_EQ(normal_hits("mode"), modes) << name;
    EXPECT_EQ(normal_hits("precision"), precisions) << name;
    EXPECT_EQ(normal_hits("kernel"), (Names{"1x1", "small_le3", "medium_le7", "large"})) << name;
    EXPECT_EQ(normal_hits("stride_x"), (Names{"1", "2", "3+"})) << name;
    EXPECT_EQ(normal_hits("data_reuse"), (Names{"none", "partial", "full"})) << name;
    EXPECT_GE(all.group("conv.layer")->percent(), 85.0) << name;
    EXPECT_GE(all.group("conv.outcome")->percent(), 80.0) << name;
  }
}

}  // namespace
}  // namespace dla::cov
