// Testbench share of the clock stepping: the wall time of Simulation's clock-advancing calls
// outside the Verilated model's eval (BFMs, protocol and footprint checkers, write tracker,
// output digest, applying the BFM outputs), per configuration and unit, on random tests run
// on the RTL. docs/testbench.md ("Where the stepping time goes") records the numbers.
#include <fmt/core.h>

#include <map>
#include <string>
#include <vector>

#include "dla/run_request.h"
#include "dla/simulation.h"
#include "dla/test_runner.h"

using namespace dla;

int main() {
  struct Case {
    const char* config;
    const char* test;
    std::map<std::string, std::string> knobs;
  };
  const std::vector<Case> cases = {
      {"small", "regs.access", {}},
      {"small", "sdp.random", {{"layers", "3"}, {"max_width", "24"}, {"max_height", "16"}, {"max_channels", "64"}}},
      {"small", "pdp.random", {{"layers", "3"}, {"max_width", "40"}, {"max_height", "24"}, {"max_channels", "300"}}},
      {"small", "cdp.random", {{"max_width", "33"}, {"max_height", "17"}, {"max_surfaces", "9"}}},
      {"small", "sdp_pdp.random", {}},
      {"v1", "bdma.random", {}},
      {"v1", "pdp.random", {}},
  };
  constexpr uint64_t kSeeds = 4;
  fmt::print("testbench share of clock stepping (time outside the model's eval), {} seeds each, random AXI timing "
             "(goal < 20 %)\n",
             kSeeds);
  std::map<std::string, std::pair<double, double>> per_config;  // stepping, eval
  for (const Case& c : cases) {
    if (!tb::find_simulation_model(c.config, tb::kPrimaryDut)) continue;
    uint64_t cycles = 0;
    double stepping = 0, eval = 0;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      RunRequest r;
      r.config = c.config;
      r.test = c.test;
      r.seed = seed;
      r.knobs = c.knobs;
      const RunResult res = run_test(r);
      if (res.verdict != Verdict::Pass || !res.details.contains("sim")) {
        fmt::print("  {} {} seed {}: {} ({})\n", c.config, c.test, seed, verdict_name(res.verdict), res.summary);
        continue;
      }
      cycles += res.cycles;
      stepping += res.details["sim"]["total_seconds"].get<double>();
      eval += res.details["sim"]["eval_seconds"].get<double>();
    }
    per_config[c.config].first += stepping;
    per_config[c.config].second += eval;
    fmt::print("  {:<6} {:<15} {:>8} cycles  {:>8.0f} cycles/s  outside eval {:5.1f} %\n", c.config, c.test, cycles,
               stepping > 0 ? static_cast<double>(cycles) / stepping : 0, stepping > 0 ? 100 * (stepping - eval) / stepping : 0);
  }
  for (const auto& [config, t] : per_config)
    fmt::print("  {:<6} all of the above: outside eval {:.1f} % of {:.2f} s stepping\n", config,
               t.first > 0 ? 100 * (t.first - t.second) / t.first : 0, t.first);
  return 0;
}
