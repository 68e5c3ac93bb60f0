#include "wide_fp16_values.h"

#include <algorithm>

namespace dla::stimulus {

WideFp16Values::WideFp16Values(Rng& r, unsigned lanes) : r_(r), last_(std::max(1u, lanes), 0) {
  const double rates[] = {0.01, 0.05, 0.15};
  special_rate_ = rates[r_.below(3)];
  for (uint16_t& v : pool_) v = fresh();
}

uint16_t WideFp16Values::next() {
  uint16_t& last = last_[lane_];
  lane_ = (lane_ + 1) % last_.size();
  const uint16_t sign = r_.chance(0.5) ? 0x8000 : 0;
  const bool finite_nonzero = (last & 0x7C00) != 0x7C00 && (last & 0x7FFF) != 0;
  uint16_t v;
  if (r_.chance(special_rate_))  // a third +-Inf, the rest NaN with any payload
    v = static_cast<uint16_t>(sign | 0x7C00 | (r_.chance(1.0 / 3) ? 0 : r_.uniform(1, 0x3FF)));
  else if (finite_nonzero && r_.chance(0.35))
    v = partner(last);
  else if (r_.chance(0.5))
    v = fresh();
  else
    v = static_cast<uint16_t>(pool_[r_.below(pool_.size())] ^ sign);
  return last = v;
}

uint32_t WideFp16Values::any_pad_register() {
  uint64_t e;
  switch (r_.below(4)) {
    case 0: e = r_.uniform(55, 62); break;  // |pad| >= 2^24: the adders' saturation
    case 1: e = 63; break;
    default: e = r_.uniform(0, 62);
  }
  return static_cast<uint32_t>(r_.below(4) << 17 | r_.below(2) << 16 | e << 10 | r_.uniform(0, 0x3FF));
}

uint16_t WideFp16Values::partner(uint16_t p) {
  const uint16_t other_sign = (p & 0x8000) ^ 0x8000;
  const unsigned e = (p >> 10) & 0x1F;
  switch (r_.below(4)) {
    case 0: return p ^ 0x8000;                                               // exact cancellation
    case 1: return static_cast<uint16_t>((p ^ 0x8000) ^ (e ? 1 : 0));        // one ulp from it
    case 2: {                                                                // just past the guard bits
      const unsigned d = static_cast<unsigned>(r_.uniform(11, 15));
      if (e <= d) return static_cast<uint16_t>(other_sign | r_.uniform(1, 0x3FF));  // a subnormal
      return static_cast<uint16_t>(other_sign | (e - d) << 10 | r_.uniform(0, 0x3FF));
    }
    default: {                                                               // any distance below
      const unsigned d = static_cast<unsigned>(r_.uniform(0, 10));
      const uint16_t s = r_.chance(0.5) ? other_sign : static_cast<uint16_t>(p & 0x8000);
      return static_cast<uint16_t>(s | (e > d ? e - d : 1) << 10 | r_.uniform(0, 0x3FF));
    }
  }
}

uint16_t WideFp16Values::fresh() {
  const uint16_t sign = r_.chance(0.5) ? 0x8000 : 0;
  auto normal = [&](uint64_t e_lo, uint64_t e_hi, uint64_t m_lo, uint64_t m_hi) {
    return static_cast<uint16_t>(sign | r_.uniform(e_lo, e_hi) << 10 | r_.uniform(m_lo, m_hi));
  };
  switch (r_.below(12)) {
    case 0: return sign;                                                // +-0
    case 1: return static_cast<uint16_t>(sign | r_.uniform(1, 0x3FF));  // subnormal
    case 2: return normal(28, 30, 0, 0x3FF);                            // sums overflow fp16
    case 3: return normal(1, 3, 0, 0x3FF);                              // averages underflow
    case 4: return normal(1, 30, 0x3F0, 0x3FF);                         // rounding carries out
    case 5:
    case 6: return normal(1, 30, 0, 0);                                 // powers of two: borrows
    case 7: return normal(1, 30, 1, 3);                                 // just above them
    default: return normal(1, 30, 0, 0x3FF);
  }
}

}  // namespace dla::stimulus
