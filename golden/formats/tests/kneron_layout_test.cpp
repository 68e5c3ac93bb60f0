#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "dla/formats/kneron_layout.h"

namespace dla::formats::kneron {
namespace {

// The document's example tensor 1 x 3 x 2 x 5; element (c,h,w) holds a distinct value.
const Shape kEx{1, 3, 2, 5};
int32_t id8(int c, int h, int w) { return (c * 2 + h) * 5 + w + 1; }        // 1..30
int32_t id16(int c, int h, int w) { return -1000 + 258 * id8(c, h, w); }    // even, both bytes vary

std::vector<int32_t> example_values(bool sixteen) {
  std::vector<int32_t> v;
  for (int c = 0; c < 3; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 5; ++w) v.push_back(sixteen ? id16(c, h, w) : id8(c, h, w));
  return v;
}

// Expected bytes from a table written as in kneron_layouts.md: "chw" (8-bit), "chwl"/"chwh"
// (low/high byte of an int16), "chwL"/"chwH" (HL planes), "." (padding, zero here).
std::vector<uint8_t> expect_bytes(const std::string& table) {
  std::istringstream in(table);
  std::vector<uint8_t> out;
  for (std::string t; in >> t;) {
    if (t == ".") {
      out.push_back(0);
      continue;
    }
    const int c = t[0] - '0', h = t[1] - '0', w = t[2] - '0';
    const auto u = static_cast<uint16_t>(id16(c, h, w));
    if (t.size() == 3) out.push_back(static_cast<uint8_t>(id8(c, h, w)));
    else if (t[3] == 'l') out.push_back(static_cast<uint8_t>(u));
    else if (t[3] == 'h' || t[3] == 'H') out.push_back(static_cast<uint8_t>(u >> 8));
    else if (t[3] == 'L') out.push_back(static_cast<uint8_t>((u >> 1) & 0x7F));
  }
  return out;
}

std::vector<uint8_t> head(const std::vector<uint8_t>& v, size_t from, size_t n) {
  return std::vector<uint8_t>(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(from + n));
}

TEST(KneronFixed, FourByFourExample) {
  const auto b = LayoutMap::fixed(Chip::KL720, Layout::k4W4C8B, kEx);
  const auto a = LayoutMap::fixed(Chip::KL520, Layout::k4W4C8B, kEx);
  EXPECT_EQ(b.size_bytes(), 64u);
  EXPECT_EQ(a.size_bytes(), 128u);
  const auto want = expect_bytes("000 100 200 . 001 101 201 . 002 102 202 . 003 103 203 . "
                                 "004 104 204 . . . . . . . . . . . . .");
  const auto eb = b.encode(example_values(false)), ea = a.encode(example_values(false));
  EXPECT_EQ(head(eb, 0, 32), want);
  EXPECT_EQ(head(ea, 0, 32), want);
  EXPECT_EQ(eb[32], id8(0, 1, 0));  // row h=1 at byte 32 on KL720/KL630
  EXPECT_EQ(ea[64], id8(0, 1, 0));  // and at byte 64 on KL520 (W padded to 16)
}

// §2.1 with C > 4: KL520 orders rows H-outer then channel block; KL720/KL630 the reverse.
TEST(KneronFixed, FourByFourChannelBlockOrder) {
  const Shape s{1, 8, 2, 1};
  const auto a = LayoutMap::fixed(Chip::KL520, Layout::k4W4C8B, s);  // Wa = 16, 64 bytes per (h, block) row
  const auto b = LayoutMap::fixed(Chip::KL720, Layout::k4W4C8B, s);  // Wa = 4, 16 bytes per row
  EXPECT_EQ(a.byte_address(0, 4, 0, 0)[0], 64u);   // h 0, block 1
  EXPECT_EQ(a.byte_address(0, 0, 1, 0)[0], 128u);  // h 1, block 0
  EXPECT_EQ(a.byte_address(0, 7, 1, 0)[0], 195u);
  EXPECT_EQ(b.byte_address(0, 4, 0, 0)[0], 32u);   // block 1, h 0
  EXPECT_EQ(b.byte_address(0, 0, 1, 0)[0], 16u);   // block 0, h 1
  EXPECT_EQ(a.size_bytes(), 256u);
  EXPECT_EQ(b.size_bytes(), 64u);
}

TEST(KneronFixed, SixteenByOneExampleAndRowOrder) {
  const auto b = LayoutMap::fixed(Chip::KL630, Layout::k16W1C8B, kEx).encode(example_values(false));
  const auto a = LayoutMap::fixed(Chip::KL520, Layout::k16W1C8B, kEx).encode(example_values(false));
  EXPECT_EQ(b.size(), 96u);
  EXPECT_EQ(head(b, 0, 32), expect_bytes("000 001 002 003 004 . . . . . . . . . . . 010 011 012 013 014 . . . . . . . . . . ."));
  EXPECT_EQ(head(a, 0, 32), expect_bytes("000 001 002 003 004 . . . . . . . . . . . 100 101 102 103 104 . . . . . . . . . . ."));
}

TEST(KneronFixed, OneBySixteenAndSixteenBitExamples) {
  const auto m = LayoutMap::fixed(Chip::KL720, Layout::k1W16C8B, kEx);
  EXPECT_EQ(m.size_bytes(), 160u);
  EXPECT_EQ(head(m.encode(example_values(false)), 0, 32),
            expect_bytes("000 100 200 . . . . . . . . . . . . . 001 101 201 . . . . . . . . . . . . ."));
  const auto s = LayoutMap::fixed(Chip::KL720, Layout::k8W1C16B, kEx);
  EXPECT_EQ(s.size_bytes(), 2u * 3 * 2 * 8);
  const auto e = s.encode(example_values(true));
  EXPECT_EQ(head(e, 0, 32), expect_bytes("000l 000h 001l 001h 002l 002h 003l 003h 004l 004h . . . . . . "
                                         "010l 010h 011l 011h 012l 012h 013l 013h 014l 014h . . . . . ."));
  // v1 16-bit data keeps bit 0 (no LSB masking on KL720/KL630).
  std::vector<int32_t> odd(kEx.elements(), 0);
  odd[0] = 1235;
  EXPECT_EQ(s.decode(s.encode(odd))[0], 1235);
}

// seeds/kneron_npu_data_layout.txt entry tables: byte k of entry n (bits [8k+7:8k]).
TEST(KneronFixed, VendorEntryTables) {
  for (Chip chip : {Chip::KL520, Chip::KL720}) {
    const Shape s{1, 4, 1, 12};
    std::vector<int32_t> v(s.elements());
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t w = 0; w < 12; ++w) v[c * 12 + w] = static_cast<int32_t>(w * 4 + c);  // P w CH c
    const auto e = LayoutMap::fixed(chip, Layout::k4W4C8B, s).encode(v);
    for (unsigned entry = 0; entry < 3; ++entry)
      for (unsigned k = 0; k < 16; ++k) ASSERT_EQ(e[entry * 16 + k], (4 * entry + k / 4) * 4 + k % 4) << chip_name(chip);
  }
  const Shape s16{1, 1, 1, 48};
  std::vector<int32_t> p(48);
  for (int w = 0; w < 48; ++w) p[static_cast<size_t>(w)] = w;  // P w CH0
  for (Chip chip : {Chip::KL520, Chip::KL630}) {
    const auto e = LayoutMap::fixed(chip, Layout::k16W1C8B, s16).encode(p);
    for (unsigned i = 0; i < 48; ++i) ASSERT_EQ(e[i], i);
  }
  const Shape s1{1, 16, 1, 3};
  std::vector<int32_t> q(s1.elements());
  for (uint32_t c = 0; c < 16; ++c)
    for (uint32_t w = 0; w < 3; ++w) q[c * 3 + w] = static_cast<int32_t>(w * 16 + c);  // P w CH c
  const auto e = LayoutMap::fixed(Chip::KL720, Layout::k1W16C8B, s1).encode(q);
  for (unsigned i = 0; i < 48; ++i) ASSERT_EQ(e[i], i);
}

TEST(KneronKl730, CanonicalStridesReproduceFamilyB) {
  std::mt19937_64 rng(730);
  const Layout shared[] = {Layout::k4W4C8B, Layout::k16W1C8B, Layout::k1W16C8B, Layout::k8W1C16B};
  for (int iter = 0; iter < 200; ++iter) {
    const Layout l = shared[rng() % 4];
    const Shape s{1, 1 + static_cast<uint32_t>(rng() % (l == Layout::k4W4C8B ? 4 : 40)), 1 + static_cast<uint32_t>(rng() % 5),
                  1 + static_cast<uint32_t>(rng() % 40)};
    std::vector<int32_t> v(s.elements());
    const bool wide = l == Layout::k8W1C16B;
    for (auto& x : v) x = wide ? static_cast<int16_t>(rng() & 0xFFFE) : static_cast<int8_t>(rng());
    const auto c = LayoutMap::kl730_canonical(l, s), b = LayoutMap::fixed(Chip::KL720, l, s);
    ASSERT_EQ(c.size_bytes(), b.size_bytes()) << layout_name(l);
    ASSERT_EQ(c.encode(v), b.encode(v)) << layout_name(l);
  }
}

TEST(KneronKl730, OuterGroupVersusChannelCompact) {
  const Shape s{1, 20, 1, 2};
  std::vector<int32_t> v(s.elements());
  for (uint32_t c = 0; c < 20; ++c)
    for (uint32_t w = 0; w < 2; ++w) v[c * 2 + w] = static_cast<int32_t>(c * 2 + w + 1);
  const auto val = [](uint32_t c, uint32_t w) { return static_cast<uint8_t>(c * 2 + w + 1); };
  const auto outer = LayoutMap::kl730_canonical(Layout::k1W16C8B, s).encode(v);
  const auto compact = LayoutMap::kl730_canonical(Layout::k1W16C8B_CH_COMPACT, s).encode(v);
  ASSERT_EQ(outer.size(), 64u);
  ASSERT_EQ(compact.size(), 64u);
  for (uint32_t k = 0; k < 16; ++k) {
    EXPECT_EQ(outer[k], val(k, 0));            // pixel 0, group 0
    EXPECT_EQ(outer[16 + k], val(k, 1));       // pixel 1, group 0
    EXPECT_EQ(compact[k], val(k, 0));          // pixel 0, group 0
    EXPECT_EQ(compact[32 + k], val(k, 1));     // pixel 1, group 0
  }
  for (uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(outer[32 + k], val(16 + k, 0));  // pixel 0, group 1
    EXPECT_EQ(outer[48 + k], val(16 + k, 1));
    EXPECT_EQ(compact[16 + k], val(16 + k, 0));
    EXPECT_EQ(compact[48 + k], val(16 + k, 1));
  }
  EXPECT_EQ(outer[36], 0);
  EXPECT_EQ(compact[20], 0);
}

TEST(KneronKl730, RawAndFlexibleColumnExamples) {
  EXPECT_EQ(LayoutMap::kl730_canonical(Layout::RAW_8B, kEx).encode(example_values(false)),
            expect_bytes("000 001 002 003 004 010 011 012 013 014 100 101 102 103 104 110 "
                         "111 112 113 114 200 201 202 203 204 210 211 212 213 214"));
  EXPECT_EQ(head(LayoutMap::kl730_canonical(Layout::RAW_16B, kEx).encode(example_values(true)), 0, 32),
            expect_bytes("000l 000h 001l 001h 002l 002h 003l 003h 004l 004h 010l 010h 011l 011h 012l 012h "
                         "013l 013h 014l 014h 100l 100h 101l 101h 102l 102h 103l 103h 104l 104h 110l 110h"));
  const auto drop = LayoutMap::kl730_canonical(Layout::HW4C8B_DROP_A, kEx);
  EXPECT_EQ(drop.size_bytes(), 40u);
  EXPECT_EQ(head(drop.encode(example_values(false)), 0, 32),
            expect_bytes("000 100 200 . 001 101 201 . 002 102 202 . 003 103 203 . "
                         "004 104 204 . 010 110 210 . 011 111 211 . 012 112 212 ."));
  const Shape g{1, 1, 2, 5};
  std::vector<int32_t> gv(10);
  for (int i = 0; i < 10; ++i) gv[static_cast<size_t>(i)] = i + 1;
  EXPECT_EQ(LayoutMap::kl730_canonical(Layout::HW1C8B, g).encode(gv),
            (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_THROW(LayoutMap::kl730_canonical(Layout::HW4C8B_KEEP_A, kEx), std::invalid_argument);  // needs C = 4
  // RAW_FLOAT: little-endian binary32 in ONNX order.
  const auto f = LayoutMap::kl730_canonical(Layout::RAW_FLOAT, Shape{1, 1, 1, 2});
  const auto fb = f.encode_float({1.0f, -2.5f});
  EXPECT_EQ(fb, (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0}));
  EXPECT_EQ(f.decode_float(fb), (std::vector<float>{1.0f, -2.5f}));
}

TEST(KneronKl730, SixteenBitLsbRuleAndByteSwap) {
  const Shape s{1, 1, 1, 2};
  const auto le = LayoutMap::kl730_canonical(Layout::HW1C16B_LE, s);
  const auto be = LayoutMap::kl730_canonical(Layout::HW1C16B_BE, s);
  EXPECT_EQ(le.encode({0x1235, -1}), (std::vector<uint8_t>{0x34, 0x12, 0xFE, 0xFF}));
  EXPECT_EQ(be.encode({0x1235, -1}), (std::vector<uint8_t>{0x12, 0x34, 0xFF, 0xFE}));
  EXPECT_EQ(le.decode({0x35, 0x12, 0xFF, 0xFF}), (std::vector<int32_t>{0x1234, -2}));
  EXPECT_EQ(LayoutMap::kl730_canonical(Layout::RAW_16B, s).decode({0x01, 0x00, 0x03, 0x80}),
            (std::vector<int32_t>{0, -32766}));
}

TEST(KneronKl730, HlExamplesAndBitSplit) {
  const auto v = example_values(true);
  const auto f4 = LayoutMap::kl730_canonical(Layout::k4W4C8BHL, kEx);
  EXPECT_EQ(f4.size_bytes(), 128u);
  const auto e4 = f4.encode(v);
  EXPECT_EQ(head(e4, 0, 32), expect_bytes("000L 100L 200L . 001L 101L 201L . 002L 102L 202L . 003L 103L 203L . "
                                          "000H 100H 200H . 001H 101H 201H . 002H 102H 202H . 003H 103H 203H ."));
  EXPECT_EQ(head(e4, 32, 4), expect_bytes("004L 104L 204L ."));
  EXPECT_EQ(head(e4, 48, 4), expect_bytes("004H 104H 204H ."));
  EXPECT_EQ(e4[64], expect_bytes("010L")[0]);  // row h=1 at byte 64
  const auto f16 = LayoutMap::kl730_canonical(Layout::k16W1C8BHL, kEx);
  EXPECT_EQ(f16.size_bytes(), 192u);
  EXPECT_EQ(head(f16.encode(v), 0, 32), expect_bytes("000L 001L 002L 003L 004L . . . . . . . . . . . "
                                                     "000H 001H 002H 003H 004H . . . . . . . . . . ."));
  for (Layout l : {Layout::k1W16C8BHL, Layout::k1W16C8BHL_CH_COMPACT}) {
    const auto m = LayoutMap::kl730_canonical(l, kEx);
    EXPECT_EQ(m.size_bytes(), 320u) << layout_name(l);
    EXPECT_EQ(head(m.encode(v), 0, 32), expect_bytes("000L 100L 200L . . . . . . . . . . . . . "
                                                     "000H 100H 200H . . . . . . . . . . . . .")) << layout_name(l);
  }
  // Numeric check of §3.6.
  const auto one = LayoutMap::kl730_canonical(Layout::k16W1C8BHL, Shape{1, 1, 1, 1});
  const auto b = one.encode({-1234});
  EXPECT_EQ(b[0], 0x17);
  EXPECT_EQ(b[16], 0xFB);
  EXPECT_EQ(one.decode(b)[0], -1234);
  const auto b2 = one.encode({1235});
  EXPECT_EQ(b2[0], 0x69);
  EXPECT_EQ(b2[16], 0x04);
  EXPECT_EQ(one.decode(b2)[0], 1234);
  EXPECT_EQ(one.decode(one.encode({-1}))[0], -2);
}

// §4, transcribed: rows = layouts in enum order, columns KL520..KL730.
TEST(KneronLegality, TableAndUnsupportedLayouts) {
  const char* const want[kLayoutCount][5] = {
      {"I", "e", "I", "I", "Io"}, {"", "e", "Io", "IO", "IO"}, {"O", "e", "IO", "IO", "IO"}, {"", "e", "eo", "Oe", "IO"},
      {"", "e", "e", "", "IO"},   {"", "e", "e", "e", "IO"},   {"", "e", "e", "", "IO"},     {"", "", "", "", "IO"},
      {"", "", "", "", "IO"},     {"", "e", "e", "e", "IO"},   {"", "e", "e", "e", "IO"},    {"", "e", "e", "e", "e"},
      {"", "", "", "e", "e"},     {"", "", "", "", "I"},       {"", "", "", "", "I"},        {"", "", "", "", "I"},
      {"", "", "", "", "I"},      {"", "", "", "", "I"}};
  const Chip chips[] = {Chip::KL520, Chip::KL530, Chip::KL630, Chip::KL720, Chip::KL730};
  for (unsigned l = 0; l < kLayoutCount; ++l)
    for (unsigned c = 0; c < 5; ++c) {
      const Legality g = legality(chips[c], static_cast<Layout>(l));
      const std::string w = want[l][c];
      SCOPED_TRACE(std::string(layout_name(static_cast<Layout>(l))) + " on " + chip_name(chips[c]));
      EXPECT_EQ(g.input, w.find('I') != std::string::npos);
      EXPECT_EQ(g.output, w.find('O') != std::string::npos);
      EXPECT_EQ(g.decoder_output, w.find('o') != std::string::npos);
      EXPECT_EQ(g.enum_only, w.find('e') != std::string::npos);
    }
  for (Chip c : chips)
    for (Direction d : {Direction::Input, Direction::Output}) {
      const auto e = usage_error(c, Layout::PS_1W16C24B, d);
      ASSERT_TRUE(e.has_value());
      EXPECT_EQ(e->rfind("unsupported", 0), 0u) << *e;
    }
  EXPECT_THROW(LayoutMap::strided(Layout::PS_1W16C24B, kEx, {1, 1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(LayoutMap::for_chip(Chip::KL520, Layout::k1W16C8B, Direction::Input, kEx), std::invalid_argument);
  EXPECT_THROW(LayoutMap::for_chip(Chip::KL720, Layout::k8W1C16B, Direction::Input, kEx), std::invalid_argument);
  EXPECT_NO_THROW(LayoutMap::for_chip(Chip::KL720, Layout::k8W1C16B, Direction::Output, kEx));
  EXPECT_NO_THROW(LayoutMap::for_chip(Chip::KL730, Layout::k4W4C8B, Direction::Output, kEx));  // host decoder ("o")
  EXPECT_NE(usage_error(Chip::KL630, Layout::k1W16C8BHL, Direction::Input)->find("no documented use"), std::string::npos);
  try {
    LayoutMap::fixed(Chip::KL630, Layout::k16W1C8BHL, kEx);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unsupported", 0), 0u) << e.what();
  }
  EXPECT_THROW(LayoutMap::kl730_canonical(Layout::k4W4C8B, Shape{1, 5, 1, 1}), std::invalid_argument);  // C > 4 open
}

TEST(KneronLayouts, RandomRoundTripEveryLayoutAndFamily) {
  std::mt19937_64 rng(0x4B);
  for (int iter = 0; iter < 300; ++iter) {
    const auto l = static_cast<Layout>(rng() % kLayoutCount);
    if (l == Layout::PS_1W16C24B) continue;
    Shape s{1, 1 + static_cast<uint32_t>(rng() % 40), 1 + static_cast<uint32_t>(rng() % 6), 1 + static_cast<uint32_t>(rng() % 40)};
    if (l == Layout::k4W4C8B || l == Layout::k4W4C8BHL) s.c = 1 + s.c % 4;
    if (l == Layout::HW1C8B || l == Layout::HW1C16B_LE || l == Layout::HW1C16B_BE) s.c = 1;
    if (l == Layout::HW4C8B_KEEP_A) s.c = 4;
    if (l == Layout::HW4C8B_DROP_A) s.c = 3;
    const bool fam_ab = iter % 2 && (l == Layout::k4W4C8B || l == Layout::k16W1C8B || l == Layout::k1W16C8B ||
                                     l == Layout::k8W1C16B);
    const LayoutMap m = fam_ab ? LayoutMap::fixed(Chip::KL630, l, s) : LayoutMap::kl730_canonical(l, s);
    SCOPED_TRACE(std::string(layout_name(l)) + (fam_ab ? " KL630" : " KL730"));
    // Every element gets its own byte(s) inside the buffer.
    std::vector<int> used(m.size_bytes(), 0);
    for (uint32_t c = 0; c < s.c; ++c)
      for (uint32_t h = 0; h < s.h; ++h)
        for (uint32_t w = 0; w < s.w; ++w) {
          const auto a = m.byte_address(0, c, h, w);
          const unsigned width = element_kind(l) == ElementKind::Float32 ? 4 : 1;
          for (unsigned k = 0; k < width; ++k) ASSERT_EQ(used.at(a[0] + k)++, 0);
          if (a[1] != a[0]) {
            ASSERT_EQ(used.at(a[1])++, 0);
          }
        }
    if (element_kind(l) == ElementKind::Float32) {
      std::vector<float> f(s.elements());
      for (auto& x : f) x = static_cast<float>(static_cast<int64_t>(rng() % 2001) - 1000) / 8.0f;
      ASSERT_EQ(m.decode_float(m.encode_float(f)), f);
      continue;
    }
    std::vector<int32_t> v(s.elements());
    for (auto& x : v)
      x = element_kind(l) == ElementKind::Int8 ? static_cast<int8_t>(rng()) : static_cast<int16_t>(rng() & 0xFFFE);
    ASSERT_EQ(m.decode(m.encode(v)), v);
  }
}

TEST(KneronQuantization, RoundingSaturationAndLsb) {
  EXPECT_EQ(quantize(2.5, 0, 1.0, 8), 2);  // half to even
  EXPECT_EQ(quantize(3.5, 0, 1.0, 8), 4);
  EXPECT_EQ(quantize(2.5, 0, 1.0, 8, Rounding::HalfAwayFromZero), 3);
  EXPECT_EQ(quantize(-2.5, 0, 1.0, 8, Rounding::HalfAwayFromZero), -3);
  EXPECT_EQ(quantize(0.5, 8, 1.0, 8), 127);  // RGB/256 - 0.5 with radix 8: 128 saturates
  EXPECT_EQ(quantize(-0.5, 8, 1.0, 8), -128);
  EXPECT_EQ(quantize(0.3, 4, 2.0, 8), 10);   // 0.3 * 16 * 2 = 9.6
  EXPECT_EQ(quantize(1e9, 0, 1.0, 16), 32767);
  EXPECT_EQ(quantize(1e9, 0, 1.0, 16, Rounding::HalfEven, true), 32766);
  EXPECT_EQ(quantize(7.0, 0, 1.0, 16, Rounding::HalfEven, true), 6);  // odd moves down, not re-rounded
  EXPECT_EQ(quantize(-7.0, 0, 1.0, 16, Rounding::HalfEven, true), -8);
  EXPECT_DOUBLE_EQ(dequantize(10, 4, 2.0), 10.0 / 32.0);
  EXPECT_THROW(quantize(1.0, 0, 1.0, 12), std::invalid_argument);
}

TEST(KneronQuantization, PerChannelDescriptors) {
  const Shape s{1, 2, 1, 2};
  Quantization q;
  q.radix = {3};          // broadcast
  q.scale = {1.0, 0.5};   // per channel
  const auto qv = quantize_tensor({1.0f, 2.0f, 1.0f, 2.0f}, s, q, 8);
  EXPECT_EQ(qv, (std::vector<int32_t>{8, 16, 4, 8}));
  EXPECT_EQ(dequantize_tensor(qv, s, q), (std::vector<float>{1.0f, 2.0f, 1.0f, 2.0f}));
  q.scale = {1.0, 1.0, 1.0};
  EXPECT_NO_THROW(quantize_tensor({0, 0, 0, 0}, s, q, 8));
  q.scale = {1.0};
  q.radix = {1, 2, 3};
  EXPECT_NO_THROW(quantize_tensor({0, 0, 0, 0}, s, q, 8));
  q.radix = {1};
  q.scale = {};
  EXPECT_THROW(quantize_tensor({0, 0, 0, 0}, s, q, 8), std::invalid_argument);
}

}  // namespace
}  // namespace dla::formats::kneron
