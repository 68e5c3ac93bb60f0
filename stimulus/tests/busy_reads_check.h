// The check shared by the generators with a busy_reads knob that reads arm-cleared counters with
// 0 also accepted (sdp.random, cdp.random).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "dla/golden_model.h"
#include "dla/test_generator.h"
#include "program_executor.h"

namespace dla::test {

// busy_reads=on on small, seeds 1..10 with `knobs` (which must set `layers`): right after each
// layer's arms its `counters` arm-cleared counters are read with 0 also accepted; layers of 256
// input atoms or more also poll both units' S_STATUS once (not idle) and read their `stalls`
// stall counters as exactly 0. The golden model reads every counter without failure or warning;
// off is the default program.
inline void expect_busy_reads_after_every_arm(const std::string& generator, Knobs knobs, size_t counters,
                                              size_t stalls) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator(generator);
  const size_t layers_per_seed = std::stoul(knobs.at("layers"));
  size_t layers = 0, counter_reads = 0, polls = 0, stall_reads = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Knobs on = knobs, off = knobs;
    on["busy_reads"] = "on";
    off["busy_reads"] = "off";
    const Program p = g.generate(cfg, seed, on);
    GoldenModel m(cfg, seed);
    const auto res = execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << generator << " seed " << seed << ": " << res.failures.front();
    EXPECT_TRUE(m.warnings().empty()) << generator << " seed " << seed << ": " << m.warnings().front();
    layers += layers_per_seed;
    for (const ProgramOp& op : p.ops) {
      if (const auto* rd = std::get_if<RegRead>(&op)) {
        if (rd->what.find("runs") == std::string::npos) {
          EXPECT_FALSE(rd->zero_ok) << rd->what;
        } else if (rd->what.find("STALL") != std::string::npos) {
          ++stall_reads;
          EXPECT_TRUE(rd->expect == std::optional<uint32_t>(0u) && !rd->zero_ok) << rd->what;
        } else {
          ++counter_reads;
          EXPECT_TRUE(rd->zero_ok && !rd->expect) << rd->what;
        }
      } else if (const auto* q = std::get_if<PollReg>(&op)) {
        if (q->what.find("running or pending") == std::string::npos) continue;
        ++polls;
        EXPECT_EQ(q->timeout_cycles, 1u) << q->what;  // one read: a poll would wait for anything
      }
    }
    EXPECT_EQ(writes_and_loads(g.generate(cfg, seed, off)), writes_and_loads(g.generate(cfg, seed, knobs)))
        << generator << " seed " << seed << ": busy_reads=off is not the default";
  }
  EXPECT_EQ(counter_reads, counters * layers) << generator;
  EXPECT_GT(polls, 0u) << generator << ": no layer of 256 atoms or more";
  EXPECT_EQ(stall_reads, stalls * polls / 2) << generator;  // two polls (both units) per such layer
  EXPECT_THROW(g.generate(cfg, 1, {{"busy_reads", "yes"}}), std::invalid_argument);
}

}  // namespace dla::test
