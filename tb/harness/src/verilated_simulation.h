#pragma once
// The harness: one Verilated NVDLA-compatible model, its BFMs, checkers, interrupt monitor and
// watchdog. Compiled once per configuration (Dut = that configuration's Verilated class).
//
// One clock cycle (step()):
//   1. The DUT outputs are settled (last eval, clock low, with the BFM outputs applied).
//   2. Checkers observe (DUT outputs, BFM outputs): exactly what the coming rising edge sees.
//   3. BFM tick(): handshakes of that edge, then the BFM outputs for after the edge.
//   4. Rising edge: clk=1, eval (the DUT samples the *old* BFM outputs still on its inputs).
//   5. Apply the new BFM outputs, clk=0, eval: combinational paths settle for the next cycle.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "axi_pins.h"
#include "dla/bfm/axi_protocol_checker.h"
#include "dla/bfm/axi_slave_memory.h"
#include "dla/bfm/csb_master.h"
#include "dla/bfm/interrupt_monitor.h"
#include "dla/bfm/seed.h"
#include "dla/bfm/uninitialised_read_checker.h"
#include "dla/bfm/watchdog.h"
#include "dla/bfm/write_completion_tracker.h"
#include "dla/simulation.h"
#include "public_signals.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "wave_writer.h"

namespace dla::tb {

// A model class may define on_reset_release(), called on the last reset cycle just before the
// reset pins go high (the code-coverage models use it to drop the toggles of the random start).
template <class Dut, class = void>
struct HasResetReleaseHook : std::false_type {};
template <class Dut>
struct HasResetReleaseHook<Dut, std::void_t<decltype(std::declval<Dut&>().on_reset_release())>> : std::true_type {};

template <class Dut, bool kHasSram>
class VerilatedSimulation final : public Simulation {
  using Clock = std::chrono::steady_clock;
  // Clocks with the reset inputs high before they fall (reset()): more than any reset
  // synchronizer's depth.
  static constexpr int kPreResetCycles = 16;

 public:
  // address_bits: the configuration's; both memories take addresses modulo 2^address_bits.
  VerilatedSimulation(std::string config_name, unsigned address_bits, const SimOptions& options)
      : config_(std::move(config_name)),
        options_(options),
        dbb_memory_(derive_seed(options.seed, "tb.mem.dbb.poison"), address_bits),
        sram_memory_(derive_seed(options.seed, "tb.mem.sram.poison"), address_bits),
        csb_(derive_seed(options.seed, "tb.csb")),
        watchdog_(options.watchdog_cycles == 0 ? throw std::invalid_argument(
                                                     "SimOptions.watchdog_cycles must be >= 1 (0 would wait forever)")
                                               : options.watchdog_cycles) {
    const AxiTiming timing = AxiTiming::profile(options.axi_profile);
    const unsigned dbb_bytes = DLA_AXI_DATA_BYTES(Dut, nvdla_core2dbb);
    dbb_ = std::make_unique<AxiSlaveMemory>(dbb_memory_, dbb_bytes, timing, derive_seed(options.seed, "tb.axi.dbb"));
    dbb_checker_ = std::make_unique<AxiProtocolChecker>("axi.dbb", dbb_bytes);
    dbb_reads_ = std::make_unique<UninitialisedReadChecker>("axi.dbb", dbb_bytes, dbb_memory_);
    dbb_writes_ = std::make_unique<WriteCompletionTracker>("axi.dbb", dbb_bytes);
    if constexpr (kHasSram) {
      const unsigned sram_bytes = DLA_AXI_DATA_BYTES(Dut, nvdla_core2cvsram);
      sram_ = std::make_unique<AxiSlaveMemory>(sram_memory_, sram_bytes, timing,
                                               derive_seed(options.seed, "tb.axi.sram"));
      sram_checker_ = std::make_unique<AxiProtocolChecker>("axi.sram", sram_bytes);
      sram_reads_ = std::make_unique<UninitialisedReadChecker>("axi.sram", sram_bytes, sram_memory_);
      sram_writes_ = std::make_unique<WriteCompletionTracker>("axi.sram", sram_bytes);
    }

    context_ = std::make_unique<VerilatedContext>();
    // Some RTL asks $test$plusargs (NVDLA's does); Verilator requires the arguments to be set.
    const char* args[] = {"dlaverif"};
    context_->commandArgs(1, args);
    context_->traceEverOn(true);  // the model always has trace support; waves open only on request
    // Random: every register/memory the RTL does not reset starts random (seeded, reproducible).
    // Zero: for RTL that needs an all-zero start (make_simulation fills in the model's default).
    context_->randReset(options.initial_state.value_or(InitialState::Random) == InitialState::Zero ? 0 : 2);
    // randSeed 0 would mean "seed from the time"; keep it non-zero and reproducible.
    context_->randSeed(static_cast<int>(derive_seed(options.seed, "tb.verilator.reset") % 0x7fffffff) + 1);
    Verilated::threadContextp(context_.get());
    dut_ = std::make_unique<Dut>(context_.get(), "TOP");
    for (const auto& [name, value] : options.signal_settings) signals::write(*context_, name, value);
    if (!options.waves_path.empty()) {
      waves_ = std::make_unique<WaveWriter<Dut>>(*dut_, options.waves_path, options.waves_last_cycles);
    }
    reset();
  }

  ~VerilatedSimulation() override {
    waves_.reset();  // flush and close before the model goes away
    if (dut_) dut_->final();
  }

  const std::string& config_name() const override { return config_; }

  void csb_write(uint32_t byte_addr, uint32_t data, bool nposted) override { csb_.write(byte_addr, data, nposted); }

  uint32_t csb_read(uint32_t byte_addr) override {
    if (hang_) return kCsbHangReadValue;  // the run is already lost; do not wait again
    const CsbMaster::Ticket t = csb_.read(byte_addr);
    const Timed timed(total_seconds_);
    char what[48];
    std::snprintf(what, sizeof what, "csb-read@0x%x", byte_addr);
    if (!wait_for([&] { return csb_.read_done(t); }, what)) return kCsbHangReadValue;
    return csb_.read_result(t);
  }

  void drain_csb() override {
    if (hang_) return;
    const Timed timed(total_seconds_);
    wait_for([&] { return csb_.idle(); }, "csb-drain");
  }

  void run_cycles(uint64_t n) override {
    const Timed timed(total_seconds_);
    for (uint64_t i = 0; i < n; ++i) step();
  }

  bool run_until_interrupt(uint64_t max_cycles) override {
    if (hang_) return interrupt();
    const Timed timed(total_seconds_);
    const uint64_t end = cycle_ + max_cycles;
    watchdog_.arm(cycle_, "intr-wait");
    while (!interrupt() && cycle_ < end) {
      step();
      if (watchdog_.expired(cycle_)) {
        fire_watchdog();
        return interrupt();
      }
    }
    watchdog_.disarm();
    return interrupt();
  }

  bool interrupt() const override { return dut_->dla_intr != 0; }

  SparseMemory& memory(MemPort p) override {
    if (p == MemPort::Dbb) return dbb_memory_;
    if (!has_port(p)) {
      throw std::invalid_argument("configuration '" + config_ + "' has no " + mem_port_name(p) + " memory port");
    }
    return sram_memory_;
  }

  bool has_port(MemPort p) const override { return p == MemPort::Dbb || kHasSram; }
  uint64_t cycle() const override { return cycle_; }

  const std::vector<ProtocolViolation>& protocol_violations() const override {
    violations_.clear();
    const auto append = [this](const std::vector<ProtocolViolation>& v) {
      violations_.insert(violations_.end(), v.begin(), v.end());
    };
    append(dbb_checker_->violations());
    if (sram_checker_) append(sram_checker_->violations());
    append(dbb_reads_->violations());
    if (sram_reads_) append(sram_reads_->violations());
    append(csb_.violations());
    std::stable_sort(violations_.begin(), violations_.end(),
                     [](const ProtocolViolation& a, const ProtocolViolation& b) { return a.cycle < b.cycle; });
    return violations_;
  }

  std::optional<PendingWrite> unacknowledged_write(MemPort p, uint64_t addr, uint64_t size) const override {
    if (p == MemPort::Dbb) return dbb_writes_->pending_in(addr, size);
    if (!sram_writes_) throw std::invalid_argument("configuration '" + config_ + "' has no " + mem_port_name(p) + " memory port");
    return sram_writes_->pending_in(addr, size);
  }

  std::optional<std::string> hang() const override { return hang_; }
  uint64_t csb_writes_queued() const override { return csb_.writes_queued(); }
  std::optional<uint64_t> last_interrupt_rise() const override { return interrupts_.last_rise_cycle(); }
  uint64_t last_activity_cycle() const override { return last_activity_; }
  std::optional<uint64_t> csb_write_issue_cycle(uint64_t n) const override { return csb_.write_issue_cycle(n); }

  SimStats stats() const override {
    SimStats s;
    s.cycles = cycle_;
    s.reset_cycles = reset_cycles_;
    s.reset_idle_cycles = reset_idle_cycles_;
    s.eval_seconds = eval_seconds_;
    s.total_seconds = total_seconds_;
    s.dbb = dbb_->stats();
    if (sram_) s.sram = sram_->stats();
    s.csb = csb_.stats();
    s.interrupt_rises = interrupts_.rising_edges();
    s.output_digest = output_digest_;
    return s;
  }

  std::vector<uint32_t> read_signal(const std::string& name) const override {
    return signals::read(*context_, name);
  }

 private:
  // Adds the wall time of its scope to a counter.
  class Timed {
   public:
    explicit Timed(double& sink) : sink_(sink), start_(Clock::now()) {}
    ~Timed() { sink_ += std::chrono::duration<double>(Clock::now() - start_).count(); }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

   private:
    double& sink_;
    Clock::time_point start_;
  };

  template <class Done>
  bool wait_for(Done done, const char* what) {
    watchdog_.arm(cycle_, what);
    while (!done()) {
      step();
      if (watchdog_.expired(cycle_)) {
        fire_watchdog();
        return false;
      }
    }
    watchdog_.disarm();
    return true;
  }

  void fire_watchdog() {
    PendingCounters pending = {
        {"csb.queued", csb_.queued()},
        {"csb.reads_in_flight", csb_.reads_in_flight()},
        {"csb.nposted_in_flight", csb_.nposted_in_flight()},
        {"axi.dbb.rd_outstanding", dbb_->outstanding_reads()},
        {"axi.dbb.wr_outstanding", dbb_->outstanding_writes()},
    };
    if (sram_) {
      pending.push_back({"axi.sram.rd_outstanding", sram_->outstanding_reads()});
      pending.push_back({"axi.sram.wr_outstanding", sram_->outstanding_writes()});
    }
    hang_ = format_hang_signature(watchdog_.waiting_for(), pending);
    watchdog_.disarm();
    if (waves_) waves_->flush();
  }

  void eval() {
    dut_->eval();
    if (waves_) waves_->dump(context_->time());
  }

  void rising_edge() {
    context_->timeInc(5);
    dut_->dla_core_clk = 1;
    dut_->dla_csb_clk = 1;
    eval();
  }

  void settle_low() {
    context_->timeInc(5);
    dut_->dla_core_clk = 0;
    dut_->dla_csb_clk = 0;
    eval();
  }

  void tie_off() {
    dut_->global_clk_ovr_on = 0;
    dut_->tmc2slcg_disable_clock_gating = 0;
    dut_->test_mode = 0;
    dut_->nvdla_pwrbus_ram_c_pd = 0;
    dut_->nvdla_pwrbus_ram_ma_pd = 0;
    dut_->nvdla_pwrbus_ram_mb_pd = 0;
    dut_->nvdla_pwrbus_ram_p_pd = 0;
    dut_->nvdla_pwrbus_ram_o_pd = 0;
    dut_->nvdla_pwrbus_ram_a_pd = 0;
  }

  void drive_inputs() {
    DLA_DRIVE_AXI_SLAVE(*dut_, nvdla_core2dbb, dbb_s_, dbb_->data_bytes());
    if constexpr (kHasSram) DLA_DRIVE_AXI_SLAVE(*dut_, nvdla_core2cvsram, sram_s_, sram_->data_bytes());
    dut_->csb2nvdla_valid = csb_m_.valid;
    port::set(dut_->csb2nvdla_addr, csb_m_.addr);
    port::set(dut_->csb2nvdla_wdat, csb_m_.wdat);
    dut_->csb2nvdla_write = csb_m_.write;
    dut_->csb2nvdla_nposted = csb_m_.nposted;
  }

  void reset() {
    std::mt19937_64 rng(derive_seed(options_.seed, "tb.reset"));
    reset_cycles_ = draw_between(rng, 8, 32);
    tie_off();
    drive_inputs();  // all BFM outputs idle
    dut_->dla_core_clk = 0;
    dut_->dla_csb_clk = 0;
    const Timed timed(total_seconds_);
    // The resets fall once, as in hardware. Verilator applies an asynchronous reset only on an
    // edge of the flop's clock or reset; a flop whose clock is gated off during reset takes its
    // reset value only from the reset's falling edge (NVIDIA's RTL: the MCIF write queue's
    // free-entry mask, reset to all ones, behind a clock gate that opens on traffic; left at its
    // initial 0 it loses write acknowledgements). The internal reset comes out of a synchronizer,
    // so the inputs stay high for a few clocks first (the BFMs are idle and not sampled).
    dut_->dla_reset_rstn = 1;
    dut_->direct_reset_ = 1;
    eval();
    for (int i = 0; i < kPreResetCycles; ++i) {
      rising_edge();
      settle_low();
    }
    dut_->dla_reset_rstn = 0;
    dut_->direct_reset_ = 0;
    eval();
    for (uint64_t i = 0; i < reset_cycles_; ++i) {
      rising_edge();
      if (i + 1 == reset_cycles_) {  // release in the low phase, away from the rising edge
        if constexpr (HasResetReleaseHook<Dut>::value) dut_->on_reset_release();
        dut_->dla_reset_rstn = 1;
        dut_->direct_reset_ = 1;
      }
      settle_low();
    }
    // Idle clocks after reset (with every checker and BFM running) for RTL that initialises
    // itself first, e.g. NVDLA's CBUF flush. The test's cycles count from the end of them.
    reset_idle_cycles_ = options_.reset_idle_cycles.value_or(0);
    for (uint64_t i = 0; i < reset_idle_cycles_; ++i) step();
    cycle_ = 0;
    last_activity_ = 0;
  }

  // FNV-1a over the outputs the DUT hands over in this cycle's handshakes.
  void digest(uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) output_digest_ = (output_digest_ ^ (v & 0xff)) * 0x100000001b3ull;
  }
  void digest_axi(uint64_t port, const AxiMasterOut& m, const AxiSlaveOut& s, unsigned data_bytes) {
    if (m.awvalid && s.awready) { digest(port << 8 | 1); digest(m.awaddr); digest(m.awlen); }
    if (m.arvalid && s.arready) { digest(port << 8 | 2); digest(m.araddr); digest(m.arlen); }
    if (m.wvalid && s.wready) {
      digest(port << 8 | 3);
      for (unsigned b = 0; b < data_bytes; ++b) digest((m.wstrb >> b & 1) ? 0x100u | m.wdata[b] : 0u);
    }
  }

  void step() {
    DLA_SAMPLE_AXI_MASTER(*dut_, nvdla_core2dbb, dbb_m_, dbb_->data_bytes());
    digest_axi(0, dbb_m_, dbb_s_, dbb_->data_bytes());
    dbb_checker_->observe(cycle_, dbb_m_, dbb_s_);
    dbb_reads_->observe(cycle_, dbb_m_, dbb_s_);
    dbb_writes_->observe(cycle_, dbb_m_, dbb_s_);
    dbb_->tick(dbb_m_, dbb_s_);
    bool progress = dbb_->handshake_at_last_tick();
    if constexpr (kHasSram) {
      DLA_SAMPLE_AXI_MASTER(*dut_, nvdla_core2cvsram, sram_m_, sram_->data_bytes());
      digest_axi(1, sram_m_, sram_s_, sram_->data_bytes());
      sram_checker_->observe(cycle_, sram_m_, sram_s_);
      sram_reads_->observe(cycle_, sram_m_, sram_s_);
      sram_writes_->observe(cycle_, sram_m_, sram_s_);
      sram_->tick(sram_m_, sram_s_);
      progress |= sram_->handshake_at_last_tick();
    }
    csb_s_.ready = dut_->csb2nvdla_ready != 0;
    csb_s_.rvalid = dut_->nvdla2csb_valid != 0;
    csb_s_.rdata = static_cast<uint32_t>(port::value(dut_->nvdla2csb_data));
    csb_s_.wr_complete = dut_->nvdla2csb_wr_complete != 0;
    if (csb_s_.rvalid) digest(0x400000000ull | csb_s_.rdata);
    if (csb_s_.wr_complete) digest(0x500000000ull);
    csb_.tick(cycle_, csb_s_, csb_m_);
    interrupts_.sample(cycle_, dut_->dla_intr != 0);
    if (interrupts_.changed_at_last_sample()) digest(0x600000000ull | (dut_->dla_intr != 0));
    if (progress || interrupts_.changed_at_last_sample()) last_activity_ = cycle_;
    progress |= csb_.handshake_at_last_tick() || interrupts_.changed_at_last_sample();
    if (progress) watchdog_.progress(cycle_);

    // Two clock reads per cycle: the eval time includes applying the BFM outputs to the ports.
    const auto t0 = Clock::now();
    rising_edge();
    drive_inputs();
    settle_low();
    eval_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    ++cycle_;
  }

  std::string config_;
  SimOptions options_;
  SparseMemory dbb_memory_;
  SparseMemory sram_memory_;
  std::unique_ptr<AxiSlaveMemory> dbb_, sram_;
  std::unique_ptr<AxiProtocolChecker> dbb_checker_, sram_checker_;
  std::unique_ptr<UninitialisedReadChecker> dbb_reads_, sram_reads_;
  std::unique_ptr<WriteCompletionTracker> dbb_writes_, sram_writes_;
  CsbMaster csb_;
  InterruptMonitor interrupts_;
  Watchdog watchdog_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Dut> dut_;
  std::unique_ptr<WaveWriter<Dut>> waves_;

  AxiMasterOut dbb_m_, sram_m_;
  AxiSlaveOut dbb_s_, sram_s_;
  CsbMasterOut csb_m_;
  CsbSlaveOut csb_s_;
  uint64_t cycle_ = 0;
  uint64_t last_activity_ = 0;  // see last_activity_cycle()
  uint64_t output_digest_ = 0xcbf29ce484222325ull;
  uint64_t reset_cycles_ = 0;
  uint64_t reset_idle_cycles_ = 0;
  double eval_seconds_ = 0;
  double total_seconds_ = 0;
  std::optional<std::string> hang_;
  mutable std::vector<ProtocolViolation> violations_;
};

}  // namespace dla::tb
