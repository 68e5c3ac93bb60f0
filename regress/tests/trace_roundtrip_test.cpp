// Exported traces replay to the verdict of the run they came from: every test generator on
// every configuration it supports, 20 seeds golden-only and a few seeds on the RTL.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "dla/simulation.h"
#include "dla/test_generator.h"
#include "dla/test_runner.h"
#include "dla/trace_compile.h"
#include "dla/trace_writer.h"

namespace dla {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string config, test;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& g : test_generators())
    for (const auto& cfg : HwConfig::all())
      if (g.supports(cfg)) out.push_back({cfg.name, g.name});
  return out;
}

// Runs the generated test, exports it, replays the export; returns (original, replay).
std::pair<RunResult, RunResult> run_and_replay(const Case& c, uint64_t seed, bool golden_only) {
  RunRequest req;
  req.config = c.config;
  req.test = c.test;
  req.seed = seed;
  req.golden_only = golden_only;
  const HwConfig& cfg = HwConfig::get(c.config);
  const Program program = find_test_generator(c.test).generate(cfg, seed, {});
  const RunResult original = run_program(req, program);
  // The process id keeps the two tests apart: ctest runs them in parallel on the same seeds.
  const fs::path dir = fs::temp_directory_path() / ("dla-trace-rt-" + std::to_string(::getpid()) + "-" + c.config + "-" +
                                                    c.test + "-" + std::to_string(seed));
  fs::remove_all(dir);
  trace::ExportOptions o;
  o.poison_seed = seed;
  const auto ex = trace::export_trace(program, cfg, dir.string(), o);
  trace::CompileOptions co;
  co.seed = seed;
  const trace::CompiledTrace compiled = trace::compile_trace(trace::read_cfg_file(ex.cfg_path), cfg, co);
  EXPECT_TRUE(compiled.unsupported.empty()) << compiled.unsupported;
  const RunResult replay = run_program(req, compiled.program);
  fs::remove_all(dir);
  return {original, replay};
}

TEST(TraceRoundTrip, GoldenOnly20SeedsPerGenerator) {
  for (const Case& c : cases())
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      SCOPED_TRACE(c.config + " " + c.test + " seed " + std::to_string(seed));
      const auto [original, replay] = run_and_replay(c, seed, true);
      ASSERT_NE(original.verdict, Verdict::Error) << original.summary;
      EXPECT_EQ(replay.verdict, original.verdict) << "original: " << original.summary << "\nreplay: " << replay.summary;
    }
}

TEST(TraceRoundTrip, RtlThreeSeedsPerGenerator) {
  for (const Case& c : cases()) {
    if (c.test == "regs.access" && c.config == "v1") continue;  // 2 s per run; covered by trace.cli
    const auto model = tb::find_simulation_model(c.config);
    const TestGenerator& gen = find_test_generator(c.test);
    if (!model || (gen.needs_conv && !model->conv) || (gen.needs_rubik && !model->rubik)) continue;  // the RTL lacks the units
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(c.config + " " + c.test + " seed " + std::to_string(seed));
      const auto [original, replay] = run_and_replay(c, seed, false);
      ASSERT_NE(original.verdict, Verdict::Error) << original.summary;
      EXPECT_EQ(replay.verdict, original.verdict) << "original: " << original.summary << "\nreplay: " << replay.summary;
    }
  }
}

}  // namespace
}  // namespace dla
