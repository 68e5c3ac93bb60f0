// Registry of test generators: each turns (configuration, seed, knobs) into a Program.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/program.h"

namespace dla {

// Generator parameters, name -> value text. Each generator validates its own.
using Knobs = std::map<std::string, std::string>;

struct KnobSpec {
  std::string name, default_value, description;
};

struct TestGenerator {
  std::string name, description;
  std::vector<KnobSpec> knobs;
  // Builds the program; called by generate() after validation.
  std::function<Program(const HwConfig&, uint64_t seed, const Knobs&)> make;
  // The test runs convolution layers: a DUT without the pipeline (ModelInfo::conv) cannot
  // run it; golden-only runs can.
  bool needs_conv = false;
  // The test runs RUBIK layers: a DUT without RUBIK (ModelInfo::rubik) cannot run it;
  // golden-only runs can.
  bool needs_rubik = false;
  // Why the configuration cannot run this test; "" when it can. Unset: every configuration.
  std::function<std::string(const HwConfig&)> unsupported_reason;

  bool supports(const HwConfig& cfg) const { return why_unsupported(cfg).empty(); }
  std::string why_unsupported(const HwConfig& cfg) const {
    return unsupported_reason ? unsupported_reason(cfg) : std::string();
  }
  // Validates the configuration and the knob names (std::invalid_argument naming the
  // offender and the rule), then makes the program. Values are validated by make().
  Program generate(const HwConfig& cfg, uint64_t seed, const Knobs& knobs = {}) const;
};

const std::vector<TestGenerator>& test_generators();
// Throws std::invalid_argument naming the known tests.
const TestGenerator& find_test_generator(const std::string& name);

// Reads validated knob values with defaults from the generator's KnobSpec list.
class KnobReader {
 public:
  KnobReader(const TestGenerator& gen, const Knobs& knobs) : gen_(gen), knobs_(knobs) {}
  // Integer in [lo, hi] (decimal or 0x hex); error names test, knob, value and range.
  uint64_t integer(const std::string& name, uint64_t lo, uint64_t hi) const;
  // One of `allowed`.
  std::string choice(const std::string& name, const std::vector<std::string>& allowed) const;

 private:
  std::string raw(const std::string& name) const;
  const TestGenerator& gen_;
  const Knobs& knobs_;
};

}  // namespace dla
