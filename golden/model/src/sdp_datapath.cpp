#include "sdp_datapath.h"

#include <algorithm>

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/integer_ops.h"
#include "dla/planted_bug.h"

namespace dla::golden {

namespace {

using num::kFp16;
using num::kFp32;

uint32_t bits(int64_t v) { return static_cast<uint32_t>(static_cast<int32_t>(v)); }
int64_t sint(uint32_t v) { return static_cast<int32_t>(v); }
int64_t s16(uint16_t v) { return static_cast<int16_t>(v); }

}  // namespace

uint32_t SdpDatapath::flush_nan32(uint32_t v) const { return l_.nan_to_zero && kFp32.is_nan(v) ? 0u : v; }
uint16_t SdpDatapath::flush_nan16(uint16_t v) const { return l_.nan_to_zero && kFp16.is_nan(v) ? uint16_t{0} : v; }

uint32_t SdpDatapath::x_stage(const SdpXStage& st, uint32_t x, uint16_t mem_alu, uint16_t mem_mul) const {
  if (st.bypass) return x;
  const uint16_t alu_op = st.alu_from_mem ? mem_alu : st.alu_operand;
  const uint16_t mul_op = st.mul_from_mem ? mem_mul : st.mul_operand;
  if (!l_.fp()) {  // sdp.md §6.1
    const int64_t xi = sint(x);
    int64_t a = xi;
    if (!st.alu_bypass) {
      const int64_t op = num::lsh_sat(s16(alu_op), st.alu_shift, 32);
      switch (st.alu_algo) {
        case SdpAluAlgo::Max: a = std::max(xi, op); break;
        case SdpAluAlgo::Min: a = std::min(xi, op); break;
        default: a = xi + op; break;  // SUM; code 3 acts as SUM (§15 item 9)
      }
    }
    int64_t t = 0;
    if (!st.mul_bypass && st.prelu && a >= 0) {
      t = num::wrap(a, 32);
    } else {
      const int64_t p = st.mul_bypass ? a : a * s16(mul_op);
      t = num::rsh_sat(p, st.mul_shift, 32);  // also when MUL is bypassed
    }
    if (!st.relu_bypass) t = std::max<int64_t>(t, 0);
    return bits(t);
  }
  // sdp.md §6.2
  const uint32_t op = num::fp16_to_fp32(flush_nan16(alu_op));
  const uint32_t mop = num::fp16_to_fp32(flush_nan16(mul_op));
  uint32_t a = x;
  if (!st.alu_bypass) {
    switch (st.alu_algo) {
      case SdpAluAlgo::Max: a = num::fmax(kFp32, x, op); break;
      case SdpAluAlgo::Min: a = num::fmin(kFp32, x, op); break;
      case SdpAluAlgo::Sum: a = num::add32(x, op); break;
      case SdpAluAlgo::Eql: a = x == op ? 0u : 1u; break;  // integer 0/1 (§15 item 9)
    }
  }
  uint32_t m = a;
  if (!st.mul_bypass && !(st.prelu && kFp32.sign(a) == 0)) m = num::mul32(a, mop);
  return st.relu_bypass ? m : num::frelu(kFp32, m);
}

uint32_t SdpDatapath::ew_operand(const SdpEwConverter& cvt, uint16_t mem) const {
  if (l_.fp()) return num::fp16_to_fp32(flush_nan16(mem));  // converter ignored (§7.1)
  const int64_t e = s16(mem);
  if (cvt.bypass) return bits(e);
  return bits(num::rsh_sat((e - cvt.offset) * cvt.scale, cvt.truncate, 32));
}

uint32_t SdpDatapath::y_stage(uint32_t x, uint16_t mem_alu, uint16_t mem_mul, SdpElementResult& r) const {
  const SdpYStage& y = l_.ew;
  if (y.bypass) return x;
  const uint32_t alu_op = y.alu_from_mem ? ew_operand(y.alu_cvt, mem_alu) : y.alu_operand;
  const uint32_t mul_op = y.mul_from_mem ? ew_operand(y.mul_cvt, mem_mul) : y.mul_operand;
  uint32_t m = x, v = 0;
  if (!l_.fp()) {  // sdp.md §7.2, §7.3 integer
    const int64_t xi = sint(x);
    if (!y.mul_bypass && !(y.prelu && xi >= 0)) m = bits(num::rsh_sat(xi * sint(mul_op), y.truncate, 32));
    const int64_t mi = sint(m), oi = sint(alu_op);
    int64_t a = mi;
    if (!y.alu_bypass) {
      switch (y.alu_algo) {
        case SdpAluAlgo::Max: a = std::max(mi, oi); break;
        case SdpAluAlgo::Min: a = std::min(mi, oi); break;
        case SdpAluAlgo::Sum: a = num::sat(mi + oi, 32); break;
        case SdpAluAlgo::Eql: a = mi == oi ? 0 : 1; break;
      }
    }
    v = bits(a);
  } else {
    if (!y.mul_bypass && !(y.prelu && kFp32.sign(x) == 0)) m = num::mul32(x, mul_op);
    v = m;
    if (!y.alu_bypass) {
      switch (y.alu_algo) {
        case SdpAluAlgo::Max: v = num::fmax(kFp32, m, alu_op); break;
        case SdpAluAlgo::Min: v = num::fmin(kFp32, m, alu_op); break;
        case SdpAluAlgo::Sum: v = num::add32(m, alu_op); break;
        case SdpAluAlgo::Eql: v = m == alu_op ? 0u : 1u; break;
      }
    }
  }
  if (y.lut_bypass) return v;
  r.lut_used = true;
  r.lut = lut_.evaluate(v);
  return r.lut.value;
}

void SdpDatapath::c_stage(uint32_t z, SdpElementResult& r) const {
  r.z = z;
  if (!l_.fp()) {  // sdp.md §9.1
    const int64_t p = (sint(z) - l_.cvt_offset) * int64_t{l_.cvt_scale};
    int64_t t = num::rsh_sat(p, l_.cvt_shift, 17);
    if (l_.cvt_shift > 0 && planted("sdp.rounding"))  // checker proof: ties toward +inf
      t = num::sat((p + (int64_t{1} << (l_.cvt_shift - 1))) >> l_.cvt_shift, 17);
    switch (l_.out) {
      case Precision::Int8: r.out = static_cast<uint16_t>(static_cast<uint8_t>(num::sat(t, 8))); break;
      case Precision::Int16: r.out = static_cast<uint16_t>(num::sat(t, 16)); break;
      case Precision::Fp16: r.out = num::int17_to_fp16_saturating(static_cast<int32_t>(t)); break;
    }
    r.cvt_saturated = l_.sat_flag_range ? num::sdp_cvt_saturation_flag_range(p, l_.cvt_shift) && !l_.ew.eql_mode()
                                        : num::sdp_cvt_saturation_flag(p, l_.cvt_shift);
  } else {  // sdp.md §9.2
    const uint16_t h = num::fp32_to_fp16(z);
    r.out = l_.out == Precision::Int16 ? static_cast<uint16_t>(num::fp16_to_int16(h)) : h;
    r.cvt_saturated = false;
  }
  if (l_.ew.eql_mode()) r.out = static_cast<uint16_t>(z);  // §9.3 pass-through
}

SdpElementResult SdpDatapath::process(uint32_t x, const SdpElementOperands& ops) const {
  SdpElementResult r;
  uint32_t v = l_.fp() ? flush_nan32(x) : x;
  v = x_stage(l_.bs, v, ops.bs_alu, ops.bs_mul);
  v = x_stage(l_.bn, v, ops.bn_alu, ops.bn_mul);
  v = y_stage(v, ops.ew_alu, ops.ew_mul, r);
  c_stage(v, r);
  return r;
}

}  // namespace dla::golden
