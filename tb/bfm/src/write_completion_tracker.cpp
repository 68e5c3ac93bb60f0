#include "dla/bfm/write_completion_tracker.h"

#include <algorithm>
#include <cstdio>

namespace dla::tb {

std::string PendingWrite::to_string() const {
  char s[96];
  std::snprintf(s, sizeof s, "AWID %u at 0x%llx (+0x%llx), issued @%llu", static_cast<unsigned>(id),
                static_cast<unsigned long long>(addr), static_cast<unsigned long long>(bytes),
                static_cast<unsigned long long>(issued_cycle));
  return s;
}

bool PendingWrite::overlaps(uint64_t a, uint64_t size) const {
  if (beats_seen < beats) return addr < a + size && a < addr + bytes;
  return strobed_lo < strobed_hi && strobed_lo < a + size && a < strobed_hi;
}

WriteCompletionTracker::WriteCompletionTracker(std::string port_name, unsigned data_bytes)
    : port_(std::move(port_name)), data_bytes_(data_bytes), by_id_(256) {
  validate_axi_data_bytes(data_bytes, "WriteCompletionTracker");
}

void WriteCompletionTracker::observe(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s) {
  // A B at the same edge as an AW cannot answer that AW: responses first.
  if (s.bvalid && m.bready) {
    auto& q = by_id_[s.bid];
    if (!q.empty()) {
      // (a B before the burst's last W beat is a protocol error; forget its beats)
      w_order_.erase(std::remove(w_order_.begin(), w_order_.end(), &q.front()), w_order_.end());
      q.pop_front();
      --pending_;
    }
  }
  if (m.awvalid && s.awready) {
    PendingWrite w{m.awid, m.awaddr, (uint64_t{m.awlen} + 1) * data_bytes_, cycle};
    w.beats = unsigned{m.awlen} + 1;
    by_id_[m.awid].push_back(w);
    w_order_.push_back(&by_id_[m.awid].back());  // deque: references survive push_back
    ++pending_;
    while (!early_strobes_.empty() && !w_order_.empty()) {
      take_beat(*w_order_.front(), early_strobes_.front());
      early_strobes_.pop_front();
    }
  }
  if (m.wvalid && s.wready) {
    if (w_order_.empty())
      early_strobes_.push_back(m.wstrb);
    else
      take_beat(*w_order_.front(), m.wstrb);
  }
}

void WriteCompletionTracker::take_beat(PendingWrite& w, uint64_t strb) {
  const uint64_t beat = w.addr / data_bytes_ * data_bytes_ + uint64_t{w.beats_seen} * data_bytes_;
  if (data_bytes_ < 64) strb &= (uint64_t{1} << data_bytes_) - 1;
  if (strb) {
    w.strobed_lo = std::min<uint64_t>(w.strobed_lo, beat + static_cast<unsigned>(__builtin_ctzll(strb)));
    w.strobed_hi = std::max<uint64_t>(w.strobed_hi, beat + 64 - static_cast<unsigned>(__builtin_clzll(strb)));
  }
  if (++w.beats_seen == w.beats) w_order_.pop_front();
}

std::optional<PendingWrite> WriteCompletionTracker::pending_in(uint64_t addr, uint64_t size) const {
  if (pending_ == 0 || size == 0) return std::nullopt;
  std::optional<PendingWrite> oldest;
  for (const auto& q : by_id_)
    for (const PendingWrite& w : q)
      if (w.overlaps(addr, size) && (!oldest || w.issued_cycle < oldest->issued_cycle))
        oldest = w;
  return oldest;
}

}  // namespace dla::tb
