// Compares what the DUT did with what the golden model predicts: whole memory images,
// registers and counters, interrupts; protocol violations and hangs found by the
// testbench are recorded here too, so one object holds the verdict of a test.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/sparse_memory.h"

namespace dla {

enum class MismatchKind {
  MemData,     // a byte the golden model wrote differs (or the DUT did not write it)
  MemOutside,  // the DUT changed a byte outside what the golden model wrote
  Register,    // register / counter value
  Interrupt,   // GLB interrupt status or the interrupt line
  Protocol,    // bus protocol rule broken (AXI, CSB)
  Hang,        // no progress / timeout
  Perf,        // a layer took longer than its performance budget (dla/perf_budget.h)
};
const char* mismatch_kind_name(MismatchKind k);  // "mem-data", "mem-outside", "reg", "intr", "protocol", "hang", "perf"

struct Mismatch {
  MismatchKind kind = MismatchKind::MemData;
  std::string signature;  // stable bucket key, e.g. "mem-data:BDMA:dbb", "reg:BDMA.STATUS"
  std::string unit;       // "" when not known
  std::string name;       // register name, protocol rule or hang location
  // Memory mismatches: one range of adjacent differing bytes of one kind.
  std::optional<MemPort> port;
  uint64_t addr = 0, length = 0;
  std::vector<uint8_t> expected, actual;  // the first bytes of the range (capped)
  // Register / interrupt mismatches.
  uint32_t reg_addr = 0, mask = 0, expected_value = 0, actual_value = 0;
  std::string message;  // one-line human-readable description
};

class Scoreboard {
 public:
  struct Options {
    size_t max_memory_ranges = 16;  // memory ranges kept per compare_memory() call
    size_t max_bytes_shown = 16;    // bytes kept per range
  };

  explicit Scoreboard(const HwConfig& cfg) : Scoreboard(cfg, Options{}) {}
  Scoreboard(const HwConfig& cfg, Options options);

  // Names memory ranges after the unit that owns them (reports and signatures).
  void annotate(MemPort port, uint64_t begin, uint64_t end, const std::string& unit);

  // Whole-memory diff of one port: bytes written in either image are compared; `expected`'s
  // write footprint separates data mismatches from writes outside the output. Returns the
  // number of differing bytes.
  uint64_t compare_memory(MemPort port, const SparseMemory& expected, const SparseMemory& actual);

  // (expected & mask) vs (actual & mask). `name` like "BDMA.STATUS"; empty: looked up from
  // the configuration's register map by `addr`. Returns true when equal.
  bool compare_register(uint32_t addr, const std::string& name, uint32_t mask, uint32_t expected,
                        uint32_t actual);
  // GLB S_INTR_STATUS values (differing bits are named) and the interrupt line.
  bool compare_interrupt(const std::string& when, uint32_t expected_status, uint32_t actual_status);
  bool compare_interrupt_line(const std::string& when, bool expected, bool actual);

  // Findings of the testbench. `rule` like "AXI_4K_CROSS"; `where` like "intr-wait".
  void add_protocol_violation(const std::string& rule, const std::string& detail);
  void add_hang(const std::string& where, const std::string& detail);
  void add(Mismatch m);

  bool passed() const { return mismatches_.empty() && omitted_ranges_ == 0; }
  const std::vector<Mismatch>& mismatches() const { return mismatches_; }
  uint64_t differing_bytes() const { return differing_bytes_; }
  // The bucket of the test: protocol violations first, then hangs, then the first mismatch
  // recorded. Empty when passed.
  std::string signature() const;
  std::string report() const;
  nlohmann::json to_json() const;

 private:
  std::string unit_of(MemPort port, uint64_t addr) const;

  struct Annotation {
    MemPort port;
    uint64_t begin, end;
    std::string unit;
  };
  const HwConfig& cfg_;
  Options options_;
  std::vector<Annotation> annotations_;
  std::vector<Mismatch> mismatches_;
  uint64_t differing_bytes_ = 0;
  uint64_t omitted_ranges_ = 0;
};

}  // namespace dla
