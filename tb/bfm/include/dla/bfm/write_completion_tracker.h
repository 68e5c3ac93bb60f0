#pragma once
// Tracks, on one AXI port, the write bursts the DUT issued whose B response has not arrived.
// NVDLA's done interrupt means an operation's results are in memory, and on AXI a write is
// only done once its B response is back. A check of an operation's output made at its done
// interrupt asks this tracker whether a write to that output is still unacknowledged
// (`pending_in`): the data may already sit in the testbench memory (it is stored at the W
// beat), so only this query sees a completion reported before the B response.
//
// B responses are matched per ID in AW order (AXI orders responses within one ID); protocol
// errors such as a B without a write are the AxiProtocolChecker's to report.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "dla/bfm/axi_ports.h"

namespace dla::tb {

struct PendingWrite {
  uint8_t id = 0;
  uint64_t addr = 0;       // AWADDR
  uint64_t bytes = 0;      // (AWLEN + 1) * bus width
  uint64_t issued_cycle = 0;  // cycle of the AW handshake

  // "AWID 5 at 0x1000 (+0x40), issued @120"
  std::string to_string() const;
};

class WriteCompletionTracker {
 public:
  WriteCompletionTracker(std::string port_name, unsigned data_bytes);

  // Feed the same (master, slave) snapshot the AxiProtocolChecker gets, every cycle.
  void observe(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s);

  // The oldest write burst overlapping [addr, addr + size) that still lacks its B response.
  std::optional<PendingWrite> pending_in(uint64_t addr, uint64_t size) const;
  uint64_t pending() const { return pending_; }
  const std::string& port_name() const { return port_; }

 private:
  std::string port_;
  unsigned data_bytes_;
  std::vector<std::deque<PendingWrite>> by_id_;  // index = AWID
  uint64_t pending_ = 0;
};

}  // namespace dla::tb
