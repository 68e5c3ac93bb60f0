// rubik.random: random legal RUBIK layers (pdp_cdp_bdma_rubik_glb.md §4) on alternating
// register groups, sometimes armed back to back: contract, split and merge in every element
// size, widths around the 64-element chunk, channels around the atom, deconvolution strides,
// packed and gapped strides on both memories. After each done interrupt the layer's whole
// output range is compared with what the spec's formulas give (computed here, not by the
// golden model): moved bytes, zero split tails and merge pad lanes, untouched gaps.
#include <fmt/format.h>

#include <array>
#include <optional>

#include "generators.h"
#include "rubik_stimulus.h"

namespace dla::stimulus {

namespace {

struct Outstanding {
  RubikLayer layer;
  std::vector<uint8_t> expected;
  std::string what;
};

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const uint64_t layers = k.integer("layers", 1, 1000);
  const std::string mode = k.choice("mode", {"all", "contract", "split", "merge"});
  const std::string precision = k.choice("precision", {"all", "int8", "int16", "fp16"});
  RubikShapeLimits lim;
  lim.max_width = static_cast<uint32_t>(k.integer("max_width", 1, 8192));
  lim.max_height = static_cast<uint32_t>(k.integer("max_height", 1, 8192));
  lim.max_channels = static_cast<uint32_t>(k.integer("max_channels", 1, 8192));
  lim.max_deconv_stride = static_cast<uint32_t>(k.integer("max_deconv_stride", 1, 32));
  const std::string ports = k.choice("ports", {"both", "dbb", "sram"});
  const uint64_t back_to_back = k.integer("back_to_back_percent", 0, 100);
  const uint64_t high_address = k.integer("high_address_percent", 0, 100);
  if (mode != "all")
    lim.modes = {mode == "contract" ? RubikMode::Contract : mode == "split" ? RubikMode::Split : RubikMode::Merge};
  if (precision != "all")
    lim.precisions = {precision == "int8" ? Precision::Int8 : precision == "int16" ? Precision::Int16 : Precision::Fp16};

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "rubik.shape");
  Rng layout = Rng::stream(seed, "rubik.layout");
  Rng data = Rng::stream(seed, "rubik.data");
  Rng flow = Rng::stream(seed, "rubik.flow");
  RubikRegionAllocator alloc(layout);
  // DBB regions above 2^40 (the default placement stays below): the upper bits of the 64-bit
  // address accumulators take part. Own stream, drawn only when the knob is set, so default
  // programs are unchanged.
  if (high_address > 0) {
    Rng high = Rng::stream(seed, "rubik.address");
    if (high.chance(static_cast<double>(high_address) / 100.0))
      alloc.set_dbb_base((high.uniform(1, (uint64_t{1} << 24) - 1) << 40) + high.uniform(0, 0xffff) * 0x1000);
  }
  b.note(fmt::format("knobs: layers={} mode={} precision={} max_width={} max_height={} max_channels={} "
                     "max_deconv_stride={} ports={} back_to_back_percent={}{}",
                     layers, mode, precision, lim.max_width, lim.max_height, lim.max_channels, lim.max_deconv_stride,
                     ports, back_to_back,
                     high_address ? fmt::format(" high_address_percent={}", high_address) : std::string()));

  std::array<std::optional<Outstanding>, 2> outstanding;
  auto finish = [&](unsigned g) {
    Outstanding& o = *outstanding[g];
    finish_rubik_layer(b, cfg, g, rubik_timeout(o.layer), o.what);
    p.ops.push_back(CheckMem{o.layer.out_port, o.layer.out, std::move(o.expected), o.what + ": output range"});
    outstanding[g].reset();
  };
  for (uint64_t i = 0; i < layers; ++i) {
    const unsigned g = static_cast<unsigned>(i % 2);  // CONSUMER alternates with every layer
    if (outstanding[g]) {
      finish(g);
      if (!outstanding[g ^ 1u]) rubik_quiescent_checks(b, cfg, fmt::format("before layer {}", i));
    }
    RubikLayer l = random_rubik_layer(cfg, shape, lim);
    place_rubik_layer(l, layout, alloc, ports);
    const RubikExtent r = rubik_read_extent(l), w = rubik_write_extent(l);
    std::vector<uint8_t> input = data.bytes(static_cast<size_t>(r.end - r.begin));
    std::vector<uint8_t> before = data.bytes(static_cast<size_t>(w.end - w.begin));
    b.load(l.in_port, l.in, input);
    b.load(l.out_port, l.out, before);
    const std::string what = fmt::format("layer {} (group {})", i, g);
    b.note(what + ": " + describe_rubik_layer(l));
    program_rubik_layer(b, cfg, l, g);
    outstanding[g] = Outstanding{l, rubik_expected_output(l, input, before), what};
    if (!flow.chance(back_to_back / 100.0)) finish(g);  // otherwise the next layer is armed behind it
  }
  for (uint64_t j = layers; j < layers + 2; ++j)  // oldest first: layers complete in CONSUMER order
    if (outstanding[j % 2]) finish(static_cast<unsigned>(j % 2));
  rubik_quiescent_checks(b, cfg, "at the end");
  return p;
}

}  // namespace

TestGenerator make_rubik_random_generator() {
  TestGenerator g;
  g.name = "rubik.random";
  g.description = "random RUBIK contract/split/merge layers, every element size, on both register groups and "
                  "memories; each output range checked against the spec's formulas";
  g.needs_rubik = true;
  g.knobs = {{"layers", "4", "number of layers"},
             {"mode", "all", "all | contract | split | merge"},
             {"precision", "all", "all | int8 | int16 | fp16"},
             {"max_width", "80", "largest input width Wi (split/merge chunks are 64 elements)"},
             {"max_height", "4", "largest input height Hi"},
             {"max_channels", "80", "largest channel count (Co in contract mode, Ci otherwise)"},
             {"max_deconv_stride", "4", "largest deconvolution stride sx, sy (contract; up to 32)"},
             {"ports", "both", "memories used: dbb, sram or both"},
             {"back_to_back_percent", "50", "layers whose successor is armed before their done interrupt"},
             {"high_address_percent", "0",
              "tests whose DBB regions start above 2^40 (anywhere in the 64-bit space; 0 keeps every program)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::RBK)) return "the configuration has no RUBIK";
    if (!cfg.sram_if) return "the configuration has no SRAM interface";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
