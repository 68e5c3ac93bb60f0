#include "region_start.h"

namespace dla::stimulus {

uint64_t random_dbb_start_anywhere(const HwConfig& cfg, Rng& r, bool atom_offset) {
  const uint64_t top = cfg.dbb_addr_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << cfg.dbb_addr_bits) - 1;
  const uint64_t page = r.uniform(0, (top - (uint64_t{1} << 28)) >> 12) << 12;
  return atom_offset ? page + r.uniform(0, 4096 / cfg.atom_bytes - 1) * cfg.atom_bytes : page;
}

uint64_t random_sram_start(Rng& r) { return r.uniform(0, 0xff) * 0x1000; }

uint64_t RegionCursor::take(Rng& r, uint64_t bytes) {
  const uint64_t at = next_ + r.uniform(0, max_gap_) * atom_;
  next_ = (at + bytes + atom_ - 1) / atom_ * atom_;
  return at;
}

}  // namespace dla::stimulus
