#include "dla/regression/job.h"

#include "dla/simulation.h"
#include "dla/test_generator.h"

namespace dla::regression {

std::vector<std::string> Job::run_args(const std::string& out_dir) const {
  std::vector<std::string> a = {"run", "--config", config, "--test", test, "--seed", std::to_string(seed)};
  if (golden_only) a.push_back("--golden-only");
  if (dut != Job{}.dut) {
    a.push_back("--dut");
    a.push_back(dut);
  }
  if (axi_profile != "random") {
    a.push_back("--axi-profile");
    a.push_back(axi_profile);
  }
  if (watchdog_cycles) {
    a.push_back("--watchdog");
    a.push_back(std::to_string(watchdog_cycles));
  }
  if (!perf_tolerance.empty()) {
    a.push_back("--perf-tolerance");
    a.push_back(perf_tolerance);
  }
  for (const auto& [k, v] : knobs) {
    a.push_back("--knob");
    a.push_back(k + "=" + v);
  }
  a.insert(a.end(), extra_args.begin(), extra_args.end());
  a.push_back("--out");
  a.push_back(out_dir + "/" + dir());
  return a;
}

std::string model_lacks_unit(const std::string& test, const tb::ModelInfo& model) {
  const TestGenerator& gen = find_test_generator(test);
  if (gen.needs_conv && !model.conv)
    return "no convolution pipeline (configure with -DDLA_DUT_CONV_CONFIGS=\"small;" + model.config + "\")";
  if (gen.needs_rubik && !model.rubik) return "no RUBIK (configure with -DDLA_DUT_RUBIK=ON)";
  return "";
}

std::vector<Job> expand(const Plan& plan, Level level, uint64_t seeds_override, WarningLog* skipped) {
  std::vector<Job> jobs;
  for (const PlanEntry& e : plan.entries) {
    uint64_t n = e.seed_count(level);
    if (n == 0) continue;
    // An RTL entry of a configuration this build has no model of (DLA_CONFIGS, DLA_NVDLA_RTL)
    // is skipped with one line saying how to build it; golden-only entries run everywhere.
    if (!e.golden_only && !tb::find_simulation_model(e.config, e.dut)) {
      if (skipped)
        skipped->add("no " + e.dut + " model of configuration " + e.config + " is built (configure with " +
                         (e.dut == tb::kPrimaryDut
                              ? "-DDLA_CONFIGS=\"small;v1;" + e.config + "\")"
                              : "-DDLA_NVDLA_RTL=<folder with files.f> -DDLA_NVDLA_CONFIG=" + e.config + ")"),
                     e.name);
      continue;
    }
    // Likewise an RTL entry whose test needs a unit the built model lacks (a build with
    // -DDLA_DUT_CONV_CONFIGS=small has no pipeline on v1; RUBIK with DLA_DUT_RUBIK=OFF).
    if (!e.golden_only) {
      const std::string lacks = model_lacks_unit(e.test, *tb::find_simulation_model(e.config, e.dut));
      if (!lacks.empty()) {
        if (skipped) skipped->add("the " + e.dut + " model of configuration " + e.config + " has " + lacks, e.name);
        continue;
      }
    }
    if (seeds_override) n = seeds_override;
    for (uint64_t i = 0; i < n; ++i) {
      Job j;
      j.seed = e.first_seed + i;
      j.id = e.name + "/" + std::to_string(j.seed);
      j.entry = e.name;
      j.config = e.config;
      j.test = e.test;
      j.knobs = e.knobs;
      j.golden_only = e.golden_only;
      j.dut = e.dut;
      j.axi_profile = e.axi_profile;
      j.timeout_seconds = e.timeout_seconds;
      j.watchdog_cycles = e.watchdog_cycles;
      j.perf_tolerance = e.perf_tolerance;
      j.covergroups = e.covergroups;
      jobs.push_back(std::move(j));
    }
  }
  return jobs;
}

}  // namespace dla::regression
