// Plug-in interface of the golden model: one UnitModel per unit datapath. The core
// (GoldenModel) owns the registers, the ping-pong state and GLB; a unit model only executes
// what the registers describe, on the model's memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/sparse_memory.h"

namespace dla {

// Register values of one unit as its datapath sees them: the single registers plus, for a
// ping-pong unit, the D_ registers of one group. Values are as stored (bits outside fields 0).
struct RegisterSnapshot {
  Unit unit = Unit::GLB;
  int group = -1;  // -1: unit without register groups
  std::vector<std::pair<uint32_t, uint32_t>> values;  // (byte offset in unit window, value), by offset

  // Value at `offset`; 0 when the unit has no register there.
  uint32_t get(uint32_t offset) const;
  // Field accessor from dla/regs.gen.h, e.g. snap.field<reg::PDP::D_DATA_CUBE_IN_WIDTH,
  // reg::PDP::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH>().
  template <class Reg, class Field>
  uint32_t field() const { return Field::get(get(Reg::offset)); }
};

// What ran: one record per executed (or started-but-never-finished) layer or BDMA operation.
// `regs` is the snapshot the datapath ran on; in a completed layer record the read-only
// registers its LayerResult latched (counters, status) hold the latched values.
struct LayerRecord {
  Unit unit = Unit::GLB;
  int group = -1;     // ping-pong group or BDMA launch group
  RegisterSnapshot regs;
  bool completed = false;
};

// Outcome of a completed layer.
struct LayerResult {
  // Values latched into the group's read-only D_ registers at done, (offset, value).
  std::vector<std::pair<uint32_t, uint32_t>> counters;
  // GLB S_INTR_STATUS bits raised at done; nullopt: the unit's standard done bit for the
  // group (none for units without an interrupt, e.g. the RDMA companions).
  std::optional<uint32_t> interrupt_bits;
};

// What the core offers a unit model.
class UnitContext {
 public:
  virtual ~UnitContext() = default;
  virtual const HwConfig& config() const = 0;
  virtual SparseMemory& memory(MemPort port) = 0;
  // Current stored value of a register of `unit` (for ping-pong units: the CONSUMER group).
  virtual uint32_t stored(Unit unit, uint32_t offset) const = 0;
  // Done pulse(s) into GLB S_INTR_STATUS.
  virtual void raise_interrupt(uint32_t status_bits) = 0;
  // A diagnostic for illegal or unsupported programming (deduplicated by the core).
  virtual void warn(const std::string& message) = 0;
  virtual void record_layer(LayerRecord record) = 0;
};

class UnitModel {
 public:
  virtual ~UnitModel() = default;
  virtual Unit unit() const = 0;

  // Ping-pong units: run the layer programmed in `regs` (the CONSUMER group, armed).
  // Return nullopt when the layer cannot complete (the group stays armed, as the hardware
  // would hang); the model should warn() why.
  virtual std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx);

  // Ping-pong units: whether the armed layer in `regs` can start now. false: it waits for
  // another unit (e.g. PDP for its PDP_RDMA companion); the core asks again after every
  // arming and every completed layer of any unit.
  virtual bool ready(const RegisterSnapshot& regs, UnitContext& ctx);

  // Every CSB write to the unit, after the register file has stored it. Units without
  // register groups (BDMA) act on their trigger registers here.
  virtual void on_write(uint32_t offset, uint32_t data, UnitContext& ctx);

  // Hardware-driven bits (read-only and hardware-modified fields) of a single register;
  // nullopt: the field's reset value.
  virtual std::optional<uint32_t> read_hw(uint32_t offset) const;
};

}  // namespace dla
