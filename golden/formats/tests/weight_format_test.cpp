#include <gtest/gtest.h>

#include <random>
#include <set>

#include "dla/formats/feature_layout.h"
#include "dla/formats/weight_format.h"

namespace dla::formats {
namespace {

KernelSet random_kernels(std::mt19937_64& rng, uint32_t k, uint32_t r, uint32_t s, uint32_t c, unsigned es,
                         double zero_fraction = 0.0) {
  KernelSet w(k, r, s, c, es);
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& v : w.values) v = u(rng) < zero_fraction ? 0 : static_cast<uint16_t>(1 + rng() % (es == 1 ? 255 : 65535));
  return w;
}

// conv.md §10.1 (nv_small, AK = AC = 8): the feature cube and weight memory images.
TEST(WeightFormat, ConvWorkedExampleNvSmall) {
  KernelSet w(2, 2, 2, 3, 1);
  const int k0[4][3] = {{1, 0, -1}, {2, 1, 0}, {0, -1, 1}, {1, 1, 1}};
  const int k1[4][3] = {{-2, 1, 3}, {0, 0, 1}, {1, 2, -1}, {-1, 0, 2}};
  for (uint32_t p = 0; p < 4; ++p)
    for (uint32_t c = 0; c < 3; ++c) {
      w.at(0, p / 2, p % 2, c) = static_cast<uint8_t>(k0[p][c]);
      w.at(1, p / 2, p % 2, c) = static_cast<uint8_t>(k1[p][c]);
    }
  const std::vector<uint8_t> want = {0x01, 0x00, 0xff, 0xfe, 0x01, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x01,
                                     0x00, 0xff, 0x01, 0x01, 0x02, 0xff, 0x01, 0x01, 0x01, 0xff, 0x00, 0x02};
  EXPECT_EQ(dc_weight_image(w, {8, 8}), want);
  EXPECT_EQ(round_up_128(want.size()), 128u);

  FeatureTensor in(CubeShape{3, 2, 3, 1}, 1);
  const int px[2][3][3] = {{{1, -2, 3}, {4, 0, -1}, {2, 2, 2}}, {{-3, 1, 0}, {5, -4, 2}, {0, 1, -2}}};
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x)
      for (uint32_t c = 0; c < 3; ++c) in.set(x, y, c, static_cast<uint8_t>(px[y][x][c]));
  const FeatureLayout l = FeatureLayout::packed(in.shape(), 1, 8, 0);
  EXPECT_EQ(l.line_stride, 24u);
  EXPECT_EQ(l.surface_stride, 48u);
  VectorMemory mem(0, 48);
  write_feature_cube(mem, in, l);
  const std::vector<uint8_t> cube = {0x01, 0xfe, 0x03, 0, 0, 0, 0, 0, 0x04, 0x00, 0xff, 0, 0, 0, 0, 0,
                                     0x02, 0x02, 0x02, 0, 0, 0, 0, 0, 0xfd, 0x01, 0x00, 0, 0, 0, 0, 0,
                                     0x05, 0xfc, 0x02, 0, 0, 0, 0, 0, 0x00, 0x01, 0xfe, 0, 0, 0, 0, 0};
  EXPECT_EQ(mem.bytes(), cube);
}

// seed: one group of 3x3x192-byte int8 kernels (AK 32, AC 64): small cubes of 64 bytes in
// C' -> K -> W -> H -> C order. Offsets computed by hand from that order.
TEST(WeightFormat, SeedDirectConvolutionGroupOfThreeByThreeBy192) {
  const KernelSet w(40, 3, 3, 192, 1);
  const WeightGrouping g = v1_weight_grouping(Precision::Int8);
  EXPECT_EQ(w.bytes_per_kernel(), 1728u);
  EXPECT_EQ(dc_weight_offset(w, g, 0, 0, 0, 1), 1u);         // C' fastest
  EXPECT_EQ(dc_weight_offset(w, g, 1, 0, 0, 0), 64u);        // then K
  EXPECT_EQ(dc_weight_offset(w, g, 0, 0, 1, 0), 32u * 64);   // then W
  EXPECT_EQ(dc_weight_offset(w, g, 0, 1, 0, 0), 3u * 2048);  // then H
  EXPECT_EQ(dc_weight_offset(w, g, 0, 0, 0, 64), 9u * 2048); // then C (next 64-channel block)
  EXPECT_EQ(dc_weight_offset(w, g, 31, 2, 2, 191), 32u * 1728 - 1);
  EXPECT_EQ(dc_weight_offset(w, g, 32, 0, 0, 0), 32u * 1728);  // second group (8 kernels)
  EXPECT_EQ(dc_weight_offset(w, g, 33, 0, 0, 0), 32u * 1728 + 64);
  EXPECT_EQ(v1_weight_grouping(Precision::Fp16).kernels_per_group, 16u);
}

TEST(WeightFormat, PartialGroupAndPartialChannelBlock) {
  const KernelSet w(20, 1, 1, 70, 2);  // int16: AK 16, AC 64; group 1 has 4 kernels, block 1 has 6 lanes
  const WeightGrouping g = v1_weight_grouping(Precision::Int16);
  EXPECT_EQ(dc_weight_offset(w, g, 17, 0, 0, 65), 16u * 140 + 64 * 4 * 2 + 6 * 2 + 2);
  EXPECT_THROW(dc_weight_offset(w, g, 20, 0, 0, 0), std::out_of_range);
}

// Every layout is a bijection onto [0, K*BPK) and round-trips.
TEST(WeightFormat, RandomLayoutsAreBijectionsAndRoundTrip) {
  std::mt19937_64 rng(0x3E1);
  for (int iter = 0; iter < 60; ++iter) {
    const unsigned es = 1 + static_cast<unsigned>(rng() % 2);
    const WeightGrouping g{1u + static_cast<unsigned>(rng() % 32), 1u + static_cast<unsigned>(rng() % 64)};
    const KernelSet w = random_kernels(rng, 1 + static_cast<uint32_t>(rng() % 40), 1 + static_cast<uint32_t>(rng() % 4),
                                       1 + static_cast<uint32_t>(rng() % 4), 1 + static_cast<uint32_t>(rng() % 90), es);
    std::set<uint64_t> offs;
    for (uint32_t k = 0; k < w.k; ++k)
      for (uint32_t r = 0; r < w.r; ++r)
        for (uint32_t s = 0; s < w.s; ++s)
          for (uint32_t c = 0; c < w.c; ++c) {
            const uint64_t o = dc_weight_offset(w, g, k, r, s, c);
            ASSERT_EQ(o % es, 0u);
            ASSERT_TRUE(offs.insert(o).second) << "offset used twice: " << o;
            ASSERT_LT(o, w.k * w.bytes_per_kernel());
          }
    ASSERT_EQ(dc_weights_from_image(dc_weight_image(w, g), w.k, w.r, w.s, w.c, es, g), w);
    // Winograd
    const KernelSet u = random_kernels(rng, 1 + static_cast<uint32_t>(rng() % 40), 4, 4, 4 * (1 + static_cast<uint32_t>(rng() % 8)), es);
    ASSERT_EQ(winograd_weights_from_image(winograd_weight_image(u, g), u.k, u.c, es, g), u);
    // Post-extension of pre-extended image weights.
    const unsigned p = 1u << (rng() % 3);
    const WeightGrouping gi{g.kernels_per_group, 64};
    const KernelSet img_w = pre_extend_image_weights(random_kernels(rng, 1 + static_cast<uint32_t>(rng() % 20),
                                                                    1 + static_cast<uint32_t>(rng() % 7), 1 + static_cast<uint32_t>(rng() % 3),
                                                                    1 + static_cast<uint32_t>(rng() % 4), es));
    ASSERT_EQ(post_extended_weights_from_image(post_extended_weight_image(img_w, p, gi), img_w.k, img_w.r, img_w.c, es, p, gi),
              img_w);
  }
}

// conv.md §5.5: channel kappa = s*C + c of the 1 x R x (S*C) pre-extended kernel.
TEST(WeightFormat, ImagePreExtension) {
  std::mt19937_64 rng(55);
  const KernelSet w = random_kernels(rng, 2, 3, 3, 3, 2);  // int16 image with C = 3 (seed figure)
  const KernelSet x = pre_extend_image_weights(w);
  EXPECT_EQ(x.s, 1u);
  EXPECT_EQ(x.c, 9u);
  EXPECT_EQ(x.r, 3u);
  for (uint32_t k = 0; k < 2; ++k)
    for (uint32_t r = 0; r < 3; ++r)
      for (uint32_t s = 0; s < 3; ++s)
        for (uint32_t c = 0; c < 3; ++c) ASSERT_EQ(x.at(k, r, 0, s * 3 + c), w.at(k, r, s, c));
}

// conv.md §5.6, P = 2, K = 2, R = 3, S*C = 6: rows {0,1} of k0, rows {0,1} of k1, row 2 of
// k0, row 2 of k1 (the last row group is not padded).
TEST(WeightFormat, ImagePostExtensionOrder) {
  KernelSet w(2, 3, 1, 6, 1);
  for (uint32_t k = 0; k < 2; ++k)
    for (uint32_t r = 0; r < 3; ++r)
      for (uint32_t c = 0; c < 6; ++c) w.at(k, r, 0, c) = static_cast<uint16_t>(k * 100 + r * 10 + c);
  const std::vector<uint8_t> img = post_extended_weight_image(w, 2, {32, 64});
  ASSERT_EQ(img.size(), 36u);
  EXPECT_EQ(img[0], 0);     // k0 r0 c0
  EXPECT_EQ(img[6], 10);    // k0 r1 c0
  EXPECT_EQ(img[12], 100);  // k1 r0 c0
  EXPECT_EQ(img[23], 115);  // k1 r1 c5
  EXPECT_EQ(img[24], 20);   // k0 r2 c0
  EXPECT_EQ(img[35], 125);  // k1 r2 c5
  EXPECT_THROW(post_extended_weight_image(KernelSet(1, 2, 1, 40, 1), 2, {32, 64}), std::invalid_argument);
  EXPECT_THROW(post_extended_weight_image(KernelSet(1, 2, 1, 8, 1), 3, {32, 64}), std::invalid_argument);
  EXPECT_THROW(post_extended_weight_image(KernelSet(1, 2, 2, 8, 1), 2, {32, 64}), std::invalid_argument);
}

TEST(WeightFormat, WinogradTransformOfOnes) {
  const std::array<int64_t, 16> want = {4, 6, 2, 4, 6, 9, 3, 6, 2, 3, 1, 2, 4, 6, 2, 4};
  EXPECT_EQ(winograd_transform_scaled({1, 1, 1, 1, 1, 1, 1, 1, 1}), want);
  const auto f = winograd_transform({1, 1, 1, 1, 1, 1, 1, 1, 1});
  EXPECT_DOUBLE_EQ(f[5], 2.25);
}

// F(2x2, 3x3): A^T [U (.) (B^T d B)] A equals 4 x the direct 3x3 correlation of each 4x4 tile
// (B^T from conv.md §6.3, A^T = [[1,1,1,0],[0,1,-1,-1]]).
TEST(WeightFormat, WinogradTransformComputesTheConvolution) {
  std::mt19937_64 rng(66);
  const int bt[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
  const int at[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
  for (int iter = 0; iter < 1000; ++iter) {
    std::array<int64_t, 9> g;
    int64_t d[4][4];
    for (auto& v : g) v = static_cast<int64_t>(rng() % 255) - 127;
    for (auto& row : d)
      for (auto& v : row) v = static_cast<int64_t>(rng() % 255) - 127;
    const auto u = winograd_transform_scaled(g);
    int64_t v[4][4] = {}, m[4][4] = {}, y[2][4] = {}, out[2][2] = {};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) m[i][j] += bt[i][k] * d[k][j];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) v[i][j] += m[i][k] * bt[j][k];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) y[i][j] += at[i][k] * u[static_cast<size_t>(k * 4 + j)] * v[k][j];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 4; ++k) out[i][j] += y[i][k] * at[j][k];
    for (int oy = 0; oy < 2; ++oy)
      for (int ox = 0; ox < 2; ++ox) {
        int64_t direct = 0;
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) direct += g[static_cast<size_t>(r * 3 + s)] * d[oy + r][ox + s];
        ASSERT_EQ(out[oy][ox], 4 * direct);
      }
  }
}

TEST(WeightFormat, WinogradStrideFoldingAndLayout) {
  KernelSet w(1, 5, 5, 2, 1);
  for (uint32_t r = 0; r < 5; ++r)
    for (uint32_t s = 0; s < 5; ++s)
      for (uint32_t c = 0; c < 2; ++c) w.at(0, r, s, c) = static_cast<uint16_t>(1 + r * 50 + s * 5 + c);
  const KernelSet f = winograd_fold_stride(w, 2, 2);
  EXPECT_EQ(f.r, 3u);
  EXPECT_EQ(f.c, 8u);
  // channel (v*sx + u)*C + c of folded tap (r', s') = original (r'*2 + v, s'*2 + u, c)
  EXPECT_EQ(f.at(0, 1, 2, (1 * 2 + 0) * 2 + 1), w.at(0, 3, 4, 1));
  EXPECT_EQ(f.at(0, 2, 2, (0 * 2 + 0) * 2 + 0), w.at(0, 4, 4, 0));
  EXPECT_EQ(f.at(0, 2, 1, (1 * 2 + 1) * 2 + 0), 0);  // row 5 does not exist
  EXPECT_THROW(winograd_fold_stride(w, 1, 1), std::invalid_argument);
  // Layout (int16, AK 16): blocks of 4 channels outermost, then kernels, then 4x4x4 cube.
  const KernelSet u(2, 4, 4, 8, 2);
  const WeightGrouping g = v1_weight_grouping(Precision::Int16);
  EXPECT_EQ(winograd_weight_offset(u, g, 1, 0, 0, 0), 128u);
  EXPECT_EQ(winograd_weight_offset(u, g, 0, 0, 0, 4), 256u);
  EXPECT_EQ(winograd_weight_offset(u, g, 0, 1, 2, 3), 54u);
  EXPECT_EQ(u.bytes_per_kernel(), 16u * 8 * 2);
  EXPECT_THROW(winograd_weight_image(KernelSet(1, 4, 4, 6, 1), g), std::invalid_argument);
}

TEST(WeightCompression, HandExample) {
  // Group 0: 9 elements, group 1: 7 elements (int8); the second group starts mid-byte.
  const std::vector<uint8_t> img = {0, 5, 0, 0, 7, 0, 0, 0, 9, /* g1 */ 0, 0, 3, 0, 0, 0, 4};
  const CompressedWeights cw = compress_weights(img, 1, {9, 7});
  ASSERT_EQ(cw.wmb.size(), 128u);
  EXPECT_EQ(cw.wmb[0], 0x12);  // bits 1 and 4
  EXPECT_EQ(cw.wmb[1], 0x89);  // t = 8 (g0), t = 11 and 15 (g1): bits 0, 3, 7
  ASSERT_EQ(cw.data.size(), 128u);
  EXPECT_EQ((std::vector<uint8_t>(cw.data.begin(), cw.data.begin() + 6)), (std::vector<uint8_t>{5, 7, 9, 3, 4, 0}));
  EXPECT_EQ(cw.wgs, (std::vector<uint8_t>{3, 0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(cw.nonzero_elements, 5u);
  EXPECT_EQ(decompress_weights(cw, 1, {9, 7}), img);
  // int16: WGS counts bytes; -0 (0x8000) is a non-zero pattern and is kept.
  const std::vector<uint8_t> img16 = {0x00, 0x00, 0x34, 0x12, 0x00, 0x80};
  const CompressedWeights c16 = compress_weights(img16, 2, {3});
  EXPECT_EQ(c16.wmb[0], 0x06);
  EXPECT_EQ(c16.wgs, (std::vector<uint8_t>{4, 0, 0, 0}));
  EXPECT_EQ((std::vector<uint8_t>(c16.data.begin(), c16.data.begin() + 4)), (std::vector<uint8_t>{0x34, 0x12, 0x00, 0x80}));
}

TEST(WeightCompression, SizesAndRandomRoundTrip) {
  std::mt19937_64 rng(77);
  for (int iter = 0; iter < 50; ++iter) {
    const unsigned es = 1 + static_cast<unsigned>(rng() % 2);
    const WeightGrouping g = v1_weight_grouping(es == 1 ? Precision::Int8 : Precision::Int16);
    const KernelSet w = random_kernels(rng, 1 + static_cast<uint32_t>(rng() % 70), 3, 3, 1 + static_cast<uint32_t>(rng() % 100),
                                       es, 0.7);
    const std::vector<uint8_t> img = dc_weight_image(w, g);
    const auto groups = weight_group_elements(w.k, w.bytes_per_kernel(), es, g.kernels_per_group);
    const CompressedWeights cw = compress_weights(img, es, groups);
    const uint64_t n = img.size() / es;
    uint64_t nnz = 0;
    for (uint16_t v : w.values) nnz += v != 0;
    EXPECT_EQ(cw.total_elements, n);
    EXPECT_EQ(cw.nonzero_elements, nnz);
    EXPECT_EQ(cw.wmb.size(), (n + 1023) / 1024 * 128);     // WMB_BYTES
    EXPECT_EQ(cw.data.size(), (nnz * es + 127) / 128 * 128);  // WEIGHT_BYTES
    EXPECT_EQ(cw.wgs.size(), 4 * groups.size());
    ASSERT_EQ(decompress_weights(cw, es, groups), img);
  }
}

TEST(WeightCompression, InconsistentStreamsAreRejected) {
  const std::vector<uint8_t> img = {1, 2, 0, 3};
  CompressedWeights cw = compress_weights(img, 1, {2, 2});
  cw.wgs[0] = 1;
  try {
    decompress_weights(cw, 1, {2, 2});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("WGS[0] = 1 but the mask selects 2 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(compress_weights(img, 1, {3, 2}), std::invalid_argument);
  CompressedWeights shortw = compress_weights(img, 1, {4});
  shortw.data.clear();
  EXPECT_THROW(decompress_weights(shortw, 1, {4}), std::invalid_argument);
}

}  // namespace
}  // namespace dla::formats
