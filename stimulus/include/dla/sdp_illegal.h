// sdp.illegal: SDP / SDP_RDMA programming outside the legal set of sdp.md §2.4 / §2.5.
// Where the spec says what the hardware does (the fields FP16 mode ignores, §2.4) a program
// runs and golden and RTL must agree; every other case is undefined hardware behaviour, so
// the generator refuses it naming the rule, and the golden model warns when fed one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/program.h"

namespace dla::stimulus {

struct SdpIllegalCase {
  std::string name;
  bool runs = false;       // true: defined by the spec, generated; false: refused
  std::string rule;        // the rule broken, with its spec section
  std::string golden_warning;  // text the golden model's warning contains when fed the case
};

const std::vector<SdpIllegalCase>& sdp_illegal_cases();
const SdpIllegalCase& sdp_illegal_case(const std::string& name);  // std::invalid_argument if unknown

// The program of a case on `cfg`, also for refused cases (the tests run those on the golden
// model only). std::invalid_argument when the case cannot be built on the configuration
// (e.g. it needs fp16), naming the case and the reason.
Program sdp_illegal_program(const HwConfig& cfg, uint64_t seed, const std::string& case_name);

}  // namespace dla::stimulus
