#include <gtest/gtest.h>

#include "dla/coverage/coverpoint.h"
#include "dla/coverage/cross.h"

namespace dla::cov {
namespace {

TEST(Coverpoint, ValuesLandInTheirBin) {
  Coverpoint p("size");
  p.bin("one", 1).bin("small", 2, 7).bin("big", 8, 100);
  EXPECT_EQ(p.sample(1), 0u);
  EXPECT_EQ(p.sample(7), 1u);
  EXPECT_EQ(p.sample(8), 2u);
  EXPECT_EQ(p.sample(100), 2u);
  EXPECT_FALSE(p.sample(101).has_value());
  EXPECT_FALSE(p.sample(0).has_value());
  EXPECT_EQ(p.bins()[0].hits, 1u);
  EXPECT_EQ(p.bins()[1].hits, 1u);
  EXPECT_EQ(p.bins()[2].hits, 2u);
}

TEST(Coverpoint, IllegalAndIgnoreBinsWinOverNormalBins) {
  Coverpoint p("v");
  p.bin("all", 0, 100).ignore("odd", 3, 3).illegal("bad", 50, 60);
  EXPECT_EQ(p.bins()[*p.sample(3)].name, "odd");
  EXPECT_EQ(p.bins()[*p.sample(55)].name, "bad");
  EXPECT_EQ(p.bins()[*p.sample(70)].name, "all");
  EXPECT_EQ(p.normal_bin_names(), std::vector<std::string>{"all"});
  EXPECT_EQ(p.normal_position(0), 0u);
  EXPECT_FALSE(p.normal_position(1).has_value());
}

TEST(Coverpoint, RangeSplitsIntoEqualBins) {
  Coverpoint p("r");
  p.bins("b", 0, 9, 3);
  ASSERT_EQ(p.bins().size(), 3u);
  EXPECT_EQ(p.bins()[0].name, "b[0:3]");
  EXPECT_EQ(p.bins()[1].name, "b[4:6]");
  EXPECT_EQ(p.bins()[2].name, "b[7:9]");
  Coverpoint q("q");
  q.bins("v", 5, 6, 2);
  EXPECT_EQ(q.bins()[1].name, "v[6]");
  EXPECT_THROW(q.bins("w", 0, 1, 3), std::invalid_argument);
}

TEST(Coverpoint, BadDeclarationsNameTheBin) {
  Coverpoint p("size");
  p.bin("a", 0, 10);
  try {
    p.bin("b", 10, 20);
    FAIL() << "overlap accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("coverpoint 'size' bin 'b' overlaps normal bin 'a'"), std::string::npos);
  }
  EXPECT_THROW(p.bin("a", 30), std::invalid_argument);
  EXPECT_THROW(p.bin("c", 5, 4), std::invalid_argument);
  EXPECT_NO_THROW(p.ignore("i", 0, 3));  // ignore may overlap normal bins
}

TEST(Cross, CountsCombinationsAndHonoursPatterns) {
  Coverpoint a("a"), b("b");
  a.bin("x", 0).bin("y", 1);
  b.bin("p", 0).bin("q", 1).bin("r", 2);
  Cross c("axb", {&a, &b});
  ASSERT_EQ(c.bins().size(), 6u);
  EXPECT_EQ(c.bins()[0].name, "x,p");
  EXPECT_EQ(c.bins()[5].name, "y,r");
  c.ignore({"x", "*"}).illegal({"y", "r"});
  EXPECT_EQ(c.bins()[0].kind, BinKind::Ignore);
  EXPECT_EQ(c.bins()[2].kind, BinKind::Ignore);
  EXPECT_EQ(c.bins()[5].kind, BinKind::Illegal);
  EXPECT_EQ(c.sample({1, 1}), BinKind::Normal);
  EXPECT_EQ(c.bins()[4].hits, 1u);
  EXPECT_EQ(c.sample({1, 2}), BinKind::Illegal);
  EXPECT_THROW(c.ignore({"x"}), std::invalid_argument);
  EXPECT_THROW(c.ignore({"z", "*"}), std::invalid_argument);
}

}  // namespace
}  // namespace dla::cov
