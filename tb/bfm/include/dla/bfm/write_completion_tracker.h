#pragma once
// Tracks, on one AXI port, the write bursts the DUT issued whose B response has not arrived.
// NVDLA's done interrupt means an operation's results are in memory, and on AXI a write is
// only done once its B response is back. A check of an operation's output made at its done
// interrupt asks this tracker whether a write to that output is still unacknowledged
// (`pending_in`): the data may already sit in the testbench memory (it is stored at the W
// beat), so only this query sees a completion reported before the B response.
//
// B responses are matched per ID in AW order (AXI orders responses within one ID); protocol
// errors such as a B without a write are the AxiProtocolChecker's to report. W beats follow AW
// order (AXI4 has no WID): once all of a burst's beats are seen, it covers only the bytes its
// write strobes enabled, so a burst that shares its first or last bus beat with a neighbouring
// output (masked bytes) does not count as a write to that output.
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
  unsigned beats = 0, beats_seen = 0;     // W beats of the burst, and those handshaken so far
  uint64_t strobed_lo = ~uint64_t{0}, strobed_hi = 0;  // bytes enabled by the seen beats' WSTRB
  // What the burst may still write: its strobed bytes once every beat is seen, else all of it.
  bool overlaps(uint64_t a, uint64_t size) const;

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
  void take_beat(PendingWrite& w, uint64_t strb);
  std::vector<std::deque<PendingWrite>> by_id_;  // index = AWID
  std::deque<PendingWrite*> w_order_;            // bursts awaiting W beats, AW order
  std::deque<uint64_t> early_strobes_;           // W beats seen before their AW
  uint64_t pending_ = 0;
};

}  // namespace dla::tb
