#pragma once
// Always-on AXI4 checker for one NVDLA memory port. It only observes: feed it, every cycle, the
// master and slave snapshots that the coming clock edge will see (the same values the
// AxiSlaveMemory::tick() call of that edge gets, plus the slave outputs applied before it).
//
// Rules: VALID held until READY and payload stable meanwhile (all five channels); AxADDR aligned
// to the bus width; bursts within max_burst_beats and not crossing 4 KiB; WLAST exactly on the
// last beat; no W beat beyond the bursts accepted on AW (at or before the same edge); B only
// after the last W beat of a burst and in AW order; R only for outstanding reads, in AR order
// (NVDLA expects in-order responses across IDs), RLAST exactly on the last beat.
#include <cstdint>
#include <string>
#include <vector>

#include "dla/bfm/axi_ports.h"
#include "dla/bfm/fifo.h"
#include "dla/bfm/protocol_violation.h"

namespace dla::tb {

class AxiProtocolChecker {
 public:
  AxiProtocolChecker(std::string port_name, unsigned data_bytes, unsigned max_burst_beats = 16,
                     size_t max_records = 1000);

  void observe(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s);

  const std::vector<ProtocolViolation>& violations() const { return violations_; }
  uint64_t violation_count() const { return violation_count_; }  // including unrecorded ones
  uint64_t reads_outstanding() const { return reads_.size(); }
  uint64_t write_bursts_awaiting_data() const { return writes_.size(); }
  uint64_t write_responses_outstanding() const { return responses_.size(); }

 private:
  struct Burst {
    uint8_t id = 0;
    uint32_t beats = 0;
    uint32_t done = 0;
  };
  void report(uint64_t cycle, ProtocolRule rule, BusChannel ch, std::string detail);
  void check_stability(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s);
  void check_request(uint64_t cycle, BusChannel ch, uint64_t addr, uint8_t len);
  void on_w_beat(uint64_t cycle, const AxiMasterOut& m);
  void on_b(uint64_t cycle, const AxiSlaveOut& s);
  void on_r_beat(uint64_t cycle, const AxiSlaveOut& s);
  bool same_wdata(const AxiMasterOut& a, const AxiMasterOut& b) const;
  bool same_rdata(const AxiSlaveOut& a, const AxiSlaveOut& b) const;

  std::string port_;
  unsigned data_bytes_;
  unsigned max_burst_beats_;
  size_t max_records_;
  uint64_t strobe_mask_;
  bool have_prev_ = false;
  AxiMasterOut prev_m_;
  AxiSlaveOut prev_s_;
  Fifo<Burst> writes_;     // accepted on AW, data not complete
  Fifo<uint8_t> responses_;  // data complete, B not yet seen (IDs in order)
  Fifo<Burst> reads_;      // accepted on AR, last R beat not yet seen
  std::vector<ProtocolViolation> violations_;
  uint64_t violation_count_ = 0;
};

}  // namespace dla::tb
