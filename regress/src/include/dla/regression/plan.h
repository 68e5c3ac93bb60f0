// Test plans: YAML files in regress/plans/ listing test entries (test, configuration, seed
// count per level, knobs, target covergroups). Loading validates everything a run needs, so a
// bad plan fails before any test starts. docs/regression.md describes the format.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dla::regression {

enum class Level { Smoke = 0, Nightly = 1, Weekly = 2 };
const char* level_name(Level l);
// std::invalid_argument naming the allowed levels.
Level level_from_name(const std::string& s);

struct PlanEntry {
  std::string name;                 // unique in the plan; names the entry's result directories
  std::string test;                 // generator name (see `dlaverif list`)
  std::string config;              // default: the build's default configuration (`configs:` expands per config)
  Level level = Level::Smoke;       // runs at this level and above
  std::map<Level, uint64_t> seeds;  // seed count from each level up (the highest level <= the run's wins)
  uint64_t first_seed = 1;
  std::string owner;
  std::map<std::string, std::string> knobs;
  std::vector<std::string> covergroups;
  bool golden_only = false;
  std::string dut = "rtl";          // which built DUT runs it (dlaverif run --dut); "nvdla": NVIDIA's RTL
  std::string axi_profile = "random";
  double timeout_seconds = 600;
  uint64_t watchdog_cycles = 0;     // 0: dlaverif run's default
  std::string perf_tolerance;       // performance budget tolerance (a number >= 1 or "off"); empty: the default

  // Seeds this entry runs at `level` (0: not at this level).
  uint64_t seed_count(Level level) const;
};

// A mutation grading the regression runs before its tests (`dlaverif mutate`, docs/mutation.md),
// so that the run's report links the grading and both share the results store.
struct GradingEntry {
  std::string unit;                 // e.g. bdma: needs bin/dlaverif-mut-<config>-<unit>
  std::string config;              // default: the build's default configuration
  Level level = Level::Weekly;      // runs at this level and above, grading at the run's level
  std::string plan_path;            // grading plan; relative paths are relative to this plan's folder
  uint64_t count = 0;               // mutants 1..count (0: every mutant in the model)
  std::string waivers_path;         // waiver file (relative to this plan's folder); empty: none
};

// What a code-coverage run of the plan (`regress --code-coverage`) is closed against, unless
// --code-coverage-waivers / --code-coverage-goals say otherwise.
struct CodeCoverageSection {
  std::string waivers_path;  // reviewed waiver file (relative paths: to the plan's folder); empty: none
  std::string goals;         // "line=P,toggle=P"; empty: goals shown, not enforced
};

struct Plan {
  std::string path;
  std::string name, description;
  std::vector<PlanEntry> entries;
  std::vector<GradingEntry> gradings;
  CodeCoverageSection code_coverage;
};

// Reads and validates the plan: YAML syntax, known fields, unique entry names, levels,
// known tests and configurations, the test supports the configuration, knobs (the generator
// builds the first seed's program), covergroups defined for the configuration; gradings name a
// unit, a known configuration and a grading plan that loads; the code_coverage section's waiver
// file loads and its goals are percentages.
// std::invalid_argument naming the file, the entry and the rule.
Plan load_plan(const std::string& path);

}  // namespace dla::regression
