// Coverage of different configurations is merged into one report: every unit model must give
// a bin the same kind on every configuration that has it (a bin a configuration cannot hit is
// absent or named apart there), or the merge refuses the file and its samples are lost.
#include <gtest/gtest.h>

#include "dla/coverage/unit_coverage.h"

namespace dla::cov {
namespace {

TEST(CoverageModels, EveryConfigurationPairMerges) {
  const std::vector<LayerRecord> layers;
  const std::vector<ControlEvent> control;
  const auto& configs = HwConfig::all();
  for (const HwConfig& a : configs)
    for (const HwConfig& b : configs) {
      CoverageData merged = sample_coverage({a, layers, control});
      const CoverageData other = sample_coverage({b, layers, control});
      EXPECT_NO_THROW(merged.merge(other)) << a.name << " + " << b.name;
    }
}

}  // namespace
}  // namespace dla::cov
