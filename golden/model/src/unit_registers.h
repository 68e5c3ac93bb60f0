// Register file of one unit as the RTL register blocks implement it: stored software
// fields, constants, hardware-driven fields, and NVDLA's ping-pong groups.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "dla/register_map.h"
#include "dla/unit_model.h"

namespace dla::golden {

class UnitRegisters {
 public:
  UnitRegisters(Unit unit, const RegisterMap& map);

  Unit unit() const { return unit_; }
  bool ping_pong() const { return dual_base_.has_value(); }
  const RegInfo* reg_at(uint32_t offset) const;

  enum class WriteEffect { None, Stored, Dropped, Armed };
  // A CSB write at `offset` (byte offset in the window).
  WriteEffect write(uint32_t offset, uint32_t data);
  // A CSB read; `hw` supplies hardware-driven bits of single registers (nullopt: reset).
  uint32_t read(uint32_t offset, const std::optional<uint32_t>& hw) const;

  // Ping-pong state.
  unsigned producer() const { return producer_; }
  unsigned consumer() const { return consumer_; }
  bool op_enabled(unsigned group) const { return op_en_[group]; }
  // Layer done on the CONSUMER group: latch counters, clear OP_EN, flip CONSUMER.
  void complete_layer(const std::vector<std::pair<uint32_t, uint32_t>>& counters);

  // Stored values seen by the datapath: single registers plus `group`'s D_ registers.
  RegisterSnapshot snapshot(int group) const;
  uint32_t stored(uint32_t offset, unsigned group) const;

 private:
  struct Slot {
    const RegInfo* info = nullptr;
    uint32_t stored_bits = 0;  // software-writable storage
    uint32_t hw_bits = 0;      // read-only or hardware-modified fields
    uint32_t const_value = 0;  // constant fields
    uint32_t reset = 0;
    std::array<uint32_t, 2> value{};    // group 1 used only for D_ registers
    std::array<uint32_t, 2> counter{};  // latched read-only D_ fields
  };
  Slot* slot(uint32_t offset);
  const Slot* slot(uint32_t offset) const;

  Unit unit_;
  std::optional<uint32_t> dual_base_;
  std::vector<Slot> slots_;
  std::vector<int> index_;  // word offset -> slot index, -1 none
  unsigned producer_ = 0, consumer_ = 0;
  std::array<bool, 2> op_en_{};
  static constexpr uint32_t kStatusOffset = 0x000, kPointerOffset = 0x004;
};

}  // namespace dla::golden
