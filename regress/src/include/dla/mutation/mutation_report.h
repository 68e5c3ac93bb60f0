// Results of mutation grading: the results store (SQLite tables next to the regression's),
// mutation.json and mutation.html (kill rate per unit and overall, time to first kill,
// survivors with class and source location).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dla/mutation/grading.h"

namespace dla::mutation {

struct RunInfo {
  int64_t id = 0;
  std::string unit, config, plan, level, started, finished, git_revision, command_line, out_dir;
  unsigned mutants_in_model = 0;
  double seconds = 0;
};

struct UnitSummary {
  RunInfo run;
  unsigned graded = 0, killed = 0, survived = 0, timed_out = 0, waived = 0;
  unsigned not_activated = 0, not_propagated = 0, not_detected = 0;
  double kill_rate = 0;            // killed / (graded - waived)
  // Formal triage of the survivors (dlaverif mutate --triage): verdict counts, and the kill rate
  // over non-equivalent mutants, killed / (graded - mutants waived or proved equivalent).
  unsigned triaged = 0, equivalent = 0, distinguishable = 0, triage_unknown = 0;
  unsigned waived_or_equivalent = 0;
  unsigned explained = 0;    // survivors with an `explained` reason
  unsigned unexplained = 0;  // not detected or distinguishable, with no waiver and no reason
  double kill_rate_all = 0;             // killed / graded
  double kill_rate_non_equivalent = 0;  // killed / (graded - |waived or equivalent|)
  std::vector<double> kill_seconds;    // time to first kill of each killed mutant
  std::vector<unsigned> kill_tests;    // tests run up to and including the kill
  std::vector<MutantResult> results;
  double mutants_per_hour = 0;
};

UnitSummary summarize(const RunInfo& run, const std::vector<MutantResult>& results);

// Results store: creates mutation_runs / mutation_results if missing (other tables untouched).
// record() returns the new run id.
int64_t record(const std::string& db_path, RunInfo run, const std::vector<MutantResult>& results);
// The latest run of every (unit, configuration) in the store, with its results.
std::vector<UnitSummary> latest_per_unit(const std::string& db_path);

nlohmann::json report_json(const std::vector<UnitSummary>& units);
std::string report_html(const std::vector<UnitSummary>& units);

}  // namespace dla::mutation
