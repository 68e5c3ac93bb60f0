// CDP coverage: every CDP layer the golden model completed. cdp.layer: normalization length,
// precision, LE mode, the LUT seed's coverage case (classified from the START/END/select
// registers), the three priority bits, bypasses and cube shape (from the paired CDP_RDMA
// layer), with crosses length x precision, precision x LUT mode x case and case x priority.
// cdp.outcome: what the layer's latched counters show (each LUT counter, saturation,
// NaN/Inf in, NaN out), crossed with the precision.
#include <cmath>
#include <cstring>
#include <deque>

#include "dla/coverage/covergroup.h"
#include "dla/regs.gen.h"
#include "models/models.h"

namespace dla::cov {

namespace {

namespace C = reg::CDP;
namespace RD = reg::CDP_RDMA;

enum LutCase : int64_t { kOverlapLeLo, kOverlapLoLe, kDisjointLeLo, kDisjointLoLe, kLoInsideLe, kLeInsideLo };
enum Shape : int64_t { kOne, kBelowAtom, kOneAtom, kManyAligned, kManyUnaligned };

int64_t sx(uint64_t v, unsigned bits) {
  const uint64_t m = uint64_t{1} << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<int64_t>(v ^ m) - static_cast<int64_t>(m);
}

// START/END register pair as a number: 38-bit integer, or fp32 in fp16 mode.
double lut_point(const RegisterSnapshot& s, uint32_t low, bool fp) {
  const uint32_t lo = s.get(low);
  if (fp) {
    float f;
    std::memcpy(&f, &lo, 4);
    return std::isfinite(f) ? static_cast<double>(f) : 0.0;
  }
  return static_cast<double>(sx((uint64_t{s.get(low + 4)} << 32) | lo, 38));
}

// The seed's six cases from the two tables' covered intervals.
int64_t lut_case(const RegisterSnapshot& s, unsigned format) {
  const bool fp = format == 2;
  const unsigned sel_bits = format == 0 ? 6 : format == 1 ? 7 : 8;
  const uint32_t info = s.get(C::S_LUT_INFO::offset);
  const bool le_linear = C::S_LUT_CFG::LUT_LE_FUNCTION::get(s.get(C::S_LUT_CFG::offset)) != 0;
  const int sel_le = static_cast<int>(sx(C::S_LUT_INFO::LUT_LE_INDEX_SELECT::get(info), sel_bits));
  const int sel_lo = static_cast<int>(sx(C::S_LUT_INFO::LUT_LO_INDEX_SELECT::get(info), sel_bits));
  const int ioff = static_cast<int>(sx(C::S_LUT_INFO::LUT_LE_INDEX_OFFSET::get(info), 8));
  const double a_le = lut_point(s, C::S_LUT_LE_START_LOW::offset, fp);
  const double a_lo = lut_point(s, C::S_LUT_LO_START_LOW::offset, fp);
  const double b_le = a_le + (le_linear ? 64 * std::ldexp(1.0, sel_le) : std::ldexp(1.0, 64 + ioff));
  const double b_lo = a_lo + 256 * std::ldexp(1.0, sel_lo);
  if (b_le <= a_lo) return kDisjointLeLo;
  if (b_lo <= a_le) return kDisjointLoLe;
  if (a_le <= a_lo && b_lo <= b_le) return kLoInsideLe;
  if (a_lo <= a_le && b_le <= b_lo) return kLeInsideLo;
  return a_le < a_lo ? kOverlapLeLo : kOverlapLoLe;
}

void some_or_none(Coverpoint& p) { p.bin("none", 0).bin("some", 1); }

class CdpCoverage : public UnitCoverage {
 public:
  explicit CdpCoverage(const HwConfig& cfg)
      : cfg_(cfg),
        layer_("cdp.layer", "each CDP layer: length, precision, LE mode, LUT case, priorities, bypasses, cube shape"),
        outcome_("cdp.outcome", "each CDP layer's counters: LUT classes, output saturation, NaN/Inf in and out") {
    layer_.coverpoint("length").bin("3", 0).bin("5", 1).bin("7", 2).bin("9", 3);
    precision_bins(layer_.coverpoint("precision"));
    layer_.coverpoint("lut_mode").bin("exponent", 0).bin("linear", 1);
    layer_.coverpoint("lut_case").bin("overlap_le_lo", kOverlapLeLo).bin("overlap_lo_le", kOverlapLoLe)
        .bin("disjoint_le_lo", kDisjointLeLo).bin("disjoint_lo_le", kDisjointLoLe).bin("lo_inside_le", kLoInsideLe)
        .bin("le_inside_lo", kLeInsideLo);
    Coverpoint& prio = layer_.coverpoint("priority");  // bit 0 underflow, 1 overflow, 2 hybrid; 1 = LO
    for (int64_t v = 0; v < 8; ++v)
      prio.bin(std::string(v & 4 ? "H" : "h") + (v & 2 ? "O" : "o") + (v & 1 ? "U" : "u"), v);
    layer_.coverpoint("bypass").bin("none", 0).bin("sqsum", 1).bin("mul", 2).bin("both", 3);
    layer_.coverpoint("shape").bin("1x1x1", kOne).bin("c_below_atom", kBelowAtom).bin("c_one_atom", kOneAtom)
        .bin("many_surfaces_aligned", kManyAligned).bin("many_surfaces_unaligned", kManyUnaligned);
    layer_.cross("length_x_precision", {"length", "precision"});
    layer_.cross("precision_x_lut_mode_x_case", {"precision", "lut_mode", "lut_case"});
    layer_.cross("case_x_priority", {"lut_case", "priority"});
    layer_.cross("bypass_x_precision", {"bypass", "precision"});

    for (const char* c : {"lut_uflow", "lut_oflow", "lut_hybrid", "lut_le_hit", "lut_lo_hit"})
      some_or_none(outcome_.coverpoint(c));
    precision_bins(outcome_.coverpoint("precision"));
    Coverpoint& sat = outcome_.coverpoint("out_saturation");
    // No counter (nv_small): it reads 0, so only "none" exists. No ignore bin for "some": the
    // other configuration's normal bin of that name would make their coverage unmergeable.
    if (!cfg.cdp_out_saturation) sat.bin("none", 0);
    else if (cfg.supports(Precision::Int8) || cfg.supports(Precision::Int16)) some_or_none(sat);
    const bool fp = cfg.supports(Precision::Fp16);
    for (const char* c : {"nan_input", "inf_input", "nan_output"}) {
      Coverpoint& p = outcome_.coverpoint(c);
      if (fp) some_or_none(p);
      else p.bin("none", 0);  // no fp16: counters read 0 (no ignore "some": see out_saturation)
    }
    outcome_.cross("precision_x_saturation", {"precision", "out_saturation"});
  }

  void sample(const CoverageInput& in) override {
    std::deque<const LayerRecord*> rdma;
    for (const LayerRecord& r : in.layers) {
      if (!r.completed) continue;
      if (r.unit == Unit::CDP_RDMA) rdma.push_back(&r);
      if (r.unit != Unit::CDP) continue;
      const LayerRecord* src = rdma.empty() ? nullptr : rdma.front();
      if (!rdma.empty()) rdma.pop_front();
      sample_layer(r, src);
    }
  }

  std::vector<GroupData> data() const override { return {layer_.data(), outcome_.data()}; }

 private:
  void precision_bins(Coverpoint& p) const {
    const char* names[] = {"int8", "int16", "fp16"};
    // A precision the configuration lacks has no bin at all (not an ignore bin): coverage of
    // different configurations is merged, and a bin that is ignore in one and normal in the
    // other is a kind conflict that drops a whole file from the merge.
    for (int64_t v = 0; v < 3; ++v)
      if (cfg_.supports(static_cast<Precision>(v))) p.bin(names[v], v);
    p.ignore("reserved", 3, 3);
  }

  void sample_layer(const LayerRecord& r, const LayerRecord* rdma) {
    const RegisterSnapshot& s = r.regs;
    const unsigned format = s.field<C::D_DATA_FORMAT, C::D_DATA_FORMAT::INPUT_DATA_TYPE>();
    const uint32_t lut_cfg = s.get(C::S_LUT_CFG::offset);
    const int64_t priority = C::S_LUT_CFG::LUT_UFLOW_PRIORITY::get(lut_cfg) |
                             (C::S_LUT_CFG::LUT_OFLOW_PRIORITY::get(lut_cfg) << 1) |
                             (C::S_LUT_CFG::LUT_HYBRID_PRIORITY::get(lut_cfg) << 2);
    std::map<std::string, int64_t> v = {
        {"length", s.field<C::D_LRN_CFG, C::D_LRN_CFG::NORMALZ_LEN>()},
        {"precision", format},
        {"lut_mode", C::S_LUT_CFG::LUT_LE_FUNCTION::get(lut_cfg)},
        {"lut_case", lut_case(s, format)},
        {"priority", priority},
        {"bypass", s.get(C::D_FUNC_BYPASS::offset) & 3u}};
    if (rdma) v["shape"] = shape(*rdma, format);
    layer_.sample(v);

    auto nz = [&](uint32_t off) -> int64_t { return s.get(off) != 0 ? 1 : 0; };
    outcome_.sample({{"lut_uflow", nz(C::D_PERF_LUT_UFLOW::offset)},
                     {"lut_oflow", nz(C::D_PERF_LUT_OFLOW::offset)},
                     {"lut_hybrid", nz(C::D_PERF_LUT_HYBRID::offset)},
                     {"lut_le_hit", nz(C::D_PERF_LUT_LE_HIT::offset)},
                     {"lut_lo_hit", nz(C::D_PERF_LUT_LO_HIT::offset)},
                     {"precision", format},
                     {"out_saturation", nz(C::D_OUT_SATURATION::offset)},
                     {"nan_input", nz(C::D_NAN_INPUT_NUM::offset)},
                     {"inf_input", nz(C::D_INF_INPUT_NUM::offset)},
                     {"nan_output", nz(C::D_NAN_OUTPUT_NUM::offset)}});
  }

  int64_t shape(const LayerRecord& rdma, unsigned format) const {
    const RegisterSnapshot& s = rdma.regs;
    const uint32_t w = s.field<RD::D_DATA_CUBE_WIDTH, RD::D_DATA_CUBE_WIDTH::WIDTH>() + 1;
    const uint32_t h = s.field<RD::D_DATA_CUBE_HEIGHT, RD::D_DATA_CUBE_HEIGHT::HEIGHT>() + 1;
    const uint32_t c = s.field<RD::D_DATA_CUBE_CHANNEL, RD::D_DATA_CUBE_CHANNEL::CHANNEL>() + 1;
    const uint32_t lanes = cfg_.atom_bytes / (format == 0 ? 1 : 2);
    if (w == 1 && h == 1 && c == 1) return kOne;
    if (c < lanes) return kBelowAtom;
    if (c == lanes) return kOneAtom;
    return c % lanes == 0 ? kManyAligned : kManyUnaligned;
  }

  const HwConfig& cfg_;
  Covergroup layer_, outcome_;
};

}  // namespace

std::unique_ptr<UnitCoverage> make_cdp_coverage(const HwConfig& cfg) {
  if (!cfg.has_unit(Unit::CDP) || !cfg.has_unit(Unit::CDP_RDMA)) return nullptr;
  return std::make_unique<CdpCoverage>(cfg);
}

}  // namespace dla::cov
