// The unit datapaths the golden model has. A new unit model is a UnitModel class plus one
// line here; the core (golden_model.cpp) does not change.
#include "bdma_model.h"
#include "cdp_model.h"
#include "conv_model.h"
#include "dla/golden_model.h"
#include "pdp_model.h"
#include "rubik_model.h"
#include "sdp_model.h"

namespace dla {

std::vector<std::unique_ptr<UnitModel>> make_builtin_unit_models(const HwConfig& cfg) {
  std::vector<std::unique_ptr<UnitModel>> models;
  if (cfg.has_unit(Unit::BDMA)) models.push_back(std::make_unique<golden::BdmaModel>(cfg));
  // SDP -> PDP on-flying channel, shared by the two datapaths when both exist.
  std::shared_ptr<golden::SdpPdpChannel> sdp_to_pdp;
  if (cfg.has_unit(Unit::SDP) && cfg.has_unit(Unit::PDP)) sdp_to_pdp = std::make_shared<golden::SdpPdpChannel>();
  for (auto& m : golden::make_pdp_unit_models(cfg, sdp_to_pdp)) models.push_back(std::move(m));
  // CACC -> SDP flying channel: the convolution output is SDP's flying input.
  auto conv_to_sdp = std::make_shared<golden::ConvSdpChannel>();
  auto conv_models = golden::make_conv_unit_models(cfg, conv_to_sdp);
  std::shared_ptr<golden::SdpInputSource> flying;
  if (!conv_models.empty()) flying = std::make_shared<golden::ConvSdpInput>(conv_to_sdp);
  for (auto& m : conv_models) models.push_back(std::move(m));
  for (auto& m : golden::make_sdp_unit_models(cfg, sdp_to_pdp, flying)) models.push_back(std::move(m));
  for (auto& m : golden::make_cdp_unit_models(cfg)) models.push_back(std::move(m));
  if (cfg.has_unit(Unit::RBK)) models.push_back(std::make_unique<golden::RubikModel>());
  return models;
}

}  // namespace dla
