#include "dla/trace_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/rng.h"
#include "dla/trace_error.h"
#include "dla/trace_surface.h"

namespace dla::trace {

namespace {

struct IdEntry {
  const char* name;
  unsigned bit0;
  Unit unit;
};
constexpr IdEntry kInterruptIds[] = {
    {"SDP", 0, Unit::SDP},   {"CDP", 2, Unit::CDP},           {"PDP", 4, Unit::PDP},
    {"BDMA", 6, Unit::BDMA}, {"RUBIK", 8, Unit::RBK},         {"CDMA_DAT", 16, Unit::CDMA},
    {"CDMA_WT", 18, Unit::CDMA}, {"CACC", 20, Unit::CACC},
};

// Thrown inside a compile when the configuration lacks something; caught in compile_trace.
struct Unsupported {
  std::string reason;
};

const char* port_token(MemPort p) { return p == MemPort::Dbb ? "pri_mem" : "sec_mem"; }

uint32_t status_address(const RegisterMap& map) {
  const RegInfo* r = map.find("GLB.S_INTR_STATUS");
  if (!r) throw std::logic_error("register map has no GLB.S_INTR_STATUS");
  return map.address_of(*r);
}

uint32_t status_bits(const RegisterMap& map) {
  uint32_t bits = 0;
  if (const RegInfo* r = map.find("GLB.S_INTR_STATUS"))
    for (const FieldInfo& f : r->fields) bits |= f.store_mask;
  return bits;
}

// Memory regions a trace creates (for CRC window and reserve/release checks).
struct Region {
  MemPort port;
  uint64_t begin, end;  // [begin, end)
  size_t line;
};

// First byte of [begin, end) on `port` not covered by any region; nullopt if all covered.
std::optional<uint64_t> first_uncovered(const std::vector<Region>& regions, MemPort port, uint64_t begin,
                                        uint64_t end) {
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const auto& r : regions)
    if (r.port == port && r.end > begin && r.begin < end) spans.emplace_back(r.begin, r.end);
  std::sort(spans.begin(), spans.end());
  uint64_t at = begin;
  for (const auto& [b, e] : spans) {
    if (b > at) return at;
    at = std::max(at, e);
    if (at >= end) return std::nullopt;
  }
  return at < end ? std::optional<uint64_t>(at) : std::nullopt;
}

std::string join_path(const std::string& dir, const std::string& file) {
  return (std::filesystem::path(dir) / file).string();
}

class CfgCompiler {
 public:
  CfgCompiler(const CfgTrace& t, const HwConfig& cfg, const CompileOptions& o)
      : t_(t), cfg_(cfg), map_(RegisterMap::of(cfg)), opt_(o),
        random_(Rng::stream(o.seed, "trace.mem_init.random")) {}

  CompiledTrace run() {
    out_.program.config = cfg_.name;
    out_.program.seed = opt_.seed;
    collect_producers();
    collect_regions();
    // Memory commands without an event run first, in file order, before any register traffic.
    for (const auto& c : t_.commands)
      if (is_memory(c.op) && c.event.empty()) emit(c);
    for (const auto& c : t_.commands) step(c);
    while (!pending_.empty()) service_front();
    return std::move(out_);
  }

 private:
  static bool is_memory(CfgOp op) {
    return op == CfgOp::MemInit || op == CfgOp::MemLoad || op == CfgOp::MemReserve || op == CfgOp::MemRelease;
  }
  static bool is_consumer(CfgOp op) {
    return is_memory(op) || op == CfgOp::CheckCrc || op == CfgOp::CheckFile || op == CfgOp::CheckNothing;
  }

  [[noreturn]] void error(size_t line, const std::string& what) const { throw TraceError(t_.path, line, what); }
  std::string where(const CfgCommand& c) const { return fmt::format("{} at {}:{}", cfg_op_name(c.op), t_.path, c.line); }

  // [begin, end) of `size` bytes at c.addr + offset as the configuration's memories address them:
  // a 32-bit configuration takes every address modulo 2^32 (docs/configurations.md), so a window
  // given with high bits set is the same memory as one without. A window that would wrap past the
  // end of the address space is refused (its bytes would not be contiguous in memory).
  std::pair<uint64_t, uint64_t> bus_window(const CfgCommand& c, uint64_t offset, uint64_t size) const {
    const unsigned bits = cfg_.dbb_addr_bits;
    const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t begin = (c.addr + offset) & mask;
    // On 64 bits the end of a window reaching the last byte would not fit in 64 bits: refused too.
    if (c.addr + offset < c.addr || (size != 0 && size - 1 > mask - begin) || (bits >= 64 && size > mask - begin))
      error(c.line, fmt::format("{}: window 0x{:x}+0x{:x} runs past the end of the {}-bit address space of "
                                "configuration '{}'",
                                cfg_op_name(c.op), c.addr + offset, size, bits, cfg_.name));
    return {begin, begin + size};
  }

  void collect_producers() {
    for (const auto& c : t_.commands) {
      if (c.op != CfgOp::IntrNotify && c.op != CfgOp::SyncNotify) continue;
      const auto [it, fresh] = producer_.emplace(c.event, &c);
      if (!fresh)
        error(c.line, fmt::format("event '{}' is already produced at line {}; events are one-shot", c.event,
                                  it->second->line));
    }
    for (const auto& c : t_.commands) {
      const bool consumes = (is_consumer(c.op) && !c.event.empty()) || c.op == CfgOp::SyncWait;
      if (consumes && !producer_.count(c.event))
        error(c.line, fmt::format("{} waits for event '{}', which no intr_notify or sync_notify produces",
                                  cfg_op_name(c.op), c.event));
    }
  }

  const Surface& surface(const CfgCommand& c) {
    auto it = surfaces_.find(c.file);
    if (it != surfaces_.end()) return it->second;
    const std::string path = join_path(t_.dir, c.file);
    if (!std::filesystem::exists(path))
      error(c.line, fmt::format("{}: data file '{}' not found (looked for {})", cfg_op_name(c.op), c.file, path));
    return surfaces_.emplace(c.file, read_surface_file(path)).first->second;
  }

  MemPort port(const CfgCommand& c) const {
    switch (c.mem) {
      case CfgMem::Pri: return MemPort::Dbb;
      case CfgMem::Sec:
        if (!cfg_.sram_if)
          throw Unsupported{fmt::format("line {} uses sec_mem, but configuration '{}' has no SRAM interface", c.line,
                                        cfg_.name)};
        return MemPort::Sram;
      case CfgMem::ByAddress:  // "primary, or chosen by address": bit 31 clear means CV-SRAM
        return (c.addr & 0x80000000u) || !cfg_.sram_if ? MemPort::Dbb : MemPort::Sram;
    }
    return MemPort::Dbb;
  }

  void collect_regions() {
    for (const auto& c : t_.commands) {
      if (!is_memory(c.op)) continue;
      const MemPort p = port(c);
      auto inside = [&](uint64_t a) -> const Region* {
        for (const auto& r : regions_)
          if (r.port == p && a >= r.begin && a < r.end) return &r;
        return nullptr;
      };
      switch (c.op) {
        case CfgOp::MemInit: {
          const auto [b, e] = bus_window(c, 0, init_size(c));
          regions_.push_back({p, b, e, c.line});
          break;
        }
        case CfgOp::MemLoad:
          for (const auto& run : surface(c).contiguous_runs()) {
            const auto [b, e] = bus_window(c, run.offset, run.bytes.size());
            regions_.push_back({p, b, e, c.line});
          }
          break;
        case CfgOp::MemReserve: {
          const auto [b, e] = bus_window(c, 0, c.size);
          if (const Region* r = inside(b))
            error(c.line, fmt::format("mem_reserve: base 0x{:x} already lies in the region made at line {}", c.addr,
                                      r->line));
          regions_.push_back({p, b, e, c.line});
          break;
        }
        case CfgOp::MemRelease:
          if (!inside(bus_window(c, 0, 1).first))
            error(c.line, fmt::format("mem_release: base 0x{:x} lies in no region of {}", c.addr, port_token(p)));
          break;
        default: break;
      }
    }
  }

  uint64_t init_size(const CfgCommand& c) { return c.file.empty() ? c.size : surface(c).extent(); }

  uint32_t reg_address(const CfgCommand& c) {
    if (const RegInfo* r = map_.find(c.reg)) return map_.address_of(*r);
    std::string block = c.reg.substr(0, c.reg.find('.'));
    const std::string bare = block.rfind("NVDLA_", 0) == 0 ? block.substr(6) : block;
    const auto unit = unit_from_name(bare);
    if (!unit)
      error(c.line, fmt::format("unknown register block '{}' in '{}' (expected NVDLA_<UNIT>, e.g. NVDLA_SDP)", block,
                                c.reg));
    if (!cfg_.has_unit(*unit))
      throw Unsupported{fmt::format("line {} uses {}, a unit configuration '{}' does not have", c.line, c.reg,
                                    cfg_.name)};
    for (const HwConfig& other : HwConfig::all())
      if (other.name != cfg_.name && other.has_unit(*unit) && RegisterMap::of(other).find(c.reg))
        throw Unsupported{fmt::format("line {} uses {}, which exists in configuration '{}' but not in '{}'", c.line,
                                      c.reg, other.name, cfg_.name)};
    error(c.line, fmt::format("{}: unknown register '{}' ({} has no such register; trace symbols are "
                              "NVDLA_<UNIT>.<REGISTER>_0)",
                              cfg_op_name(c.op), c.reg, block));
  }

  std::string what(const CfgCommand& c) const {
    std::string w = fmt::format("{}:{} {}", t_.path, c.line, cfg_op_name(c.op));
    if (!c.reg.empty()) w += " " + c.reg;
    if (!c.comment.empty()) w += " (" + c.comment + ")";
    return w;
  }

  void step(const CfgCommand& c) {
    switch (c.op) {
      case CfgOp::RegWrite: out_.program.ops.push_back(RegWrite{reg_address(c), c.value, false}); break;
      case CfgOp::RegRead:
        out_.program.ops.push_back(RegRead{reg_address(c), c.mask.value_or(0xffffffffu), std::nullopt, what(c)});
        break;
      case CfgOp::RegReadCheck:
        out_.program.ops.push_back(RegRead{reg_address(c), c.mask.value_or(0xffffffffu), c.value, what(c)});
        ++out_.checks;
        break;
      case CfgOp::PollRegEqual: {
        PollReg p;
        p.addr = reg_address(c);
        p.mask = c.mask.value_or(0xffffffffu);
        p.expect = c.value;
        p.timeout_cycles = c.timeout_cycles.value_or(opt_.poll_timeout_cycles);
        p.what = what(c);
        out_.program.ops.push_back(std::move(p));
        ++out_.checks;
        break;
      }
      case CfgOp::SyncNotify: fire(c.event); break;
      case CfgOp::SyncWait: sync_wait(c); break;
      case CfgOp::IntrNotify: expect_interrupt(c); break;
      default:
        if (!is_consumer(c.op) || (is_memory(c.op) && c.event.empty())) break;  // memory already done
        if (fired_.count(c.event)) emit(c);
        else waiting_[c.event].push_back(&c);
        break;
    }
  }

  void expect_interrupt(const CfgCommand& c) {
    Expectation e{&c, 0, Unit::GLB};
    if (!c.intr_id.empty()) {
      const auto id = interrupt_id(c.intr_id);
      if (!id)
        error(c.line, fmt::format("intr_notify: unknown interrupt id '{}' (expected SDP_g, CDP_g, PDP_g, BDMA_g, "
                                  "RUBIK_g, CDMA_DAT_g, CDMA_WT_g or CACC_g with g = 0 or 1)",
                                  c.intr_id));
      if (!cfg_.has_unit(id->unit) || !(status_bits(map_) & id->bit))
        throw Unsupported{fmt::format("line {} waits for interrupt {}, which configuration '{}' does not have",
                                      c.line, c.intr_id, cfg_.name)};
      e.bit = id->bit;
      e.unit = id->unit;
    }
    pending_.push_back(e);
  }

  void sync_wait(const CfgCommand& c) {
    if (fired_.count(c.event)) return;
    const CfgCommand* producer = producer_.at(c.event);
    if (producer->op == CfgOp::SyncNotify)
      error(c.line, fmt::format("sync_wait waits for event '{}', which only the sync_notify at line {} (later in the "
                                "file) fires; a sequential replay cannot order that",
                                c.event, producer->line));
    if (producer->line > c.line)
      error(c.line, fmt::format("sync_wait waits for event '{}' of the intr_notify at line {}, later in the file",
                                c.event, producer->line));
    // Serve the expectations of the same unit queued before it (interrupts arrive in order per unit).
    const auto target = std::find_if(pending_.begin(), pending_.end(),
                                     [&](const Expectation& e) { return e.cmd == producer; });
    const Unit unit = target->unit;
    const bool same_unit_first = target->bit != 0;
    std::vector<Expectation> serve;
    std::deque<Expectation> keep;
    bool reached = false;
    for (const Expectation& e : pending_) {
      if (!reached && e.cmd == producer) {
        serve.push_back(e);
        reached = true;
      } else if (!reached && same_unit_first && e.bit != 0 && e.unit == unit) {
        serve.push_back(e);
      } else {
        keep.push_back(e);
      }
    }
    pending_ = std::move(keep);
    for (const Expectation& e : serve) service(e);
  }

  struct Expectation {
    const CfgCommand* cmd;
    uint32_t bit;  // 0: one-argument form (any interrupt)
    Unit unit;
  };

  void service_front() {
    const Expectation e = pending_.front();
    pending_.pop_front();
    service(e);
  }

  // Wait for the interrupt, clear it (write-1-to-clear, as NVDLA's handler does), fire the event.
  void service(const Expectation& e) {
    const uint32_t status = status_address(map_);
    const std::string w = fmt::format("intr_notify({}{}) at {}:{}", e.cmd->intr_id.empty() ? "" : e.cmd->intr_id + ", ",
                                      e.cmd->event, t_.path, e.cmd->line);
    const uint64_t timeout = e.cmd->timeout_cycles.value_or(opt_.intr_timeout_cycles);
    if (e.bit) {
      out_.program.ops.push_back(WaitIntr{e.bit, timeout, w});
      out_.program.ops.push_back(RegWrite{status, e.bit, false});
    } else {
      out_.program.ops.push_back(WaitIntrLine{timeout, w});
      out_.program.ops.push_back(RegWrite{status, 0xffffffffu, false});
    }
    fire(e.cmd->event);
  }

  void fire(const std::string& event) {
    fired_.insert(event);
    const auto it = waiting_.find(event);
    if (it == waiting_.end()) return;
    const auto consumers = std::move(it->second);
    waiting_.erase(it);
    for (const CfgCommand* c : consumers) emit(*c);
  }

  void emit(const CfgCommand& c) {
    auto& ops = out_.program.ops;
    switch (c.op) {
      case CfgOp::MemInit: {
        const MemPort p = port(c);
        const uint64_t size = init_size(c);
        if (c.pattern == "RANDOM") {
          ops.push_back(MemLoad{p, c.addr, random_.bytes(static_cast<size_t>(size))});
          break;
        }
        MemFill f;
        f.port = p;
        f.addr = c.addr;
        f.size = size;
        f.address_byte = c.pattern == "ADDR";
        f.value = c.pattern == "ONES" ? 0xff : c.pattern == "AFIVE" ? 0xa5 : c.pattern == "FIVEA" ? 0x5a : 0x00;
        ops.push_back(f);
        break;
      }
      case CfgOp::MemLoad: {
        const MemPort p = port(c);
        for (auto& run : surface(c).contiguous_runs()) ops.push_back(MemLoad{p, c.addr + run.offset, std::move(run.bytes)});
        break;
      }
      case CfgOp::MemReserve:
      case CfgOp::MemRelease:
      case CfgOp::CheckNothing: break;
      case CfgOp::CheckCrc: {
        const MemPort p = port(c);
        const auto [begin, end] = bus_window(c, 0, c.size);
        if (const auto gap = first_uncovered(regions_, p, begin, end))
          error(c.line, fmt::format("check_crc: window 0x{:x}+0x{:x} on {} is not inside memory the trace "
                                    "initialises, loads or reserves (byte 0x{:x} is outside)",
                                    c.addr, c.size, port_token(p), *gap));
        ops.push_back(CheckCrc{p, c.addr, c.size, c.crc, what(c)});
        ++out_.checks;
        break;
      }
      case CfgOp::CheckFile: {
        const MemPort p = port(c);
        for (auto& run : surface(c).contiguous_runs()) {
          if (run.offset >= c.size) break;
          if (run.offset + run.bytes.size() > c.size) run.bytes.resize(static_cast<size_t>(c.size - run.offset));
          ops.push_back(CheckMem{p, c.addr + run.offset, std::move(run.bytes), what(c)});
        }
        ++out_.checks;
        break;
      }
      default: break;
    }
  }

  const CfgTrace& t_;
  const HwConfig& cfg_;
  const RegisterMap& map_;
  CompileOptions opt_;
  Rng random_;
  CompiledTrace out_;
  std::map<std::string, const CfgCommand*> producer_;
  std::map<std::string, Surface> surfaces_;
  std::vector<Region> regions_;
  std::set<std::string> fired_;
  std::map<std::string, std::vector<const CfgCommand*>> waiting_;
  std::deque<Expectation> pending_;
};

class TxnCompiler {
 public:
  TxnCompiler(const TxnTrace& t, const HwConfig& cfg, const CompileOptions& o)
      : t_(t), cfg_(cfg), map_(RegisterMap::of(cfg)), v1_(HwConfig::get("v1")), opt_(o) {}

  CompiledTrace run() {
    out_.program.config = cfg_.name;
    out_.program.seed = opt_.seed;
    for (const auto& c : t_.commands) step(c);
    return std::move(out_);
  }

 private:
  // 0xffffWWWW: bits 15:0 are the CSB word address in the nvdlav1 map; re-based onto `cfg_`.
  uint32_t reg_address(const TxnCommand& c) const {
    const uint32_t byte = (c.addr_token & 0xffffu) << 2;
    const auto unit = v1_.unit_at(byte);
    if (!unit)
      throw TraceError(t_.path, c.line,
                       fmt::format("{}: address 0x{:08x} (CSB word 0x{:04x}, byte 0x{:05x}) is in no unit of the "
                                   "nvdlav1 address map",
                                   txn_op_name(c.op), c.addr_token, c.addr_token & 0xffffu, byte));
    if (!cfg_.has_unit(*unit))
      throw Unsupported{fmt::format("line {} accesses {} (address 0x{:08x}), a unit configuration '{}' does not have",
                                    c.line, unit_name(*unit), c.addr_token, cfg_.name)};
    return *cfg_.unit_base[static_cast<unsigned>(*unit)] + (byte - *v1_.unit_base[static_cast<unsigned>(*unit)]);
  }

  // 0x5xxxxxxx is CV-SRAM in the nvdlav1 flows; everything else the primary memory.
  MemPort port(const TxnCommand& c) const {
    if ((c.mem_addr >> 28) != 0x5) return MemPort::Dbb;
    if (!cfg_.sram_if)
      throw Unsupported{fmt::format("line {} uses CV-SRAM address 0x{:x}, but configuration '{}' has no SRAM "
                                    "interface",
                                    c.line, c.mem_addr, cfg_.name)};
    return MemPort::Sram;
  }

  std::vector<uint8_t> data(const TxnCommand& c) const {
    const std::string path = join_path(t_.dir, c.file);
    if (!std::filesystem::exists(path))
      throw TraceError(t_.path, c.line,
                       fmt::format("{}: data file '{}' not found (looked for {})", txn_op_name(c.op), c.file, path));
    return read_txn_data_file(path, c.size);
  }

  std::string what(const TxnCommand& c) const {
    std::string w = fmt::format("{}:{} {}", t_.path, c.line, txn_op_name(c.op));
    if (!c.comment.empty()) w += " (" + c.comment + ")";
    return w;
  }

  void step(const TxnCommand& c) {
    auto& ops = out_.program.ops;
    switch (c.op) {
      case TxnOp::WriteReg: ops.push_back(RegWrite{reg_address(c), c.data, false}); break;
      case TxnOp::ReadReg: {
        PollReg p;
        p.addr = reg_address(c);
        p.mask = c.mask;
        p.expect = c.expect;
        p.compare = c.compare;
        p.timeout_cycles = opt_.poll_timeout_cycles;
        p.what = what(c);
        ops.push_back(std::move(p));
        ++out_.checks;
        break;
      }
      case TxnOp::LoadMem: ops.push_back(MemLoad{port(c), c.mem_addr, data(c)}); break;
      case TxnOp::DumpMem:
        ops.push_back(CheckMem{port(c), c.mem_addr, data(c), what(c)});
        ++out_.checks;
        break;
      case TxnOp::Wait: ops.push_back(WaitIntrLine{opt_.intr_timeout_cycles, what(c)}); break;
    }
  }

  const TxnTrace& t_;
  const HwConfig& cfg_;
  const RegisterMap& map_;
  const HwConfig& v1_;
  CompileOptions opt_;
  CompiledTrace out_;
};

// A trace that enables an SDP stage the configuration lacks cannot be checked there: NVDLA's
// RTL of such a configuration (nv_small has no EW and no LUT) bypasses the stage whatever the
// register says, so the trace's expected output (made on a design with the stage) cannot match.
void require_sdp_stages(const Program& program, const HwConfig& cfg) {
  if (cfg.sdp_ew && cfg.sdp_lut) return;
  const auto sdp = cfg.unit_base[static_cast<unsigned>(Unit::SDP)];
  if (!sdp) return;
  // The EW setting in force when SDP is armed (the last one written; a register test that
  // writes EW_CFG and never arms SDP needs no EW).
  const uint32_t ew_cfg = *sdp + reg::SDP::D_DP_EW_CFG::offset, op_enable = *sdp + reg::SDP::D_OP_ENABLE::offset;
  uint32_t ew = reg::SDP::D_DP_EW_CFG::EW_BYPASS::mask;
  for (const auto& op : program.ops) {
    const auto* w = std::get_if<RegWrite>(&op);
    if (!w) continue;
    if (w->addr == ew_cfg) ew = w->data;
    if (w->addr != op_enable || !(w->data & 1u) || reg::SDP::D_DP_EW_CFG::EW_BYPASS::get(ew)) continue;
    if (!cfg.sdp_ew) throw Unsupported{fmt::format("{} has no SDP EW", cfg.name)};
    if (!reg::SDP::D_DP_EW_CFG::EW_LUT_BYPASS::get(ew)) throw Unsupported{fmt::format("{} has no SDP LUT", cfg.name)};
  }
}

template <class Compiler, class Trace>
CompiledTrace compile_with(const Trace& trace, const HwConfig& cfg, const CompileOptions& options) {
  try {
    CompiledTrace out = Compiler(trace, cfg, options).run();
    require_sdp_stages(out.program, cfg);
    return out;
  } catch (const Unsupported& u) {
    CompiledTrace out;
    out.program.config = cfg.name;
    out.unsupported = u.reason;
    return out;
  }
}

}  // namespace

std::optional<InterruptId> interrupt_id(const std::string& id) {
  const auto us = id.rfind('_');
  if (us == std::string::npos || us + 2 != id.size() || (id.back() != '0' && id.back() != '1')) return std::nullopt;
  const std::string name = id.substr(0, us);
  const unsigned group = static_cast<unsigned>(id.back() - '0');
  for (const auto& e : kInterruptIds)
    if (name == e.name) return InterruptId{1u << (e.bit0 + group), e.unit};
  return std::nullopt;
}

std::string interrupt_id_name(uint32_t bit) {
  for (const auto& e : kInterruptIds)
    for (unsigned g = 0; g < 2; ++g)
      if (bit == (1u << (e.bit0 + g))) return fmt::format("{}_{}", e.name, g);
  return "";
}

CompiledTrace compile_trace(const CfgTrace& trace, const HwConfig& cfg, const CompileOptions& options) {
  CompiledTrace out = compile_with<CfgCompiler>(trace, cfg, options);
  out.program.test = trace.path;
  return out;
}

CompiledTrace compile_trace(const TxnTrace& trace, const HwConfig& cfg, const CompileOptions& options) {
  CompiledTrace out = compile_with<TxnCompiler>(trace, cfg, options);
  out.program.test = trace.path;
  return out;
}

}  // namespace dla::trace
