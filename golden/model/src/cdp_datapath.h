// CDP's datapath on one spatial position (pdp_cdp_bdma_rubik_glb.md §2.5-§2.11): every lane
// of every surface at (w, h) goes through the input converter, the cross-channel square sum,
// the LUT, the multiplier and the output converter; pad lanes included. run_cdp_layer walks
// the cube between memories.
#pragma once

#include <cstdint>
#include <vector>

#include "cdp_config.h"
#include "cdp_lut.h"
#include "dla/sparse_memory.h"
#include "lut_tables.h"

namespace dla::golden {

// Layer counters before latching (spec §2.10).
struct CdpCounters {
  uint64_t lut_uflow = 0, lut_oflow = 0, lut_hybrid = 0, lut_le_hit = 0, lut_lo_hit = 0;
  uint64_t out_saturation = 0, nan_input = 0, inf_input = 0, nan_output = 0;
};

class CdpDatapath {
 public:
  // lanes: lanes per atom (E); the layer's format decides integer or fp16 arithmetic.
  CdpDatapath(const CdpLayer& layer, const LutTables& tables, unsigned lanes);

  // in: the S*E raw element patterns of one position (surface-major, lane-minor; int8
  // patterns in the low byte); returns the S*E output patterns and adds to `c`.
  std::vector<uint16_t> process(const std::vector<uint16_t>& in, CdpCounters& c) const;

  // Stages, exposed for unit tests.
  int64_t input_convert(uint16_t raw) const;                  // integer x'
  uint16_t output_convert(int64_t m, bool& saturated) const;  // integer OCVT

 private:
  std::vector<uint16_t> process_int(const std::vector<uint16_t>& in, CdpCounters& c) const;
  std::vector<uint16_t> process_fp(const std::vector<uint16_t>& in, CdpCounters& c) const;
  void count_lut(const CdpLutOutcome& o, CdpCounters& c) const;
  // Whether channel j contributes to the window of channel c (the plant cdp.window_edge
  // stops the window at c's surface boundary).
  bool in_window(int64_t j, int64_t c) const;

  const CdpLayer& l_;
  CdpLut lut_;
  unsigned lanes_;
};

// Runs one layer: reads the input cube through CDP_RDMA's address/strides in `src`, writes
// every output atom (pad lanes included, spec §6.2) to `dst`.
CdpCounters run_cdp_layer(const CdpLayer& layer, const LutTables& tables, unsigned atom_bytes, const SparseMemory& src,
                          SparseMemory& dst);

}  // namespace dla::golden
