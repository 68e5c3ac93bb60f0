// The fp16 arithmetic of the convolution RTL (rtl/conv/dla_cmac_fp16.sv, dla_conv_fp_pkg.sv),
// Verilated on its own through conv_fp16/dla_conv_fp16.sv, against the golden numerics
// (dla::num::cmac_fp16_dot, cmac_fp16_grouped_dot, CaccFp48, winograd_pra_fp16): seeded
// random cells, accumulator steps and PRA windows,
// biased towards what makes the arithmetic hard (every alignment distance, inactive +-0
// lanes, NaN in weights and data, infinities, subnormals, cancellation, overflow).
#define BOOST_TEST_MODULE dla_rtl_conv_fp16
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <random>

#include "Vconv_fp16.h"
#include "dla/numerics/conv_fp16.h"
#include "dla/numerics/winograd.h"
#include "verilated.h"

namespace {

using namespace dla::num;

constexpr uint64_t kMask38 = (uint64_t{1} << 38) - 1;
constexpr uint64_t kMask40 = (uint64_t{1} << 40) - 1;

struct Dut {
  std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
  std::unique_ptr<Vconv_fp16> m = std::make_unique<Vconv_fp16>(ctx.get());
  // One cell operation: lanes loaded, a rising edge with en = 1.
  void cell(const uint16_t* w, const uint16_t* d, bool wino) {
    for (unsigned i = 0; i < 64; ++i) {
      const unsigned word = i / 2, sh = (i % 2) * 16;
      m->w[word] = (m->w[word] & ~(0xFFFFu << sh)) | (uint32_t{w[i]} << sh);
      m->d[word] = (m->d[word] & ~(0xFFFFu << sh)) | (uint32_t{d[i]} << sh);
    }
    m->wino = wino;
    m->en = 1;
    m->clk = 0;
    m->eval();
    m->clk = 1;
    m->eval();
    m->en = 0;
  }
  // Output o of the cell: 38 bits at [o*38 +: 38] of the 152-bit y.
  uint64_t y(unsigned o) const {
    uint64_t v = 0;
    for (unsigned b = 0; b < 38; ++b) {
      const unsigned bit = o * 38 + b;
      v |= uint64_t{(m->y[bit / 32] >> (bit % 32)) & 1u} << b;
    }
    return v;
  }
  void acc_in(unsigned ea, uint64_t ma, unsigned eb, uint64_t mb) {
    m->acc = (uint64_t{ea & 0xFFu} << 40) | (ma & kMask40);
    m->eb = eb;
    m->mb = mb & kMask38;
    m->eval();
  }
};

Dut& dut() {
  static Dut d;
  return d;
}

// An fp16 lane: mostly moderate values around an exponent centre, else a special.
uint16_t lane(std::mt19937_64& g, unsigned centre) {
  const uint16_t s = static_cast<uint16_t>((g() & 1) << 15);
  const uint16_t f = static_cast<uint16_t>(g() & 0x3FF);
  switch (g() % 40) {
    case 0: return s;                                   // +-0: inactive lane
    case 1: return static_cast<uint16_t>(s | f);        // subnormal
    case 2: return static_cast<uint16_t>(s | 0x7C00);   // infinity (the finite 2^16 here)
    case 3: return static_cast<uint16_t>(s | 0x7BFF);   // largest finite
    case 4: return static_cast<uint16_t>(g() & 0xFFFF); // anything, NaN included
    default: {
      const int e = static_cast<int>(centre) + static_cast<int>(g() % 13) - 6;
      return static_cast<uint16_t>(s | (static_cast<uint16_t>(e < 0 ? 0 : e > 30 ? 30 : e) << 10) | f);
    }
  }
}

void random_lanes(std::mt19937_64& g, uint16_t* w, uint16_t* d) {
  const unsigned cw = static_cast<unsigned>(g() % 31), cd = static_cast<unsigned>(g() % 31);
  const bool quiet = g() % 4 != 0;  // most cells without any NaN lane
  for (unsigned i = 0; i < 64; ++i) {
    do w[i] = lane(g, cw); while (quiet && fp16_is_nan(w[i]));
    do d[i] = lane(g, cd); while (quiet && fp16_is_nan(d[i]));
  }
}

unsigned failures = 0;
void mismatch(bool ok, const char* what, unsigned i) {
  if (ok) return;
  if (++failures <= 10) BOOST_ERROR(what << " differs from the golden numerics at case " << i);
}

}  // namespace

BOOST_AUTO_TEST_CASE(cmac_direct_cell_matches_golden) {
  failures = 0;
  std::mt19937_64 g(16);
  uint16_t w[64], d[64];
  for (unsigned i = 0; i < 20000; ++i) {
    random_lanes(g, w, d);
    dut().cell(w, d, false);
    const CmacFp16Sum ref = cmac_fp16_dot(w, d, 64);
    mismatch(dut().m->x == ref.exp, "CMAC exponent", i);
    mismatch(dut().y(0) == (static_cast<uint64_t>(ref.mant) & kMask38), "CMAC mantissa", i);
  }
  BOOST_TEST(failures == 0u);
}

BOOST_AUTO_TEST_CASE(cmac_winograd_cell_matches_golden) {
  failures = 0;
  std::mt19937_64 g(64);
  uint16_t w[64], d[64];
  for (unsigned i = 0; i < 10000; ++i) {
    random_lanes(g, w, d);
    dut().cell(w, d, true);
    CmacFp16Sum q[16];
    cmac_fp16_grouped_dot(w, d, 64, 4, q);
    std::array<uint64_t, 4> y{};
    if (q[0].exp == kCmacFp16NanExp) {
      y.fill(static_cast<uint64_t>(q[0].mant) & kMask38);
    } else {
      std::array<int64_t, 16> m{};
      for (unsigned p = 0; p < 16; ++p) m[p] = q[p].mant;
      const std::array<int64_t, 4> t = winograd_output_transform(m);
      for (unsigned o = 0; o < 4; ++o) y[o] = static_cast<uint64_t>(t[o]) & kMask38;
    }
    mismatch(dut().m->x == q[0].exp, "Winograd exponent", i);
    for (unsigned o = 0; o < 4; ++o) mismatch(dut().y(o) == y[o], "Winograd output", i);
  }
  BOOST_TEST(failures == 0u);
}

// Chains of accumulations as CACC runs them (from 0, partials of similar or far exponents,
// with cancellation), and steps from arbitrary states; each state also converted to fp32.
BOOST_AUTO_TEST_CASE(cacc_fp48_steps_and_fp32_conversion_match_golden) {
  failures = 0;
  std::mt19937_64 g(48);
  for (unsigned chain = 0; chain < 20000; ++chain) {
    CaccFp48 ref = chain % 4 == 3 ? CaccFp48(static_cast<unsigned>(g() & 0xFF), static_cast<int64_t>(g()))
                                  : CaccFp48();
    const unsigned centre = static_cast<unsigned>(g() % 57);
    for (unsigned step = 0; step < 12; ++step) {
      unsigned eb = static_cast<unsigned>(std::min<uint64_t>(56, centre + g() % 9)) & ~3u;
      int64_t mb = static_cast<int64_t>(g()) >> (26 + g() % 38);          // magnitudes of every size
      if (g() % 8 == 0) mb = -(ref.mant() >> (g() % 3));                   // near-cancellation
      if (g() % 200 == 0) {                                                // a NaN partial
        eb = kCmacFp16NanExp;
        mb = cmac_fp16_nan_sum(static_cast<uint16_t>(0x7C01 | (g() & 0x83FF))).mant;
      }
      dut().acc_in(ref.exp(), static_cast<uint64_t>(ref.mant()), eb, static_cast<uint64_t>(mb));
      mismatch(dut().m->acc_fp32 == ref.to_fp32(), "fp32 conversion", chain);
      ref.add(CmacFp16Sum{eb, mb});
      const uint64_t got = dut().m->acc_next;
      mismatch((got >> 40) == ref.exp(), "accumulator exponent", chain);
      mismatch((got & kMask40) == (static_cast<uint64_t>(ref.mant()) & kMask40), "accumulator mantissa", chain);
    }
  }
  BOOST_TEST(failures == 0u);
}

// The fp16 PRA (17-bit float rows then columns, narrowed to fp16) on all four channels of the
// module's 64 lanes at once.
BOOST_AUTO_TEST_CASE(winograd_pra_fp16_matches_golden) {
  failures = 0;
  std::mt19937_64 g(17);
  for (unsigned i = 0; i < 50000; ++i) {
    std::array<std::array<uint16_t, 16>, 4> tile{};
    const unsigned centre = static_cast<unsigned>(g() % 31);
    for (auto& t : tile)
      for (auto& e : t) e = lane(g, centre);
    for (unsigned l = 0; l < 64; ++l) {
      const unsigned word = l / 2, sh = (l % 2) * 16;
      dut().m->pra_in[word] = (dut().m->pra_in[word] & ~(0xFFFFu << sh)) | (uint32_t{tile[l % 4][l / 4]} << sh);
    }
    dut().m->eval();
    for (unsigned c = 0; c < 4; ++c) {
      const std::array<uint16_t, 16> ref = winograd_pra_fp16(tile[c]);
      for (unsigned p = 0; p < 16; ++p) {
        const unsigned l = 4 * p + c;
        mismatch(((dut().m->pra_out[l / 2] >> ((l % 2) * 16)) & 0xFFFFu) == ref[p], "PRA output", i);
      }
    }
  }
  BOOST_TEST(failures == 0u);
}
