#pragma once
// Public API of the Verilated testbench: one Simulation per run of one configuration's model.
// The DUT is driven only through NVDLA's top-level ports (CSB, DBB/SRAM AXI4, dla_intr).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dla/bfm/axi_slave_memory.h"
#include "dla/bfm/csb_master.h"
#include "dla/bfm/protocol_violation.h"
#include "dla/bfm/write_completion_tracker.h"
#include "dla/mem_port.h"
#include "dla/sparse_memory.h"

namespace dla::tb {

using dla::MemPort;

// What the model's registers and memories hold before reset. Random (Verilator's randReset(2),
// seeded from the test's seed) finds logic that depends on unreset state; some RTL, NVDLA's own
// among it, needs all zeros to work.
enum class InitialState { Random, Zero };
const char* initial_state_name(InitialState s);
// std::invalid_argument naming the allowed values.
InitialState initial_state_from_name(const std::string& name);

// The DUT the testbench built for a configuration. `dut` names it: "rtl" is the DUT the build
// was configured with (dlaverif's RTL or DLA_DUT_FILELIST), "nvdla" NVIDIA's RTL built from
// DLA_NVDLA_RTL. Its defaults are set once at configure time; SimOptions may override them.
struct ModelInfo {
  std::string config;
  std::string dut;
  std::string source;                    // the file list it was built from
  InitialState initial_state = InitialState::Random;
  uint64_t reset_idle_cycles = 0;        // idle clocks after reset before the first CSB access
  bool conv = false;                     // implements the convolution pipeline (CDMA..CACC)
  bool rubik = false;                    // implements RUBIK (on a configuration that has it)
};
inline constexpr const char* kPrimaryDut = "rtl";

struct SimOptions {
  std::string dut = kPrimaryDut;  // which built DUT of the configuration (ModelInfo::dut)
  // Unset: the model's configure-time default (ModelInfo).
  std::optional<InitialState> initial_state;
  std::optional<uint64_t> reset_idle_cycles;
  uint64_t seed = 1;            // master seed: reset length, Verilator reset values, AXI and CSB timing
  std::string waves_path;       // FST file; empty = no waves
  uint64_t waves_last_cycles = 0;  // 0 = whole run; else keep about this many cycles before the end
  std::string axi_profile = "random";  // AxiTiming::profile() name, used on every memory port
  uint64_t watchdog_cycles = 200000;   // no progress this long while waiting = hang
  // Model controls: public signals (/*verilator public_flat_rw*/) by leaf name, set before
  // reset, e.g. the mutant selector "mutsel" of a mutant model. A name the model lacks is an
  // error; the normal models have none.
  std::map<std::string, uint64_t> signal_settings;
};

struct SimStats {
  uint64_t cycles = 0;            // clock cycles since the end of reset
  uint64_t reset_cycles = 0;
  uint64_t reset_idle_cycles = 0; // idle cycles after reset release, not counted in `cycles`
  double eval_seconds = 0;        // wall time in the model: the cycle's two eval() calls (+ port writes)
  double total_seconds = 0;       // wall time inside Simulation calls that advance the clock
  AxiMemoryStats dbb;
  std::optional<AxiMemoryStats> sram;  // when the configuration has the SRAM interface
  CsbStats csb;
  uint64_t interrupt_rises = 0;
  // Hash of what the DUT drove out, in order: AXI AW/AR/W handshakes (address, length, data
  // under strobe) per port, CSB read data and write completions, interrupt edges. Two runs of
  // one test agree on it exactly when the DUT's observable outputs agree (timing aside).
  uint64_t output_digest = 0;
};

class Simulation {
 public:
  virtual ~Simulation() = default;
  virtual const std::string& config_name() const = 0;

  virtual void csb_write(uint32_t byte_addr, uint32_t data, bool nposted = false) = 0;  // queued
  // Runs clocks until the data returns (after earlier queued operations); 0xDEADDEAD on a hang.
  virtual uint32_t csb_read(uint32_t byte_addr) = 0;
  virtual void drain_csb() = 0;  // until every queued CSB operation (and nposted completion) is done
  virtual void run_cycles(uint64_t n) = 0;
  virtual bool run_until_interrupt(uint64_t max_cycles) = 0;  // true when dla_intr is 1
  virtual bool interrupt() const = 0;

  virtual SparseMemory& memory(MemPort p) = 0;  // throws std::invalid_argument for a missing port
  virtual bool has_port(MemPort p) const = 0;
  virtual uint64_t cycle() const = 0;
  virtual const std::vector<ProtocolViolation>& protocol_violations() const = 0;  // AXI + CSB
  // The oldest write burst to [addr, addr + size) on port p whose B response has not arrived.
  // An operation's output checked at its done interrupt must have none (docs/testbench.md).
  virtual std::optional<PendingWrite> unacknowledged_write(MemPort p, uint64_t addr, uint64_t size) const = 0;
  virtual std::optional<std::string> hang() const = 0;  // watchdog signature once it fired
  // CSB writes queued so far, and the cycle the n-th (0-based) was issued on the bus (nullopt
  // while queued): where a layer's enabling write really reached the DUT.
  virtual uint64_t csb_writes_queued() const = 0;
  // The last cycle the DUT itself moved: a handshake on a memory port or a change of dla_intr
  // (CSB handshakes are the testbench's own, e.g. its status polls while it waits).
  virtual uint64_t last_activity_cycle() const = 0;
  // Cycle of the last rising edge of dla_intr, if any.
  virtual std::optional<uint64_t> last_interrupt_rise() const = 0;
  virtual std::optional<uint64_t> csb_write_issue_cycle(uint64_t n) const = 0;
  virtual SimStats stats() const = 0;
  // 32-bit words (LSB first) of a public signal of the model by leaf name (e.g. a mutant
  // model's "mut_active"); std::invalid_argument when the model has no such signal.
  virtual std::vector<uint32_t> read_signal(const std::string& name) const;
};

// Throws std::invalid_argument for an unknown configuration, a DUT not built for it, or bad options.
std::unique_ptr<Simulation> make_simulation(const std::string& config, const SimOptions& options);
std::vector<std::string> simulation_configs(const std::string& dut = kPrimaryDut);  // with a model of that DUT
std::vector<ModelInfo> simulation_models();  // every built model
// The model of (config, dut), or nullopt when it is not built.
std::optional<ModelInfo> find_simulation_model(const std::string& config, const std::string& dut = kPrimaryDut);

inline constexpr uint32_t kCsbHangReadValue = 0xDEADDEAD;

// With SimOptions::waves_last_cycles, the chunk before the last one goes to this file:
// "run/waves.fst" -> "run/waves.prev.fst".
std::string waves_previous_chunk_path(const std::string& waves_path);

}  // namespace dla::tb
