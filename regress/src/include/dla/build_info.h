// Facts about this build, recorded in every result.
#pragma once

#include <string>

namespace dla {
struct BuildInfo {
  std::string git_revision;   // "unknown" outside a git checkout; "-dirty" suffix when modified
  std::string compiler;
  std::string verilator;
  std::string dut_top;
};
const BuildInfo& build_info();
}  // namespace dla
