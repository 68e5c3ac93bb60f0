#include "dla/bfm/axi_slave_memory.h"

#include "dla/bfm/seed.h"

namespace dla::tb {

AxiSlaveMemory::AxiSlaveMemory(SparseMemory& memory, unsigned data_bytes, const AxiTiming& timing,
                               uint64_t seed)
    : memory_(memory),
      data_bytes_(data_bytes),
      timing_(timing),
      rng_(seed),
      aw_gate_(timing.aw_ready),
      w_gate_(timing.w_ready),
      ar_gate_(timing.ar_ready),
      r_gate_(timing.r_valid),
      b_gate_(timing.b_valid),
      reads_(timing.max_outstanding_reads),
      write_data_(timing.max_outstanding_writes),
      write_resp_(timing.max_outstanding_writes) {
  validate_axi_data_bytes(data_bytes, "AxiSlaveMemory");
  timing_.validate();
}

uint64_t AxiSlaveMemory::draw_latency(uint32_t lo, uint32_t hi) { return draw_between(rng_, lo, hi); }

void AxiSlaveMemory::accept_write_beat(const AxiMasterOut& in) {
  if (write_data_.empty()) return;  // W without AW: the protocol checker reports it
  WriteBurst& burst = write_data_.front();
  std::array<uint8_t, kMaxAxiDataBytes> enables{};
  uint64_t enabled = 0;
  for (unsigned i = 0; i < data_bytes_; ++i) {
    enables[i] = static_cast<uint8_t>((in.wstrb >> i) & 1u);
    enabled += enables[i];
  }
  memory_.write_masked(burst.base + uint64_t{burst.beats_done} * data_bytes_, in.wdata.data(), data_bytes_,
                       enables.data());
  ++stats_.write_beats;
  stats_.bytes_written += enabled;
  // The burst length comes from AW; a wrong WLAST is the checker's business.
  if (++burst.beats_done == burst.beats) {
    write_resp_.push({burst.id, cycle_ + 1 + draw_latency(timing_.write_latency_min, timing_.write_latency_max)});
    write_data_.pop();
  }
}

void AxiSlaveMemory::present_read_beat() {
  const ReadBurst& burst = reads_.front();
  out_.rvalid = true;
  out_.rid = burst.id;
  out_.rlast = burst.next_beat + 1 == burst.beats;
  memory_.read(burst.base + uint64_t{burst.next_beat} * data_bytes_, out_.rdata.data(), data_bytes_);
}

void AxiSlaveMemory::tick(const AxiMasterOut& in, AxiSlaveOut& out) {
  const uint64_t align_mask = ~uint64_t{data_bytes_ - 1};
  const bool aw_fire = in.awvalid && out_.awready;
  const bool w_fire = in.wvalid && out_.wready;
  const bool b_fire = out_.bvalid && in.bready;
  const bool ar_fire = in.arvalid && out_.arready;
  const bool r_fire = out_.rvalid && in.rready;
  last_handshake_ = aw_fire || w_fire || b_fire || ar_fire || r_fire;
  // What the slave withholds in this cycle (state before the edge's handshakes).
  if ((in.arvalid && !out_.arready) || (!reads_.empty() && !out_.rvalid)) ++stats_.read_withheld_cycles;
  // Latency: the oldest read's first beat is not due yet (later beats are never held by latency).
  if (!(in.arvalid && !out_.arready) && !reads_.empty() && !out_.rvalid && reads_.front().ready_cycle > cycle_)
    ++stats_.read_latency_cycles;
  if ((in.awvalid && !out_.awready) || (in.wvalid && !out_.wready) || (!write_resp_.empty() && !out_.bvalid))
    ++stats_.write_withheld_cycles;

  // Handshakes of this edge. B and R first: a response never belongs to a request of the same edge.
  if (b_fire) write_resp_.pop();
  if (r_fire) {
    ReadBurst& burst = reads_.front();
    ++stats_.read_beats;
    stats_.bytes_read += data_bytes_;
    if (++burst.next_beat == burst.beats) reads_.pop();
  }
  if (aw_fire) {
    write_data_.push({in.awid, in.awaddr & align_mask, uint32_t{in.awlen} + 1u, 0});
    ++stats_.write_bursts;
  }
  if (w_fire) accept_write_beat(in);
  if (ar_fire) {
    reads_.push({in.arid, in.araddr & align_mask, uint32_t{in.arlen} + 1u, 0,
                 cycle_ + 1 + draw_latency(timing_.read_latency_min, timing_.read_latency_max)});
    ++stats_.read_bursts;
  }

  const bool busy = !idle() || in.awvalid || in.wvalid || in.arvalid || last_handshake_;
  ++stats_.cycles;
  stats_.busy_cycles += busy ? 1 : 0;
  ++cycle_;

  // Outputs for the next edge. Gates step every cycle so that timing depends only on the seed
  // and the cycle, not on how often a channel was used.
  const bool aw_open = aw_gate_.step(rng_);
  const bool w_open = w_gate_.step(rng_);
  const bool ar_open = ar_gate_.step(rng_);
  const bool r_open = r_gate_.step(rng_);
  const bool b_open = b_gate_.step(rng_);

  out_.awready = aw_open && outstanding_writes() < timing_.max_outstanding_writes;
  out_.wready = w_open && !write_data_.empty();
  out_.arready = ar_open && reads_.size() < timing_.max_outstanding_reads;

  if (!(out_.bvalid && !b_fire)) {  // a B beat on the bus stays until taken
    out_.bvalid = !write_resp_.empty() && write_resp_.front().ready_cycle <= cycle_ && b_open;
    out_.bid = out_.bvalid ? write_resp_.front().id : 0;
  }
  if (!(out_.rvalid && !r_fire)) {  // an R beat on the bus stays until taken
    if (!reads_.empty() && reads_.front().ready_cycle <= cycle_ && r_open) {
      present_read_beat();
    } else {
      out_.rvalid = false;
      out_.rlast = false;
    }
  }
  out = out_;
}

}  // namespace dla::tb
