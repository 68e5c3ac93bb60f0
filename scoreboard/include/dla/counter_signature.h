// Status counters (NaN/Inf, saturation, LUT, stall counts latched per register group) get
// their own mismatch signature, e.g. "sdp.out_saturation rtl=3 ref=5": the unit in lower
// case, the register name without its D_ / D_PERF_ / D_STATUS_ prefix, and both values.
// Regression bucketing masks the values (docs/regression.md), so all mismatches of one
// counter land in one bucket while the test's own record keeps the numbers.
#pragma once

#include <cstdint>
#include <string>

#include "dla/register_map.h"

namespace dla {

// "sdp.out_saturation" for SDP D_PERF_OUT_SATURATION; "" when the register is not a status
// counter (a read-only group register holding one 32-bit count).
std::string status_counter_name(const RegInfo& r);

// "<counter> rtl=<actual> ref=<expected>", values in decimal.
std::string counter_signature(const std::string& counter, uint32_t actual, uint32_t expected);

}  // namespace dla
