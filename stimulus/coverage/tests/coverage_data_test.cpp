#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "dla/coverage/covergroup.h"
#include "dla/coverage/unit_coverage.h"

namespace dla::cov {
namespace {

GroupData sampled(const std::vector<int64_t>& sizes) {
  Covergroup g("unit.op", "sizes");
  g.coverpoint("size").bin("a", 1).bin("b", 2).bin("c", 3).ignore("zero", 0, 0);
  for (int64_t s : sizes) g.sample({{"size", s}});
  return g.data();
}

TEST(CoverageData, MergeAddsHitsAndShrinksHoles) {
  CoverageData one, two;
  one.add(sampled({1, 1}));
  two.add(sampled({2, 0}));
  EXPECT_EQ(one.holes().size(), 2u);
  one.merge(two);
  const GroupData* g = one.group("unit.op");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->samples, 4u);
  EXPECT_EQ(g->items[0].bins[0].hits, 2u);
  EXPECT_EQ(g->items[0].bins[1].hits, 1u);
  EXPECT_EQ(g->items[0].bins[3].hits, 1u);  // ignore bins count, but not toward the percentage
  ASSERT_EQ(one.holes().size(), 1u);
  EXPECT_EQ(one.holes()[0].path(), "unit.op.size.c");
  EXPECT_NEAR(one.percent(), 200.0 / 3, 1e-9);
}

TEST(CoverageData, MergeTakesOverGroupsAndBinsMissingOnOneSide) {
  CoverageData a, b;
  a.add(sampled({1}));
  GroupData other = sampled({3});
  other.name = "other.op";
  other.items[0].bins.push_back(BinData{"d", BinKind::Normal, 5});
  b.add(other);
  a.merge(b);
  EXPECT_EQ(a.groups().size(), 2u);
  EXPECT_EQ(a.group("other.op")->items[0].bins.size(), 5u);
}

TEST(CoverageData, MergeRejectsBinsOfDifferentKinds) {
  CoverageData a, b;
  a.add(sampled({1}));
  GroupData g = sampled({1});
  g.items[0].bins[0].kind = BinKind::Illegal;
  b.add(g);
  try {
    a.merge(b);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unit.op.size.a"), std::string::npos);
  }
}

TEST(CoverageData, JsonRoundTripAndFileErrors) {
  CoverageData a;
  a.add(sampled({1, 2, 0}));
  const auto dir = std::filesystem::temp_directory_path() / ("dla_cov_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "cov.json").string();
  a.save(path, {{"test", "x"}});
  const CoverageData b = CoverageData::load(path);
  EXPECT_EQ(b.to_json(), a.to_json());
  std::ofstream(dir / "bad.json") << "{\"format\": \"something-else\", \"groups\": []}";
  try {
    CoverageData::load((dir / "bad.json").string());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("format"), std::string::npos);
  }
  EXPECT_THROW(CoverageData::load((dir / "missing.json").string()), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

// save() writes the JSON text itself (no tree); it must be what to_json().dump(1) gives,
// including escapes, crosses, illegal events, empty items and nested meta.
TEST(CoverageData, SaveWritesWhatToJsonDumps) {
  CoverageData d;
  GroupData g = sampled({1, 2, 2, 0});
  g.description = "quotes \" backslash \\ tab \t newline \n bell \x07 and UTF-8 \xc2\xb5s";
  g.illegal_events = {"first \"event\"", "second"};
  g.items.push_back(ItemData{"size_x_size", {"size", "size"}, {BinData{"a,b", BinKind::Illegal, 3}}});
  g.items.push_back(ItemData{"empty", {}, {}});
  d.add(g);
  GroupData empty;
  empty.name = "a.empty";
  d.add(empty);
  const nlohmann::json meta = {{"config", "v1"}, {"seed", 7}, {"nested", {{"list", {1, 2}}, {"x", "y"}}}};
  EXPECT_EQ(d.to_text(meta), d.to_json(meta).dump(1));
  EXPECT_EQ(d.to_text(), d.to_json().dump(1));
  EXPECT_EQ(CoverageData().to_text(), CoverageData().to_json().dump(1));
  // And the sample files of every unit model, as tests write them.
  for (const HwConfig& cfg : HwConfig::all()) {
    const CoverageData models = sample_coverage({cfg, {}, {}});
    EXPECT_EQ(models.to_text(meta), models.to_json(meta).dump(1)) << cfg.name;
  }
}

TEST(CoverageData, IllegalHitsAreListed) {
  Covergroup g("u.g", "");
  g.coverpoint("v").bin("ok", 0).illegal("bad", 1, 1);
  g.sample({{"v", 1}});
  CoverageData d;
  d.add(g.data());
  ASSERT_EQ(d.illegal_hits().size(), 1u);
  EXPECT_EQ(d.illegal_hits()[0].bin, "bad");
}

}  // namespace
}  // namespace dla::cov
