// Building blocks of the rubik.* generators: random legal RUBIK layers, their memory
// placement, the output a layer must leave in memory (computed here byte by byte from the
// spec's formulas, apart from the golden model), and the CSB sequence that runs a layer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dla/rng.h"
#include "dla/rubik_layer.h"
#include "program_builder.h"

namespace dla::stimulus {

struct RubikShapeLimits {
  std::vector<RubikMode> modes{RubikMode::Contract, RubikMode::Split, RubikMode::Merge};
  std::vector<Precision> precisions;  // empty: all of the configuration's
  uint32_t max_width = 80, max_height = 4, max_channels = 40, max_deconv_stride = 4;
  uint32_t min_height = 1;
  // Percent of split layers writing fewer planes than input channels (DATAOUT_CHANNEL < Ci).
  unsigned plane_subset_percent = 20;
  // A drawn layer moving more (rubik_payload_bytes) is shrunk: height, width, phases, channels.
  uint64_t max_layer_bytes = uint64_t{4} << 20;
};

// Bytes a layer reads and writes without stride gaps.
uint64_t rubik_payload_bytes(const RubikLayer& l);

// A legal layer's mode, precision and sizes (no addresses or strides). Sizes are drawn
// towards their edges: width 1, the 64-element chunk and a tail beyond it; channels 1, below,
// at and above one atom, aligned or not; deconvolution strides 1 and above 8 phases.
RubikLayer random_rubik_layer(const HwConfig& cfg, Rng& shape, const RubikShapeLimits& limits);

// Hands out 32-byte aligned, non-overlapping regions per memory with random gaps (DBB
// sometimes above 4 GiB).
class RubikRegionAllocator {
 public:
  explicit RubikRegionAllocator(Rng& rng);
  uint64_t take(MemPort port, uint64_t bytes);
  // Moves the next DBB region to `base` (rubik.random's high_address_percent).
  void set_dbb_base(uint64_t base) { next_[static_cast<unsigned>(MemPort::Dbb)] = base; }

 private:
  Rng& rng_;
  uint64_t next_[2];
};

// Ports ("both" | "dbb" | "sram"), packed or gapped strides (each used stride at its minimum
// or up to four atoms above it; contract's CONTRACT_STRIDE_1 mostly sy x LO), the required
// CONTRACT_STRIDE_0, and the input and output regions. Strides the mode does not use are 0.
void place_rubik_layer(RubikLayer& l, Rng& layout, RubikRegionAllocator& alloc, const std::string& ports);

// The bytes of the layer's write extent after it ran, from the input bytes of its read
// extent and what the write extent held before (gaps keep it). Computed per output byte from
// §4.2-§4.4, independently of the golden model's engine.
std::vector<uint8_t> rubik_expected_output(const RubikLayer& l, const std::vector<uint8_t>& input,
                                           const std::vector<uint8_t>& before);

// Selects group `group`, programs it and arms it.
void program_rubik_layer(ProgramBuilder& b, const HwConfig& cfg, const RubikLayer& l, unsigned group);
// Waits for RUBIK_DONE_STATUS<group>, checks and clears it.
void finish_rubik_layer(ProgramBuilder& b, const HwConfig& cfg, unsigned group, uint64_t timeout,
                        const std::string& what);
// RBK S_STATUS idle, S_POINTER as the golden model has it, GLB S_INTR_STATUS clear.
void rubik_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when);
uint64_t rubik_timeout(const RubikLayer& l);
std::string describe_rubik_layer(const RubikLayer& l);

}  // namespace dla::stimulus
