#include "dla/test_generator.h"

#include <stdexcept>

#include "generators.h"

namespace dla {

Program TestGenerator::generate(const HwConfig& cfg, uint64_t seed, const Knobs& given) const {
  const std::string why = why_unsupported(cfg);
  if (!why.empty())
    throw std::invalid_argument("test '" + name + "' does not support configuration '" + cfg.name + "': " + why);
  for (const auto& kv : given) {
    bool known = false;
    std::string names;
    for (const KnobSpec& k : knobs) {
      known = known || k.name == kv.first;
      names += (names.empty() ? "" : ", ") + k.name;
    }
    if (!known)
      throw std::invalid_argument("test '" + name + "': unknown knob '" + kv.first + "' (known: " +
                                  (names.empty() ? "none" : names) + ")");
  }
  Program p = make(cfg, seed, given);
  p.test = name;
  p.config = cfg.name;
  p.seed = seed;
  return p;
}

const std::vector<TestGenerator>& test_generators() {
  static const std::vector<TestGenerator> gens = {stimulus::make_regs_access_generator(),
                                                  stimulus::make_bdma_random_generator(),
                                                  stimulus::make_pdp_random_generator(),
                                                  stimulus::make_pdp_illegal_generator(),
                                                  stimulus::make_sdp_random_generator(),
                                                  stimulus::make_sdp_pdp_random_generator(),
                                                  stimulus::make_sdp_illegal_generator(),
                                                  stimulus::make_cdp_random_generator(),
                                                  stimulus::make_cdp_illegal_generator(),
                                                  stimulus::make_conv_random_generator(),
                                                  stimulus::make_conv_illegal_generator(),
                                                  stimulus::make_rubik_random_generator(),
                                                  stimulus::make_rubik_illegal_generator()};
  return gens;
}

const TestGenerator& find_test_generator(const std::string& name) {
  std::string known;
  for (const TestGenerator& g : test_generators()) {
    if (g.name == name) return g;
    known += (known.empty() ? "" : ", ") + g.name;
  }
  throw std::invalid_argument("unknown test '" + name + "' (known: " + known + ")");
}

std::string KnobReader::raw(const std::string& name) const {
  const auto it = knobs_.find(name);
  if (it != knobs_.end()) return it->second;
  for (const KnobSpec& k : gen_.knobs)
    if (k.name == name) return k.default_value;
  throw std::logic_error("test '" + gen_.name + "' reads undeclared knob '" + name + "'");
}

uint64_t KnobReader::integer(const std::string& name, uint64_t lo, uint64_t hi) const {
  const std::string text = raw(name);
  auto bad = [&]() {
    return std::invalid_argument("test '" + gen_.name + "': knob " + name + "='" + text +
                                 "' must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  };
  if (text.empty() || text[0] == '-' || text[0] == '+') throw bad();
  size_t used = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    throw bad();
  }
  if (used != text.size() || v < lo || v > hi) throw bad();
  return v;
}

std::string KnobReader::choice(const std::string& name, const std::vector<std::string>& allowed) const {
  const std::string text = raw(name);
  std::string list;
  for (const auto& a : allowed) {
    if (a == text) return text;
    list += (list.empty() ? "" : "|") + a;
  }
  throw std::invalid_argument("test '" + gen_.name + "': knob " + name + "='" + text + "' must be one of " + list);
}

}  // namespace dla
