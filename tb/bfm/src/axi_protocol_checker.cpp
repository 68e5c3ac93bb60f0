#include "dla/bfm/axi_protocol_checker.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace dla::tb {
namespace {

std::string hex(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 0xf]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}

}  // namespace

AxiProtocolChecker::AxiProtocolChecker(std::string port_name, unsigned data_bytes, unsigned max_burst_beats,
                                       size_t max_records)
    : port_(std::move(port_name)),
      data_bytes_(data_bytes),
      max_burst_beats_(max_burst_beats),
      max_records_(max_records),
      strobe_mask_(data_bytes >= 64 ? ~uint64_t{0} : (uint64_t{1} << data_bytes) - 1) {
  validate_axi_data_bytes(data_bytes, "AxiProtocolChecker");
  if (max_burst_beats == 0 || max_burst_beats > 256) {
    throw std::invalid_argument("AxiProtocolChecker: max_burst_beats must be in 1..256");
  }
  violations_.reserve(std::min<size_t>(max_records_, 64));
}

void AxiProtocolChecker::report(uint64_t cycle, ProtocolRule rule, BusChannel ch, std::string detail) {
  ++violation_count_;
  if (violations_.size() < max_records_) violations_.push_back({rule, cycle, port_, ch, std::move(detail)});
}

bool AxiProtocolChecker::same_wdata(const AxiMasterOut& a, const AxiMasterOut& b) const {
  return std::memcmp(a.wdata.data(), b.wdata.data(), data_bytes_) == 0 &&
         (a.wstrb & strobe_mask_) == (b.wstrb & strobe_mask_) && a.wlast == b.wlast;
}

bool AxiProtocolChecker::same_rdata(const AxiSlaveOut& a, const AxiSlaveOut& b) const {
  return std::memcmp(a.rdata.data(), b.rdata.data(), data_bytes_) == 0 && a.rid == b.rid && a.rlast == b.rlast;
}

void AxiProtocolChecker::check_stability(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s) {
  const AxiMasterOut& pm = prev_m_;
  const AxiSlaveOut& ps = prev_s_;
  // The payload comparison only runs while a channel waits (it is a lambda so the wide data
  // compare is skipped on all other cycles).
  auto held = [&](bool was_waiting, bool valid_now, BusChannel ch, const char* what, auto same_payload) {
    if (!was_waiting) return;
    if (!valid_now) {
      report(cycle, ProtocolRule::ValidDropped, ch, std::string(what) + " deasserted before READY");
    } else if (!same_payload()) {
      report(cycle, ProtocolRule::PayloadUnstable, ch, std::string(what) + " payload changed while waiting for READY");
    }
  };
  held(pm.awvalid && !ps.awready, m.awvalid, BusChannel::AW, "AWVALID",
       [&] { return m.awid == pm.awid && m.awlen == pm.awlen && m.awaddr == pm.awaddr; });
  held(pm.wvalid && !ps.wready, m.wvalid, BusChannel::W, "WVALID", [&] { return same_wdata(m, pm); });
  held(pm.arvalid && !ps.arready, m.arvalid, BusChannel::AR, "ARVALID",
       [&] { return m.arid == pm.arid && m.arlen == pm.arlen && m.araddr == pm.araddr; });
  held(ps.bvalid && !pm.bready, s.bvalid, BusChannel::B, "BVALID", [&] { return s.bid == ps.bid; });
  held(ps.rvalid && !pm.rready, s.rvalid, BusChannel::R, "RVALID", [&] { return same_rdata(s, ps); });
}

void AxiProtocolChecker::check_request(uint64_t cycle, BusChannel ch, uint64_t addr, uint8_t len) {
  const uint64_t beats = uint64_t{len} + 1;
  if (addr % data_bytes_ != 0) {
    report(cycle, ProtocolRule::UnalignedAddress, ch,
           "address " + hex(addr) + " not aligned to the " + std::to_string(data_bytes_) + "-byte bus");
  }
  if (beats > max_burst_beats_) {
    report(cycle, ProtocolRule::BurstTooLong, ch,
           std::to_string(beats) + " beats at " + hex(addr) + " exceed " + std::to_string(max_burst_beats_));
  }
  const uint64_t first_page = addr >> 12;
  const uint64_t last_page = (addr + beats * data_bytes_ - 1) >> 12;
  if (first_page != last_page) {
    report(cycle, ProtocolRule::Crosses4K, ch,
           std::to_string(beats) + " beats at " + hex(addr) + " cross the 4 KiB boundary " + hex(last_page << 12));
  }
}

void AxiProtocolChecker::on_w_beat(uint64_t cycle, const AxiMasterOut& m) {
  if (writes_.empty()) {
    report(cycle, ProtocolRule::WWithoutAw, BusChannel::W, "W beat with no burst accepted on AW");
    return;
  }
  Burst& burst = writes_.front();
  ++burst.done;
  const bool last = burst.done == burst.beats;
  if (m.wlast != last) {
    report(cycle, ProtocolRule::WlastMismatch, BusChannel::W,
           std::string(m.wlast ? "WLAST on" : "no WLAST on") + " beat " + std::to_string(burst.done) + " of " +
               std::to_string(burst.beats) + " (AWID " + std::to_string(burst.id) + ")");
  }
  if (last || m.wlast) {  // an early WLAST ends the burst as far as the master is concerned
    responses_.push(burst.id);
    writes_.pop();
  }
}

void AxiProtocolChecker::on_b(uint64_t cycle, const AxiSlaveOut& s) {
  if (responses_.empty()) {
    report(cycle, ProtocolRule::BWithoutWrite, BusChannel::B,
           "B (BID " + std::to_string(s.bid) + ") with no write burst whose data is complete");
    return;
  }
  if (s.bid != responses_.front()) {
    report(cycle, ProtocolRule::BOutOfOrder, BusChannel::B,
           "BID " + std::to_string(s.bid) + " but the oldest write is AWID " + std::to_string(responses_.front()));
  }
  responses_.pop();
}

void AxiProtocolChecker::on_r_beat(uint64_t cycle, const AxiSlaveOut& s) {
  if (reads_.empty()) {
    report(cycle, ProtocolRule::RWithoutRead, BusChannel::R,
           "R beat (RID " + std::to_string(s.rid) + ") with no read outstanding");
    return;
  }
  Burst& burst = reads_.front();
  if (s.rid != burst.id) {
    report(cycle, ProtocolRule::ROutOfOrder, BusChannel::R,
           "RID " + std::to_string(s.rid) + " but the oldest read is ARID " + std::to_string(burst.id));
  }
  ++burst.done;
  const bool last = burst.done == burst.beats;
  if (s.rlast != last) {
    report(cycle, ProtocolRule::RlastMismatch, BusChannel::R,
           std::string(s.rlast ? "RLAST on" : "no RLAST on") + " beat " + std::to_string(burst.done) + " of " +
               std::to_string(burst.beats));
  }
  if (last || s.rlast) reads_.pop();
}

void AxiProtocolChecker::observe(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s) {
  if (have_prev_) check_stability(cycle, m, s);
  // Address checks once per request: on the first cycle its VALID is seen.
  const bool aw_new = m.awvalid && !(have_prev_ && prev_m_.awvalid && !prev_s_.awready);
  const bool ar_new = m.arvalid && !(have_prev_ && prev_m_.arvalid && !prev_s_.arready);
  if (aw_new) check_request(cycle, BusChannel::AW, m.awaddr, m.awlen);
  if (ar_new) check_request(cycle, BusChannel::AR, m.araddr, m.arlen);

  // Responses first: they may not answer a request completed at the same edge.
  if (s.bvalid && m.bready) on_b(cycle, s);
  if (s.rvalid && m.rready) on_r_beat(cycle, s);
  if (m.awvalid && s.awready) writes_.push({m.awid, uint32_t{m.awlen} + 1u, 0});
  if (m.wvalid && s.wready) on_w_beat(cycle, m);
  if (m.arvalid && s.arready) reads_.push({m.arid, uint32_t{m.arlen} + 1u, 0});

  prev_m_ = m;
  prev_s_ = s;
  have_prev_ = true;
}

}  // namespace dla::tb
