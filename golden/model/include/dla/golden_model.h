// Register-level golden model of the accelerator. It consumes the same CSB register
// writes and reads as the DUT, applies NVDLA's register semantics (ping-pong groups, GLB
// interrupts) and executes unit datapaths instantly and functionally on its own memory.
//
// Timing is not modelled: a launched BDMA batch or an armed layer with a datapath completes
// within the CSB write that starts it. Compare DUT and golden only at quiescent points
// (after the interrupts the program waits for).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/register_map.h"
#include "dla/sparse_memory.h"
#include "dla/unit_model.h"

namespace dla {

namespace golden { class UnitRegisters; }

class GoldenModel {
 public:
  // `poison_seed`: never-written bytes of both memories read as SparseMemory's poison for
  // this seed (use the DUT memory's seed so that reads of uninitialised data agree).
  explicit GoldenModel(const HwConfig& cfg, uint64_t poison_seed = 0);
  ~GoldenModel();
  GoldenModel(const GoldenModel&) = delete;
  GoldenModel& operator=(const GoldenModel&) = delete;

  // CSB byte address (the DUT sees word = byte_addr >> 2; the low two bits are ignored).
  // Addresses with no register behind them read 0 and ignore writes.
  void csb_write(uint32_t byte_addr, uint32_t data);
  uint32_t csb_read(uint32_t byte_addr);

  SparseMemory& memory(MemPort port) { return memories_[static_cast<unsigned>(port)]; }
  const SparseMemory& memory(MemPort port) const { return memories_[static_cast<unsigned>(port)]; }

  // GLB interrupt state: S_INTR_STATUS and the level of dla_intr (STATUS & ~MASK != 0).
  uint32_t intr_status() const { return intr_status_; }
  bool intr_line() const;
  // Unmasked done interrupts raised so far, one per status bit (CDMA's data and weight done
  // are two). The hardware raises them at different times, so a program may wait for each in
  // turn after clearing the previous ones; the untimed model raises them together and counts.
  uint64_t interrupt_events() const { return interrupt_events_; }

  // Diagnostics for illegal or unsupported programming, each message once, in order.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Every layer / BDMA operation that ran (or was started and can never finish).
  const std::vector<LayerRecord>& layers() const { return layers_; }

  // Replace (or add) the datapath of a unit. The built-in ones are installed at construction.
  void install(std::unique_ptr<UnitModel> model);
  bool has_datapath(Unit unit) const;
  // Without a datapath an armed group stays armed, as on a DUT that lacks the unit. A DUT
  // without the convolution pipeline (dlaverif's RTL today) is checked with the conv
  // datapaths removed, so that both sides leave conv layers unexecuted.
  void remove_datapath(Unit unit);
  void remove_conv_datapaths();  // CDMA, CSC, CMAC_A, CMAC_B, CACC
  bool has_conv_datapath() const;

  const HwConfig& config() const { return cfg_; }
  const RegisterMap& register_map() const { return map_; }

  // Standard GLB done bits of a unit's group (0 for units without an interrupt).
  static uint32_t done_interrupt_bits(Unit unit, unsigned group);

 private:
  class Context;
  friend class Context;

  golden::UnitRegisters* registers(Unit unit);
  // Runs the unit's armed layers; true if at least one completed.
  bool run_ready_layers(Unit unit);
  // Retries every unit whose armed layer waits for another unit, until nothing moves.
  void run_waiting_layers();
  void warn(const std::string& message);
  void glb_write(uint32_t offset, uint32_t data);

  const HwConfig& cfg_;
  const RegisterMap& map_;
  std::array<SparseMemory, kMemPortCount> memories_;
  std::array<std::unique_ptr<golden::UnitRegisters>, kUnitCount> units_;
  std::array<std::unique_ptr<UnitModel>, kUnitCount> models_;
  std::unique_ptr<Context> context_;
  uint32_t intr_status_ = 0;
  uint32_t intr_bits_ = 0;  // bits of S_INTR_STATUS that exist
  uint64_t interrupt_events_ = 0;
  // Per unit and group: a layer record was made for the current arming (no datapath / hung).
  std::array<std::array<bool, 2>, kUnitCount> stalled_{};
  std::vector<std::string> warnings_;
  std::set<std::string> warned_;
  std::vector<LayerRecord> layers_;
};

// The datapaths the golden model has today, for a configuration (one per present unit).
std::vector<std::unique_ptr<UnitModel>> make_builtin_unit_models(const HwConfig& cfg);

}  // namespace dla
