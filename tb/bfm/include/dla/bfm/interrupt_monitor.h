#pragma once
// Records the level interrupt (dla_intr): current level, edges with cycle stamps, time high.
#include <cstdint>
#include <optional>
#include <vector>

namespace dla::tb {

struct InterruptEdge {
  uint64_t cycle;
  bool level;  // level after the edge: true = rising
};

class InterruptMonitor {
 public:
  void sample(uint64_t cycle, bool level);  // once per cycle

  bool level() const { return level_; }
  uint64_t rising_edges() const { return rising_; }
  uint64_t falling_edges() const { return falling_; }
  uint64_t cycles_high() const { return cycles_high_; }
  std::optional<uint64_t> last_rise_cycle() const { return last_rise_; }
  const std::vector<InterruptEdge>& history() const { return history_; }
  bool changed_at_last_sample() const { return changed_; }

 private:
  bool level_ = false;
  bool changed_ = false;
  uint64_t rising_ = 0;
  uint64_t falling_ = 0;
  uint64_t cycles_high_ = 0;
  std::optional<uint64_t> last_rise_;
  std::vector<InterruptEdge> history_;
};

}  // namespace dla::tb
