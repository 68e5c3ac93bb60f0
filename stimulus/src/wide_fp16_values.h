// fp16 data over the whole format for the float datapaths' corner cases (knob fp16_data=wide):
// exponents 1..30 (alignment shifts beyond the adders' guard bits), values near the largest
// finite and the smallest normal, powers of two and mantissas that round up into the exponent,
// signed zeros, subnormals, and infinities and NaNs with random payloads at a per-layer rate
// (up to one element in six: NaN payloads must reach every lane). Pooling adds neighbours of one
// lane, so a third of the values are partners of the lane's previous value: its negation (exact
// cancellation), a one-ulp neighbour of it, or a value of the other sign 11..15 binades below
// (alignment just past the guard bits; a borrow from a power of two). A small per-layer pool adds
// repeats of the same values (ties in max/min).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "dla/rng.h"

namespace dla::stimulus {

class WideFp16Values {
 public:
  // Draws the layer's pool and special-value rate from `r`; every later value comes from `r`
  // too. `lanes`: values per atom, the stride at which next() meets the same lane again.
  explicit WideFp16Values(Rng& r, unsigned lanes = 1);
  uint16_t next();
  // A 19-bit pad value register for an fp16 layer that no fp16 element could give: any fp17
  // (exponents up to 62 make sums saturate; 63 is Inf or NaN), bits 17 and 18 random.
  uint32_t any_pad_register();

 private:
  // One finite value from the whole range.
  uint16_t fresh();
  // A value whose sum with the finite, non-zero `p` is a corner of the float adder.
  uint16_t partner(uint16_t p);

  Rng& r_;
  double special_rate_ = 0;
  std::array<uint16_t, 6> pool_{};
  std::vector<uint16_t> last_;  // previous value of each lane
  size_t lane_ = 0;
};

}  // namespace dla::stimulus
