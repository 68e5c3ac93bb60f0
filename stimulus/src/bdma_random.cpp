// bdma.random: random BDMA copies (sizes, strides, both memories, both launch groups,
// back-to-back launches) checked against the golden model's memory and registers.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "dla/regs.gen.h"
#include "dla/rng.h"
#include "generators.h"
#include "program_builder.h"

namespace dla::stimulus {

namespace {

namespace B = reg::BDMA;

constexpr uint64_t kAlign = 32;

uint64_t align_up(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

struct Op {
  MemPort src_port, dst_port;
  uint64_t src, dst;
  uint64_t line_bytes, lines, surfaces;
  uint64_t src_line, dst_line, src_surf, dst_surf;
  uint64_t src_extent() const { return (surfaces - 1) * src_surf + (lines - 1) * src_line + line_bytes; }
  uint64_t dst_extent() const { return (surfaces - 1) * dst_surf + (lines - 1) * dst_line + line_bytes; }
};

// Hands out non-overlapping, 32-byte aligned regions per memory, with random gaps so that
// a stray write lands in memory nobody owns.
class RegionAllocator {
 public:
  // high_bits > 0 (knob high_addresses): both memories' regions start anywhere below
  // 2^high_bits, less 4 GiB of headroom, so that every address bit the configuration has is used.
  RegionAllocator(Rng& rng, unsigned high_bits) : rng_(rng) {
    if (high_bits > 32) {
      const uint64_t top = high_bits >= 64 ? ~uint64_t{0} >> 32 : (uint64_t{1} << (high_bits - 32)) - 1;
      for (uint64_t& n : next_) n = (rng_.uniform(1, top - 1) << 32) + rng_.uniform(0, 0xffff) * 0x1000;
      return;
    }
    // DBB sometimes above 4 GiB so that the *_ADDR_HIGH registers matter.
    next_[0] = rng_.chance(0.5) ? (rng_.uniform(1, 0xff) << 32) + rng_.uniform(0, 0xffff) * 0x1000
                                : 0x1000'0000ull + rng_.uniform(0, 0xffff) * 0x1000;
    next_[1] = rng_.uniform(0, 0xff) * 0x1000;
  }
  uint64_t take(MemPort port, uint64_t bytes) {
    uint64_t& n = next_[static_cast<unsigned>(port)];
    n += rng_.uniform(0, 8) * kAlign;
    const uint64_t at = n;
    n = align_up(n + bytes);
    return at;
  }

 private:
  Rng& rng_;
  uint64_t next_[2];
};

uint64_t timeout_for(uint64_t bytes) { return 20'000 + bytes * 4; }

// Knob wide_strides: a stride of the 32-bit stride registers with random high bits. The width
// is drawn first so that every bit position is set in some strides, not only the top ones.
uint64_t wide_stride(Rng& rng, uint64_t minimum, uint64_t cap) {
  const unsigned width = static_cast<unsigned>(rng.uniform(5, 32));
  const uint64_t v = rng.uniform(0, (uint64_t{1} << width) - 1) / kAlign * kAlign;
  return std::min(std::max(v, minimum), cap);
}

// The largest stride the 32-bit stride registers hold, in bytes (the low 5 bits are not stored).
constexpr uint64_t kMaxStride = 0xffff'ffe0ull;

// A batch moving at least this many bytes is still busy when a STATUS read follows its launch
// (knob busy_status): its writes alone take 16 beats of the 64-byte bus after the reads.
constexpr uint64_t kBusyCheckBytes = 1024;

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const uint64_t max_line = k.integer("max_line_bytes", 32, 8192 * 32);
  if (max_line % kAlign)
    throw std::invalid_argument("test 'bdma.random': knob max_line_bytes=" + std::to_string(max_line) +
                                " must be a multiple of 32");
  const uint64_t max_lines = k.integer("max_lines", 1, 8192);
  const uint64_t max_surfaces = k.integer("max_surfaces", 1, 8192);
  // Two launched batches can be queued at once; by default both fit in the queue (as NVDLA's
  // software keeps them: it checks STATUS.FREE_SLOT). fill_queue lets a batch take the whole
  // queue, so CFG_OP writes of the next batch meet a full queue and wait (CSB back-pressure).
  const bool fill_queue = k.choice("fill_queue", {"off", "on"}) == "on";
  const uint64_t max_ops = k.integer("max_ops", 1, fill_queue ? cfg.bdma_queue_depth : cfg.bdma_queue_depth / 2);
  const uint64_t batches = k.integer("batches", 1, 1000);
  const std::string ports = k.choice("ports", {"both", "dbb", "sram"});
  const bool high_addresses = k.choice("high_addresses", {"off", "on"}) == "on";
  const bool stall_count = k.choice("stall_count", {"off", "on"}) == "on";
  const bool wide_strides = k.choice("wide_strides", {"off", "on"}) == "on";
  const bool busy_status = k.choice("busy_status", {"off", "on"}) == "on";
  if (high_addresses && wide_strides)
    throw std::invalid_argument("test 'bdma.random': knobs high_addresses=on and wide_strides=on cannot be combined "
                                "(wide strides make regions of up to 16 GiB; high addresses leave 4 GiB below the top "
                                "of the address space)");

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "bdma.shape");
  Rng layout = Rng::stream(seed, "bdma.layout");
  Rng data = Rng::stream(seed, "bdma.data");
  Rng flow = Rng::stream(seed, "bdma.flow");
  RegionAllocator alloc(layout, high_addresses ? cfg.dbb_addr_bits : 0);

  auto pick_port = [&]() {
    if (ports == "dbb") return MemPort::Dbb;
    if (ports == "sram") return MemPort::Sram;
    return shape.chance(0.5) ? MemPort::Dbb : MemPort::Sram;
  };
  auto pick_stride = [&](uint64_t minimum) {
    return shape.chance(0.4) ? minimum : minimum + shape.uniform(1, 4) * kAlign;
  };

  const uint32_t glb_status = b.addr("GLB.S_INTR_STATUS");
  const uint32_t status = b.addr("BDMA.STATUS");
  auto reg = [&](uint32_t offset) { return *cfg.unit_base[static_cast<unsigned>(Unit::BDMA)] + offset; };

  bool outstanding[2] = {false, false};
  uint64_t outstanding_bytes[2] = {0, 0};
  struct Launched {
    Op op;
    std::vector<std::vector<uint8_t>> lines;  // source bytes of each line, surface-major
  };
  std::vector<Launched> launched[2];  // the operations of each group's running batch
  // A done interrupt means the batch's data is in memory: every destination line is checked
  // right after it, before later traffic could complete a write the DUT acknowledged early.
  auto check_destinations = [&](unsigned g) {
    for (const Launched& l : launched[g]) {
      const Op& op = l.op;
      for (uint64_t sf = 0; sf < op.surfaces; ++sf)
        for (uint64_t ln = 0; ln < op.lines; ++ln)
          p.ops.push_back(CheckMem{op.dst_port, op.dst + sf * op.dst_surf + ln * op.dst_line,
                                   l.lines[static_cast<size_t>(sf * op.lines + ln)],
                                   fmt::format("group {} done interrupt: line {} of surface {} copied to {} 0x{:x}",
                                               g, ln, sf, mem_port_name(op.dst_port), op.dst)});
    }
    launched[g].clear();
  };
  const uint32_t idle_bit = B::STATUS::IDLE::put(0, 1);
  auto busy_bit = [](unsigned g) { return g ? B::STATUS::GRP1_BUSY::put(0, 1) : B::STATUS::GRP0_BUSY::put(0, 1); };
  auto finish = [&](unsigned g) {
    const uint32_t bit = 1u << (6 + g);
    b.wait_intr(bit, timeout_for(outstanding_bytes[g]));
    check_destinations(g);
    // The other group may still run: only this group's busy bit is known.
    if (busy_status) b.read(status, busy_bit(g), 0u, fmt::format("BDMA.STATUS GRP{}_BUSY clear after its done interrupt", g));
    b.read(glb_status, bit, bit, fmt::format("GLB BDMA_DONE_STATUS{} set", g));
    b.write(glb_status, bit);
    outstanding[g] = false;
  };
  auto quiescent_checks = [&](const std::string& when) {
    b.read(status, 0xffffffffu, std::nullopt, "BDMA.STATUS " + when);
    b.read(glb_status, 0xffffffffu, 0u, "GLB.S_INTR_STATUS all clear " + when);
  };

  b.note(fmt::format("knobs: max_line_bytes={} max_lines={} max_surfaces={} max_ops={} batches={} ports={}",
                     max_line, max_lines, max_surfaces, max_ops, batches, ports) +
         (high_addresses ? " high_addresses=on" : "") + (stall_count ? " stall_count=on" : "") +
         (wide_strides ? " wide_strides=on" : "") + (busy_status ? " busy_status=on" : "") +
         (fill_queue ? " fill_queue=on" : ""));
  // The stall counters count only with CFG_STATUS.STALL_COUNT_EN; the scoreboard bounds them by
  // the cycles the memories withheld after every batch (0 while disabled).
  if (stall_count) b.write(reg(B::CFG_STATUS::offset), B::CFG_STATUS::STALL_COUNT_EN::put(0, 1));
  for (uint64_t batch = 0; batch < batches; ++batch) {
    const unsigned g = flow.chance(0.5) ? 1u : 0u;
    if (outstanding[g]) {  // never launch a busy group
      finish(g);
      if (!outstanding[g ^ 1u]) quiescent_checks(fmt::format("before batch {}", batch));
    }
    const uint64_t n_ops = shape.uniform(1, max_ops);
    uint64_t bytes = 0;
    for (uint64_t i = 0; i < n_ops; ++i) {
      Op op{};
      op.src_port = pick_port();
      op.dst_port = pick_port();
      op.line_bytes = shape.uniform(1, max_line / kAlign) * kAlign;
      op.lines = shape.uniform(1, max_lines);
      op.surfaces = shape.uniform(1, max_surfaces);
      if (wide_strides) {
        // Surfaces must not overlap: a line stride leaves room for the surface stride's register.
        const uint64_t line_cap = std::max(op.line_bytes, kMaxStride / op.lines / kAlign * kAlign);
        op.src_line = wide_stride(shape, op.line_bytes, line_cap);
        op.dst_line = wide_stride(shape, op.line_bytes, line_cap);
        op.src_surf = wide_stride(shape, op.lines * op.src_line, kMaxStride);
        op.dst_surf = wide_stride(shape, op.lines * op.dst_line, kMaxStride);
      } else {
        op.src_line = pick_stride(op.line_bytes);
        op.dst_line = pick_stride(op.line_bytes);
        op.src_surf = pick_stride(op.lines * op.src_line);
        op.dst_surf = pick_stride(op.lines * op.dst_line);
      }
      op.src = alloc.take(op.src_port, op.src_extent());
      op.dst = alloc.take(op.dst_port, op.dst_extent());
      bytes += op.line_bytes * op.lines * op.surfaces;
      Launched l{op, {}};
      if (wide_strides) {  // extents of gigabytes: only the lines are loaded
        for (uint64_t sf = 0; sf < op.surfaces; ++sf)
          for (uint64_t ln = 0; ln < op.lines; ++ln) {
            l.lines.push_back(data.bytes(static_cast<size_t>(op.line_bytes)));
            b.load(op.src_port, op.src + sf * op.src_surf + ln * op.src_line, l.lines.back());
          }
      } else {
        std::vector<uint8_t> src_bytes = data.bytes(static_cast<size_t>(op.src_extent()));
        for (uint64_t sf = 0; sf < op.surfaces; ++sf)
          for (uint64_t ln = 0; ln < op.lines; ++ln) {
            const auto from = src_bytes.begin() + static_cast<std::ptrdiff_t>(sf * op.src_surf + ln * op.src_line);
            l.lines.emplace_back(from, from + static_cast<std::ptrdiff_t>(op.line_bytes));
          }
        b.load(op.src_port, op.src, std::move(src_bytes));
      }
      launched[g].push_back(std::move(l));
      b.write(reg(B::CFG_SRC_ADDR_LOW::offset), static_cast<uint32_t>(op.src));
      b.write(reg(B::CFG_SRC_ADDR_HIGH::offset), static_cast<uint32_t>(op.src >> 32));
      b.write(reg(B::CFG_DST_ADDR_LOW::offset), static_cast<uint32_t>(op.dst));
      b.write(reg(B::CFG_DST_ADDR_HIGH::offset), static_cast<uint32_t>(op.dst >> 32));
      b.write(reg(B::CFG_LINE::offset), static_cast<uint32_t>(op.line_bytes / kAlign - 1));
      uint32_t cmd = 0;
      cmd = B::CFG_CMD::SRC_RAM_TYPE::put(cmd, op.src_port == MemPort::Dbb ? B::CFG_CMD::SRC_RAM_TYPE::MC
                                                                           : B::CFG_CMD::SRC_RAM_TYPE::CVSRAM);
      cmd = B::CFG_CMD::DST_RAM_TYPE::put(cmd, op.dst_port == MemPort::Dbb ? B::CFG_CMD::DST_RAM_TYPE::MC
                                                                           : B::CFG_CMD::DST_RAM_TYPE::CVSRAM);
      b.write(reg(B::CFG_CMD::offset), cmd);
      b.write(reg(B::CFG_LINE_REPEAT::offset), static_cast<uint32_t>(op.lines - 1));
      b.write(reg(B::CFG_SRC_LINE::offset), static_cast<uint32_t>(op.src_line));
      b.write(reg(B::CFG_DST_LINE::offset), static_cast<uint32_t>(op.dst_line));
      b.write(reg(B::CFG_SURF_REPEAT::offset), static_cast<uint32_t>(op.surfaces - 1));
      b.write(reg(B::CFG_SRC_SURF::offset), static_cast<uint32_t>(op.src_surf));
      b.write(reg(B::CFG_DST_SURF::offset), static_cast<uint32_t>(op.dst_surf));
      b.write(reg(B::CFG_OP::offset), 1);
      b.note(fmt::format("batch {} group {} op {}: {} 0x{:x} -> {} 0x{:x}, {} B x {} lines x {} surfaces, "
                         "line stride {}/{}, surface stride {}/{}",
                         batch, g, i, mem_port_name(op.src_port), op.src, mem_port_name(op.dst_port), op.dst,
                         op.line_bytes, op.lines, op.surfaces, op.src_line, op.dst_line, op.src_surf, op.dst_surf));
    }
    b.write(reg(g == 0 ? B::CFG_LAUNCH0::offset : B::CFG_LAUNCH1::offset), 1);
    // The untimed golden model has finished the batch by now: only the DUT is judged (a poll of
    // an operation state, read once).
    if (busy_status && bytes >= kBusyCheckBytes)
      p.ops.push_back(PollReg{status, busy_bit(g) | idle_bit, busy_bit(g), RegCompare::Eq, 1,
                              fmt::format("BDMA.STATUS right after launching batch {} (group {}, {} bytes): "
                                          "GRP{}_BUSY set, IDLE clear",
                                          batch, g, bytes, g)});
    outstanding[g] = true;
    outstanding_bytes[g] = bytes;
    if (flow.chance(0.5)) {  // otherwise the next batch follows back-to-back
      finish(g);
      if (!outstanding[g ^ 1u]) quiescent_checks(fmt::format("after batch {}", batch));
    }
  }
  for (unsigned g = 0; g < 2; ++g)
    if (outstanding[g]) finish(g);
  quiescent_checks("at the end");
  return p;
}

}  // namespace

TestGenerator make_bdma_random_generator() {
  TestGenerator g;
  g.name = "bdma.random";
  g.description = "random BDMA line/surface copies between DBB and SRAM on both launch groups, back-to-back";
  g.knobs = {{"max_line_bytes", "256", "largest line in bytes (multiple of 32)"},
             {"max_lines", "8", "most lines per surface"},
             {"max_surfaces", "4", "most surfaces per operation"},
             {"max_ops", "4", "most operations per batch (at most half the queue depth; the whole queue with fill_queue=on)"},
             {"batches", "6", "number of launched batches"},
             {"ports", "both", "memories used: dbb, sram or both"},
             {"high_addresses", "off", "on: both memories' regions anywhere in the configuration's address space"},
             {"stall_count", "off", "on: enable the stall counters (CFG_STATUS.STALL_COUNT_EN) for the whole test"},
             {"wide_strides", "off", "on: line and surface strides with random high bits, up to the 32-bit registers' range (only the lines are loaded)"},
             {"busy_status", "off", "on: STATUS read right after each launch of 1 KiB or more (GRPn_BUSY set, IDLE clear; DUT only) and GRPn_BUSY clear after its done interrupt"},
             {"fill_queue", "off", "on: max_ops may reach the queue depth, so the next batch's CFG_OP writes wait on a full queue (CSB back-pressure)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::BDMA) || cfg.bdma_queue_depth < 2) return "the configuration has no BDMA";
    if (!cfg.sram_if) return "the configuration has no SRAM interface";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
