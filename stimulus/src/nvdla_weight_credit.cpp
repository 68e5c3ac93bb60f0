#include "dla/nvdla_weight_credit.h"

#include <algorithm>
#include <numeric>

namespace dla {

namespace {

uint64_t sum(const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); }
uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

}  // namespace

std::vector<uint64_t> nvdla_weight_group_entries(uint64_t kernels, uint64_t bytes_per_kernel, uint64_t weight_bytes,
                                                 unsigned kernels_per_group, unsigned entry_bytes) {
  std::vector<uint64_t> out;
  if (kernels == 0 || kernels_per_group == 0 || entry_bytes == 0) return out;
  const uint64_t groups = (kernels + kernels_per_group - 1) / kernels_per_group;
  uint64_t end = 0;
  for (uint64_t g = 1; g <= groups; ++g) {
    const uint64_t bytes = g < groups ? g * kernels_per_group * bytes_per_kernel : weight_bytes;
    const uint64_t next = std::max(end, (bytes + entry_bytes - 1) / entry_bytes);
    out.push_back(next - end);
    end = next;
  }
  return out;
}

uint64_t NvdlaWeightCredit::need(const NvdlaWeightLayer& l) {
  if (l.reuses || l.groups.empty()) return 0;
  return l.keeps ? sum(l.groups) : *std::max_element(l.groups.begin(), l.groups.end());
}

uint64_t NvdlaWeightCredit::low(const NvdlaWeightLayer& next) const {
  // Weights the previous layer kept and `next` does not reuse are handed back when CSC starts
  // `next`, before CDMA does: that release may or may not be counted.
  return !kept_.empty() && !next.reuses ? minus(low_, sum(kept_)) : low_;
}

void NvdlaWeightCredit::run(const NvdlaWeightLayer& l) {
  if (l.reuses) {
    // CDMA fetches nothing and is done once its data are in; CSC releases the kept groups
    // (unless it keeps them again), the last one after CDMA's done.
    if (!kept_.empty() && !l.keeps) {
      low_ = minus(low_, sum(kept_) - kept_.back());
      kept_.clear();
    }
    return;
  }
  low_ = low(l);
  kept_.clear();
  if (l.groups.empty()) return;
  const uint64_t total = sum(l.groups);
  if (l.keeps) {  // every entry stays occupied until a later layer releases it
    low_ += total;
    high_ = std::min(high_ + total, std::max(high_, l.region));
    kept_ = l.groups;
    return;
  }
  // CSC releases the groups in order; those still unreleased at CDMA's done (a suffix that fits
  // the room CDMA had) are lost. The last group always is: CSC cannot finish it before CDMA has
  // written it.
  const uint64_t room = minus(l.region, low_);
  uint64_t suffix = 0;
  for (auto g = l.groups.rbegin(); g != l.groups.rend() && suffix + *g <= room; ++g) suffix += *g;
  high_ = std::min(high_ + suffix, std::max(high_, l.region));
  low_ += l.groups.back();
}

}  // namespace dla
