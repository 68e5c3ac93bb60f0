// Unit tests of the mutation library's waiver file: which models and mutants an entry waives
// (by id and location, or by the mutation's identity), and the refusals of bad entries. The
// project's own waiver file must load. And what one test run of a mutant says about it. Formal
// triage: the settings file, triage.json, the kill rate over non-equivalent mutants, the store
// and the report order.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "dla/mutation/grading.h"
#include "dla/mutation/mutant.h"
#include "dla/mutation/mutation_report.h"
#include "dla/mutation/triage.h"

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
            "entry 2: unknown field 'unit' (fields: model, mutant, location, mode, port, bit, ctrlbit, cell, kind, reason)");
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

std::string settings_error(const std::string& text, const std::string& model = "small:cmac") {
  const std::string path = write_temp(text);
  try {
    load_triage_settings(path, model);
  } catch (const std::invalid_argument& e) {
    fs::remove(path);
    return std::string(e.what()).substr(("triage settings " + path + ": ").size());
  }
  fs::remove(path);
  return "accepted";
}

TEST(TriageSettings, AModelEntryOverridesTheDefaultsAndOtherModelsUseThem) {
  const std::string path = write_temp(
      "defaults: {depth: 25, timeout: 50}\n"
      "models:\n"
      "  - model: small:cmac\n"
      "    depth: 12\n"
      "    qualify:\n"
      "      - {port: partial, when: mi_valid, delay: 1, reason: read the clock after}\n"
      "      - {port: pexp, when: mi_valid}\n"
      "      - {port: addr, when: valid, lanes: true, low_bits: 3}\n");
  const TriageSettings cmac = load_triage_settings(path, "small:cmac");
  const TriageSettings bdma = load_triage_settings(path, "v1:bdma");
  fs::remove(path);
  EXPECT_EQ(cmac.depth, 12u);
  EXPECT_EQ(cmac.timeout_seconds, 50u);
  ASSERT_EQ(cmac.qualify.size(), 3u);
  EXPECT_EQ(cmac.qualify[0].port, "partial");
  EXPECT_EQ(cmac.qualify[0].delay, 1u);
  EXPECT_EQ(cmac.qualify[1].delay, 0u);
  EXPECT_FALSE(cmac.qualify[1].lanes);
  EXPECT_TRUE(cmac.qualify[2].lanes);
  EXPECT_EQ(cmac.qualify[2].low_bits, 3u);
  EXPECT_EQ(cmac.qualify[1].low_bits, 0u);
  EXPECT_EQ(cmac.source, path + " entry 1");
  EXPECT_EQ(bdma.depth, 25u);
  EXPECT_TRUE(bdma.qualify.empty());
  EXPECT_EQ(bdma.source, path + " defaults");

  TriageRequest req;
  req.script = "t.py";
  req.model_dir = "m";
  req.out_dir = "o";
  req.ids = {3, 17};
  req.jobs = 2;
  req.settings = cmac;
  const std::vector<std::string> want = {"python3", "t.py", "--model-dir", "m", "--mutants", "3,17", "--depth", "12",
                                         "--timeout", "50", "--map-memories-below", "8192", "--jobs", "2", "--out", "o",
                                         "--qualify", "partial=mi_valid@1", "--qualify", "pexp=mi_valid@0",
                                         "--qualify", "addr=valid:lanes:low=3@0"};
  EXPECT_EQ(triage_command(req), want);
}

TEST(TriageSettings, BadSettingsNameTheEntryAndTheRule) {
  EXPECT_EQ(settings_error("defaults: {depth: 0}\n"), "defaults: 'depth' must be a positive number, not 0");
  EXPECT_EQ(settings_error("defaults: {deep: 3}\n"),
            "defaults: unknown field 'deep' (fields: depth, timeout, map_memories_below, qualify, engines)");
  EXPECT_EQ(settings_error("model: x\n"), "unknown top-level field 'model' (fields: defaults, models)");
  EXPECT_EQ(settings_error("models:\n  - {model: cmac}\n"),
            "models entry 1: 'model' must be <config>:<unit> (e.g. small:cmac), not 'cmac'");
  EXPECT_EQ(settings_error("models:\n  - {model: small:cmac}\n  - {model: small:cmac}\n"),
            "models entry 2: a second entry for model small:cmac");
  EXPECT_EQ(settings_error("models:\n  - {model: v1:bdma, timeout: x}\n"),
            "models entry 1: 'timeout' must be a positive number");  // another model's entry is checked too
  EXPECT_EQ(settings_error("models:\n  - {model: small:cmac, qualify: [{port: partial}]}\n"),
            "models entry 1: a 'qualify' item needs 'port' and 'when' (and optionally 'delay', 'lanes', 'low_bits', 'reason')");
  EXPECT_EQ(settings_error("models:\n  - {model: small:sdp, qualify: [{port: p, when: v, lanes: 2}]}\n"),
            "models entry 1: qualifier of 'p': 'lanes' must be true or false");
  EXPECT_EQ(settings_error("models:\n  - {model: small:sdp, qualify: [{port: p, when: v, low_bits: 64}]}\n"),
            "models entry 1: qualifier of 'p': 'low_bits' must be a number of bits 0..63");
  EXPECT_EQ(settings_error("models:\n  - {model: small:cmac, qualify: [{port: p, when: v, delay: -1}]}\n"),
            "models entry 1: qualifier of 'p': 'delay' must be a number of cycles 0..64");
  EXPECT_EQ(settings_error("models:\n  - {model: small:cmac, qualify: [{port: p, when: v}, {port: p, when: w}]}\n"),
            "models entry 1: port 'p' is qualified twice");
  EXPECT_NE(settings_error("defaults: [\n").find("error"), std::string::npos);  // malformed YAML: refused, no crash
}

TEST(TriageSettings, TheProjectsSettingsFileLoads) {
  const TriageSettings s = load_triage_settings(DLA_SOURCE_DIR "/regress/plans/triage.yaml", "small:cmac");
  EXPECT_NE(s.source.find("entry"), std::string::npos);
  EXPECT_FALSE(s.qualify.empty());
}

TEST(TriageResults, TriageJsonGivesVerdictsWithWitnessesRelativeToTheReport) {
  const fs::path dir = fs::temp_directory_path() / ("dla_triage_" + std::to_string(::getpid()));
  fs::create_directories(dir / "bdma-v1" / "triage");
  const std::string json = dir / "bdma-v1" / "triage" / "triage.json";
  std::ofstream(json) << R"({"depth": 30, "mutants": [
    {"id": 4, "class": "distinguishable", "depth": 30, "witness_cycles": 3, "ports": ["wr_dat_data"],
     "witness": ")" << (dir / "bdma-v1" / "triage" / "witnesses" / "4.vcd").string() << R"(", "seconds": 0.5},
    {"id": 9, "class": "equivalent", "depth": 30, "seconds": 2},
    {"id": 11, "class": "unknown", "reason": "solver budget", "frames_checked": 7, "seconds": 60}]})";
  const auto v = read_triage(json, dir.string());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_TRUE(v.at(4).distinguishable());
  EXPECT_EQ(v.at(4).witness_cycles, 3u);
  EXPECT_EQ(v.at(4).ports, std::vector<std::string>{"wr_dat_data"});
  EXPECT_EQ(v.at(4).witness, "bdma-v1/triage/witnesses/4.vcd");
  EXPECT_TRUE(v.at(9).equivalent());
  EXPECT_EQ(v.at(11).reason, "solver budget");
  std::ofstream(json) << R"({"depth": 30, "mutants": [{"id": 4, "class": "maybe"}]})";
  EXPECT_THROW(read_triage(json, dir.string()), std::runtime_error);
  EXPECT_THROW(read_triage((dir / "none.json").string(), dir.string()), std::runtime_error);
  fs::remove_all(dir);
}

TEST(TriageSettings, EnginesDefaultToLocalThenUnitAndAModelMayListOnlyLocal) {
  const std::string path = write_temp("models:\n  - {model: v1:pdp, engines: [local]}\n");
  const TriageSettings pdp = load_triage_settings(path, "v1:pdp");
  const TriageSettings cdp = load_triage_settings(path, "v1:cdp");
  fs::remove(path);
  EXPECT_EQ(pdp.engines, std::vector<std::string>{"local"});
  EXPECT_EQ(cdp.engines, (std::vector<std::string>{"local", "unit"}));
  EXPECT_EQ(settings_error("defaults: {engines: []}\n"), "defaults: 'engines' must be a non-empty list of local, unit");
  EXPECT_EQ(settings_error("defaults: {engines: local}\n"), "defaults: 'engines' must be a non-empty list of local, unit");
  EXPECT_EQ(settings_error("models:\n  - {model: v1:pdp, engines: [local, smt]}\n"),
            "models entry 1: unknown engine 'smt' (engines: local, unit)");
  EXPECT_EQ(settings_error("models:\n  - {model: v1:pdp, engines: [unit, unit]}\n"),
            "models entry 1: engine 'unit' is listed twice");
  // v1 PDP's whole-unit miter does not fit in memory: the project's file runs only the local engine there
  EXPECT_EQ(load_triage_settings(DLA_SOURCE_DIR "/regress/plans/triage.yaml", "v1:pdp").engines,
            std::vector<std::string>{"local"});
}

TEST(TriageResults, LocalEquivalenceIsAProofOnlyForEquivalentAndKeepsTheWitnessInputsOtherwise) {
  const fs::path dir = fs::temp_directory_path() / ("dla_local_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string json = dir / "local_equiv.json";
  std::ofstream(json) << R"j({"top": "dla_pdp", "mutants": [
    {"id": 3, "class": "equivalent", "instance": "u_core.u_add", "module": "$paramod\\dla_fp17_add", "seconds": 1.5},
    {"id": 5, "class": "differs", "instance": "u_core.u_add", "module": "m",
     "witness": {"in_a": "0101", "in_b": "1", "gold_y": "1", "gate_y": "0", "trigger": "1"}},
    {"id": 8, "class": "not local", "reason": "m holds state other than flops ($mem_v2)"},
    {"id": 9, "class": "equivalent", "instance": "u_core.u_fin", "module": "f", "registers_cut": 12}]})j";
  const auto v = read_local_equiv(json);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(v.at(3).equivalent());
  EXPECT_EQ(v.at(3).proof, "local");
  EXPECT_NE(v.at(3).reason.find("u_core.u_add"), std::string::npos);
  EXPECT_EQ(v.at(5).verdict, "unknown");  // a local difference may be unreachable: not a witness at the unit's ports
  EXPECT_NE(v.at(5).reason.find("a=0101 b=1 "), std::string::npos) << v.at(5).reason;
  EXPECT_EQ(v.at(5).reason.find("gold_y"), std::string::npos) << v.at(5).reason;
  EXPECT_EQ(v.at(8).verdict, "unknown");
  EXPECT_NE(v.at(8).reason.find("holds state"), std::string::npos);
  EXPECT_EQ(v.at(9).proof, "local");
  EXPECT_NE(v.at(9).reason.find("12 registers cut"), std::string::npos) << v.at(9).reason;
  EXPECT_NE(v.at(9).reason.find("next state for every input and present state"), std::string::npos) << v.at(9).reason;
  std::ofstream(json) << R"({"mutants": [{"id": 4, "class": "maybe"}]})";
  EXPECT_THROW(read_local_equiv(json), std::runtime_error);
  EXPECT_THROW(read_local_equiv((dir / "none.json").string()), std::runtime_error);
  fs::remove_all(dir);
}

// Stand-ins for the two scripts: local_equiv.py proves mutant 3 equivalent and finds a local
// difference for every other id; formal_triage.py records the ids it was given and calls them
// distinguishable (a triage.json the real script would write).
struct FakeEngines {
  fs::path dir = fs::temp_directory_path() / ("dla_engines_" + std::to_string(::getpid()));
  TriageRequest req;
  FakeEngines() {
    fs::create_directories(dir);
    std::ofstream(dir / "local.py") << R"(import json, os, sys
a = dict(zip(sys.argv[1::2], sys.argv[2::2]))
os.makedirs(a["--out"], exist_ok=True)
ms = [{"id": int(i), "class": "equivalent" if i == "3" else "differs", "instance": "u", "module": "m",
       "witness": {"in_a": "1"}} for i in a["--mutants"].split(",")]
json.dump({"top": "t", "mutants": ms}, open(os.path.join(a["--out"], "local_equiv.json"), "w"))
print("mutant 3: equivalent")
)";
    std::ofstream(dir / "unit.py") << R"(import json, os, sys
a = dict(zip(sys.argv[1::2], sys.argv[2::2]))
open(os.path.join(a["--out"], "ids.txt"), "w").write(a["--mutants"])
ms = [{"id": int(i), "class": "distinguishable", "witness_cycles": 4, "ports": ["p"]} for i in a["--mutants"].split(",")]
json.dump({"depth": 30, "mutants": ms}, open(os.path.join(a["--out"], "triage.json"), "w"))
)";
    req.script = (dir / "unit.py").string();
    req.local_script = (dir / "local.py").string();
    req.model_dir = dir.string();
    req.out_dir = (dir / "triage").string();
    req.ids = {3, 5, 7};
  }
  ~FakeEngines() { fs::remove_all(dir); }
  std::string unit_ids() const {
    std::ifstream in(dir / "triage" / "ids.txt");
    std::string ids;
    return std::getline(in, ids) ? ids : "(not run)";
  }
};

TEST(TriageResults, TheWholeUnitMiterGetsOnlyWhatTheLocalProofLeftOpen) {
  FakeEngines f;
  std::vector<std::string> progress;
  const auto v = run_triage(f.req, [&](const std::string& l) { progress.push_back(l); });
  EXPECT_EQ(f.unit_ids(), "5,7");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_TRUE(v.at(3).equivalent());
  EXPECT_EQ(v.at(3).proof, "local");
  EXPECT_TRUE(v.at(5).distinguishable());
  EXPECT_TRUE(v.at(7).distinguishable());
  EXPECT_EQ(progress, std::vector<std::string>{"triage: local: mutant 3: equivalent"});
  EXPECT_TRUE(fs::exists(f.dir / "triage" / "local.log"));
  const std::vector<std::string> want = {"python3", f.req.local_script, "--model-dir", f.req.model_dir, "--mutants",
                                         "3,5,7", "--timeout", "60", "--out", f.req.out_dir + "/local"};
  EXPECT_EQ(local_equiv_command(f.req, f.req.ids), want);
}

TEST(TriageResults, WithOnlyTheLocalEngineTheRestStaysUnknownSayingWhy) {
  FakeEngines f;
  f.req.settings.engines = {"local"};
  const auto v = run_triage(f.req, nullptr);
  EXPECT_EQ(f.unit_ids(), "(not run)");
  EXPECT_TRUE(v.at(3).equivalent());
  EXPECT_EQ(v.at(5).verdict, "unknown");
  EXPECT_NE(v.at(5).reason.find("differs for a=1"), std::string::npos) << v.at(5).reason;
  EXPECT_NE(v.at(5).reason.find("whole-unit miter is not run"), std::string::npos) << v.at(5).reason;
  f.req.settings.engines = {"unit"};  // and the unit engine alone sees every id
  run_triage(f.req, nullptr);
  EXPECT_EQ(f.unit_ids(), "3,5,7");
}

TEST(TriageResults, AFailingLocalScriptIsAnErrorNamingItsLog) {
  FakeEngines f;
  std::ofstream(f.dir / "local.py") << "import sys\nprint('local_equiv: yosys not found')\nsys.exit(2)\n";
  try {
    run_triage(f.req, nullptr);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("local equivalence failed (exit 2; log "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("yosys not found"), std::string::npos) << e.what();
  }
}

MutantResult result(uint32_t id, Status status, SurvivorClass c = SurvivorClass::None, const char* verdict = nullptr) {
  MutantResult r;
  r.mutant = mutant(id, "rtl/x.sv:1");
  r.status = status;
  r.survivor_class = c;
  if (verdict) {
    r.triage = TriageVerdict{};
    r.triage->verdict = verdict;
    r.triage->depth = 30;
    if (r.triage->distinguishable()) {
      r.triage->witness_cycles = 5;
      r.triage->ports = {"a", "b"};
      r.triage->witness = "u/triage/witnesses/" + std::to_string(id) + ".vcd";
    }
  }
  return r;
}

// 10 mutants: 6 killed, 1 waived that triage also calls equivalent (counted once), 1 proved
// equivalent, 1 distinguishable, 1 unknown.
std::vector<MutantResult> triaged_grade() {
  std::vector<MutantResult> v;
  for (uint32_t id = 1; id <= 6; ++id) v.push_back(result(id, Status::Killed));
  v.push_back(result(7, Status::Survived, SurvivorClass::Waived, "equivalent"));
  v.push_back(result(8, Status::Survived, SurvivorClass::NotPropagated, "equivalent"));
  v.back().triage->proof = "all cycles";  // 7's proof is the bounded default, "within 30 cycles"
  v.push_back(result(9, Status::Survived, SurvivorClass::NotActivated, "unknown"));
  v.push_back(result(10, Status::Survived, SurvivorClass::NotPropagated, "distinguishable"));
  return v;
}

TEST(TriageResults, KillRateOverNonEquivalentMutantsCountsAWaivedEquivalentOnce) {
  RunInfo run;
  const UnitSummary s = summarize(run, triaged_grade());
  EXPECT_EQ(s.triaged, 4u);
  EXPECT_EQ(s.equivalent, 2u);
  EXPECT_EQ(s.distinguishable, 1u);
  EXPECT_EQ(s.triage_unknown, 1u);
  EXPECT_DOUBLE_EQ(s.kill_rate_all, 0.6);
  EXPECT_DOUBLE_EQ(s.kill_rate, 6.0 / 9);
  EXPECT_DOUBLE_EQ(s.kill_rate_non_equivalent, 6.0 / 8);
  const nlohmann::json j = report_json({s});
  EXPECT_DOUBLE_EQ(j["overall"]["kill_rate_non_equivalent"].get<double>(), 6.0 / 8);
  EXPECT_EQ(j["units"][0]["triage"]["distinguishable"], 1);
  EXPECT_EQ(j["units"][0]["mutants"][9]["triage"]["ports"], nlohmann::json({"a", "b"}));
}

// triaged_grade() recorded as one BDMA run in `db` (removed after), read back from the store.
std::vector<UnitSummary> triaged_grade_through_store(const fs::path& db) {
  RunInfo run;
  run.unit = "bdma";
  run.config = "v1";
  record(db.string(), run, triaged_grade());
  const auto units = latest_per_unit(db.string());
  fs::remove(db);
  return units;
}

TEST(TriageResults, TheStoreKeepsVerdictsAndTheReportListsDistinguishableSurvivorsFirst) {
  const fs::path db = fs::temp_directory_path() / ("dla_triage_store_" + std::to_string(::getpid()) + ".db");
  fs::remove(db);
  const auto units = triaged_grade_through_store(db);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].equivalent, 2u);
  EXPECT_DOUBLE_EQ(units[0].kill_rate_non_equivalent, 6.0 / 8);
  const MutantResult& d = units[0].results.back();
  ASSERT_TRUE(d.triage);
  EXPECT_EQ(d.triage->ports, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(d.triage->witness, "u/triage/witnesses/10.vcd");
  const std::string html = report_html(units);
  const size_t first_row = html.find("<tr><td>10</td>"), other = html.find("<tr><td>7</td>");
  ASSERT_NE(first_row, std::string::npos);
  ASSERT_NE(other, std::string::npos);
  EXPECT_LT(first_row, other);
  EXPECT_NE(html.find("href=\"u/triage/witnesses/10.vcd\""), std::string::npos);
  EXPECT_NE(html.find("equivalent (within 30 cycles)"), std::string::npos);
  EXPECT_NE(html.find("equivalent (all cycles)"), std::string::npos);
  EXPECT_EQ(units[0].results[7].triage->proof, "all cycles");
}

TEST(TriageResults, AStoreWrittenBeforeProofsHadAKindGainsTheColumn) {
  const fs::path db = fs::temp_directory_path() / ("dla_triage_old_store_" + std::to_string(::getpid()) + ".db");
  fs::remove(db);
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.string().c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h,
                         "CREATE TABLE mutation_triage(run_id INTEGER, mutant INTEGER, verdict TEXT, depth INTEGER, "
                         "witness_cycles INTEGER, ports TEXT, witness TEXT, reason TEXT, seconds REAL, "
                         "PRIMARY KEY (run_id, mutant));",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(h);
  const auto units = triaged_grade_through_store(db);
  ASSERT_EQ(units.size(), 1u);
  ASSERT_TRUE(units[0].results[7].triage);
  EXPECT_EQ(units[0].results[7].triage->proof, "all cycles");
}

TEST(ExplainedSurvivors, AnExplainedSurvivorKeepsItsClassAndItsPlaceInTheKillRate) {
  const auto w = load_text(
      "waivers:\n"
      "  - {model: v1:bdma, mutant: 11, kind: explained, reason: a stall counter counting less reads within its bound}\n"
      "  - {model: v1:bdma, mutant: 12, kind: equivalent, reason: proved}\n");
  ASSERT_EQ(w.size(), 2u);
  EXPECT_TRUE(w[0].explained);
  EXPECT_FALSE(w[1].explained);
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 3, kind: maybe, reason: r}\n"),
            "entry 1: 'kind' must be equivalent or explained, not 'maybe'");
  EXPECT_EQ(load_error("waivers:\n  - {mutant: 3, kind: explained}\n"),
            "entry 1: needs a 'reason' (why no test of the bench can see it)");

  std::vector<MutantResult> v = triaged_grade();  // 10: distinguishable, no reason
  v.push_back(result(11, Status::Survived, SurvivorClass::NotDetected));
  v.back().explanation = w[0].reason;
  v.push_back(result(12, Status::Survived, SurvivorClass::NotDetected));  // neither waived nor explained
  RunInfo run;
  run.unit = "bdma";
  run.config = "v1";
  const UnitSummary s = summarize(run, v);
  EXPECT_EQ(s.explained, 1u);
  EXPECT_EQ(s.unexplained, 2u);  // 10 (distinguishable) and 12 (not detected)
  EXPECT_DOUBLE_EQ(s.kill_rate_non_equivalent, 6.0 / 10);  // 11 stays in the denominator
  EXPECT_FALSE(v[10].unexplained());
  EXPECT_TRUE(v[11].unexplained());
  EXPECT_TRUE(v[9].unexplained());
  EXPECT_FALSE(v[8].unexplained());  // unknown verdict, not activated
  EXPECT_EQ(s.results[10].to_json()["explanation"], w[0].reason);

  const fs::path db = fs::temp_directory_path() / ("dla_explained_" + std::to_string(::getpid()) + ".db");
  fs::remove(db);
  record(db.string(), run, v);
  const auto units = latest_per_unit(db.string());
  fs::remove(db);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].explained, 1u);
  EXPECT_EQ(units[0].unexplained, 2u);
  EXPECT_NE(report_html(units).find("explained: a stall counter"), std::string::npos);
}

}  // namespace
}  // namespace dla::mutation
