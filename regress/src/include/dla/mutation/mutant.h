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
  std::string location;   // most specific source span, "rtl/bdma/dla_bdma.sv:120.5-120.30"
  std::vector<std::string> sources;
  bool probed = false;    // the model records whether the mutation ever changed its signal
  std::string describe() const;  // "const0 of u_rd.cnt[3] (rtl/...:12.3-12.20)"
};

struct MutantList {
  std::string path, top;
  unsigned selector_width = 0;
  std::vector<Mutant> mutants;  // ids 1..N in order
};

// std::invalid_argument naming the file and the problem.
MutantList load_mutants(const std::string& path);

// Waiver file (YAML): survivors proved equivalent by hand.
//   waivers:
//     - model: v1:bdma                   # the mutant model (config:unit); omitted: every model
//       mutant: 17                       # selector id, and/or
//       location: rtl/bdma/dla_bdma.sv:120   # prefix of a mutant's location
//       reason: the counter saturates before the mutated bit matters
struct Waiver {
  std::string model;  // "<config>:<unit>"; empty: applies to every model
  std::optional<uint32_t> mutant;
  std::string location;
  std::string reason;
  bool applies_to(const std::string& config, const std::string& unit) const;
  bool matches(const Mutant& m) const;  // id and location (the model is checked by applies_to)
};
// std::invalid_argument naming the file, the entry and the rule.
std::vector<Waiver> load_waivers(const std::string& path);

enum class Status { Killed, Survived, TimedOut };
const char* status_name(Status s);

// Survivor classes (commercial tools' names): the mutated signal never differed from the
// original (not activated); it did, but the DUT's outputs and cycle count were identical in
// every test (not propagated); the outputs differed and every checker passed (not detected);
// or a waiver says it is equivalent.
enum class SurvivorClass { None, NotActivated, NotPropagated, NotDetected, Waived };
const char* class_name(SurvivorClass c);

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
  nlohmann::json to_json() const;
};

}  // namespace dla::mutation
