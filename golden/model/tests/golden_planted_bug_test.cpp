#include <gtest/gtest.h>

#include <stdexcept>

#include "dla/planted_bug.h"

namespace dla::golden {
namespace {

TEST(PlantedBug, OffByDefault) {
  for (const auto& p : planted_bug_catalogue()) EXPECT_FALSE(planted(p.name)) << p.name;
}

TEST(PlantedBug, ScopeEnablesOnlyTheNamedPlantAndRestores) {
  const auto& c = planted_bug_catalogue();
  ASSERT_GE(c.size(), 2u);
  {
    const PlantedBugScope scope({c[0].name});
    EXPECT_TRUE(planted(c[0].name));
    EXPECT_FALSE(planted(c[1].name));
    {
      const PlantedBugScope inner({c[1].name});
      EXPECT_FALSE(planted(c[0].name));
      EXPECT_TRUE(planted(c[1].name));
    }
    EXPECT_TRUE(planted(c[0].name));
  }
  EXPECT_FALSE(planted(c[0].name));
}

TEST(PlantedBug, UnknownNamesAreRejected) {
  EXPECT_THROW(PlantedBugScope({"sdp.no_such_plant"}), std::invalid_argument);
  const PlantedBugScope scope({planted_bug_catalogue().front().name});
  EXPECT_THROW((void)planted("typo.in_a_model"), std::logic_error);
}

TEST(PlantedBug, CatalogueIsSortedUniqueAndDescribed) {
  const auto& c = planted_bug_catalogue();
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_FALSE(c[i].description.empty()) << c[i].name;
    EXPECT_NE(c[i].name.find('.'), std::string::npos) << c[i].name << ": name as unit.what";
    if (i > 0) {
      EXPECT_LT(c[i - 1].name, c[i].name);
    }
  }
}

}  // namespace
}  // namespace dla::golden
