#include "dla/golden_model.h"

#include <stdexcept>
#include <utility>

#include "dla/regs.gen.h"
#include "unit_registers.h"

namespace dla {

class GoldenModel::Context final : public UnitContext {
 public:
  explicit Context(GoldenModel& m) : m_(m) {}
  const HwConfig& config() const override { return m_.cfg_; }
  SparseMemory& memory(MemPort port) override { return m_.memory(port); }
  uint32_t stored(Unit unit, uint32_t offset) const override {
    const golden::UnitRegisters* r = m_.units_[static_cast<unsigned>(unit)].get();
    return r ? r->stored(offset, r->consumer()) : 0;
  }
  void raise_interrupt(uint32_t status_bits) override { m_.intr_status_ |= status_bits & m_.intr_bits_; }
  void warn(const std::string& message) override { m_.warn(message); }
  void record_layer(LayerRecord record) override { m_.layers_.push_back(std::move(record)); }

 private:
  GoldenModel& m_;
};

GoldenModel::GoldenModel(const HwConfig& cfg, uint64_t poison_seed)
    : cfg_(cfg),
      map_(RegisterMap::of(cfg)),
      // Both ports have the configuration's address width (NVDLA drops the bits above it).
      memories_{SparseMemory(poison_seed, cfg.dbb_addr_bits), SparseMemory(poison_seed, cfg.dbb_addr_bits)},
      context_(std::make_unique<Context>(*this)) {
  for (unsigned u = 0; u < kUnitCount; ++u) {
    const Unit unit = static_cast<Unit>(u);
    if (cfg.has_unit(unit) && !map_.unit_registers(unit).empty())
      units_[u] = std::make_unique<golden::UnitRegisters>(unit, map_);
  }
  // Status bits of units the configuration lacks read 0 and cannot be set (NVDLA's nv_small
  // has BDMA and RUBIK bits in S_INTR_STATUS/SET but ties them off); fields are <UNIT>_...
  if (const RegInfo* status = map_.find("GLB.S_INTR_STATUS")) {
    for (const FieldInfo& f : status->fields) {
      const std::optional<Unit> source = unit_from_name(f.name.substr(0, f.name.find('_')));
      if (!source || cfg.has_unit(*source)) intr_bits_ |= f.store_mask;
    }
  }
  for (auto& model : make_builtin_unit_models(cfg)) install(std::move(model));
}

GoldenModel::~GoldenModel() = default;

void GoldenModel::install(std::unique_ptr<UnitModel> model) {
  const Unit unit = model->unit();
  if (!cfg_.has_unit(unit))
    throw std::invalid_argument(std::string("GoldenModel::install: unit ") + unit_name(unit) +
                                " does not exist in configuration '" + cfg_.name + "'");
  models_[static_cast<unsigned>(unit)] = std::move(model);
}

void GoldenModel::remove_datapath(Unit unit) { models_[static_cast<unsigned>(unit)].reset(); }

void GoldenModel::remove_conv_datapaths() {
  for (Unit u : {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC}) remove_datapath(u);
}

bool GoldenModel::has_conv_datapath() const { return has_datapath(Unit::CDMA); }

bool GoldenModel::has_datapath(Unit unit) const { return models_[static_cast<unsigned>(unit)] != nullptr; }

golden::UnitRegisters* GoldenModel::registers(Unit unit) { return units_[static_cast<unsigned>(unit)].get(); }

void GoldenModel::warn(const std::string& message) {
  if (warned_.insert(message).second) warnings_.push_back(message);
}

uint32_t GoldenModel::done_interrupt_bits(Unit unit, unsigned group) {
  uint32_t group0 = 0;
  switch (unit) {
    case Unit::SDP: group0 = 1u << 0; break;
    case Unit::CDP: group0 = 1u << 2; break;
    case Unit::PDP: group0 = 1u << 4; break;
    case Unit::BDMA: group0 = 1u << 6; break;
    case Unit::RBK: group0 = 1u << 8; break;
    case Unit::CDMA: group0 = (1u << 16) | (1u << 18); break;
    case Unit::CACC: group0 = 1u << 20; break;
    default: return 0;
  }
  return group0 << (group & 1u);
}

void GoldenModel::csb_write(uint32_t byte_addr, uint32_t data) {
  const auto unit = cfg_.unit_at(byte_addr);
  if (!unit) return;
  golden::UnitRegisters* regs = registers(*unit);
  if (!regs) return;
  const uint32_t offset = byte_addr & 0xffcu;
  const auto effect = regs->write(offset, data);
  if (effect == golden::UnitRegisters::WriteEffect::None ||
      effect == golden::UnitRegisters::WriteEffect::Dropped)
    return;
  if (*unit == Unit::GLB) glb_write(offset, data);
  if (UnitModel* model = models_[static_cast<unsigned>(*unit)].get())
    model->on_write(offset, data, *context_);
  if (effect == golden::UnitRegisters::WriteEffect::Armed) {
    run_ready_layers(*unit);
    run_waiting_layers();
  }
}

uint32_t GoldenModel::csb_read(uint32_t byte_addr) {
  const auto unit = cfg_.unit_at(byte_addr);
  if (!unit) return 0;
  const golden::UnitRegisters* regs = registers(*unit);
  if (!regs) return 0;
  const uint32_t offset = byte_addr & 0xffcu;
  std::optional<uint32_t> hw;
  if (*unit == Unit::GLB && offset == reg::GLB::S_INTR_STATUS::offset) hw = intr_status_;
  // CBUF is flushed once after reset, before a test's first access (NVDLA needs thousands of
  // idle cycles for it; dlaverif's RTL has no CBUF to flush): FLUSH_DONE reads 1 from then on.
  else if (*unit == Unit::CDMA && offset == reg::CDMA::S_CBUF_FLUSH_STATUS::offset) hw = 1;
  else if (const UnitModel* model = models_[static_cast<unsigned>(*unit)].get()) hw = model->read_hw(offset);
  return regs->read(offset, hw);
}

void GoldenModel::glb_write(uint32_t offset, uint32_t data) {
  if (offset == reg::GLB::S_INTR_SET::offset) intr_status_ |= data & intr_bits_;
  else if (offset == reg::GLB::S_INTR_STATUS::offset) intr_status_ &= ~data;  // write 1 to clear
}

bool GoldenModel::intr_line() const {
  const golden::UnitRegisters* glb = units_[static_cast<unsigned>(Unit::GLB)].get();
  const uint32_t mask = glb ? glb->stored(reg::GLB::S_INTR_MASK::offset, 0) : 0;
  return (intr_status_ & ~mask) != 0;
}

void GoldenModel::run_waiting_layers() {
  for (bool moved = true; moved;) {
    moved = false;
    for (unsigned u = 0; u < kUnitCount; ++u) {
      const golden::UnitRegisters* regs = units_[u].get();
      if (regs && regs->ping_pong() && models_[u] && regs->op_enabled(regs->consumer()))
        moved = run_ready_layers(static_cast<Unit>(u)) || moved;
    }
  }
}

bool GoldenModel::run_ready_layers(Unit unit) {
  golden::UnitRegisters* regs = registers(unit);
  const unsigned u = static_cast<unsigned>(unit);
  bool completed = false;
  while (regs->op_enabled(regs->consumer())) {
    const unsigned g = regs->consumer();
    if (stalled_[u][g]) return completed;  // started earlier and can never finish
    LayerRecord record{unit, static_cast<int>(g), regs->snapshot(static_cast<int>(g)), false};
    UnitModel* model = models_[u].get();
    if (model && !model->ready(record.regs, *context_)) return completed;  // retried later
    if (!model) {
      warn(std::string("unit ") + unit_name(unit) +
           " has no golden datapath yet: an armed group stays enabled and never completes");
      stalled_[u][g] = true;
      layers_.push_back(std::move(record));
      return completed;
    }
    const std::optional<LayerResult> result = model->execute_layer(record.regs, *context_);
    if (!result) {
      stalled_[u][g] = true;
      layers_.push_back(std::move(record));
      return completed;
    }
    record.completed = true;
    for (const auto& [offset, value] : result->counters)  // the record shows what done latched
      for (auto& reg : record.regs.values)
        if (reg.first == offset) reg.second = value;
    layers_.push_back(std::move(record));
    regs->complete_layer(result->counters);
    const uint32_t bits = result->interrupt_bits ? *result->interrupt_bits : done_interrupt_bits(unit, g);
    intr_status_ |= bits & intr_bits_;
    const golden::UnitRegisters* glb = units_[static_cast<unsigned>(Unit::GLB)].get();
    const uint32_t mask = glb ? glb->stored(reg::GLB::S_INTR_MASK::offset, 0) : 0;
    interrupt_events_ += static_cast<uint64_t>(__builtin_popcount(bits & intr_bits_ & ~mask));
    completed = true;
  }
  return completed;
}

}  // namespace dla
