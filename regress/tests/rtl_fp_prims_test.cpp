// The shared float primitives of rtl/common (dla_fp_add, dla_fp_mul, dla_fp_maxmin,
// dla_fp_widen, dla_fp_narrow), Verilated on their own through fp_prims/dla_fp_prims.sv, against
// the golden numerics (dla::num) that the scoreboards use: every parameter set the units
// instantiate. Unary conversions of fp16 and fp17 inputs are exhaustive; the others and every
// binary operator are seeded random, biased towards close exponents, specials (zeros, NaN, the
// Inf pattern, the largest finite value, subnormals) and rounding ties.
#define BOOST_TEST_MODULE dla_rtl_fp_prims
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "Vfp_prims.h"
#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/float_format.h"
#include "verilated.h"

namespace {

using namespace dla::num;

struct Dut {
  std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
  std::unique_ptr<Vfp_prims> m = std::make_unique<Vfp_prims>(ctx.get());
  void eval(uint32_t a, uint32_t b) {
    m->a = a;
    m->b = b;
    m->eval();
  }
};

Dut& dut() {
  static Dut d;
  return d;
}

// A mismatch report names the primitive, the operands and both results (hex).
struct Checker {
  unsigned failures = 0;
  void expect(const char* what, uint32_t a, uint32_t b, uint32_t rtl, uint32_t ref) {
    if (rtl == ref) return;
    if (++failures <= 10)
      BOOST_ERROR(what << "(0x" << std::hex << a << ", 0x" << b << "): rtl 0x" << rtl << ", golden 0x" << ref);
  }
  ~Checker() { BOOST_TEST(failures == 0u, failures << " mismatches"); }
};

// Random operand of format f: mostly uniform, else a special, a subnormal or a value whose
// exponent is near `near_exp` (so additions align and cancel, products reach the limits).
uint32_t operand(std::mt19937_64& g, FloatFormat f, uint32_t near_exp) {
  const uint32_t s = g() & 1, m = static_cast<uint32_t>(g()) & f.man_mask();
  switch (g() % 10) {
    case 0: {
      const uint32_t specials[] = {f.zero(0),        f.zero(1),         f.pack(s, f.emax(), 0),
                                   f.pack(s, f.emax(), m | 1), f.max_finite(s), f.pack(s, 1, 0),
                                   f.pack(s, f.emax() - 1, 0), f.pack(s, f.bias(), 0)};
      return specials[g() % 8];
    }
    case 1: return f.pack(s, 0, m);
    case 2: case 3: case 4: {
      const int e = static_cast<int>(near_exp) + static_cast<int>(g() % 29) - 14;
      return f.pack(s, static_cast<uint32_t>(std::clamp(e, 0, static_cast<int>(f.emax()))), m);
    }
    case 5: return f.pack(s, static_cast<uint32_t>(g() % (f.emax() + 1)), m & ~0xfu);  // short mantissas: ties
    default: return static_cast<uint32_t>(g()) & f.mask();
  }
}

void binary(FloatFormat f, unsigned n, uint64_t seed) {
  std::mt19937_64 g(seed);
  Checker c;
  const bool is32 = f.exp_bits == 8, is17 = f.exp_bits == 6;
  for (unsigned i = 0; i < n; ++i) {
    const uint32_t a = operand(g, f, static_cast<uint32_t>(g() % (f.emax() + 1)));
    const uint32_t b = operand(g, f, f.exp(a));
    dut().eval(a, b);
    const Vfp_prims& m = *dut().m;
    if (is32) {
      c.expect("add32", a, b, m.add32, fadd(f, a, b));
      c.expect("mul32", a, b, m.mul32, fmul(f, a, b));
      c.expect("max32", a, b, m.max32, fmax(f, a, b));
      c.expect("min32", a, b, m.min32, fmin(f, a, b));
    } else if (is17) {
      c.expect("add17", a, b, m.add17, add17(a, b));
      c.expect("mul17", a, b, m.mul17, mul17(a, b));
    } else {
      c.expect("max16", a, b, m.max16, max16(static_cast<uint16_t>(a), static_cast<uint16_t>(b)));
      c.expect("min16", a, b, m.min16, min16(static_cast<uint16_t>(a), static_cast<uint16_t>(b)));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(widen_and_narrow_every_fp16_and_fp17_input) {
  Checker c;
  for (uint32_t x = 0; x < (1u << 17); ++x) {
    dut().eval(x, 0);
    const Vfp_prims& m = *dut().m;
    if (x < (1u << 16)) {
      c.expect("widen fp16->fp32", x, 0, m.w16to32, widen(kFp16, kFp32, x, true));
      c.expect("widen fp16->fp17", x, 0, m.w16to17, widen(kFp16, kFp17, x, true));
      c.expect("fp16_to_fp17", x, 0, m.w16to17, fp16_to_fp17(static_cast<uint16_t>(x)));
    }
    c.expect("widen fp17->fp32", x, 0, m.w17to32, widen(kFp17, kFp32, x, false));
    c.expect("narrow fp17->fp16", x, 0, m.n17to16, narrow(kFp17, kFp16, x, true));
    c.expect("fp17_to_fp16", x, 0, m.n17to16, fp17_to_fp16(x));
  }
}

BOOST_AUTO_TEST_CASE(narrow_fp32_random_and_every_exponent) {
  Checker c;
  std::mt19937_64 g(17);
  for (unsigned i = 0; i < 2'000'000; ++i) {
    uint32_t x = static_cast<uint32_t>(g());
    if (i < (1u << 9) * 64) x = (i >> 6) << 23 | (static_cast<uint32_t>(g()) & 0x7fffff) >> (i & 31);  // each sign+exponent
    dut().eval(x, 0);
    c.expect("narrow fp32->fp16", x, 0, dut().m->n32to16, narrow(kFp32, kFp16, x, true));
    c.expect("narrow fp32->fp17", x, 0, dut().m->n32to17, narrow(kFp32, kFp17, x, false));
  }
}

BOOST_AUTO_TEST_CASE(fp32_add_mul_max_min_random) { binary(kFp32, 2'000'000, 32); }
BOOST_AUTO_TEST_CASE(fp17_add_mul_random) { binary(kFp17, 2'000'000, 17); }
BOOST_AUTO_TEST_CASE(fp16_max_min_random) { binary(kFp16, 1'000'000, 16); }
