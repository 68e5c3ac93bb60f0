#include "dla/coverage_sample.h"

#include <filesystem>

#include "dla/coverage/unit_coverage.h"
#include "dla/hwconfig.h"

namespace dla {

void record_coverage(RunResult& res, const std::string& out_dir) {
  if (res.verdict == Verdict::Error) return;
  const HwConfig& cfg = HwConfig::get(res.request.config);
  const cov::CoverageData data = cov::sample_coverage(cov::CoverageInput{cfg, res.layers, res.control});
  res.coverage_percent = data.empty() ? 0 : data.percent();
  const auto illegal = data.illegal_hits();
  if (!illegal.empty() && res.verdict == Verdict::Pass) {
    const cov::IllegalHit& h = illegal.front();
    res.verdict = Verdict::Fail;
    res.signature = "coverage:illegal:" + h.group + "." + h.item + "." + h.bin;
    const cov::GroupData* g = data.group(h.group);
    res.summary = g && !g->illegal_events.empty() ? g->illegal_events.front()
                                                  : "illegal coverage bin " + h.group + "." + h.item + "." + h.bin + " hit";
  }
  if (out_dir.empty()) return;
  const std::string path = (std::filesystem::path(out_dir) / kCoverageSampleFile).string();
  const RunRequest& q = res.request;
  data.save(path, {{"config", q.config}, {"test", q.test}, {"seed", q.seed}, {"verdict", verdict_name(res.verdict)}});
  res.coverage_path = path;
}

}  // namespace dla
