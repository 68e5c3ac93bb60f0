#include <gtest/gtest.h>

#include <random>

#include "dla/formats/pixel_format.h"

namespace dla::formats {
namespace {

// The seed's "Pixel formats and valid setting" table: name, planes, channels, precision,
// largest X offset (32-byte atom). The seed lists T_R16_F as int16; conv.md §5.2 (element
// type fp16, "fp16 for the _F formats") is followed, so that row says fp16 here.
struct SeedRow { const char* name; unsigned planes, channels; Precision p; unsigned max_x; };
constexpr Precision I8 = Precision::Int8, I16 = Precision::Int16, F16 = Precision::Fp16;
const SeedRow kSeed[] = {
    {"T_R8", 1, 1, I8, 31}, {"T_R10", 1, 1, I16, 15}, {"T_R12", 1, 1, I16, 15}, {"T_R16", 1, 1, I16, 15},
    {"T_R16_I", 1, 1, I16, 15}, {"T_R16_F", 1, 1, F16, 15}, {"T_A16B16G16R16", 1, 4, I16, 3},
    {"T_X16B16G16R16", 1, 4, I16, 3}, {"T_A16B16G16R16_F", 1, 4, F16, 3}, {"T_A16Y16U16V16", 1, 4, I16, 3},
    {"T_V16U16Y16A16", 1, 4, I16, 3}, {"T_A16Y16U16V16_F", 1, 4, F16, 3}, {"T_A8B8G8R8", 1, 4, I8, 7},
    {"T_A8R8G8B8", 1, 4, I8, 7}, {"T_B8G8R8A8", 1, 4, I8, 7}, {"T_R8G8B8A8", 1, 4, I8, 7},
    {"T_X8B8G8R8", 1, 4, I8, 7}, {"T_X8R8G8B8", 1, 4, I8, 7}, {"T_B8G8R8X8", 1, 4, I8, 7},
    {"T_R8G8B8X8", 1, 4, I8, 7}, {"T_A2B10G10R10", 1, 4, I16, 7}, {"T_A2R10G10B10", 1, 4, I16, 7},
    {"T_B10G10R10A2", 1, 4, I16, 7}, {"T_R10G10B10A2", 1, 4, I16, 7}, {"T_A2Y10U10V10", 1, 4, I16, 7},
    {"T_V10U10Y10A2", 1, 4, I16, 7}, {"T_A8Y8U8V8", 1, 4, I8, 7}, {"T_V8U8Y8A8", 1, 4, I8, 7},
    {"T_Y8___U8V8_N444", 2, 3, I8, 31}, {"T_Y8___V8U8_N444", 2, 3, I8, 31},
    {"T_Y10___U10V10_N444", 2, 3, I16, 15}, {"T_Y10___V10U10_N444", 2, 3, I16, 15},
    {"T_Y12___U12V12_N444", 2, 3, I16, 15}, {"T_Y12___V12U12_N444", 2, 3, I16, 15},
    {"T_Y16___U16V16_N444", 2, 3, I16, 15}, {"T_Y16___V16U16_N444", 2, 3, I16, 15},
};

TEST(PixelFormats, TableMatchesTheSeedAndRegisterCodes) {
  ASSERT_EQ(std::size(kSeed), kPixelFormatCount);
  for (unsigned code = 0; code < kPixelFormatCount; ++code) {
    const SeedRow& r = kSeed[code];  // the seed lists formats in register-code order
    SCOPED_TRACE(r.name);
    const auto f = pixel_format_from_name(r.name);
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(static_cast<unsigned>(*f), code);
    const PixelFormatInfo& info = pixel_format_info(*f);
    EXPECT_EQ(info.planes, r.planes);
    EXPECT_EQ(info.channels, r.channels);
    EXPECT_EQ(info.precision, r.p);
    EXPECT_EQ(max_x_offset(*f), r.max_x);
  }
  EXPECT_FALSE(pixel_format_from_name("T_R8G8B8").has_value());
  EXPECT_THROW(pixel_format_info(static_cast<PixelFormat>(36)), std::invalid_argument);
  EXPECT_EQ(max_x_offset(PixelFormat::T_R8, 8), 7u);  // conv.md §5.1: X_OFFSET < atom / bpp
}

// conv.md §10.2: T_A8R8G8B8 bytes 10 80 f0 ff -> R 240, G 128, B 16, A 255.
TEST(PixelFormats, ConvWorkedExample) {
  const uint8_t px[4] = {0x10, 0x80, 0xF0, 0xFF};
  EXPECT_EQ(unpack_pixel(PixelFormat::T_A8R8G8B8, px, nullptr), (PixelComponents{240, 128, 16, 255}));
}

// Byte/word order of each group, transcribed from the conv.md §5.2 table: component i comes
// from memory byte (or word) kOrder[i].
TEST(PixelFormats, ComponentOrderPerFormatGroup) {
  struct Group { PixelFormat f; unsigned order[4]; };
  const Group bytes[] = {{PixelFormat::T_A8B8G8R8, {0, 1, 2, 3}}, {PixelFormat::T_X8B8G8R8, {0, 1, 2, 3}},
                         {PixelFormat::T_A8R8G8B8, {2, 1, 0, 3}}, {PixelFormat::T_X8R8G8B8, {2, 1, 0, 3}},
                         {PixelFormat::T_A8Y8U8V8, {2, 1, 0, 3}}, {PixelFormat::T_B8G8R8A8, {1, 2, 3, 0}},
                         {PixelFormat::T_B8G8R8X8, {1, 2, 3, 0}}, {PixelFormat::T_V8U8Y8A8, {1, 2, 3, 0}},
                         {PixelFormat::T_R8G8B8A8, {3, 2, 1, 0}}, {PixelFormat::T_R8G8B8X8, {3, 2, 1, 0}}};
  const uint8_t px[4] = {0xA0, 0xA1, 0xA2, 0xA3};
  for (const Group& g : bytes) {
    const PixelComponents c = unpack_pixel(g.f, px, nullptr);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(c[i], 0xA0 + g.order[i]) << pixel_format_info(g.f).name << " comp " << i;
  }
  const Group words[] = {{PixelFormat::T_A16B16G16R16, {0, 1, 2, 3}}, {PixelFormat::T_A16Y16U16V16, {2, 1, 0, 3}},
                         {PixelFormat::T_V16U16Y16A16, {1, 2, 3, 0}}, {PixelFormat::T_A16Y16U16V16_F, {2, 1, 0, 3}}};
  const uint8_t px16[8] = {0x00, 0xB0, 0x01, 0xB1, 0x02, 0xB2, 0x03, 0xB3};
  for (const Group& g : words) {
    const PixelComponents c = unpack_pixel(g.f, px16, nullptr);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(c[i], 0xB000 + 0x101 * g.order[i]) << pixel_format_info(g.f).name;
  }
  // Semi-planar: Y from plane 0, U/V from the plane-1 pair.
  const uint8_t y = 0x11, uv[2] = {0x22, 0x33};
  EXPECT_EQ(unpack_pixel(PixelFormat::T_Y8___U8V8_N444, &y, uv), (PixelComponents{0x11, 0x33, 0x22, 0}));
  EXPECT_EQ(unpack_pixel(PixelFormat::T_Y8___V8U8_N444, &y, uv), (PixelComponents{0x11, 0x22, 0x33, 0}));
  const uint8_t y16[2] = {0x34, 0x12}, uv16[4] = {0x78, 0x56, 0xBC, 0x9A};
  EXPECT_EQ(unpack_pixel(PixelFormat::T_Y16___U16V16_N444, y16, uv16), (PixelComponents{0x1234, 0x9ABC, 0x5678, 0}));
  EXPECT_EQ(unpack_pixel(PixelFormat::T_Y10___V10U10_N444, y16, uv16), (PixelComponents{0x1234, 0x5678, 0x9ABC, 0}));
  EXPECT_THROW(unpack_pixel(PixelFormat::T_Y8___U8V8_N444, &y, nullptr), std::invalid_argument);
}

// 10-bit packed formats: fields scaled by 64 (colour) and 16384 (alpha).
TEST(PixelFormats, TenBitPackedFields) {
  const uint32_t u = 0xC0300401;  // [31:30]=3, [29:20]=3, [19:10]=1, [9:0]=1
  const uint8_t px[4] = {0x01, 0x04, 0x30, 0xC0};
  ASSERT_EQ(px[0] | px[1] << 8 | px[2] << 16 | static_cast<uint32_t>(px[3]) << 24, u);
  EXPECT_EQ(unpack_pixel(PixelFormat::T_A2R10G10B10, px, nullptr), (PixelComponents{192, 64, 64, 49152}));
  EXPECT_EQ(unpack_pixel(PixelFormat::T_A2B10G10R10, px, nullptr), (PixelComponents{64, 64, 192, 49152}));
  // [31:22]=0x300, [21:12]=0x000 + ..., [1:0]=1 for the *A2 formats
  const PixelComponents c = unpack_pixel(PixelFormat::T_R10G10B10A2, px, nullptr);
  EXPECT_EQ(c[0], ((u >> 22) & 0x3FF) * 64);
  EXPECT_EQ(c[1], ((u >> 12) & 0x3FF) * 64);
  EXPECT_EQ(c[2], ((u >> 2) & 0x3FF) * 64);
  EXPECT_EQ(c[3], (u & 3) * 16384);
  uint8_t out[4];
  EXPECT_THROW(pack_pixel(PixelFormat::T_R10G10B10A2, {65, 0, 0, 0}, out, nullptr), std::invalid_argument);
  EXPECT_THROW(pack_pixel(PixelFormat::T_A8R8G8B8, {256, 0, 0, 0}, out, nullptr), std::invalid_argument);
}

TEST(PixelFormats, ComponentSignedness) {
  EXPECT_EQ(component_value(PixelFormat::T_R8, 0xF0, false), 240);
  EXPECT_EQ(component_value(PixelFormat::T_R8, 0xF0, true), -16);
  EXPECT_EQ(component_value(PixelFormat::T_R16, 0x8000, false), 32768);
  EXPECT_EQ(component_value(PixelFormat::T_R16, 0x8000, true), -32768);
  EXPECT_THROW(component_value(PixelFormat::T_R16_F, 0x3C00, false), std::invalid_argument);
}

PixelComponents random_components(std::mt19937_64& rng, PixelFormat f) {
  // Representable values: draw packed bits and unpack them.
  uint8_t p0[8], p1[4];
  for (auto& b : p0) b = static_cast<uint8_t>(rng());
  for (auto& b : p1) b = static_cast<uint8_t>(rng());
  return unpack_pixel(f, p0, p1);
}

TEST(PixelFormats, RandomImagesRoundTripThroughMemoryForEveryFormat) {
  std::mt19937_64 rng(0x91C);
  for (unsigned code = 0; code < kPixelFormatCount; ++code)
    for (int iter = 0; iter < 8; ++iter) {
      const auto f = static_cast<PixelFormat>(code);
      const PixelFormatInfo& info = pixel_format_info(f);
      const unsigned atom = (iter & 1) ? 8 : 32;
      const uint32_t w = 1 + static_cast<uint32_t>(rng() % 20), h = 1 + static_cast<uint32_t>(rng() % 5);
      PixelLayout l;
      l.atom_bytes = atom;
      l.x_offset = static_cast<unsigned>(rng() % (max_x_offset(f, atom) + 1));
      l.plane0_base = atom * (rng() % 4);
      l.line_stride = ((l.x_offset + w) * info.plane_bytes[0] + atom - 1) / atom * atom + atom * (rng() % 2);
      l.plane1_base = 4096;
      l.line_uv_stride = ((l.x_offset + w) * info.plane_bytes[1] + atom - 1) / atom * atom;
      SCOPED_TRACE(std::string(info.name) + " " + std::to_string(w) + "x" + std::to_string(h));
      ASSERT_FALSE(pixel_layout_violation(w, h, f, l).has_value()) << *pixel_layout_violation(w, h, f, l);
      PixelImage img(w, h, f);
      for (auto& p : img.pixels) p = random_components(rng, f);
      VectorMemory mem(0, 8192, 0xCD);
      write_pixel_image(mem, img, l);
      ASSERT_EQ(read_pixel_image(mem, w, h, f, l), img);
      // The bytes before the X offset are not written; pixel 0 starts right after them.
      for (unsigned b = 0; b < l.x_offset * info.plane_bytes[0]; ++b) ASSERT_EQ(mem.bytes()[l.plane0_base + b], 0xCD);
      uint8_t p0[8] = {}, p1[4] = {};
      pack_pixel(f, img.at(0, 0), p0, p1);
      for (unsigned b = 0; b < info.plane_bytes[0]; ++b)
        ASSERT_EQ(mem.bytes()[l.plane0_base + l.x_offset * info.plane_bytes[0] + b], p0[b]);
    }
}

TEST(PixelFormats, BadLayoutsAreRejectedNamingTheRule) {
  PixelLayout l;
  l.line_stride = 64;
  EXPECT_FALSE(pixel_layout_violation(16, 2, PixelFormat::T_A8R8G8B8, l).has_value());
  l.x_offset = 8;
  EXPECT_NE(pixel_layout_violation(8, 2, PixelFormat::T_A8R8G8B8, l)->find("X offset 8 exceeds 7"), std::string::npos);
  l.x_offset = 1;
  EXPECT_NE(pixel_layout_violation(16, 2, PixelFormat::T_A8R8G8B8, l)->find("line stride 64 < (X offset + W) * 4 = 68"),
            std::string::npos);
  l.x_offset = 0;
  l.plane0_base = 0x10;
  EXPECT_NE(pixel_layout_violation(16, 2, PixelFormat::T_A8R8G8B8, l)->find("start address 0x10 is not a multiple of 32"),
            std::string::npos);
  l.plane0_base = 0;
  l.line_uv_stride = 8;
  EXPECT_NE(pixel_layout_violation(16, 2, PixelFormat::T_Y8___U8V8_N444, l)->find("plane 1"), std::string::npos);
  VectorMemory mem(0, 1024);
  PixelImage img(16, 2, PixelFormat::T_Y8___U8V8_N444);
  EXPECT_THROW(write_pixel_image(mem, img, l), std::invalid_argument);
}

}  // namespace
}  // namespace dla::formats
