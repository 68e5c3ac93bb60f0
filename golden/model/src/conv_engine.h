// The convolution pipeline as one function: CDMA fetch and conversion into the CBUF, CSC
// sequencing (padding, stride, dilation, pre-/post-extension, Winograd PRA, weight
// decompression), CMAC products and CACC accumulation, truncation and saturation
// (docs/conv.md). The result is the stream CACC sends to SDP, as whole output atoms.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conv_cbuf.h"
#include "dla/conv_layer.h"
#include "dla/sparse_memory.h"

namespace dla::golden {

// CACC's output: atoms of AK 32-bit values (int32, or fp32 patterns for fp16), channel
// g * AK + i in lane i, lanes of kernels >= K zero.
struct ConvOutput {
  uint32_t width = 0, height = 0, kernels = 0, batches = 1;
  unsigned lanes = 0;  // AK at the processing precision
  Precision proc = Precision::Int8;
  bool winograd = false;
  std::vector<uint32_t> values;  // index (((g * H + y) * W + x) * N + b) * lanes + i

  uint32_t groups() const { return (kernels + lanes - 1) / lanes; }
  const uint32_t* atom(uint32_t g, uint32_t y, uint32_t x, uint32_t b) const {
    return &values[((((size_t{g} * height + y) * width + x) * batches) + b) * lanes];
  }
};

// Per-layer statistics latched at done (CDMA D_NAN/INF_INPUT_*, CACC D_OUT_SATURATION).
struct ConvCounters {
  uint64_t nan_data = 0, inf_data = 0, nan_weight = 0, inf_weight = 0;
  uint64_t out_saturation = 0;
};

struct ConvRun {
  ConvOutput output;
  ConvCounters counters;
};

struct ConvMemories {
  const SparseMemory& dbb;
  const SparseMemory& sram;
  const SparseMemory& of(MemPort p) const { return p == MemPort::Sram ? sram : dbb; }
};

// Runs layer `l` on the CBUF state `cbuf` (updated with what the layer keeps). nullopt: the
// layer breaks a rule and never completes; every broken rule is passed to `warn`.
std::optional<ConvRun> run_conv_layer(const ConvLayer& l, const HwConfig& cfg, ConvCbuf& cbuf, const ConvMemories& mem,
                                      const std::function<void(const std::string&)>& warn);

}  // namespace dla::golden
