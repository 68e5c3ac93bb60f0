// cdp.random: random legal CDP layers (pdp_cdp_bdma_rubik_glb.md §2) on alternating register
// groups: normalization length 3/5/7/9, every precision of the configuration, input and output
// converters (identity, typical, saturating; junk in the ignored offset bits), the four bypass
// combinations, NaN flush, the LUT seed's six coverage cases plus the LRN-typical and the
// reverse (activation-style) setups with exponent or linear LE and random priorities and
// slopes, cubes from 1x1x1 through C below one atom to many surfaces, data with extremes and
// fp16 specials. Each layer reads back every counter. Default cubes are small so a layer
// takes well under a second of RTL simulation; the size knobs make bigger ones. lut_readback
// and lut_sweep_percent (mutation grading found table bits no test looked at) read both LUT
// tables back in full and sweep ramp data through every entry of one table; rounding_percent
// gives the input converter real right shifts (its rounding and tie logic per lane);
// early_rdma_percent arms CDP_RDMA before CDP's group is programmed (CDP must wait for its own
// OP_EN); armed_writes writes the first-armed unit's group (every register, and D_OP_ENABLE =
// 0) before the second unit is armed and reads it back (an armed group drops writes);
// high_addresses places the layers anywhere in the address space (every address bit toggles).
#include <fmt/format.h>

#include "cdp_stimulus.h"
#include "generators.h"
#include "region_start.h"

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
  const CdpLutReadback readback = k.choice("lut_readback", {"sample", "all"}) == "all" ? CdpLutReadback::All
                                                                                      : CdpLutReadback::Sample;
  const uint64_t sweep_percent = k.integer("lut_sweep_percent", 0, 100);
  const uint64_t rounding_percent = k.integer("rounding_percent", 0, 100);
  const uint64_t early_rdma_percent = k.integer("early_rdma_percent", 0, 100);
  const bool armed_writes = k.choice("armed_writes", {"off", "on"}) == "on";
  const bool high_addresses = k.choice("high_addresses", {"off", "on"}) == "on";

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "cdp.shape");
  Rng layout = Rng::stream(seed, "cdp.layout");
  Rng data = Rng::stream(seed, "cdp.data");
  Rng flow = Rng::stream(seed, "cdp.flow");
  Rng sweep_rng = Rng::stream(seed, "cdp.sweep");
  Rng rounding_rng = Rng::stream(seed, "cdp.rounding");
  Rng order_rng = Rng::stream(seed, "cdp.order");
  Rng armed = Rng::stream(seed, "cdp.armed");  // drawn only with armed_writes=on
  b.note(fmt::format("knobs: layers={} max_width={} max_height={} max_surfaces={} special_permille={} lut_readback={} "
                     "lut_sweep_percent={} rounding_percent={} early_rdma_percent={}",
                     layers, lim.max_width, lim.max_height, lim.max_surfaces, static_cast<unsigned>(special * 1000),
                     readback == CdpLutReadback::All ? "all" : "sample", sweep_percent, rounding_percent,
                     early_rdma_percent) +
         (armed_writes ? " armed_writes=on" : "") + (high_addresses ? " high_addresses=on" : ""));
  CdpShapeLimits sweep_lim = lim;
  sweep_lim.precisions = {Precision::Int8};
  uint64_t next = 0x80000000ull + layout.uniform(0, 0xfff) * 0x1000;
  if (high_addresses) {  // any atom below the top 256 MiB (own stream: the layout stays)
    Rng high = Rng::stream(seed, "cdp.high");
    next = random_dbb_start_anywhere(cfg, high, true);
  }
  for (unsigned i = 0; i < layers; ++i) {
    // Sweep draws come from their own stream so that lut_sweep_percent=0 keeps every program.
    const bool sweep = sweep_percent != 0 && sweep_rng.below(100) < sweep_percent;
    CdpLayerSpec l = random_cdp_layer(cfg, shape, sweep ? sweep_lim : lim);
    if (sweep) make_cdp_lut_sweep(l, cfg, sweep_rng.chance(0.5));
    if (!sweep && rounding_percent != 0 && rounding_rng.below(100) < rounding_percent)
      make_cdp_rounding_converter(l, rounding_rng);
    place_cdp_layer(l, cfg, layout, next);
    const unsigned group = i % 2;
    b.note(fmt::format("layer {} group {}: {}{}", i, group, sweep ? "LUT sweep " : "", describe_cdp_layer(l)));
    b.load(MemPort::Dbb, l.src, sweep ? cdp_sweep_input(l, cfg, data) : random_cdp_input(l, cfg, data, special));
    b.load(MemPort::Dbb, l.dst, data.bytes(cdp_extent(l, cfg, true)));  // a wrong or missing write shows
    program_cdp_lut(b, cfg, l.lut, flow, readback);
    const bool rdma_first = flow.chance(0.5);
    const bool early = early_rdma_percent != 0 && order_rng.below(100) < early_rdma_percent;
    if (early) b.note(fmt::format("layer {}: CDP_RDMA armed before CDP is programmed", i));
    program_cdp_layer(b, cfg, l, group, rdma_first, -1, early, armed_writes && !early ? &armed : nullptr);
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
             {"special_permille", "60", "per-mille density of extreme values (int) and NaN/Inf/subnormal/+-0/max (fp16)"},
             {"lut_readback", "sample", "LUT read-back after programming: sample (sometimes 3 entries) | all (both tables)"},
             {"lut_sweep_percent", "0",
              "per-cent of layers that sweep one LUT table: int8, ramp input -128..127, linear LE/LO indexing every entry"},
             {"rounding_percent", "0",
              "per-cent of integer layers whose input converter shifts right by 1..24 with a matching scale (rounding, ties)"},
             {"early_rdma_percent", "0",
              "per-cent of layers whose CDP_RDMA is armed before any CDP register of the group is written"},
             {"armed_writes", "off",
              "on: writes to the first-armed unit's group (D_OP_ENABLE = 0 too) before the second is armed, read back: "
              "an armed group drops them (not on early_rdma layers)"},
             {"high_addresses", "off",
              "on: the layers' regions start anywhere in the DBB address space (default: 16 MiB above 0x8000_0000)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::CDP) || !cfg.has_unit(Unit::CDP_RDMA)) return "the configuration has no CDP";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
