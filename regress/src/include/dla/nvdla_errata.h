// Known errata of NVIDIA's NVDLA RTL (docs/nvdla-differential.md). A run on an NVDLA DUT that
// fails while its program contains a layer of a known erratum is bucketed as
// `nvdla-erratum:<name>` instead of by its first mismatch, so the regression separates
// NVIDIA's known faults from new disagreements.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/unit_model.h"

namespace dla {

// Name of the first known erratum the completed layers of `layers` hit, or nullopt:
//   pdp-unused-edges: a PDP layer with rows below or columns right of its last pooling window;
//   conv-weight-bytes-unreleased: a conv layer fetched more WEIGHT_BYTES than the entries its
//     kernels fill (K x BPK rounded to the CBUF entry) and the next conv layer keeps the bank
//     split (NVIDIA never releases the extra entries: the next layer's weights are shifted);
//   conv-post-extension-x-stride: an image layer with post-extension (Y_EXTENSION > 0) and an
//     x stride above 1 (NVIDIA's CSC reads the wrong pixels: output 0 gets pixel sx, the
//     rest of the line zeros);
//   conv-image-single-column: an image layer with one output column (DATAOUT_WIDTH = 0) whose
//     pre-extended kernel S x C spans more than three channel blocks (NVIDIA reads block 3
//     and later one block early);
//   conv-bank-region-shrinks: a conv layer changes the bank split to a smaller data or weight
//     region than the previous layer's (NVIDIA keeps the ring positions: it can hang).
std::optional<std::string> nvdla_erratum_of(const HwConfig& cfg, const std::vector<LayerRecord>& layers);

}  // namespace dla
