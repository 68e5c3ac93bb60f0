// Turns a parsed NVDLA trace into a dla::Program for one configuration: register names and
// nvdlav1 word addresses resolved in the configuration's map, data files loaded, the
// trace's events ordered into one sequential stream (docs/traces.md, "Execution model").
#pragma once

#include <cstdint>
#include <string>

#include "dla/hwconfig.h"
#include "dla/program.h"
#include "dla/trace_cfg.h"
#include "dla/trace_txn.h"

namespace dla::trace {

struct CompileOptions {
  uint64_t seed = 1;                 // the RANDOM mem_init pattern (stream "trace.mem_init.random")
  uint64_t intr_timeout_cycles = 0;  // intr_notify / wait on the RTL (0: the runner's default)
  uint64_t poll_timeout_cycles = 0;  // poll_reg_equal / read_reg on the RTL (0: the runner's default)
};

struct CompiledTrace {
  Program program;
  // Non-empty: the trace uses something this configuration does not have (a unit, the
  // SRAM interface, an interrupt); the program is then incomplete and must not be played.
  std::string unsupported;
  size_t checks = 0;  // register read-backs, polls, CRC and memory compares in the trace
};

// Input errors (unknown register names, interrupt ids or events, missing or malformed data
// files, a CRC window outside the trace's memory, events no sequential replay can order)
// throw TraceError naming the file and line.
CompiledTrace compile_trace(const CfgTrace& trace, const HwConfig& cfg, const CompileOptions& options = {});
CompiledTrace compile_trace(const TxnTrace& trace, const HwConfig& cfg, const CompileOptions& options = {});

// GLB S_INTR_STATUS bit of an interrupt id ("SDP_0", "CDMA_WT_1", "RUBIK_0"; upper case),
// and the unit that raises it; nullopt for an unknown id.
struct InterruptId {
  uint32_t bit = 0;
  Unit unit = Unit::GLB;
};
std::optional<InterruptId> interrupt_id(const std::string& id);
// Inverse for a single status bit: "BDMA_1"; empty if the bit has no id.
std::string interrupt_id_name(uint32_t bit);

}  // namespace dla::trace
