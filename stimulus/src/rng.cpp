#include "dla/rng.h"

namespace dla {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Rng::Rng(uint64_t seed) {
  uint64_t st = seed;
  for (auto& w : s_) w = splitmix64(st);  // never all zero: SplitMix64 is a bijection of distinct inputs
}

uint64_t Rng::derive_seed(uint64_t master_seed, std::string_view name) {
  uint64_t st = master_seed ^ fnv1a64(name);
  return splitmix64(st);
}

uint64_t Rng::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint64_t Rng::below(uint64_t n) {
  if (n == 0) throw std::invalid_argument("Rng::below: empty range (n = 0)");
  const uint64_t threshold = (0 - n) % n;  // 2^64 mod n: values below it would bias
  for (;;) {
    const uint64_t x = next_u64();
    if (x >= threshold) return x % n;
  }
}

uint64_t Rng::uniform(uint64_t lo, uint64_t hi) {
  if (lo > hi) throw std::invalid_argument("Rng::uniform: lo > hi");
  if (lo == 0 && hi == ~uint64_t{0}) return next_u64();
  return lo + below(hi - lo + 1);
}

int64_t Rng::uniform_signed(int64_t lo, int64_t hi) {
  if (lo > hi) throw std::invalid_argument("Rng::uniform_signed: lo > hi");
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const uint64_t off = span == ~uint64_t{0} ? next_u64() : below(span + 1);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + off);
}

double Rng::unit() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

bool Rng::chance(double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  return unit() < p;
}

void Rng::fill(uint8_t* out, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint64_t v = next_u64();
    for (int b = 0; b < 8 && i < n; ++b, ++i, v >>= 8) out[i] = static_cast<uint8_t>(v);
  }
}

std::vector<uint8_t> Rng::bytes(size_t n) {
  std::vector<uint8_t> v(n);
  fill(v.data(), n);
  return v;
}

}  // namespace dla
