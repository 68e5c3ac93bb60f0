// Shared by the Boost.Test suites that run the Verilated RTL: the run request of one generated
// test, and the pass check that prints the repro command and the report on failure.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>

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

}  // namespace dla
