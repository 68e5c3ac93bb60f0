// Functional coverage models of the units. Each unit's model lives in its own file under
// stimulus/coverage/src/models/ and is listed once in unit_coverage_registry.cpp; the core
// (coverpoints, crosses, covergroups, data) knows nothing about units.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dla/coverage/control_event.h"
#include "dla/coverage/coverage_data.h"
#include "dla/hwconfig.h"
#include "dla/unit_model.h"

namespace dla::cov {

// What one test run offers a coverage model.
struct CoverageInput {
  const HwConfig& config;
  const std::vector<LayerRecord>& layers;    // what the golden model executed
  const std::vector<ControlEvent>& control;  // the program's register traffic
};

// One test's coverage of one unit: sample once, then read the data.
class UnitCoverage {
 public:
  virtual ~UnitCoverage() = default;
  virtual void sample(const CoverageInput& in) = 0;
  virtual std::vector<GroupData> data() const = 0;
};

struct UnitCoverageModel {
  std::string unit;  // "bdma"
  // nullptr when the configuration has nothing for this model (e.g. no BDMA).
  std::function<std::unique_ptr<UnitCoverage>(const HwConfig&)> make;
};

const std::vector<UnitCoverageModel>& unit_coverage_models();

// Covergroup names the models define for the configuration, sorted.
std::vector<std::string> covergroup_names(const HwConfig& cfg);

// Every model that applies to the configuration, sampled over the input.
CoverageData sample_coverage(const CoverageInput& in);

}  // namespace dla::cov
