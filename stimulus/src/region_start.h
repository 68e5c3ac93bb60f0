// Where the high_addresses knobs start a test's DBB regions.
#pragma once

#include <cstdint>

#include "dla/hwconfig.h"
#include "dla/rng.h"

namespace dla::stimulus {

// A start anywhere in the configuration's DBB address space below its top 256 MiB (the layers
// placed from it fit): a random 4 KiB page and, with atom_offset, a random atom inside it, so
// that over seeds every address bit above the atom is both 0 and 1.
uint64_t random_dbb_start_anywhere(const HwConfig& cfg, Rng& r, bool atom_offset);

}  // namespace dla::stimulus
