// cdp.illegal: CDP programming that breaks a rule of the spec (§2.2, §2.7, §8 point 8).
// Where our documented decisions define the outcome a program is generated and golden and
// RTL must agree:
//   format_mismatch: CDP_RDMA fp16 with CDP int16 or the reverse (same element size): the
//     RDMA only moves atoms, CDP's D_DATA_FORMAT governs arithmetic and counters;
//   start_outside_22_bits (nv_small-style configurations): int8 LUT START values beyond the
//     22 signed bits the int8 datapath compares: classification and index use sx_22(START),
//     the extrapolation anchor the full 38-bit value.
// Every other case is refused with the rule, because the hardware's behaviour is undefined:
// an RDMA/CDP pair of different element sizes, a precision the configuration lacks, the
// reserved format 3, and out-of-range START on v1 (NVDLA v1 compares 38 bits on one lane and
// 22 on the other, so the result depends on the lane).
#include <fmt/format.h>

#include <stdexcept>

#include "cdp_stimulus.h"
#include "generators.h"

namespace dla::stimulus {

namespace {

const std::vector<std::string> kCases = {"auto", "format_mismatch", "start_outside_22_bits", "size_mismatch",
                                         "unsupported_precision", "reserved_format"};

[[noreturn]] void refuse(const std::string& c, const std::string& why) {
  throw std::invalid_argument(fmt::format(
      "test 'cdp.illegal': case={} is refused: {}; the hardware behaviour is undefined, so golden and RTL cannot be "
      "compared",
      c, why));
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const bool wide = cfg.supports(Precision::Int16) && cfg.supports(Precision::Fp16);
  std::string c = k.choice("case", kCases);
  if (c == "auto") c = cfg.register_variant == "nvdlav1" ? "format_mismatch" : "start_outside_22_bits";
  if (c == "size_mismatch")
    refuse(c, "CDP_RDMA.D_DATA_FORMAT and CDP.D_DATA_FORMAT of different element sizes (spec §2.2: they must be equal)");
  if (c == "reserved_format") refuse(c, "D_DATA_FORMAT = 3 is reserved (spec §2.2, §2.3)");
  if (c == "unsupported_precision") {
    if (wide)
      throw std::invalid_argument(fmt::format(
          "test 'cdp.illegal': case=unsupported_precision does not apply: configuration '{}' supports every CDP precision",
          cfg.name));
    refuse(c, fmt::format("configuration '{}' has only the int8 CDP datapath (D_DATA_FORMAT int16/fp16)", cfg.name));
  }
  if (c == "format_mismatch" && !wide)
    refuse(c, fmt::format("a same-size format pair needs int16 and fp16, which configuration '{}' lacks", cfg.name));
  if (c == "start_outside_22_bits" && cfg.register_variant == "nvdlav1")
    refuse(c, "int8 LUT START outside the signed 22-bit range: NVDLA v1 compares 38 bits on one lane and 22 on the "
              "other (spec §2.7 width notes, §8 point 8)");

  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "cdp.shape");
  Rng layout = Rng::stream(seed, "cdp.layout");
  Rng data = Rng::stream(seed, "cdp.data");
  Rng flow = Rng::stream(seed, "cdp.flow");
  CdpShapeLimits lim;
  int rdma_format = -1;
  CdpLayerSpec l;
  if (c == "format_mismatch") {
    lim.precisions = {Precision::Int16, Precision::Fp16};
    l = random_cdp_layer(cfg, shape, lim);
    rdma_format = l.precision == Precision::Int16 ? 2 : 1;
    b.note(fmt::format("case format_mismatch: CDP_RDMA.D_DATA_FORMAT={} while CDP.D_DATA_FORMAT={}; same element size, "
                       "CDP's format governs arithmetic and counters",
                       rdma_format, l.format_code()));
  } else {  // start_outside_22_bits
    lim.precisions = {Precision::Int8};
    l = random_cdp_layer(cfg, shape, lim);
    // Move START(s) by a multiple of 2^22: the compared 22 bits stay, the anchor moves.
    auto move = [&](uint64_t& start) {
      const int64_t k22 = shape.uniform_signed(-(int64_t{1} << 15), (int64_t{1} << 15)) | 1;
      start = (start + static_cast<uint64_t>(k22 * (int64_t{1} << 22))) & ((uint64_t{1} << 38) - 1);
    };
    const uint64_t which = shape.uniform(1, 3);
    if (which & 1u) move(l.lut.le_start);
    if (which & 2u) move(l.lut.lo_start);
    b.note(fmt::format("case start_outside_22_bits: LE_START 0x{:x} LO_START 0x{:x} (38-bit); int8 compares sx_22, "
                       "extrapolation anchors on all 38 bits",
                       l.lut.le_start, l.lut.lo_start));
  }
  uint64_t next = 0x80000000ull + layout.uniform(0, 0xfff) * 0x1000;
  place_cdp_layer(l, cfg, layout, next);
  b.note("layer: " + describe_cdp_layer(l));
  b.load(MemPort::Dbb, l.src, random_cdp_input(l, cfg, data, 0.05));
  b.load(MemPort::Dbb, l.dst, data.bytes(cdp_extent(l, cfg, true)));
  program_cdp_lut(b, cfg, l.lut, flow);
  program_cdp_layer(b, cfg, l, 0, flow.chance(0.5), rdma_format);
  finish_cdp_layer(b, cfg, 0, cdp_timeout(l, cfg), "the illegal layer");
  cdp_quiescent_checks(b, cfg, "at the end");
  return p;
}

}  // namespace

TestGenerator make_cdp_illegal_generator() {
  TestGenerator g;
  g.name = "cdp.illegal";
  g.description = "CDP programming that breaks a rule: format_mismatch (v1) and start_outside_22_bits (nv_small) run "
                  "with documented behaviour; size_mismatch, unsupported_precision, reserved_format are refused";
  g.knobs = {{"case", "auto",
              "auto (format_mismatch on v1, start_outside_22_bits elsewhere) | format_mismatch | start_outside_22_bits | "
              "size_mismatch | unsupported_precision | reserved_format"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::CDP) || !cfg.has_unit(Unit::CDP_RDMA)) return "the configuration has no CDP";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
