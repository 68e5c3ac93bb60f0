#include "unit_registers.h"

#include <algorithm>

namespace dla::golden {

namespace {
constexpr unsigned kWindowWords = 1024;
}

UnitRegisters::UnitRegisters(Unit unit, const RegisterMap& map)
    : unit_(unit), dual_base_(map.dual_base(unit)), index_(kWindowWords, -1) {
  for (const RegInfo* r : map.unit_registers(unit)) {
    Slot s;
    s.info = r;
    for (const FieldInfo& f : r->fields) {
      switch (f.access) {
        case Access::CONST: s.const_value |= (f.reset << f.lsb) & f.store_mask; break;
        case Access::WO: break;
        case Access::RO: s.hw_bits |= f.store_mask; break;
        case Access::RW:
          if (f.hw_modified) s.hw_bits |= f.store_mask;
          else s.stored_bits |= f.store_mask;
          break;
      }
    }
    s.reset = r->reset_value();
    s.value = {s.reset & s.stored_bits, s.reset & s.stored_bits};
    index_.at(r->offset / 4) = static_cast<int>(slots_.size());
    slots_.push_back(s);
  }
}

UnitRegisters::Slot* UnitRegisters::slot(uint32_t offset) {
  const int i = index_[(offset & 0xfffu) / 4];
  return i < 0 ? nullptr : &slots_[static_cast<size_t>(i)];
}

const UnitRegisters::Slot* UnitRegisters::slot(uint32_t offset) const {
  const int i = index_[(offset & 0xfffu) / 4];
  return i < 0 ? nullptr : &slots_[static_cast<size_t>(i)];
}

const RegInfo* UnitRegisters::reg_at(uint32_t offset) const {
  const Slot* s = slot(offset);
  return s ? s->info : nullptr;
}

UnitRegisters::WriteEffect UnitRegisters::write(uint32_t offset, uint32_t data) {
  Slot* s = slot(offset);
  if (!s) return WriteEffect::None;
  if (ping_pong()) {
    if (offset == kPointerOffset) {
      producer_ = data & 1u;
      return WriteEffect::Stored;
    }
    if (offset == kStatusOffset) return WriteEffect::None;
    if (s->info->dual) {
      // Spec 5.2 rule 1: writes to an armed group are dropped, D_OP_ENABLE included.
      if (op_en_[producer_]) return WriteEffect::Dropped;
      if (offset == *dual_base_) {
        if ((data & 1u) == 0) return WriteEffect::Stored;
        op_en_[producer_] = true;
        for (Slot& t : slots_)  // rule 2: the group's status counters clear at arm
          if (t.info->dual) t.counter[producer_] = 0;
        return WriteEffect::Armed;
      }
      s->value[producer_] = data & s->stored_bits;
      return WriteEffect::Stored;
    }
  }
  s->value[0] = data & s->stored_bits;
  return WriteEffect::Stored;
}

uint32_t UnitRegisters::read(uint32_t offset, const std::optional<uint32_t>& hw) const {
  const Slot* s = slot(offset);
  if (!s) return 0;
  if (ping_pong()) {
    if (offset == kPointerOffset) return producer_ | (consumer_ << 16);
    if (offset == kStatusOffset) {
      auto status = [&](unsigned g) -> uint32_t {
        return !op_en_[g] ? 0u : (consumer_ == g ? 1u : 2u);
      };
      return status(0) | (status(1) << 16);
    }
    if (s->info->dual) {
      if (offset == *dual_base_) return op_en_[producer_] ? 1u : 0u;
      return (s->value[producer_] & s->stored_bits) | s->const_value |
             (s->counter[producer_] & s->hw_bits);
    }
  }
  const uint32_t hw_value = hw ? *hw : s->reset;
  return (s->value[0] & s->stored_bits) | s->const_value | (hw_value & s->hw_bits);
}

void UnitRegisters::complete_layer(const std::vector<std::pair<uint32_t, uint32_t>>& counters) {
  const unsigned g = consumer_;
  for (const auto& [offset, value] : counters)
    if (Slot* s = slot(offset); s && s->info->dual) s->counter[g] = value & s->hw_bits;
  op_en_[g] = false;
  consumer_ ^= 1u;
}

uint32_t UnitRegisters::stored(uint32_t offset, unsigned group) const {
  const Slot* s = slot(offset);
  if (!s) return 0;
  if (ping_pong() && s->info->dual) {
    if (offset == *dual_base_) return op_en_[group] ? 1u : 0u;
    return s->value[group] | s->const_value;
  }
  return s->value[0] | s->const_value;
}

RegisterSnapshot UnitRegisters::snapshot(int group) const {
  RegisterSnapshot snap;
  snap.unit = unit_;
  snap.group = group;
  const unsigned g = group < 0 ? 0u : static_cast<unsigned>(group);
  for (const Slot& s : slots_) snap.values.emplace_back(s.info->offset, stored(s.info->offset, g));
  std::sort(snap.values.begin(), snap.values.end());
  return snap;
}

}  // namespace dla::golden
