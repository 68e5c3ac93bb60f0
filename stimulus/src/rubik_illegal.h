// rubik.illegal: RUBIK programming outside the rules of pdp_cdp_bdma_rubik_glb.md §4 (the
// rules of rubik_layer_violations()). One case is defined by the spec and runs:
// ignored_fields fills every field the layer's mode does not use with random values, and
// golden and RTL must produce what they would without them. Every other case breaks a rule
// whose hardware behaviour is undefined: the generator refuses it naming the rule (CLI exit
// 2), and rubik_illegal_program builds the program anyway for golden-only tests (the golden
// model must refuse the layer with the rule). Such a program arms the broken layer and then
// only idles: it never waits for an interrupt that cannot come.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/program.h"

namespace dla::stimulus {

struct RubikIllegalCase {
  std::string name;
  bool runs = false;  // true: defined by the spec, generated; false: refused
  std::string rule;   // the rule broken, with its spec section
  std::string golden_warning;  // text the golden model's refusal contains ("" for ignored_fields)
};

const std::vector<RubikIllegalCase>& rubik_illegal_cases();

// The program of a case on `cfg`, also for refused cases. std::invalid_argument for an
// unknown case.
Program rubik_illegal_program(const HwConfig& cfg, uint64_t seed, const std::string& case_name);

}  // namespace dla::stimulus
