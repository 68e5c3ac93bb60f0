#include <gtest/gtest.h>

#include "dla/coverage/covergroup.h"

namespace dla::cov {
namespace {

Covergroup make_group() {
  Covergroup g("unit.op", "test group");
  g.coverpoint("port").bin("sram", 0).bin("dbb", 1);
  g.coverpoint("size").bin("small", 1, 9).bin("big", 10, 99).illegal("huge", 100, 1000);
  g.cross("port_x_size", {"port", "size"}).ignore({"sram", "big"});
  return g;
}

const ItemData& item(const GroupData& d, const std::string& name) {
  for (const ItemData& i : d.items)
    if (i.name == name) return i;
  throw std::logic_error("no item " + name);
}

TEST(Covergroup, SamplesCoverpointsAndCrosses) {
  Covergroup g = make_group();
  g.sample({{"port", 1}, {"size", 5}});
  g.sample({{"port", 1}, {"size", 50}});
  g.sample({{"port", 0}, {"size", 5}});
  const GroupData d = g.data();
  EXPECT_EQ(d.samples, 3u);
  EXPECT_DOUBLE_EQ(item(d, "port").percent(), 100.0);
  EXPECT_DOUBLE_EQ(item(d, "size").percent(), 100.0);
  const ItemData& x = item(d, "port_x_size");
  EXPECT_EQ(x.cross, (std::vector<std::string>{"port", "size"}));
  EXPECT_EQ(x.normal_bins(), 3u);  // sram,big ignored
  EXPECT_EQ(x.hit_bins(), 3u);
  EXPECT_TRUE(d.illegal_events.empty());
}

TEST(Covergroup, IllegalValuesAreCountedAndDescribed) {
  Covergroup g = make_group();
  g.sample({{"port", 0}, {"size", 500}});
  const GroupData d = g.data();
  ASSERT_EQ(d.illegal_events.size(), 1u);
  EXPECT_EQ(d.illegal_events[0], "unit.op.size: value 500 is in illegal bin 'huge'");
  EXPECT_EQ(item(d, "port_x_size").hit_bins(), 0u);  // crosses skip values outside normal bins
}

TEST(Covergroup, SampleMustNameEveryCoverpoint) {
  Covergroup g = make_group();
  EXPECT_THROW(g.sample({{"port", 0}}), std::invalid_argument);
  EXPECT_THROW(g.sample({{"port", 0}, {"size", 1}, {"colour", 2}}), std::invalid_argument);
  EXPECT_THROW(g.cross("c", {"port", "nope"}), std::invalid_argument);
  EXPECT_THROW(g.coverpoint("port"), std::invalid_argument);
}

}  // namespace
}  // namespace dla::cov
