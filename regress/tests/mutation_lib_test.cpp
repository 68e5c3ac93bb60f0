// Unit tests of the mutation library's waiver file: which models and mutants an entry waives
// (by id and location, or by the mutation's identity), and the refusals of bad entries. The
// project's own waiver file must load. And what one test run of a mutant says about it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "dla/mutation/grading.h"
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

// A mutant as mutants.json lists it, with its identity.
Mutant mutant(uint32_t id, const std::string& mode, const std::string& location, const std::string& cell,
              const std::string& port, int bit, int ctrlbit = -1) {
  Mutant m = mutant(id, location);
  m.mode = mode;
  m.cell = cell;
  m.port = port;
  m.bit = bit;
  m.ctrlbit = ctrlbit;
  return m;
}

std::vector<Waiver> load_text(const std::string& text) {
  const std::string path = write_temp(text);
  std::vector<Waiver> w = load_waivers(path);
  fs::remove(path);
  return w;
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
  EXPECT_EQ(load_error("waivers:\n  - {reason: x}\n"),
            "entry 1: needs 'mutant', 'location' or a mutation identity ('mode', ...)");
  EXPECT_EQ(load_error("waivers:\n  - {model: cdp, mutant: 3, reason: x}\n"),
            "entry 1: 'model' must be <config>:<unit> (e.g. v1:bdma), not 'cdp'");
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 1, reason: x}\n  - {unit: cdp, mutant: 3, reason: x}\n"),
            "entry 2: unknown field 'unit' (fields: model, mutant, location, mode, port, bit, ctrlbit, cell, reason)");
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 0, reason: x}\n"), "entry 1: 'mutant' 0 is the unmutated design");
  EXPECT_EQ(load_error("nothing: 1\n"), "needs a top-level 'waivers:' list");
}

TEST(Waivers, CellIdentityDropsNumbersAndDirectories) {
  EXPECT_EQ(cell_identity("$flatten\\u_rd.$add$/work/x/rtl/bdma/dla_bdma_rd_engine.sv:108$23798"),
            "$flatten\\u_rd.$add$dla_bdma_rd_engine.sv:108");
  EXPECT_EQ(cell_identity("$flatten\\u_wr0.$procdff$43052"), "$flatten\\u_wr0.$procdff");
  EXPECT_EQ(cell_identity("$flatten\\u_core.\\u_lut.$auto$opt_dff.cc:764:run$1234"),
            "$flatten\\u_core.\\u_lut.$auto$opt_dff.cc:764:run");
  EXPECT_EQ(cell_identity("$shiftx$/a/b/dla_bdma.sv:0$33277"), "$shiftx$dla_bdma.sv:0");
}

// The same mutation under two numberings (other id, other cell number): the identity entry
// waives both; any field that differs makes it waive nothing.
TEST(Waivers, AnIdentityMatchesTheMutationUnderAnyNumbering) {
  const std::vector<Waiver> w = load_text(R"(
waivers:
  - model: small:cdp
    mode: cnot1
    location: rtl/sdp/dla_sdp_rsh.sv:31.10-31.55
    port: Y
    bit: 24
    ctrlbit: 15
    reason: both bits are always 0
  - model: small:pdp
    mode: const0
    location: gen/rtl/dla_pdp_regs.sv:78.16-78.42
    port: Q
    bit: 20
    cell: '$flatten\u_regs.$procdff'
    reason: the write mask keeps bit 20 at 0
  - {model: small:sdp, mutant: 12, mode: inv, location: rtl/sdp/a.sv:1.1-1.5, port: A, bit: 3, reason: id and identity}
)");
  ASSERT_EQ(w.size(), 3u);
  EXPECT_TRUE(w[0].identity());
  EXPECT_EQ(w[1].entry, 2u);
  const std::string rsh = "rtl/sdp/dla_sdp_rsh.sv:31.10-31.55";
  EXPECT_TRUE(w[0].matches(mutant(174, "cnot1", rsh, "$flatten\\u_cvt.$procmux$901", "Y", 24, 15)));
  EXPECT_TRUE(w[0].matches(mutant(52, "cnot1", rsh, "$flatten\\u_cvt.$procmux$1733", "Y", 24, 15)));
  EXPECT_FALSE(w[0].matches(mutant(52, "cnot1", rsh, "c", "Y", 23, 15)));  // other bit
  EXPECT_FALSE(w[0].matches(mutant(52, "cnot1", rsh, "c", "Y", 24, 14)));  // other control bit
  EXPECT_FALSE(w[0].matches(mutant(52, "cnot0", rsh, "c", "Y", 24, 15)));  // other mode
  EXPECT_FALSE(w[0].matches(mutant(52, "cnot1", rsh, "c", "A", 24, 15)));  // other port
  EXPECT_FALSE(w[0].matches(mutant(52, "cnot1", "rtl/sdp/dla_sdp_rsh.sv:31.10-31.56", "c", "Y", 24, 15)));
  EXPECT_FALSE(w[0].matches(mutant(52, "cnot1", "rtl/sdp/dla_sdp_rsh.sv:31.10-31.555", "c", "Y", 24, 15)))
      << "an identity's location is the whole span, not a prefix";

  const std::string regs = "gen/rtl/dla_pdp_regs.sv:78.16-78.42";
  EXPECT_TRUE(w[1].matches(mutant(7, "const0", regs, "$flatten\\u_regs.$procdff$4410", "Q", 20)));
  EXPECT_FALSE(w[1].matches(mutant(7, "const0", regs, "$flatten\\u_regs.$procmux$4410", "Q", 20)));  // other cell
  EXPECT_FALSE(w[1].matches(mutant(7, "const0", regs, "$flatten\\u_regs.$procdff$4410", "Q", 21)));  // other bit

  EXPECT_TRUE(w[2].matches(mutant(12, "inv", "rtl/sdp/a.sv:1.1-1.5", "c", "A", 3)));
  EXPECT_FALSE(w[2].matches(mutant(13, "inv", "rtl/sdp/a.sv:1.1-1.5", "c", "A", 3)));  // id and identity
}

TEST(Waivers, AnIdentityThatNamesTwoMutantsIsRefusedAndStaleEntriesAreReported) {
  const std::string rsh = "rtl/sdp/dla_sdp_rsh.sv:36.42-36.48";
  MutantList list;
  list.mutants = {mutant(1, "const0", rsh, "$flatten\\u_a.$sub$dla_sdp_rsh.sv:36$10", "B", 16),
                  mutant(2, "const0", rsh, "$flatten\\u_b.$sub$dla_sdp_rsh.sv:36$20", "B", 16),
                  mutant(3, "inv", "rtl/cdp/x.sv:1.1-1.2", "c", "A", 0)};
  std::vector<Waiver> w = load_text(R"(
waivers:
  - {mode: const0, location: "rtl/sdp/dla_sdp_rsh.sv:36.42-36.48", port: B, bit: 16, reason: B is 1}
)");
  try {
    check_waivers(w, list, "small:cdp");
    ADD_FAILURE() << "an identity matching mutants 1 and 2 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(": entry 1: the mutation identity matches mutants 1, 2 of small:cdp"),
              std::string::npos)
        << e.what();
  }
  w = load_text(R"(
waivers:
  - {mode: const0, location: "rtl/sdp/dla_sdp_rsh.sv:36.42-36.48", port: B, bit: 16, cell: '$flatten\u_b.$sub$dla_sdp_rsh.sv:36', reason: B is 1}
  - {mode: const0, location: "rtl/sdp/dla_sdp_rsh.sv:36.42-36.48", port: B, bit: 17, reason: B is 1}
  - {mutant: 3, reason: by id}
)");
  const std::vector<const Waiver*> stale = check_waivers(w, list, "small:cdp");
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0]->entry, 2u);  // bit 17: no such mutant
  EXPECT_FALSE(w[0].matches(list.mutants[0]));
  EXPECT_TRUE(w[0].matches(list.mutants[1]));
}

TEST(Waivers, BadIdentitiesNameTheEntryAndTheRule) {
  const std::string loc = "location: rtl/a.sv:1.2-1.9";
  EXPECT_EQ(load_error("waivers:\n  - {mode: flip, " + loc + ", port: A, bit: 1, reason: x}\n"),
            "entry 1: 'mode' must be inv, const0, const1, cnot0 or cnot1, not 'flip'");
  EXPECT_EQ(load_error("waivers:\n  - {mode: inv, " + loc + ", bit: 1, reason: x}\n"),
            "entry 1: a mutation identity needs 'mode', 'location', 'port' and 'bit'");
  EXPECT_EQ(load_error("waivers:\n  - {mode: inv, port: A, bit: 1, reason: x}\n"),
            "entry 1: a mutation identity needs 'mode', 'location', 'port' and 'bit'");
  EXPECT_EQ(load_error("waivers:\n  - {mode: inv, location: rtl/a.sv:1, port: A, bit: 1, reason: x}\n"),
            "entry 1: a mutation identity's 'location' is a whole span as in mutants.json (file:L.C-L.C), not "
            "'rtl/a.sv:1'");
  EXPECT_EQ(load_error("waivers:\n  - {mode: cnot1, " + loc + ", port: A, bit: 1, reason: x}\n"),
            "entry 1: mode 'cnot1' needs 'ctrlbit' (the bit that controls it)");
  EXPECT_EQ(load_error("waivers:\n  - {mode: inv, " + loc + ", port: A, bit: 1, ctrlbit: 2, reason: x}\n"),
            "entry 1: 'ctrlbit' is only for modes cnot0 and cnot1, not 'inv'");
  EXPECT_EQ(load_error("waivers:\n  - {mode: inv, " + loc + ", port: A, bit: -1, reason: x}\n"),
            "entry 1: 'bit' must be a bit number (0 or more)");
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 4, bit: 3, reason: x}\n"),
            "entry 1: 'bit' is part of a mutation identity, which needs 'mode'");
  EXPECT_EQ(load_error("waivers:\n  - {mode: inv, " + loc + ", port: A, bit: 1}\n"),
            "entry 1: needs a 'reason' (why it is equivalent)");
}

TEST(Waivers, TheProjectsWaiverFileLoadsAndScopesEveryIdToAModel) {
  const std::vector<Waiver> w = load_waivers(DLA_SOURCE_DIR "/regress/plans/mutation_waivers.yaml");
  ASSERT_FALSE(w.empty());
  for (const Waiver& x : w)  // ids repeat across models: an unscoped id would waive other units' mutants
    EXPECT_TRUE(!x.mutant || !x.model.empty()) << "waiver of mutant " << *x.mutant << " names no model";
}

// A run that could not be started (exit 127: the model binary gone or relinked during the grade)
// must not count as a kill; a real crash, a failure and an error do.
TEST(MutantTestVerdict, ARunThatCouldNotStartIsNoKill) {
  struct Case {
    const char* status;
    const char* signature;
    MutantTestVerdict want;
  };
  for (const Case& c : {Case{"crash", "crash:exit-127", MutantTestVerdict::NotStarted},
                        Case{"crash", "crash:SIGSEGV", MutantTestVerdict::Killed},
                        Case{"crash", "crash:exit-3", MutantTestVerdict::Killed},
                        Case{"fail", "mem-data:dbb", MutantTestVerdict::Killed},
                        Case{"error", "mem-data:dbb", MutantTestVerdict::Killed},
                        Case{"timeout", "timeout", MutantTestVerdict::TimedOut},
                        Case{"pass", "", MutantTestVerdict::Passed}}) {
    regression::Outcome o;
    o.status = c.status;
    o.signature = c.signature;
    EXPECT_EQ(mutant_test_verdict(o), c.want) << c.status << " " << c.signature;
  }
}

}  // namespace
}  // namespace dla::mutation
