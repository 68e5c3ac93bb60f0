// RUBIK figures (v1): cycles of memory-to-memory layers on zero-latency memory (the "fast" AXI
// profile) against the DBB bound max(read beats, write beats): reads and writes use separate
// AXI channels of one 64-byte beat per cycle each, and an atom that does not fill its beat
// costs a whole beat. Issue 17's goal is at most 1.25 x this bound for large layers
// (docs/rubik.md, "RTL").
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/rubik_layer.h"
#include "dla/simulation.h"

namespace {

using namespace dla;

struct Shape {
  const char* name;
  RubikLayer l;
};

// Beats of a run of `atoms` atoms starting at byte address `a` on a bus of `beat` bytes.
uint64_t beats(uint64_t a, uint64_t atoms, uint64_t beat) {
  return (a + atoms * kRubikAtom + beat - 1) / beat - a / beat;
}

// Read and write beats of a layer (packed addresses: every run starts where the formula says).
std::pair<uint64_t, uint64_t> layer_beats(const RubikLayer& l, uint64_t beat) {
  uint64_t rd = 0, wr = 0;
  const uint64_t row_atoms = l.plane_row_bytes() / kRubikAtom;
  switch (l.rubik_mode()) {
    case RubikMode::Contract:
      for (uint32_t s = 0; s < l.out_surfaces(); ++s)
        for (uint32_t h = 0; h < l.height; ++h)
          for (uint32_t t = 0; t < l.stride_x * l.stride_y; ++t) {
            rd += beats(l.in + t * l.contract0 + s * l.in_surface + h * l.in_line, l.width, beat);
            if (t < l.stride_y)
              wr += beats(l.out + s * l.out_surface + h * l.contract1 + t * l.out_line, uint64_t{l.width} * l.stride_x,
                          beat);
          }
      break;
    case RubikMode::Split:
      for (uint32_t h = 0; h < l.height; ++h) {
        for (uint32_t s = 0; s < l.out_surfaces(); ++s)
          rd += beats(l.in + s * l.in_surface + h * l.in_line, l.width, beat);
        for (uint32_t c = 0; c < l.out_channels; ++c)
          wr += beats(l.out + c * l.out_planar + h * l.out_line, row_atoms, beat);
      }
      break;
    case RubikMode::Merge:
      for (uint32_t h = 0; h < l.height; ++h) {
        for (uint32_t c = 0; c < l.channels; ++c) rd += beats(l.in + c * l.in_planar + h * l.in_line, row_atoms, beat);
        for (uint32_t s = 0; s < l.in_surfaces(); ++s)
          wr += beats(l.out + s * l.out_surface + h * l.out_line, l.width, beat);
      }
      break;
  }
  return {rd, wr};
}

struct Figure {
  uint64_t cycles = 0, rd_beats = 0, wr_beats = 0;
  bool ok = false;
};

Figure measure(const RubikLayer& l) {
  const HwConfig& cfg = HwConfig::get("v1");
  const RegisterMap& map = RegisterMap::of(cfg);
  const uint32_t base = map.address_of(*map.find("RBK.D_OP_ENABLE")) - reg::RBK::D_OP_ENABLE::offset;
  tb::SimOptions o;
  o.seed = 1;
  o.axi_profile = "fast";
  o.watchdog_cycles = 2'000'000;
  auto sim = tb::make_simulation("v1", o);
  const RubikExtent in = rubik_read_extent(l);
  std::vector<uint8_t> bytes(static_cast<size_t>(in.end - in.begin));
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 13 + (i >> 9));
  sim->memory(MemPort::Dbb).load(in.begin, bytes.data(), bytes.size());
  for (const auto& [off, v] : rubik_register_values(l)) sim->csb_write(base + off, v);
  sim->drain_csb();
  const uint64_t start = sim->cycle();
  sim->csb_write(base + reg::RBK::D_OP_ENABLE::offset, 1);
  Figure f;
  f.ok = sim->run_until_interrupt(50'000'000);
  f.cycles = sim->cycle() - start;
  std::tie(f.rd_beats, f.wr_beats) = layer_beats(l, cfg.dbb_bytes());
  return f;
}

// Packed strides for a layer at IN = 1 MiB, OUT = 64 MiB (both on DBB).
RubikLayer packed(uint32_t mode, uint32_t precision, uint32_t w, uint32_t h, uint32_t c, uint32_t co, uint32_t sx,
                  uint32_t sy) {
  RubikLayer l;
  l.mode = mode, l.precision = precision, l.width = w, l.height = h, l.channels = c, l.out_channels = co;
  l.stride_x = sx, l.stride_y = sy;
  l.in_port = l.out_port = MemPort::Dbb;
  l.in = 0x100000, l.out = 0x4000000;
  const uint64_t a = kRubikAtom, row = l.plane_row_bytes();
  switch (l.rubik_mode()) {
    case RubikMode::Contract:
      l.in_line = w * a, l.in_surface = uint64_t{h} * w * a, l.contract0 = l.out_surfaces() * l.in_surface;
      l.out_line = uint64_t{w} * sx * a, l.contract1 = sy * l.out_line, l.out_surface = h * l.contract1;
      break;
    case RubikMode::Split:
      l.in_line = w * a, l.in_surface = uint64_t{h} * w * a;
      l.out_line = row, l.out_planar = h * row;
      break;
    case RubikMode::Merge:
      l.in_line = row, l.in_planar = h * row;
      l.out_line = w * a, l.out_surface = uint64_t{h} * w * a;
      break;
  }
  return l;
}

}  // namespace

int main() {
  const std::vector<Shape> shapes = {
      {"contract int8 1x1 256x8x64", packed(0, 0, 256, 8, 64, 64, 1, 1)},
      {"contract int16 2x2 128x8x32", packed(0, 1, 128, 8, 32, 32, 2, 2)},
      {"contract fp16 3x1 64x8x32", packed(0, 2, 64, 8, 32, 32, 3, 1)},
      {"split int8 256x8 64->64", packed(1, 0, 256, 8, 64, 64, 1, 1)},
      {"split fp16 256x8 32->32", packed(1, 2, 256, 8, 32, 32, 1, 1)},
      {"merge int8 256x8 64", packed(2, 0, 256, 8, 64, 64, 1, 1)},
      {"merge int16 256x8 32", packed(2, 1, 256, 8, 32, 32, 1, 1)},
  };
  fmt::print("RUBIK v1, fast memory: cycles from OP_EN to the done interrupt; bound = max(read, write) beats\n");
  for (const Shape& s : shapes) {
    const Figure f = measure(s.l);
    const uint64_t bound = std::max(f.rd_beats, f.wr_beats);
    fmt::print("  {:32} {:>8} cycles  reads {:>6} writes {:>6} beats  {:.3f} x bound{}\n", s.name, f.cycles, f.rd_beats,
               f.wr_beats, static_cast<double>(f.cycles) / static_cast<double>(bound), f.ok ? "" : "  (no interrupt)");
  }
  return 0;
}
