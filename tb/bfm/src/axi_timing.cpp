#include "dla/bfm/axi_timing.h"

#include <stdexcept>

#include "dla/bfm/seed.h"

namespace dla::tb {
namespace {

AxiTiming with_gates(ThrottleGate ready, ThrottleGate valid) {
  AxiTiming t;
  t.aw_ready = t.w_ready = t.ar_ready = ready;
  t.r_valid = t.b_valid = valid;
  return t;
}

void check_gate(const ThrottleGate& g, const char* name) {
  const bool ok = g.rise >= 0.0 && g.rise <= 1.0 && g.fall >= 0.0 && g.fall <= 1.0 && g.rise > 0.0;
  if (!ok) {
    throw std::invalid_argument(std::string("AxiTiming.") + name +
                                ": rise and fall must be probabilities and rise > 0 (else it never opens)");
  }
}

}  // namespace

AxiTiming AxiTiming::profile(std::string_view name) {
  if (name == "fast") return AxiTiming{};
  if (name == "random") {
    AxiTiming t = with_gates({0.7, 0.3}, {0.6, 0.4});
    t.read_latency_max = 16;
    t.write_latency_max = 8;
    t.max_outstanding_reads = 32;
    t.max_outstanding_writes = 32;
    return t;
  }
  if (name == "slow") {
    AxiTiming t = with_gates({0.2, 0.6}, {0.2, 0.6});
    t.read_latency_min = 20;
    t.read_latency_max = 100;
    t.write_latency_min = 10;
    t.write_latency_max = 50;
    t.max_outstanding_reads = 4;
    t.max_outstanding_writes = 4;
    return t;
  }
  if (name == "bursty") {
    AxiTiming t = with_gates({0.05, 0.02}, {0.05, 0.02});
    t.read_latency_max = 40;
    t.write_latency_max = 20;
    t.max_outstanding_reads = 16;
    t.max_outstanding_writes = 16;
    return t;
  }
  if (name == "late_b") {  // every channel ready, write responses hundreds of cycles late: deep write queues
    AxiTiming t;
    t.write_latency_min = 200;
    t.write_latency_max = 600;
    return t;
  }
  if (name == "latency") {  // every channel ready, every read's first beat 48 cycles after its AR
    AxiTiming t;
    t.read_latency_min = t.read_latency_max = 48;
    return t;
  }
  if (name == "slow_writes") {  // reads at full speed, writes throttled: a DMA's buffer between them fills
    AxiTiming t;
    t.aw_ready = t.w_ready = {0.1, 0.5};
    t.b_valid = {0.2, 0.6};
    t.write_latency_min = 10;
    t.write_latency_max = 50;
    t.max_outstanding_writes = 4;
    return t;
  }
  std::string known;
  for (const auto& n : profile_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown AXI timing profile '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> AxiTiming::profile_names() { return {"fast", "random", "slow", "bursty", "late_b", "slow_writes", "latency"}; }

bool AxiTiming::reads_unthrottled() const {
  const auto open = [](const ThrottleGate& g) { return g.rise == 1.0 && g.fall == 0.0; };
  return open(ar_ready) && open(r_valid);
}

void AxiTiming::validate() const {
  check_gate(aw_ready, "aw_ready");
  check_gate(w_ready, "w_ready");
  check_gate(ar_ready, "ar_ready");
  check_gate(r_valid, "r_valid");
  check_gate(b_valid, "b_valid");
  if (read_latency_min > read_latency_max) throw std::invalid_argument("AxiTiming: read_latency_min > read_latency_max");
  if (write_latency_min > write_latency_max) throw std::invalid_argument("AxiTiming: write_latency_min > write_latency_max");
  if (max_outstanding_reads == 0) throw std::invalid_argument("AxiTiming: max_outstanding_reads must be >= 1");
  if (max_outstanding_writes == 0) throw std::invalid_argument("AxiTiming: max_outstanding_writes must be >= 1");
}

bool ThrottleState::step(std::mt19937_64& rng) {
  if (gate_.rise >= 1.0 && gate_.fall <= 0.0) return on_ = true;  // constant gate: no draw
  on_ = on_ ? !draw_probability(rng, gate_.fall) : draw_probability(rng, gate_.rise);
  return on_;
}

}  // namespace dla::tb
