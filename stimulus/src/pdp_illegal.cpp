// pdp.illegal: PDP programming that breaks a rule of the spec. Where the hardware behaviour
// is defined by our decisions (an RDMA/PDP format pair of the same element size: PDP's
// D_DATA_FORMAT governs the arithmetic and the counters, the RDMA only moves atoms) a
// program is generated and golden and RTL must agree. Every other case is refused with the
// rule it breaks, because the hardware's behaviour is undefined (spec §1.4, §1.11, §8 point 5).
#include <fmt/format.h>

#include <stdexcept>

#include "generators.h"
#include "pdp_stimulus.h"

namespace dla::stimulus {

namespace {

const std::vector<std::string> kCases = {"format_mismatch", "out_width",   "out_height",     "out_channel",
                                         "partial_widths",  "pad_not_below_kernel", "reserved_format"};

// Breaks a legal layer the way `c` says; returns the rule the result violates.
std::string break_layer(PdpLayer& l, const HwConfig& cfg, const std::string& c, Rng& r) {
  if (c == "out_width") l.out_width += static_cast<uint32_t>(r.uniform(1, 3));
  else if (c == "out_height") l.out_height = l.out_height > 1 && r.chance(0.5) ? l.out_height - 1 : l.out_height + 1;
  else if (c == "out_channel") l.out_channels += static_cast<uint32_t>(r.uniform(1, 40));
  else if (c == "pad_not_below_kernel") l.pad_left = l.kernel_w = std::min<uint32_t>(7, l.kernel_w);
  else if (c == "reserved_format") l.format = 3;
  else if (c == "partial_widths") {
    if (l.split_num == 0) {
      l.split_num = 1;
      l.in_first = l.width, l.in_last = 1, l.out_first = l.out_width, l.out_last = 1;
    } else {
      l.in_first += 1;
    }
  }
  const auto v = pdp_layer_violations(l, cfg);
  return v.empty() ? std::string() : v[0];
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const std::string c = k.choice("case", kCases);
  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "pdp.shape");
  Rng layout = Rng::stream(seed, "pdp.layout");
  Rng data = Rng::stream(seed, "pdp.data");
  Rng flow = Rng::stream(seed, "pdp.flow");
  PdpShapeLimits lim;
  if (c != "format_mismatch") {
    PdpLayer l = random_pdp_layer(cfg, shape, lim);
    const std::string rule = break_layer(l, cfg, c, shape);
    throw std::invalid_argument(fmt::format(
        "test 'pdp.illegal': case={} is refused: the layer would break a PDP programming rule whose hardware "
        "behaviour is undefined, so golden and RTL cannot be compared ({})",
        c, rule.empty() ? "rule check found nothing" : rule));
  }
  lim.precisions = {Precision::Int16, Precision::Fp16};
  PdpLayer l = random_pdp_layer(cfg, shape, lim);
  PdpRegionAllocator alloc(cfg, layout);
  place_pdp_layer(l, cfg, layout, alloc);
  const int rdma_format = l.format == 1 ? 2 : 1;
  b.note(fmt::format("case format_mismatch: PDP_RDMA.D_DATA_FORMAT={} while PDP.D_DATA_FORMAT={}; same element size, "
                     "PDP's format governs arithmetic and counters", rdma_format, l.format));
  b.note("layer: " + describe_pdp_layer(l));
  b.load(l.src_port, l.src, random_pdp_input(l, cfg, data));
  program_pdp_layer(b, cfg, l, 0, flow.chance(0.5), rdma_format);
  finish_pdp_layer(b, cfg, 0, pdp_timeout(l, cfg), "the mismatched-format layer");
  pdp_quiescent_checks(b, cfg, "at the end");
  return p;
}

}  // namespace

TestGenerator make_pdp_illegal_generator() {
  TestGenerator g;
  g.name = "pdp.illegal";
  g.description = "PDP programming that breaks a rule: format_mismatch runs (documented behaviour); output-size, "
                  "channel, partial-width, pad and reserved-format cases are refused with the rule";
  g.knobs = {{"case", "format_mismatch",
              "format_mismatch | out_width | out_height | out_channel | partial_widths | pad_not_below_kernel | "
              "reserved_format"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::PDP) || !cfg.has_unit(Unit::PDP_RDMA)) return "the configuration has no PDP";
    if (!cfg.supports(Precision::Int16) || !cfg.supports(Precision::Fp16))
      return "the only generated case (format_mismatch) needs int16 and fp16; every other case is refused anyway";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
