// Coverage closure and test ranking.
//
// Closure: given the plan's jobs and the merged functional coverage of a run, screen
// candidate (knob setting, seed) pairs golden-only in this process (fast, no RTL), sample
// each one's functional coverage, and keep greedily the candidates that hit the most holes
// not yet hit by an earlier pick. The kept ones then run as ordinary jobs (on the RTL).
// Ranking: the smallest set of finished tests (greedy set cover) whose merged coverage hits
// every bin the whole run hit.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "dla/coverage/coverage_data.h"
#include "dla/regression/job.h"
#include "dla/regression/outcome.h"

namespace dla::regression {

struct ClosureOptions {
  size_t candidates = 200;  // pairs screened golden-only
  size_t max_tests = 20;    // kept for the RTL at most
  uint64_t seed = 1;        // drives the candidates (Rng streams closure.pick, closure.knobs, closure.seed)
};

struct ClosurePick {
  Job job;                          // entry "closure-<plan entry>-<seed>"
  std::vector<std::string> holes;   // holes it hit that no earlier pick hit
};

struct ClosureSelection {
  size_t screened = 0, rejected = 0;  // rejected: the knob mix did not build or failed golden-only
  size_t holes_before = 0;
  std::vector<ClosurePick> picks;
  std::vector<std::string> holes_left;  // holes no screened candidate hit
};

ClosureSelection select_closure_tests(const std::vector<Job>& plan_jobs, const cov::CoverageData& merged,
                                      const ClosureOptions& opt);

// Normal bins a coverage sample hit, as "group.item.bin".
std::set<std::string> hit_bins(const cov::CoverageData& d);

// Indices into `samples` of a smallest-first greedy cover of every bin any sample hits
// (ties: the earlier sample); each index's gain is in `gains` when given.
std::vector<size_t> greedy_cover(const std::vector<std::set<std::string>>& samples,
                                 std::vector<size_t>* gains = nullptr);

struct Ranking {
  std::vector<const Outcome*> kept;  // in pick order
  size_t tests = 0;                  // tests with a coverage sample
  size_t bins = 0;                   // bins the run hit (= bins the kept tests hit)
};

// Ranks the outcomes with a readable coverage sample (<out_dir>/<coverage_file>).
Ranking rank_tests(const std::vector<Outcome>& outcomes, const std::string& out_dir);

// The job an outcome ran (for writing a rerunnable plan); entry "<entry>-s<seed>".
Job job_of(const Outcome& o, const std::vector<Job>& jobs);

}  // namespace dla::regression
