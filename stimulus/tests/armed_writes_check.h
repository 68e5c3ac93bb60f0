// The check shared by the generators with an armed_writes knob (pdp.random, cdp.random).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "dla/golden_model.h"
#include "dla/test_generator.h"
#include "program_executor.h"

namespace dla::test {

// armed_writes=on on small, seeds 1..10: every layer writes its first-armed unit's group while
// armed and reads every register of it back (at least 10), and D_OP_ENABLE = 0 is read back as 1
// once per layer; the golden model drops those writes, so the layers stay clean. Off is the
// default program.
inline void expect_armed_writes_read_back(const std::string& generator, Unit unit) {
  const HwConfig& cfg = HwConfig::get("small");
  const TestGenerator& g = find_test_generator(generator);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Program p = g.generate(cfg, seed, {{"armed_writes", "on"}});
    GoldenModel m(cfg, seed);
    const auto res = execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << generator << " seed " << seed << ": " << res.failures[0];
    size_t readbacks = 0, still_armed = 0;
    for (const ProgramOp& op : p.ops)
      if (const auto* r = std::get_if<RegRead>(&op)) {
        readbacks += r->what.find("after a write while armed") != std::string::npos;
        still_armed += r->what.find("still armed after a write of 0") != std::string::npos;
      }
    size_t layers = 0;
    for (const LayerRecord& r : m.layers()) layers += r.unit == unit;
    EXPECT_GT(layers, 0u);
    EXPECT_GE(readbacks, 10 * layers) << generator << " seed " << seed;  // every programmed register of a unit
    EXPECT_EQ(still_armed, layers) << generator << " seed " << seed;
    EXPECT_EQ(writes_and_loads(g.generate(cfg, seed, {{"armed_writes", "off"}})), writes_and_loads(g.generate(cfg, seed)))
        << generator << " seed " << seed << ": armed_writes=off is not the default";
  }
  EXPECT_THROW(g.generate(cfg, 1, {{"armed_writes", "maybe"}}), std::exception);
}

}  // namespace dla::test
