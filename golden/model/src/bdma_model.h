// BDMA datapath of the golden model (spec: pdp_cdp_bdma_rubik_glb.md section 3).
#pragma once

#include <array>
#include <vector>

#include "dla/unit_model.h"

namespace dla::golden {

class BdmaModel final : public UnitModel {
 public:
  explicit BdmaModel(const HwConfig& cfg) : queue_depth_(cfg.bdma_queue_depth) {}
  Unit unit() const override { return Unit::BDMA; }
  void on_write(uint32_t offset, uint32_t data, UnitContext& ctx) override;
  std::optional<uint32_t> read_hw(uint32_t offset) const override;

 private:
  void launch(unsigned group, UnitContext& ctx);
  void execute(const RegisterSnapshot& op, UnitContext& ctx);

  unsigned queue_depth_;
  std::vector<RegisterSnapshot> queued_;  // operations enqueued since the last launch
  std::array<bool, 2> busy_{};            // only a launch that can never finish stays busy
};

}  // namespace dla::golden
