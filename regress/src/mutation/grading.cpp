#include "dla/mutation/grading.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <stdexcept>

#include <fmt/core.h>

#include "dla/regression/local_launcher.h"
#include "dla/regression/outcome.h"

namespace dla::mutation {

namespace {

using regression::Job;
using regression::Outcome;

// The test's own result.json (digest, cycles, signals); empty when the process left none.
nlohmann::json read_result(const std::string& out_dir, const Outcome& o) {
  std::ifstream in(out_dir + "/" + o.result_dir + "/result.json");
  nlohmann::json j;
  if (!in) return j;
  try {
    in >> j;
  } catch (const std::exception&) {
    return nlohmann::json();
  }
  return j;
}

uint64_t digest_of(const nlohmann::json& r) {
  if (!r.contains("details") || !r["details"].contains("sim")) return 0;
  return r["details"]["sim"].value("output_digest", uint64_t{0});
}

bool bit_set(const std::vector<uint32_t>& words, uint32_t k) {
  return k / 32 < words.size() && (words[k / 32] >> (k % 32) & 1u);
}

// "m17/<entry>/<seed>" -> 17
uint32_t mutant_of(const std::string& job_id) {
  return static_cast<uint32_t>(std::stoul(job_id.substr(1, job_id.find('/') - 1)));
}

struct Tracking {
  MutantResult result;
  bool decided = false;
  bool propagated = false;
};

}  // namespace

MutantTestVerdict mutant_test_verdict(const regression::Outcome& o) {
  if (o.status == "timeout") return MutantTestVerdict::TimedOut;
  if (o.status == "crash" && o.signature == "crash:exit-127") return MutantTestVerdict::NotStarted;
  return o.passed() ? MutantTestVerdict::Passed : MutantTestVerdict::Killed;
}

Grading grade(const MutantList& mutants, const std::vector<Job>& jobs, const GradeOptions& opt,
              const GradeProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  Grading g;
  const auto total = static_cast<uint32_t>(mutants.mutants.size());
  std::vector<uint32_t> ids = opt.only;
  if (ids.empty())
    for (uint32_t k = 1; k <= (opt.count ? std::min(opt.count, total) : total); ++k) ids.push_back(k);
  for (uint32_t k : ids)
    if (k == 0 || k > total)
      throw std::invalid_argument("mutant " + std::to_string(k) + " is not in the model (1.." + std::to_string(total) + ")");
  std::vector<Tracking> track(total + 1);
  for (uint32_t k : ids) track[k].result.mutant = mutants.mutants[k - 1];
  regression::LaunchOptions launch;
  launch.dlaverif = opt.model_binary;
  launch.out_dir = opt.out_dir;
  launch.parallel = std::max(1u, opt.parallel);

  // Baseline: the unmutated selection, recording outputs and which mutations were activated.
  std::vector<Job> base_jobs;
  std::map<std::string, size_t> base_index;
  for (const Job& j : jobs) {
    Job b = j;
    b.id = "base/" + j.id;
    b.extra_args = {"--set-signal", "mutsel=0", "--read-signal", "mut_active"};
    base_index[b.id] = base_jobs.size();
    base_jobs.push_back(std::move(b));
    g.baseline.push_back(BaselineTest{j, "", "", 0, 0, {}, 0});
  }
  const bool completed = regression::run_local(base_jobs, launch, [&](const Outcome& o) {
    BaselineTest& b = g.baseline[base_index.at(o.job_id)];
    const nlohmann::json r = read_result(opt.out_dir, o);
    b.status = o.status;
    b.signature = o.signature;
    b.cycles = o.cycles;
    b.seconds = o.wall_seconds;
    b.output_digest = digest_of(r);
    if (r.contains("details") && r["details"].contains("signals"))
      b.active = r["details"]["signals"].value("mut_active", std::vector<uint32_t>{});
  });
  if (!completed) {
    g.interrupted = true;
    return g;
  }
  std::vector<size_t> usable;  // baseline tests that pass: only they can kill a mutant
  for (size_t i = 0; i < g.baseline.size(); ++i)
    if (g.baseline[i].status == "pass") usable.push_back(i);
  if (progress)
    progress(fmt::format("baseline (mutsel=0): {}/{} tests pass", usable.size(), g.baseline.size()));
  if (usable.empty())
    throw std::invalid_argument("no test passes on the unmutated selection (mutsel=0): nothing can kill a mutant; "
                                "see " + opt.out_dir + "/tests/base");


  // Round r runs test r for every mutant still alive, so each mutant stops at its first kill.
  for (size_t round = 0; round < usable.size(); ++round) {
    const BaselineTest& base = g.baseline[usable[round]];
    std::vector<Job> batch;
    for (uint32_t k : ids) {
      Tracking& t = track[k];
      if (t.decided) continue;
      const double left = opt.budget_seconds - t.result.seconds;
      if (left <= 0) {
        t.decided = true;
        t.result.status = Status::TimedOut;
        t.result.note = fmt::format("budget of {:.0f} s used after {} tests", opt.budget_seconds, t.result.tests_run);
        continue;
      }
      Job j = base.job;
      j.id = "m" + std::to_string(k) + "/" + base.job.id;
      j.extra_args = {"--set-signal", "mutsel=" + std::to_string(k)};
      j.timeout_seconds = std::max(1.0, std::min(j.timeout_seconds, left));
      batch.push_back(std::move(j));
    }
    if (batch.empty()) break;
    std::string not_started;  // the first run that could not be started: the grade stops
    const bool ok = regression::run_local(batch, launch, [&](const Outcome& o) {
      Tracking& t = track[mutant_of(o.job_id)];
      const MutantTestVerdict verdict = mutant_test_verdict(o);
      if (verdict == MutantTestVerdict::NotStarted) {
        if (not_started.empty()) not_started = o.job_id;
        return;
      }
      t.result.tests_run++;
      t.result.seconds += o.wall_seconds;
      if (verdict == MutantTestVerdict::TimedOut) {
        t.decided = true;
        t.result.status = Status::TimedOut;
        t.result.note = fmt::format("test {} hit its {:.0f} s time limit", base.job.id, o.wall_seconds);
      } else if (verdict == MutantTestVerdict::Killed) {
        t.decided = true;
        t.result.status = Status::Killed;
        t.result.killer_test = base.job.id;
        t.result.killer_seed = base.job.seed;
        t.result.killer_signature = o.signature;
      } else {
        const nlohmann::json r = read_result(opt.out_dir, o);
        if (digest_of(r) != base.output_digest || o.cycles != base.cycles) t.propagated = true;
      }
      if (t.decided && progress)
        progress(fmt::format("mutant {}: {} {}", t.result.mutant.id, status_name(t.result.status),
                             t.result.status == Status::Killed ? "by " + t.result.killer_test + " (" +
                                                                     t.result.killer_signature + ")"
                                                               : t.result.note));
    });
    if (!ok) {
      g.interrupted = true;
      return g;
    }
    if (!not_started.empty())
      throw std::runtime_error("test " + not_started + " could not be started (exit 127): " + opt.model_binary +
                               " is missing or was replaced while grading; no grade is reported, rerun it");
  }

  for (uint32_t k : ids) {
    Tracking& t = track[k];
    MutantResult& r = t.result;
    if (!t.decided) {
      r.status = Status::Survived;
      bool activated = !r.mutant.probed;  // no probe: activation unknown, counted as activated
      for (size_t i : usable) activated |= bit_set(g.baseline[i].active, k);
      r.survivor_class = !activated ? SurvivorClass::NotActivated
                         : t.propagated ? SurvivorClass::NotDetected
                                        : SurvivorClass::NotPropagated;
      if (!r.mutant.probed) r.note = "no activation probe: activation assumed";
      for (const Waiver& w : opt.waivers)
        if (w.matches(r.mutant)) {
          if (w.explained) {  // keeps its class and its place in the kill rate
            r.explanation = w.reason;
            break;
          }
          r.note = std::string("waived (") + class_name(r.survivor_class) + "): " + w.reason;
          r.survivor_class = SurvivorClass::Waived;
          break;
        }
      if (progress) progress(fmt::format("mutant {}: survived ({})", k, class_name(r.survivor_class)));
    }
    g.results.push_back(r);
  }
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return g;
}

}  // namespace dla::mutation
