// CDP and CDP_RDMA golden units (pdp_cdp_bdma_rubik_glb.md §2, §5.2 rule 7, §6.2). The
// two keep their own ping-pong state in the core and meet through CdpLink: CDP_RDMA
// completes a layer when CDP is armed to consume its cube, and CDP runs a layer once the
// RDMA has delivered one (geometry and source come from the RDMA's group). CDP also owns the
// LUT tables and their CSB access port.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "dla/unit_model.h"
#include "lut_tables.h"

namespace dla::golden {

// Cubes CDP_RDMA has delivered and CDP has not consumed yet (oldest first).
struct CdpLink {
  std::deque<RegisterSnapshot> delivered;
};

class CdpRdmaModel final : public UnitModel {
 public:
  explicit CdpRdmaModel(std::shared_ptr<CdpLink> link) : link_(std::move(link)) {}
  Unit unit() const override { return Unit::CDP_RDMA; }
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;

 private:
  std::shared_ptr<CdpLink> link_;
};

class CdpModel final : public UnitModel {
 public:
  explicit CdpModel(std::shared_ptr<CdpLink> link) : link_(std::move(link)) {}
  Unit unit() const override { return Unit::CDP; }
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;
  void on_write(uint32_t offset, uint32_t data, UnitContext& ctx) override;
  // S_LUT_ACCESS_DATA reads return the entry and advance the address; S_LUT_ACCESS_CFG
  // reads return the current (auto-incremented) address.
  std::optional<uint32_t> read_hw(uint32_t offset) const override;

  const LutTables& lut_tables() const { return tables_; }

 private:
  std::shared_ptr<CdpLink> link_;
  LutTables tables_;
  mutable LutAccessPort port_{LutPortPolicy::TypedAndClamped};
};

// Both models sharing one link (empty when the configuration has no CDP).
std::vector<std::unique_ptr<UnitModel>> make_cdp_unit_models(const HwConfig& cfg);

}  // namespace dla::golden
