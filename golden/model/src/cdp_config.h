// A CDP layer as the golden datapath sees it (pdp_cdp_bdma_rubik_glb.md §2.2-§2.3): the
// cube geometry and source from CDP_RDMA's group, everything else from CDP's group and its
// single LUT registers, decoded into signed values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/unit_model.h"
#include "lut_index.h"

namespace dla::golden {

struct CdpLayer {
  // CDP_RDMA
  uint32_t width = 1, height = 1, channels = 1;
  uint64_t src = 0, src_line = 0, src_surface = 0;
  MemPort src_port = MemPort::Dbb;
  unsigned rdma_format = 0;  // D_DATA_FORMAT.INPUT_DATA as stored (3 = reserved)
  // CDP
  uint64_t dst = 0, dst_line = 0, dst_surface = 0;
  MemPort dst_port = MemPort::Dbb;
  unsigned format = 1;  // D_DATA_FORMAT.INPUT_DATA_TYPE as stored: 0 int8, 1 int16, 2 fp16, 3 reserved
  bool sqsum_bypass = false, mul_bypass = false, nan_to_zero = false;
  unsigned radius = 1;  // k = NORMALZ_LEN + 1: the window is c-k .. c+k (n = 2k+1)
  int64_t in_offset = 0, in_scale = 1;
  unsigned in_shift = 0;
  int64_t out_offset = 0, out_scale = 1;
  unsigned out_shift = 0;
  LutSettings lut;  // starts/ends: sx_38 integers, or fp32 patterns in fp16 mode
  // int8: START as the datapath compares it, sx_22 of the register (spec §2.7 width notes).
  int64_t le_start_compare = 0, lo_start_compare = 0;

  Precision precision() const { return format == 2 ? Precision::Fp16 : format == 1 ? Precision::Int16 : Precision::Int8; }
  unsigned element_bytes() const { return format == 0 ? 1 : 2; }
  unsigned lanes(unsigned atom_bytes) const { return atom_bytes / element_bytes(); }
  uint32_t surfaces(unsigned atom_bytes) const { return (channels + lanes(atom_bytes) - 1) / lanes(atom_bytes); }
};

// Decodes CDP's group `cdp` and CDP_RDMA's group `rdma` into a layer.
CdpLayer decode_cdp_layer(const RegisterSnapshot& cdp, const RegisterSnapshot& rdma);

// Programming that the spec leaves undefined or forbids, one message each (empty: legal).
// The golden model still runs such a layer (with CDP's D_DATA_FORMAT) and warns.
std::vector<std::string> cdp_layer_violations(const CdpLayer& l, const HwConfig& cfg);

}  // namespace dla::golden
