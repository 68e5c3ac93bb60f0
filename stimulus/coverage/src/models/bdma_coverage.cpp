// BDMA coverage: every copy operation the golden model ran (sizes, stride classes, memories,
// launch group, DBB above 4 GiB) and every launched batch (operations queued, group,
// launched while the other group was still busy).
#include <limits>

#include "dla/coverage/covergroup.h"
#include "dla/regs.gen.h"
#include "models/models.h"

namespace dla::cov {

namespace {

namespace B = reg::BDMA;

// Stride class of a stride against the extent it steps over.
enum StrideClass : int64_t { kPacked = 0, kGapped = 1, kOverlapping = 2, kSingle = 3 };

int64_t stride_class(uint64_t stride, uint64_t extent, uint64_t repeats) {
  if (repeats <= 1) return kSingle;
  return stride == extent ? kPacked : stride > extent ? kGapped : kOverlapping;
}

void stride_bins(Coverpoint& p) {
  p.bin("packed", kPacked).bin("gapped", kGapped).ignore("overlapping", kOverlapping, kOverlapping)
      .ignore("single", kSingle, kSingle);
}

// Repeat counts: the registers carry 24 bits, v1's store path 13 (spec 3.3).
void repeat_bins(Coverpoint& p) {
  p.bin("1", 1).bin("2-7", 2, 7).bin("8", 8).bin("9-64", 9, 64).bin("65-1024", 65, 1024)
      .bin("1025-8192", 1025, 8192).illegal("over_8192", 8193, int64_t{1} << 24);
}

// Where an address is: 0 DBB below 4 GiB, 1 DBB above, 2 SRAM.
int64_t region(bool dbb, uint64_t addr) { return dbb ? (addr >> 32 ? 1 : 0) : 2; }

class BdmaCoverage : public UnitCoverage {
 public:
  explicit BdmaCoverage(const HwConfig& cfg)
      : base_(*cfg.unit_base[static_cast<unsigned>(Unit::BDMA)]), queue_depth_(cfg.bdma_queue_depth),
        op_("bdma.op", "each BDMA copy operation: sizes, stride classes, memories, launch group"),
        batch_("bdma.batch", "each BDMA launch: operations in the batch, group, back-to-back with the other group") {
    op_.coverpoint("line_bytes").bin("32", 32).bin("64", 64).bin("96-256", 96, 256).bin("288-1K", 288, 1024)
        .bin("1K-8K", 1056, 8192).bin("8K-64K", 8224, 65536).bin("64K-256K", 65568, 262144);
    repeat_bins(op_.coverpoint("lines"));
    repeat_bins(op_.coverpoint("surfaces"));
    stride_bins(op_.coverpoint("src_line_stride"));
    stride_bins(op_.coverpoint("dst_line_stride"));
    stride_bins(op_.coverpoint("src_surf_stride"));
    stride_bins(op_.coverpoint("dst_surf_stride"));
    op_.coverpoint("src_port").bin("sram", B::CFG_CMD::SRC_RAM_TYPE::CVSRAM).bin("dbb", B::CFG_CMD::SRC_RAM_TYPE::MC);
    op_.coverpoint("dst_port").bin("sram", B::CFG_CMD::DST_RAM_TYPE::CVSRAM).bin("dbb", B::CFG_CMD::DST_RAM_TYPE::MC);
    op_.coverpoint("src_region").bin("dbb_low", 0).bin("dbb_high", 1).ignore("sram", 2, 2);
    op_.coverpoint("dst_region").bin("dbb_low", 0).bin("dbb_high", 1).ignore("sram", 2, 2);
    op_.coverpoint("group").bin("0", 0).bin("1", 1);
    op_.cross("ports", {"src_port", "dst_port"});
    op_.cross("ports_x_group", {"src_port", "dst_port", "group"});
    op_.cross("line_bytes_x_dst_port", {"line_bytes", "dst_port"});

    const int64_t depth = queue_depth_;
    batch_.coverpoint("ops").ignore("empty", 0, 0).bin("1", 1).bin("2", 2).bin("3", 3).bin("4-9", 4, 9)
        .bin("10+", 10, depth).illegal("over_queue", depth + 1, std::numeric_limits<int32_t>::max());
    batch_.coverpoint("group").bin("0", 0).bin("1", 1);
    batch_.coverpoint("back_to_back").bin("other_idle", 0).bin("other_busy", 1);
    batch_.cross("group_x_back_to_back", {"group", "back_to_back"});
    batch_.cross("ops_x_back_to_back", {"ops", "back_to_back"});
  }

  void sample(const CoverageInput& in) override {
    for (const LayerRecord& r : in.layers)
      if (r.unit == Unit::BDMA && r.completed) sample_op(r);
    sample_batches(in.control);
  }

  std::vector<GroupData> data() const override { return {op_.data(), batch_.data()}; }

 private:
  void sample_op(const LayerRecord& r) {
    const RegisterSnapshot& s = r.regs;
    const uint64_t line = (uint64_t{s.field<B::CFG_LINE, B::CFG_LINE::SIZE>()} + 1) * 32;
    const uint64_t lines = uint64_t{s.field<B::CFG_LINE_REPEAT, B::CFG_LINE_REPEAT::NUMBER>()} + 1;
    const uint64_t surfaces = uint64_t{s.field<B::CFG_SURF_REPEAT, B::CFG_SURF_REPEAT::NUMBER>()} + 1;
    const uint64_t src_line = s.get(B::CFG_SRC_LINE::offset), dst_line = s.get(B::CFG_DST_LINE::offset);
    const uint64_t src_surf = s.get(B::CFG_SRC_SURF::offset), dst_surf = s.get(B::CFG_DST_SURF::offset);
    const uint32_t cmd = s.get(B::CFG_CMD::offset);
    const uint32_t src_type = B::CFG_CMD::SRC_RAM_TYPE::get(cmd), dst_type = B::CFG_CMD::DST_RAM_TYPE::get(cmd);
    const uint64_t src = (uint64_t{s.get(B::CFG_SRC_ADDR_HIGH::offset)} << 32) | s.get(B::CFG_SRC_ADDR_LOW::offset);
    const uint64_t dst = (uint64_t{s.get(B::CFG_DST_ADDR_HIGH::offset)} << 32) | s.get(B::CFG_DST_ADDR_LOW::offset);
    auto i = [](uint64_t v) { return static_cast<int64_t>(v); };
    op_.sample({{"line_bytes", i(line)},
                {"lines", i(lines)},
                {"surfaces", i(surfaces)},
                {"src_line_stride", stride_class(src_line, line, lines)},
                {"dst_line_stride", stride_class(dst_line, line, lines)},
                {"src_surf_stride", stride_class(src_surf, lines * src_line, surfaces)},
                {"dst_surf_stride", stride_class(dst_surf, lines * dst_line, surfaces)},
                {"src_port", src_type},
                {"dst_port", dst_type},
                {"src_region", region(src_type == B::CFG_CMD::SRC_RAM_TYPE::MC, src)},
                {"dst_region", region(dst_type == B::CFG_CMD::DST_RAM_TYPE::MC, dst)},
                {"group", r.group}});
  }

  // A batch is what CFG_OP queued since the previous launch. A group is busy from its launch
  // until the program waits for its done interrupt.
  void sample_batches(const std::vector<ControlEvent>& control) {
    int64_t queued = 0;
    bool busy[2] = {false, false};
    for (const ControlEvent& e : control) {
      if (e.kind == ControlEvent::Kind::WaitIntr) {
        for (unsigned g = 0; g < 2; ++g)
          if (e.data & (1u << (6 + g))) busy[g] = false;
        continue;
      }
      if (e.kind != ControlEvent::Kind::Write || (e.data & 1u) == 0) continue;
      if (e.addr == base_ + B::CFG_OP::offset) {
        ++queued;
      } else if (e.addr == base_ + B::CFG_LAUNCH0::offset || e.addr == base_ + B::CFG_LAUNCH1::offset) {
        const unsigned g = e.addr == base_ + B::CFG_LAUNCH0::offset ? 0 : 1;
        batch_.sample({{"ops", queued}, {"group", g}, {"back_to_back", busy[g ^ 1u] ? 1 : 0}});
        busy[g] = true;
        queued = 0;
      }
    }
  }

  uint32_t base_;
  unsigned queue_depth_;
  Covergroup op_, batch_;
};

}  // namespace

std::unique_ptr<UnitCoverage> make_bdma_coverage(const HwConfig& cfg) {
  if (!cfg.has_unit(Unit::BDMA) || cfg.bdma_queue_depth == 0) return nullptr;
  return std::make_unique<BdmaCoverage>(cfg);
}

}  // namespace dla::cov
