// The list of unit coverage models. A unit owner adds a file under models/ and one line here.
#include <algorithm>

#include "dla/coverage/unit_coverage.h"
#include "models/models.h"

namespace dla::cov {

const std::vector<UnitCoverageModel>& unit_coverage_models() {
  static const std::vector<UnitCoverageModel> models = {
      {"bdma", make_bdma_coverage},
      {"cdp", make_cdp_coverage},
      {"sdp", make_sdp_coverage},
      {"pdp", make_pdp_coverage},
      {"conv", make_conv_coverage},
      {"rubik", make_rubik_coverage},
  };
  return models;
}

std::vector<std::string> covergroup_names(const HwConfig& cfg) {
  std::vector<std::string> names;
  for (const UnitCoverageModel& m : unit_coverage_models())
    if (auto u = m.make(cfg))
      for (const GroupData& g : u->data()) names.push_back(g.name);
  std::sort(names.begin(), names.end());
  return names;
}

CoverageData sample_coverage(const CoverageInput& in) {
  CoverageData d;
  for (const UnitCoverageModel& m : unit_coverage_models())
    if (auto u = m.make(in.config)) {
      u->sample(in);
      for (GroupData& g : u->data()) d.add(std::move(g));
    }
  return d;
}

}  // namespace dla::cov
