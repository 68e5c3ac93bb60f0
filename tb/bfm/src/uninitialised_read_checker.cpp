#include "dla/bfm/uninitialised_read_checker.h"

#include <algorithm>
#include <cstdio>

namespace dla::tb {

UninitialisedReadChecker::UninitialisedReadChecker(std::string port_name, unsigned data_bytes,
                                                   const SparseMemory& memory, size_t max_records)
    : port_(std::move(port_name)), data_bytes_(data_bytes), memory_(memory), max_records_(max_records) {
  validate_axi_data_bytes(data_bytes, "UninitialisedReadChecker");
  violations_.reserve(std::min<size_t>(max_records_, 64));
}

bool UninitialisedReadChecker::beat_initialised(uint64_t beat_addr) const {
  for (unsigned b = 0; b < data_bytes_; ++b)
    if (memory_.is_written(beat_addr + b)) return true;
  return false;
}

void UninitialisedReadChecker::observe(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s) {
  if (!(m.arvalid && s.arready)) return;
  ++bursts_checked_;
  const uint64_t beats = uint64_t{m.arlen} + 1;
  const uint64_t base = m.araddr - m.araddr % data_bytes_;  // unaligned addresses are the protocol checker's
  uint64_t bad = 0, first_bad = 0;
  for (uint64_t i = 0; i < beats; ++i) {
    const uint64_t beat = base + i * data_bytes_;
    if (beat_initialised(beat)) continue;
    if (bad++ == 0) first_bad = beat;
  }
  if (bad == 0) return;
  uninitialised_beats_ += bad;
  ++violation_count_;
  if (violations_.size() >= max_records_) return;
  char detail[200];
  std::snprintf(detail, sizeof detail,
                "read burst ARID %u at 0x%llx, %llu beats: %llu beat(s) hold no loaded or written byte, "
                "first at 0x%llx",
                static_cast<unsigned>(m.arid), static_cast<unsigned long long>(m.araddr),
                static_cast<unsigned long long>(beats), static_cast<unsigned long long>(bad),
                static_cast<unsigned long long>(first_bad));
  violations_.push_back({ProtocolRule::ReadUninitialised, cycle, port_, BusChannel::AR, detail});
}

}  // namespace dla::tb
