// pdp.random: random legal pooling layers (methods x precisions x kernels x strides x
// paddings x split mode x strides/memories), both register groups, often two layers in flight,
// checked by memory image, done interrupts and the NaN/Inf counters.
#include <fmt/format.h>

#include "dla/regs.gen.h"
#include "generators.h"
#include "pdp_stimulus.h"
#include "wide_fp16_values.h"

namespace dla::stimulus {

namespace {

// Inputs at least this large take longer than a CSB read after the arm (8 bytes a cycle on
// small): the group is still running or pending when S_STATUS is read.
constexpr uint64_t kBusyCheckBytes = 1024;

// busy_reads: the layer of group g was just armed. The golden model ran it at the arm; the RTL
// runs it now. An int layer's NaN/Inf counters are 0 in both (cleared at the arm, written at the
// end); for inputs of 1 KiB or more S_STATUS shows the group running or pending (DUT only: one
// read, no timing in the model) and the stall counters still read 0.
void busy_checks(Program& p, ProgramBuilder& b, const HwConfig& cfg, const PdpLayer& l, unsigned g, uint64_t i) {
  namespace P = reg::PDP;
  const uint32_t pdp = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)];
  const uint32_t rdma = *cfg.unit_base[static_cast<unsigned>(Unit::PDP_RDMA)];
  if (!l.is_fp16())
    for (const auto& [off, name] : {std::pair{P::D_NAN_INPUT_NUM::offset, "D_NAN_INPUT_NUM"},
                                    std::pair{P::D_INF_INPUT_NUM::offset, "D_INF_INPUT_NUM"},
                                    std::pair{P::D_NAN_OUTPUT_NUM::offset, "D_NAN_OUTPUT_NUM"}})
      b.read(pdp + off, 0xffffffffu, 0u, fmt::format("PDP.{} group {} while layer {} runs", name, g, i));
  if (!l.off_flying || pdp_input_extent(l, cfg) < kBusyCheckBytes) return;
  const uint32_t field = 3u << (16 * g), running = 1u << (16 * g);
  for (const auto& [addr, unit] : {std::pair{rdma + reg::PDP_RDMA::S_STATUS::offset, "PDP_RDMA"},
                                   std::pair{pdp + P::S_STATUS::offset, "PDP"}})
    p.ops.push_back(PollReg{addr, field, running, RegCompare::Ge, 1,
                            fmt::format("{}.S_STATUS group {} running or pending right after layer {} is armed", unit,
                                        g, i)});
  // Still running: the stall counters are cleared at the arm and written at the end.
  b.read(rdma + reg::PDP_RDMA::D_PERF_READ_STALL::offset, 0xffffffffu, 0u,
         fmt::format("PDP_RDMA.D_PERF_READ_STALL group {} while layer {} runs", g, i));
  b.read(pdp + P::D_PERF_WRITE_STALL::offset, 0xffffffffu, 0u,
         fmt::format("PDP.D_PERF_WRITE_STALL group {} while layer {} runs", g, i));
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  PdpShapeLimits lim;
  lim.max_width = static_cast<uint32_t>(k.integer("max_width", 1, 8192));
  lim.max_height = static_cast<uint32_t>(k.integer("max_height", 1, 8192));
  lim.max_channels = static_cast<uint32_t>(k.integer("max_channels", 1, 8192));
  lim.split_percent = static_cast<unsigned>(k.integer("split_percent", 0, 100));
  lim.full_kernel_percent = static_cast<unsigned>(k.integer("full_kernel_percent", 0, 100));
  lim.full_kernel_any_size = k.choice("full_kernel_size", {"8", "any"}) == "any";
  const uint64_t layers = k.integer("layers", 1, 1000);
  const std::string method = k.choice("method", {"all", "average", "max", "min"});
  const std::string errata = k.choice("nvdla_errata", {"allow", "avoid"});
  const bool high_addresses = k.choice("high_addresses", {"off", "on"}) == "on";
  const bool armed_writes = k.choice("armed_writes", {"off", "on"}) == "on";
  const bool busy_reads = k.choice("busy_reads", {"off", "on"}) == "on";
  const bool perf_enable = k.choice("perf_enable", {"off", "on"}) == "on";
  const bool huge_strides = k.choice("huge_strides", {"off", "on"}) == "on";
  const bool wide_fp16 = k.choice("fp16_data", {"usual", "wide"}) == "wide";
  if (wide_fp16 && std::find(cfg.precisions.begin(), cfg.precisions.end(), Precision::Fp16) == cfg.precisions.end())
    throw std::invalid_argument("pdp.random: knob fp16_data=wide needs fp16, which configuration '" + cfg.name +
                                "' does not have");
  lim.avoid_nvdla_errata = avoid_nvdla_errata_knob(errata);
  if (method != "all") lim.methods = {method == "average" ? PoolMethod::Average
                                      : method == "max"   ? PoolMethod::Max
                                                          : PoolMethod::Min};
  std::vector<std::string> allowed{"all"};
  for (Precision p : cfg.precisions) allowed.push_back(precision_name(p));
  const std::string precision = k.choice("precision", allowed);
  for (Precision p : cfg.precisions)
    if (precision == precision_name(p)) lim.precisions = {p};

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "pdp.shape");
  Rng layout = Rng::stream(seed, "pdp.layout");
  Rng data = Rng::stream(seed, "pdp.data");
  Rng flow = Rng::stream(seed, "pdp.flow");
  Rng armed = Rng::stream(seed, "pdp.armed");  // drawn only with armed_writes=on
  Rng perf = Rng::stream(seed, "pdp.perf");    // drawn only with perf_enable=on
  Rng huge = Rng::stream(seed, "pdp.huge");    // drawn only with huge_strides=on
  Rng wide = Rng::stream(seed, "pdp.fp16_wide");  // drawn only with fp16_data=wide
  PdpRegionAllocator alloc(cfg, layout, high_addresses);
  b.note(fmt::format("knobs: layers={} max_width={} max_height={} max_channels={} split_percent={} method={} "
                     "precision={} nvdla_errata={}{}{}", layers, lim.max_width, lim.max_height, lim.max_channels,
                     lim.split_percent, method, precision, errata, high_addresses ? " high_addresses=on" : "",
                     armed_writes ? " armed_writes=on" : "") +
         (busy_reads ? " busy_reads=on" : "") + (perf_enable ? " perf_enable=on" : "") +
         (huge_strides ? " huge_strides=on" : "") + (wide_fp16 ? " fp16_data=wide" : "") +
         (lim.full_kernel_percent ? fmt::format(" full_kernel_percent={}", lim.full_kernel_percent) : "") +
         (lim.full_kernel_any_size ? " full_kernel_size=any" : ""));

  // Layers run in order and alternate groups (both units' CONSUMER toggles per layer).
  bool outstanding[2] = {false, false};
  uint64_t timeout[2] = {0, 0}, layer_of[2] = {0, 0};
  auto finish = [&](unsigned g) {
    // Layers run in order: an older layer of the other group still running comes first.
    uint64_t t = timeout[g];
    if (outstanding[g ^ 1u] && layer_of[g ^ 1u] < layer_of[g]) t += timeout[g ^ 1u];
    finish_pdp_layer(b, cfg, g, t, fmt::format("layer {}", layer_of[g]));
    outstanding[g] = false;
  };
  for (uint64_t i = 0; i < layers; ++i) {
    const unsigned g = static_cast<unsigned>(i % 2);
    if (outstanding[g]) {
      if (outstanding[g ^ 1u] && layer_of[g ^ 1u] < layer_of[g]) finish(g ^ 1u);
      finish(g);
    }
    PdpLayer l = random_pdp_layer(cfg, shape, lim);
    place_pdp_layer(l, cfg, layout, alloc);
    if (huge_strides && huge.chance(0.5)) widen_pdp_output_strides(l, cfg, huge, alloc);
    if (wide_fp16 && l.is_fp16()) {
      WideFp16Values pads(wide);
      if (wide.chance(0.3))  // registers hold any fp17, not n times one fp16 value
        for (uint32_t& v : l.pad_value) v = pads.any_pad_register();
      else
        set_pdp_fp16_pad_value(l, pads.next());
    }
    b.load(l.src_port, l.src, random_pdp_input(l, cfg, data, wide_fp16 ? &wide : nullptr));
    const bool rdma_first = flow.chance(0.5);
    program_pdp_layer(b, cfg, l, g, rdma_first, -1, armed_writes ? &armed : nullptr,
                      perf_enable ? static_cast<int>(perf.below(4)) : -1);
    if (busy_reads) busy_checks(p, b, cfg, l, g, i);
    b.note(fmt::format("layer {} group {} ({} armed first): {}", i, g, rdma_first ? "PDP_RDMA" : "PDP",
                       describe_pdp_layer(l)));
    outstanding[g] = true;
    timeout[g] = pdp_timeout(l, cfg);
    layer_of[g] = i;
    if (flow.chance(0.5)) {  // otherwise the next layer is programmed while this one runs
      finish(g);
      if (!outstanding[g ^ 1u]) pdp_quiescent_checks(b, cfg, fmt::format("after layer {}", i));
    }
  }
  const unsigned older = outstanding[0] && outstanding[1] ? (layer_of[0] < layer_of[1] ? 0u : 1u) : 0u;
  for (unsigned g : {older, older ^ 1u})
    if (outstanding[g]) finish(g);
  pdp_quiescent_checks(b, cfg, "at the end");
  return p;
}

}  // namespace

TestGenerator make_pdp_random_generator() {
  TestGenerator g;
  g.name = "pdp.random";
  g.description = "random legal PDP pooling layers (average/max/min, all precisions, kernels 1..8, strides, "
                  "padding, split mode, fp16 specials) on both register groups";
  g.knobs = {{"layers", "4", "number of layers"},
             {"max_width", "12", "largest input width"},
             {"max_height", "8", "largest input height"},
             {"max_channels", "40", "largest channel count"},
             {"split_percent", "25", "share of layers that use split-width mode (when the output is wide enough)"},
             {"full_kernel_percent", "0",
              "per-cent of layers with 8x8 kernels, stride 1 or 2 and leading pads of 7 (the first row and column "
              "open every window slot at once)"},
             {"full_kernel_size", "8",
              "8: those layers' kernels are 8x8; any: 8x8 in half of them, otherwise width and height 2..7 with leading "
              "pads one less (as many windows open at once as the kernel is wide or high)"},
             {"method", "all", "pooling method: all, average, max or min"},
             {"nvdla_errata", "allow", "allow or avoid layers that hit NVIDIA nv_small PDP errata (unused bottom rows / "
                                       "right columns, docs/pdp.md); avoid trims them from the same shape draws"},
             {"precision", "all", "precision: all or one of the configuration's"},
             {"high_addresses", "off", "on: memory regions anywhere in the configuration's address space"},
             {"armed_writes", "off", "on: writes to the first-armed unit's group (D_OP_ENABLE = 0 too) before the "
                                     "second is armed, read back: an armed group drops them"},
             {"busy_reads", "off", "on: right after a layer is armed, its int counters read (0: cleared at the arm) and, "
                                   "for inputs of 1 KiB or more, both units' S_STATUS group field not idle (DUT only) and stall counters 0"},
             {"perf_enable", "off", "on: D_PERF_ENABLE.DMA_EN of PDP_RDMA and PDP random per layer (the stall counters "
                                    "count and the scoreboard bounds them)"},
             {"huge_strides", "off", "on: half the layers with a DBB output get a line stride of 1 to 16 MiB and a "
                                     "surface stride above it (the memories are sparse)"},
             {"fp16_data", "usual", "wide: fp16 elements and pad values over the whole format (exponents 1..30, "
                                    "overflow and underflow edges, rounding carries, exact cancellations, specials); "
                                    "a third of the fp16 layers get pad value registers of any fp17 (saturating sums)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    return cfg.has_unit(Unit::PDP) && cfg.has_unit(Unit::PDP_RDMA) ? "" : "the configuration has no PDP";
  };
  return g;
}

}  // namespace dla::stimulus
