#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "dla/rng.h"

namespace dla {
namespace {

TEST(Rng, StreamSeedIsSplitMix64OfMasterXorFnv1a) {
  // Published known answers: FNV-1a-64("") = 0xcbf29ce484222325 and the first SplitMix64
  // output for state 0 is 0xe220a8397b1dcdaf. With master = FNV("") the XOR is 0.
  EXPECT_EQ(Rng::derive_seed(0xcbf29ce484222325ull, ""), 0xe220a8397b1dcdafull);
  // FNV-1a-64("a") = 0xaf63dc4c8601ec8c, so master = that value with name "a" gives the same.
  EXPECT_EQ(Rng::derive_seed(0xaf63dc4c8601ec8cull, "a"), 0xe220a8397b1dcdafull);
}

// Pinned outputs: the algorithm (SplitMix64 seeding, xoshiro256**, rejection sampling) is
// ours and fixed, so these values must be identical on every platform and compiler. They
// were computed once with this implementation; a change here breaks seed reproducibility.
TEST(Rng, PinnedValuesAreStableAcrossPlatforms) {
  // The first two also match the xoshiro256** reference seeded by SplitMix64(1).
  Rng r(1);
  EXPECT_EQ(r.next_u64(), 0xb3f2af6d0fc710c5ull);
  EXPECT_EQ(r.next_u64(), 0x853b559647364ceaull);
  Rng s = Rng::stream(42, "bdma.sizes");
  EXPECT_EQ(s.below(1000), 922u);
  EXPECT_EQ(s.uniform(10, 20), 19u);
  EXPECT_EQ(s.uniform_signed(-5, 5), -4);
}

TEST(Rng, SameSeedSameSequenceOtherSeedOrNameDiffers) {
  auto take = [](Rng r) {
    std::vector<uint64_t> v;
    for (int i = 0; i < 8; ++i) v.push_back(r.next_u64());
    return v;
  };
  EXPECT_EQ(take(Rng::stream(5, "a")), take(Rng::stream(5, "a")));
  EXPECT_NE(take(Rng::stream(5, "a")), take(Rng::stream(6, "a")));
  EXPECT_NE(take(Rng::stream(5, "a")), take(Rng::stream(5, "b")));
}

TEST(Rng, StreamsAreIndependentOfEachOtherUse) {
  // Drawing from one stream does not move another.
  Rng a1 = Rng::stream(9, "x"), b1 = Rng::stream(9, "y");
  Rng a2 = Rng::stream(9, "x");
  for (int i = 0; i < 100; ++i) b1.next_u64();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a1.next_u64(), a2.next_u64());
}

TEST(Rng, BelowStaysInRangeAndCoversItEvenly) {
  Rng r(3);
  std::vector<int> count(7, 0);
  for (int i = 0; i < 70000; ++i) {
    const uint64_t v = r.below(7);
    ASSERT_LT(v, 7u);
    ++count[v];
  }
  for (int c : count) EXPECT_NEAR(c, 10000, 500);
  EXPECT_THROW(r.below(0), std::invalid_argument);
  EXPECT_THROW(r.uniform(5, 4), std::invalid_argument);
  for (int i = 0; i < 100; ++i) {
    const int64_t v = r.uniform_signed(-3, 3);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 3);
  }
  EXPECT_EQ(r.uniform(9, 9), 9u);
}

TEST(Rng, ChanceMatchesItsProbability) {
  Rng r(4);
  int hits = 0;
  for (int i = 0; i < 100000; ++i) hits += r.chance(0.25) ? 1 : 0;
  EXPECT_NEAR(hits, 25000, 800);
  EXPECT_FALSE(r.chance(0.0));
  EXPECT_TRUE(r.chance(1.0));
}

TEST(Rng, ShuffleIsAPermutationAndChoicePicksMembers) {
  Rng r(8);
  std::vector<int> v(50);
  std::iota(v.begin(), v.end(), 0);
  auto w = v;
  r.shuffle(w);
  EXPECT_NE(v, w);
  std::sort(w.begin(), w.end());
  EXPECT_EQ(v, w);
  std::set<int> seen;
  for (int i = 0; i < 500; ++i) seen.insert(r.choice(v));
  EXPECT_EQ(seen.size(), v.size());
  EXPECT_THROW(r.choice(std::vector<int>{}), std::invalid_argument);
}

TEST(Rng, BytesAreDeterministic) {
  EXPECT_EQ(Rng(11).bytes(37), Rng(11).bytes(37));
  EXPECT_NE(Rng(11).bytes(37), Rng(12).bytes(37));
}

}  // namespace
}  // namespace dla
