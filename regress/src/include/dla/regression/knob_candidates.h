// Values worth trying for each knob of a generator on a configuration, with nothing asked of
// the generator's owner: the values plan entries use, the declared default, and what the
// generator's own validation says is allowed (KnobReader's "must be an integer in [lo, hi]"
// or "must be one of a, b, c" for a probe value), spread over that range. Every value kept
// builds a program.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dla/test_generator.h"

namespace dla::regression {

using KnobCandidates = std::map<std::string, std::vector<std::string>>;  // knob -> values

KnobCandidates knob_candidates(const TestGenerator& gen, const std::string& config,
                               const std::vector<Knobs>& plan_settings);

}  // namespace dla::regression
