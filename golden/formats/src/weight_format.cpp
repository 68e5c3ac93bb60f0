#include "dla/formats/weight_format.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <stdexcept>

namespace dla::formats {
namespace {

void put(std::vector<uint8_t>& img, uint64_t off, uint16_t v, unsigned es) {
  img[off] = static_cast<uint8_t>(v);
  if (es == 2) img[off + 1] = static_cast<uint8_t>(v >> 8);
}

uint16_t get(const std::vector<uint8_t>& img, uint64_t off, unsigned es) {
  return es == 2 ? static_cast<uint16_t>(img[off] | (img[off + 1] << 8)) : img[off];
}

void check_grouping(WeightGrouping g) {
  if (g.kernels_per_group == 0 || g.channels_per_block == 0)
    throw std::invalid_argument("weight grouping: kernels per group and channels per block must be >= 1");
}

void check_image_size(const std::vector<uint8_t>& img, uint64_t need, const char* what) {
  if (img.size() < need)
    throw std::invalid_argument(::fmt::format("{}: image has {} bytes, the weights need {}", what, img.size(), need));
}

}  // namespace

KernelSet::KernelSet(uint32_t kk, uint32_t rr, uint32_t ss, uint32_t cc, unsigned es)
    : k(kk), r(rr), s(ss), c(cc), elem_bytes(es) {
  if (kk == 0 || rr == 0 || ss == 0 || cc == 0)
    throw std::invalid_argument(::fmt::format("KernelSet: K={} R={} S={} C={} must all be >= 1", kk, rr, ss, cc));
  if (es != 1 && es != 2) throw std::invalid_argument(::fmt::format("KernelSet: element size {} is not 1 or 2", es));
  values.assign(size_t{kk} * rr * ss * cc, 0);
}

size_t KernelSet::index(uint32_t kk, uint32_t rr, uint32_t ss, uint32_t cc) const {
  if (kk >= k || rr >= r || ss >= s || cc >= c)
    throw std::out_of_range(::fmt::format("KernelSet: ({}, {}, {}, {}) outside {}x{}x{}x{}", kk, rr, ss, cc, k, r, s, c));
  return ((size_t{kk} * r + rr) * s + ss) * c + cc;
}

WeightGrouping v1_weight_grouping(Precision p) {
  return p == Precision::Int8 ? WeightGrouping{32, 64} : WeightGrouping{16, 64};
}

uint64_t dc_weight_offset(const KernelSet& w, WeightGrouping g, uint32_t k, uint32_t r, uint32_t s, uint32_t c) {
  check_grouping(g);
  (void)w.index(k, r, s, c);
  const uint64_t es = w.elem_bytes, ak = g.kernels_per_group, ac = g.channels_per_block;
  const uint64_t grp = k / ak, i = k % ak, n_g = std::min<uint64_t>(ak, w.k - grp * ak);
  const uint64_t blk = c / ac, j = c % ac, m = std::min<uint64_t>(ac, w.c - blk * ac);
  return grp * ak * w.bytes_per_kernel() + blk * ac * w.r * w.s * n_g * es + (uint64_t{r} * w.s + s) * m * n_g * es +
         i * m * es + j * es;
}

std::vector<uint8_t> dc_weight_image(const KernelSet& w, WeightGrouping g) {
  std::vector<uint8_t> img(w.k * w.bytes_per_kernel());
  for (uint32_t k = 0; k < w.k; ++k)
    for (uint32_t r = 0; r < w.r; ++r)
      for (uint32_t s = 0; s < w.s; ++s)
        for (uint32_t c = 0; c < w.c; ++c) put(img, dc_weight_offset(w, g, k, r, s, c), w.at(k, r, s, c), w.elem_bytes);
  return img;
}

KernelSet dc_weights_from_image(const std::vector<uint8_t>& img, uint32_t k, uint32_t r, uint32_t s, uint32_t c,
                                unsigned es, WeightGrouping g) {
  KernelSet w(k, r, s, c, es);
  check_image_size(img, w.k * w.bytes_per_kernel(), "dc_weights_from_image");
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t rr = 0; rr < r; ++rr)
      for (uint32_t ss = 0; ss < s; ++ss)
        for (uint32_t cc = 0; cc < c; ++cc) w.at(kk, rr, ss, cc) = get(img, dc_weight_offset(w, g, kk, rr, ss, cc), es);
  return w;
}

KernelSet pre_extend_image_weights(const KernelSet& w) {
  KernelSet out(w.k, w.r, 1, w.s * w.c, w.elem_bytes);
  for (uint32_t k = 0; k < w.k; ++k)
    for (uint32_t r = 0; r < w.r; ++r)
      for (uint32_t s = 0; s < w.s; ++s)
        for (uint32_t c = 0; c < w.c; ++c) out.at(k, r, 0, s * w.c + c) = w.at(k, r, s, c);
  return out;
}

namespace {
uint64_t post_ext_offset(const KernelSet& w, unsigned p, WeightGrouping g, uint32_t k, uint32_t r, uint32_t kappa) {
  const uint64_t es = w.elem_bytes, ak = g.kernels_per_group, cext = w.c;
  const uint64_t grp = k / ak, i = k % ak, n_g = std::min<uint64_t>(ak, w.k - grp * ak);
  const uint64_t t = r / p, rows = std::min<uint64_t>(p, w.r - t * p);
  return grp * ak * w.bytes_per_kernel() + t * p * cext * n_g * es + i * rows * cext * es + (r - t * p) * cext * es +
         kappa * es;
}

void check_post_ext(const KernelSet& w, unsigned p, WeightGrouping g) {
  check_grouping(g);
  if (p != 1 && p != 2 && p != 4)
    throw std::invalid_argument(::fmt::format("post-extension: {} lines is not 1, 2 or 4", p));
  if (w.s != 1)
    throw std::invalid_argument("post-extension: weights must be pre-extended first (S = 1)");
  if (p > 1 && uint64_t{w.c} * p > g.channels_per_block)
    throw std::invalid_argument(::fmt::format("post-extension: S*C = {} exceeds AC/P = {} (one channel block needed)",
                                              w.c, g.channels_per_block / p));
}
}  // namespace

std::vector<uint8_t> post_extended_weight_image(const KernelSet& w, unsigned p, WeightGrouping g) {
  check_post_ext(w, p, g);
  if (p == 1) return dc_weight_image(w, g);
  std::vector<uint8_t> img(w.k * w.bytes_per_kernel());
  for (uint32_t k = 0; k < w.k; ++k)
    for (uint32_t r = 0; r < w.r; ++r)
      for (uint32_t c = 0; c < w.c; ++c) put(img, post_ext_offset(w, p, g, k, r, c), w.at(k, r, 0, c), w.elem_bytes);
  return img;
}

KernelSet post_extended_weights_from_image(const std::vector<uint8_t>& img, uint32_t k, uint32_t r, uint32_t c,
                                           unsigned es, unsigned p, WeightGrouping g) {
  KernelSet w(k, r, 1, c, es);
  check_post_ext(w, p, g);
  if (p == 1) return dc_weights_from_image(img, k, r, 1, c, es, g);
  check_image_size(img, w.k * w.bytes_per_kernel(), "post_extended_weights_from_image");
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t rr = 0; rr < r; ++rr)
      for (uint32_t cc = 0; cc < c; ++cc) w.at(kk, rr, 0, cc) = get(img, post_ext_offset(w, p, g, kk, rr, cc), es);
  return w;
}

KernelSet winograd_fold_stride(const KernelSet& w, unsigned sx, unsigned sy) {
  if (sx == 0 || sy == 0) throw std::invalid_argument("winograd_fold_stride: strides must be >= 1");
  if (w.r > 3 * sy || w.s > 3 * sx)
    throw std::invalid_argument(::fmt::format("winograd_fold_stride: a {}x{} kernel does not fold into 3x3 with "
                                              "stride ({}, {})", w.s, w.r, sx, sy));
  KernelSet out(w.k, 3, 3, w.c * sx * sy, w.elem_bytes);
  for (uint32_t k = 0; k < w.k; ++k)
    for (uint32_t r = 0; r < 3; ++r)
      for (uint32_t s = 0; s < 3; ++s)
        for (unsigned v = 0; v < sy; ++v)
          for (unsigned u = 0; u < sx; ++u)
            for (uint32_t c = 0; c < w.c; ++c) {
              const uint32_t rr = r * sy + v, ss = s * sx + u;
              out.at(k, r, s, (v * sx + u) * w.c + c) = (rr < w.r && ss < w.s) ? w.at(k, rr, ss, c) : 0;
            }
  return out;
}

namespace {
template <class T, class Gm>
std::array<T, 16> sandwich(const Gm& gm, const std::array<T, 9>& g) {
  std::array<T, 12> t{};  // gm (4x3) * g (3x3)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int m = 0; m < 3; ++m) t[i * 3 + j] += gm[i][m] * g[m * 3 + j];
  std::array<T, 16> u{};  // t (4x3) * gm^T (3x4)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int m = 0; m < 3; ++m) u[i * 4 + j] += t[i * 3 + m] * gm[j][m];
  return u;
}
}  // namespace

std::array<int64_t, 16> winograd_transform_scaled(const std::array<int64_t, 9>& g) {
  static const int64_t two_g[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};
  return sandwich<int64_t>(two_g, g);
}

std::array<double, 16> winograd_transform(const std::array<double, 9>& g) {
  static const double gm[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  return sandwich<double>(gm, g);
}

namespace {
void check_winograd(const KernelSet& u, WeightGrouping g) {
  check_grouping(g);
  if (u.r != 4 || u.s != 4)
    throw std::invalid_argument(::fmt::format("Winograd weights must be 4x4 after the transform, got {}x{}", u.s, u.r));
  if (u.c % 4 != 0)
    throw std::invalid_argument(::fmt::format("Winograd weights: extended channel count {} is not a multiple of 4", u.c));
}
}  // namespace

uint64_t winograd_weight_offset(const KernelSet& u, WeightGrouping g, uint32_t k, uint32_t row, uint32_t col, uint32_t c) {
  check_winograd(u, g);
  (void)u.index(k, row, col, c);
  const uint64_t es = u.elem_bytes, ak = g.kernels_per_group;
  const uint64_t grp = k / ak, i = k % ak, n_g = std::min<uint64_t>(ak, u.k - grp * ak);
  return grp * ak * u.bytes_per_kernel() + (c / 4) * n_g * 64 * es + i * 64 * es + ((row * 4 + col) * 4 + c % 4) * es;
}

std::vector<uint8_t> winograd_weight_image(const KernelSet& u, WeightGrouping g) {
  check_winograd(u, g);
  std::vector<uint8_t> img(u.k * u.bytes_per_kernel());
  for (uint32_t k = 0; k < u.k; ++k)
    for (uint32_t row = 0; row < 4; ++row)
      for (uint32_t col = 0; col < 4; ++col)
        for (uint32_t c = 0; c < u.c; ++c)
          put(img, winograd_weight_offset(u, g, k, row, col, c), u.at(k, row, col, c), u.elem_bytes);
  return img;
}

KernelSet winograd_weights_from_image(const std::vector<uint8_t>& img, uint32_t k, uint32_t c_ext, unsigned es,
                                      WeightGrouping g) {
  KernelSet u(k, 4, 4, c_ext, es);
  check_winograd(u, g);
  check_image_size(img, u.k * u.bytes_per_kernel(), "winograd_weights_from_image");
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t row = 0; row < 4; ++row)
      for (uint32_t col = 0; col < 4; ++col)
        for (uint32_t c = 0; c < c_ext; ++c) u.at(kk, row, col, c) = get(img, winograd_weight_offset(u, g, kk, row, col, c), es);
  return u;
}

std::vector<uint64_t> weight_group_elements(uint32_t k, uint64_t bytes_per_kernel, unsigned es, unsigned ak) {
  if (ak == 0 || (es != 1 && es != 2) || bytes_per_kernel % es != 0)
    throw std::invalid_argument("weight_group_elements: bad kernels per group, element size or BPK");
  std::vector<uint64_t> out;
  for (uint32_t first = 0; first < k; first += ak) out.push_back(std::min<uint64_t>(ak, k - first) * (bytes_per_kernel / es));
  return out;
}

CompressedWeights compress_weights(const std::vector<uint8_t>& image, unsigned es, const std::vector<uint64_t>& groups) {
  if (es != 1 && es != 2) throw std::invalid_argument(::fmt::format("compress_weights: element size {} is not 1 or 2", es));
  const uint64_t n = std::accumulate(groups.begin(), groups.end(), uint64_t{0});
  if (n * es > image.size())
    throw std::invalid_argument(::fmt::format("compress_weights: groups cover {} elements but the image holds {}", n,
                                              image.size() / es));
  CompressedWeights cw;
  cw.total_elements = n;
  cw.wmb.assign((n + 1023) / 1024 * 128, 0);
  uint64_t t = 0;
  for (uint64_t count : groups) {
    uint64_t nnz = 0;
    for (uint64_t e = 0; e < count; ++e, ++t) {
      const uint16_t v = get(image, t * es, es);
      if (v == 0) continue;
      cw.wmb[t / 8] = static_cast<uint8_t>(cw.wmb[t / 8] | (1u << (t % 8)));
      cw.data.push_back(static_cast<uint8_t>(v));
      if (es == 2) cw.data.push_back(static_cast<uint8_t>(v >> 8));
      ++nnz;
    }
    const uint64_t bytes = nnz * es;
    for (int b = 0; b < 4; ++b) cw.wgs.push_back(static_cast<uint8_t>(bytes >> (8 * b)));
    cw.nonzero_elements += nnz;
  }
  cw.data.resize(round_up_128(cw.data.size()), 0);
  return cw;
}

std::vector<uint8_t> decompress_weights(const CompressedWeights& cw, unsigned es, const std::vector<uint64_t>& groups) {
  if (es != 1 && es != 2) throw std::invalid_argument(::fmt::format("decompress_weights: element size {} is not 1 or 2", es));
  const uint64_t n = std::accumulate(groups.begin(), groups.end(), uint64_t{0});
  if (cw.wmb.size() * 8 < n)
    throw std::invalid_argument(::fmt::format("decompress_weights: WMB has {} bits, {} elements need one each",
                                              cw.wmb.size() * 8, n));
  if (cw.wgs.size() < groups.size() * 4)
    throw std::invalid_argument(::fmt::format("decompress_weights: WGS has {} words for {} kernel groups",
                                              cw.wgs.size() / 4, groups.size()));
  std::vector<uint8_t> out(n * es, 0);
  uint64_t t = 0, pos = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const uint64_t start = pos;
    for (uint64_t e = 0; e < groups[g]; ++e, ++t) {
      if (!((cw.wmb[t / 8] >> (t % 8)) & 1u)) continue;
      if (pos + es > cw.data.size())
        throw std::invalid_argument(::fmt::format("decompress_weights: compressed stream ends at byte {} in group {}",
                                                  cw.data.size(), g));
      for (unsigned b = 0; b < es; ++b) out[t * es + b] = cw.data[pos + b];
      pos += es;
    }
    uint64_t wgs = 0;
    for (int b = 0; b < 4; ++b) wgs |= uint64_t{cw.wgs[g * 4 + b]} << (8 * b);
    if (wgs != pos - start)
      throw std::invalid_argument(::fmt::format("decompress_weights: WGS[{}] = {} but the mask selects {} bytes", g, wgs,
                                                pos - start));
  }
  return out;
}

}  // namespace dla::formats
