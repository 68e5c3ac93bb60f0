// sdp_pdp.random: SDP layers streamed on-flying into PDP (sdp.md §11.7, spec §1.12). Each
// layer is a random legal pooling layer (pdp.random's shapes, no split mode) whose input cube
// is the output cube of a random legal SDP layer (sdp.random's setups, OUTPUT_DST = PDP,
// OUT_PRECISION = PDP's format). SDP, SDP_RDMA and PDP are armed in a random order,
// sometimes with a pause before the last one (nothing may complete then: SDP cannot finish
// while PDP does not consume). Checks: PDP's output image, that SDP wrote nothing, both
// done interrupts, every SDP counter and PDP's NaN/Inf counters (0 on-flying).
#include <fmt/format.h>

#include <algorithm>

#include "dla/regs.gen.h"
#include "generators.h"
#include "pdp_stimulus.h"
#include "sdp_stimulus.h"

namespace dla::stimulus {

namespace {

namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;
namespace P = reg::PDP;

uint64_t output_extent(const PdpLayer& l, const HwConfig& cfg) {
  const uint64_t lanes = cfg.atom_bytes / l.elem_bytes(), s = (l.channels + lanes - 1) / lanes;
  return (s - 1) * l.dst_surface + (l.out_height - 1) * l.dst_line + uint64_t{l.out_width} * cfg.atom_bytes;
}

// PDP's output on DBB (from the SDP allocator, so it never overlaps SDP's regions) or CV-SRAM.
void place_output(PdpLayer& l, const HwConfig& cfg, Rng& layout, SdpRandomLayers& sdp, PdpRegionAllocator& sram) {
  const uint64_t atom = cfg.atom_bytes;
  auto gap = [&]() { return layout.chance(0.5) ? 0 : layout.uniform(1, 3) * atom; };
  l.dst_line = l.out_width * atom + gap();
  l.dst_surface = l.out_height * l.dst_line + gap();
  l.dst_port = cfg.sram_if && layout.chance(0.25) ? MemPort::Sram : MemPort::Dbb;
  l.dst = l.dst_port == MemPort::Sram ? sram.take(MemPort::Sram, output_extent(l, cfg)) : sdp.take(output_extent(l, cfg));
  // PDP's copies of the source registers are unused (spec §8.14): any value.
  l.src = layout.below(0x100000) * atom;
  l.src_line = layout.below(0x1000) * atom;
  l.src_surface = layout.below(0x10000) * atom;
}

void read_sdp_counters(ProgramBuilder& b, const HwConfig& cfg, unsigned layer) {
  const uint32_t sdp = *cfg.unit_base[static_cast<unsigned>(Unit::SDP)];
  const uint32_t rdma = *cfg.unit_base[static_cast<unsigned>(Unit::SDP_RDMA)];
  for (uint32_t off : {S::D_STATUS::offset, S::D_STATUS_NAN_INPUT_NUM::offset, S::D_STATUS_INF_INPUT_NUM::offset,
                       S::D_STATUS_NAN_OUTPUT_NUM::offset, S::D_PERF_LUT_UFLOW::offset, S::D_PERF_LUT_OFLOW::offset,
                       S::D_PERF_OUT_SATURATION::offset, S::D_PERF_LUT_HYBRID::offset, S::D_PERF_LUT_LE_HIT::offset,
                       S::D_PERF_LUT_LO_HIT::offset, S::S_STATUS::offset, S::S_POINTER::offset})
    b.read(sdp + off, 0xffffffffu, std::nullopt, fmt::format("SDP+0x{:03x} after layer {}", off, layer));
  for (uint32_t off : {R::D_STATUS_NAN_INPUT_NUM::offset, R::D_STATUS_INF_INPUT_NUM::offset, R::S_STATUS::offset,
                       R::S_POINTER::offset})
    b.read(rdma + off, 0xffffffffu, std::nullopt, fmt::format("SDP_RDMA+0x{:03x} after layer {}", off, layer));
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  PdpShapeLimits lim;
  lim.max_width = static_cast<uint32_t>(k.integer("max_width", 1, 1024));
  lim.max_height = static_cast<uint32_t>(k.integer("max_height", 1, 1024));
  lim.max_channels = static_cast<uint32_t>(k.integer("max_channels", 1, 8192));
  lim.split_percent = 0;  // split mode with on-flying input is not defined (spec §8.12)
  lim.split_allowed = false;
  const uint64_t layers = k.integer("layers", 1, 64);
  const uint64_t pause_percent = k.integer("pause_percent", 0, 100);
  const double special = static_cast<double>(k.integer("special_permille", 0, 1000)) / 1000.0;
  const std::string method = k.choice("method", {"all", "average", "max", "min"});
  const std::string errata = k.choice("nvdla_errata", {"allow", "avoid"});
  lim.avoid_nvdla_errata = avoid_nvdla_errata_knob(errata);
  if (method != "all") lim.methods = {method == "average" ? PoolMethod::Average
                                      : method == "max"   ? PoolMethod::Max
                                                          : PoolMethod::Min};

  Program p;
  ProgramBuilder b(cfg, p);
  Rng sdp_shape = Rng::stream(seed, "sdp_pdp.sdp_shape");
  Rng sdp_data = Rng::stream(seed, "sdp_pdp.sdp_data");
  Rng layout = Rng::stream(seed, "sdp_pdp.layout");
  Rng pdp_shape = Rng::stream(seed, "sdp_pdp.pdp_shape");
  Rng flow = Rng::stream(seed, "sdp_pdp.flow");
  b.note(fmt::format("knobs: layers={} max_width={} max_height={} max_channels={} method={} pause_percent={} "
                     "special_permille={} nvdla_errata={}", layers, lim.max_width, lim.max_height, lim.max_channels,
                     method, pause_percent, static_cast<unsigned>(special * 1000), errata));
  SdpRandomLayers sdp(cfg, b, sdp_shape, sdp_data, layout, special);
  PdpRegionAllocator sram(cfg, layout);

  const uint32_t base_sdp = *cfg.unit_base[static_cast<unsigned>(Unit::SDP)];
  const uint32_t base_rdma = *cfg.unit_base[static_cast<unsigned>(Unit::SDP_RDMA)];
  const uint32_t base_pdp = *cfg.unit_base[static_cast<unsigned>(Unit::PDP)];
  const uint32_t glb = b.addr("GLB.S_INTR_STATUS");
  for (unsigned i = 0; i < layers; ++i) {
    const unsigned g = i % 2;  // every layer uses each unit once: the CONSUMERs move together
    PdpLayer l = random_pdp_layer(cfg, pdp_shape, lim);
    l.off_flying = false;
    place_output(l, cfg, layout, sdp, sram);
    sdp.write_to_pdp(i, g, SdpLayerRequest{true, l.width, l.height, l.channels, static_cast<Precision>(l.format)});
    b.write(base_pdp + P::S_POINTER::offset, g);
    for (const auto& [off, v] : pdp_register_values(l)) b.write(base_pdp + off, v);

    std::vector<std::pair<const char*, uint32_t>> arm = {{"SDP_RDMA", base_rdma + R::D_OP_ENABLE::offset},
                                                         {"SDP", base_sdp + S::D_OP_ENABLE::offset},
                                                         {"PDP", base_pdp + P::D_OP_ENABLE::offset}};
    for (size_t n = arm.size(); n > 1; --n) std::swap(arm[n - 1], arm[flow.below(n)]);
    const bool pause = flow.chance(static_cast<double>(pause_percent) / 100.0);
    b.note(fmt::format("layer {} group {}: armed {}, {}, {}{}; PDP on-flying: {}", i, g, arm[0].first, arm[1].first,
                       arm[2].first, pause ? " (pause before the last)" : "", describe_pdp_layer(l)));
    for (size_t n = 0; n < arm.size(); ++n) {
      if (n + 1 == arm.size() && pause) {
        b.idle(static_cast<uint32_t>(flow.uniform(200, 3000)));
        b.read(glb, 0xffffffffu, 0u, fmt::format("GLB.S_INTR_STATUS clear before {} is armed (layer {})", arm[n].first, i));
      }
      b.write(arm[n].second, 1);
    }

    const uint32_t sdp_bit = 1u << g, pdp_bit = 1u << (4 + g);
    const uint64_t lanes = cfg.atom_bytes / l.elem_bytes(), surfaces = (l.channels + lanes - 1) / lanes;
    const uint64_t timeout = pdp_timeout(l, cfg) + 20000 + uint64_t{l.width} * l.height * surfaces * cfg.atom_bytes * 8;
    b.wait_intr(sdp_bit | pdp_bit, timeout);
    b.read(glb, sdp_bit, sdp_bit, fmt::format("GLB SDP_DONE_STATUS{} after layer {}", g, i));
    b.write(glb, sdp_bit);
    read_sdp_counters(b, cfg, i);
    finish_pdp_layer(b, cfg, g, timeout, fmt::format("layer {}", i));
    pdp_quiescent_checks(b, cfg, fmt::format("after layer {}", i));
  }
  return p;
}

}  // namespace

TestGenerator make_sdp_pdp_random_generator() {
  TestGenerator g;
  g.name = "sdp_pdp.random";
  g.description = "random legal SDP layers streamed on-flying into random legal PDP pooling layers (OUTPUT_DST = PDP, "
                  "PDP FLYING_MODE = on-flying), the three units armed in any order";
  g.knobs = {{"layers", "2", "layers (SDP -> PDP pairs), alternating register groups"},
             {"max_width", "8", "largest cube width"},
             {"max_height", "6", "largest cube height"},
             {"max_channels", "40", "largest channel count"},
             {"method", "all", "pooling method: all, average, max or min"},
             {"nvdla_errata", "allow", "allow or avoid layers that hit NVIDIA nv_small PDP errata (unused bottom rows / "
                                       "right columns, docs/pdp.md); avoid trims them from the same shape draws"},
             {"pause_percent", "25", "share of layers with a pause (and a no-interrupt check) before the last arming"},
             {"special_permille", "80", "per-mille density of special values in SDP's data"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    for (Unit u : {Unit::SDP, Unit::SDP_RDMA, Unit::PDP})
      if (!cfg.has_unit(u)) return std::string("the configuration has no ") + unit_name(u);
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
