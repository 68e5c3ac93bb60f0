// Unit tests of the mutation library's waiver file: which models and mutants an entry waives,
// and the refusals of bad entries. The project's own waiver file must load.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "dla/mutation/mutant.h"

namespace dla::mutation {
namespace {

namespace fs = std::filesystem;

std::string write_temp(const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("dla_waivers_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(p) << text;
  return p.string();
}

Mutant mutant(uint32_t id, const std::string& location) {
  Mutant m;
  m.id = id;
  m.location = location;
  return m;
}

std::string load_error(const std::string& text) {
  const std::string path = write_temp(text);
  try {
    load_waivers(path);
  } catch (const std::invalid_argument& e) {
    fs::remove(path);
    return std::string(e.what()).substr(("waiver file " + path + ": ").size());
  }
  fs::remove(path);
  return "accepted";
}

TEST(Waivers, ModelScopesAnIdToOneUnitAndConfiguration) {
  const std::string path = write_temp(R"(
waivers:
  - {model: small:cdp, mutant: 46, reason: room is at most 16}
  - {mutant: 7, location: rtl/bdma/, reason: both must match}
  - {location: gen/rtl/dla_cdp_regs.sv:12, reason: any id at this span}
)");
  const std::vector<Waiver> w = load_waivers(path);
  fs::remove(path);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_TRUE(w[0].applies_to("small", "cdp"));
  EXPECT_FALSE(w[0].applies_to("v1", "cdp"));
  EXPECT_FALSE(w[0].applies_to("small", "pdp"));
  EXPECT_TRUE(w[0].matches(mutant(46, "rtl/cdp/x.sv:1")));
  EXPECT_FALSE(w[0].matches(mutant(45, "rtl/cdp/x.sv:1")));
  EXPECT_TRUE(w[1].applies_to("small", "pdp"));  // no model: every model
  EXPECT_TRUE(w[1].matches(mutant(7, "rtl/bdma/dla_bdma.sv:3.1-3.9")));
  EXPECT_FALSE(w[1].matches(mutant(7, "rtl/pdp/dla_pdp.sv:3.1-3.9")));
  EXPECT_FALSE(w[1].matches(mutant(8, "rtl/bdma/dla_bdma.sv:3.1-3.9")));
  EXPECT_TRUE(w[2].matches(mutant(99, "gen/rtl/dla_cdp_regs.sv:12.4-12.9")));
  EXPECT_FALSE(w[2].matches(mutant(99, "gen/rtl/dla_cdp_regs.sv:13.4-13.9")));
}

TEST(Waivers, BadEntriesNameTheEntryAndTheRule) {
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 3}\n"), "entry 1: needs a 'reason' (why it is equivalent)");
  EXPECT_EQ(load_error("waivers:\n  - {reason: x}\n"), "entry 1: needs 'mutant' or 'location'");
  EXPECT_EQ(load_error("waivers:\n  - {model: cdp, mutant: 3, reason: x}\n"),
            "entry 1: 'model' must be <config>:<unit> (e.g. v1:bdma), not 'cdp'");
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 1, reason: x}\n  - {unit: cdp, mutant: 3, reason: x}\n"),
            "entry 2: unknown field 'unit' (fields: model, mutant, location, reason)");
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 0, reason: x}\n"), "entry 1: 'mutant' 0 is the unmutated design");
  EXPECT_EQ(load_error("nothing: 1\n"), "needs a top-level 'waivers:' list");
}

TEST(Waivers, TheProjectsWaiverFileLoadsAndScopesEveryIdToAModel) {
  const std::vector<Waiver> w = load_waivers(DLA_SOURCE_DIR "/regress/plans/mutation_waivers.yaml");
  ASSERT_FALSE(w.empty());
  for (const Waiver& x : w)  // ids repeat across models: an unscoped id would waive other units' mutants
    EXPECT_TRUE(!x.mutant || !x.model.empty()) << "waiver of mutant " << *x.mutant << " names no model";
}

}  // namespace
}  // namespace dla::mutation
