#include "dla/regression/knob_candidates.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

#include "dla/hwconfig.h"

namespace dla::regression {

namespace {

constexpr const char* kProbe = "~probe~";

bool builds(const TestGenerator& gen, const HwConfig& cfg, const Knobs& knobs) {
  try {
    gen.generate(cfg, 1, knobs);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// Integer range: lo, hi, and points spread geometrically between them (plus the default's
// neighbours), so both corners and the middle get tried.
std::vector<std::string> spread(uint64_t lo, uint64_t hi, const std::string& dflt) {
  std::set<uint64_t> v = {lo, hi};
  if (hi > lo) {
    const double a = static_cast<double>(lo == 0 ? 1 : lo), b = static_cast<double>(hi);
    constexpr int kPoints = 6;
    for (int i = 1; i < kPoints; ++i) {
      const double x = a * std::pow(b / a, static_cast<double>(i) / kPoints);
      v.insert(std::clamp(static_cast<uint64_t>(x), lo, hi));
    }
  }
  try {
    const uint64_t d = std::stoull(dflt, nullptr, 0);
    for (uint64_t x : {d / 2, d * 2}) v.insert(std::clamp(x, lo, hi));
  } catch (const std::exception&) {
  }
  std::vector<std::string> out;
  for (uint64_t x : v) out.push_back(std::to_string(x));
  return out;
}

}  // namespace

KnobCandidates knob_candidates(const TestGenerator& gen, const std::string& config,
                               const std::vector<Knobs>& plan_settings) {
  const HwConfig& cfg = HwConfig::get(config);
  KnobCandidates out;
  for (const KnobSpec& k : gen.knobs) {
    std::vector<std::string> values = {k.default_value};
    for (const Knobs& s : plan_settings) {
      const auto it = s.find(k.name);
      if (it != s.end()) values.push_back(it->second);
    }
    std::string why;
    try {
      gen.generate(cfg, 1, {{k.name, kProbe}});
    } catch (const std::exception& e) {
      why = e.what();
    }
    const std::string knob = "knob " + k.name + "='" + kProbe + "' must be ";
    const size_t at = why.find(knob);
    if (at != std::string::npos) {
      const std::string rule = why.substr(at + knob.size());
      std::smatch m;
      if (std::regex_search(rule, m, std::regex(R"(^an integer in \[(\d+), (\d+)\])"))) {
        // Up to 4x the default or the largest plan value: the range's far end can make
        // programs too big to screen quickly (a plan entry that wants it names it).
        const uint64_t lo = static_cast<uint64_t>(std::stoull(m[1]));
        uint64_t hi = static_cast<uint64_t>(std::stoull(m[2])), cap = lo;
        for (const std::string& v : values) {
          try {
            const uint64_t x = static_cast<uint64_t>(std::stoull(v, nullptr, 0));
            cap = std::max(cap, v == k.default_value ? 4 * x : x);
          } catch (const std::exception&) {
          }
        }
        hi = std::min(hi, std::max(cap, lo));
        for (const std::string& v : spread(lo, hi, k.default_value)) values.push_back(v);
      } else if (rule.rfind("one of ", 0) == 0) {
        const std::string list = rule.substr(7);
        static const std::regex word(R"([^,|\s]+)");
        std::sregex_token_iterator it(list.begin(), list.end(), word), end;
        for (; it != end; ++it) values.push_back(*it);
      }
    }
    std::vector<std::string> kept;
    for (const std::string& v : values)
      if (std::find(kept.begin(), kept.end(), v) == kept.end() && builds(gen, cfg, {{k.name, v}})) kept.push_back(v);
    out[k.name] = kept;
  }
  return out;
}

}  // namespace dla::regression
