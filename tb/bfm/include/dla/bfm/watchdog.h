#pragma once
// Watchdog for anything the testbench waits on: armed with a description of the wait, it fires
// when no progress has been reported for `limit_cycles` cycles. The hang signature names the
// wait and every non-zero pending counter, e.g. "hang:intr-wait axi.dbb.rd_outstanding=3".
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dla::tb {

using PendingCounters = std::vector<std::pair<std::string, uint64_t>>;

std::string format_hang_signature(const std::string& waiting_for, const PendingCounters& pending);

class Watchdog {
 public:
  explicit Watchdog(uint64_t limit_cycles);  // throws std::invalid_argument for 0

  void arm(uint64_t cycle, std::string waiting_for);
  void disarm() { armed_ = false; }
  void progress(uint64_t cycle) { last_progress_ = cycle; }
  // True exactly when, while armed, `limit` cycles have passed since arming or last progress.
  bool expired(uint64_t cycle) const { return armed_ && cycle - last_progress_ >= limit_; }

  bool armed() const { return armed_; }
  const std::string& waiting_for() const { return waiting_for_; }
  uint64_t limit() const { return limit_; }

 private:
  uint64_t limit_;
  bool armed_ = false;
  uint64_t last_progress_ = 0;
  std::string waiting_for_;
};

}  // namespace dla::tb
