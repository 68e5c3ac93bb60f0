#include "bdma_model.h"

#include <algorithm>
#include <string>

#include "dla/regs.gen.h"

namespace dla::golden {

namespace R = reg::BDMA;

namespace {

// v1's store path carries line and surface repeat counts in 13 bits (spec 3.3).
constexpr uint64_t kMaxRepeat = 8192;

MemPort ram_port(uint32_t ram_type) {
  return ram_type == R::CFG_CMD::SRC_RAM_TYPE::MC ? MemPort::Dbb : MemPort::Sram;
}

struct Extent {
  MemPort port;
  uint64_t begin, end;  // [begin, end) bounding range of all lines
};

}  // namespace

void BdmaModel::on_write(uint32_t offset, uint32_t data, UnitContext& ctx) {
  if ((data & 1u) == 0) return;  // CFG_OP / CFG_LAUNCHn act on every write with bit 0 set
  if (offset == R::CFG_OP::offset) {
    if (queued_.size() >= queue_depth_) {
      ctx.warn("BDMA: CFG_OP write with " + std::to_string(queue_depth_) +
               " operations already queued and none launched: the queue is full, the hardware "
               "back-pressures the CSB write (it never completes); the golden model drops it");
      return;
    }
    RegisterSnapshot op;
    op.unit = Unit::BDMA;
    for (uint32_t off = R::CFG_SRC_ADDR_LOW::offset; off <= R::CFG_DST_SURF::offset; off += 4)
      op.values.emplace_back(off, ctx.stored(Unit::BDMA, off));
    queued_.push_back(std::move(op));
  } else if (offset == R::CFG_LAUNCH0::offset) {
    launch(0, ctx);
  } else if (offset == R::CFG_LAUNCH1::offset) {
    launch(1, ctx);
  }
}

void BdmaModel::launch(unsigned group, UnitContext& ctx) {
  const std::string g = std::to_string(group);
  const bool was_busy = busy_[group];
  if (was_busy)
    ctx.warn("BDMA: CFG_LAUNCH" + g + " while group " + g +
             " is still busy (an earlier launch never completed); the hardware behaviour is not "
             "determined (spec open point 11): the golden model runs the new batch and raises "
             "no BDMA_DONE_STATUS" + g);
  if (queued_.empty()) {
    ctx.warn("BDMA: CFG_LAUNCH" + g + " with no operation queued since the previous launch: "
             "group " + g + " never completes (no BDMA_DONE_STATUS" + g +
             " interrupt; STATUS.GRP" + g + "_BUSY stays 1)");
    busy_[group] = true;
    RegisterSnapshot empty;
    empty.unit = Unit::BDMA;
    empty.group = static_cast<int>(group);
    ctx.record_layer(LayerRecord{Unit::BDMA, static_cast<int>(group), empty, false});
    return;
  }
  std::vector<RegisterSnapshot> batch;
  batch.swap(queued_);
  for (RegisterSnapshot& op : batch) {
    op.group = static_cast<int>(group);
    execute(op, ctx);
    ctx.record_layer(LayerRecord{Unit::BDMA, static_cast<int>(group), op, true});
  }
  if (!was_busy) ctx.raise_interrupt(1u << (6 + group));
}

void BdmaModel::execute(const RegisterSnapshot& op, UnitContext& ctx) {
  auto addr = [&](uint32_t low_off, uint32_t high_off) {
    return (uint64_t{op.get(high_off)} << 32) | op.get(low_off);
  };
  const uint64_t src = addr(R::CFG_SRC_ADDR_LOW::offset, R::CFG_SRC_ADDR_HIGH::offset);
  const uint64_t dst = addr(R::CFG_DST_ADDR_LOW::offset, R::CFG_DST_ADDR_HIGH::offset);
  const uint64_t line_bytes = (uint64_t{op.field<R::CFG_LINE, R::CFG_LINE::SIZE>()} + 1) * 32;
  const uint64_t lines = uint64_t{op.field<R::CFG_LINE_REPEAT, R::CFG_LINE_REPEAT::NUMBER>()} + 1;
  const uint64_t surfaces = uint64_t{op.field<R::CFG_SURF_REPEAT, R::CFG_SURF_REPEAT::NUMBER>()} + 1;
  // Strides are byte values whose low 5 bits are not stored.
  const uint64_t src_line = op.get(R::CFG_SRC_LINE::offset), dst_line = op.get(R::CFG_DST_LINE::offset);
  const uint64_t src_surf = op.get(R::CFG_SRC_SURF::offset), dst_surf = op.get(R::CFG_DST_SURF::offset);
  const uint32_t cmd = op.get(R::CFG_CMD::offset);
  const MemPort src_port = ram_port(R::CFG_CMD::SRC_RAM_TYPE::get(cmd));
  const MemPort dst_port = ram_port(R::CFG_CMD::DST_RAM_TYPE::get(cmd));

  if (lines > kMaxRepeat || surfaces > kMaxRepeat)
    ctx.warn("BDMA: line repeat " + std::to_string(lines) + " / surface repeat " +
             std::to_string(surfaces) + " exceeds 8192, which the v1 store path cannot carry "
             "(13 bits); the hardware result is undefined, the golden model copies everything");
  if (!ctx.config().sram_if && (src_port == MemPort::Sram || dst_port == MemPort::Sram))
    ctx.warn("BDMA: operation uses the SRAM interface (RAM type CVSRAM) but configuration '" +
             ctx.config().name + "' has none");
  const Extent s{src_port, src, src + (surfaces - 1) * src_surf + (lines - 1) * src_line + line_bytes};
  const Extent d{dst_port, dst, dst + (surfaces - 1) * dst_surf + (lines - 1) * dst_line + line_bytes};
  if (s.port == d.port && s.begin < d.end && d.begin < s.end)
    ctx.warn("BDMA: source and destination regions of an operation may overlap (not supported: "
             "reads of later lines can overtake writes of earlier ones); the golden model copies "
             "line by line in order");

  SparseMemory& from = ctx.memory(src_port);
  SparseMemory& to = ctx.memory(dst_port);
  std::vector<uint8_t> line(static_cast<size_t>(line_bytes));
  for (uint64_t si = 0; si < surfaces; ++si) {
    for (uint64_t li = 0; li < lines; ++li) {
      from.read(src + si * src_surf + li * src_line, line.data(), line.size());
      to.write(dst + si * dst_surf + li * dst_line, line.data(), line.size());
    }
  }
}

std::optional<uint32_t> BdmaModel::read_hw(uint32_t offset) const {
  if (offset != R::STATUS::offset) return std::nullopt;  // stall counters: reset value (0)
  uint32_t v = 0;
  v = R::STATUS::FREE_SLOT::put(v, static_cast<uint32_t>(queue_depth_ - queued_.size()));
  v = R::STATUS::IDLE::put(v, queued_.empty() ? 1u : 0u);
  v = R::STATUS::GRP0_BUSY::put(v, busy_[0] ? 1u : 0u);
  v = R::STATUS::GRP1_BUSY::put(v, busy_[1] ? 1u : 0u);
  return v;
}

}  // namespace dla::golden
