#pragma once
// Read-footprint checker for one NVDLA memory port: a DMA read may only fetch bus beats that
// hold data somebody put there, i.e. bytes the test loaded (the layer's inputs) or bytes the
// DUT wrote earlier (the outputs of earlier layers). A read burst with a beat whose bytes were
// all never initialised fetches memory outside every input surface: an address or length bug
// that the result compare cannot see when the unit masks the extra lanes or atoms away.
//
// The unit of the rule is the bus beat, not the byte: NVDLA's DMAs read whole beats and atoms
// and drop the lanes outside the surface, so a beat with at least one initialised byte is
// legal. Checked once per burst, at its AR handshake, against the port's memory as it is then
// (a read of data that is only written later is a read-before-write race, also reported).
#include <cstdint>
#include <string>
#include <vector>

#include "dla/bfm/axi_ports.h"
#include "dla/bfm/protocol_violation.h"
#include "dla/sparse_memory.h"

namespace dla::tb {

class UninitialisedReadChecker {
 public:
  // `memory` is the port's memory (it must outlive the checker); data_bytes = the bus width.
  UninitialisedReadChecker(std::string port_name, unsigned data_bytes, const SparseMemory& memory,
                           size_t max_records = 1000);

  // Feed the same (master, slave) snapshot the AxiProtocolChecker gets, every cycle.
  void observe(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s);

  const std::vector<ProtocolViolation>& violations() const { return violations_; }
  uint64_t violation_count() const { return violation_count_; }  // including unrecorded ones
  uint64_t bursts_checked() const { return bursts_checked_; }
  uint64_t uninitialised_beats() const { return uninitialised_beats_; }

 private:
  bool beat_initialised(uint64_t beat_addr) const;

  std::string port_;
  unsigned data_bytes_;
  const SparseMemory& memory_;
  size_t max_records_;
  std::vector<ProtocolViolation> violations_;
  uint64_t violation_count_ = 0;
  uint64_t bursts_checked_ = 0;
  uint64_t uninitialised_beats_ = 0;
};

}  // namespace dla::tb
