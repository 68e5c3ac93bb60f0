// CRC-32, surface (.dat) files and input.txn data files of NVDLA traces.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "dla/sparse_memory.h"
#include "dla/trace_crc32.h"
#include "dla/trace_error.h"
#include "dla/trace_surface.h"
#include "trace_test_util.h"

namespace dla::trace {
namespace {

std::vector<uint8_t> bytes_of(const char* s) { return std::vector<uint8_t>(s, s + std::strlen(s)); }

// The error message of `f` (which must throw TraceError).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const TraceError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no TraceError thrown";
  return "";
}

TEST(TraceCrc32, CheckValueOfTheSpec) {
  const auto b = bytes_of("123456789");
  EXPECT_EQ(crc32(b.data(), b.size()), 0xCBF43926u);
}

TEST(TraceCrc32, CorpusGoldens) {
  // Spec 2.8: 2,048 zero bytes (the *_all_zero_* goldens) and the first 2,048 bytes of the
  // "inc" passthrough input (byte i = i mod 256), golden of sdp_8x8x32_bypass_int8_1.
  std::vector<uint8_t> zeros(2048, 0), inc(2048);
  for (size_t i = 0; i < inc.size(); ++i) inc[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(crc32(zeros.data(), zeros.size()), 0xF1E8BA9Eu);
  EXPECT_EQ(crc32(inc.data(), inc.size()), 0x9F5EDD58u);
  EXPECT_EQ(crc32(nullptr, 0), 0u);
}

TEST(TraceCrc32, ContinuesAndReadsSparseMemory) {
  const auto a = bytes_of("12345"), b = bytes_of("6789");
  EXPECT_EQ(crc32(b.data(), b.size(), crc32(a.data(), a.size())), 0xCBF43926u);
  SparseMemory mem(7);
  std::vector<uint8_t> inc(3 * 4096 + 100);
  for (size_t i = 0; i < inc.size(); ++i) inc[i] = static_cast<uint8_t>(i);
  mem.load(0x80000ff0, inc);  // crosses pages
  EXPECT_EQ(crc32(mem, 0x80000ff0, inc.size()), crc32(inc.data(), inc.size()));
  // 64 KiB chunks inside crc32(mem): a window larger than one chunk.
  std::vector<uint8_t> big(200000, 0x5a);
  mem.load(0x90000000, big);
  EXPECT_EQ(crc32(mem, 0x90000000, big.size()), crc32(big.data(), big.size()));
}

TEST(TraceSurface, LegacyFourByteRecordsWithHeaderAndHoles) {
  const Surface s = parse_surface(
      "{\n{offset:0x0, size:4, payload:0x01 0x02 0x03 0x04} ,\n{offset:0x4, size:4, payload:0xAA 0xbb 0xCc 0xdD},\n"
      "{offset:0x40, size:4, payload:0x00 0x00 0x00 0x7f} ,\n}\n",
      "a.dat");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[1].bytes, (std::vector<uint8_t>{0xaa, 0xbb, 0xcc, 0xdd}));
  EXPECT_EQ(s.records[2].offset, 0x40u);
  EXPECT_EQ(s.extent(), 0x44u);
  EXPECT_EQ(s.byte_count(), 12u);
  const auto runs = s.contiguous_runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].bytes.size(), 8u);
  EXPECT_EQ(runs[1].offset, 0x40u);
}

TEST(TraceSurface, ToolingRecordsVariantKeysAndSizeForms) {
  // 32-byte style without header and without a final newline; octal/hex sizes; quoted keys.
  std::string payload;
  for (int i = 0; i < 32; ++i) payload += (i ? " " : "") + std::string("0x1F");
  const Surface s = parse_surface("{offset:0x0, size:32, payload:" + payload + "},\n{'offset':0x20, size:0x2, value:0x01 0x02},\n"
                                  "{offset:0x28, size:02, payload:0x03 0x04}",
                                  "b.dat");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[0].bytes, std::vector<uint8_t>(32, 0x1f));
  EXPECT_EQ(s.records[2].bytes, (std::vector<uint8_t>{3, 4}));
}

TEST(TraceSurface, RoundTrip) {
  std::vector<uint8_t> bytes(1000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  const Surface s = surface_from_bytes(bytes);
  EXPECT_EQ(s.records.size(), 32u);  // 31 full records of 32 bytes + 8
  const Surface back = parse_surface(format_surface(s), "rt.dat");
  ASSERT_EQ(back.contiguous_runs().size(), 1u);
  EXPECT_EQ(back.contiguous_runs()[0].bytes, bytes);
  Surface holes;
  holes.records = {{0x10, {1, 2}}, {0x100, {3}}};
  const Surface hb = parse_surface(format_surface(holes), "h.dat");
  ASSERT_EQ(hb.records.size(), 2u);
  EXPECT_EQ(hb.records[1].offset, 0x100u);
}

TEST(TraceSurface, Errors) {
  EXPECT_NE(error_of([] { parse_surface("{offset:0x0, size:4, payload:0x01 0x02 0x03},\n", "f.dat"); })
                .find("f.dat:1: payload has 3 bytes but the record's size is 4"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_surface("\n{offset:0x0, size:2, payload:0x01 0xZZ},\n", "f.dat"); })
                .find("f.dat:2: payload byte '0xZZ' is not 0xHH"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_surface("{offset:0x0, payload:0x01},\n", "f.dat"); }).find("f.dat:1: expected a record"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_surface("hello\n", "f.dat"); }).find("f.dat:1: expected a record"), std::string::npos);
  EXPECT_NE(error_of([] { parse_surface("{offset:40, size:1, payload:0x01},\n", "f.dat"); })
                .find("offset '40' is not a 0x hex number"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_surface("{offset:0x0, size:x, payload:0x01},\n", "f.dat"); }).find("size 'x'"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_surface("{offset:0x4, size:4, payload:0x01 0x02 0x03 0x04},\n{offset:0x6, size:1, payload:0x01},\n",
                            "f.dat");
            }).find("f.dat:2: record at offset 0x6 overlaps"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_surface_file("/nonexistent/x.dat"); }).find("/nonexistent/x.dat: file not found"),
            std::string::npos);
}

TEST(TraceTxnData, HeadersIgnoredSizeAuthoritative) {
  std::string text = "Data_size = 0x1000\nCrc=0xdeadbeef\n# comment\ndumped memory,start_address=0x80100000 size=0x40\n";
  text += "==============================\n";
  for (int line = 0; line < 2; ++line) {
    text += " ";
    for (int i = 0; i < 32; ++i) text += (i ? " " : "") + std::string("0x") + "0123456789abcdef"[line * 2 + i % 2];
    text += "\n";
  }
  const auto b = parse_txn_data(text, "d.dat", 40);
  ASSERT_EQ(b.size(), 40u);
  EXPECT_EQ(b[0], 0x00);
  EXPECT_EQ(b[1], 0x01);
  EXPECT_EQ(b[32], 0x02);
  EXPECT_NE(error_of([&] { parse_txn_data(text, "d.dat", 65); })
                .find("d.dat: holds only 64 (0x40) data bytes, but the command needs 65 (0x41)"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_txn_data("x\n0x01 0xg1\n", "d.dat", 2); }).find("d.dat:2: data byte '0xg1' is not 0xHH"),
            std::string::npos);
}

}  // namespace
}  // namespace dla::trace
