// Shared by the Boost.Test suites that run the Verilated RTL: the run request of one generated
// test, and the pass check that prints the repro command and the report on failure.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dla/test_runner.h"

namespace dla {

inline RunRequest request(const std::string& config, const std::string& test, uint64_t seed) {
  RunRequest r;
  r.config = config;
  r.test = test;
  r.seed = seed;
  r.command_line = boost::unit_test::framework::master_test_suite().p_name.get();  // the suite binary
  return r;
}

inline void require_pass(const RunResult& res) {
  BOOST_TEST_INFO("repro: " << res.repro_command());
  BOOST_TEST_INFO("report:\n" << res.report);
  BOOST_TEST(res.verdict == Verdict::Pass, res.summary << " [" << res.signature << "]");
}

// Runs `test` on `config` for the seeds first..last (inclusive) with `knobs`; each must pass.
inline void require_seeds(const std::string& config, const std::string& test, uint64_t first, uint64_t last,
                          const std::map<std::string, std::string>& knobs = {}) {
  for (uint64_t seed = first; seed <= last; ++seed) {
    RunRequest r = request(config, test, seed);
    r.knobs = knobs;
    require_pass(run_test(r));
  }
}

// Input bytes of directed tests: every lane of every atom from a simple formula (salt varies it).
inline std::vector<uint8_t> pattern_bytes(uint64_t n, uint32_t salt) {
  std::vector<uint8_t> b(n);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>((i * 37 + salt * 11 + (i >> 7) * 5) ^ (i >> 3));
  return b;
}

}  // namespace dla
