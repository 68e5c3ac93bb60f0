#include <gtest/gtest.h>

#include <numeric>
#include <set>
#include <vector>

#include "dla/sparse_memory.h"

namespace dla {
namespace {

std::vector<uint8_t> iota_bytes(size_t n, uint8_t first) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

TEST(SparseMemory, NeverWrittenBytesReadAsPoisonThatDependsOnSeedAndAddress) {
  SparseMemory a(1), b(1), c(2);
  std::vector<uint8_t> ra = a.read(0x1000, 64), rb = b.read(0x1000, 64), rc = c.read(0x1000, 64);
  EXPECT_EQ(ra, rb);  // same seed, same pattern
  EXPECT_NE(ra, rc);  // another seed changes it
  for (size_t i = 0; i < ra.size(); ++i) EXPECT_EQ(ra[i], a.poison_byte(0x1000 + i));
  // The pattern is not constant across addresses (a stuck value would hide bugs).
  std::set<uint8_t> distinct(ra.begin(), ra.end());
  EXPECT_GT(distinct.size(), 16u);
  EXPECT_EQ(a.page_count(), 0u) << "reads must not allocate";
  EXPECT_FALSE(a.is_written(0x1000));
}

TEST(SparseMemory, WriteThenReadBackAndNeighboursStayPoison) {
  SparseMemory m(7);
  const auto data = iota_bytes(10, 0x40);
  m.write(0x2003, data);
  EXPECT_EQ(m.read(0x2003, 10), data);
  EXPECT_EQ(m.read_byte(0x2002), m.poison_byte(0x2002));
  EXPECT_EQ(m.read_byte(0x200d), m.poison_byte(0x200d));
  EXPECT_TRUE(m.is_written(0x2003));
  EXPECT_TRUE(m.is_written(0x200c));
  EXPECT_FALSE(m.is_written(0x200d));
}

TEST(SparseMemory, MaskedWriteTouchesOnlyEnabledBytes) {
  SparseMemory m(3);
  const std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<uint8_t> be = {1, 0, 0xff, 0, 0, 1, 1, 0};
  m.write_masked(0x100, data.data(), data.size(), be.data());
  for (size_t i = 0; i < data.size(); ++i) {
    const uint64_t a = 0x100 + i;
    if (be[i]) {
      EXPECT_EQ(m.read_byte(a), data[i]) << i;
      EXPECT_TRUE(m.is_written(a)) << i;
    } else {
      EXPECT_EQ(m.read_byte(a), m.poison_byte(a)) << i;
      EXPECT_FALSE(m.is_written(a)) << i;
      EXPECT_FALSE(m.in_footprint(a)) << i;
    }
  }
  // An all-disabled masked write allocates nothing.
  SparseMemory n;
  const std::vector<uint8_t> none(8, 0);
  n.write_masked(0x5000, data.data(), data.size(), none.data());
  EXPECT_EQ(n.page_count(), 0u);
}

TEST(SparseMemory, WritesAndReadsCrossPageBoundaries) {
  SparseMemory m(9);
  const auto data = iota_bytes(SparseMemory::kPageBytes + 100, 0);
  const uint64_t addr = 3 * SparseMemory::kPageBytes - 50;  // spans three pages
  m.write(addr, data);
  EXPECT_EQ(m.page_count(), 3u);
  EXPECT_EQ(m.read(addr, data.size()), data);
  EXPECT_EQ(m.read_byte(addr - 1), m.poison_byte(addr - 1));
  // A read that straddles written and unallocated pages mixes data and poison.
  const auto tail = m.read(addr + data.size() - 2, 4);
  EXPECT_EQ(tail[0], data[data.size() - 2]);
  EXPECT_EQ(tail[1], data[data.size() - 1]);
  EXPECT_EQ(tail[2], m.poison_byte(addr + data.size()));
}

TEST(SparseMemory, TopOfTheAddressSpaceWrapsWithoutCrashing) {
  SparseMemory m;
  const std::vector<uint8_t> data = {0xaa, 0xbb, 0xcc, 0xdd};
  m.write(~uint64_t{0} - 1, data);
  EXPECT_EQ(m.read_byte(~uint64_t{0}), 0xbb);
  EXPECT_EQ(m.read_byte(0), 0xcc);
  EXPECT_EQ(m.read_byte(1), 0xdd);
}

// A 32-bit memory ignores the address bits above 32 (as NVDLA's 32-bit configurations do):
// the same byte under any upper bits, runs across 4 GiB wrap to 0, poison agrees too.
TEST(SparseMemory, ThirtyTwoBitAddressesDropTheUpperBits) {
  SparseMemory m(9, 32);
  EXPECT_EQ(m.address_bits(), 32u);
  m.write(0x5'0000'1000ull, iota_bytes(4, 10));
  EXPECT_EQ(m.read_byte(0x1000), 10);
  EXPECT_EQ(m.read_byte(0xffff'ffff'0000'1001ull), 11);
  EXPECT_TRUE(m.is_written(0x1002));
  EXPECT_TRUE(m.in_footprint(0x7'0000'1003ull));
  m.write(0x1'ffff'fffeull, iota_bytes(4, 50));
  EXPECT_EQ(m.read(0xffff'fffeull, 4), (std::vector<uint8_t>{50, 51, 52, 53}));
  EXPECT_EQ(m.read_byte(0), 52);
  EXPECT_EQ(m.poison_byte(0x3'0000'0040ull), m.poison_byte(0x40));
  std::set<uint64_t> bases;
  m.for_each_page([&](uint64_t base, const uint8_t*, const uint8_t*) { bases.insert(base); });
  EXPECT_EQ(bases, (std::set<uint64_t>{0, 0x1000, 0xffff'f000ull}));
  // The width survives copies and moves.
  SparseMemory c = m;
  EXPECT_EQ(c.read_byte(0x2'0000'1000ull), 10);
  SparseMemory d = std::move(c);
  EXPECT_EQ(d.address_bits(), 32u);
  EXPECT_THROW(SparseMemory(0, 8), std::invalid_argument);
  // 64 bits (the default) keeps the upper bits apart.
  SparseMemory w;
  w.write(0x1'0000'0000ull, iota_bytes(1, 7));
  EXPECT_FALSE(w.is_written(0));
}

TEST(SparseMemory, FootprintRecordsWritesSinceLastClear) {
  SparseMemory m;
  m.write(0x10, iota_bytes(4, 0));
  EXPECT_TRUE(m.in_footprint(0x10));
  m.clear_footprint();
  EXPECT_FALSE(m.in_footprint(0x10));
  EXPECT_TRUE(m.is_written(0x10)) << "clearing the footprint keeps the data";
  m.write(0x12, iota_bytes(1, 9));
  EXPECT_FALSE(m.in_footprint(0x11));
  EXPECT_TRUE(m.in_footprint(0x12));
  EXPECT_FALSE(m.in_footprint(0x9999));
}

TEST(SparseMemory, LoadsStoreDataButStayOutOfTheFootprint) {
  SparseMemory m;
  m.load(0xff0, iota_bytes(0x20, 1));  // crosses a page boundary
  EXPECT_TRUE(m.is_written(0xff0));
  EXPECT_TRUE(m.is_written(0x100f));
  EXPECT_EQ(m.read_byte(0x1000), 0x11);
  EXPECT_FALSE(m.in_footprint(0xff0));
  EXPECT_FALSE(m.in_footprint(0x100f));
  m.write(0x1000, iota_bytes(1, 7));
  EXPECT_TRUE(m.in_footprint(0x1000));
  EXPECT_FALSE(m.in_footprint(0x1001));
}

TEST(SparseMemory, WidelySpreadWritesAllocateOnlyTouchedPages) {
  SparseMemory m;
  // 200 small loads spread over ~100 MB (and one far above 4 GiB).
  for (uint64_t i = 0; i < 200; ++i) m.write(i * 500'000 + 7, iota_bytes(16, 1));
  m.write(0x12'3456'7000ull, iota_bytes(16, 1));
  EXPECT_LE(m.page_count(), 201u + 10u);
  EXPECT_GE(m.page_count(), 201u);
}

TEST(SparseMemory, ForEachPageVisitsInAddressOrderWithWrittenFlags) {
  SparseMemory m;
  m.write(0x9000, iota_bytes(2, 5));
  m.write(0x1000, iota_bytes(1, 5));
  m.write(0x5000'0000ull, iota_bytes(1, 5));
  std::vector<uint64_t> bases;
  size_t written = 0;
  m.for_each_page([&](uint64_t base, const uint8_t* data, const uint8_t* w) {
    bases.push_back(base);
    for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i) {
      if (w[i]) {
        ++written;
        EXPECT_EQ(data[i], m.read_byte(base + i));
      }
    }
  });
  EXPECT_EQ(bases, (std::vector<uint64_t>{0x1000, 0x9000, 0x5000'0000ull}));
  EXPECT_EQ(written, 4u);
}

TEST(SparseMemory, CopiesAreIndependent) {
  SparseMemory a(5);
  a.write(0x40, iota_bytes(4, 1));
  SparseMemory b = a;
  b.write(0x40, iota_bytes(4, 100));
  EXPECT_EQ(a.read_byte(0x40), 1);
  EXPECT_EQ(b.read_byte(0x40), 100);
  SparseMemory c = std::move(b);
  EXPECT_EQ(c.read_byte(0x41), 101);
  EXPECT_EQ(c.poison_seed(), 5u);
}

}  // namespace
}  // namespace dla
