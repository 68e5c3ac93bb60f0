// What the convolution buffer holds between layers (docs/conv.md, "CBUF"): the input slices a
// layer kept (SKIP_DATA_RLS, or the part RLS_SLICES did not release) and the weights kept with
// SKIP_WEIGHT_RLS. The golden model carries this from layer to layer because DATA_REUSE and
// WEIGHT_REUSE make the next layer compute on it; within a layer the CBUF is only a staging
// area and is not modelled entry by entry.
#pragma once

#include <cstdint>
#include <vector>

#include "dla/conv_layer.h"

namespace dla::golden {

struct ConvCbuf {
  // Data: slices in input order (direct: slice = line y of batch b at y * N + b, W x C
  // elements; image: one padded line; Winograd: one extended row), processing-precision
  // element patterns.
  bool has_data = false;
  bool data_kept_all = false;  // the keeping layer had SKIP_DATA_RLS = 1 (full reuse possible)
  ConvInputKind kind = ConvInputKind::Feature;
  unsigned data_bank = 0, weight_bank = 0;
  Precision proc = Precision::Int8;
  uint32_t slice_width = 0, slice_channels = 0, batches = 1;
  std::vector<std::vector<uint16_t>> slices;

  // Weights kept with SKIP_WEIGHT_RLS = 1: the uncompressed weight image and what describes it.
  bool has_weights = false;
  std::vector<uint8_t> weight_image;
  uint64_t weight_bytes = 0, wmb_bytes = 0, bytes_per_kernel = 0;
  uint32_t kernels = 0;
  bool compressed = false;

  void clear_data() {
    has_data = false;
    data_kept_all = false;
    slices.clear();
  }
  void clear_weights() {
    has_weights = false;
    weight_image.clear();
  }
};

}  // namespace dla::golden
