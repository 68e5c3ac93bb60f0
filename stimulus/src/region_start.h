// Where a test's memory regions start: the high_addresses knobs' DBB start, the CV-SRAM start,
// and a cursor that places consecutive regions of one memory.
#pragma once

#include <cstdint>

#include "dla/hwconfig.h"
#include "dla/rng.h"

namespace dla::stimulus {

// A start anywhere in the configuration's DBB address space below its top 256 MiB (the layers
// placed from it fit): a random 4 KiB page and, with atom_offset, a random atom inside it, so
// that over seeds every address bit above the atom is both 0 and 1.
uint64_t random_dbb_start_anywhere(const HwConfig& cfg, Rng& r, bool atom_offset);

// A CV-SRAM start: a random 4 KiB page in the first MiB.
uint64_t random_sram_start(Rng& r);

// Consecutive atom-aligned regions of one memory: each starts 0..max_gap_atoms atoms after the
// end of the previous one (the gap drawn from `r`).
class RegionCursor {
 public:
  RegionCursor(uint64_t start, unsigned atom_bytes, uint64_t max_gap_atoms)
      : next_(start), atom_(atom_bytes), max_gap_(max_gap_atoms) {}
  uint64_t take(Rng& r, uint64_t bytes);
  uint64_t next() const { return next_; }

 private:
  uint64_t next_;
  uint64_t atom_, max_gap_;
};

}  // namespace dla::stimulus
