#include <gtest/gtest.h>

#include <map>
#include <random>

#include "dla/formats/feature_layout.h"

namespace dla::formats {
namespace {

constexpr uint8_t kSentinel = 0xCD;

// The address formula of pdp §0.2 / conv §3.1, written out independently of the library.
uint64_t spec_address(const FeatureLayout& l, unsigned bpe, uint32_t w, uint32_t h, uint32_t c, uint32_t n) {
  const uint32_t e = l.atom_bytes / bpe;
  return l.base + n * l.batch_stride + (c / e) * l.surface_stride + h * l.line_stride + w * l.atom_bytes +
         (c % e) * bpe;
}

FeatureTensor random_tensor(std::mt19937_64& rng, CubeShape s, unsigned bpe) {
  FeatureTensor t(s, bpe);
  for (size_t i = 0; i < t.size_bytes(); ++i) t.data()[i] = static_cast<uint8_t>(rng());
  return t;
}

TEST(FeatureLayout, HandComputedAddresses) {
  const CubeShape s{3, 2, 20, 1};
  const FeatureLayout l = FeatureLayout::packed(s, 1, 8, 0x1000);
  EXPECT_EQ(l.line_stride, 24u);
  EXPECT_EQ(l.surface_stride, 48u);
  EXPECT_EQ(surface_count(s, 8, 1), 3u);
  EXPECT_EQ(element_address(s, 1, l, 2, 1, 17), 0x1089u);  // 0x1000 + 2*48 + 24 + 2*8 + 1
  EXPECT_EQ(element_address(s, 1, l, 0, 0, 23), 0x1000u + 96 + 7);  // a pad lane
  EXPECT_THROW(element_address(s, 1, l, 0, 0, 24), std::out_of_range);
  // int16 on a 32-byte atom: 16 lanes per atom, two bytes each.
  const CubeShape s16{4, 4, 40, 1};
  const FeatureLayout l16 = FeatureLayout::packed(s16, 2, 32, 0);
  EXPECT_EQ(element_address(s16, 2, l16, 1, 2, 33), 2u * 512 + 2 * 128 + 32 + 2);
  EXPECT_EQ(footprint(s16, 2, l16), (std::pair<uint64_t, uint64_t>{0, 3 * 512}));
}

TEST(FeatureLayout, WritesLittleEndianElementsAtTheSpecAddresses) {
  std::mt19937_64 rng(1);
  const CubeShape s{5, 3, 21, 2};
  FeatureLayout l = FeatureLayout::packed(s, 2, 16, 0x200);
  l.line_stride += 32;
  l.surface_stride = l.line_stride * 3 + 16;
  l.batch_stride = l.surface_stride * 3 + 48;
  const FeatureTensor t = random_tensor(rng, s, 2);
  VectorMemory mem(0x200, 4096, kSentinel);
  write_feature_cube(mem, t, l, PadLanes::filled(0xEE));
  const auto at = [&](uint64_t a) { return mem.bytes()[a - 0x200]; };
  for (uint32_t n = 0; n < s.n; ++n)
    for (uint32_t h = 0; h < s.h; ++h)
      for (uint32_t w = 0; w < s.w; ++w)
        for (uint32_t c = 0; c < 24; ++c) {  // 3 surfaces x 8 lanes; lanes 21..23 are pad
          const uint64_t a = spec_address(l, 2, w, h, c, n);
          if (c < s.c) {
            ASSERT_EQ(at(a) | (at(a + 1) << 8), t.get(w, h, c, n)) << w << "," << h << "," << c << "," << n;
          } else {
            ASSERT_EQ(at(a), 0xEE);
            ASSERT_EQ(at(a + 1), 0xEE);
          }
        }
}

TEST(FeatureLayout, UntouchedPadLanesKeepMemoryContents) {
  std::mt19937_64 rng(2);
  const CubeShape s{4, 2, 11, 1};
  const FeatureLayout l = FeatureLayout::packed(s, 1, 8, 0);
  VectorMemory mem(0, 256, kSentinel);
  const FeatureTensor t = random_tensor(rng, s, 1);
  write_feature_cube(mem, t, l, PadLanes::untouched());
  for (uint32_t h = 0; h < 2; ++h)
    for (uint32_t w = 0; w < 4; ++w)
      for (uint32_t c = 11; c < 16; ++c) ASSERT_EQ(mem.bytes()[spec_address(l, 1, w, h, c, 0)], kSentinel) << c;
  EXPECT_EQ(read_feature_cube(mem, s, 1, l), t);  // real lanes were written
}

// Property: write then read returns the tensor, for random shapes, atom sizes and strides;
// no byte outside the elements' addresses (plus pad lanes) is written.
TEST(FeatureLayout, RandomRoundTripAndNoStrayWrites) {
  std::mt19937_64 rng(0xFEA7);
  const unsigned atoms[] = {8, 16, 32, 64};
  for (int iter = 0; iter < 400; ++iter) {
    const unsigned atom = atoms[rng() % 4];
    const unsigned bpe = 1 + static_cast<unsigned>(rng() % 2);
    const CubeShape s{1 + static_cast<uint32_t>(rng() % 9), 1 + static_cast<uint32_t>(rng() % 7),
                      1 + static_cast<uint32_t>(rng() % 100), 1 + static_cast<uint32_t>(rng() % 3)};
    FeatureLayout l = FeatureLayout::packed(s, bpe, atom, atom * (rng() % 5));
    l.line_stride += atom * (rng() % 3);
    l.surface_stride = l.line_stride * s.h + atom * (rng() % 3);
    l.batch_stride = l.surface_stride * surface_count(s, atom, bpe) + atom * (rng() % 3);
    SCOPED_TRACE(s.str() + " atom " + std::to_string(atom) + " bpe " + std::to_string(bpe));
    const FeatureTensor t = random_tensor(rng, s, bpe);
    const auto [lo, hi] = footprint(s, bpe, l);
    VectorMemory mem(0, hi + 64, kSentinel);
    const bool fill = rng() & 1;
    write_feature_cube(mem, t, l, fill ? PadLanes::filled(0) : PadLanes::untouched());
    ASSERT_EQ(read_feature_cube(mem, s, bpe, l), t);
    // Expected set of written bytes, from the spec formula.
    std::vector<bool> written(mem.bytes().size(), false);
    const uint32_t lanes = surface_count(s, atom, bpe) * (atom / bpe);
    for (uint32_t n = 0; n < s.n; ++n)
      for (uint32_t h = 0; h < s.h; ++h)
        for (uint32_t w = 0; w < s.w; ++w)
          for (uint32_t c = 0; c < (fill ? lanes : s.c); ++c)
            for (unsigned b = 0; b < bpe; ++b) written[spec_address(l, bpe, w, h, c, n) + b] = true;
    for (size_t a = 0; a < written.size(); ++a)
      if (!written[a]) {
        ASSERT_EQ(mem.bytes()[a], kSentinel) << "stray write at " << a;
      }
    ASSERT_GE(lo, 0u);
  }
}

TEST(FeatureLayout, PackedImageHasNoGaps) {
  const CubeShape s{7, 3, 40, 2};
  const FeatureLayout l = FeatureLayout::packed(s, 1, 32, 0);
  EXPECT_TRUE(is_line_packed(s, l));
  EXPECT_TRUE(is_surface_packed(s, l));
  FeatureTensor t(s, 1);
  for (size_t i = 0; i < t.size_bytes(); ++i) t.data()[i] = static_cast<uint8_t>(1 + i % 200);  // never 0xCD
  VectorMemory mem(0, 2 * 2 * 3 * 7 * 32, kSentinel);
  write_feature_cube(mem, t, l);
  EXPECT_EQ(std::count(mem.bytes().begin(), mem.bytes().end(), kSentinel), 0);
}

// seed: a 1x1xC cube mapped surface-packed is the same image as a ceil(C/E)x1xE cube.
TEST(FeatureLayout, OneByOneByCSurfacePackedIsALineOfAtoms) {
  std::mt19937_64 rng(4);
  for (unsigned atom : {8u, 32u})
    for (uint32_t c : {1u, 8u, 33u, 100u}) {
      const CubeShape s{1, 1, c, 1};
      const FeatureLayout l = FeatureLayout::packed(s, 1, atom, 64);
      ASSERT_EQ(l.surface_stride, atom);
      const auto line = as_line_of_atoms(s, 1, l);
      ASSERT_TRUE(line.has_value());
      const uint32_t e = atom;
      EXPECT_EQ(line->first, (CubeShape{(c + e - 1) / e, 1, e, 1}));
      const FeatureTensor t = random_tensor(rng, s, 1);
      FeatureTensor reshaped(line->first, 1);  // pad lanes become zero channels
      for (uint32_t i = 0; i < c; ++i) reshaped.set(i / e, 0, i % e, t.get(0, 0, i));
      VectorMemory a(0, 1024, kSentinel), b(0, 1024, kSentinel);
      write_feature_cube(a, t, l, PadLanes::filled(0));
      write_feature_cube(b, reshaped, line->second);
      EXPECT_EQ(a.bytes(), b.bytes()) << "atom " << atom << " C " << c;
    }
  FeatureLayout gappy = FeatureLayout::packed(CubeShape{1, 1, 100, 1}, 1, 32, 0);
  gappy.surface_stride = 64;
  EXPECT_FALSE(as_line_of_atoms(CubeShape{1, 1, 100, 1}, 1, gappy).has_value());
  EXPECT_FALSE(as_line_of_atoms(CubeShape{2, 1, 100, 1}, 1, FeatureLayout::packed(CubeShape{2, 1, 100, 1}, 1, 32)).has_value());
}

void expect_rejected(const CubeShape& s, unsigned bpe, const FeatureLayout& l, const std::string& rule) {
  const auto v = layout_violation(s, bpe, l);
  ASSERT_TRUE(v.has_value()) << "expected a violation of: " << rule;
  EXPECT_NE(v->find(rule), std::string::npos) << *v;
  VectorMemory mem(0, 1 << 16);
  FeatureTensor t(s, bpe == 2 ? 2 : 1);
  if (bpe == 1 || bpe == 2) {
    try {
      write_feature_cube(mem, t, l);
      ADD_FAILURE() << "write accepted a layout breaking: " << rule;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(rule), std::string::npos) << e.what();
    }
  }
}

TEST(FeatureLayout, BadLayoutsAreRejectedNamingTheRule) {
  const CubeShape s{4, 4, 40, 2};
  const FeatureLayout good = FeatureLayout::packed(s, 1, 32, 0x100);
  EXPECT_FALSE(layout_violation(s, 1, good).has_value());
  FeatureLayout l = good;
  l.base = 0x110;
  expect_rejected(s, 1, l, "start address");
  l = good;
  l.line_stride += 8;
  expect_rejected(s, 1, l, "line stride");
  l = good;
  l.surface_stride += 16;
  expect_rejected(s, 1, l, "surface stride");
  l = good;
  l.batch_stride += 4;
  expect_rejected(s, 1, l, "planar/cube stride");
  l = good;
  l.line_stride = 96;
  expect_rejected(s, 1, l, "lines would overlap");
  l = good;
  l.surface_stride = 3 * 128;
  expect_rejected(s, 1, l, "surfaces would overlap");
  l = good;
  l.batch_stride = 512;
  expect_rejected(s, 1, l, "batches would overlap");
  l = good;
  l.atom_bytes = 12;
  expect_rejected(s, 1, l, "atom size 12");
  expect_rejected(s, 3, good, "element size 3");
  // On nv_small (atom 8) an 8-byte aligned base is fine, a 4-byte aligned one is not.
  FeatureLayout small = FeatureLayout::packed(s, 1, 8, 0x108);
  EXPECT_FALSE(layout_violation(s, 1, small).has_value());
  small.base = 0x104;
  expect_rejected(s, 1, small, "start address 0x104 is not a multiple of 8 bytes");
}

// Stands in for dla::SparseMemory: any class with write/read members plugs in.
struct MapMemory {
  std::map<uint64_t, uint8_t> bytes;
  void write(uint64_t addr, const uint8_t* data, size_t n) {
    for (size_t i = 0; i < n; ++i) bytes[addr + i] = data[i];
  }
  void read(uint64_t addr, uint8_t* out, size_t n) const {
    for (size_t i = 0; i < n; ++i) {
      auto it = bytes.find(addr + i);
      out[i] = it == bytes.end() ? 0 : it->second;
    }
  }
};

TEST(FeatureLayout, WorksThroughAMemoryAdaptor) {
  std::mt19937_64 rng(5);
  const CubeShape s{3, 3, 17, 1};
  const FeatureLayout l = FeatureLayout::packed(s, 2, 32, 0x8000'0000);
  const FeatureTensor t = random_tensor(rng, s, 2);
  MapMemory m;
  MemoryAdaptor<MapMemory> mem(m);
  write_feature_cube(mem, t, l, PadLanes::untouched());
  EXPECT_EQ(read_feature_cube(mem, s, 2, l), t);
  EXPECT_EQ(m.bytes.size(), 3u * 3 * 17 * 2);
}

TEST(VectorMemoryTest, OutOfWindowAccessNamesTheAddress) {
  VectorMemory mem(0x1000, 16);
  uint8_t b[4] = {};
  EXPECT_THROW(mem.write(0x100E, b, 4), std::out_of_range);
  try {
    mem.read(0xFFF, b, 1);
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("0xfff"), std::string::npos) << e.what();
  }
}

TEST(FeatureTensorTest, RejectsBadShapesAndValues) {
  EXPECT_THROW(FeatureTensor(CubeShape{0, 1, 1, 1}, 1), std::invalid_argument);
  EXPECT_THROW(FeatureTensor(CubeShape{1, 1, 1, 1}, 4), std::invalid_argument);
  FeatureTensor t(CubeShape{2, 2, 2, 1}, 1);
  EXPECT_THROW(t.set(0, 0, 0, 0x100), std::out_of_range);
  EXPECT_THROW(t.get(2, 0, 0), std::out_of_range);
  t.set(1, 1, 1, 0x7F);
  EXPECT_EQ(t.get(1, 1, 1), 0x7F);
}

}  // namespace
}  // namespace dla::formats
