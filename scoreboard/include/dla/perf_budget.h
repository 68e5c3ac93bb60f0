// Performance budget: an analytical cycle bound per layer, checked on every RTL run
// (docs/scoreboard.md, "Performance budget"). A layer costs max(memory-bound, compute-bound)
// cycles plus a fixed latency its unit declares; a run whose layers take longer than
// fixed + tolerance x bound fails with `perf:<unit> cycles=N budget=M`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/unit_model.h"

namespace dla {

// What one golden-model layer record costs. Companion records (the RDMAs, CSC, CMAC, CACC)
// carry their bytes or MAC cycles under their pipeline's name ("sdp", "pdp", "cdp", "conv").
struct LayerCost {
  std::string unit;             // "bdma", "sdp", "pdp", "cdp", "conv", "rubik"
  uint64_t read_bytes = 0;      // bytes the layer must read over the memory port
  uint64_t write_bytes = 0;     // bytes it must write
  uint64_t compute_cycles = 0;  // elements (or MAC atomic operations) / the unit's throughput
  uint64_t fixed_cycles = 0;    // the unit's declared fixed latency (pipeline fill, drain, done)
};

// nullopt: the record costs nothing the budget knows (a layer that never completed, or a unit
// the model has no formula for).
std::optional<LayerCost> layer_cost(const HwConfig& cfg, const LayerRecord& record);

// The budget of a set of layers that run together between one idle DUT and the next: units
// run concurrently (a pipeline is as fast as its slowest unit), one unit's layers one after
// another, and every unit shares the memory port.
struct PerfBudget {
  std::string unit;             // the unit that bounds the window (signature)
  uint64_t memory_cycles = 0;   // max(read, write bytes) / DBB bytes per cycle, over all layers
  uint64_t compute_cycles = 0;  // max over units of the sum of their layers' compute cycles
  uint64_t fixed_cycles = 0;    // sum of the layers' fixed latencies
  uint64_t latency_cycles = 0;  // read latency x rounds of reads in flight (0 unless asked for)
  unsigned layers = 0;
  uint64_t bound() const { return memory_cycles > compute_cycles ? memory_cycles : compute_cycles; }
  // fixed + ceil(tolerance x (bound + latency))
  uint64_t budget(double tolerance) const;
};
// read_latency: the memory's fixed read latency (cycles from AR to the first beat) when the
// window's read waits are charged rather than excused (an unthrottled read side): each unit
// pays it once per min(read-ahead, outstanding reads) atoms it reads.
PerfBudget window_budget(const HwConfig& cfg, const std::vector<LayerCost>& costs, uint32_t read_latency = 0);
// Atoms of read-ahead the unit's DMA keeps in flight at most (dlaverif's RTL); 0: not declared.
uint64_t read_ahead_atoms(const std::string& unit);

// Fixed latency every window pays on top of its layers: the enabling CSB write reaching the
// unit and the done interrupt reaching dla_intr.
inline constexpr uint64_t kPerfWindowOverheadCycles = 40;
// The default tolerance (plans: `perf_tolerance`, dlaverif run: --perf-tolerance).
inline constexpr double kDefaultPerfTolerance = 1.5;

// "off" -> nullopt (no check); "" -> the default; a number >= 1 -> itself. Anything else throws
// std::invalid_argument naming `what` and the rule.
std::optional<double> parse_perf_tolerance(const std::string& text, const std::string& what);

// "perf:cdp cycles=1234 budget=1000"
std::string perf_signature(const std::string& unit, uint64_t cycles, uint64_t budget);

}  // namespace dla
