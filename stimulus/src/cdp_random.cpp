// cdp.random: random legal CDP layers (pdp_cdp_bdma_rubik_glb.md §2) on alternating register
// groups: normalization length 3/5/7/9, every precision of the configuration, input and output
// converters (identity, typical, saturating; junk in the ignored offset bits), the four bypass
// combinations, NaN flush, the LUT seed's six coverage cases plus the LRN-typical and the
// reverse (activation-style) setups with exponent or linear LE and random priorities and
// slopes, cubes from 1x1x1 through C below one atom to many surfaces, data with extremes and
// fp16 specials. Each layer reads back every counter. Default cubes are small so a layer
// takes well under a second of RTL simulation; the size knobs make bigger ones.
#include <fmt/format.h>

#include "cdp_stimulus.h"
#include "generators.h"

namespace dla::stimulus {

namespace {

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const uint64_t layers = k.integer("layers", 1, 64);
  CdpShapeLimits lim;
  lim.max_width = static_cast<uint32_t>(k.integer("max_width", 1, 8192));
  lim.max_height = static_cast<uint32_t>(k.integer("max_height", 1, 8192));
  lim.max_surfaces = static_cast<uint32_t>(k.integer("max_surfaces", 1, 256));
  const double special = static_cast<double>(k.integer("special_permille", 0, 1000)) / 1000.0;

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "cdp.shape");
  Rng layout = Rng::stream(seed, "cdp.layout");
  Rng data = Rng::stream(seed, "cdp.data");
  Rng flow = Rng::stream(seed, "cdp.flow");
  b.note(fmt::format("knobs: layers={} max_width={} max_height={} max_surfaces={} special_permille={}", layers,
                     lim.max_width, lim.max_height, lim.max_surfaces, static_cast<unsigned>(special * 1000)));
  uint64_t next = 0x80000000ull + layout.uniform(0, 0xfff) * 0x1000;
  for (unsigned i = 0; i < layers; ++i) {
    CdpLayerSpec l = random_cdp_layer(cfg, shape, lim);
    place_cdp_layer(l, cfg, layout, next);
    const unsigned group = i % 2;
    b.note(fmt::format("layer {} group {}: {}", i, group, describe_cdp_layer(l)));
    b.load(MemPort::Dbb, l.src, random_cdp_input(l, cfg, data, special));
    b.load(MemPort::Dbb, l.dst, data.bytes(cdp_extent(l, cfg, true)));  // a wrong or missing write shows
    program_cdp_lut(b, cfg, l.lut, flow);
    program_cdp_layer(b, cfg, l, group, flow.chance(0.5));
    finish_cdp_layer(b, cfg, group, cdp_timeout(l, cfg), fmt::format("layer {}", i));
  }
  cdp_quiescent_checks(b, cfg, "at the end");
  return p;
}

}  // namespace

TestGenerator make_cdp_random_generator() {
  TestGenerator g;
  g.name = "cdp.random";
  g.description = "random legal CDP layers (lengths, precisions, converters, bypasses, LUT cases, cube shapes) on both groups";
  g.knobs = {{"layers", "2", "layers, alternating register groups"},
             {"max_width", "4", "largest cube width"},
             {"max_height", "3", "largest cube height"},
             {"max_surfaces", "4", "largest channel count in atoms (C up to this many atoms of lanes)"},
             {"special_permille", "60", "per-mille density of extreme values (int) and NaN/Inf/subnormal/+-0/max (fp16)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::CDP) || !cfg.has_unit(Unit::CDP_RDMA)) return "the configuration has no CDP";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
