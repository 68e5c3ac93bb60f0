// Mutants of one unit's RTL, as scripts/mutate/gen_mutants.py lists them (mutants.json next to
// the mutant model's binary), the waivers that mark equivalent ones, and what grading found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dla::mutation {

struct Mutant {
  uint32_t id = 0;        // selector value (mutsel); 0 is the unmutated design
  std::string mode;       // Yosys mutation: inv, const0, const1, cnot0, cnot1
  std::string cell, port, wire;
  int bit = 0;            // bit of the cell port
  int ctrlbit = -1;       // cnot0/cnot1: the port bit that controls the inversion; -1 otherwise
  std::string location;   // most specific source span, "rtl/bdma/dla_bdma.sv:120.5-120.30"
  std::vector<std::string> sources;
  bool probed = false;    // the model records whether the mutation ever changed its signal
  std::string describe() const;  // "const0 of u_rd.cnt[3] (rtl/...:12.3-12.20)"
};

// A Yosys cell name without what changes when the design is renumbered or checked out
// elsewhere: the `$<number>` suffixes are dropped and embedded source paths keep their file
// name, so "$flatten\u_rd.$add$/src/rtl/bdma/dla_bdma_rd_engine.sv:108$23798" becomes
// "$flatten\u_rd.$add$dla_bdma_rd_engine.sv:108".
std::string cell_identity(const std::string& cell);

struct MutantList {
  std::string path, top;
  unsigned selector_width = 0;
  std::vector<Mutant> mutants;  // ids 1..N in order
};

// std::invalid_argument naming the file and the problem.
MutantList load_mutants(const std::string& path);

// Waiver file (YAML): survivors proved equivalent by hand. An entry names its mutant by id
// (with the location as a check), or by the mutation's identity, which survives renumbering:
//   waivers:
//     - model: v1:bdma                   # the mutant model (config:unit); omitted: every model
//       mutant: 17                       # selector id, and/or
//       location: rtl/bdma/dla_bdma.sv:120   # prefix of a mutant's location
//       reason: the counter saturates before the mutated bit matters
//     - model: small:sdp                 # identity: mode, location (the whole span), port, bit,
//       mode: cnot0                      # ctrlbit for cnot0/cnot1, optionally cell
//       location: rtl/sdp/dla_sdp_rsh.sv:36.42-36.48
//       port: A
//       bit: 7
//       ctrlbit: 5
//       cell: '$flatten\u_dp.\g_lane[0].g_bn.u_bn.\u_rsh.$sub$dla_sdp_rsh.sv:36'  # cell_identity()
//       reason: why no input can tell the mutant from the design
//     - model: v1:bdma                   # kind: explained -- not equivalent, but the bench cannot
//       mutant: 4                        # see it (e.g. a stall counter counting less: only upper
//       kind: explained                  # bounds can be checked end to end); stays in the kill
//       reason: ...                      # rate's denominator, the survivor carries the reason
// An identity entry must name at most one mutant of a model (check_waivers).
struct Waiver {
  std::string model;  // "<config>:<unit>"; empty: applies to every model
  std::optional<uint32_t> mutant;
  std::string location;
  std::string mode;   // non-empty: an identity entry (location is then a whole span)
  std::string port;
  std::optional<int> bit, ctrlbit;
  std::string cell;   // cell_identity() of the cell; empty: any cell
  bool explained = false;  // kind: explained (a named reason, not an equivalence)
  std::string reason;
  std::string file;   // where the entry was read (for messages)
  size_t entry = 0;   // 1-based entry number in that file
  bool identity() const { return !mode.empty(); }
  bool applies_to(const std::string& config, const std::string& unit) const;
  bool matches(const Mutant& m) const;  // id/location or identity (the model is checked by applies_to)
};
// std::invalid_argument naming the file, the entry and the rule.
std::vector<Waiver> load_waivers(const std::string& path);

// Checks a model's waivers against its mutant list: an identity entry that matches two or more
// mutants is refused (std::invalid_argument naming the file, the entry, the model and the ids:
// add `cell:` or `mutant:` to tell them apart). Returns the entries that match no mutant of the
// model (stale after an RTL change, or written for another count or seed).
std::vector<const Waiver*> check_waivers(const std::vector<Waiver>& waivers, const MutantList& list,
                                         const std::string& model);

enum class Status { Killed, Survived, TimedOut };
const char* status_name(Status s);

// Survivor classes (commercial tools' names): the mutated signal never differed from the
// original (not activated); it did, but the DUT's outputs and cycle count were identical in
// every test (not propagated); the outputs differed and every checker passed (not detected);
// or a waiver says it is equivalent.
enum class SurvivorClass { None, NotActivated, NotPropagated, NotDetected, Waived };
const char* class_name(SurvivorClass c);

// What formal triage (scripts/mutate/formal_triage.py) says about a survivor: the mutant and the
// unmutated unit, started from the same reset, can differ at the unit's ports within `depth`
// cycles ("distinguishable": a witness of `witness_cycles` cycles showing `ports` differ), cannot
// ("equivalent": proved within `depth` cycles), or the solver did not tell ("unknown": `reason`).
struct TriageVerdict {
  std::string verdict;  // distinguishable | equivalent | unknown
  unsigned depth = 0;
  unsigned witness_cycles = 0;
  std::vector<std::string> ports;
  std::string witness;  // VCD of the witness, relative to the grading's out dir
  std::string reason;
  std::string proof;    // equivalent: "all cycles" (induction/PDR) or "within K cycles" (bounded search)
  double seconds = 0;
  bool equivalent() const { return verdict == "equivalent"; }
  bool distinguishable() const { return verdict == "distinguishable"; }
  nlohmann::json to_json() const;
};

struct MutantResult {
  Mutant mutant;
  Status status = Status::Survived;
  SurvivorClass survivor_class = SurvivorClass::None;
  std::string killer_test;  // job id "<entry>/<seed>" of the first failing test
  uint64_t killer_seed = 0;
  std::string killer_signature;
  unsigned tests_run = 0;
  double seconds = 0;       // wall time of the mutant's test processes
  std::string note;         // waiver reason, timeout detail, ...
  std::optional<TriageVerdict> triage;  // survivors, when the grade ran formal triage
  std::string explanation;  // an `explained` waiver's reason (the survivor keeps its class)
  // A survivor nobody has accounted for: not detected, or shown distinguishable by formal
  // triage, with neither a waiver nor an explanation.
  bool unexplained() const;
  nlohmann::json to_json() const;
};

}  // namespace dla::mutation
