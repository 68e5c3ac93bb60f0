// Checker proofs (issues 4 and 5): each planted golden-model bug (dla/planted_bug.h) must make
// the unit's random test fail on the RTL within 50 seeds with the signature kind the defect
// produces, and the seeds around the catching one must pass without the plant. A plant not
// caught within 50 seeds is a stimulus blind spot: fix the generator, not the plant.
#define BOOST_TEST_MODULE rtl_checker_proof
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/test_runner.h"

using namespace dla;

namespace {

constexpr uint64_t kMaxSeeds = 50;

struct Proof {
  std::string plant, test, config;
  std::string signature_prefix;  // what the scoreboard reports for this defect
  std::map<std::string, std::string> knobs = {};
};

RunResult run(const Proof& p, uint64_t seed, bool planted) {
  RunRequest r;
  r.config = p.config;
  r.test = p.test;
  r.seed = seed;
  r.knobs = p.knobs;
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
// Rounding negative ties toward zero in the input converter and the LUT stage: a one-LSB
// difference, shown by layers whose output is the LUT result (exact_lut_percent) on int8-only small.
BOOST_AUTO_TEST_CASE(negative_ties) {
  prove({"cdp.negative_ties", "cdp.random", "small", "mem-data", {{"exact_lut_percent", "100"}, {"layers", "4"}}});
}

// v1 only: nv_small's CDP has no D_OUT_SATURATION. The default programs never put an output one
// step beyond the range; sat_edge_percent does in most layers.
BOOST_AUTO_TEST_CASE(saturation_quirk) {
  prove({"cdp.saturation_quirk", "cdp.random", "v1", "cdp.out_saturation", {{"sat_edge_percent", "100"}}});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sdp_pdp)

BOOST_AUTO_TEST_CASE(stream_order) {
  for (const std::string cfg : {"v1", "small"})
    prove({"sdp_pdp.stream_order", "sdp_pdp.random", cfg, "mem-data"});
}

BOOST_AUTO_TEST_SUITE_END()

// The convolution pipeline's planted bugs, on every configuration whose conv RTL is built
// (DLA_CONV_PROOF_CONFIGS). v1 runs the layer kinds its conv RTL has (docs/conv-rtl.md).
BOOST_AUTO_TEST_SUITE(conv)

const std::vector<std::string> kConvConfigs = {DLA_CONV_PROOF_CONFIGS};
const std::map<std::string, std::string> kV1Direct = {
    {"mode", "direct"}, {"batch_percent", "0"}, {"compression_percent", "0"}};

std::map<std::string, std::string> conv_knobs(const std::string& cfg, const std::string& precision) {
  if (cfg != "v1") return {};
  auto k = kV1Direct;
  k["precision"] = precision;
  return k;
}

BOOST_AUTO_TEST_CASE(clip_rounding) {
  for (const std::string& cfg : kConvConfigs)
    prove({"conv.clip_rounding", "conv.random", cfg, "mem-data", conv_knobs(cfg, "int8")});
}
BOOST_AUTO_TEST_CASE(padding_row) {
  for (const std::string& cfg : kConvConfigs)
    prove({"conv.padding_row", "conv.random", cfg, "mem-data", conv_knobs(cfg, "int8")});
}
// An int8 sum never reaches CACC's 32-bit clip (C x R x S products of at most 2^14): only
// configurations with int16 can saturate, and the counter is proved there on int16 layers.
BOOST_AUTO_TEST_CASE(out_saturation_count) {
  for (const std::string& cfg : kConvConfigs) {
    if (!HwConfig::get(cfg).supports(Precision::Int16)) {
      BOOST_TEST_MESSAGE("conv.out_saturation_count: " << cfg << " is int8 only, no layer saturates");
      continue;
    }
    prove({"conv.out_saturation_count", "conv.random", cfg, "cacc.out_saturation rtl=", conv_knobs(cfg, "int16")});
  }
}
// The Winograd output transform (CMAC): a reference whose A^T has the wrong second row must
// disagree with the RTL. Registered only when a configuration with Winograd has the conv RTL.
BOOST_AUTO_TEST_CASE(winograd_coefficient) {
  bool proved = false;
  for (const std::string& cfg : kConvConfigs) {
    if (!HwConfig::get(cfg).conv_winograd) continue;
    prove({"conv.winograd_coefficient", "conv.random", cfg, "mem-data", {{"mode", "winograd"}, {"precision", "int8"}}});
    proved = true;
  }
  BOOST_TEST(proved, "no configuration with Winograd has the conv RTL in this build");
}

BOOST_AUTO_TEST_SUITE_END()
