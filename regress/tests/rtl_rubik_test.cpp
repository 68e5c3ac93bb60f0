// RTL tests of RUBIK (rtl/rubik, docs/rubik.md) on v1: rubik.random against the golden model
// (every mode and precision, deep deconvolution strides, the AXI timing profiles), rubik.illegal's
// ignored fields, the refused programming cases and determinism. Throughput: bench/rubik_bench.cpp.
#define BOOST_TEST_MODULE dla_rtl_rubik
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

#include "dla/test_runner.h"
#include "rtl_test_support.h"

namespace {

using namespace dla;

RunRequest rubik_request(uint64_t seed, const std::string& profile, std::map<std::string, std::string> knobs = {}) {
  RunRequest r = request("v1", "rubik.random", seed);
  r.axi_profile = profile;
  r.knobs = std::move(knobs);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(seeds)

// rubik.random (golden model + scoreboard) on a CI-sized set of seeds.
BOOST_AUTO_TEST_CASE(seeds_v1) {
  require_seeds("v1", "rubik.random", 1, 20);
}
// Each mode alone, contract with deconvolution strides up to 32 (small B = floor(64/sx) chunks).
BOOST_AUTO_TEST_CASE(modes) {
  require_seeds("v1", "rubik.random", 200, 202, {{"mode", "contract"}, {"max_deconv_stride", "32"}});
  require_seeds("v1", "rubik.random", 210, 212, {{"mode", "split"}, {"max_width", "200"}});
  require_seeds("v1", "rubik.random", 220, 222, {{"mode", "merge"}, {"max_width", "200"}});
}
// The memory timing profiles: slow and bursty ready/valid, late write responses.
BOOST_AUTO_TEST_CASE(axi_profiles) {
  for (const std::string profile : {"slow", "bursty", "late_b", "fast"})
    for (uint64_t seed = 1; seed <= 3; ++seed) require_pass(run_test(rubik_request(seed, profile)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(illegal)

// Random values in the fields a mode does not use (and PERF_EN): golden and RTL agree.
BOOST_AUTO_TEST_CASE(ignored_fields) {
  require_seeds("v1", "rubik.illegal", 1, 8, {{"case", "ignored_fields"}});
}
// The refused programming is refused before it reaches the DUT (exit 2, the rule named).
BOOST_AUTO_TEST_CASE(refused_cases) {
  for (const std::string c : {"reserved_mode", "reserved_precision", "contract_stride_0", "split_channels",
                              "output_overlap", "in_out_overlap"}) {
    RunRequest r = request("v1", "rubik.illegal", 1);
    r.knobs = {{"case", c}};
    const RunResult res = run_test(r);
    BOOST_TEST(res.verdict == Verdict::Error, c << ": " << res.summary);
    BOOST_TEST(res.summary.find("is refused") != std::string::npos, c << ": " << res.summary);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(determinism)

// Same seed, same bytes and cycles.
BOOST_AUTO_TEST_CASE(same_seed_same_cycles) {
  for (uint64_t seed : {4u, 5u}) {
    const RunResult a = run_test(rubik_request(seed, "random"));
    const RunResult b = run_test(rubik_request(seed, "random"));
    require_pass(a);
    require_pass(b);
    BOOST_TEST(a.cycles == b.cycles, "seed " << seed << ": " << a.cycles << " vs " << b.cycles << " cycles");
  }
}

BOOST_AUTO_TEST_SUITE_END()
