#include "dla/test_runner.h"

#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "dla/golden_model.h"
#include "dla/hwconfig.h"
#include "dla/register_map.h"
#include "dla/scoreboard.h"
#include "dla/simulation.h"
#include "dla/test_generator.h"

namespace dla {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

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
                double& golden_seconds)
      : cfg_(cfg), map_(RegisterMap::of(cfg)), golden_(golden), sim_(sim), sb_(sb),
        golden_seconds_(golden_seconds) {}

  // Returns false when the run cannot go on (hang).
  bool play(const ProgramOp& op) {
    return std::visit([this](const auto& o) { return apply(o); }, op);
  }

 private:
  bool apply(const MemLoad& m) {
    if (m.port == MemPort::Sram && !cfg_.sram_if)
      throw std::invalid_argument("program loads SRAM memory, but configuration '" + cfg_.name +
                                  "' has no SRAM interface");
    timed([&] { golden_.memory(m.port).load(m.addr, m.bytes.data(), m.bytes.size()); });
    if (sim_) sim_->memory(m.port).load(m.addr, m.bytes.data(), m.bytes.size());
    return true;
  }

  bool apply(const RegWrite& w) {
    timed([&] { golden_.csb_write(w.addr, w.data); });
    if (sim_) sim_->csb_write(w.addr, w.data, w.nposted);
    return true;
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
    const uint32_t expected = r.expect ? *r.expect : g;
    sb_.compare_register(r.addr, name, r.mask, expected, d);
    return true;
  }

  bool apply(const WaitIntr& w) {
    const uint32_t status_addr = glb_status_addr();
    uint32_t g = 0;
    timed([&] { g = golden_.csb_read(status_addr); });
    if ((g & w.status_bits) != w.status_bits)
      golden_disagrees("golden-intr:never",
                       "golden model never raises interrupt status bits " + hex32(w.status_bits) +
                           " (status " + hex32(g) + ")");
    if (!sim_) return true;
    const uint64_t limit = sim_->cycle() + (w.timeout_cycles ? w.timeout_cycles : 2'000'000);
    while (true) {
      // Poll the status register: the line alone cannot say which bits are set.
      const uint32_t d = sim_->csb_read(status_addr);
      if (sim_->hang()) return false;
      if ((d & w.status_bits) == w.status_bits) return true;
      if (sim_->cycle() >= limit) {
        sb_.add_hang("intr-wait", "interrupt status bits " + hex32(w.status_bits) +
                                      " not raised within the timeout");
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
};

nlohmann::json axi_stats_json(const tb::AxiMemoryStats& a) {
  return {{"busy_cycles", a.busy_cycles}, {"read_bursts", a.read_bursts},
          {"write_bursts", a.write_bursts}, {"read_beats", a.read_beats},
          {"write_beats", a.write_beats}, {"bytes_read", a.bytes_read},
          {"bytes_written", a.bytes_written}};
}

nlohmann::json sim_stats_json(const tb::SimStats& st) {
  nlohmann::json j = {{"cycles", st.cycles},
                      {"reset_cycles", st.reset_cycles},
                      {"eval_seconds", st.eval_seconds},
                      {"total_seconds", st.total_seconds},
                      {"dbb", axi_stats_json(st.dbb)},
                      {"csb", {{"writes", st.csb.writes}, {"nposted_writes", st.csb.nposted_writes},
                               {"reads", st.csb.reads}, {"completions", st.csb.completions}}},
                      {"interrupt_rises", st.interrupt_rises}};
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
      sim = tb::make_simulation(req.config, o);
    }
    // Same poison on both sides, so reads of never-written memory agree.
    GoldenModel golden(cfg, req.seed);
    if (sim) {
      golden.memory(MemPort::Dbb) = SparseMemory(sim->memory(MemPort::Dbb).poison_seed());
      if (cfg.sram_if)
        golden.memory(MemPort::Sram) = SparseMemory(sim->memory(MemPort::Sram).poison_seed());
    }
    ProgramPlayer player(cfg, golden, sim.get(), sb, res.golden_seconds);
    for (const auto& op : program.ops)
      if (!player.play(op)) break;

    if (sim) {
      if (!sim->hang()) {
        sim->drain_csb();
        sim->run_cycles(64);  // let the last responses settle before looking at memory
      }
      if (const auto h = sim->hang()) sb.add_hang(*h, "the watchdog saw no progress");
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
    }
    res.warnings = golden.warnings();
    res.layers = golden.layers();
    res.verdict = sb.passed() ? Verdict::Pass : Verdict::Fail;
    res.signature = sb.passed() ? "" : sb.signature();
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
    const Program program = gen.generate(cfg, req.seed, req.knobs);
    return run_program(req, program);
  } catch (const std::invalid_argument& e) {
    res.verdict = Verdict::Error;
    res.signature = "error:input";
    res.summary = e.what();
  }
  return res;
}

}  // namespace dla
