// PDP and PDP_RDMA datapaths of the golden model (spec pdp_cdp_bdma_rubik_glb.md §1, §5.2
// rule 7, §6.1). The two units keep their own ping-pong state in the core; they meet here:
// PDP_RDMA completes a layer when the PDP core is armed off-flying to consume its cube, and
// the PDP core runs a layer once the RDMA has delivered one.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "dla/unit_model.h"
#include "sdp_pdp_channel.h"

namespace dla::golden {

// Cubes PDP_RDMA has delivered and the PDP core has not consumed yet (register snapshots of
// the RDMA layers, oldest first).
struct PdpLink {
  std::deque<RegisterSnapshot> delivered;
  std::shared_ptr<SdpPdpChannel> from_sdp;  // on-flying input (null: no SDP)
};

class PdpRdmaModel final : public UnitModel {
 public:
  explicit PdpRdmaModel(std::shared_ptr<PdpLink> link) : link_(std::move(link)) {}
  Unit unit() const override { return Unit::PDP_RDMA; }
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;

 private:
  std::shared_ptr<PdpLink> link_;
};

class PdpModel final : public UnitModel {
 public:
  explicit PdpModel(std::shared_ptr<PdpLink> link) : link_(std::move(link)) {}
  Unit unit() const override { return Unit::PDP; }
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;

 private:
  std::shared_ptr<PdpLink> link_;
};

// Both models sharing one link (empty when the configuration has no PDP); `from_sdp` is the
// on-flying channel shared with the SDP model.
std::vector<std::unique_ptr<UnitModel>> make_pdp_unit_models(const HwConfig& cfg,
                                                             std::shared_ptr<SdpPdpChannel> from_sdp = nullptr);

}  // namespace dla::golden
