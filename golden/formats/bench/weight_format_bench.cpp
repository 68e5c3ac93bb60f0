// Weight-format conversion throughput (direct-convolution image, Winograd image, sparse
// compression). Bytes/s counts the uncompressed weight bytes.
#include <benchmark/benchmark.h>

#include <random>

#include "dla/formats/weight_format.h"

namespace {
using namespace dla::formats;

KernelSet make_kernels(uint32_t k, uint32_t r, uint32_t s, uint32_t c, unsigned es, double zeros) {
  KernelSet w(k, r, s, c, es);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& v : w.values) v = u(rng) < zeros ? 0 : static_cast<uint16_t>(1 + rng() % 255);
  return w;
}

void BM_DirectConvWeightImage(benchmark::State& state) {
  const unsigned es = static_cast<unsigned>(state.range(0));
  const KernelSet w = make_kernels(64, 3, 3, 128, es, 0.0);
  const WeightGrouping g = v1_weight_grouping(es == 1 ? dla::Precision::Int8 : dla::Precision::Int16);
  for (auto _ : state) {
    auto img = dc_weight_image(w, g);
    benchmark::DoNotOptimize(img.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * w.k * w.bytes_per_kernel()));
}

void BM_WinogradWeightImage(benchmark::State& state) {
  const KernelSet u = make_kernels(64, 4, 4, 64, 2, 0.0);
  const WeightGrouping g = v1_weight_grouping(dla::Precision::Int16);
  for (auto _ : state) {
    auto img = winograd_weight_image(u, g);
    benchmark::DoNotOptimize(img.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * u.k * u.bytes_per_kernel()));
}

void BM_CompressWeights(benchmark::State& state) {
  const KernelSet w = make_kernels(64, 3, 3, 128, 1, 0.6);
  const WeightGrouping g = v1_weight_grouping(dla::Precision::Int8);
  const auto img = dc_weight_image(w, g);
  const auto groups = weight_group_elements(w.k, w.bytes_per_kernel(), 1, g.kernels_per_group);
  for (auto _ : state) {
    auto cw = compress_weights(img, 1, groups);
    benchmark::DoNotOptimize(cw.data.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * img.size()));
}

BENCHMARK(BM_DirectConvWeightImage)->ArgName("elem_bytes")->Arg(1)->Arg(2);
BENCHMARK(BM_WinogradWeightImage);
BENCHMARK(BM_CompressWeights);

}  // namespace
