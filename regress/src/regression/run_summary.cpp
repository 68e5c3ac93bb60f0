// What a finished regression prints and the report shows about coverage per configuration and
// about the runner's overhead.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "dla/regression/reports.h"

namespace fs = std::filesystem;

namespace dla::regression {

MergedCoverage merge_run_coverage(const std::vector<Outcome>& outcomes, const std::string& out_dir,
                                  WarningLog& warnings) {
  MergedCoverage m;
  for (const Outcome& o : outcomes) {
    if (o.coverage_file.empty()) continue;
    try {
      const cov::CoverageData d = cov::CoverageData::load((fs::path(out_dir) / o.coverage_file).string());
      // Into a copy first, so that a file that does not merge changes nothing. The files of one
      // configuration are a subset of all files, so what merges into all merges there too.
      cov::CoverageData all = m.all;
      all.merge(d);
      m.all = std::move(all);
      m.by_config[o.config].merge(d);
    } catch (const std::exception& e) {
      warnings.add(std::string(e.what()) + " (left out of the merge)", o.job_id);
    }
  }
  return m;
}

std::string coverage_table_text(const cov::CoverageData& all, const std::map<std::string, cov::CoverageData>& by_config) {
  if (all.empty()) return "";
  size_t width = std::string("covergroup").size();
  for (const auto& [name, g] : all.groups()) width = std::max(width, name.size());
  size_t col = std::string("merged").size() + 1;
  for (const auto& [config, d] : by_config) col = std::max(col, config.size() + 1);
  col = std::max<size_t>(col, 8);  // " 100.0%" and a space
  auto cell = [&](const cov::CoverageData& d, const std::string& group) {
    const cov::GroupData* g = d.group(group);
    return g ? fmt::format("{:.1f}%", g->percent()) : std::string("-");
  };
  std::string s = fmt::format("  {:<{}}{:>{}}", "covergroup", width, "merged", col);
  for (const auto& [config, d] : by_config) s += fmt::format("{:>{}}", config, col);
  s += "\n";
  for (const auto& [name, g] : all.groups()) {
    s += fmt::format("  {:<{}}{:>{}}", name, width, cell(all, name), col);
    for (const auto& [config, d] : by_config) s += fmt::format("{:>{}}", cell(d, name), col);
    s += "\n";
  }
  s += fmt::format("  {:<{}}{:>{}}", "total", width, fmt::format("{:.1f}%", all.percent()), col);
  for (const auto& [config, d] : by_config)
    s += fmt::format("{:>{}}", d.empty() ? std::string("-") : fmt::format("{:.1f}%", d.percent()), col);
  return s + "\n";
}

RunnerOverhead runner_overhead(const std::vector<Outcome>& outcomes) {
  RunnerOverhead r;
  for (const Outcome& o : outcomes) {
    ++r.tests;
    r.wall_seconds += o.wall_seconds;
    r.test_seconds += o.test_seconds;
    double accounted = 0;
    for (const auto& [phase, seconds] : o.process_seconds) {
      r.phases[phase] += seconds;
      accounted += seconds;
    }
    r.phases["other"] += std::max(0.0, o.wall_seconds - o.test_seconds - accounted);
  }
  return r;
}

std::string RunnerOverhead::text() const {
  if (wall_seconds <= 0) return "runner overhead n/a";
  std::string s = fmt::format("runner overhead {:.1f} % ({:.1f} ms a test", percent(), per_test_ms());
  const double n = tests ? static_cast<double>(tests) : 1;
  std::string parts;
  for (const char* phase : {"startup", "setup", "record", "other"}) {
    const auto it = phases.find(phase);
    if (it != phases.end() && it->second > 0) parts += fmt::format("{}{} {:.1f}", parts.empty() ? "" : ", ", phase, 1000 * it->second / n);
  }
  return s + (parts.empty() ? "" : ": " + parts) + ")";
}

}  // namespace dla::regression
