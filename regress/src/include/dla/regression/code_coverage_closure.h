// Code-coverage closure: per configuration and unit, the source lines and toggle bits no test
// reached, less what a reviewed waiver file excuses, against line and toggle goals
// (`dlaverif regress --code-coverage`; docs/coverage.md, "Code-coverage closure").
#pragma once

#include <cstddef>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "dla/regression/code_coverage.h"
#include "dla/regression/constant_bits.h"

namespace dla::regression {

// Waiver file (YAML), one entry per reason:
//   waivers:
//     - file: rtl/bdma/dla_bdma.sv          # a source path, matched as a suffix of the model's file names
//       lines: 120-124, 130                 # lines no test can reach, and/or
//       toggle: 'cnt\[(2[4-9]|3[01])\]'     # a regex over toggle signal names (e.g. "u_rd.cnt[31]")
//       config: v1                          # optional: only on this configuration
//       reason: the 32-bit counter cannot pass 2^24 within a layer
struct CodeCoverageWaiver {
  std::string file;
  std::vector<std::pair<int, int>> lines;  // inclusive ranges
  std::string toggle;                      // regex source; empty: no toggle waiver
  std::regex toggle_re;
  std::string config;
  std::string reason;
  size_t entry = 0;  // 1-based, for messages
  bool applies_to_file(const std::string& source, const std::string& cfg) const;
  bool waives_line(int line) const;
};

// std::invalid_argument naming the file, the entry and the rule (no reason, neither lines nor
// toggle, a bad range or regex, an unknown field).
std::vector<CodeCoverageWaiver> load_code_coverage_waivers(const std::string& path);

struct CodeCoverageGoals {
  double line_percent = 95;
  double toggle_percent = 90;
};
// "line=95,toggle=90" (either may be left out); std::invalid_argument on anything else.
CodeCoverageGoals parse_code_coverage_goals(const std::string& text);

// One unit on one configuration.
struct UnitCodeClosure {
  std::string config, unit;
  size_t lines = 0, lines_hit = 0, lines_waived = 0;        // waived: never hit and excused
  size_t toggles = 0, toggles_hit = 0, toggles_waived = 0;
  // Bits constant by elaboration (ConstantBits): out of the goal whatever their count; of those,
  // the ones Verilator counted as toggled (a counter shared with another signal).
  size_t toggles_constant = 0, toggles_constant_counted = 0;
  // Lines never hit and not waived: file -> inclusive ranges.
  std::map<std::string, std::vector<std::pair<int, int>>> uncovered_lines;
  // Toggle bits never toggled and not waived: "file: signal" -> bits (signal name without the bit).
  std::map<std::string, size_t> uncovered_toggles;
  // Over the lines and bits not waived and not constant (100 when there are none).
  double line_percent() const;
  double toggle_percent() const;
  bool meets(const CodeCoverageGoals& g) const { return line_percent() >= g.line_percent && toggle_percent() >= g.toggle_percent; }
  size_t uncovered_line_count() const;
};

// The closure of one configuration's merged coverage: a row per unit (sorted by unit), and the
// waiver entries (1-based numbers) that apply to the configuration and excused nothing on it.
struct ConfigCodeClosure {
  std::string config;
  std::vector<UnitCodeClosure> units;
  std::vector<size_t> unused_waivers;
};
// `constants` (may be null): the configuration's constant bits, left out of the toggle goal.
ConfigCodeClosure close_code_coverage(const CodeCoverage& cc, const std::string& config,
                                      const std::vector<CodeCoverageWaiver>& waivers,
                                      const ConstantBits* constants = nullptr);

// "12-14, 20" from sorted line ranges.
std::string format_line_ranges(const std::vector<std::pair<int, int>>& ranges);

}  // namespace dla::regression
