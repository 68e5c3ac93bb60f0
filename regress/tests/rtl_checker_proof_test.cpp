// Checker proofs (issues 4 and 5): each planted golden-model bug (dla/planted_bug.h) must make
// the unit's random test fail on the RTL within 50 seeds with the signature kind the defect
// produces, and the seeds around the catching one must pass without the plant. A plant not
// caught within 50 seeds is a stimulus blind spot: fix the generator, not the plant.
#define BOOST_TEST_MODULE rtl_checker_proof
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "dla/test_runner.h"

using namespace dla;

namespace {

constexpr uint64_t kMaxSeeds = 50;

struct Proof {
  std::string plant, test, config;
  std::string signature_prefix;  // what the scoreboard reports for this defect
};

RunResult run(const Proof& p, uint64_t seed, bool planted) {
  RunRequest r;
  r.config = p.config;
  r.test = p.test;
  r.seed = seed;
  r.command_line = "rtl_checker_proof_test";
  if (planted) r.planted_bugs = {p.plant};
  return run_test(r);
}

// Seeds 1..50 with the plant until the first failure; then the catching seed and its
// predecessor must pass without the plant (the failure is the plant's doing).
void prove(const Proof& p) {
  BOOST_TEST_MESSAGE("proof " << p.plant << " on " << p.config << " with " << p.test);
  for (uint64_t seed = 1; seed <= kMaxSeeds; ++seed) {
    const RunResult with = run(p, seed, true);
    if (with.verdict == Verdict::Pass) continue;
    BOOST_TEST_INFO("repro: " << with.repro_command());
    BOOST_TEST_INFO("report:\n" << with.report);
    BOOST_TEST(with.verdict == Verdict::Fail, with.summary);
    BOOST_TEST(with.signature.rfind(p.signature_prefix, 0) == 0,
               p.plant << " caught at seed " << seed << " with signature '" << with.signature << "', expected '"
                       << p.signature_prefix << "...'");
    for (uint64_t clean : {seed, seed > 1 ? seed - 1 : seed + 1}) {
      const RunResult without = run(p, clean, false);
      BOOST_TEST(without.verdict == Verdict::Pass,
                 "seed " << clean << " without the plant: " << without.summary << " [" << without.signature << "]");
    }
    BOOST_TEST_MESSAGE("  caught at seed " << seed << ": " << with.signature);
    return;
  }
  BOOST_ERROR(p.plant << " on " << p.config << " not caught by " << p.test << " within " << kMaxSeeds
                      << " seeds: a stimulus blind spot");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdp)

BOOST_AUTO_TEST_CASE(rounding) {
  for (const std::string cfg : {"v1", "small"}) prove({"sdp.rounding", "sdp.random", cfg, "mem-data"});
}
BOOST_AUTO_TEST_CASE(out_saturation_count) {
  for (const std::string cfg : {"v1", "small"})
    prove({"sdp.out_saturation_count", "sdp.random", cfg, "sdp.out_saturation rtl="});
}
// small (nv_small) has no SDP LUT.
BOOST_AUTO_TEST_CASE(lut_priority) { prove({"sdp.lut_priority", "sdp.random", "v1", "mem-data"}); }
// NaN outputs need fp16: v1 only (small is int8).
BOOST_AUTO_TEST_CASE(nan_output_count) {
  prove({"sdp.nan_output_count", "sdp.random", "v1", "sdp.nan_output_num rtl="});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pdp)

BOOST_AUTO_TEST_CASE(reciprocal_rounding) {
  for (const std::string cfg : {"v1", "small"}) prove({"pdp.reciprocal_rounding", "pdp.random", cfg, "mem-data"});
}
BOOST_AUTO_TEST_CASE(split_boundary) {
  for (const std::string cfg : {"v1", "small"}) prove({"pdp.split_boundary", "pdp.random", cfg, "mem-data"});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cdp)

BOOST_AUTO_TEST_CASE(window_edge) {
  // A wrong square sum shows first in whichever check runs first: a LUT counter or the data.
  for (const std::string cfg : {"v1", "small"}) prove({"cdp.window_edge", "cdp.random", cfg, ""});
}
BOOST_AUTO_TEST_CASE(lut_priority) {
  for (const std::string cfg : {"v1", "small"}) prove({"cdp.lut_priority", "cdp.random", cfg, "mem-data"});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sdp_pdp)

BOOST_AUTO_TEST_CASE(stream_order) {
  for (const std::string cfg : {"v1", "small"})
    prove({"sdp_pdp.stream_order", "sdp_pdp.random", cfg, "mem-data"});
}

BOOST_AUTO_TEST_SUITE_END()
