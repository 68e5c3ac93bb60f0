// The check shared by the generators with a high_addresses knob that places every region from
// one random start (cdp.random, sdp.random, conv.random).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dla/golden_model.h"
#include "dla/test_generator.h"
#include "program_executor.h"

namespace dla::test {

// high_addresses=on, seeds 1..20 on small and v1: every address bit of the configuration above
// the atom is 1 in some memory load of some seed and 0 in another's (the loads are the inputs,
// operands and pre-filled outputs the layers use), the programs run clean on the golden model,
// and off is the default program.
inline void expect_high_addresses_toggle_every_bit(const std::string& generator) {
  for (const char* name : {"small", "v1"}) {
    const HwConfig& cfg = HwConfig::get(name);
    const TestGenerator& g = find_test_generator(generator);
    uint64_t ones = 0, zeros = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const Program p = g.generate(cfg, seed, {{"high_addresses", "on"}});
      GoldenModel m(cfg, seed);
      const auto res = execute(p, m);
      EXPECT_TRUE(res.failures.empty()) << generator << " " << name << " seed " << seed << ": " << res.failures[0];
      for (const ProgramOp& op : p.ops)
        if (const auto* l = std::get_if<MemLoad>(&op); l && l->port == MemPort::Dbb) {
          ones |= l->addr;
          zeros |= ~l->addr;
        }
      EXPECT_EQ(writes_and_loads(g.generate(cfg, seed, {{"high_addresses", "off"}})), writes_and_loads(g.generate(cfg, seed)))
          << generator << " " << name << " seed " << seed << ": high_addresses=off is not the default";
    }
    const unsigned bits = std::min(cfg.dbb_addr_bits, 64u);
    const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t aligned = mask & ~uint64_t{cfg.atom_bytes - 1};  // below the atom: 0 by alignment
    EXPECT_EQ(ones & aligned, aligned) << generator << " " << name << ": bits never 1: " << std::hex << (aligned & ~ones);
    EXPECT_EQ(zeros & aligned, aligned) << generator << " " << name << ": bits never 0: " << std::hex << (aligned & ~zeros);
  }
}

}  // namespace dla::test
