#pragma once
// Timing behaviour of the AXI slave memory: ready/valid throttling, response latency and
// outstanding limits. Named profiles give ready-made mixes.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace dla::tb {

// Two-state (on/off) Markov chain stepped once per cycle. rise = P(off -> on), fall = P(on -> off).
// rise + fall == 1 gives independent draws; small values give long on and off runs.
struct ThrottleGate {
  double rise = 1.0;
  double fall = 0.0;
};

struct AxiTiming {
  ThrottleGate aw_ready, w_ready, ar_ready;  // when the slave offers READY
  ThrottleGate r_valid, b_valid;             // when the slave may start a response beat
  uint32_t read_latency_min = 0;   // extra cycles from AR handshake to the first R beat
  uint32_t read_latency_max = 0;
  uint32_t write_latency_min = 0;  // extra cycles from the last W beat to B
  uint32_t write_latency_max = 0;
  uint32_t max_outstanding_reads = 256;   // AR accepted, last R beat not yet taken
  uint32_t max_outstanding_writes = 256;  // AW accepted, B not yet taken

  // fast: always ready, no latency; random: independent 50..70 % gates, latency 0..16/0..8;
  // slow: mostly stalled, long latency, few outstanding; bursty: long on/off runs;
  // late_b: always ready, B responses 200..600 cycles after the last W beat (many writes outstanding);
  // slow_writes: reads as fast, writes as slow (AW/W ready 1 in 6, B 10..50 late, 4 outstanding),
  // so a DMA's buffer between its reads and its writes fills up; latency: always ready, every
  // read's first beat 48 cycles after its AR (a DMA must keep reads in flight to hide it).
  static AxiTiming profile(std::string_view name);  // throws std::invalid_argument if unknown
  static std::vector<std::string> profile_names();
  void validate() const;  // throws std::invalid_argument naming the bad field
  // AR always ready and R never held back but for latency: read waits are latency alone, which
  // the performance budget then charges per round of reads in flight instead of excusing.
  bool reads_unthrottled() const;
};

// Runtime state of one ThrottleGate.
class ThrottleState {
 public:
  explicit ThrottleState(ThrottleGate g = {}) : gate_(g) {}
  bool step(std::mt19937_64& rng);  // advances one cycle, returns whether the gate is on
  bool on() const { return on_; }

 private:
  ThrottleGate gate_;
  bool on_ = true;
};

}  // namespace dla::tb
