// Feature cube pack (tensor -> memory image) and unpack throughput. Reports bytes/s of
// tensor data; Google Benchmark prints it as GB/s ("bytes_per_second").
#include <benchmark/benchmark.h>

#include <random>

#include "dla/formats/feature_layout.h"

namespace {
using namespace dla::formats;

struct Fixture {
  CubeShape shape;
  unsigned elem_bytes;
  FeatureLayout layout;
  FeatureTensor tensor;
  VectorMemory mem;

  Fixture(CubeShape s, unsigned bpe, unsigned atom)
      : shape(s), elem_bytes(bpe), layout(FeatureLayout::packed(s, bpe, atom)), tensor(s, bpe),
        mem(0, footprint(s, bpe, layout).second) {
    std::mt19937_64 rng(7);
    for (size_t i = 0; i < tensor.size_bytes(); ++i) tensor.data()[i] = static_cast<uint8_t>(rng());
  }
};

// args: W, H, C, element bytes, atom bytes
void BM_PackFeatureCube(benchmark::State& state) {
  Fixture f({static_cast<uint32_t>(state.range(0)), static_cast<uint32_t>(state.range(1)),
             static_cast<uint32_t>(state.range(2)), 1},
            static_cast<unsigned>(state.range(3)), static_cast<unsigned>(state.range(4)));
  for (auto _ : state) {
    write_feature_cube(f.mem, f.tensor, f.layout);
    benchmark::DoNotOptimize(f.mem.bytes().data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(f.tensor.size_bytes()));
}

void BM_UnpackFeatureCube(benchmark::State& state) {
  Fixture f({static_cast<uint32_t>(state.range(0)), static_cast<uint32_t>(state.range(1)),
             static_cast<uint32_t>(state.range(2)), 1},
            static_cast<unsigned>(state.range(3)), static_cast<unsigned>(state.range(4)));
  write_feature_cube(f.mem, f.tensor, f.layout);
  for (auto _ : state) {
    FeatureTensor t = read_feature_cube(f.mem, f.shape, f.elem_bytes, f.layout);
    benchmark::DoNotOptimize(t.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(f.tensor.size_bytes()));
}

#define CUBE_ARGS                                                                                      \
  ArgNames({"W", "H", "C", "bpe", "atom"})                                                             \
      ->Args({56, 56, 64, 1, 32})                                                                      \
      ->Args({56, 56, 64, 2, 32})                                                                      \
      ->Args({56, 56, 64, 1, 8})                                                                       \
      ->Args({224, 224, 3, 1, 32})                                                                     \
      ->Args({7, 7, 1000, 2, 32})

BENCHMARK(BM_PackFeatureCube)->CUBE_ARGS;
BENCHMARK(BM_UnpackFeatureCube)->CUBE_ARGS;

}  // namespace

BENCHMARK_MAIN();
