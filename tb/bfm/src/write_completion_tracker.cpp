#include "dla/bfm/write_completion_tracker.h"

#include <cstdio>

namespace dla::tb {

std::string PendingWrite::to_string() const {
  char s[96];
  std::snprintf(s, sizeof s, "AWID %u at 0x%llx (+0x%llx), issued @%llu", static_cast<unsigned>(id),
                static_cast<unsigned long long>(addr), static_cast<unsigned long long>(bytes),
                static_cast<unsigned long long>(issued_cycle));
  return s;
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
      q.pop_front();
      --pending_;
    }
  }
  if (m.awvalid && s.awready) {
    by_id_[m.awid].push_back({m.awid, m.awaddr, (uint64_t{m.awlen} + 1) * data_bytes_, cycle});
    ++pending_;
  }
}

std::optional<PendingWrite> WriteCompletionTracker::pending_in(uint64_t addr, uint64_t size) const {
  if (pending_ == 0 || size == 0) return std::nullopt;
  std::optional<PendingWrite> oldest;
  for (const auto& q : by_id_)
    for (const PendingWrite& w : q)
      if (w.addr < addr + size && addr < w.addr + w.bytes && (!oldest || w.issued_cycle < oldest->issued_cycle))
        oldest = w;
  return oldest;
}

}  // namespace dla::tb
