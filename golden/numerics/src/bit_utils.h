#pragma once
#include <cstdint>

namespace dla::num::detail {

// Number of significant bits of x (0 for x = 0).
inline unsigned bit_length(uint64_t x) { return x == 0 ? 0 : 64u - static_cast<unsigned>(__builtin_clzll(x)); }

// Round x / 2^k to nearest, ties to even (k may be 0 or >= 64).
inline uint64_t round_shift_rne(uint64_t x, unsigned k) {
  if (k == 0) return x;
  if (k > 64) return 0;
  const uint64_t q = k == 64 ? 0 : x >> k;
  const bool guard = (x >> (k - 1)) & 1u;
  const bool sticky = (x & ((uint64_t{1} << (k - 1)) - 1)) != 0;
  return q + ((guard && (sticky || (q & 1u))) ? 1 : 0);
}

}  // namespace dla::num::detail
