// Constructors of the unit coverage models (one file each), used by the registry only.
#pragma once

#include <memory>

#include "dla/coverage/unit_coverage.h"

namespace dla::cov {

std::unique_ptr<UnitCoverage> make_bdma_coverage(const HwConfig& cfg);
std::unique_ptr<UnitCoverage> make_cdp_coverage(const HwConfig& cfg);
std::unique_ptr<UnitCoverage> make_sdp_coverage(const HwConfig& cfg);
std::unique_ptr<UnitCoverage> make_pdp_coverage(const HwConfig& cfg);
std::unique_ptr<UnitCoverage> make_conv_coverage(const HwConfig& cfg);
std::unique_ptr<UnitCoverage> make_rubik_coverage(const HwConfig& cfg);

}  // namespace dla::cov
