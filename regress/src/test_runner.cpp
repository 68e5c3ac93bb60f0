#include "dla/test_runner.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "dla/golden_model.h"
#include "dla/counter_signature.h"
#include "dla/nvdla_errata.h"
#include "dla/perf_budget.h"
#include "dla/bfm/axi_timing.h"
#include "dla/planted_bug.h"
#include "dla/hwconfig.h"
#include "dla/register_map.h"
#include "dla/scoreboard.h"
#include "dla/simulation.h"
#include "dla/test_generator.h"
#include "dla/trace_crc32.h"

namespace dla {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// RTL waits of trace ops without their own timeout.
constexpr uint64_t kDefaultIntrTimeout = 2'000'000;
constexpr uint64_t kDefaultPollTimeout = 200'000;
constexpr uint64_t kPollGapCycles = 32;

std::string hex32(uint32_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// Name of a register for reports ("BDMA.STATUS" or the raw address).
std::string reg_name(const RegisterMap& map, uint32_t addr) {
  if (const RegInfo* r = map.at(addr)) return std::string(unit_name(r->unit)) + "." + r->name;
  return hex32(addr);
}


// Plays the program op by op on the golden model and, when present, the simulation.
class ProgramPlayer {
 public:
  ProgramPlayer(const HwConfig& cfg, GoldenModel& golden, tb::Simulation* sim, Scoreboard& sb,
                double& golden_seconds, std::optional<double> perf_tolerance, uint64_t watchdog_cycles,
                uint32_t charged_read_latency)
      : cfg_(cfg), map_(RegisterMap::of(cfg)), golden_(golden), sim_(sim), sb_(sb),
        golden_seconds_(golden_seconds), perf_tolerance_(perf_tolerance),
        charged_read_latency_(charged_read_latency), check_stalls_(perf_tolerance.has_value()),
        watchdog_cycles_(watchdog_cycles) {}
  uint64_t stall_counters_checked() const { return stall_counters_checked_; }

  // One record per performance window (docs/scoreboard.md, "Performance budget").
  const nlohmann::json& perf_windows() const { return perf_windows_; }

  // Diagnostics that are not failures (e.g. trace checks the golden model cannot judge).
  const std::vector<std::string>& notes() const { return notes_; }

  // Returns false when the run cannot go on (hang).
  bool play(const ProgramOp& op) {
    return std::visit([this](const auto& o) { return apply(o); }, op);
  }

 private:
  bool apply(const MemLoad& m) {
    check_port(m.port, "loads");
    timed([&] { golden_.memory(m.port).load(m.addr, m.bytes.data(), m.bytes.size()); });
    if (sim_) sim_->memory(m.port).load(m.addr, m.bytes.data(), m.bytes.size());
    return true;
  }

  bool apply(const MemFill& f) {
    check_port(f.port, "fills");
    timed([&] { fill(golden_.memory(f.port), f); });
    if (sim_) fill(sim_->memory(f.port), f);
    return true;
  }

  // Golden: one read (it has no timing). DUT: read until the comparison holds or the timeout.
  bool apply(const PollReg& p) {
    uint32_t g = 0;
    timed([&] { g = golden_.csb_read(p.addr); });
    const std::string reg = reg_name(map_, p.addr);
    const std::string what = p.what.empty() ? "poll of " + reg : p.what;
    if (!holds(p, g)) {
      const std::string msg = "golden model reads " + reg + " = " + hex32(g & p.mask) + " but " + what + " expects " +
                              compare_text(p);
      // A layer finishes inside the golden model's enabling write, so it cannot show the
      // running state a trace may poll for right after an enable; only the DUT is judged.
      if (is_operation_state(p.addr)) notes_.push_back(msg + " (operation state: not judged on the golden model)");
      else golden_disagrees("golden-poll:" + reg, msg);
    }
    if (!sim_) return true;
    const uint64_t limit = sim_->cycle() + (p.timeout_cycles ? p.timeout_cycles : kDefaultPollTimeout);
    while (true) {
      const uint32_t d = sim_->csb_read(p.addr);
      if (sim_->hang()) return false;
      if (holds(p, d)) return true;
      if (sim_->cycle() >= limit) {
        Mismatch m;
        m.kind = MismatchKind::Register;
        m.signature = "reg:" + reg;
        m.name = reg;
        m.reg_addr = p.addr;
        m.mask = p.mask;
        m.expected_value = p.expect & p.mask;
        m.actual_value = d & p.mask;
        m.message = what + ": DUT reads " + reg + " = " + hex32(d & p.mask) + ", expected " + compare_text(p) +
                    " (still after " + std::to_string(p.timeout_cycles ? p.timeout_cycles : kDefaultPollTimeout) +
                    " cycles of polling)";
        sb_.add(std::move(m));
        return true;  // the replay goes on, as NVDLA's players do after a failed read check
      }
      sim_->run_cycles(kPollGapCycles);
      if (sim_->hang()) return false;
    }
  }

  bool apply(const WaitIntrLine& w) {
    const std::string what = w.what.empty() ? "wait for the interrupt line" : w.what;
    // Golden: the line is high, or an interrupt this wait stands for was raised together with
    // earlier ones and cleared with them (the model is untimed; see interrupt_events()).
    bool g = false;
    timed([&] { g = golden_.intr_line() || golden_.interrupt_events() > golden_line_waits_; });
    ++golden_line_waits_;
    if (!g) golden_disagrees("golden-intr:line", what + ": the golden model's interrupt line is low (status " +
                                                     hex32(golden_.intr_status()) + ")");
    if (!sim_) return true;
    const uint64_t start = sim_->cycle();
    const uint64_t limit = start + (w.timeout_cycles ? w.timeout_cycles : kDefaultIntrTimeout);
    while (!sim_->interrupt()) {
      if (sim_->cycle() >= limit) {
        sb_.add_hang("intr-wait", what + ": the interrupt line did not rise within the timeout (watchdog)");
        return false;
      }
      if (idle_too_long(start)) {
        sb_.add_hang("intr-wait", what + ": " + idle_text() + " while waiting for the interrupt line (watchdog)");
        return false;
      }
      sim_->run_until_interrupt(std::min<uint64_t>(4096, limit - sim_->cycle()));
      if (sim_->hang()) return false;
    }
    interrupts_seen(std::nullopt);
    return true;
  }

  bool apply(const CheckCrc& c) {
    check_port(c.port, "checks");
    const std::string what = c.what.empty() ? "CRC check" : c.what;
    uint32_t g = 0;
    timed([&] { g = trace::crc32(golden_.memory(c.port), c.addr, c.size); });
    if (g != c.crc)
      golden_disagrees("golden-crc:" + std::string(mem_port_name(c.port)),
                       what + ": golden model's " + mem_port_name(c.port) + " memory has CRC " + hex32(g) +
                           " over " + window(c.addr, c.size) + ", the trace expects " + hex32(c.crc));
    if (!sim_) return true;
    check_acknowledged(c.port, c.addr, c.size, what);
    const uint32_t d = trace::crc32(sim_->memory(c.port), c.addr, c.size);
    if (d != c.crc) {
      Mismatch m;
      m.kind = MismatchKind::MemData;
      m.signature = "crc:" + std::string(mem_port_name(c.port));
      m.port = c.port;
      m.addr = c.addr;
      m.length = c.size;
      m.message = what + ": DUT " + mem_port_name(c.port) + " memory has CRC " + hex32(d) + " over " +
                  window(c.addr, c.size) + ", expected " + hex32(c.crc) + " (golden model: " + hex32(g) + ")";
      sb_.add(std::move(m));
    }
    return true;
  }

  bool apply(const CheckMem& c) {
    check_port(c.port, "checks");
    const std::string what = c.what.empty() ? "memory compare" : c.what;
    std::vector<uint8_t> g;
    timed([&] { g = golden_.memory(c.port).read(c.addr, c.expect.size()); });
    if (const auto i = first_difference(g, c.expect))
      golden_disagrees("golden-mem:" + std::string(mem_port_name(c.port)),
                       what + ": golden model's " + mem_port_name(c.port) + " memory differs from the expected data at " +
                           hex64(c.addr + *i) + " (" + hex8(g[*i]) + ", expected " + hex8(c.expect[*i]) + ")");
    if (!sim_) return true;
    check_acknowledged(c.port, c.addr, c.expect.size(), what);
    const std::vector<uint8_t> d = sim_->memory(c.port).read(c.addr, c.expect.size());
    if (const auto i = first_difference(d, c.expect)) {
      Mismatch m;
      m.kind = MismatchKind::MemData;
      m.signature = "mem-compare:" + std::string(mem_port_name(c.port));
      m.port = c.port;
      m.addr = c.addr + *i;
      m.length = c.expect.size() - *i;
      m.expected.assign(c.expect.begin() + static_cast<std::ptrdiff_t>(*i),
                        c.expect.begin() + static_cast<std::ptrdiff_t>(std::min(c.expect.size(), *i + 16)));
      m.actual.assign(d.begin() + static_cast<std::ptrdiff_t>(*i),
                      d.begin() + static_cast<std::ptrdiff_t>(std::min(d.size(), *i + 16)));
      m.message = what + ": DUT " + mem_port_name(c.port) + " memory differs from the expected data at " +
                  hex64(c.addr + *i) + " (" + hex8(d[*i]) + ", expected " + hex8(c.expect[*i]) + ")";
      sb_.add(std::move(m));
    }
    return true;
  }

  bool apply(const RegWrite& w) {
    const size_t layers_before = golden_.layers().size();
    timed([&] { golden_.csb_write(w.addr, w.data); });
    if (!sim_) return true;
    const uint64_t write_index = sim_->csb_writes_queued();
    sim_->csb_write(w.addr, w.data, w.nposted);
    // Layers this write started (the golden model runs them inside the write) join the
    // performance window. The first that raises a done interrupt opens it: its clock starts when
    // this write reaches the DUT. Companions without one (the RDMAs, which the golden model may
    // run when they are armed, before their unit is) only add their cost.
    const auto& layers = golden_.layers();
    for (size_t i = layers_before; i < layers.size(); ++i) {
      // A launch clears its group's counters: they are no longer settled.
      const int group = layers[i].group < 0 ? 0 : layers[i].group;
      settled_counters_.erase(std::remove_if(settled_counters_.begin(), settled_counters_.end(),
                                             [&](const SettledCounter& c) {
                                               return c.unit == layers[i].unit && c.group == group;
                                             }),
                              settled_counters_.end());
      if (layers[i].completed) window_units_.emplace_back(layers[i].unit, group);
      const auto cost = layer_cost(cfg_, layers[i]);
      if (!cost) continue;
      window_costs_.push_back(*cost);
      window_cost_writes_.push_back(write_index);
      const uint32_t bits = GoldenModel::done_interrupt_bits(
          layers[i].unit, layers[i].group < 0 ? 0u : static_cast<unsigned>(layers[i].group));
      if (!bits) continue;
      pending_done_bits_.push_back(bits);
      if (!window_open_) {
        window_open_ = true;
        window_start_write_ = write_index;
        window_withheld_start_ = withheld_cycles();
        window_withheld_start_rd_ = withheld_cycles(true);
        window_latency_start_ = read_latency_cycles();
      }
    }
    return true;
  }

  // Cycles the memory withheld, read and write side (all ports), or the read side only.
  uint64_t withheld_cycles(bool read_side_only = false) const {
    const tb::SimStats st = sim_->stats();
    uint64_t n = st.dbb.read_withheld_cycles + (read_side_only ? 0 : st.dbb.write_withheld_cycles);
    if (st.sram) n += st.sram->read_withheld_cycles + (read_side_only ? 0 : st.sram->write_withheld_cycles);
    return n;
  }

  // Of those, the read side's latency waits (AxiMemoryStats::read_latency_cycles), all ports.
  uint64_t read_latency_cycles() const {
    const tb::SimStats st = sim_->stats();
    return st.dbb.read_latency_cycles + (st.sram ? st.sram->read_latency_cycles : 0);
  }

  // Stall counters of the window's units against what the memory withheld during the window
  // (docs/scoreboard.md): a DMA can only stall while the memory port holds it back, so a read
  // stall count is at most the cycles the slaves withheld on the read side, a write stall count
  // at most those on the write side (zero on the `fast` profile). A per-group counter is read
  // only while S_POINTER's producer still selects the layer's group (else the program has moved
  // on and the CSB would show the other group).
  void check_stall_counters(uint64_t read_bound, uint64_t write_bound) {
    check_settled_counters("when a later layer ended");
    std::vector<std::pair<Unit, int>> seen;
    for (const auto& [unit, group] : window_units_) {
      if (std::find(seen.begin(), seen.end(), std::make_pair(unit, group)) != seen.end()) continue;
      seen.emplace_back(unit, group);
      const std::string name = unit_name(unit);
      std::vector<const RegInfo*> counters;
      for (const RegInfo* r : map_.unit_registers(unit)) {
        const bool stall = r->name.find("STALL") != std::string::npos && r->name.rfind("D_PERF_", 0) == 0;
        const bool bdma = unit == Unit::BDMA && r->name.rfind("STATUS_GRP" + std::to_string(group) + "_", 0) == 0 &&
                          r->name.find("_STALL") != std::string::npos;
        if (stall || bdma) counters.push_back(r);
      }
      if (counters.empty()) continue;
      if (unit != Unit::BDMA) {
        const RegInfo* ptr = map_.find(name + ".S_POINTER");
        if (!ptr) continue;
        const uint32_t p = sim_->csb_read(map_.address_of(*ptr));
        if (sim_->hang() || static_cast<int>(p & 1u) != group) continue;
      }
      // A counter whose enable bit is 0 (bit 0 of the unit's D_PERF_ENABLE, BDMA's
      // CFG_STATUS.STALL_COUNT_EN) does not count: it reads 0 after the layer cleared it.
      bool enabled = true;
      if (const RegInfo* en = map_.find(name + (unit == Unit::BDMA ? ".CFG_STATUS" : ".D_PERF_ENABLE"))) {
        const uint32_t e = sim_->csb_read(map_.address_of(*en));
        if (sim_->hang()) return;
        enabled = (e & 1u) != 0;
      }
      for (const RegInfo* r : counters) {
        const uint32_t v = sim_->csb_read(map_.address_of(*r));
        if (sim_->hang()) return;
        const bool read_side = r->name.find("READ") != std::string::npos || r->name.find("RD_") != std::string::npos;
        const uint64_t bound = !enabled ? 0 : read_side ? read_bound : write_bound;
        ++stall_counters_checked_;
        if (enabled && unit == Unit::BDMA) settle(map_.address_of(*r), v, unit, group);
        if (v <= bound) continue;
        std::string counter = status_counter_name(*r);
        if (counter.empty()) counter = to_lower(name) + "." + to_lower(r->name);
        Mismatch m;
        m.kind = MismatchKind::Register;
        m.signature = counter + " rtl=" + std::to_string(v) + " bound=" + std::to_string(bound);
        m.unit = name;
        m.name = name + "." + r->name;
        m.reg_addr = map_.address_of(*r);
        m.mask = 0xffffffffu;
        m.actual_value = v;
        m.expected_value = static_cast<uint32_t>(std::min<uint64_t>(bound, 0xffffffffu));
        m.message = "stall counter " + name + "." + r->name + " (group " + std::to_string(group) + ") reads " +
                    std::to_string(v) +
                    (!enabled ? std::string(", but its enable bit is 0 (it must not count)")
                              : ", but the memory withheld only " + std::to_string(bound) + " " +
                                    (read_side ? "read" : "write") + "-side cycles during the layer");
        sb_.add(std::move(m));
      }
    }
  }

  // A BDMA group's stall counters count only while that group's batch runs and are cleared when
  // it is launched again: between its done interrupt and its next launch they must keep the value
  // read at the done (a counter that takes the other group's stalls changes). Checked when a later
  // layer ends and at the end of the test.
  struct SettledCounter {
    uint32_t addr;
    uint32_t value;
    Unit unit;
    int group;
  };
 public:
  void check_settled_counters(const std::string& when) {
    if (!sim_ || sim_->hang()) return;
    for (SettledCounter& c : settled_counters_) {
      const uint32_t v = sim_->csb_read(c.addr);
      if (sim_->hang()) return;
      if (v == c.value) continue;
      const std::string name = reg_name(map_, c.addr);
      Mismatch m;
      m.kind = MismatchKind::Register;
      m.signature = "stall-settled:" + name;
      m.unit = unit_name(c.unit);
      m.name = name;
      m.reg_addr = c.addr;
      m.mask = 0xffffffffu;
      m.expected_value = c.value;
      m.actual_value = v;
      m.message = "stall counter " + name + " (group " + std::to_string(c.group) + ") read " +
                  std::to_string(c.value) + " after its group's done interrupt but " + std::to_string(v) + " " + when +
                  " (the group was not launched again: it must not count)";
      sb_.add(std::move(m));
      c.value = v;  // reported once
    }
  }

 private:
  void settle(uint32_t addr, uint32_t value, Unit unit, int group) {
    for (SettledCounter& c : settled_counters_)
      if (c.addr == addr) {
        c = {addr, value, unit, group};
        return;
      }
    settled_counters_.push_back({addr, value, unit, group});
  }

  static std::string to_lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // After a wait for `status_bits` (all: the interrupt line) ended: the window closes when
  // every layer of it that raises a done interrupt has raised it.
  void interrupts_seen(std::optional<uint32_t> status_bits) {
    if (!window_open_) return;
    pending_done_bits_.erase(std::remove_if(pending_done_bits_.begin(), pending_done_bits_.end(),
                                            [&](uint32_t b) { return !status_bits || (b & *status_bits) != 0; }),
                             pending_done_bits_.end());
    if (!pending_done_bits_.empty()) return;
    window_open_ = false;
    const std::vector<LayerCost> costs = std::move(window_costs_);
    const std::vector<uint64_t> cost_writes = std::move(window_cost_writes_);
    window_costs_.clear();
    window_cost_writes_.clear();
    const uint64_t withheld_all = withheld_cycles() - window_withheld_start_;
    const auto start = sim_->csb_write_issue_cycle(window_start_write_);
    if (!start) return;  // cannot happen: the wait read status over CSB after the write
    // The end: the done interrupt's rising edge when the line rose during the window (the
    // program may idle or read registers before it looks), else the end of the wait. A conv
    // layer raises CDMA's done bits long before SDP's while the line stays high, so its window
    // ends at the wait.
    const bool conv = std::any_of(costs.begin(), costs.end(), [](const LayerCost& c) { return c.unit == "conv"; });
    uint64_t end = sim_->cycle();
    if (const auto rise = sim_->last_interrupt_rise(); !conv && rise && *rise > *start && *rise < end) end = *rise;
    const uint64_t cycles = end > *start ? end - *start : 0;
    // With an unthrottled read side the read waits are latency alone: charged to the budget
    // per round of reads in flight (PerfBudget::latency_cycles) instead of excused, so a DMA
    // that keeps fewer reads in flight than it can shows.
    const uint64_t latency_waits = charged_read_latency_ ? read_latency_cycles() - window_latency_start_ : 0;
    const uint64_t withheld = std::min(cycles, withheld_all - std::min(withheld_all, latency_waits));
    const uint64_t measured = cycles - withheld;
    const double tolerance = perf_tolerance_.value_or(kDefaultPerfTolerance);
    const PerfBudget b = window_budget(cfg_, costs, charged_read_latency_);
    uint64_t budget = b.budget(tolerance);
    // Paced by the program: a layer cannot start before the write that arms it reaches the DUT,
    // so the layers from the k-th on get their own budget from that write's cycle (a program that
    // programs its next layers while the first ones run leaves the DUT idle in between).
    uint64_t paced_from = 0;
    for (size_t k = 1; k < costs.size(); ++k) {
      const auto armed = sim_->csb_write_issue_cycle(cost_writes[k]);
      if (!armed || *armed <= *start) continue;
      const uint64_t later = *armed - *start +
          window_budget(cfg_, std::vector<LayerCost>(costs.begin() + static_cast<std::ptrdiff_t>(k), costs.end()),
                        charged_read_latency_).budget(tolerance);
      if (later > budget) {
        budget = later;
        paced_from = *armed - *start;
      }
    }
    const double ratio = b.bound() ? static_cast<double>(measured > b.fixed_cycles ? measured - b.fixed_cycles : 0) /
                                         static_cast<double>(b.bound())
                                   : 0.0;
    // A DMA may start before its unit is armed (an RDMA armed early, or the next group's while
    // the previous layer runs), so its stall counter is bounded by what the memory withheld since
    // the previous window opened (the start of the test for the first window).
    if (check_stalls_) {
      const uint64_t since_rd = withheld_cycles(true) - stall_from_rd_, since_all = withheld_cycles() - stall_from_all_;
      check_stall_counters(since_rd, since_all - since_rd);
    }
    stall_from_rd_ = window_withheld_start_rd_;
    stall_from_all_ = window_withheld_start_;
    window_units_.clear();
    perf_windows_.push_back({{"unit", b.unit}, {"start", *start}, {"cycles", cycles}, {"withheld", withheld},
                             {"measured", measured}, {"layers", b.layers}, {"memory_cycles", b.memory_cycles},
                             {"compute_cycles", b.compute_cycles}, {"fixed_cycles", b.fixed_cycles},
                             {"latency_cycles", b.latency_cycles}, {"latency_waits", latency_waits},
                             {"budget", budget}, {"paced_from", paced_from}, {"ratio", ratio}});
    // Convolution windows are measured and recorded but not judged yet: the conv pipeline's
    // windows do not yet measure its layers reliably (docs/scoreboard.md, "Not done").
    perf_windows_.back()["checked"] = perf_tolerance_.has_value() && !conv;
    if (!perf_tolerance_ || conv || measured <= budget) return;
    Mismatch m;
    m.kind = MismatchKind::Perf;
    m.signature = perf_signature(b.unit, measured, budget);
    m.unit = b.unit;
    m.name = "perf:" + b.unit;
    m.message = "performance: " + std::to_string(b.layers) + " layer(s) from cycle " + std::to_string(*start) +
                " took " + std::to_string(measured) + " cycles (" + std::to_string(cycles) + " minus " +
                std::to_string(withheld) + " the memory withheld), over the budget of " + std::to_string(budget) +
                (paced_from ? " = " + std::to_string(paced_from) + " cycles until the program armed a later layer + that "
                              "layer on's budget; the whole window's:"
                            : std::string()) +
                " = fixed " + std::to_string(b.fixed_cycles) + " + " + fmt_tolerance() + " x (max(memory " +
                std::to_string(b.memory_cycles) + ", compute " + std::to_string(b.compute_cycles) + ")" +
                (b.latency_cycles ? " + read latency " + std::to_string(b.latency_cycles) : std::string()) + ")";
    sb_.add(std::move(m));
  }

  std::string fmt_tolerance() const {
    std::ostringstream os;
    os << perf_tolerance_.value_or(kDefaultPerfTolerance);
    return os.str();
  }

  bool apply(const RegRead& r) {
    uint32_t g = 0;
    timed([&] { g = golden_.csb_read(r.addr); });
    const std::string name = r.what.empty() ? reg_name(map_, r.addr) : r.what;
    if (r.expect && (g & r.mask) != (*r.expect & r.mask))
      golden_disagrees("golden-expect:" + name,
                       "golden model reads " + name + " = " + hex32(g & r.mask) +
                           " but the test expects " + hex32(*r.expect & r.mask));
    if (!sim_) return true;
    const uint32_t d = sim_->csb_read(r.addr);
    if (sim_->hang()) return false;
    sb_.compare_register(r.addr, name, r.mask, dut_read_expectation(r, g, d), d);
    return true;
  }

  bool apply(const WaitIntr& w) {
    const uint32_t status_addr = glb_status_addr();
    uint32_t g = 0;
    timed([&] { g = golden_.csb_read(status_addr); });
    const std::string what = w.what.empty() ? "" : w.what + ": ";
    if ((g & w.status_bits) != w.status_bits)
      golden_disagrees("golden-intr:never",
                       what + "golden model never raises interrupt status bits " + hex32(w.status_bits) +
                           " (status " + hex32(g) + ")");
    if (!sim_) return true;
    const uint64_t start = sim_->cycle();
    const uint64_t limit = start + (w.timeout_cycles ? w.timeout_cycles : 2'000'000);
    while (true) {
      // Poll the status register: the line alone cannot say which bits are set.
      const uint32_t d = sim_->csb_read(status_addr);
      if (sim_->hang()) return false;
      if ((d & w.status_bits) == w.status_bits) {
        interrupts_seen(d);  // every done bit set by now, not only the awaited ones
        return true;
      }
      if (sim_->cycle() >= limit) {
        sb_.add_hang("intr-wait", what + "interrupt status bits " + hex32(w.status_bits) +
                                      " not raised within the timeout (watchdog)");
        return false;
      }
      if (idle_too_long(start)) {
        sb_.add_hang("intr-wait", what + idle_text() + " while waiting for interrupt status bits " +
                                      hex32(w.status_bits) + " (watchdog)");
        return false;
      }
      sim_->run_until_interrupt(64);
      if (sim_->hang()) return false;
      sim_->run_cycles(16);
    }
  }

  bool apply(const Idle& i) {
    if (sim_) sim_->run_cycles(i.cycles);
    return !(sim_ && sim_->hang());
  }

  // The golden model itself contradicts the program (a trace expectation, an interrupt
  // that can never come): a failure of the test, bucketed apart from DUT mismatches.
  void golden_disagrees(const std::string& signature, const std::string& message) {
    Mismatch m;
    m.kind = MismatchKind::Register;
    m.signature = signature;
    m.name = signature;
    m.message = message;
    sb_.add(std::move(m));
  }

  // A memory check stands where the program knows an operation is done (after its interrupt):
  // its data must be acknowledged on AXI by then, not just accepted (NVDLA's done semantics).
  void check_acknowledged(MemPort port, uint64_t addr, uint64_t size, const std::string& what) {
    if (const auto w = sim_->unacknowledged_write(port, addr, size))
      sb_.add_protocol_violation("write_unacknowledged",
                                 "axi." + std::string(mem_port_name(port)) + " " + what + ": checked at cycle " +
                                     std::to_string(sim_->cycle()) + ", but the write burst " + w->to_string() +
                                     " to this region has no B response yet");
  }

  void check_port(MemPort port, const char* verb) const {
    if (port == MemPort::Sram && !cfg_.sram_if)
      throw std::invalid_argument(std::string("program ") + verb + " SRAM memory, but configuration '" + cfg_.name +
                                  "' has no SRAM interface");
  }

  static void fill(SparseMemory& mem, const MemFill& f) {
    constexpr uint64_t kChunk = 64 * 1024;
    std::vector<uint8_t> buf(static_cast<size_t>(std::min(f.size, kChunk)), f.value);
    for (uint64_t done = 0; done < f.size; done += kChunk) {
      const size_t n = static_cast<size_t>(std::min(f.size - done, kChunk));
      if (f.address_byte)
        for (size_t i = 0; i < n; ++i) buf[i] = static_cast<uint8_t>(f.addr + done + i);
      mem.load(f.addr + done, buf.data(), n);
    }
  }

  static bool holds(const PollReg& p, uint32_t v) {
    const uint32_t a = v & p.mask, e = p.expect & p.mask;
    switch (p.compare) {
      case RegCompare::Eq: return a == e;
      case RegCompare::Le: return a <= e;
      case RegCompare::Ge: return a >= e;
    }
    return false;
  }
  static std::string compare_text(const PollReg& p) {
    const char* op = p.compare == RegCompare::Eq ? "" : p.compare == RegCompare::Le ? "<= " : ">= ";
    return op + hex32(p.expect & p.mask) + (p.mask != 0xffffffffu ? " under mask " + hex32(p.mask) : "");
  }
  static std::optional<size_t> first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      if (a[i] != b[i]) return i;
    return std::nullopt;
  }
  static std::string hex64(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
  }
  static std::string hex8(uint8_t v) { return hex64(v); }
  static std::string window(uint64_t addr, uint64_t size) { return hex64(addr) + "+" + hex64(size); }

  // A wait polls status over CSB, which keeps the simulation's own watchdog quiet: the wait
  // itself gives up once the DUT has not moved (no memory handshake, no interrupt change) for the
  // watchdog's cycles since the wait began, instead of running to its (much longer) timeout.
  bool idle_too_long(uint64_t wait_start) const {
    const uint64_t since = std::max(wait_start, sim_->last_activity_cycle());
    return watchdog_cycles_ && sim_->cycle() - since >= watchdog_cycles_;
  }
  std::string idle_text() const {
    return "no memory handshake and no interrupt change for " + std::to_string(watchdog_cycles_) + " cycles";
  }

  bool is_operation_state(uint32_t addr) const {
    const RegInfo* r = map_.at(addr);
    return r && (r->name == "D_OP_ENABLE" || r->name == "S_STATUS" || (r->unit == Unit::BDMA && r->name == "STATUS"));
  }

  uint32_t glb_status_addr() const {
    const RegInfo* r = map_.find("GLB.S_INTR_STATUS");
    if (!r) throw std::logic_error("register map has no GLB.S_INTR_STATUS");
    return map_.address_of(*r);
  }

  template <class F>
  void timed(F&& f) {
    const auto t0 = Clock::now();
    f();
    golden_seconds_ += seconds_since(t0);
  }

  const HwConfig& cfg_;
  const RegisterMap& map_;
  GoldenModel& golden_;
  tb::Simulation* sim_;
  Scoreboard& sb_;
  double& golden_seconds_;
  std::vector<std::string> notes_;
  uint64_t golden_line_waits_ = 0;  // WaitIntrLine ops played on the golden model
  // Performance window: layers started since the DUT was last idle, until their done interrupts.
  std::optional<double> perf_tolerance_;  // nullopt: measured and recorded, not checked
  bool window_open_ = false;
  uint64_t window_start_write_ = 0;       // index of the CSB write that started the first layer
  uint64_t window_withheld_start_ = 0;
  std::vector<LayerCost> window_costs_;
  std::vector<uint64_t> window_cost_writes_;  // per cost: index of the CSB write that started the layer
  std::vector<uint32_t> pending_done_bits_;
  std::vector<std::pair<Unit, int>> window_units_;  // (unit, group) of the window's layer records
  uint64_t window_withheld_start_rd_ = 0;
  uint64_t window_latency_start_ = 0;
  uint32_t charged_read_latency_ = 0;  // > 0: the profile's read waits are latency, charged not excused
  uint64_t stall_from_rd_ = 0, stall_from_all_ = 0;  // withheld counts where the stall bounds start
  bool check_stalls_ = true;
  uint64_t stall_counters_checked_ = 0;
  std::vector<SettledCounter> settled_counters_;
  uint64_t watchdog_cycles_ = 0;  // 0: waits end only at their timeouts  // BDMA counters read at their group's done
  nlohmann::json perf_windows_ = nlohmann::json::array();
};

nlohmann::json axi_stats_json(const tb::AxiMemoryStats& a) {
  return {{"busy_cycles", a.busy_cycles}, {"read_bursts", a.read_bursts},
          {"write_bursts", a.write_bursts}, {"read_beats", a.read_beats},
          {"write_beats", a.write_beats}, {"bytes_read", a.bytes_read},
          {"bytes_written", a.bytes_written}, {"read_withheld_cycles", a.read_withheld_cycles},
          {"write_withheld_cycles", a.write_withheld_cycles}, {"read_latency_cycles", a.read_latency_cycles}};
}

nlohmann::json sim_stats_json(const tb::SimStats& st) {
  nlohmann::json j = {{"cycles", st.cycles},
                      {"reset_cycles", st.reset_cycles},
                      {"reset_idle_cycles", st.reset_idle_cycles},
                      {"eval_seconds", st.eval_seconds},
                      {"total_seconds", st.total_seconds},
                      {"dbb", axi_stats_json(st.dbb)},
                      {"csb", {{"writes", st.csb.writes}, {"nposted_writes", st.csb.nposted_writes},
                               {"reads", st.csb.reads}, {"completions", st.csb.completions}}},
                      {"interrupt_rises", st.interrupt_rises},
                      {"output_digest", st.output_digest}};
  if (st.sram) j["sram"] = axi_stats_json(*st.sram);
  return j;
}

}  // namespace

RunResult run_program(const RunRequest& req, const Program& program) {
  RunResult res;
  res.request = req;
  res.notes = program.notes;
  const auto t0 = Clock::now();
  try {
    const HwConfig& cfg = HwConfig::get(req.config);
    Scoreboard sb(cfg);
    std::unique_ptr<tb::Simulation> sim;
    if (!req.golden_only) {
      tb::SimOptions o;
      o.seed = req.seed;
      o.waves_path = req.waves_path;
      o.waves_last_cycles = req.waves_last_cycles;
      o.axi_profile = req.axi_profile;
      o.watchdog_cycles = req.watchdog_cycles;
      o.signal_settings = req.signal_settings;
      o.dut = req.dut;
      if (!req.initial_state.empty()) o.initial_state = tb::initial_state_from_name(req.initial_state);
      o.reset_idle_cycles = req.reset_idle_cycles;
      sim = tb::make_simulation(req.config, o);
    }
    const golden::PlantedBugScope plants(req.planted_bugs);  // empty outside checker proofs
    // Same poison on both sides, so reads of never-written memory agree.
    GoldenModel golden(cfg, req.seed);
    // A DUT without the convolution pipeline leaves armed conv units idle; so must the model.
    if (sim)
      if (const auto model = tb::find_simulation_model(req.config, req.dut); model && !model->conv)
        golden.remove_conv_datapaths();
    // A DUT without RUBIK leaves an armed RUBIK group armed; so must the model.
    if (sim && golden.has_datapath(Unit::RBK))
      if (const auto model = tb::find_simulation_model(req.config, req.dut); model && !model->rubik)
        golden.remove_datapath(Unit::RBK);
    if (sim) {
      golden.memory(MemPort::Dbb) = SparseMemory(sim->memory(MemPort::Dbb).poison_seed(), cfg.dbb_addr_bits);
      if (cfg.sram_if)
        golden.memory(MemPort::Sram) = SparseMemory(sim->memory(MemPort::Sram).poison_seed(), cfg.dbb_addr_bits);
    }
    // Budgets and stall bounds describe dlaverif's RTL; another DUT is checked only when asked.
    const std::optional<double> perf_tolerance =
        req.perf_tolerance.empty() && req.dut != tb::kPrimaryDut ? std::nullopt
                                                                 : parse_perf_tolerance(req.perf_tolerance, "--perf-tolerance");
    const tb::AxiTiming timing = sim ? tb::AxiTiming::profile(req.axi_profile) : tb::AxiTiming{};
    ProgramPlayer player(cfg, golden, sim.get(), sb, res.golden_seconds, perf_tolerance, req.watchdog_cycles,
                         timing.reads_unthrottled() ? timing.read_latency_max : 0);
    for (const auto& op : program.ops)
      if (!player.play(op)) break;
    player.check_settled_counters("at the end of the test");

    if (sim) {
      if (!sim->hang()) {
        sim->drain_csb();
        sim->run_cycles(64);  // let the last responses settle before looking at memory
      }
      if (const auto h = sim->hang()) {
        // The simulation's signature already reads "hang:<wait> <pending counters>".
        const std::string where = h->rfind("hang:", 0) == 0 ? h->substr(5) : *h;
        sb.add_hang(where, "the watchdog saw no progress");
      }
      for (const auto& v : sim->protocol_violations())
        sb.add_protocol_violation(tb::to_string(v.rule), v.to_string());
      sb.compare_memory(MemPort::Dbb, golden.memory(MemPort::Dbb), sim->memory(MemPort::Dbb));
      if (cfg.sram_if)
        sb.compare_memory(MemPort::Sram, golden.memory(MemPort::Sram),
                          sim->memory(MemPort::Sram));
      sb.compare_interrupt_line("end of test", golden.intr_line(), sim->interrupt());
      const auto st = sim->stats();
      res.cycles = sim->cycle();
      res.eval_seconds = st.eval_seconds;
      res.details["sim"] = sim_stats_json(st);
      res.details["perf"] = player.perf_windows();
      res.details["stall_counters_checked"] = player.stall_counters_checked();
      for (const auto& name : req.read_signals) res.details["signals"][name] = sim->read_signal(name);
    }
    res.warnings = golden.warnings();
    res.warnings.insert(res.warnings.end(), player.notes().begin(), player.notes().end());
    res.layers = golden.layers();
    res.control = cov::control_events(program);  // coverage samples the register traffic
    res.verdict = sb.passed() ? Verdict::Pass : Verdict::Fail;
    res.signature = sb.passed() ? "" : sb.signature();
    // NVIDIA's RTL failing a layer of a known erratum: bucket it as that erratum.
    if (!sb.passed() && req.dut == "nvdla")
      if (const auto erratum = nvdla_erratum_of(cfg, golden.layers())) {
        res.details["first_signature"] = res.signature;
        res.signature = "nvdla-erratum:" + *erratum;
      }
    res.report = sb.report();
    res.details["scoreboard"] = sb.to_json();
    res.summary = sb.passed() ? "all checks passed"
                  : sb.mismatches().empty() ? sb.signature() : sb.mismatches().front().message;
  } catch (const std::invalid_argument& e) {
    res.verdict = Verdict::Error;
    res.signature = "error:input";
    res.summary = e.what();
  } catch (const std::exception& e) {
    res.verdict = Verdict::Error;
    res.signature = "error:internal";
    res.summary = std::string("internal error: ") + e.what();
  }
  res.wall_seconds = seconds_since(t0);
  return res;
}

RunResult run_test(const RunRequest& req) {
  RunResult res;
  res.request = req;
  try {
    const HwConfig& cfg = HwConfig::get(req.config);
    const TestGenerator& gen = find_test_generator(req.test);
    if (gen.needs_conv && !req.golden_only)
      if (const auto model = tb::find_simulation_model(req.config, req.dut); model && !model->conv)
        throw std::invalid_argument("test " + req.test + " runs convolution layers, but DUT '" + req.dut +
                                    "' of configuration " + req.config +
                                    " has no convolution pipeline (DLA_DUT_CONV); run it --golden-only or on a DUT "
                                    "that has one (e.g. --dut nvdla)");
    if (gen.needs_rubik && !req.golden_only)
      if (const auto model = tb::find_simulation_model(req.config, req.dut); model && !model->rubik)
        throw std::invalid_argument("test " + req.test + " runs RUBIK layers, but DUT '" + req.dut +
                                    "' of configuration " + req.config +
                                    " does not implement RUBIK (DLA_DUT_RUBIK); run it --golden-only or on a DUT "
                                    "that has it");
    const auto t0 = Clock::now();
    const Program program = gen.generate(cfg, req.seed, req.knobs);
    const double generate_seconds = seconds_since(t0);
    RunResult ran = run_program(req, program);
    ran.generate_seconds = generate_seconds;
    ran.wall_seconds += generate_seconds;  // the whole test: building its program and running it
    return ran;
  } catch (const std::invalid_argument& e) {
    res.verdict = Verdict::Error;
    res.signature = "error:input";
    res.summary = e.what();
  }
  return res;
}

}  // namespace dla
