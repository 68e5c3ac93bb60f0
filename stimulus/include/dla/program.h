// A test program: the contract consumed identically by the golden model and the RTL
// testbench. Memory loads, CSB register writes and reads, interrupt waits and idle time,
// in order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "dla/mem_port.h"

namespace dla {

struct MemLoad {
  MemPort port = MemPort::Dbb;
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;
};

struct RegWrite {
  uint32_t addr = 0;  // CSB byte address
  uint32_t data = 0;
  bool nposted = false;
};

// expect set: DUT and golden must both read (value & mask) == expect.
// expect unset: the DUT must read what the golden model reads, under mask.
struct RegRead {
  uint32_t addr = 0;
  uint32_t mask = 0xffffffffu;
  std::optional<uint32_t> expect;
  std::string what;  // e.g. "reset BDMA.STATUS"
};

// Wait until GLB S_INTR_STATUS has all of status_bits set (0 timeout: the runner's default).
struct WaitIntr {
  uint32_t status_bits = 0;
  uint64_t timeout_cycles = 0;
};

struct Idle {
  uint32_t cycles = 0;
};

using ProgramOp = std::variant<MemLoad, RegWrite, RegRead, WaitIntr, Idle>;

struct Program {
  std::string test;
  std::string config;
  uint64_t seed = 0;
  std::vector<ProgramOp> ops;
  std::vector<std::string> notes;  // human-readable description of what was generated
};

}  // namespace dla
