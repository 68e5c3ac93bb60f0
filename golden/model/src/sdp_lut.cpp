#include "sdp_lut.h"

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/integer_ops.h"
#include "dla/planted_bug.h"

namespace dla::golden {

namespace {

using num::kFp32;

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

bool biased(const LutSettings& s, LutChoice c) {
  return c.table == LutTableId::LE && !s.le_linear && c.cls == LutClass::Underflow;
}

int select_of(const LutSettings& s, LutTableId t) { return t == LutTableId::LE ? s.le_index_select : s.lo_index_select; }
int64_t start_of(const LutSettings& s, LutTableId t) { return t == LutTableId::LE ? s.le_start : s.lo_start; }

// lut_choose, plus the checker-proof plant that ignores the priority when both tables hit.
LutChoice sdp_lut_choose(LutClass le, LutClass lo, const LutSettings& s) {
  LutChoice c = lut_choose(le, lo, s);
  if (le == LutClass::Hit && lo == LutClass::Hit && planted("sdp.lut_priority")) c.table = LutTableId::LE;
  return c;
}

}  // namespace

int64_t sdp_lut_int_bias(int offset) { return offset >= 0 && offset <= 31 ? int64_t{1} << offset : 0; }

uint32_t sdp_lut_fp_bias(int offset) { return (static_cast<uint32_t>(offset + 127) & 0xffu) << 23; }

LutIndex SdpLut::index_int(LutTableId t, int32_t x) const {
  const int64_t start = static_cast<int32_t>(start_of(s_, t));
  const int64_t d = int64_t{x} - start;
  const unsigned last = LutTables::last(t);
  if (t == LutTableId::LE && !s_.le_linear) return lut_exponent_index(d, s_.le_index_offset, kFractionBits);
  const int sel = select_of(s_, t);
  LutIndex r = lut_linear_index(d, sel, last, kFractionBits);
  // sdp.md §15 item 6 (v1 HLS): the LE fraction path sign-extends the 32-bit difference to
  // 35 bits before shifting when SEL >= 33.
  if (t == LutTableId::LE && sel >= 33 && d >= (int64_t{1} << 31) && r.cls == LutClass::Hit) {
    const uint64_t widened = static_cast<uint64_t>(d) + (uint64_t{1} << 35) - (uint64_t{1} << 32);
    const uint64_t mask35 = (uint64_t{1} << 35) - 1;
    r.fraction = sel <= 35 ? (widened << (35 - sel)) & mask35
                           : (sel - 35 >= 64 ? 0 : widened >> (sel - 35));
  }
  return r;
}

LutIndex SdpLut::index_fp(LutTableId t, uint32_t x) const {
  const uint32_t d = num::sub32(x, static_cast<uint32_t>(start_of(s_, t)));
  if (t == LutTableId::LE && !s_.le_linear) return lut_fp_exponent_index(d, s_.le_index_offset, kFractionBits);
  return lut_fp_linear_index(d, select_of(s_, t), LutTables::last(t), kFractionBits);
}

SdpLutOutcome SdpLut::evaluate_int(int32_t x) const {
  SdpLutOutcome o;
  const LutIndex le = index_int(LutTableId::LE, x), lo = index_int(LutTableId::LO, x);
  o.le = le.cls;
  o.lo = lo.cls;
  o.choice = sdp_lut_choose(le.cls, lo.cls, s_);
  const LutIndex& c = o.choice.table == LutTableId::LE ? le : lo;
  if (o.choice.cls == LutClass::Hit) {
    const int64_t y0 = static_cast<int16_t>(t_.at(o.choice.table, c.index));
    const int64_t y1 = static_cast<int16_t>(t_.at(o.choice.table, c.index + 1));
    const int64_t f = static_cast<int64_t>(c.fraction);
    const int64_t sum = y0 * ((int64_t{1} << kFractionBits) - f) + y1 * f;
    o.value = static_cast<uint32_t>(num::rsh_sat(sum, kFractionBits, 32));
    return o;
  }
  const Extrapolation ex = extrapolation(s_, o.choice);
  const int64_t anchor = static_cast<int32_t>(ex.anchor) + (biased(s_, o.choice) ? sdp_lut_int_bias(s_.le_index_offset) : 0);
  const int64_t y0 = static_cast<int16_t>(t_.at(o.choice.table, c.index));
  const int64_t product = (int64_t{x} - anchor) * static_cast<int16_t>(ex.scale);
  o.value = static_cast<uint32_t>(num::sat(y0 + num::srs_sat(product, ex.shift, 32), 32));
  return o;
}

SdpLutOutcome SdpLut::evaluate_fp(uint32_t x) const {
  SdpLutOutcome o;
  const LutIndex le = index_fp(LutTableId::LE, x), lo = index_fp(LutTableId::LO, x);
  o.le = le.cls;
  o.lo = lo.cls;
  o.choice = sdp_lut_choose(le.cls, lo.cls, s_);
  const LutIndex& c = o.choice.table == LutTableId::LE ? le : lo;
  const uint16_t y0 = t_.at(o.choice.table, c.index);
  if (o.choice.cls == LutClass::Hit) {
    const uint16_t y1 = t_.at(o.choice.table, c.index + 1);
    constexpr uint32_t kOneFp17 = 0x07C00;
    const uint32_t a0 = c.fraction == 0 ? kOneFp17 : num::frac35_to_fp17((uint64_t{1} << kFractionBits) - c.fraction);
    const uint32_t a1 = num::frac35_to_fp17(c.fraction);
    const uint32_t b0 = num::mul17(a0, num::fp16_to_fp17(y0));
    const uint32_t b1 = num::mul17(a1, num::fp16_to_fp17(y1));
    o.value = num::fp17_to_fp32(num::add17(b0, b1));
    return o;
  }
  const Extrapolation ex = extrapolation(s_, o.choice);
  const uint32_t bias = biased(s_, o.choice) ? sdp_lut_fp_bias(s_.le_index_offset) : 0u;
  const uint32_t pb = num::add32(static_cast<uint32_t>(ex.anchor), bias);
  const uint32_t dx = num::sub32(x, pb);
  const uint32_t b = num::mul17(num::fp32_to_fp17(dx), num::fp16_to_fp17(ex.scale));
  o.value = num::fp17_to_fp32(num::add17(num::fp16_to_fp17(y0), b));
  return o;
}

}  // namespace dla::golden
