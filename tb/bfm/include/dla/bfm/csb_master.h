#pragma once
// CSB master BFM: queued register writes (posted / non-posted) and reads, random gaps between
// requests, in-order read data and non-posted completion accounting. Fields the slave must
// ignore carry seeded random values (address, data and direction while valid is low; data and
// nposted of a read), so a decode that forgets the valid or the direction acts on garbage.
//
// Clocking contract: like AxiSlaveMemory::tick(): `in` holds the DUT's CSB outputs settled just
// before the clock edge; the request handshake of that edge is valid && ready; `out` receives
// what the master drives after the edge.
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "dla/bfm/csb_ports.h"
#include "dla/bfm/fifo.h"
#include "dla/bfm/protocol_violation.h"

namespace dla::tb {

struct CsbMasterConfig {
  unsigned max_gap_cycles = 3;        // idle cycles drawn in [0, max] after each request
  unsigned max_reads_in_flight = 4;   // reads issued whose data has not returned
  bool randomize_dont_care = true;    // random values in ignored fields (else held / zero)
};

struct CsbStats {
  uint64_t writes = 0;  // issued (handshaked)
  uint64_t nposted_writes = 0;
  uint64_t reads = 0;
  uint64_t completions = 0;  // nvdla2csb_wr_complete pulses matched to a non-posted write
  uint64_t read_data = 0;    // nvdla2csb_valid pulses matched to a read
};

class CsbMaster {
 public:
  using Ticket = uint64_t;

  explicit CsbMaster(uint64_t seed, CsbMasterConfig config = {});

  // Queue requests; they are issued in call order. Throw std::invalid_argument for a byte
  // address that is not 4-byte aligned or beyond the 16-bit word address space.
  void write(uint32_t byte_addr, uint32_t data, bool nposted = false);
  Ticket read(uint32_t byte_addr);

  void tick(uint64_t cycle, const CsbSlaveOut& in, CsbMasterOut& out);

  // No queued request, no read data and no non-posted completion outstanding.
  bool idle() const { return queue_.empty() && !out_.valid && reads_in_flight_.empty() && nposted_in_flight_ == 0; }
  bool read_done(Ticket t) const;
  uint32_t read_result(Ticket t) const;  // throws std::logic_error if not done / unknown ticket

  size_t queued() const { return queue_.size(); }  // not yet handshaked (incl. the one on the bus)
  size_t reads_in_flight() const { return reads_in_flight_.size(); }
  uint64_t nposted_in_flight() const { return nposted_in_flight_; }
  // Byte address of the oldest request not yet completed (queued or in flight), if any.
  std::optional<uint32_t> oldest_pending_address() const;
  bool handshake_at_last_tick() const { return last_activity_; }
  const CsbMasterOut& outputs() const { return out_; }
  const std::vector<ProtocolViolation>& violations() const { return violations_; }
  const CsbStats& stats() const { return stats_; }
  // Writes queued so far (write() calls), and the cycle the n-th of them (0-based) was issued
  // on the bus; nullopt while it is still queued.
  uint64_t writes_queued() const { return writes_queued_; }
  std::optional<uint64_t> write_issue_cycle(uint64_t n) const {
    return n < write_cycles_.size() ? std::optional<uint64_t>(write_cycles_[n]) : std::nullopt;
  }

 private:
  struct Request {
    uint32_t byte_addr = 0;
    uint32_t data = 0;
    bool write = false;
    bool nposted = false;
    Ticket ticket = 0;
  };
  struct InFlightRead {
    Ticket ticket = 0;
    uint32_t byte_addr = 0;
  };
  static void check_address(uint32_t byte_addr);
  void report(uint64_t cycle, ProtocolRule rule, std::string detail);

  CsbMasterConfig config_;
  std::mt19937_64 rng_;
  std::mt19937_64 dont_care_rng_;  // own stream: the gaps drawn from rng_ do not change with it
  std::deque<Request> queue_;  // front is on the bus when out_.valid
  Fifo<InFlightRead> reads_in_flight_;
  Fifo<uint32_t> nposted_addresses_;
  uint64_t nposted_in_flight_ = 0;
  std::vector<std::optional<uint32_t>> results_;  // indexed by ticket
  unsigned gap_left_ = 0;
  uint16_t last_addr_ = 0;  // word address of the last request put on the bus
  CsbMasterOut out_;
  bool last_activity_ = false;
  std::vector<ProtocolViolation> violations_;
  CsbStats stats_;
  uint64_t writes_queued_ = 0;
  std::vector<uint64_t> write_cycles_;  // issue cycle of each write, in order
};

}  // namespace dla::tb
