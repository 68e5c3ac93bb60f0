// Reports of a finished regression: JUnit XML for CI systems and one static HTML page
// (summary, failure buckets with repro commands, coverage per covergroup with its bins,
// pass-rate and coverage trends over past runs as inline SVG). No server, no scripts.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dla/coverage/coverage_data.h"
#include "dla/regression/code_coverage.h"
#include "dla/regression/code_coverage_closure.h"
#include "dla/regression/outcome.h"
#include "dla/regression/results_db.h"
#include "dla/warning_log.h"

namespace dla::regression {

// Coverage closure of a run (--close-coverage): functional coverage before and after the
// closure tests, and what was screened.
struct ClosureReport {
  bool done = false;
  double before = 0, after = 0;
  size_t holes_before = 0, holes_after = 0, screened = 0, rejected = 0;
  std::vector<std::string> kept;  // job ids of the closure tests
  std::string plan;               // rerunnable plan of the closure tests (relative to the out dir)
};

// Verilator line/toggle coverage merged over the run (--code-coverage).
struct CodeCoverageReport {
  bool done = false;
  size_t tests_merged = 0;
  std::vector<FileCodeCoverage> units, files;
  FileCodeCoverage total;
  std::string html;  // genhtml index (relative to the out dir); empty when not rendered
  // Closure per configuration and unit: goals (checked when enforced), waivers, uncovered lists.
  std::vector<ConfigCodeClosure> closure;
  CodeCoverageGoals goals;
  bool goals_enforced = false;
  std::string waivers;                    // the waiver file, empty when none
  std::vector<size_t> unused_waivers;     // entries that excused nothing on any configuration
};

struct ReportInput {
  RunInfo run;
  std::vector<Outcome> outcomes;
  cov::CoverageData coverage;     // merged functional coverage of the run
  std::map<std::string, cov::CoverageData> coverage_by_config;  // the same, per configuration
  std::vector<RunInfo> history;   // finished runs, oldest first (this one included)
  std::string out_dir;            // absolute; repro commands point into it
  ClosureReport closure;
  CodeCoverageReport code;
  std::string ranked_plan;        // smallest seed set keeping the coverage (relative); empty: none
  size_t ranked_tests = 0;
};

// Failures grouped by signature bucket, largest first. The bucket of a signature masks the
// values in it (digits after '=', hex literals), so "csb.queued=28" and "=29" land together.
std::string bucket_of(const std::string& signature);
struct Bucket {
  std::string signature;  // the bucket (masked signature)
  std::vector<const Outcome*> outcomes;
};
std::vector<Bucket> failure_buckets(const std::vector<Outcome>& outcomes);

// Functional coverage of a run merged over all its tests and, separately, over the tests of
// each configuration (Outcome::config). A file that cannot be read or merged is left out of
// both and reported to `warnings` (the message, with the test as the subject).
struct MergedCoverage {
  cov::CoverageData all;
  std::map<std::string, cov::CoverageData> by_config;
};
MergedCoverage merge_run_coverage(const std::vector<Outcome>& outcomes, const std::string& out_dir,
                                  WarningLog& warnings);

// Per covergroup: the merged percentage, then one column per configuration ("-" where the
// configuration has no such covergroup), and a total row; fixed-width text for the terminal.
std::string coverage_table_text(const cov::CoverageData& all, const std::map<std::string, cov::CoverageData>& by_config);

// The runner's overhead: the test processes' wall time as the runner saw it (fork to reap)
// minus the time inside the tests (result.json wall_seconds), and where the difference went
// by the processes' own account (Outcome::process_seconds; "other" is the rest: writing
// result.json, process exit, the runner noticing it).
struct RunnerOverhead {
  size_t tests = 0;
  double wall_seconds = 0, test_seconds = 0;
  std::map<std::string, double> phases;  // summed seconds: startup, setup, record, other
  double percent() const { return wall_seconds > 0 ? 100.0 * (wall_seconds - test_seconds) / wall_seconds : 0; }
  double per_test_ms() const { return tests ? 1000.0 * (wall_seconds - test_seconds) / static_cast<double>(tests) : 0; }
  // "runner overhead 4.2 % (11.3 ms a test: startup 5.1, setup 0.9, record 2.0, other 3.3)"
  std::string text() const;
};
RunnerOverhead runner_overhead(const std::vector<Outcome>& outcomes);

std::string junit_xml(const ReportInput& in);
std::string html_report(const ReportInput& in);

// A line plot of values in [0, 100] (percentages) as an <svg> element.
std::string svg_percent_plot(const std::string& title, const std::vector<std::string>& labels,
                             const std::vector<double>& values);

std::string xml_escape(const std::string& s);

}  // namespace dla::regression
