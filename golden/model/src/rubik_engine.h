// RUBIK's datapath (pdp_cdp_bdma_rubik_glb.md §4.2-§4.4): it moves bytes, never changes them.
// Contract copies whole atoms (pad lanes verbatim) to their spatial place; split writes each
// channel as a plane whose rows end in zero bytes up to the atom; merge gathers planes into a
// cube whose pad lanes are zero. Requests follow the reference order of §4 (reads of a row or
// chunk, then its writes); the result does not depend on it for a legal layer.
#pragma once

#include "dla/rubik_layer.h"
#include "dla/sparse_memory.h"

namespace dla::golden {

// Runs a legal layer (rubik_layer_violations() empty) from `in` to `out` (may be the same
// memory).
void run_rubik_layer(const RubikLayer& l, SparseMemory& in, SparseMemory& out);

}  // namespace dla::golden
