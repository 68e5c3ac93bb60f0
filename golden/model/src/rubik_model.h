// RUBIK datapath of the golden model (pdp_cdp_bdma_rubik_glb.md §4, §5.2, §5.3): a ping-pong
// unit with one group per layer. A legal layer runs at once; its done raises
// RUBIK_DONE_STATUS<group> (GLB bits 8/9) and latches the stall counters (timing-dependent,
// spec open point 7: 0 here, as for the other units). A layer that breaks a rule of
// rubik_layer_violations() is refused: each rule is reported naming its register and field,
// and the group never completes.
#pragma once

#include "dla/unit_model.h"

namespace dla::golden {

class RubikModel final : public UnitModel {
 public:
  Unit unit() const override { return Unit::RBK; }
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;
};

}  // namespace dla::golden
