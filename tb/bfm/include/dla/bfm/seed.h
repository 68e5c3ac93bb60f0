#pragma once
// Named random streams: every stream seed is derived from the test's master seed and a stable
// name, so adding a stream never changes the others.
#include <cstdint>
#include <string_view>

namespace dla::tb {

uint64_t derive_seed(uint64_t master_seed, std::string_view stream_name);

// Bernoulli draw with a portable result (no std distributions, whose output differs between
// standard libraries).
template <class Rng>
bool draw_probability(Rng& rng, double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  constexpr double kTwo64 = 18446744073709551616.0;
  return static_cast<double>(rng()) < p * kTwo64;
}

// Uniform integer in [lo, hi] (tiny modulo bias is irrelevant for timing).
template <class Rng>
uint64_t draw_between(Rng& rng, uint64_t lo, uint64_t hi) {
  if (hi <= lo) return lo;
  return lo + rng() % (hi - lo + 1);
}

}  // namespace dla::tb
