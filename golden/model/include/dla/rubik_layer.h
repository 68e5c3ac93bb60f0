// One RUBIK layer as its registers describe it (pdp_cdp_bdma_rubik_glb.md §4): the decoded
// register group, its register encoding, the memory it reads and writes, and the programming
// rules whose violation the golden model refuses. Shared by the golden RUBIK model, the
// rubik.* generators, the coverage model and the tests.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/unit_model.h"

namespace dla {

enum class RubikMode : uint8_t { Contract = 0, Split = 1, Merge = 2 };
const char* rubik_mode_name(RubikMode m);  // "contract", "split", "merge"

// RUBIK's atom: 32 bytes (spec §4.1: "all atoms are 32 bytes"; RUBIK exists only on v1).
inline constexpr unsigned kRubikAtom = 32;
// Split writes and merge reads move a plane row in chunks of this many elements (§4.3, §4.4).
inline constexpr unsigned kRubikChunkElements = 64;

// All sizes are real values (the registers hold value - 1). Addresses and strides are byte
// values; the registers keep only their bits [31:5].
struct RubikLayer {
  uint32_t mode = 0;       // D_MISC_CFG.RUBIK_MODE as stored: 0 contract, 1 split, 2 merge, 3 reserved
  uint32_t precision = 1;  // D_MISC_CFG.IN_PRECISION as stored: 0 int8, 1 int16, 2 fp16, 3 reserved
  uint32_t width = 1, height = 1, channels = 1;  // Wi, Hi, Ci (DATAIN_*)
  uint32_t out_channels = 1;                     // Co (DATAOUT_CHANNEL)
  uint32_t stride_x = 1, stride_y = 1;           // sx, sy (DECONV_STRIDE)
  MemPort in_port = MemPort::Sram, out_port = MemPort::Sram;
  uint64_t in = 0, in_line = 0, in_surface = 0, in_planar = 0;       // IN, LI, SI, PI
  uint64_t out = 0, out_line = 0, out_surface = 0, out_planar = 0;   // OUT, LO, SO, PO
  uint64_t contract0 = 0, contract1 = 0;                             // K0, K1
  bool perf_enable = false;  // D_PERF_ENABLE.PERF_EN (stall counters; no effect on data)

  RubikMode rubik_mode() const { return static_cast<RubikMode>(mode); }
  unsigned element_bytes() const { return precision == 0 ? 1 : 2; }                // bpe
  unsigned lanes() const { return kRubikAtom / element_bytes(); }                  // E
  uint32_t in_surfaces() const { return (channels + lanes() - 1) / lanes(); }      // ceil(Ci/E)
  uint32_t out_surfaces() const { return (out_channels + lanes() - 1) / lanes(); } // So = ceil(Co/E)
  // Bytes split writes per plane row and merge reads per plane row: ceil(Wi*bpe/32) atoms.
  uint64_t plane_row_bytes() const {
    return (uint64_t{width} * element_bytes() + kRubikAtom - 1) / kRubikAtom * kRubikAtom;
  }
};

// A [begin, end) byte range on one memory port.
struct RubikExtent {
  MemPort port = MemPort::Dbb;
  uint64_t begin = 0, end = 0;
};
// Bounding range of everything the layer reads (whole atoms, chunk tails included) and of
// everything it writes (split: whole atoms, zero tails included). Mode and precision must not
// be reserved.
RubikExtent rubik_read_extent(const RubikLayer& l);
RubikExtent rubik_write_extent(const RubikLayer& l);

// Decodes a RUBIK register group (a snapshot of unit RBK).
RubikLayer decode_rubik_registers(const RegisterSnapshot& regs);

// Register writes that program the layer: (byte offset in the RBK window, value), offset
// order, D_OP_ENABLE excluded. Sizes are encoded as value - 1; addresses as given.
std::vector<std::pair<uint32_t, uint32_t>> rubik_register_values(const RubikLayer& l);

// Every rule the layer breaks, one sentence each naming the register/field and the rule (spec
// section); empty when the layer is legal. The golden model refuses a layer that breaks one
// (its group never completes); the generators never produce one but rubik.illegal's cases.
//  * RUBIK_MODE = 3 and IN_PRECISION = 3 are reserved; a precision the configuration lacks;
//    CVIF on a configuration without the SRAM interface.
//  * Contract with more than one phase: CONTRACT_STRIDE_0 must be ceil(Co/E) x
//    DAIN_SURF_STRIDE (§4.1, open point 10: the only value on which the reference model and
//    the RTL agree).
//  * Split: DATAOUT_CHANNEL must not exceed DATAIN_CHANNEL (a plane beyond the input channels
//    would carry pad lanes or nothing).
//  * Writes must not overlap each other: a stride that separates two written rows, surfaces or
//    planes is at least what one of them occupies (§4.2-§4.4; split rows ceil(Wi*bpe/32)*32
//    bytes, §4.3).
//  * The written range must not overlap the read range on the same port.
std::vector<std::string> rubik_layer_violations(const RubikLayer& l, const HwConfig& cfg);

}  // namespace dla
