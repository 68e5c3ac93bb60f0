#include "dla/regression/closure.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "dla/coverage/unit_coverage.h"
#include "dla/hwconfig.h"
#include "dla/regression/knob_candidates.h"
#include "dla/rng.h"
#include "dla/test_runner.h"

namespace fs = std::filesystem;

namespace dla::regression {

std::set<std::string> hit_bins(const cov::CoverageData& d) {
  std::set<std::string> hits;
  for (const auto& [name, g] : d.groups())
    for (const cov::ItemData& i : g.items)
      for (const cov::BinData& b : i.bins)
        if (b.kind == cov::BinKind::Normal && b.hits) hits.insert(name + "." + i.name + "." + b.name);
  return hits;
}

std::vector<size_t> greedy_cover(const std::vector<std::set<std::string>>& samples, std::vector<size_t>* gains) {
  std::set<std::string> left;
  for (const auto& s : samples) left.insert(s.begin(), s.end());
  std::vector<size_t> picks;
  std::vector<bool> used(samples.size(), false);
  while (!left.empty()) {
    size_t best = samples.size(), best_gain = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (used[i]) continue;
      size_t gain = 0;
      for (const std::string& b : samples[i]) gain += left.count(b);
      if (gain > best_gain) {
        best = i;
        best_gain = gain;
      }
    }
    if (best == samples.size()) break;
    used[best] = true;
    picks.push_back(best);
    if (gains) gains->push_back(best_gain);
    for (const std::string& b : samples[best]) left.erase(b);
  }
  return picks;
}

ClosureSelection select_closure_tests(const std::vector<Job>& plan_jobs, const cov::CoverageData& merged,
                                      const ClosureOptions& opt) {
  ClosureSelection sel;
  std::set<std::string> holes;
  for (const cov::Hole& h : merged.holes()) holes.insert(h.path());
  sel.holes_before = holes.size();

  // One base per plan entry whose configuration has a covergroup with a hole.
  std::vector<const Job*> bases;
  std::map<std::string, std::vector<Knobs>> settings;  // "test@config" -> knob settings of the plan
  {
    std::set<std::string> seen;
    for (const Job& j : plan_jobs) {
      settings[j.test + "@" + j.config].push_back(j.knobs);
      if (!seen.insert(j.entry).second) continue;
      bool has_hole = false;
      for (const std::string& g : cov::covergroup_names(HwConfig::get(j.config)))
        for (const std::string& h : holes) has_hole = has_hole || h.rfind(g + ".", 0) == 0;
      if (has_hole) bases.push_back(&j);
    }
  }
  if (bases.empty() || holes.empty()) {
    sel.holes_left.assign(holes.begin(), holes.end());
    return sel;
  }
  std::map<std::string, KnobCandidates> candidates;
  for (const Job* b : bases) {
    const std::string key = b->test + "@" + b->config;
    if (!candidates.count(key)) candidates[key] = knob_candidates(find_test_generator(b->test), b->config, settings[key]);
  }

  Rng pick = Rng::stream(opt.seed, "closure.pick");
  Rng knobs_rng = Rng::stream(opt.seed, "closure.knobs");
  Rng seed_rng = Rng::stream(opt.seed, "closure.seed");
  struct Screened {
    Job job;
    std::set<std::string> holes;
  };
  std::vector<Screened> screened;
  for (size_t n = 0; n < opt.candidates; ++n) {
    const Job& base = *bases[static_cast<size_t>(pick.below(bases.size()))];
    Job j = base;
    // Each knob keeps the entry's value or, half of the time, takes one of its candidates.
    for (const auto& [knob, values] : candidates[base.test + "@" + base.config])
      if (!values.empty() && knobs_rng.chance(0.5)) j.knobs[knob] = knobs_rng.choice(values);
    j.seed = seed_rng.uniform(1000000, 0x7fffffff);
    ++sel.screened;
    RunRequest req;
    req.config = j.config;
    req.test = j.test;
    req.seed = j.seed;
    req.knobs = j.knobs;
    req.golden_only = true;
    const RunResult r = run_test(req);
    if (r.verdict != Verdict::Pass) {
      ++sel.rejected;
      continue;
    }
    const cov::CoverageData d = cov::sample_coverage(cov::CoverageInput{HwConfig::get(j.config), r.layers, r.control});
    Screened s{j, {}};
    for (const std::string& b : hit_bins(d))
      if (holes.count(b)) s.holes.insert(b);
    if (!s.holes.empty()) screened.push_back(std::move(s));
  }

  std::vector<std::set<std::string>> sets;
  for (const Screened& s : screened) sets.push_back(s.holes);
  std::vector<size_t> gains;
  const std::vector<size_t> order = greedy_cover(sets, &gains);
  std::set<std::string> covered;
  for (size_t k = 0; k < order.size() && sel.picks.size() < opt.max_tests; ++k) {
    const Screened& s = screened[order[k]];
    ClosurePick p;
    p.job = s.job;
    p.job.entry = "closure-" + s.job.entry + "-" + std::to_string(s.job.seed);
    p.job.id = p.job.entry + "/" + std::to_string(s.job.seed);
    for (const std::string& h : s.holes)
      if (covered.insert(h).second) p.holes.push_back(h);
    sel.picks.push_back(std::move(p));
  }
  for (const std::string& h : holes)
    if (!covered.count(h)) sel.holes_left.push_back(h);
  return sel;
}

Ranking rank_tests(const std::vector<Outcome>& outcomes, const std::string& out_dir) {
  Ranking r;
  std::vector<const Outcome*> with_sample;
  std::vector<std::set<std::string>> sets;
  for (const Outcome& o : outcomes) {
    if (o.coverage_file.empty()) continue;
    try {
      sets.push_back(hit_bins(cov::CoverageData::load((fs::path(out_dir) / o.coverage_file).string())));
      with_sample.push_back(&o);
    } catch (const std::exception&) {
    }
  }
  r.tests = with_sample.size();
  std::set<std::string> all;
  for (const auto& s : sets) all.insert(s.begin(), s.end());
  r.bins = all.size();
  for (size_t i : greedy_cover(sets)) r.kept.push_back(with_sample[i]);
  return r;
}

Job job_of(const Outcome& o, const std::vector<Job>& jobs) {
  Job j;
  for (const Job& x : jobs)
    if (x.id == o.job_id) j = x;
  if (j.id.empty()) {  // not in the job list: rebuild from the outcome
    j.config = o.config;
    j.test = o.test;
    j.seed = o.seed;
    j.golden_only = o.golden_only;
    j.axi_profile = o.axi_profile;
    for (const auto& [k, v] : o.knobs.items()) j.knobs[k] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  j.entry = o.entry + "-s" + std::to_string(o.seed);
  j.id = j.entry + "/" + std::to_string(o.seed);
  return j;
}

}  // namespace dla::regression
