#include "cdp_lut.h"

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/integer_ops.h"
#include "dla/planted_bug.h"

namespace dla::golden {

namespace {

__extension__ typedef __int128 Wide;

int64_t sat16(Wide v) { return v > 32767 ? 32767 : v < -32768 ? -32768 : static_cast<int64_t>(v); }

// rha on a wide value: v / 2^s rounded to nearest, ties away from zero.
Wide rha_wide(Wide v, unsigned s) {
  if (s == 0) return v;
  if (s >= 120) return 0;
  const Wide half = Wide{1} << (s - 1);
  return v >= 0 ? (v + half) >> s : -((-v + half) >> s);
}

struct Extrapolation {
  int64_t anchor;
  uint16_t scale;
  int shift;
};

Extrapolation extrapolation(const LutSettings& s, LutChoice c) {
  const bool under = c.cls == LutClass::Underflow;
  if (c.table == LutTableId::LE)
    return under ? Extrapolation{s.le_start, s.le_uflow_scale, s.le_uflow_shift}
                 : Extrapolation{s.le_end, s.le_oflow_scale, s.le_oflow_shift};
  return under ? Extrapolation{s.lo_start, s.lo_uflow_scale, s.lo_uflow_shift}
               : Extrapolation{s.lo_end, s.lo_oflow_scale, s.lo_oflow_shift};
}

bool exponent_underflow(const LutSettings& s, LutChoice c) {
  return c.table == LutTableId::LE && !s.le_linear && c.cls == LutClass::Underflow;
}

}  // namespace

int64_t cdp_interp(int64_t y, int64_t x1, int64_t x0, int64_t g, int sh) {
  const Wide p = Wide{x1 - x0} * g;
  // sh in [-16, 15]: the left shift keeps |p| * 2^16 far inside 128 bits.
  Wide t = sh >= 0 ? rha_wide(p, static_cast<unsigned>(sh)) : p * (Wide{1} << -sh);
  if (sh > 0 && p < 0 && (-p) % (Wide{1} << sh) == (Wide{1} << (sh - 1)) && planted("cdp.negative_ties")) ++t;
  return sat16(Wide{y} + t);
}

int64_t cdp_exponent_uflow_anchor(int64_t start, int offset) {
  if (offset < 0) return start;
  const int64_t bias = offset < 39 ? int64_t{1} << offset : 0;
  return num::sx(start + bias, 39);
}

uint32_t cdp_exponent_uflow_anchor_fp(uint32_t start, int offset) {
  return num::add32(start, (static_cast<uint32_t>(offset + 127) & 0xffu) << 23);
}

LutChoice CdpLut::choose(LutClass le, LutClass lo) const {
  LutSettings s = s_;
  if (le == LutClass::Hit && lo == LutClass::Hit && planted("cdp.lut_priority"))
    s.hybrid_priority_lo = !s.hybrid_priority_lo;
  return lut_choose(le, lo, s);
}

LutIndex CdpLut::index_int(LutTableId t, int64_t s) const {
  const bool le = t == LutTableId::LE;
  const int64_t d = s - (le ? le_cmp_ : lo_cmp_);
  if (le && !s_.le_linear) return lut_exponent_index(d, s_.le_index_offset, kFractionBits);
  return lut_linear_index(d, le ? s_.le_index_select : s_.lo_index_select, LutTables::last(t), kFractionBits);
}

LutIndex CdpLut::index_fp(LutTableId t, uint32_t s) const {
  const bool le = t == LutTableId::LE;
  const uint32_t d = num::sub32(s, static_cast<uint32_t>(le ? s_.le_start : s_.lo_start));
  if (le && !s_.le_linear) return lut_fp_exponent_index(d, s_.le_index_offset, kFractionBits);
  return lut_fp_linear_index(d, le ? s_.le_index_select : s_.lo_index_select, LutTables::last(t), kFractionBits);
}

CdpLutOutcome CdpLut::evaluate_int(int64_t s) const {
  CdpLutOutcome o;
  const LutIndex le = index_int(LutTableId::LE, s), lo = index_int(LutTableId::LO, s);
  o.le = le.cls;
  o.lo = lo.cls;
  o.choice = choose(le.cls, lo.cls);
  const LutIndex& c = o.choice.table == LutTableId::LE ? le : lo;
  const int64_t y0 = static_cast<int16_t>(t_.at(o.choice.table, c.index));
  int64_t r = 0;
  if (o.choice.cls == LutClass::Hit) {
    const int64_t y1 = static_cast<int16_t>(t_.at(o.choice.table, c.index + 1));
    r = cdp_interp(y0, y1, y0, static_cast<int64_t>(c.fraction), 16);
  } else {
    const Extrapolation ex = extrapolation(s_, o.choice);
    const int64_t anchor = exponent_underflow(s_, o.choice) ? cdp_exponent_uflow_anchor(ex.anchor, s_.le_index_offset)
                                                            : ex.anchor;
    r = cdp_interp(y0, s, anchor, static_cast<int16_t>(ex.scale), ex.shift);
  }
  o.value = static_cast<uint32_t>(static_cast<int32_t>(r));
  return o;
}

CdpLutOutcome CdpLut::evaluate_fp(uint32_t s) const {
  CdpLutOutcome o;
  const LutIndex le = index_fp(LutTableId::LE, s), lo = index_fp(LutTableId::LO, s);
  o.le = le.cls;
  o.lo = lo.cls;
  o.choice = choose(le.cls, lo.cls);
  const LutIndex& c = o.choice.table == LutTableId::LE ? le : lo;
  const uint16_t y0 = t_.at(o.choice.table, c.index);
  if (o.choice.cls == LutClass::Hit) {
    const uint16_t y1 = t_.at(o.choice.table, c.index + 1);
    const uint32_t dy = num::fp32_to_fp17(num::sub32(num::fp16_to_fp32(y1), num::fp16_to_fp32(y0)));
    const uint32_t prod = num::mul17(dy, num::u16_to_fp17(static_cast<uint16_t>(c.fraction)));
    o.value = num::add17(prod, num::fp16_to_fp17(y0));
    return o;
  }
  const Extrapolation ex = extrapolation(s_, o.choice);
  const uint32_t anchor = static_cast<uint32_t>(ex.anchor);
  const uint32_t dx = exponent_underflow(s_, o.choice)
                          ? num::sub32(s, cdp_exponent_uflow_anchor_fp(anchor, s_.le_index_offset))
                          : num::sub32(s, anchor);
  const uint32_t prod = num::mul17(num::fp32_to_fp17(dx), num::fp16_to_fp17(ex.scale));
  o.value = num::add17(prod, num::fp16_to_fp17(y0));
  return o;
}

}  // namespace dla::golden
