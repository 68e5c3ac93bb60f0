// BDMA in the golden model (spec 3): copies, launch groups, STATUS and illegal programming.
#include <gtest/gtest.h>

#include <map>

#include "dla/golden_model.h"
#include "dla/regs.gen.h"

namespace dla {
namespace {

namespace B = reg::BDMA;

struct Copy {
  uint64_t src, dst;
  uint32_t line_bytes, lines, surfaces;
  uint32_t src_line, dst_line, src_surf, dst_surf;
  MemPort src_port = MemPort::Dbb, dst_port = MemPort::Dbb;
};

struct BdmaFixture : ::testing::Test {
  const HwConfig& cfg = HwConfig::get("v1");
  GoldenModel m{cfg, 42};
  uint32_t base = *cfg.unit_base[static_cast<unsigned>(Unit::BDMA)];
  uint32_t glb_status = *cfg.unit_base[static_cast<unsigned>(Unit::GLB)] + reg::GLB::S_INTR_STATUS::offset;

  void w(uint32_t off, uint32_t v) { m.csb_write(base + off, v); }
  uint32_t r(uint32_t off) { return m.csb_read(base + off); }
  void enqueue(const Copy& c) {
    w(B::CFG_SRC_ADDR_LOW::offset, static_cast<uint32_t>(c.src));
    w(B::CFG_SRC_ADDR_HIGH::offset, static_cast<uint32_t>(c.src >> 32));
    w(B::CFG_DST_ADDR_LOW::offset, static_cast<uint32_t>(c.dst));
    w(B::CFG_DST_ADDR_HIGH::offset, static_cast<uint32_t>(c.dst >> 32));
    w(B::CFG_LINE::offset, c.line_bytes / 32 - 1);
    w(B::CFG_CMD::offset, (c.src_port == MemPort::Dbb ? 1u : 0u) | (c.dst_port == MemPort::Dbb ? 2u : 0u));
    w(B::CFG_LINE_REPEAT::offset, c.lines - 1);
    w(B::CFG_SRC_LINE::offset, c.src_line);
    w(B::CFG_DST_LINE::offset, c.dst_line);
    w(B::CFG_SURF_REPEAT::offset, c.surfaces - 1);
    w(B::CFG_SRC_SURF::offset, c.src_surf);
    w(B::CFG_DST_SURF::offset, c.dst_surf);
    w(B::CFG_OP::offset, 1);
  }
  // Deterministic source bytes (no RNG needed here).
  void fill(MemPort port, uint64_t addr, size_t n, uint8_t salt) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 7 + salt + (i >> 8));
    m.memory(port).write(addr, v);
  }
};

// Independent reference: byte map of what the copy must produce.
std::map<uint64_t, uint8_t> reference(const GoldenModel& m, const Copy& c) {
  std::map<uint64_t, uint8_t> out;
  for (uint32_t s = 0; s < c.surfaces; ++s)
    for (uint32_t l = 0; l < c.lines; ++l)
      for (uint32_t b = 0; b < c.line_bytes; ++b)
        out[c.dst + uint64_t{s} * c.dst_surf + uint64_t{l} * c.dst_line + b] =
            m.memory(c.src_port).read_byte(c.src + uint64_t{s} * c.src_surf + uint64_t{l} * c.src_line + b);
  return out;
}

TEST_F(BdmaFixture, StatusResetValue) { EXPECT_EQ(r(B::STATUS::offset), 0x114u); }

TEST_F(BdmaFixture, SurfacesOfLinesCopyAcrossPortsAndNothingElseIsWritten) {
  const Copy c{0x1'0000'1000ull, 0x20000, 96, 3, 2, 128, 160, 1024, 512, MemPort::Dbb, MemPort::Sram};
  fill(MemPort::Dbb, c.src, 4096, 3);
  const auto expect = reference(m, c);
  m.memory(MemPort::Sram).clear_footprint();
  enqueue(c);
  EXPECT_EQ(r(B::STATUS::offset), 0x013u) << "one slot used, not idle, nothing launched";
  EXPECT_EQ(r(B::CFG_OP::offset), 1u) << "CFG_OP reads back the last written value";
  EXPECT_EQ(m.memory(MemPort::Sram).page_count(), 0u) << "nothing runs before the launch";
  w(B::CFG_LAUNCH1::offset, 1);
  EXPECT_EQ(r(B::CFG_LAUNCH1::offset), 1u);
  EXPECT_EQ(m.csb_read(glb_status), 1u << 7);
  EXPECT_EQ(r(B::STATUS::offset), 0x114u);
  size_t footprint = 0;
  m.memory(MemPort::Sram).for_each_page_with_footprint(
      [&](uint64_t page, const uint8_t*, const uint8_t*, const uint8_t* fp) {
        for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i) {
          if (!fp[i]) continue;
          ++footprint;
          EXPECT_EQ(expect.count(page + i), 1u) << "wrote outside the destination at " << page + i;
        }
      });
  EXPECT_EQ(footprint, expect.size());
  for (const auto& [addr, byte] : expect) ASSERT_EQ(m.memory(MemPort::Sram).read_byte(addr), byte) << addr;
  ASSERT_EQ(m.layers().size(), 1u);
  EXPECT_EQ(m.layers()[0].unit, Unit::BDMA);
  EXPECT_EQ(m.layers()[0].group, 1);
  EXPECT_TRUE(m.warnings().empty());
}

TEST_F(BdmaFixture, BatchRunsInQueueOrderSoLaterOperationsOverwriteEarlierOnes) {
  fill(MemPort::Sram, 0x0, 64, 1);
  fill(MemPort::Sram, 0x100, 64, 99);
  enqueue({0x0, 0x8000, 64, 1, 1, 64, 64, 64, 64, MemPort::Sram, MemPort::Dbb});
  enqueue({0x100, 0x8020, 32, 1, 1, 32, 32, 32, 32, MemPort::Sram, MemPort::Dbb});
  EXPECT_EQ(B::STATUS::FREE_SLOT::get(r(B::STATUS::offset)), 18u);
  w(B::CFG_LAUNCH0::offset, 1);
  EXPECT_EQ(m.csb_read(glb_status), 1u << 6);
  EXPECT_EQ(m.memory(MemPort::Dbb).read_byte(0x8000), m.memory(MemPort::Sram).read_byte(0x0));
  EXPECT_EQ(m.memory(MemPort::Dbb).read_byte(0x8020), m.memory(MemPort::Sram).read_byte(0x100));
  EXPECT_EQ(m.layers().size(), 2u);
}

TEST_F(BdmaFixture, UninitialisedSourceCopiesPoison) {
  enqueue({0x40000, 0x50000, 32, 1, 1, 32, 32, 32, 32});
  w(B::CFG_LAUNCH0::offset, 1);
  EXPECT_EQ(m.memory(MemPort::Dbb).read_byte(0x50005), m.memory(MemPort::Dbb).poison_byte(0x40005));
}

TEST_F(BdmaFixture, EmptyLaunchNeverCompletes) {
  w(B::CFG_LAUNCH0::offset, 1);
  EXPECT_EQ(m.csb_read(glb_status), 0u);
  EXPECT_EQ(r(B::STATUS::offset), 0x314u) << "GRP0_BUSY stays set";
  ASSERT_EQ(m.warnings().size(), 1u);
  EXPECT_NE(m.warnings()[0].find("never completes"), std::string::npos);
  // Relaunch of the busy group: undetermined in hardware; warned, no interrupt for it.
  enqueue({0x0, 0x1000, 32, 1, 1, 32, 32, 32, 32});
  w(B::CFG_LAUNCH0::offset, 1);
  EXPECT_EQ(m.csb_read(glb_status), 0u);
  EXPECT_EQ(m.warnings().size(), 2u);
  // The other group is unaffected.
  enqueue({0x0, 0x2000, 32, 1, 1, 32, 32, 32, 32});
  w(B::CFG_LAUNCH1::offset, 1);
  EXPECT_EQ(m.csb_read(glb_status), 1u << 7);
}

TEST_F(BdmaFixture, QueueOverflowIsReported) {
  for (unsigned i = 0; i < cfg.bdma_queue_depth; ++i) enqueue({0x0, 0x1000 + 32 * i, 32, 1, 1, 32, 32, 32, 32});
  EXPECT_EQ(r(B::STATUS::offset) & 0xffu, 0u);
  EXPECT_TRUE(m.warnings().empty());
  w(B::CFG_OP::offset, 1);
  ASSERT_EQ(m.warnings().size(), 1u);
  EXPECT_NE(m.warnings()[0].find("queue is full"), std::string::npos);
  w(B::CFG_LAUNCH0::offset, 1);
  EXPECT_EQ(m.layers().size(), cfg.bdma_queue_depth);
}

TEST_F(BdmaFixture, WritingZeroToTriggerRegistersDoesNothing) {
  w(B::CFG_OP::offset, 0);
  w(B::CFG_LAUNCH0::offset, 0);
  EXPECT_EQ(r(B::STATUS::offset), 0x114u);
  EXPECT_TRUE(m.layers().empty());
}

TEST_F(BdmaFixture, OverlappingRegionsAreWarned) {
  enqueue({0x1000, 0x1020, 64, 1, 1, 64, 64, 64, 64});
  w(B::CFG_LAUNCH0::offset, 1);
  ASSERT_EQ(m.warnings().size(), 1u);
  EXPECT_NE(m.warnings()[0].find("overlap"), std::string::npos);
}

}  // namespace
}  // namespace dla
