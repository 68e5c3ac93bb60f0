#pragma once
// A small reference AXI master for the BFM tests: issues queued read and write bursts in
// order, with seeded READY throttling on R and B, and optional planted protocol faults.
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "dla/bfm/axi_ports.h"

namespace dla::tb::test {

enum class MasterFault { None, ChangeAwAddrWhileWaiting, DropAwValid, NoWlast, ExtraWBeat };

struct ReadBeat {
  uint8_t id;
  bool last;
  std::vector<uint8_t> data;
};

class TestAxiMaster {
 public:
  TestAxiMaster(unsigned data_bytes, uint64_t seed, double ready_probability = 1.0,
                MasterFault fault = MasterFault::None)
      : bytes_(data_bytes), rng_(seed), ready_p_(ready_probability), fault_(fault) {
    next_outputs();
  }

  void queue_write(uint8_t id, uint64_t addr, const std::vector<uint8_t>& data, uint64_t strobe = ~uint64_t{0}) {
    Write w{id, addr, static_cast<unsigned>(data.size() / bytes_), data, strobe};
    writes_.push_back(w);
    wdata_.push_back(w);
  }
  void queue_read(uint8_t id, uint64_t addr, unsigned beats) { reads_.push_back({id, addr, beats}); }

  const AxiMasterOut& out() const { return m_; }

  // Handshakes of this edge given the slave outputs seen before it; then the next outputs.
  void edge(const AxiSlaveOut& s) {
    if (m_.awvalid && s.awready) {
      writes_.pop_front();
      aw_waited_ = 0;
    } else if (m_.awvalid) {
      ++aw_waited_;
    }
    if (m_.wvalid && s.wready) {
      ++w_beat_;
      const unsigned beats = wdata_.empty() ? 0 : wdata_.front().beats + (fault_ == MasterFault::ExtraWBeat ? 1 : 0);
      if (!wdata_.empty() && w_beat_ == beats) {
        wdata_.pop_front();
        w_beat_ = 0;
      }
    }
    if (m_.arvalid && s.arready) {
      read_ids_issued.push_back(m_.arid);
      reads_.pop_front();
    }
    if (m_.rready && s.rvalid) {
      read_beats.push_back({s.rid, s.rlast, std::vector<uint8_t>(s.rdata.begin(), s.rdata.begin() + bytes_)});
    }
    if (m_.bready && s.bvalid) b_ids.push_back(s.bid);
    next_outputs();
  }

  bool done(size_t expected_reads_beats, size_t expected_b) const {
    return writes_.empty() && wdata_.empty() && reads_.empty() && read_beats.size() >= expected_reads_beats &&
           b_ids.size() >= expected_b;
  }

  std::vector<ReadBeat> read_beats;
  std::vector<uint8_t> read_ids_issued;
  std::vector<uint8_t> b_ids;

 private:
  struct Write {
    uint8_t id;
    uint64_t addr;
    unsigned beats;
    std::vector<uint8_t> data;
    uint64_t strobe;
  };
  struct Read {
    uint8_t id;
    uint64_t addr;
    unsigned beats;
  };

  bool coin() { return std::uniform_real_distribution<double>(0, 1)(rng_) < ready_p_; }

  void next_outputs() {
    m_.awvalid = !writes_.empty();
    if (m_.awvalid) {
      m_.awid = writes_.front().id;
      m_.awaddr = writes_.front().addr;
      m_.awlen = static_cast<uint8_t>(writes_.front().beats - 1);
      if (fault_ == MasterFault::ChangeAwAddrWhileWaiting && aw_waited_ > 0) m_.awaddr += bytes_;
      if (fault_ == MasterFault::DropAwValid && aw_waited_ == 1) m_.awvalid = false;
    }
    m_.wvalid = !wdata_.empty();
    if (m_.wvalid) {
      const Write& w = wdata_.front();
      const unsigned beat = w_beat_ < w.beats ? w_beat_ : w.beats - 1;  // an extra beat repeats the last
      for (unsigned i = 0; i < bytes_; ++i) m_.wdata[i] = w.data[beat * bytes_ + i];
      m_.wstrb = w.strobe;
      m_.wlast = fault_ == MasterFault::NoWlast ? false : w_beat_ + 1 >= w.beats;
    }
    m_.arvalid = !reads_.empty();
    if (m_.arvalid) {
      m_.arid = reads_.front().id;
      m_.araddr = reads_.front().addr;
      m_.arlen = static_cast<uint8_t>(reads_.front().beats - 1);
    }
    m_.rready = coin();
    m_.bready = coin();
  }

  unsigned bytes_;
  std::mt19937_64 rng_;
  double ready_p_;
  MasterFault fault_;
  AxiMasterOut m_;
  std::deque<Write> writes_;  // AW not yet accepted
  std::deque<Write> wdata_;   // data not yet sent
  std::deque<Read> reads_;
  unsigned w_beat_ = 0;
  unsigned aw_waited_ = 0;
};

}  // namespace dla::tb::test
