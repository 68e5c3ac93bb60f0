// The results store: one SQLite file (default <out>/results.db) that keeps every run, so
// reports can plot pass rate and coverage over past runs. Schema in docs/regression.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dla/coverage/coverage_data.h"
#include "dla/regression/code_coverage.h"
#include "dla/regression/outcome.h"

struct sqlite3;

namespace dla::regression {

struct RunInfo {
  int64_t id = 0;
  std::string started, finished;  // ISO 8601 UTC; finished empty while running
  std::string plan, level, launcher, git_revision, command_line, out_dir;
  int64_t total = 0, passed = 0, failed = 0;
  double coverage = -1;  // merged functional coverage in percent; < 0: not known
};

struct GroupCoverage {
  int64_t run_id = 0;
  std::string covergroup;
  double percent = 0;
  int64_t bins = 0, hit_bins = 0;
  std::string config;  // config_group_coverage(): the configuration; empty: merged over all
};

struct ClosureRow {
  double coverage_before = 0, coverage_after = 0;
  size_t holes_before = 0, holes_after = 0, screened = 0, rejected = 0, kept = 0;
};

class ResultsDb {
 public:
  // Opens or creates the store; std::runtime_error naming the file on failure.
  explicit ResultsDb(const std::string& path);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  int64_t begin_run(const RunInfo& info);
  // Inserts or replaces the job's result of this run (one transaction each: a killed runner
  // keeps everything recorded before).
  void record(int64_t run_id, const Outcome& o);
  // Sets finished time, totals and coverage; stores the merged coverage bin by bin and, per
  // configuration, each covergroup's figures (coverage_config_groups).
  void finish_run(int64_t run_id, const cov::CoverageData& merged,
                  const std::map<std::string, cov::CoverageData>& by_config = {});

  void record_closure(int64_t run_id, const ClosureRow& c);
  // Replaces the run's per-file line/toggle coverage.
  void record_code_coverage(int64_t run_id, const std::vector<FileCodeCoverage>& files);
  std::vector<FileCodeCoverage> code_coverage(int64_t run_id) const;

  RunInfo run(int64_t run_id) const;
  std::vector<RunInfo> runs(size_t last_n) const;  // oldest first
  std::vector<Outcome> outcomes(int64_t run_id) const;
  std::vector<GroupCoverage> group_coverage(int64_t run_id) const;
  std::vector<GroupCoverage> config_group_coverage(int64_t run_id) const;  // by config, covergroup

 private:
  void exec(const std::string& sql) const;
  std::string path_;
  sqlite3* db_ = nullptr;
};

std::string utc_now();

}  // namespace dla::regression
