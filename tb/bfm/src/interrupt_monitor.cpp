#include "dla/bfm/interrupt_monitor.h"

namespace dla::tb {

void InterruptMonitor::sample(uint64_t cycle, bool level) {
  changed_ = level != level_;
  if (changed_) {
    history_.push_back({cycle, level});
    if (level) {
      ++rising_;
      last_rise_ = cycle;
    } else {
      ++falling_;
    }
  }
  level_ = level;
  cycles_high_ += level ? 1 : 0;
}

}  // namespace dla::tb
