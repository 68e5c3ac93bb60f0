#include "dla/bfm/csb_master.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "dla/bfm/seed.h"

namespace dla::tb {
namespace {

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

}  // namespace

CsbMaster::CsbMaster(uint64_t seed, CsbMasterConfig config)
    : config_(config),
      rng_(seed),
      dont_care_rng_(derive_seed(seed, "csb.dont_care")),
      reads_in_flight_(config.max_reads_in_flight + 1) {
  if (config_.max_reads_in_flight == 0) {
    throw std::invalid_argument("CsbMaster: max_reads_in_flight must be >= 1");
  }
  gap_left_ = static_cast<unsigned>(draw_between(rng_, 0, config_.max_gap_cycles));
}

void CsbMaster::check_address(uint32_t byte_addr) {
  if (byte_addr % 4 != 0) {
    throw std::invalid_argument("CSB byte address " + hex(byte_addr) + " is not 4-byte aligned");
  }
  if (byte_addr >= kCsbByteAddressLimit) {
    throw std::invalid_argument("CSB byte address " + hex(byte_addr) + " is beyond the 16-bit word address space");
  }
}

void CsbMaster::write(uint32_t byte_addr, uint32_t data, bool nposted) {
  check_address(byte_addr);
  queue_.push_back({byte_addr, data, true, nposted, 0});
  ++writes_queued_;
}

CsbMaster::Ticket CsbMaster::read(uint32_t byte_addr) {
  check_address(byte_addr);
  const Ticket t = results_.size();
  results_.emplace_back();
  queue_.push_back({byte_addr, 0, false, false, t});
  return t;
}

bool CsbMaster::read_done(Ticket t) const { return t < results_.size() && results_[t].has_value(); }

uint32_t CsbMaster::read_result(Ticket t) const {
  if (t >= results_.size()) throw std::logic_error("CsbMaster::read_result: unknown ticket " + std::to_string(t));
  if (!results_[t]) throw std::logic_error("CsbMaster::read_result: read " + std::to_string(t) + " not done");
  return *results_[t];
}

std::optional<uint32_t> CsbMaster::oldest_pending_address() const {
  if (!reads_in_flight_.empty()) return reads_in_flight_.front().byte_addr;
  if (!nposted_addresses_.empty()) return nposted_addresses_.front();
  if (!queue_.empty()) return queue_.front().byte_addr;
  return std::nullopt;
}

void CsbMaster::report(uint64_t cycle, ProtocolRule rule, std::string detail) {
  violations_.push_back({rule, cycle, "csb", BusChannel::CsbResponse, std::move(detail)});
}

void CsbMaster::tick(uint64_t cycle, const CsbSlaveOut& in, CsbMasterOut& out) {
  const bool req_fire = out_.valid && in.ready;
  last_activity_ = req_fire || in.rvalid || in.wr_complete;
  if (req_fire) {
    const Request& r = queue_.front();
    if (!r.write) {
      reads_in_flight_.push({r.ticket, r.byte_addr});
      ++stats_.reads;
    } else {
      ++stats_.writes;
      write_cycles_.push_back(cycle);
      if (r.nposted) {
        ++nposted_in_flight_;
        nposted_addresses_.push(r.byte_addr);
        ++stats_.nposted_writes;
      }
    }
    queue_.pop_front();
    gap_left_ = static_cast<unsigned>(draw_between(rng_, 0, config_.max_gap_cycles));
  }
  // Responses after the request of this edge: a DUT may answer in the cycle it accepts.
  if (in.rvalid) {
    if (reads_in_flight_.empty()) {
      report(cycle, ProtocolRule::CsbReadDataWithoutRead,
             "nvdla2csb_valid with data " + hex(in.rdata) + " but no read outstanding");
    } else {
      results_[reads_in_flight_.front().ticket] = in.rdata;
      reads_in_flight_.pop();
      ++stats_.read_data;
    }
  }
  if (in.wr_complete) {
    if (nposted_in_flight_ == 0) {
      report(cycle, ProtocolRule::CsbCompletionWithoutWrite,
             "nvdla2csb_wr_complete with no non-posted write outstanding");
    } else {
      --nposted_in_flight_;
      nposted_addresses_.pop();
      ++stats_.completions;
    }
  }

  if (!(out_.valid && !req_fire)) {  // a request on the bus stays until accepted
    out_.valid = false;
    if (gap_left_ > 0) {
      --gap_left_;
    } else if (!queue_.empty()) {
      const Request& r = queue_.front();
      if (r.write || reads_in_flight_.size() < config_.max_reads_in_flight) {
        out_.valid = true;
        out_.addr = static_cast<uint16_t>(r.byte_addr >> 2);
        out_.wdat = r.write ? r.data : 0;
        out_.write = r.write;
        out_.nposted = r.write && r.nposted;
        last_addr_ = out_.addr;
        if (!r.write && config_.randomize_dont_care) {  // a read's data and nposted are ignored
          const uint64_t x = dont_care_rng_();
          out_.wdat = static_cast<uint32_t>(x);
          out_.nposted = (x >> 32) & 1;
        }
      }
    }
    if (!out_.valid && config_.randomize_dont_care) {
      // Nothing on the bus: every field is ignored. The address is mostly the last or the next
      // request's (a random one would almost never hit a register), the rest random.
      const uint64_t x = dont_care_rng_();
      const unsigned pick = (x >> 50) & 3;
      if (pick == 0 && !queue_.empty()) out_.addr = static_cast<uint16_t>(queue_.front().byte_addr >> 2);
      else if (pick == 3) out_.addr = static_cast<uint16_t>(x & 0xffff);
      else out_.addr = last_addr_;
      out_.wdat = static_cast<uint32_t>(x >> 16);
      out_.write = (x >> 48) & 1;
      out_.nposted = (x >> 49) & 1;
    }
  }
  out = out_;
}

}  // namespace dla::tb
