#pragma once
// Convolution weight images (seed "Weight Format"; conv.md §3.2, §5.5, §5.6, §6.1-6.2,
// §6.6, §7): direct convolution, image-mode channel pre-/post-extension, Winograd, and
// sparse compression.
#include <array>
#include <cstdint>
#include <vector>

#include "dla/hwconfig.h"

namespace dla::formats {

// K kernels of R x S x C elements (raw 8/16-bit patterns), index ((k*R + r)*S + s)*C + c.
struct KernelSet {
  uint32_t k = 1, r = 1, s = 1, c = 1;
  unsigned elem_bytes = 1;
  std::vector<uint16_t> values;

  KernelSet() = default;
  KernelSet(uint32_t kk, uint32_t rr, uint32_t ss, uint32_t cc, unsigned es);  // zero-filled, validated
  uint16_t& at(uint32_t kk, uint32_t rr, uint32_t ss, uint32_t cc) { return values[index(kk, rr, ss, cc)]; }
  uint16_t at(uint32_t kk, uint32_t rr, uint32_t ss, uint32_t cc) const { return values[index(kk, rr, ss, cc)]; }
  size_t index(uint32_t kk, uint32_t rr, uint32_t ss, uint32_t cc) const;  // bounds-checked
  uint64_t bytes_per_kernel() const { return uint64_t{r} * s * c * elem_bytes; }  // BPK
  bool operator==(const KernelSet& o) const {
    return k == o.k && r == o.r && s == o.s && c == o.c && elem_bytes == o.elem_bytes && values == o.values;
  }
};

// Kernels per group (AK) and channels per small-cube block (AC).
struct WeightGrouping {
  unsigned kernels_per_group;
  unsigned channels_per_block;
};
// nv_full / v1: int8 AK 32, AC 64; int16/fp16 AK 16, AC 64 (conv.md §3.2, seed). Other
// configurations pass their own values (nv_small: AK = AC = 8, conv.md §10.1).
WeightGrouping v1_weight_grouping(Precision p);

// NVDLA tools program WEIGHT_BYTES (and WMB/compressed sizes) rounded up to 128 bytes.
inline uint64_t round_up_128(uint64_t n) { return (n + 127) / 128 * 128; }

// ---- Direct convolution (conv.md §3.2): groups -> channel blocks -> (r, s) -> kernel -> lane.
uint64_t dc_weight_offset(const KernelSet& w, WeightGrouping g, uint32_t k, uint32_t r, uint32_t s, uint32_t c);
// K*BPK bytes, no tail padding (pad with round_up_128 when placing in memory).
std::vector<uint8_t> dc_weight_image(const KernelSet& w, WeightGrouping g);
KernelSet dc_weights_from_image(const std::vector<uint8_t>& img, uint32_t k, uint32_t r, uint32_t s, uint32_t c,
                                unsigned elem_bytes, WeightGrouping g);

// ---- Image input: pre-extension folds the kernel width into channels (conv.md §5.5):
// result is K x R x 1 x (S*C) with channel s*C + c.
KernelSet pre_extend_image_weights(const KernelSet& w);
// Post-extension with P = 1, 2 or 4 kernel rows per atomic operation (conv.md §5.6), applied
// to pre-extended weights (S = 1). P = 1 is the plain direct layout. Requires S*C <= AC/P.
std::vector<uint8_t> post_extended_weight_image(const KernelSet& pre_extended, unsigned p, WeightGrouping g);
KernelSet post_extended_weights_from_image(const std::vector<uint8_t>& img, uint32_t k, uint32_t r, uint32_t c,
                                           unsigned elem_bytes, unsigned p, WeightGrouping g);

// ---- Winograd (conv.md §6.1, §6.2, §6.6).
// Fold an R x S kernel of stride (sx, sy) into a 3 x 3 kernel over C*sx*sy channels:
// g'[k][r'][s'][(v*sx + u)*C + c] = g[k][r'*sy + v][s'*sx + u][c] (0 outside R x S).
// Requires R <= 3*sy and S <= 3*sx.
KernelSet winograd_fold_stride(const KernelSet& w, unsigned sx, unsigned sy);
// U = (2G) g (2G)^T = 4 * G g G^T: exact integers for integer weights (the factor 4 is
// compensated by software). g is row-major 3x3, U row-major 4x4.
std::array<int64_t, 16> winograd_transform_scaled(const std::array<int64_t, 9>& g);
// U = G g G^T in doubles (fp16 software transform before rounding to fp16).
std::array<double, 16> winograd_transform(const std::array<double, 9>& g);
// Layout of transformed weights: u is K x 4 x 4 x C_ext (KernelSet with r = s = 4),
// groups -> blocks of 4 channels -> kernel -> ((row*4 + col)*4 + ch%4). C_ext % 4 == 0.
uint64_t winograd_weight_offset(const KernelSet& u, WeightGrouping g, uint32_t k, uint32_t row, uint32_t col,
                                uint32_t c);
std::vector<uint8_t> winograd_weight_image(const KernelSet& u, WeightGrouping g);
KernelSet winograd_weights_from_image(const std::vector<uint8_t>& img, uint32_t k, uint32_t c_ext,
                                      unsigned elem_bytes, WeightGrouping g);

// ---- Sparse compression (conv.md §7, seed "Sparse Compression option").
struct CompressedWeights {
  std::vector<uint8_t> wmb;     // mask bits, LSB first, padded to ceil(N / 1024) * 128 bytes
  std::vector<uint8_t> data;    // non-zero elements back to back, padded to a multiple of 128
  std::vector<uint8_t> wgs;     // one 32-bit little-endian byte count per kernel group
  uint64_t nonzero_elements = 0;
  uint64_t total_elements = 0;  // N
};
// image: an uncompressed weight image (any of the layouts above, without tail padding);
// group_elements: element count of each kernel group in image order (n_g * BPK / es).
// A mask bit is 1 exactly for elements whose bit pattern is not 0.
CompressedWeights compress_weights(const std::vector<uint8_t>& image, unsigned elem_bytes,
                                   const std::vector<uint64_t>& group_elements);
// Element counts per kernel group for K kernels of BPK bytes with AK kernels per group.
std::vector<uint64_t> weight_group_elements(uint32_t k, uint64_t bytes_per_kernel, unsigned elem_bytes,
                                            unsigned kernels_per_group);
// Inverse: the uncompressed image (N elements). Throws if the streams are too short or WGS
// disagrees with the mask.
std::vector<uint8_t> decompress_weights(const CompressedWeights& cw, unsigned elem_bytes,
                                        const std::vector<uint64_t>& group_elements);

}  // namespace dla::formats
