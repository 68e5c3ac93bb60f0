// The worked numeric examples of the spec documents, recomputed with the primitives.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/integer_ops.h"
#include "dla/numerics/precision_convert.h"

namespace dla::num {
namespace {

// pdp_cdp_bdma_rubik_glb.md §7.1: int8 average pooling 3x3, stride 2, padding 1, pad -3.
TEST(PdpWorkedExample, Int8AveragePooling3x3) {
  const int in[4][4] = {{10, -20, 30, 7}, {5, 100, -128, 64}, {-127, 0, -1, 3}, {-50, 25, 12, 9}};
  const int64_t pad_value[8] = {0, sx(0x7FFFD, 19), sx(0x7FFFA, 19), sx(0x7FFF7, 19), sx(0x7FFF4, 19),
                                sx(0x7FFF1, 19), sx(0x7FFEE, 19), sx(0x7FFEB, 19)};
  const int64_t recip = 0x5555, k = 3;
  int64_t out[2][2];
  for (int oy = 0; oy < 2; ++oy)
    for (int ox = 0; ox < 2; ++ox) {
      int64_t t = 0;
      int real_rows = 0;
      for (int y = 2 * oy - 1; y < 2 * oy + 2; ++y) {
        if (y < 0 || y >= 4) continue;
        ++real_rows;
        int64_t r = 0;
        int real_cols = 0;
        for (int x = 2 * ox - 1; x < 2 * ox + 2; ++x)
          if (x >= 0 && x < 4) {
            r += in[y][x];
            ++real_cols;
          }
        if (k - real_cols > 0) r += pad_value[k - real_cols];
        t += wrap(r, 11);
      }
      if (k - real_rows > 0) t += wrap(pad_value[k - real_rows] * k, 19);
      t = wrap(t, 14);
      const int64_t a = pdp_round_narrow(t * recip, 11);
      out[oy][ox] = pdp_round_narrow(a * recip, 8);
    }
  EXPECT_EQ(out[0][0], 9);
  EXPECT_EQ(out[0][1], 5);
  EXPECT_EQ(out[1][0], -6);
  EXPECT_EQ(out[1][1], 9);
  // Intermediate values quoted in the text.
  EXPECT_EQ(pdp_round_narrow(80 * 21845, 11), 27);
  EXPECT_EQ(pdp_round_narrow(-56 * 21845, 11), -19);
  // Tie rounding: 2x2 average, RECIP 0x8000, T = -10.
  EXPECT_EQ(pdp_round_narrow(pdp_round_narrow(-10 * 0x8000, 11) * 0x8000, 8), -3);
}

// pdp_cdp_bdma_rubik_glb.md §7.2: int8 LRN, n = 5, ATOM = 8.
TEST(CdpWorkedExample, Int8LrnThroughTheLut) {
  const std::array<int64_t, 6> x = {20, -7, 0, 45, 2, -90};
  const OffsetScaleShift icvt{2, 3, 1, 9};
  std::array<int64_t, 8> xc{};  // lanes 6, 7 are pad lanes: converted value 0
  for (size_t c = 0; c < x.size(); ++c) xc[c] = icvt(x[c]);
  EXPECT_EQ(xc, (std::array<int64_t, 8>{27, -14, -3, 65, 0, -138, 0, 0}));
  std::array<int64_t, 8> sum{};
  for (int c = 0; c < 8; ++c)
    for (int j = c - 2; j <= c + 2; ++j)
      if (j >= 0 && j < 8) sum[static_cast<size_t>(c)] += xc[static_cast<size_t>(j)] * xc[static_cast<size_t>(j)];
  EXPECT_EQ(sum, (std::array<int64_t, 8>{934, 5159, 5159, 23474, 23278, 23269, 19044, 19044}));
  // INTERP(Y, X1, X0, G, 16) = sat_16(Y + rha((X1 - X0) * G, 16)) for c = 3.
  const auto interp = [](int64_t y, int64_t x1, int64_t x0, int64_t g) {
    return sat(y + rha((x1 - x0) * g, 16), 16);
  };
  EXPECT_EQ(interp(9800, 6306, 9800, 28360), 8288);  // LE hit
  EXPECT_EQ(interp(7852, 7825, 7852, 25600), 7841);  // LO hit (-10.55 -> -11)
  const std::array<int64_t, 8> lut = {28091, 17780, 17780, 7841, 7883, 7885, 8942, 8942};
  const OffsetScaleShift ocvt{0, 1, 15, 8};
  std::vector<uint8_t> bytes;
  for (size_t c = 0; c < 8; ++c) bytes.push_back(static_cast<uint8_t>(ocvt(lut[c] * xc[c])));
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x17, 0xF8, 0xFE, 0x10, 0x00, 0xDF, 0x00, 0x00}));
  EXPECT_FALSE(cdp_ocvt_saturation_flag(7841 * 65, 15, 16));
}

// pdp §1.8: fp17 constants quoted for K and 1/3.
TEST(PdpWorkedExample, Fp17Constants) {
  const uint32_t ks[8] = {0x07C00, 0x08000, 0x08200, 0x08400, 0x08500, 0x08600, 0x08700, 0x08800};
  for (int k = 1; k <= 8; ++k) EXPECT_EQ(to_double(kFp17, ks[k - 1]), k) << k;
  EXPECT_EQ(kFp17.exp(0x07555), 29u);
  EXPECT_EQ(kFp17.man(0x07555), 0x155u);
  // 3 * (1/3) in fp17 rounds back to 1.0 (0x07C00).
  EXPECT_EQ(mul17(0x08200, 0x07555), 0x07C00u);
  // Average of 3 elements through add17/mul17, then narrowed: (1 + 2 + 3) / 3 = 2.
  uint32_t acc = fp16_to_fp17(0x3C00);
  acc = add17(acc, fp16_to_fp17(0x4000));
  acc = add17(acc, fp16_to_fp17(0x4200));
  EXPECT_EQ(fp17_to_fp16(mul17(acc, 0x07555)), 0x4000);
}

// sdp.md §13.1: INT8 BS + BN + CVT; channel 0, channel 1 and the pad channels.
TEST(SdpWorkedExample, Int8BsBnCvt) {
  const auto run = [](int64_t x, int64_t bn_alu, int64_t bn_mul) {
    const int64_t bs_op = lsh_sat(-25, 2, 32);
    int64_t t = rsh_sat((x + bs_op) * -1234, 5, 32);
    t = t < 0 ? 0 : t;                                   // ReLU
    const int64_t a = t + lsh_sat(bn_alu, 1, 32);        // BN ALU, MEM operand << 1
    return rsh_sat(a * bn_mul, 3, 32);                   // BN MUL, shift 3, ReLU bypassed
  };
  const SdpOutputConverter cvt{-84, 3, 6};
  EXPECT_EQ(run(-116, -3, -7), -7284);
  EXPECT_EQ(static_cast<uint8_t>(cvt.to_int8(run(-116, -3, -7))), 0x80);
  EXPECT_EQ(run(127, 20, 300), 1500);
  EXPECT_EQ(static_cast<uint8_t>(cvt.to_int8(run(127, 20, 300))), 0x4A);
  EXPECT_EQ(static_cast<uint8_t>(cvt.to_int8(run(0, 0, 0))), 0x04);
  EXPECT_EQ(rsh_sat(-58268, 3, 32), -7284);  // negative tie away from zero
}

// sdp.md §13.2: INT16 LUT interpolation and underflow extrapolation.
TEST(SdpWorkedExample, Int16LutArithmetic) {
  const auto hit = [](int64_t y0, int64_t y1, int64_t f) {
    return rsh_sat(y0 * ((int64_t{1} << 35) - f) + y1 * f, 35, 32);
  };
  EXPECT_EQ(hit(1000, 1013, 0x500000000), 1008);
  EXPECT_EQ(hit(500, 900, 0x1A4000000), 582);
  EXPECT_EQ(hit(-40, -8, int64_t{10} << 31), -20);
  EXPECT_EQ(hit(-40, -8, int64_t{1} << 34), -24);
  EXPECT_EQ(sat(10 + srs_sat((-2000 - (0 + 4)) * 3, 2, 32), 32), -1493);
}

// sdp.md §13.3: FP16 BS with a NaN, an Inf, a denormal and an overflow.
TEST(SdpWorkedExample, Fp16WithNanInfDenormalOverflow) {
  struct Lane { uint16_t in; uint32_t widened, added, multiplied, relu; uint16_t out; };
  const Lane lanes[] = {
      {0x3E00, 0x3FC00000, 0x3FE00000, 0x40280000, 0x40280000, 0x4140},
      {0x7E01, 0x7F800201, 0x7F800201, 0x7F800201, 0x7F800201, 0x7E01},
      {0x7B53, 0x476A6000, 0x476A6040, 0x47AFC830, 0x47AFC830, 0x7BFF},
      {0x7C00, 0x7F7FFFFF, 0x7F7FFFFF, 0x7F7FFFFF, 0x7F7FFFFF, 0x7BFF},
      {0x0001, 0x33800000, 0x3E800002, 0x3EC00003, 0x3EC00003, 0x3600},
      {0xBC00, 0xBF800000, 0xBF400000, 0xBF900000, 0x00000000, 0x0000},
      {0x0000, 0x00000000, 0x3E800000, 0x3EC00000, 0x3EC00000, 0x3600},
  };
  const uint32_t alu = fp16_to_fp32(0x3400), mul = fp16_to_fp32(0x3E00);
  for (const Lane& l : lanes) {
    SCOPED_TRACE(l.in);
    const uint32_t w = fp16_to_fp32(l.in);
    EXPECT_EQ(w, l.widened);
    const uint32_t a = add32(w, alu);
    EXPECT_EQ(a, l.added);
    const uint32_t m = mul32(a, mul);
    EXPECT_EQ(m, l.multiplied);
    const uint32_t r = frelu(kFp32, m);
    EXPECT_EQ(r, l.relu);
    EXPECT_EQ(fp32_to_fp16(r), l.out);
  }
}

// conv.md §10.2: pixel conversion, T_A8R8G8B8, means, scale 9, truncate 3, int8.
TEST(ConvWorkedExample, PixelConversionInt8) {
  const int32_t comp[4] = {240, 128, 16, 255};
  const int32_t mean[4] = {100, 128, 44, 255};
  const uint8_t want[4] = {0x7F, 0x00, 0xE0, 0x00};
  for (int i = 0; i < 4; ++i) {
    const PixelConverter cvt{mean[i], 9, 3};
    EXPECT_EQ(static_cast<uint8_t>(cvt.to_int8(comp[i])), want[i]) << i;
  }
  EXPECT_EQ((PixelConverter{100, 9, 3}.to_int17(240)), 158);
  EXPECT_EQ((PixelConverter{0, 1, 0}.to_fp16(65535)), 0x7C00);  // Inf on this path
}

}  // namespace
}  // namespace dla::num
