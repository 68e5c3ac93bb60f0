// Formal triage of surviving mutants from `dlaverif mutate --triage`: the settings of each mutant
// model (regress/plans/triage.yaml) and the run of its two engines over the survivors of a grade
// (docs/mutation.md, "Formal triage of survivors"): scripts/mutate/local_equiv.py (a SAT proof on
// the instance that holds the mutated cell, registers cut; sound for `equivalent` only) and then
// scripts/mutate/formal_triage.py (the whole unit's miter) on what the first left open.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dla/mutation/mutant.h"

namespace dla::mutation {

// An output compared only where the unit's consumer reads it: where `when` (an input of the
// unit, or the unmutated copy's output) was non-zero `delay` cycles before. With `lanes` the
// port packs one payload per bit of `when` (one per DMA client): lane i is compared only where
// bit i was set. `low_bits`: the low bits of each lane the consumer never reads (an address's
// bits below the atom size) are left out.
struct PortQualifier {
  std::string port, when;
  unsigned delay = 0;
  bool lanes = false;
  unsigned low_bits = 0;
  std::string reason;  // why the consumer reads the port only then
};

// Settings file (YAML):
//   defaults: {depth: 30, timeout: 60, map_memories_below: 8192}
//   models:
//     - model: small:cmac                 # <config>:<unit>
//       depth: 20                         # cycles searched from reset (K)
//       timeout: 90                       # solver seconds per mutant
//       map_memories_below: 8192          # bit-blast smaller memories, cut the others
//       engines: [local, unit]            # local_equiv.py first, then the unit's miter (the default)
//       qualify:
//         - {port: partial, when: mi_valid, delay: 1, reason: CACC samples partial the clock after}
//         - {port: dbb_rd_req_addr, when: dbb_rd_req_valid, lanes: true, low_bits: 3, reason: ...}
// A model without an entry uses the defaults.
struct TriageSettings {
  std::string model;
  unsigned depth = 30;
  unsigned timeout_seconds = 60;
  uint64_t map_memories_below = 8192;
  std::vector<PortQualifier> qualify;
  // "local" (local_equiv.py) and/or "unit" (formal_triage.py), run in that order; a model whose
  // whole-unit miter does not fit in memory lists only "local".
  std::vector<std::string> engines = {"local", "unit"};
  std::string source;  // "<file> entry N", "<file> defaults" or "built-in defaults"
};

// The settings of `model` ("<config>:<unit>") in `path`; std::invalid_argument naming the file,
// the entry and the rule (unreadable file, unknown field, depth or timeout 0, a bad model name,
// two entries for one model, a qualifier without port or when, an unknown or repeated engine).
TriageSettings load_triage_settings(const std::string& path, const std::string& model);

struct TriageRequest {
  std::string script;     // formal_triage.py
  std::string local_script;  // local_equiv.py
  std::string model_dir;  // gen_mutants.py's output for the model (prepared.il, mutations.ys, ...)
  std::string out_dir;    // <grading dir>/triage
  std::string report_root;  // witness paths are made relative to this (the grading's out dir)
  std::vector<uint32_t> ids;
  unsigned jobs = 1;      // Yosys/ABC processes at once
  TriageSettings settings;
};

// The formal_triage.py command line of a request (argv, python3 first).
std::vector<std::string> triage_command(const TriageRequest& req);

// The local_equiv.py command line for `ids` (argv, python3 first); its output goes to <out_dir>/local.
std::vector<std::string> local_equiv_command(const TriageRequest& req, const std::vector<uint32_t>& ids);

// Reads local_equiv.py's local_equiv.json: a verdict per id. `equivalent` (proof "local": the
// mutated instance computes the same function, so no input sequence tells the unit apart) or
// `unknown` whose reason says what the local check found (a difference for some input of the
// instance, which the unit may never produce; a cell in a module with state). std::runtime_error
// naming the file when it is missing or malformed.
std::map<uint32_t, TriageVerdict> read_local_equiv(const std::string& path);

// Reads <out_dir>/triage.json; std::runtime_error naming the file when it is missing or malformed.
std::map<uint32_t, TriageVerdict> read_triage(const std::string& path, const std::string& report_root);

// Runs the settings' engines in order, each on the ids the previous one did not prove equivalent
// (their output goes to <out_dir>/local.log and <out_dir>/triage.log and, line by line, to
// `progress`), and returns a verdict per id; std::runtime_error when a script fails (exit status,
// the log's tail).
std::map<uint32_t, TriageVerdict> run_triage(const TriageRequest& req,
                                             const std::function<void(const std::string&)>& progress);

}  // namespace dla::mutation
