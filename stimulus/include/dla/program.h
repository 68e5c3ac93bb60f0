// A test program: the contract consumed identically by the golden model and the RTL
// testbench. Memory loads, CSB register writes and reads, interrupt waits and idle time,
// in order; plus the checks NVDLA traces carry (polls, CRCs, memory compares).
// docs/traces.md says how each op is played on the golden model and on the RTL.
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

// Preload `size` bytes with one value, or with the low byte of each address
// (trace mem_init patterns; no dense buffer in the program).
struct MemFill {
  MemPort port = MemPort::Dbb;
  uint64_t addr = 0;
  uint64_t size = 0;
  uint8_t value = 0;
  bool address_byte = false;  // byte at address a is (a & 0xff); `value` unused
};

struct RegWrite {
  uint32_t addr = 0;  // CSB byte address
  uint32_t data = 0;
  bool nposted = false;
};

// expect set: DUT and golden must both read (value & mask) == expect.
// expect unset: the DUT must read what the golden model reads, under mask.
// zero_ok: the DUT may also read 0. For a counter read while its layer runs: the hardware clears
// it at the arm and writes the count at the layer's end, the golden model (no timing) holds the
// count from the arm on, and the read may fall either side of the end.
struct RegRead {
  uint32_t addr = 0;
  uint32_t mask = 0xffffffffu;
  std::optional<uint32_t> expect;
  std::string what;  // e.g. "reset BDMA.STATUS"
  bool zero_ok = false;
};

// The value the DUT's read `dut` is compared with (under r.mask), the golden model reading `golden`.
inline uint32_t dut_read_expectation(const RegRead& r, uint32_t golden, uint32_t dut) {
  if (r.zero_ok && (dut & r.mask) == 0) return 0;
  return r.expect ? *r.expect : golden;
}

// Wait until GLB S_INTR_STATUS has all of status_bits set (0 timeout: the runner's default).
struct WaitIntr {
  uint32_t status_bits = 0;
  uint64_t timeout_cycles = 0;
  std::string what;  // names the wait in reports (e.g. the trace line); may be empty
};

// Wait until the interrupt line (STATUS & ~MASK) is high (trace `wait`).
struct WaitIntrLine {
  uint64_t timeout_cycles = 0;  // 0: the runner's default
  std::string what;
};

enum class RegCompare : uint8_t { Eq, Le, Ge };  // (value & mask) OP (expect & mask)

// Read a register until the comparison holds. The golden model has no timing, so it reads
// once; the DUT is read repeatedly until the comparison holds or the timeout passes.
struct PollReg {
  uint32_t addr = 0;  // CSB byte address
  uint32_t mask = 0xffffffffu;
  uint32_t expect = 0;
  RegCompare compare = RegCompare::Eq;
  uint64_t timeout_cycles = 0;  // 0: the runner's default
  std::string what;
};

// CRC-32 (zlib / IEEE 802.3) of `size` bytes from `addr` must equal `crc`, on the golden
// model's memory and on the DUT's.
struct CheckCrc {
  MemPort port = MemPort::Dbb;
  uint64_t addr = 0;
  uint64_t size = 0;
  uint32_t crc = 0;
  std::string what;
};

// The bytes at `addr` must equal `expect`, on the golden model's memory and on the DUT's.
struct CheckMem {
  MemPort port = MemPort::Dbb;
  uint64_t addr = 0;
  std::vector<uint8_t> expect;
  std::string what;
};

struct Idle {
  uint32_t cycles = 0;
};

using ProgramOp = std::variant<MemLoad, RegWrite, RegRead, WaitIntr, Idle, MemFill, PollReg,
                               WaitIntrLine, CheckCrc, CheckMem>;

struct Program {
  std::string test;
  std::string config;
  uint64_t seed = 0;
  std::vector<ProgramOp> ops;
  std::vector<std::string> notes;  // human-readable description of what was generated
};

}  // namespace dla
