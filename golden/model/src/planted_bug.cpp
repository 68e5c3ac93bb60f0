#include "dla/planted_bug.h"

#include <algorithm>
#include <stdexcept>

namespace dla::golden {

namespace {
// One line per plant; the unit model that owns it checks `planted("<name>")`.
std::vector<PlantedBugInfo> make_catalogue() {
  std::vector<PlantedBugInfo> c = {
      {"sdp.rounding", "SDP output converter rounds ties toward +inf instead of away from zero"},
      {"sdp.out_saturation_count", "SDP D_PERF_OUT_SATURATION counts one saturation too few per layer"},
      {"sdp.lut_priority", "SDP LUT: when both tables hit, the priority bit is ignored (LE wins)"},
      {"sdp.nan_output_count", "SDP D_STATUS_NAN_OUTPUT_NUM misses the first NaN output of a layer"},
      {"cdp.window_edge", "CDP square sum: the window stops at the atom (surface) boundary instead of crossing it"},
      {"cdp.lut_priority", "CDP LUT: when both tables hit, the hybrid priority bit is inverted"},
      {"cdp.negative_ties",
       "CDP input converter and LUT stage (interpolation, extrapolation) round negative exact ties toward zero, not away"},
      {"cdp.saturation_quirk",
       "CDP D_OUT_SATURATION counts every clamped output, also those one step beyond the range (not counted by NVDLA)"},
      {"pdp.reciprocal_rounding", "PDP int average: the reciprocal multiplies round positive ties down"},
      {"pdp.split_boundary", "PDP split mode: each stripe after the first starts one column late"},
      {"conv.clip_rounding", "CACC CLIP_TRUNCATE rounds ties toward +inf instead of away from zero"},
      {"conv.decompress_bit", "CSC reads the weight mask bits of a WMB byte MSB first instead of LSB first"},
      {"conv.padding_row", "CSC reads the input row just above the cube (row -1) from line 0 instead of padding"},
      {"conv.winograd_coefficient", "CMAC Winograd output transform: the second output row adds Q2 instead of subtracting it"},
      {"conv.out_saturation_count", "CACC D_OUT_SATURATION counts one saturated output too few per layer"},
      {"rubik.split_tail", "RUBIK split mode: the bytes after a plane row's end are written as 0xFF instead of zero"},
      {"rubik.contract_phase", "RUBIK contract mode: the x-phases of each output pixel group are placed in reverse order"},
      {"sdp_pdp.stream_order", "PDP on-flying input: PDP starts one atom into SDP's stream and takes the first atom last"},
  };
  std::sort(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return c;
}

std::vector<std::string>& enabled() {
  static std::vector<std::string> e;
  return e;
}

bool known(std::string_view name) {
  const auto& c = planted_bug_catalogue();
  return std::any_of(c.begin(), c.end(), [&](const auto& p) { return p.name == name; });
}
}  // namespace

const std::vector<PlantedBugInfo>& planted_bug_catalogue() {
  static const std::vector<PlantedBugInfo> c = make_catalogue();
  return c;
}

bool planted(std::string_view name) {
  const auto& e = enabled();
  if (e.empty()) return false;  // the normal case: one branch, no lookups
  if (!known(name)) throw std::logic_error("planted(): unknown plant '" + std::string(name) + "'");
  return std::find(e.begin(), e.end(), name) != e.end();
}

PlantedBugScope::PlantedBugScope(const std::vector<std::string>& names) : previous_(enabled()) {
  for (const auto& n : names)
    if (!known(n))
      throw std::invalid_argument("unknown planted bug '" + n + "' (see `dlaverif list --plants`)");
  enabled() = names;
}

PlantedBugScope::~PlantedBugScope() { enabled() = previous_; }

}  // namespace dla::golden
