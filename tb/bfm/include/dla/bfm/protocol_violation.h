#pragma once
// Structured record of a bus protocol violation, shared by the AXI and CSB checkers.
#include <cstdint>
#include <string>

namespace dla::tb {

enum class ProtocolRule : uint8_t {
  ValidDropped,        // VALID deasserted before READY
  PayloadUnstable,     // payload changed while VALID && !READY
  UnalignedAddress,    // AxADDR not aligned to the bus width
  Crosses4K,           // burst crosses a 4 KiB boundary
  BurstTooLong,        // more beats than the configuration allows (16)
  WlastMismatch,       // WLAST not exactly on the last beat of the burst
  WWithoutAw,          // W beat beyond the bursts announced on AW
  BWithoutWrite,       // B response with no completed write burst
  BOutOfOrder,         // BID differs from the oldest completed write burst
  RWithoutRead,        // R beat with no outstanding read
  ROutOfOrder,         // RID differs from the oldest outstanding read
  RlastMismatch,       // RLAST not exactly on the last beat of the burst
  CsbReadDataWithoutRead,   // nvdla2csb_valid with no read outstanding
  CsbCompletionWithoutWrite, // nvdla2csb_wr_complete with no non-posted write outstanding
  ReadUninitialised    // AXI read of a beat no test load or DUT write initialised
};

enum class BusChannel : uint8_t { AW, W, B, AR, R, CsbRequest, CsbResponse };

const char* to_string(ProtocolRule rule);
const char* to_string(BusChannel channel);

struct ProtocolViolation {
  ProtocolRule rule;
  uint64_t cycle;    // clock edge at which the violation was observed
  std::string port;  // e.g. "axi.dbb", "axi.sram", "csb"
  BusChannel channel;
  std::string detail;

  // One line: "<port>.<channel> <rule> @<cycle>: <detail>"
  std::string to_string() const;
};

}  // namespace dla::tb
