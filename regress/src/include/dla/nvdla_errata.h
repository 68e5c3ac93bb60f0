// Known errata of NVIDIA's NVDLA RTL (docs/nvdla-differential.md). A run on an NVDLA DUT that
// fails while its program contains a layer of a known erratum is bucketed as
// `nvdla-erratum:<name>` instead of by its first mismatch, so the regression separates
// NVIDIA's known faults from new disagreements.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dla/unit_model.h"

namespace dla {

// Name of the first known erratum a completed layer of `layers` hits ("pdp-unused-edges":
// a PDP layer with rows below or columns right of its last pooling window), or nullopt.
std::optional<std::string> nvdla_erratum_of(const std::vector<LayerRecord>& layers);

}  // namespace dla
