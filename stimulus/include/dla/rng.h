// Seeded random numbers with named streams (DESIGN.md section 5).
//
// Every random decision of a test comes from Rng::stream(master_seed, "stream.name"): the
// stream's seed is SplitMix64(master_seed XOR FNV-1a-64(name)), so adding a stream never
// changes the numbers of an existing one. The generator is xoshiro256** and every
// derived value (ranges, probabilities, shuffles) is computed by code in this file, never
// by <random> distributions, whose output differs between standard libraries. The same
// seed therefore gives the same numbers on every platform.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace dla {

class Rng {
 public:
  explicit Rng(uint64_t seed);
  static Rng stream(uint64_t master_seed, std::string_view name) { return Rng(derive_seed(master_seed, name)); }
  static uint64_t derive_seed(uint64_t master_seed, std::string_view name);

  uint64_t next_u64();
  // Uniform in [0, n); n must be > 0. Unbiased (rejection sampling).
  uint64_t below(uint64_t n);
  // Uniform in [lo, hi], inclusive; lo <= hi.
  uint64_t uniform(uint64_t lo, uint64_t hi);
  int64_t uniform_signed(int64_t lo, int64_t hi);
  // Uniform double in [0, 1) with 53 random bits.
  double unit();
  // True with probability p (p <= 0: never, p >= 1: always).
  bool chance(double p);
  void fill(uint8_t* out, size_t n);
  std::vector<uint8_t> bytes(size_t n);

  template <class T>
  const T& choice(const std::vector<T>& items) {
    if (items.empty()) throw std::invalid_argument("Rng::choice: empty list");
    return items[static_cast<size_t>(below(items.size()))];
  }
  template <class T>
  void shuffle(std::vector<T>& items) {  // Fisher-Yates
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[static_cast<size_t>(below(i))]);
  }

 private:
  std::array<uint64_t, 4> s_;
};

}  // namespace dla
