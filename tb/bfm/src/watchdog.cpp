#include "dla/bfm/watchdog.h"

#include <stdexcept>

namespace dla::tb {

std::string format_hang_signature(const std::string& waiting_for, const PendingCounters& pending) {
  std::string s = "hang:" + waiting_for;
  for (const auto& [name, value] : pending) {
    if (value != 0) s += " " + name + "=" + std::to_string(value);
  }
  return s;
}

Watchdog::Watchdog(uint64_t limit_cycles) : limit_(limit_cycles) {
  if (limit_cycles == 0) throw std::invalid_argument("Watchdog: limit of 0 cycles (it must be >= 1)");
}

void Watchdog::arm(uint64_t cycle, std::string waiting_for) {
  armed_ = true;
  last_progress_ = cycle;
  waiting_for_ = std::move(waiting_for);
}

}  // namespace dla::tb
