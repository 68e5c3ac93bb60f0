// SDP coverage: every completed SDP layer the golden model ran (spec sdp.md). Four groups:
//   sdp.precision  IN x PROC x OUT (§2.5: the configuration's legal triples are the bins,
//                  every other triple is illegal: generators must never run one)
//   sdp.stages     BS / BN / EW enables, ALU algorithm, MUL / PReLU / ReLU, LUT (§6, §7)
//   sdp.lut        LUT layers: LE function x coverage case of the LUT seed (X = LE, Y = LO:
//                  overlap, disjoint, nested, each in both orders) x priority bits (§8)
//   sdp.outcome    what the counters latched at done show: NaN in (SDP_RDMA) and out, each
//                  saturation point of the output converter, each LUT counter non-zero (§8.6,
//                  §9.5, §9.6), EQL result
// A configuration without EW (nv_small) has no EW items; without the LUT, no sdp.lut group and
// no LUT counter items.
// SDP_RDMA's registers (IN precision, operand streams, NaN/Inf input counters) come from the
// SDP_RDMA layer records, paired in order with the SDP ones (each memory-input layer arms both).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "dla/coverage/covergroup.h"
#include "dla/regs.gen.h"
#include "models/models.h"

namespace dla::cov {

namespace {

namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;

constexpr int64_t kInt8 = 0, kInt16 = 1, kFp16 = 2;

// Bins a configuration cannot hit are illegal under their own name ("<name>_unsupported"):
// coverage of different configurations is merged, and one bin name with two kinds (normal on
// v1, illegal on small) drops a whole file from the merge.
void precision_bins(Coverpoint& p, const HwConfig& cfg) {
  p.bin("int8", kInt8);
  if (cfg.supports(Precision::Int16)) p.bin("int16", kInt16);
  else p.illegal("int16_unsupported", kInt16, kInt16);
  if (cfg.supports(Precision::Fp16)) p.bin("fp16", kFp16);
  else p.illegal("fp16_unsupported", kFp16, kFp16);
  p.illegal("reserved", 3, 3);
}

// sdp.md §2.5: the defined (IN, PROC, OUT) triples.
bool triple_defined(int64_t in, int64_t proc, int64_t out) {
  static const int64_t kDefined[][3] = {{kInt8, kInt8, kInt8},   {kInt16, kInt16, kInt16}, {kFp16, kFp16, kFp16},
                                        {kFp16, kFp16, kInt16},  {kInt16, kInt16, kFp16},  {kInt16, kInt8, kInt8},
                                        {kInt8, kInt8, kInt16},  {kInt8, kInt8, kFp16}};
  return std::any_of(std::begin(kDefined), std::end(kDefined),
                     [&](const int64_t* t) { return t[0] == in && t[1] == proc && t[2] == out; });
}

const char* precision_label(int64_t p) { return p == kInt8 ? "int8" : p == kInt16 ? "int16" : "fp16"; }

// ALU of an X/Y stage: off (stage or ALU bypassed), max, min, sum, code 3 (EQL in EW).
enum AluUse : int64_t { kAluOff = 0, kAluMax = 1, kAluMin = 2, kAluSum = 3, kAluCode3 = 4 };
// MUL: off, multiply (register operand), multiply (memory operand), PReLU.
enum MulUse : int64_t { kMulOff = 0, kMulReg = 1, kMulMem = 2, kPrelu = 3 };

// EW's code 3 is EQL; BS/BN's register has no code 3 (sdp.md §15 item 9: counted, not a goal).
void alu_bins(Coverpoint& p, bool eql) {
  p.bin("off", kAluOff).bin("max", kAluMax).bin("min", kAluMin).bin("sum", kAluSum);
  if (eql) p.bin("eql", kAluCode3);
  else p.ignore("code3", kAluCode3, kAluCode3);
}

void proc_class_bins(Coverpoint& p, bool fp) {
  p.bin("int", 0);
  if (fp) p.bin("fp", 1);
  else p.illegal("fp_unsupported", 1, 1);
}
void mul_bins(Coverpoint& p) { p.bin("off", kMulOff).bin("mul_reg", kMulReg).bin("mul_mem", kMulMem).bin("prelu", kPrelu); }

struct StageUse {
  int64_t on = 0, alu = kAluOff, alu_mem = 0, mul = kMulOff, relu = 0;
};

// The LUT seed's coverage cases of the two tables' hit ranges.
enum LutCase : int64_t {
  kOverlapLeFirst = 0, kOverlapLoFirst = 1, kDisjointLeFirst = 2, kDisjointLoFirst = 3, kLoInsideLe = 4,
  kLeInsideLo = 5, kEmptyRange = 6
};

struct Range {
  double lo = 0, hi = 0;  // hit inputs lie in (lo, hi)
};

LutCase lut_case(Range le, Range lo) {
  if (!(le.hi > le.lo) || !(lo.hi > lo.lo)) return kEmptyRange;
  if (le.hi <= lo.lo) return kDisjointLeFirst;
  if (lo.hi <= le.lo) return kDisjointLoFirst;
  if (le.lo <= lo.lo && lo.hi <= le.hi) return kLoInsideLe;
  if (lo.lo <= le.lo && le.hi <= lo.hi) return kLeInsideLo;
  return le.lo < lo.lo ? kOverlapLeFirst : kOverlapLoFirst;
}

double fp32_value(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return static_cast<double>(f);
}
int64_t s8(uint32_t v) { return static_cast<int8_t>(static_cast<uint8_t>(v)); }

// Saturation points of the output converter that D_PERF_OUT_SATURATION can count (§9.5).
enum SatPoint : int64_t { kSatNone = -1, kIntToInt8 = 0, kIntToInt16 = 1, kIntToFp16 = 2, kFpToFp16 = 3, kFpToInt16 = 4 };

// Outcome of a counter: not applicable (feature off), zero, non-zero.
constexpr int64_t kNotApplicable = -1, kZero = 0, kNonZero = 1;
void counter_bins(Coverpoint& p) {
  p.ignore("n/a", kNotApplicable, kNotApplicable).ignore("zero", kZero, kZero).bin("nonzero", kNonZero);
}
int64_t counter_state(bool applicable, uint32_t value) { return !applicable ? kNotApplicable : value ? kNonZero : kZero; }

class SdpCoverage : public UnitCoverage {
 public:
  explicit SdpCoverage(const HwConfig& cfg)
      : fp_(cfg.supports(Precision::Fp16)),
        ew_(cfg.sdp_ew),
        lut_present_(cfg.sdp_lut),
        precision_("sdp.precision", "each SDP layer: IN x PROC x OUT precision (sdp.md 2.5)"),
        stages_("sdp.stages", "each SDP layer: BS/BN/EW enables, ALU algorithm and source, MUL/PReLU, ReLU, LUT"),
        lut_("sdp.lut", "each SDP layer with the LUT on: LE function x coverage case x priorities"),
        outcome_("sdp.outcome", "each SDP layer: NaN in/out, saturation points, LUT counters, EQL result") {
    precision_bins(precision_.coverpoint("in"), cfg);
    precision_bins(precision_.coverpoint("proc"), cfg);
    precision_bins(precision_.coverpoint("out"), cfg);
    Cross& triple = precision_.cross("in_x_proc_x_out", {"in", "proc", "out"});
    const std::vector<int64_t> all = {kInt8, kInt16, kFp16};
    for (int64_t i : all)
      for (int64_t p : all)
        for (int64_t o : all) {
          const bool exists = (i == kInt8 || fp_) && (p == kInt8 || fp_) && (o == kInt8 || fp_);
          if (exists && !triple_defined(i, p, o)) triple.illegal({precision_label(i), precision_label(p), precision_label(o)});
        }
    precision_.coverpoint("nan_to_zero").bin("off", 0).bin("on", 1);
    if (fp_) precision_.cross("proc_x_nan_to_zero", {"proc", "nan_to_zero"});

    proc_class_bins(stages_.coverpoint("proc_class"), fp_);
    for (const char* st : {"bs", "bn"}) {
      const std::string s = st;
      stages_.coverpoint(s + "_on").bin("bypass", 0).bin("on", 1);
      alu_bins(stages_.coverpoint(s + "_alu"), false);
      stages_.coverpoint(s + "_alu_src").bin("reg", 0).bin("mem", 1).ignore("n/a", -1, -1);
      mul_bins(stages_.coverpoint(s + "_mul"));
      stages_.coverpoint(s + "_relu").bin("off", 0).bin("on", 1).ignore("n/a", -1, -1);
      stages_.cross(s + "_alu_x_mul", {s + "_alu", s + "_mul"});
      stages_.cross(s + "_alu_x_src", {s + "_alu", s + "_alu_src"}).ignore({"off", "*"});
      stages_.cross(s + "_alu_x_proc", {s + "_alu", "proc_class"});
      stages_.cross(s + "_mul_x_relu", {s + "_mul", s + "_relu"});
    }
    // A configuration without EW (nv_small) has no EW items, without the LUT no sdp.lut group
    // and no LUT counters: nothing there can be reached.
    if (!ew_) stages_.cross("bs_x_bn", {"bs_on", "bn_on"});
    if (ew_) add_ew_items();
    if (lut_present_) add_lut_group();

    if (fp_) {
      counter_bins(outcome_.coverpoint("nan_in"));
      counter_bins(outcome_.coverpoint("inf_in"));
      counter_bins(outcome_.coverpoint("nan_out"));
    }
    Coverpoint& sat = outcome_.coverpoint("saturation");
    sat.ignore("none", kSatNone, kSatNone).bin("int_to_int8", kIntToInt8);
    if (fp_) {
      sat.bin("int_to_int16", kIntToInt16).bin("int_to_fp16", kIntToFp16).bin("fp_to_fp16", kFpToFp16);
      sat.illegal("fp_to_int16", kFpToInt16, kFpToInt16);  // §9.5: never counted there
    } else {
      sat.illegal("int_to_int16_unsupported", kIntToInt16, kIntToInt16)
          .illegal("int_to_fp16_unsupported", kIntToFp16, kFpToInt16);
    }
    if (lut_present_)
      for (const char* c : {"lut_uflow", "lut_oflow", "lut_hybrid", "lut_le_hit", "lut_lo_hit"})
        counter_bins(outcome_.coverpoint(c));
    if (ew_) outcome_.coverpoint("eql_result").ignore("n/a", -1, -1).bin("all_equal", 0).bin("unequal", 1);
  }

  void sample(const CoverageInput& in) override {
    std::vector<const RegisterSnapshot*> rdma;
    for (const LayerRecord& r : in.layers)
      if (r.unit == Unit::SDP_RDMA && r.completed) rdma.push_back(&r.regs);
    size_t next_rdma = 0;
    for (const LayerRecord& r : in.layers) {
      if (r.unit != Unit::SDP || !r.completed) continue;
      const bool flying = S::D_FEATURE_MODE_CFG::FLYING_MODE::get(r.regs.get(S::D_FEATURE_MODE_CFG::offset)) != 0;
      const RegisterSnapshot* rd = !flying && next_rdma < rdma.size() ? rdma[next_rdma++] : nullptr;
      sample_layer(r.regs, rd);
    }
  }

  std::vector<GroupData> data() const override {
    if (!lut_present_) return {precision_.data(), stages_.data(), outcome_.data()};
    return {precision_.data(), stages_.data(), lut_.data(), outcome_.data()};
  }

 private:
  void add_ew_items() {
    stages_.coverpoint("ew_on").bin("bypass", 0).bin("on", 1);
    alu_bins(stages_.coverpoint("ew_alu"), true);
    stages_.coverpoint("ew_alu_src").bin("reg", 0).bin("mem", 1).ignore("n/a", -1, -1);
    mul_bins(stages_.coverpoint("ew_mul"));
    stages_.cross("bs_x_bn_x_ew", {"bs_on", "bn_on", "ew_on"});
    stages_.cross("ew_alu_x_mul", {"ew_alu", "ew_mul"});
    stages_.cross("ew_alu_x_src", {"ew_alu", "ew_alu_src"}).ignore({"off", "*"});
    stages_.cross("ew_alu_x_proc", {"ew_alu", "proc_class"});
    if (!lut_present_) return;
    stages_.coverpoint("ew_lut").bin("off", 0).bin("on", 1);
    // EQL compares the ALU result, so the generators never put the LUT after it (sdp.md §10).
    stages_.cross("ew_alu_x_lut", {"ew_alu", "ew_lut"}).ignore({"eql", "on"});
    stages_.cross("ew_mul_x_lut", {"ew_mul", "ew_lut"});
  }

  void add_lut_group() {
    lut_.coverpoint("le_function").bin("exponent", 0).bin("linear", 1);
    lut_.coverpoint("case").bin("overlap_le_first", kOverlapLeFirst).bin("overlap_lo_first", kOverlapLoFirst)
        .bin("disjoint_le_first", kDisjointLeFirst).bin("disjoint_lo_first", kDisjointLoFirst)
        .bin("lo_inside_le", kLoInsideLe).bin("le_inside_lo", kLeInsideLo).ignore("empty_range", kEmptyRange, kEmptyRange);
    lut_.coverpoint("uflow_priority").bin("le", 0).bin("lo", 1);
    lut_.coverpoint("oflow_priority").bin("le", 0).bin("lo", 1);
    lut_.coverpoint("hybrid_priority").bin("le", 0).bin("lo", 1);
    Coverpoint& lut_proc = lut_.coverpoint("proc");
    lut_proc.bin("int8", kInt8);
    if (fp_) lut_proc.bin("int16", kInt16).bin("fp16", kFp16);
    lut_.cross("function_x_case", {"le_function", "case"});
    lut_.cross("function_x_case_x_hybrid_priority", {"le_function", "case", "hybrid_priority"});
    lut_.cross("case_x_uflow_priority", {"case", "uflow_priority"});
    lut_.cross("case_x_oflow_priority", {"case", "oflow_priority"});
    lut_.cross("proc_x_function", {"proc", "le_function"});
  }

  static StageUse x_stage(const RegisterSnapshot& s, uint32_t cfg_off, uint32_t alu_off, uint32_t mul_off) {
    const uint32_t c = s.get(cfg_off);
    // BS and BN share the bit layout of D_DP_BS_CFG (bypass, ALU bypass, algo, MUL bypass, PReLU, ReLU bypass).
    using F = S::D_DP_BS_CFG;
    StageUse u;
    u.on = F::BS_BYPASS::get(c) == 0;
    if (!u.on) {
      u.relu = -1;
      u.alu_mem = -1;
      return u;
    }
    const bool alu_mem = (s.get(alu_off) & 1u) != 0, mul_mem = (s.get(mul_off) & 1u) != 0;
    if (!F::BS_ALU_BYPASS::get(c)) {
      u.alu = kAluMax + F::BS_ALU_ALGO::get(c);
      u.alu_mem = alu_mem;
    } else {
      u.alu_mem = -1;
    }
    if (!F::BS_MUL_BYPASS::get(c)) u.mul = F::BS_MUL_PRELU::get(c) ? kPrelu : mul_mem ? kMulMem : kMulReg;
    u.relu = F::BS_RELU_BYPASS::get(c) == 0;
    return u;
  }

  // Hit range of one table in the input domain (sdp.md §8.2), clipped to what X can be.
  Range table_range(bool fp, bool exponent, uint32_t start_bits, int64_t select, int64_t offset, unsigned depth) const {
    const double start = fp ? fp32_value(start_bits) : static_cast<double>(static_cast<int32_t>(start_bits));
    const double x_max = fp ? static_cast<double>(std::numeric_limits<float>::max()) : 2147483647.0;
    Range r;
    if (exponent) {
      // Hit from D = X - START >= 2^OFF (integer D >= 1 at least).
      r.lo = fp ? start + std::ldexp(1.0, static_cast<int>(offset))
                : start + (offset > 0 ? std::ldexp(1.0, static_cast<int>(offset)) : 1.0) - 1.0;
      r.hi = start + std::ldexp(1.0, static_cast<int>(std::min<int64_t>(offset + 64, fp ? 200 : 32)));
    } else {
      r.lo = start;
      r.hi = start + (depth - 1) * std::ldexp(1.0, static_cast<int>(select));
    }
    r.hi = std::min(r.hi, x_max);
    return r;
  }

  void sample_layer(const RegisterSnapshot& s, const RegisterSnapshot* rdma) {
    const uint32_t fmt = s.get(S::D_DATA_FORMAT::offset);
    const int64_t proc = S::D_DATA_FORMAT::PROC_PRECISION::get(fmt), out = S::D_DATA_FORMAT::OUT_PRECISION::get(fmt);
    const uint32_t rfm = rdma ? rdma->get(R::D_FEATURE_MODE_CFG::offset) : 0;
    const int64_t in = rdma ? R::D_FEATURE_MODE_CFG::IN_PRECISION::get(rfm) : proc;
    const bool fp = proc == kFp16;
    const uint32_t mode = s.get(S::D_FEATURE_MODE_CFG::offset);
    precision_.sample({{"in", in}, {"proc", proc}, {"out", out},
                       {"nan_to_zero", S::D_FEATURE_MODE_CFG::NAN_TO_ZERO::get(mode)}});

    const StageUse bs = x_stage(s, S::D_DP_BS_CFG::offset, S::D_DP_BS_ALU_CFG::offset, S::D_DP_BS_MUL_CFG::offset);
    const StageUse bn = x_stage(s, S::D_DP_BN_CFG::offset, S::D_DP_BN_ALU_CFG::offset, S::D_DP_BN_MUL_CFG::offset);
    using E = S::D_DP_EW_CFG;
    const uint32_t ew = s.get(E::offset);
    const bool ew_on = E::EW_BYPASS::get(ew) == 0;
    const bool alu_on = ew_on && !E::EW_ALU_BYPASS::get(ew), mul_on = ew_on && !E::EW_MUL_BYPASS::get(ew);
    const bool lut_on = ew_on && !E::EW_LUT_BYPASS::get(ew);
    const bool eql = alu_on && E::EW_ALU_ALGO::get(ew) == 3;
    const bool ew_alu_mem = (s.get(S::D_DP_EW_ALU_CFG::offset) & 1u) != 0;
    const bool ew_mul_mem = (s.get(S::D_DP_EW_MUL_CFG::offset) & 1u) != 0;
    const int64_t ew_mul = !mul_on ? kMulOff : E::EW_MUL_PRELU::get(ew) ? kPrelu : ew_mul_mem ? kMulMem : kMulReg;
    std::map<std::string, int64_t> st = {
        {"bs_on", bs.on}, {"bs_alu", bs.alu}, {"bs_alu_src", bs.alu_mem}, {"bs_mul", bs.mul}, {"bs_relu", bs.relu},
        {"bn_on", bn.on}, {"bn_alu", bn.alu}, {"bn_alu_src", bn.alu_mem}, {"bn_mul", bn.mul}, {"bn_relu", bn.relu},
        {"proc_class", fp ? 1 : 0}};
    if (ew_) {
      st.insert({{"ew_on", ew_on}, {"ew_alu", alu_on ? kAluMax + E::EW_ALU_ALGO::get(ew) : kAluOff},
                 {"ew_alu_src", alu_on ? int64_t{ew_alu_mem} : -1}, {"ew_mul", ew_mul}});
      if (lut_present_) st["ew_lut"] = lut_on;
    }
    stages_.sample(st);

    if (lut_on && lut_present_) sample_lut(s, fp, proc);

    const uint32_t perf = s.get(S::D_PERF_ENABLE::offset);
    const bool sat_en = S::D_PERF_ENABLE::PERF_SAT_EN::get(perf) != 0, lut_en = S::D_PERF_ENABLE::PERF_LUT_EN::get(perf) != 0;
    std::map<std::string, int64_t> o;
    if (fp_) {
      const bool counts_in = rdma && in == kFp16 && R::D_PERF_ENABLE::PERF_NAN_INF_COUNT_EN::get(rdma->get(R::D_PERF_ENABLE::offset));
      o["nan_in"] = counter_state(counts_in, counts_in ? rdma->get(R::D_STATUS_NAN_INPUT_NUM::offset) : 0);
      o["inf_in"] = counter_state(counts_in, counts_in ? rdma->get(R::D_STATUS_INF_INPUT_NUM::offset) : 0);
      o["nan_out"] = counter_state(out == kFp16, s.get(S::D_STATUS_NAN_OUTPUT_NUM::offset));
    }
    int64_t point = kSatNone;
    if (sat_en && !eql && s.get(S::D_PERF_OUT_SATURATION::offset) != 0) {
      if (fp) point = out == kFp16 ? kFpToFp16 : kFpToInt16;
      else point = out == kInt8 ? kIntToInt8 : out == kInt16 ? kIntToInt16 : kIntToFp16;
    }
    o["saturation"] = point;
    if (lut_present_) {
      const bool lut_counts = lut_on && lut_en;
      o["lut_uflow"] = counter_state(lut_counts, s.get(S::D_PERF_LUT_UFLOW::offset));
      o["lut_oflow"] = counter_state(lut_counts, s.get(S::D_PERF_LUT_OFLOW::offset));
      o["lut_hybrid"] = counter_state(lut_counts, s.get(S::D_PERF_LUT_HYBRID::offset));
      o["lut_le_hit"] = counter_state(lut_counts, s.get(S::D_PERF_LUT_LE_HIT::offset));
      o["lut_lo_hit"] = counter_state(lut_counts, s.get(S::D_PERF_LUT_LO_HIT::offset));
    }
    if (ew_) o["eql_result"] = eql ? int64_t{S::D_STATUS::STATUS_UNEQUAL::get(s.get(S::D_STATUS::offset))} : -1;
    outcome_.sample(o);
  }

  void sample_lut(const RegisterSnapshot& s, bool fp, int64_t proc) {
    const uint32_t cfg = s.get(S::S_LUT_CFG::offset), info = s.get(S::S_LUT_INFO::offset);
    const bool exponent = S::S_LUT_CFG::LUT_LE_FUNCTION::get(cfg) == 0;
    const int64_t offset = s8(S::S_LUT_INFO::LUT_LE_INDEX_OFFSET::get(info));
    const Range le = table_range(fp, exponent, s.get(S::S_LUT_LE_START::offset),
                                 s8(S::S_LUT_INFO::LUT_LE_INDEX_SELECT::get(info)), offset, 65);
    const Range lo = table_range(fp, false, s.get(S::S_LUT_LO_START::offset),
                                 s8(S::S_LUT_INFO::LUT_LO_INDEX_SELECT::get(info)), 0, 257);
    lut_.sample({{"le_function", exponent ? 0 : 1},
                 {"case", lut_case(le, lo)},
                 {"uflow_priority", S::S_LUT_CFG::LUT_UFLOW_PRIORITY::get(cfg)},
                 {"oflow_priority", S::S_LUT_CFG::LUT_OFLOW_PRIORITY::get(cfg)},
                 {"hybrid_priority", S::S_LUT_CFG::LUT_HYBRID_PRIORITY::get(cfg)},
                 {"proc", proc}});
  }

  bool fp_, ew_, lut_present_;
  Covergroup precision_, stages_, lut_, outcome_;
};

}  // namespace

std::unique_ptr<UnitCoverage> make_sdp_coverage(const HwConfig& cfg) {
  if (!cfg.has_unit(Unit::SDP) || !cfg.has_unit(Unit::SDP_RDMA)) return nullptr;
  return std::make_unique<SdpCoverage>(cfg);
}

}  // namespace dla::cov
