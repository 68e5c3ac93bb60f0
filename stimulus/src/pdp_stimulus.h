// Building blocks of the pdp.* generators: random legal PDP layers, their memory placement
// and input data (special values included), and the CSB sequence that runs one layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dla/pdp_layer.h"
#include "dla/rng.h"
#include "program_builder.h"
#include "region_start.h"

namespace dla::stimulus {

struct PdpShapeLimits {
  uint32_t max_width = 12, max_height = 8, max_channels = 40;
  std::vector<PoolMethod> methods{PoolMethod::Average, PoolMethod::Max, PoolMethod::Min};
  std::vector<Precision> precisions;  // empty: all of the configuration's
  unsigned split_percent = 25;        // layers that try split mode
  unsigned nonstandard_recip_percent = 10;
  // On-flying input (sdp_pdp): split mode is undefined there, so a layer wider than the line
  // buffer allows is narrowed instead of split.
  bool split_allowed = true;
  // Trim unused bottom rows / right columns (NVIDIA nv_small erratum, docs/pdp.md). Takes no
  // random draws of its own: the layer's shape draws are the 'allow' ones, then trimmed (later
  // draws - split choice, data, further layers - may differ because sizes differ).
  bool avoid_nvdla_errata = false;
  // Layers whose first row and column open eight windows at once: kernels of 8 (the largest),
  // stride 1 or 2, leading pads of 7. Drawn only when non-zero (the default programs keep their draws).
  unsigned full_kernel_percent = 0;
  // Kernel sizes of those layers: false = 8x8 only; true = 8x8 in half of them, otherwise each
  // of width and height 2..7 with a leading pad one less (its first row or column opens that
  // many windows). Knob full_kernel_size.
  bool full_kernel_any_size = false;
};

// Reads the nvdla_errata knob ("allow" | "avoid") shared by the generators that run PDP.
bool avoid_nvdla_errata_knob(const std::string& value);

// A legal layer (pdp_layer_violations() empty) without addresses and strides.
PdpLayer random_pdp_layer(const HwConfig& cfg, Rng& shape, const PdpShapeLimits& limits);

// A legal on-flying pooling layer (no split) over a given input cube in a given format, or
// nullopt when no drawn window fits it (too wide for the line buffer; with
// limits.avoid_nvdla_errata also when a window leaves unused rows or columns). Only the
// limits' methods and errata flag are used.
std::optional<PdpLayer> random_pdp_layer_for_cube(const HwConfig& cfg, Rng& shape, const PdpShapeLimits& limits,
                                                  uint32_t width, uint32_t height, uint32_t channels, Precision format);

// Hands out atom-aligned, non-overlapping regions per memory, with random gaps.
class PdpRegionAllocator {
 public:
  // anywhere: DBB regions start anywhere in the configuration's address space (knob
  // high_addresses), not only in the 64 MiB above 0x8000_0000 (or a random 4 GiB window).
  PdpRegionAllocator(const HwConfig& cfg, Rng& rng, bool anywhere = false);
  uint64_t take(MemPort port, uint64_t bytes);
  // Bytes from the next free address of `port` to the top of its address space.
  uint64_t room(MemPort port) const;

 private:
  const HwConfig& cfg_;
  Rng& rng_;
  RegionCursor dbb_, sram_;
};

// Picks packed or padded strides and the memories, and places input and output.
void place_pdp_layer(PdpLayer& l, const HwConfig& cfg, Rng& layout, PdpRegionAllocator& alloc);
// Knob huge_strides: moves a DBB output to a line stride of 1 to 16 MiB (stride bits 20..23 and
// above set, which no packed or padded layout reaches) and a surface stride above H lines of it,
// placed anew. The memories are sparse: only the written lines cost anything. False (layer
// unchanged) for an SRAM output or when the new extent would take over half the room left.
bool widen_pdp_output_strides(PdpLayer& l, const HwConfig& cfg, Rng& r, PdpRegionAllocator& alloc);
// Bytes of the input image from l.src (lines, surfaces and gaps), data with extremes and,
// for fp16, NaN / +-Inf / subnormals / +-0. With `wide_fp16` (knob fp16_data=wide) an fp16
// layer's elements come from it instead (WideFp16Values).
std::vector<uint8_t> random_pdp_input(const PdpLayer& l, const HwConfig& cfg, Rng& data, Rng* wide_fp16 = nullptr);
// The pad value registers of an fp16 layer for one padded element `value` (n times it, n = 1..7).
void set_pdp_fp16_pad_value(PdpLayer& l, uint16_t value);
uint64_t pdp_input_extent(const PdpLayer& l, const HwConfig& cfg);

// Programs group `group` of PDP_RDMA (unless rdma_format_override is set, with the layer's
// format) and PDP, then arms both in the given order.
// armed_writes: after arming the first unit, writes each register of its group (another value)
// and D_OP_ENABLE = 0, then reads them back: an armed group drops writes (knob armed_writes).
// perf_enable >= 0: D_PERF_ENABLE.DMA_EN of PDP_RDMA (bit 0) and of PDP (bit 1) written before
// the arms (knob perf_enable; negative: not written, the reset value 0 stays).
void program_pdp_layer(ProgramBuilder& b, const HwConfig& cfg, const PdpLayer& l, unsigned group, bool rdma_first,
                       int rdma_format_override = -1, Rng* armed_writes = nullptr, int perf_enable = -1);
// Waits for the group's done interrupt, checks and clears it, reads the group's NaN/Inf
// counters (they must equal the golden model's).
void finish_pdp_layer(ProgramBuilder& b, const HwConfig& cfg, unsigned group, uint64_t timeout, const std::string& what);
// Reads PDP/PDP_RDMA S_STATUS and GLB S_INTR_STATUS: all idle and clear.
void pdp_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when);
uint64_t pdp_timeout(const PdpLayer& l, const HwConfig& cfg);
std::string describe_pdp_layer(const PdpLayer& l);

}  // namespace dla::stimulus
