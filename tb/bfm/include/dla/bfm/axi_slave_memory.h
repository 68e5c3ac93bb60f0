#pragma once
// AXI4 slave BFM backed by a dla::SparseMemory (one instance per DUT memory port).
//
// Clocking contract (see docs/testbench.md): call tick() once per rising clock edge with the
// DUT outputs as they are settled *just before* that edge (i.e. with the slave outputs of the
// previous tick applied). tick() evaluates the handshakes that happen at the edge (VALID &&
// READY as seen before the edge), advances its state one cycle and writes the values the
// slave drives *after* the edge into `out`; the harness applies them after the posedge eval.
#include <cstdint>
#include <random>
#include <string>

#include "dla/bfm/axi_ports.h"
#include "dla/bfm/axi_timing.h"
#include "dla/bfm/fifo.h"
#include "dla/sparse_memory.h"

namespace dla::tb {

struct AxiMemoryStats {
  uint64_t cycles = 0;
  uint64_t busy_cycles = 0;  // cycles with a request, a beat or a response in flight
  uint64_t read_bursts = 0;
  uint64_t write_bursts = 0;
  uint64_t read_beats = 0;
  uint64_t write_beats = 0;
  uint64_t bytes_read = 0;     // read beats x bus width
  uint64_t bytes_written = 0;  // bytes with their strobe set
  // Cycles the slave withheld something the master was waiting for (the performance budget's
  // and the stall-counter bounds' measure of a slow memory, docs/scoreboard.md). Read side: an
  // ARVALID without ARREADY, or a read burst accepted whose next R beat is not presented. Write
  // side: an AWVALID without AWREADY, a WVALID without WREADY, or a write whose B is owed and
  // not presented. Zero on the `fast` profile but for B's one-cycle turnaround.
  uint64_t read_withheld_cycles = 0;
  uint64_t write_withheld_cycles = 0;
  // The part of read_withheld_cycles that is read latency: a read burst is owed, the oldest
  // one's first beat is not due yet, and no AR waits for READY. A master that keeps several
  // reads in flight overlaps these cycles; one that serializes its reads pays each burst's
  // latency in full (the performance budget's latency term, docs/scoreboard.md).
  uint64_t read_latency_cycles = 0;
};

class AxiSlaveMemory {
 public:
  AxiSlaveMemory(SparseMemory& memory, unsigned data_bytes, const AxiTiming& timing, uint64_t seed);

  void tick(const AxiMasterOut& in, AxiSlaveOut& out);

  const AxiSlaveOut& outputs() const { return out_; }  // what the slave drives now
  unsigned data_bytes() const { return data_bytes_; }
  uint32_t outstanding_reads() const { return static_cast<uint32_t>(reads_.size()); }
  uint32_t outstanding_writes() const {
    return static_cast<uint32_t>(write_data_.size() + write_resp_.size());
  }
  uint32_t write_bursts_awaiting_data() const { return static_cast<uint32_t>(write_data_.size()); }
  bool idle() const { return reads_.empty() && write_data_.empty() && write_resp_.empty(); }
  // True if a handshake happened at the last tick (used as watchdog progress).
  bool handshake_at_last_tick() const { return last_handshake_; }
  const AxiMemoryStats& stats() const { return stats_; }

 private:
  struct ReadBurst {
    uint8_t id = 0;
    uint64_t base = 0;  // aligned address of beat 0
    uint32_t beats = 0;
    uint32_t next_beat = 0;
    uint64_t ready_cycle = 0;
  };
  struct WriteBurst {
    uint8_t id = 0;
    uint64_t base = 0;
    uint32_t beats = 0;
    uint32_t beats_done = 0;
  };
  struct WriteResponse {
    uint8_t id = 0;
    uint64_t ready_cycle = 0;
  };

  void accept_write_beat(const AxiMasterOut& in);
  void present_read_beat();
  uint64_t draw_latency(uint32_t lo, uint32_t hi) ;

  SparseMemory& memory_;
  unsigned data_bytes_;
  AxiTiming timing_;
  std::mt19937_64 rng_;
  ThrottleState aw_gate_, w_gate_, ar_gate_, r_gate_, b_gate_;
  Fifo<ReadBurst> reads_;
  Fifo<WriteBurst> write_data_;
  Fifo<WriteResponse> write_resp_;
  AxiSlaveOut out_;
  uint64_t cycle_ = 0;
  bool last_handshake_ = false;
  AxiMemoryStats stats_;
};

}  // namespace dla::tb
