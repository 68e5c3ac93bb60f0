// NVIDIA nv_small erratum `conv-weight-release-lost` (docs/nvdla-differential.md): CDMA stops
// accepting weight data while its count of weight entries written to the CBUF and not yet
// released by CSC has reached the weight region. That count is clocked by CDMA's weight clock,
// which runs only while a CDMA layer is enabled, so a release CSC reports after CDMA's own done,
// with no next CDMA layer armed, is never subtracted; only reset clears the count (a bank-split
// change does not). Layers programmed one after another (each after the previous layer's done
// interrupts, as the project's generators do) therefore leave entries behind: at least each
// layer's last kernel group, at most everything still unreleased at CDMA's done. Once the
// entries left behind plus what a layer must hold at once (its largest kernel group; all its
// weights with SKIP_WEIGHT_RLS) exceed the weight region, that layer's weight fetch hangs.
//
// NvdlaWeightCredit follows both bounds over a sequence of conv layers: the classifier
// (nvdla_erratum_of) reports layers that certainly hang, conv.random with nvdla_errata=avoid
// draws only layers that certainly do not.
#pragma once

#include <cstdint>
#include <vector>

namespace dla {

// Entries CDMA writes per kernel group, in order: a group ends where CDMA's running byte count
// reaches g x kernels_per_group x bytes_per_kernel (the last one at WEIGHT_BYTES), in whole
// CBUF entries. Empty for no kernels.
std::vector<uint64_t> nvdla_weight_group_entries(uint64_t kernels, uint64_t bytes_per_kernel, uint64_t weight_bytes,
                                                 unsigned kernels_per_group, unsigned entry_bytes);

// One conv layer's weight traffic.
struct NvdlaWeightLayer {
  uint64_t region = 0;          // weight region in entries: (WEIGHT_BANK + 1) x bank entries
  std::vector<uint64_t> groups;  // entries per kernel group (nvdla_weight_group_entries)
  bool keeps = false;            // SKIP_WEIGHT_RLS: CSC releases none of them in this layer
  bool reuses = false;           // WEIGHT_REUSE after a SKIP_WEIGHT_RLS layer: CDMA fetches nothing
};

class NvdlaWeightCredit {
 public:
  // Entries of the weight region the layer needs free at once (0 when CDMA fetches nothing).
  static uint64_t need(const NvdlaWeightLayer& l);
  // Bounds on the entries CDMA counts as occupied when the next layer starts fetching.
  uint64_t low(const NvdlaWeightLayer& next) const;
  uint64_t high() const { return high_; }
  // The layer's weight fetch hangs on NVIDIA for sure / may hang.
  bool certain_hang(const NvdlaWeightLayer& l) const { return need(l) > 0 && low(l) + need(l) > l.region; }
  bool possible_hang(const NvdlaWeightLayer& l) const { return need(l) > 0 && high_ + need(l) > l.region; }
  // The layer ran (programmed after the previous one's done, followed by its own done).
  void run(const NvdlaWeightLayer& l);

 private:
  uint64_t low_ = 0, high_ = 0;
  std::vector<uint64_t> kept_;  // groups kept by the previous layer (SKIP_WEIGHT_RLS)
};

}  // namespace dla
