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

// Name of the first known erratum the completed layers of `layers` hit, or nullopt (PDP first,
// then conv-weight-release-lost, which hangs the run whatever else its layers hit, then the
// other conv errata):
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
//     region than the previous layer's (NVIDIA keeps the ring positions: it can hang);
//   conv-weight-release-lost: a conv layer's largest kernel group (all its weights with
//     SKIP_WEIGHT_RLS) does not fit its weight region beside the entries earlier layers certainly
//     left in CDMA's count of unreleased weights (NVIDIA loses the releases CSC reports after
//     CDMA's done; dla/nvdla_weight_credit.h): its weight fetch hangs.
std::optional<std::string> nvdla_erratum_of(const HwConfig& cfg, const std::vector<LayerRecord>& layers);

}  // namespace dla
