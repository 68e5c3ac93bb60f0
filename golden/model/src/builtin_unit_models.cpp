// The unit datapaths the golden model has. A new unit model is a UnitModel class plus one
// line here; the core (golden_model.cpp) does not change.
#include "bdma_model.h"
#include "dla/golden_model.h"
#include "pdp_model.h"
#include "sdp_model.h"

namespace dla {

std::vector<std::unique_ptr<UnitModel>> make_builtin_unit_models(const HwConfig& cfg) {
  std::vector<std::unique_ptr<UnitModel>> models;
  if (cfg.has_unit(Unit::BDMA)) models.push_back(std::make_unique<golden::BdmaModel>(cfg));
  for (auto& m : golden::make_pdp_unit_models(cfg)) models.push_back(std::move(m));
  for (auto& m : golden::make_sdp_unit_models(cfg)) models.push_back(std::move(m));
  return models;
}

}  // namespace dla
