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
// high_addresses places the layers anywhere in the address space (every address bit toggles);
// busy_reads reads the arm-cleared counters right after the arms; fp16_corners makes fp16 layers
// whose LUTs hold only +-0, subnormals and the smallest normals and whose inputs have runs of
// specials across neighbouring channels (corner operands the float lanes' adders otherwise see
// about once in a million elements).
#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <tuple>

#include "dla/regs.gen.h"

#include "cdp_stimulus.h"
#include "generators.h"
#include "region_start.h"

namespace dla::stimulus {

namespace {

// Inputs of at least this many atoms take longer to read (a DMA beat of one or two atoms a cycle)
// than the CSB reads right after the arms: the layer still runs when busy_reads reads S_STATUS
// and the stall counters.
constexpr uint64_t kBusyCheckAtoms = 256;

CdpLutClass lut_class_named(const std::string& name) {
  for (unsigned c = 0; c < 6; ++c)
    if (name == cdp_lut_class_name(static_cast<CdpLutClass>(c))) return static_cast<CdpLutClass>(c);
  throw std::invalid_argument("cdp.random: no LUT class '" + name + "'");
}

// busy_reads: both units of `group` were just armed. Every counter the hardware clears at the arm
// and writes at the layer's end is read: 0 while the layer runs, the golden model's count once it
// ended (zero_ok). For inputs of kBusyCheckAtoms or more the layer still runs: both units'
// S_STATUS group field is not idle and the stall counters read 0 (DUT only: one read each).
void busy_checks(ProgramBuilder& b, const HwConfig& cfg, const CdpLayerSpec& l, unsigned group, unsigned layer) {
  namespace C = reg::CDP;
  const uint32_t cdp = *cfg.unit_base[static_cast<unsigned>(Unit::CDP)];
  const uint32_t rdma = *cfg.unit_base[static_cast<unsigned>(Unit::CDP_RDMA)];
  const uint64_t lanes = cfg.atom_bytes / l.element_bytes();
  const uint64_t atoms = uint64_t{l.width} * l.height * ((l.channels + lanes - 1) / lanes);
  if (atoms >= kBusyCheckAtoms) {
    const uint32_t field = 3u << (16 * group), running = 1u << (16 * group);
    for (const auto& [addr, unit] : {std::pair{rdma + reg::CDP_RDMA::S_STATUS::offset, "CDP_RDMA"},
                                     std::pair{cdp + C::S_STATUS::offset, "CDP"}})
      b.poll(PollReg{addr, field, running, RegCompare::Ge, 1,
                     fmt::format("{}.S_STATUS group {} running or pending right after layer {} is armed", unit, group,
                                 layer)});
    b.read(rdma + reg::CDP_RDMA::D_PERF_READ_STALL::offset, 0xffffffffu, 0u,
           fmt::format("CDP_RDMA.D_PERF_READ_STALL group {} while layer {} runs", group, layer));
    b.read(cdp + C::D_PERF_WRITE_STALL::offset, 0xffffffffu, 0u,
           fmt::format("CDP.D_PERF_WRITE_STALL group {} while layer {} runs", group, layer));
  }
  for (const auto& [off, name] : {std::pair{C::D_NAN_INPUT_NUM::offset, "D_NAN_INPUT_NUM"},
                                  std::pair{C::D_INF_INPUT_NUM::offset, "D_INF_INPUT_NUM"},
                                  std::pair{C::D_NAN_OUTPUT_NUM::offset, "D_NAN_OUTPUT_NUM"},
                                  std::pair{C::D_OUT_SATURATION::offset, "D_OUT_SATURATION"},
                                  std::pair{C::D_PERF_LUT_UFLOW::offset, "D_PERF_LUT_UFLOW"},
                                  std::pair{C::D_PERF_LUT_OFLOW::offset, "D_PERF_LUT_OFLOW"},
                                  std::pair{C::D_PERF_LUT_HYBRID::offset, "D_PERF_LUT_HYBRID"},
                                  std::pair{C::D_PERF_LUT_LE_HIT::offset, "D_PERF_LUT_LE_HIT"},
                                  std::pair{C::D_PERF_LUT_LO_HIT::offset, "D_PERF_LUT_LO_HIT"}})
    b.read_count_or_zero(cdp + off, fmt::format("CDP.{} group {} while layer {} runs", name, group, layer));
}

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
  const uint64_t pow2_percent = k.integer("pow2_rounding_percent", 0, 100);
  const uint64_t early_rdma_percent = k.integer("early_rdma_percent", 0, 100);
  const bool armed_writes = k.choice("armed_writes", {"off", "on"}) == "on";
  const bool high_addresses = k.choice("high_addresses", {"off", "on"}) == "on";
  const bool busy_reads = k.choice("busy_reads", {"off", "on"}) == "on";
  const bool lut_scramble = k.choice("lut_scramble", {"off", "on"}) == "on";
  const bool fp16_corners = k.choice("fp16_corners", {"off", "on"}) == "on";
  const uint64_t sat_edge_percent = k.integer("sat_edge_percent", 0, 100);
  const uint64_t exact_lut_percent = k.integer("exact_lut_percent", 0, 100);
  const uint64_t back_to_back_percent = k.integer("back_to_back_percent", 0, 100);
  const uint64_t sram_percent = k.integer("sram_percent", 0, 100);
  if (sram_percent != 0 && !cfg.sram_if)
    throw std::invalid_argument("cdp.random: knob sram_percent needs the CV-SRAM port, which configuration '" + cfg.name +
                                "' does not have");
  const std::string lut_class = k.choice("lut_class", {"off", "le_hit", "lo_hit", "hybrid", "uflow", "oflow", "split", "any"});
  if (fp16_corners) {
    if (!cfg.supports(Precision::Fp16))
      throw std::invalid_argument("cdp.random: knob fp16_corners=on needs fp16, which configuration '" + cfg.name +
                                  "' does not have");
    lim.precisions = {Precision::Fp16};
  }

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "cdp.shape");
  Rng layout = Rng::stream(seed, "cdp.layout");
  Rng data = Rng::stream(seed, "cdp.data");
  Rng flow = Rng::stream(seed, "cdp.flow");
  Rng sweep_rng = Rng::stream(seed, "cdp.sweep");
  Rng rounding_rng = Rng::stream(seed, "cdp.rounding");
  Rng pow2_rng = Rng::stream(seed, "cdp.pow2");  // drawn only with pow2_rounding_percent > 0
  Rng scramble = Rng::stream(seed, "cdp.lut_scramble");  // drawn only with lut_scramble=on
  Rng order_rng = Rng::stream(seed, "cdp.order");
  Rng armed = Rng::stream(seed, "cdp.armed");  // drawn only with armed_writes=on
  Rng corners = Rng::stream(seed, "cdp.fp16_corners");  // drawn only with fp16_corners=on
  Rng sat_edge_rng = Rng::stream(seed, "cdp.sat_edge");  // drawn only with sat_edge_percent > 0
  Rng exact_rng = Rng::stream(seed, "cdp.exact_lut");    // drawn only with exact_lut_percent > 0
  Rng class_rng = Rng::stream(seed, "cdp.lut_class");    // drawn only with lut_class other than off
  Rng chain_rng = Rng::stream(seed, "cdp.back_to_back");  // drawn only with back_to_back_percent > 0
  Rng sram_rng = Rng::stream(seed, "cdp.sram");            // drawn only with sram_percent > 0
  RegionCursor sram(sram_percent != 0 ? random_sram_start(sram_rng) : 0, cfg.atom_bytes, 4);
  b.note(fmt::format("knobs: layers={} max_width={} max_height={} max_surfaces={} special_permille={} lut_readback={} "
                     "lut_sweep_percent={} rounding_percent={} early_rdma_percent={}",
                     layers, lim.max_width, lim.max_height, lim.max_surfaces, static_cast<unsigned>(special * 1000),
                     readback == CdpLutReadback::All ? "all" : "sample", sweep_percent, rounding_percent,
                     early_rdma_percent) +
         (armed_writes ? " armed_writes=on" : "") + (high_addresses ? " high_addresses=on" : "") +
         (busy_reads ? " busy_reads=on" : "") +
         (pow2_percent != 0 ? fmt::format(" pow2_rounding_percent={}", pow2_percent) : std::string()) +
         (lut_scramble ? " lut_scramble=on" : "") + (fp16_corners ? " fp16_corners=on" : "") +
         (sat_edge_percent != 0 ? fmt::format(" sat_edge_percent={}", sat_edge_percent) : std::string()) +
         (exact_lut_percent != 0 ? fmt::format(" exact_lut_percent={}", exact_lut_percent) : std::string()) +
         (lut_class != "off" ? " lut_class=" + lut_class : std::string()) +
         (back_to_back_percent != 0 ? fmt::format(" back_to_back_percent={}", back_to_back_percent) : std::string()) +
         (sram_percent != 0 ? fmt::format(" sram_percent={}", sram_percent) : std::string()));
  CdpShapeLimits sweep_lim = lim;
  sweep_lim.precisions = {Precision::Int8};
  uint64_t next = 0x80000000ull + layout.uniform(0, 0xfff) * 0x1000;
  if (high_addresses) {  // any atom below the top 256 MiB (own stream: the layout stays)
    Rng high = Rng::stream(seed, "cdp.high");
    next = random_dbb_start_anywhere(cfg, high, true);
  }
  // A layer whose done interrupt is still awaited while its successor (the other group) is
  // programmed and armed; with it the LUT it runs with, which the successor keeps (the LUT
  // registers and tables have no second group).
  struct Pending {
    unsigned group;
    uint64_t timeout;
    std::string what;
  };
  std::optional<Pending> pending;
  std::optional<CdpLutProgram> running_lut;
  Precision running_precision = Precision::Int8;
  for (unsigned i = 0; i < layers; ++i) {
    // A layer queued behind a running one (back_to_back_percent) keeps that layer's LUT and so its
    // precision (an int16 table's START is no int8 START); the shapers that write the LUT skip it.
    const bool chained = pending.has_value();
    // Sweep draws come from their own stream so that lut_sweep_percent=0 keeps every program.
    const bool sweep = !chained && sweep_percent != 0 && sweep_rng.below(100) < sweep_percent;
    CdpShapeLimits layer_lim = sweep ? sweep_lim : lim;
    if (chained) layer_lim.precisions = {running_precision};
    CdpLayerSpec l = random_cdp_layer(cfg, shape, layer_lim);
    if (sweep) make_cdp_lut_sweep(l, cfg, sweep_rng.chance(0.5));
    const bool lut_free = !sweep && !chained;  // the LUT may be drawn anew
    std::optional<CdpLutClass> uniform_class;
    if (lut_class != "off" && lut_free && l.precision != Precision::Fp16) {
      uniform_class = lut_class == "any" ? static_cast<CdpLutClass>(class_rng.below(6)) : lut_class_named(lut_class);
      make_cdp_lut_class(l, *uniform_class, class_rng);
    }
    if (!sweep && rounding_percent != 0 && rounding_rng.below(100) < rounding_percent)
      make_cdp_rounding_converter(l, rounding_rng);
    if (!sweep && pow2_percent != 0 && pow2_rng.below(100) < pow2_percent) make_cdp_pow2_converters(l, pow2_rng);
    const bool tiny_lut = fp16_corners && lut_free && corners.chance(0.5);
    const bool special_runs = fp16_corners && !sweep && corners.chance(0.5);
    if (tiny_lut) make_cdp_tiny_lut(l, corners);
    const bool sat_edge = sat_edge_percent != 0 && lut_free && l.precision != Precision::Fp16 &&
                          sat_edge_rng.below(100) < sat_edge_percent;
    if (sat_edge) make_cdp_sat_edge(l, sat_edge_rng);
    const bool exact_lut = exact_lut_percent != 0 && lut_free && !sat_edge && l.precision != Precision::Fp16 &&
                           exact_rng.below(100) < exact_lut_percent;
    if (exact_lut) make_cdp_exact_lut(l, exact_rng);
    if (chained) l.lut = *running_lut;
    place_cdp_layer(l, cfg, layout, next);
    const unsigned group = i % 2;
    b.note(fmt::format("layer {} group {}: {}{}{}{}{}{}{}", i, group, sweep ? "LUT sweep " : "", tiny_lut ? "tiny LUT " : "",
                       uniform_class ? fmt::format("every element {} ", cdp_lut_class_name(*uniform_class)) : "",
                       special_runs ? "special runs " : "", sat_edge ? "output at the saturation edge " : "",
                       exact_lut ? "exact LUT output " : "", describe_cdp_layer(l)));
    std::vector<uint8_t> input = sweep ? cdp_sweep_input(l, cfg, data) : random_cdp_input(l, cfg, data, special);
    if (special_runs) add_cdp_special_runs(input, l, cfg, corners);
    if (sram_percent != 0) {  // regions moved to the CV-SRAM (the DBB space placed above stays unused)
      for (auto [port, at, output] : {std::tuple{&l.src_port, &l.src, false}, std::tuple{&l.dst_port, &l.dst, true}})
        if (sram_rng.below(100) < sram_percent) {
          *port = MemPort::Sram;
          *at = sram.take(sram_rng, cdp_extent(l, cfg, output));
        }
      if (l.src_port == MemPort::Sram || l.dst_port == MemPort::Sram)
        b.note(fmt::format("layer {}: input in {}, output in {}", i, l.src_port == MemPort::Sram ? "SRAM" : "DBB",
                           l.dst_port == MemPort::Sram ? "SRAM" : "DBB"));
    }
    b.load(l.src_port, l.src, input);
    b.load(l.dst_port, l.dst, data.bytes(cdp_extent(l, cfg, true)));  // a wrong or missing write shows
    if (chained) b.note(fmt::format("layer {}: armed before layer {}'s done interrupt, with its LUT", i, i - 1));
    else program_cdp_lut(b, cfg, l.lut, flow, readback, lut_scramble ? &scramble : nullptr);
    const bool rdma_first = flow.chance(0.5);
    const bool early = early_rdma_percent != 0 && order_rng.below(100) < early_rdma_percent;
    if (early) b.note(fmt::format("layer {}: CDP_RDMA armed before CDP is programmed", i));
    program_cdp_layer(b, cfg, l, group, rdma_first, -1, early, armed_writes && !early ? &armed : nullptr);
    if (busy_reads && !chained) busy_checks(b, cfg, l, group, i);
    if (pending) {
      finish_cdp_layer(b, cfg, pending->group, pending->timeout, pending->what);
      pending.reset();
    }
    const uint64_t timeout = cdp_timeout(l, cfg);
    // A chained layer's own successor waits for it (one layer queued behind another at most).
    if (!chained && i + 1 < layers && back_to_back_percent != 0 && chain_rng.below(100) < back_to_back_percent) {
      pending = Pending{group, 2 * timeout, fmt::format("layer {}", i)};
      running_lut = l.lut;
      running_precision = l.precision;
    } else {
      finish_cdp_layer(b, cfg, group, timeout, fmt::format("layer {}", i));
    }
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
             {"pow2_rounding_percent", "0",
              "per-cent of integer layers whose converters scale by +-2^k and shift k + a few bits: exact ties and "
              "single bits under the rounding point (each term of the sticky OR)"},
             {"lut_scramble", "off",
              "on: the LUT tables in random order, sometimes DATA writes past a table's end after them, idle "
              "cycles between read-back reads"},
             {"early_rdma_percent", "0",
              "per-cent of layers whose CDP_RDMA is armed before any CDP register of the group is written"},
             {"armed_writes", "off",
              "on: writes to the first-armed unit's group (D_OP_ENABLE = 0 too) before the second is armed, read back: "
              "an armed group drops them (not on early_rdma layers)"},
             {"high_addresses", "off",
              "on: the layers' regions start anywhere in the DBB address space (default: 16 MiB above 0x8000_0000)"},
             {"busy_reads", "off",
              "on: right after a layer's arms read its counters (0 while it runs: cleared at the arm) and, for inputs "
              "of 256 atoms or more, both units' S_STATUS group field (not idle) and stall counters (0)"},
             {"fp16_corners", "off",
              "on: fp16 layers only (configurations with fp16); half of them with LUTs of +-0, subnormals and the "
              "smallest normals (MUL_BYPASS mostly off), half with runs of 2..9 specials across neighbouring channels"},
             {"sat_edge_percent", "0",
              "per-cent of integer layers whose LUT holds runs of one value E (MUL_BYPASS on, output scale 2^k, shift k) "
              "and whose output offset puts E at the output range's edge: max/min, one beyond (clamped, not counted as "
              "saturated) or two beyond (counted)"},
             {"exact_lut_percent", "0",
              "per-cent of integer layers whose output is the LUT result itself (MUL_BYPASS on, identity output "
              "converter, small distinct table entries, slopes that keep extrapolations small; half with +-2^k input "
              "scales shifted k + 1..9: exact ties, single sticky bits): every rounding bit of the LUT stage shows"},
             {"back_to_back_percent", "0",
              "per-cent of layers whose successor (the other group, same LUT) is programmed and armed before their "
              "done interrupt: a unit takes the next layer's input only after the current one's"},
             {"sram_percent", "0",
              "per-cent of regions (each layer's input and output) placed in the CV-SRAM instead of the DBB "
              "(configurations with the SRAM port)"},
             {"lut_class", "off",
              "le_hit|lo_hit|hybrid|uflow|oflow|split|any: every element of an integer layer lands in this LUT class "
              "(any: one drawn per layer), so one performance counter counts the whole cube"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::CDP) || !cfg.has_unit(Unit::CDP_RDMA)) return "the configuration has no CDP";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
