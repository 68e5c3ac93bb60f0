#include "rubik_illegal.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "dla/rng.h"
#include "generators.h"
#include "rubik_stimulus.h"

namespace dla::stimulus {

namespace {

const std::vector<RubikIllegalCase> kCases = {
    {"ignored_fields", true,
     "fields the layer's mode does not use (contract: DATAIN_CHANNEL and both planar strides; split: "
     "DAIN_PLANAR_STRIDE, DAOUT_SURF_STRIDE, CONTRACT_STRIDE_0/1, DECONV_STRIDE; merge: DATAOUT_CHANNEL, "
     "DAIN_SURF_STRIDE, DAOUT_PLANAR_STRIDE, CONTRACT_STRIDE_0/1, DECONV_STRIDE; and PERF_EN) hold random values "
     "(spec §4.1-§4.4); golden and RTL must agree",
     ""},
    {"reserved_mode", false, "D_MISC_CFG.RUBIK_MODE = 3 is reserved (spec §4.1)", "D_MISC_CFG.RUBIK_MODE = 3 is reserved"},
    {"reserved_precision", false, "D_MISC_CFG.IN_PRECISION = 3 is reserved (spec §4.1)",
     "D_MISC_CFG.IN_PRECISION = 3 is reserved"},
    {"contract_stride_0", false,
     "contract mode with sx*sy > 1 needs D_CONTRACT_STRIDE_0 = ceil(Co/E) x D_DAIN_SURF_STRIDE (spec §4.1, open point "
     "10: the only value on which NVDLA's reference model and RTL agree)",
     "must equal ceil(Co/E) x D_DAIN_SURF_STRIDE"},
    {"split_channels", false,
     "split mode needs D_DATAOUT_SIZE_1.DATAOUT_CHANNEL <= D_DATAIN_SIZE_1.DATAIN_CHANNEL (spec §4.3)",
     "exceeds D_DATAIN_SIZE_1.DATAIN_CHANNEL"},
    {"output_overlap", false,
     "an output stride below what one written row, surface or plane occupies makes the layer's writes overlap "
     "(spec §4.2-§4.4)",
     "the layer's writes would overlap"},
    {"in_out_overlap", false, "the output range must not overlap the input range on the same memory (spec §4)",
     "overlaps the input range"},
};

const RubikIllegalCase& find_case(const std::string& name) {
  std::string known;
  for (const RubikIllegalCase& c : kCases) {
    if (c.name == name) return c;
    known += (known.empty() ? "" : ", ") + c.name;
  }
  throw std::invalid_argument("rubik.illegal: unknown case '" + name + "' (known: " + known + ")");
}

std::vector<std::string> case_names() {
  std::vector<std::string> n;
  for (const RubikIllegalCase& c : kCases) n.push_back(c.name);
  return n;
}

uint64_t random_stride(Rng& r) { return r.uniform(0, 0x7ffffff) * kRubikAtom; }

// Random values in every field the layer's mode does not use.
void fill_ignored_fields(RubikLayer& l, Rng& r) {
  auto deconv = [&]() {
    l.stride_x = static_cast<uint32_t>(r.uniform(1, 32));
    l.stride_y = static_cast<uint32_t>(r.uniform(1, 32));
  };
  switch (l.rubik_mode()) {
    case RubikMode::Contract:
      l.channels = static_cast<uint32_t>(r.uniform(1, 8192));
      l.in_planar = random_stride(r);
      l.out_planar = random_stride(r);
      break;
    case RubikMode::Split:
      l.in_planar = random_stride(r);
      l.out_surface = random_stride(r);
      l.contract0 = random_stride(r);
      l.contract1 = random_stride(r);
      deconv();
      break;
    case RubikMode::Merge:
      l.out_channels = static_cast<uint32_t>(r.uniform(1, 8192));
      l.in_surface = random_stride(r);
      l.out_planar = random_stride(r);
      l.contract0 = random_stride(r);
      l.contract1 = random_stride(r);
      deconv();
      break;
  }
  l.perf_enable = r.chance(0.5);
}

Program build(const HwConfig& cfg, uint64_t seed, const RubikIllegalCase& c) {
  Program p;
  ProgramBuilder b(cfg, p);
  Rng shape = Rng::stream(seed, "rubik.shape");
  Rng layout = Rng::stream(seed, "rubik.layout");
  Rng data = Rng::stream(seed, "rubik.data");
  Rng edit = Rng::stream(seed, "rubik.edit");
  RubikRegionAllocator alloc(layout);
  RubikShapeLimits lim;
  const std::string& n = c.name;
  if (n == "contract_stride_0") lim.modes = {RubikMode::Contract}, lim.max_deconv_stride = 4;
  if (n == "split_channels") lim.modes = {RubikMode::Split}, lim.plane_subset_percent = 0;
  if (n == "output_overlap") lim.min_height = 2;
  RubikLayer l = random_rubik_layer(cfg, shape, lim);
  if (n == "contract_stride_0" && l.stride_x * l.stride_y == 1) l.stride_x = 2;
  if (n == "split_channels") l.out_channels = l.channels + static_cast<uint32_t>(edit.uniform(1, 8));
  place_rubik_layer(l, layout, alloc, "both");
  const RubikExtent r = rubik_read_extent(l), w = rubik_write_extent(l);
  const std::vector<uint8_t> input = data.bytes(static_cast<size_t>(r.end - r.begin));
  const std::vector<uint8_t> before = data.bytes(static_cast<size_t>(w.end - w.begin));
  b.load(l.in_port, l.in, input);
  b.load(l.out_port, l.out, before);

  if (c.runs) {  // ignored_fields
    RubikLayer programmed = l;
    fill_ignored_fields(programmed, edit);
    b.note("case ignored_fields: " + c.rule);
    b.note("layer: " + describe_rubik_layer(l));
    b.note("as programmed: " + describe_rubik_layer(programmed));
    program_rubik_layer(b, cfg, programmed, 0);
    finish_rubik_layer(b, cfg, 0, rubik_timeout(l), "the layer with random ignored fields");
    p.ops.push_back(CheckMem{l.out_port, l.out, rubik_expected_output(l, input, before), "output range"});
    rubik_quiescent_checks(b, cfg, "at the end");
    return p;
  }
  if (n == "reserved_mode") l.mode = 3;
  if (n == "reserved_precision") l.precision = 3;
  if (n == "contract_stride_0")
    l.contract0 = edit.chance(0.5) && l.contract0 >= kRubikAtom ? l.contract0 - kRubikAtom * edit.uniform(1, l.contract0 / kRubikAtom)
                                                                : l.contract0 + kRubikAtom * edit.uniform(1, 8);
  if (n == "output_overlap") {  // height >= 2: the row stride separates written rows
    const uint64_t cut = kRubikAtom * edit.uniform(1, 2);
    auto below = [&](uint64_t minimum) { return minimum - std::min(minimum, cut); };
    const uint64_t wo = uint64_t{l.width} * l.stride_x * kRubikAtom;
    switch (l.rubik_mode()) {
      case RubikMode::Contract:
        if (l.stride_y > 1 && edit.chance(0.5)) l.out_line = below(wo);  // output lines overlap
        else l.contract1 = below(uint64_t{l.stride_y - 1} * l.out_line + wo);  // input rows' line groups overlap
        break;
      case RubikMode::Split: l.out_line = below(l.plane_row_bytes()); break;
      case RubikMode::Merge: l.out_line = below(uint64_t{l.width} * kRubikAtom); break;
    }
  }
  if (n == "in_out_overlap") {
    l.out_port = l.in_port;
    l.out = l.in + kRubikAtom * edit.uniform(0, (r.end - r.begin) / kRubikAtom - 1);
  }
  const std::vector<std::string> rules = rubik_layer_violations(l, cfg);
  b.note(fmt::format("case {} (refused by the generator): {}", n, c.rule));
  b.note("layer: " + describe_rubik_layer(l));
  b.note(rules.empty() ? std::string("rule check found nothing") : "first rule broken: " + rules[0]);
  program_rubik_layer(b, cfg, l, 0);
  b.idle(1000);  // the layer never completes: no interrupt to wait for
  return p;
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const RubikIllegalCase& c = find_case(k.choice("case", case_names()));
  if (!c.runs)
    throw std::invalid_argument(fmt::format("test 'rubik.illegal': case={} is refused: {}. The hardware behaviour is "
                                            "undefined, so golden and RTL cannot be compared",
                                            c.name, c.rule));
  return build(cfg, seed, c);
}

}  // namespace

const std::vector<RubikIllegalCase>& rubik_illegal_cases() { return kCases; }

Program rubik_illegal_program(const HwConfig& cfg, uint64_t seed, const std::string& case_name) {
  Program p = build(cfg, seed, find_case(case_name));
  p.test = "rubik.illegal";
  p.config = cfg.name;
  p.seed = seed;
  return p;
}

TestGenerator make_rubik_illegal_generator() {
  TestGenerator g;
  g.name = "rubik.illegal";
  g.description = "RUBIK programming outside spec §4's rules: ignored_fields runs (golden and RTL agree); reserved "
                  "mode/precision, CONTRACT_STRIDE_0, split plane count, overlapping writes and input/output overlap "
                  "are refused with the rule";
  g.needs_rubik = true;
  g.knobs = {{"case", "ignored_fields", fmt::format("{}", fmt::join(case_names(), " | "))}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::RBK)) return "the configuration has no RUBIK";
    if (!cfg.sram_if) return "the configuration has no SRAM interface";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
