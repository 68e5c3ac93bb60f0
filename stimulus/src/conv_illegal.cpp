// conv.illegal: convolution programming that breaks one rule of conv.md each. One case is
// defined by the spec and runs: ignored_fields writes random values into every field the spec
// says has no effect (conv.random's program otherwise), so golden and RTL must produce what
// they would without them. Every other case breaks a rule whose hardware behaviour is
// undefined (NVDLA hangs or computes garbage, conv.md §2.6, §8, §11.1 point 8): the generator
// refuses it naming the rule (CLI exit 2), and conv_illegal_program builds the program anyway
// for golden-only tests (the golden model must warn with the rule). Such a program arms the
// broken layer and then only idles: it never waits for an interrupt that cannot come.
#include <fmt/format.h>

#include <stdexcept>

#include "conv_stimulus.h"
#include "dla/regs.gen.h"
#include "generators.h"

namespace dla::stimulus {

namespace {

namespace CD = reg::CDMA;
namespace CS = reg::CSC;
namespace CA = reg::CACC;

const std::vector<ConvIllegalCase> kCases = {
    {"ignored_fields", true,
     "fields conv.md says have no effect (CYA, reserved, S_ARBITER, perf enables, padding/pixel/mean/UV fields outside "
     "image mode, converter fields with CVT_EN = 0, batch stride with one batch, WGS/WMB addresses uncompressed, PRA "
     "outside Winograd, CSC PAD_LEFT in image mode, CACC output address/strides without batches) hold random values; "
     "golden and RTL must agree"},
    {"mode_mismatch", false, "CONV_MODE and PROC_PRECISION must be equal in CDMA, CSC, CMAC_A, CMAC_B and CACC (conv.md §2.6)"},
    {"misc_mismatch", false,
     "IN_PRECISION, DATAIN_FORMAT, WEIGHT_FORMAT and SKIP_DATA_RLS / SKIP_WEIGHT_RLS must be equal in CDMA and CSC (conv.md §2.6)"},
    {"size_mismatch", false,
     "the input size of CDMA and CSC (direct mode) and the output size of CSC and CACC must be equal (conv.md §2.6)"},
    {"atomics", false, "CSC D_ATOMICS must be W_out*H_out-1 (conv.md §2.3, §2.6)"},
    {"entry_mismatch", false, "D_ENTRY_PER_SLICE must be equal in CDMA and CSC (conv.md §2.6)"},
    {"entry_per_slice", false, "D_ENTRY_PER_SLICE must equal the formula of conv.md §8.2"},
    {"bank_mismatch", false, "D_BANK must be equal in CDMA and CSC (conv.md §2.6)"},
    {"weight_mismatch", false, "WEIGHT_BYTES, WMB_BYTES and WEIGHT_KERNEL must be equal in CDMA and CSC (conv.md §2.6)"},
    {"batch_mismatch", false, "BATCHES must be equal in CDMA, CSC and CACC (conv.md §2.6)"},
    {"data_overflow", false,
     "a layer's input slices must fit its data banks: slices*(ENTRIES+1) <= (DATA_BANK+1)*bank entries (conv.md §8.1)"},
    {"bank_sum", false, "(DATA_BANK+1) + (WEIGHT_BANK+1) must not exceed the CBUF banks (conv.md §8.1)"},
    {"winograd_unsupported", false, "Winograd (CONV_MODE = 1) needs a configuration with Winograd (conv.md §1.1)"},
    {"batch_unsupported", false, "BATCHES > 0 needs a configuration with batching (conv.md §1.1)"},
    {"compression_unsupported", false, "WEIGHT_FORMAT = 1 needs a configuration with weight compression (conv.md §1.1, §7)"},
    {"int16_unsupported", false, "int16 needs a configuration with int16 (conv.md §1.1)"},
    {"fp16_unsupported", false, "fp16 needs a configuration with fp16 (conv.md §1.1)"},
    {"cvt_fp16", false, "CVT_EN must be 0 with fp16 data (conv.md §4.1, §5.3)"},
    {"fetch_grain", false, "D_FETCH_GRAIN: GRAINS+1 <= H, and GRAINS = 0 unless LINE_PACKED = 1 (conv.md §8.3)"},
    {"weight_reuse_after_release", false,
     "WEIGHT_REUSE = 1 after a layer that released its weights (SKIP_WEIGHT_RLS = 0) is invalid (conv.md §8.5)"},
    {"data_reuse_after_release", false,
     "DATA_REUSE = 1 after a layer that released all its input slices is invalid (conv.md §8.4)"},
};

std::vector<std::string> case_names() {
  std::vector<std::string> n;
  for (const auto& c : kCases) n.push_back(c.name);
  return n;
}

const ConvIllegalCase& find_case(const std::string& name) {
  for (const auto& c : kCases)
    if (c.name == name) return c;
  throw std::invalid_argument(fmt::format("conv.illegal: unknown case '{}' (known: {})", name, fmt::join(case_names(), ", ")));
}

ConvDrawOptions default_options(const HwConfig& cfg) {
  ConvDrawOptions o;
  o.limits = ConvShapeLimits::of(ConvSize::Small);
  o.modes = {ConvMode::Direct, ConvMode::Image};
  if (cfg.conv_winograd) o.modes.push_back(ConvMode::Winograd);
  for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16})
    if (cfg.supports(p)) o.precisions.push_back(p);
  o.batch_percent = o.compression_percent = 25;
  o.sram_percent = 20;
  return o;
}

// Emits layers one by one; the broken one is armed and then only idled over.
class Builder {
 public:
  Builder(const HwConfig& cfg, uint64_t seed)
      : cfg_(cfg), b_(cfg, p_), shape_(Rng::stream(seed, "conv.illegal.shape")), layout_(Rng::stream(seed, "conv.illegal.layout")),
        data_(Rng::stream(seed, "conv.illegal.data")), fill_(Rng::stream(seed, "conv.illegal.fill")),
        edit_(Rng::stream(seed, "conv.illegal.edit")), alloc_(cfg, layout_) {
    wait_cbuf_flush(p_, cfg);
  }

  Rng& edit() { return edit_; }
  Rng& shape() { return shape_; }
  Program& program() { return p_; }
  ProgramBuilder& builder() { return b_; }

  ConvLayerSpec draw(const ConvDrawOptions& opt, const ConvLayerSpec* prev = nullptr, ConvReuse rel = ConvReuse::None) {
    auto l = random_conv_layer(cfg_, shape_, opt, prev, rel);
    if (!l) throw std::logic_error(fmt::format("conv.illegal: no base layer found on '{}'", cfg_.name));
    random_conv_sdp(*l, cfg_, shape_, opt);
    return *l;
  }

  // Completes the layer (placement, data) and programs it; returns the op range of its
  // register writes. `legal`: self-checked and waited for; else armed and idled over.
  std::pair<size_t, size_t> emit(ConvLayerSpec& l, bool legal) {
    l.sdp.rdma_group = rdma_arms_ % 2;
    if (l.sdp.needs_rdma()) ++rdma_arms_;
    const bool full = l.reuse == ConvReuse::DataFull || l.reuse == ConvReuse::DataAndWeights;
    if (!full) place_conv_input(l, cfg_, layout_, alloc_);
    const ConvLayerData values = random_conv_data(l, cfg_, data_, 0.02);
    ConvWeightImage weights;
    if (!reuses_weights(l.reuse)) {
      weights = conv_weight_image(l, cfg_, values.kernels, fill_);
      l.weight_bytes = weights.weight_bytes;
      l.wmb_bytes = weights.wmb_bytes;
    }
    place_conv_outputs(l, cfg_, layout_, alloc_, !reuses_weights(l.reuse));
    if (legal) {
      const auto problems = conv_layer_problems(l, cfg_, state_);
      if (!problems.empty()) throw std::logic_error("conv.illegal: base layer is illegal: " + problems.front());
    }
    const unsigned group = layer_ % 2;
    b_.note(fmt::format("layer {} group {}: {}", layer_, group, describe_conv_layer(l, cfg_)));
    for (ConvMemoryImage& m : conv_layer_images(l, cfg_, values, weights, fill_)) b_.load(m.port, m.addr, std::move(m.bytes));
    const size_t begin = p_.ops.size();
    program_conv_layer(b_, cfg_, l, group);
    const size_t end = p_.ops.size();
    if (legal) {
      finish_conv_layer(b_, cfg_, l, group, fmt::format("layer {}", layer_));
    } else {
      b_.note(fmt::format("layer {} breaks the rule: it is armed and never waited for (NVDLA hangs or computes garbage)", layer_));
      b_.idle(10000);
    }
    state_ = conv_state_after(l, cfg_);
    ++layer_;
    return {begin, end};
  }

  // The last write to `unit`+`offset` in ops [range.first, range.second).
  RegWrite& write_in(std::pair<size_t, size_t> range, Unit unit, uint32_t offset) {
    const uint32_t addr = *cfg_.unit_base[static_cast<unsigned>(unit)] + offset;
    for (size_t i = range.second; i-- > range.first;)
      if (auto* w = std::get_if<RegWrite>(&p_.ops[i]); w && w->addr == addr) return *w;
    throw std::logic_error(fmt::format("conv.illegal: no write to {}+0x{:03x} in the layer", unit_name(unit), offset));
  }

 private:
  const HwConfig& cfg_;
  Program p_;
  ProgramBuilder b_;
  Rng shape_, layout_, data_, fill_, edit_;
  ConvAllocator alloc_;
  ConvCbufState state_;
  unsigned layer_ = 0, rdma_arms_ = 0;
};

uint32_t bump(uint32_t field, uint32_t max, Rng& r) {  // a different value in [0, max]
  const uint32_t d = static_cast<uint32_t>(r.uniform(1, std::min<uint32_t>(3, max)));
  return field + d <= max ? field + d : field - std::min(field, d);
}

[[noreturn]] void not_applicable(const std::string& c, const HwConfig& cfg, const std::string& why) {
  throw std::invalid_argument(fmt::format("test 'conv.illegal': case={} does not apply to configuration '{}': {}", c, cfg.name, why));
}

Program build(const HwConfig& cfg, uint64_t seed, const ConvIllegalCase& c) {
  const std::string& n = c.name;
  if (n == "ignored_fields") {
    ConvRandomOptions o;
    o.layers = 2;
    o.draw = default_options(cfg);
    o.junk = true;
    o.knob_note = "case ignored_fields: " + c.rule;
    return conv_random_program(cfg, seed, o);
  }
  // Applicability.
  const std::pair<const char*, bool> features[] = {{"winograd_unsupported", cfg.conv_winograd},
                                                   {"batch_unsupported", cfg.conv_batching},
                                                   {"compression_unsupported", cfg.conv_compression},
                                                   {"int16_unsupported", cfg.supports(Precision::Int16)},
                                                   {"fp16_unsupported", cfg.supports(Precision::Fp16)}};
  for (const auto& [name, has] : features)
    if (n == name && has) not_applicable(n, cfg, "the configuration has the feature");
  if (n == "cvt_fp16" && !cfg.supports(Precision::Fp16)) not_applicable(n, cfg, "the configuration has no fp16");

  Builder bld(cfg, seed);
  ProgramBuilder& b = bld.builder();
  Rng& e = bld.edit();
  b.note(fmt::format("case {} (refused by the generator): {}", n, c.rule));
  ConvDrawOptions opt = default_options(cfg);
  opt.limits.max_atomic_ops = uint64_t{1} << 40;  // golden-only programs: size does not matter
  const uint32_t banks = cfg.conv_cbuf_banks, depth = cfg.conv_cbuf_bank_entries;

  if (n == "winograd_unsupported" || n == "batch_unsupported" || n == "compression_unsupported" || n == "int16_unsupported" ||
      n == "fp16_unsupported") {
    opt.unsupported_ok = true;
    opt.modes = {n == "winograd_unsupported" ? ConvMode::Winograd : ConvMode::Direct};
    opt.precisions = {n == "int16_unsupported" ? Precision::Int16 : n == "fp16_unsupported" ? Precision::Fp16 : Precision::Int8};
    opt.batch_percent = n == "batch_unsupported" ? 100 : 0;
    opt.compression_percent = n == "compression_unsupported" ? 100 : 0;
    opt.sram_percent = 0;
    ConvLayerSpec l = bld.draw(opt);
    bld.emit(l, false);
    return bld.program();
  }
  if (n == "weight_reuse_after_release" || n == "data_reuse_after_release") {
    const bool weights = n == "weight_reuse_after_release";
    const ConvReuse rel = weights ? ConvReuse::Weights : ConvReuse::DataFull;
    opt.compression_percent = 0;
    ConvLayerSpec first;
    for (unsigned attempt = 0;; ++attempt) {
      first = bld.draw(opt);
      if (set_release_for_next(first, cfg, bld.shape(), rel)) break;
      if (attempt > 50) throw std::logic_error("conv.illegal: no layer keeps its " + std::string(weights ? "weights" : "data"));
    }
    const auto range = bld.emit(first, true);  // with SKIP_*_RLS = 1 ...
    for (Unit u : {Unit::CDMA, Unit::CSC}) {    // ... turned into a release of everything
      RegWrite& w = bld.write_in(range, u, u == Unit::CDMA ? CD::D_MISC_CFG::offset : CS::D_MISC_CFG::offset);
      w.data &= ~(weights ? 1u << 28 : 1u << 24);
    }
    if (!weights) bld.write_in(range, Unit::CSC, CS::D_RELEASE::offset).data = conv_derived(first, cfg).slices - 1;
    b.note(fmt::format("layer 0 releases all its {} (SKIP_{}_RLS = 0)", weights ? "weights" : "input slices", weights ? "WEIGHT" : "DATA"));
    auto second = random_conv_layer(cfg, bld.shape(), opt, &first, rel);
    if (!second) throw std::logic_error("conv.illegal: no reusing layer found");
    random_conv_sdp(*second, cfg, bld.shape(), opt);
    bld.emit(*second, false);
    return bld.program();
  }

  if (n == "size_mismatch" || n == "fetch_grain" || n == "cvt_fp16" || n == "data_overflow" || n == "batch_mismatch")
    opt.modes = {ConvMode::Direct};
  if (n == "cvt_fp16") opt.precisions = {Precision::Fp16};
  if (n == "data_overflow") opt.limits = ConvShapeLimits::of(ConvSize::Medium), opt.limits.max_atomic_ops = uint64_t{1} << 40;
  ConvLayerSpec l = bld.draw(opt);
  if (n == "data_overflow") {
    for (unsigned attempt = 0; uint64_t{conv_derived(l, cfg).slices} * l.entries_per_slice <= depth; ++attempt) {
      if (attempt > 500) throw std::logic_error("conv.illegal: no layer needs two data banks");
      l = bld.draw(opt);
    }
    const uint64_t need = (uint64_t{conv_derived(l, cfg).slices} * l.entries_per_slice + depth - 1) / depth;
    l.data_banks = static_cast<uint32_t>(need - 1);
    b.note(fmt::format("DATA_BANK+1 = {} banks for {} slices of {} entries ({} banks needed)", l.data_banks,
                       conv_derived(l, cfg).slices, l.entries_per_slice, need));
  } else if (n == "bank_sum") {
    l.weight_banks = banks - l.data_banks + 1;
    b.note(fmt::format("DATA_BANK+1 = {} and WEIGHT_BANK+1 = {}: {} of {} banks", l.data_banks, l.weight_banks,
                       l.data_banks + l.weight_banks, banks));
  } else if (n == "entry_per_slice") {
    const uint32_t right = l.entries_per_slice;
    l.entries_per_slice = right > 1 && e.chance(0.7) ? right - 1 : right + 1;
    if (uint64_t{conv_derived(l, cfg).slices} * l.entries_per_slice > uint64_t{l.data_banks} * depth &&
        l.data_banks + l.weight_banks < banks - (l.compressed ? 1u : 0u))
      ++l.data_banks;  // the wrong value alone breaks the rule, not the data fit
    b.note(fmt::format("D_ENTRY_PER_SLICE + 1 = {} in CDMA and CSC, §8.2 gives {}", l.entries_per_slice, right));
  } else if (n == "cvt_fp16") {
    l.cvt_en = true;
    l.cvt_truncate = static_cast<uint32_t>(e.uniform(0, 8));
    l.cvt_offset = static_cast<int16_t>(e.uniform_signed(-100, 100));
    l.cvt_scale = static_cast<int16_t>(e.uniform_signed(1, 300));
    b.note("fp16 layer with CVT_EN = 1");
  }
  const auto range = bld.emit(l, false);

  // Register edits of one unit (cross-unit mismatches, §2.6).
  auto edit_field = [&](Unit u, uint32_t off, unsigned lsb, unsigned width, const std::string& what) {
    RegWrite& w = bld.write_in(range, u, off);
    const uint32_t mask = (width >= 32 ? 0xffffffffu : ((1u << width) - 1)) << lsb;
    const uint32_t old = (w.data & mask) >> lsb;
    const uint32_t now = bump(old, width >= 32 ? 0xffffffffu : (1u << width) - 1, e);
    w.data = (w.data & ~mask) | ((now << lsb) & mask);
    b.note(fmt::format("{}.{} {} -> {} (the other units keep {})", unit_name(u), what, old, now, old));
  };
  if (n == "mode_mismatch") {
    const Unit units[] = {Unit::CMAC_A, Unit::CMAC_B, Unit::CACC, Unit::CDMA};
    const Unit u = units[e.below(4)];
    const uint32_t off = u == Unit::CDMA ? CD::D_MISC_CFG::offset : CS::D_MISC_CFG::offset;
    if (e.chance(0.4)) edit_field(u, off, 0, 1, "D_MISC_CFG.CONV_MODE");
    else {
      RegWrite& w = bld.write_in(range, u, off);
      const uint32_t old = (w.data >> 12) & 3u, now = (old + 1 + static_cast<uint32_t>(e.below(2))) % 3;
      w.data = (w.data & ~(3u << 12)) | (now << 12);
      b.note(fmt::format("{}.D_MISC_CFG.PROC_PRECISION {} -> {}", unit_name(u), old, now));
    }
  } else if (n == "misc_mismatch") {
    // (An IN_PRECISION mismatch would also make CSC's own view convert precisions.)
    switch (e.below(4)) {
      case 0: edit_field(Unit::CSC, CS::D_DATAIN_FORMAT::offset, 0, 1, "D_DATAIN_FORMAT.DATAIN_FORMAT"); break;
      case 1: edit_field(Unit::CSC, CS::D_WEIGHT_FORMAT::offset, 0, 1, "D_WEIGHT_FORMAT.WEIGHT_FORMAT"); break;
      case 2: edit_field(Unit::CSC, CS::D_MISC_CFG::offset, 24, 1, "D_MISC_CFG.SKIP_DATA_RLS"); break;
      default: edit_field(Unit::CSC, CS::D_MISC_CFG::offset, 28, 1, "D_MISC_CFG.SKIP_WEIGHT_RLS"); break;
    }
  } else if (n == "size_mismatch") {
    // CDMA fetches fewer lines or channels than CSC consumes (strides stay valid), or CACC
    // expects another output size than CSC produces.
    const unsigned pick = static_cast<unsigned>(e.below(5));
    auto shrink = [&](uint32_t off, unsigned lsb, uint32_t now, uint32_t floor, const char* what) {
      RegWrite& w = bld.write_in(range, Unit::CDMA, off);
      const uint32_t to = static_cast<uint32_t>(e.uniform(floor, now - 1));
      w.data = (w.data & ~(0x1fffu << lsb)) | ((to - 1) << lsb);
      b.note(fmt::format("CDMA.{} {} -> {} (CSC keeps {})", what, now, to, now));
    };
    if (pick == 0 && l.height > l.fetch_grain) shrink(CD::D_DATAIN_SIZE_0::offset, 16, l.height, l.fetch_grain, "DATAIN_HEIGHT + 1");
    else if (pick == 1 && l.channels > 1) shrink(CD::D_DATAIN_SIZE_1::offset, 0, l.channels, 1, "DATAIN_CHANNEL + 1");
    else if (pick <= 2) edit_field(Unit::CACC, CA::D_DATAOUT_SIZE_1::offset, 0, 13, "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL");
    else edit_field(Unit::CACC, CA::D_DATAOUT_SIZE_0::offset, pick == 3 ? 0 : 16, 13, "D_DATAOUT_SIZE_0");
  } else if (n == "atomics") {
    edit_field(Unit::CSC, CS::D_ATOMICS::offset, 0, 21, "D_ATOMICS.ATOMICS");
  } else if (n == "entry_mismatch") {
    edit_field(Unit::CSC, CS::D_ENTRY_PER_SLICE::offset, 0, cfg.register_variant == "nvdlav1" ? 12 : 14, "D_ENTRY_PER_SLICE");
  } else if (n == "bank_mismatch") {
    const unsigned width = cfg.register_variant == "nvdlav1" ? 4 : 5;
    if (e.chance(0.5)) edit_field(Unit::CSC, CS::D_BANK::offset, 0, width, "D_BANK.DATA_BANK");
    else edit_field(Unit::CSC, CS::D_BANK::offset, 16, width, "D_BANK.WEIGHT_BANK");
  } else if (n == "weight_mismatch") {
    if (e.chance(0.5)) {
      RegWrite& w = bld.write_in(range, Unit::CSC, CS::D_WEIGHT_BYTES::offset);
      const uint32_t old = w.data;
      w.data += 128 * static_cast<uint32_t>(e.uniform(1, 4));
      b.note(fmt::format("CSC.D_WEIGHT_BYTES {} -> {} (CDMA keeps {})", old, w.data, old));
    } else {
      edit_field(Unit::CSC, CS::D_WEIGHT_SIZE_EXT_1::offset, 16, 13, "D_WEIGHT_SIZE_EXT_1.WEIGHT_KERNEL");
    }
  } else if (n == "batch_mismatch") {
    edit_field(e.chance(0.5) ? Unit::CACC : Unit::CSC, CA::D_BATCH_NUMBER::offset, 0, 5, "D_BATCH_NUMBER.BATCHES");
  } else if (n == "fetch_grain") {
    const bool packed = (bld.write_in(range, Unit::CDMA, CD::D_DAIN_MAP::offset).data & 1u) != 0;
    RegWrite& w = bld.write_in(range, Unit::CDMA, CD::D_FETCH_GRAIN::offset);
    const uint32_t grains = packed || l.height < 2 ? l.height : static_cast<uint32_t>(e.uniform(1, l.height - 1));
    w.data = grains;
    b.note(fmt::format("CDMA.D_FETCH_GRAIN.GRAINS = {} with H = {} and LINE_PACKED = {}", grains, l.height, packed));
  }
  return bld.program();
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const ConvIllegalCase& c = find_case(k.choice("case", case_names()));
  if (!c.runs)
    throw std::invalid_argument(fmt::format("test 'conv.illegal': case={} is refused: {}. The hardware behaviour is "
                                            "undefined, so golden and RTL cannot be compared",
                                            c.name, c.rule));
  return build(cfg, seed, c);
}

}  // namespace

const std::vector<ConvIllegalCase>& conv_illegal_cases() { return kCases; }

Program conv_illegal_program(const HwConfig& cfg, uint64_t seed, const std::string& case_name) {
  Program p = build(cfg, seed, find_case(case_name));
  p.test = "conv.illegal";
  p.config = cfg.name;
  p.seed = seed;
  return p;
}

TestGenerator make_conv_illegal_generator() {
  TestGenerator g;
  g.needs_conv = true;
  g.name = "conv.illegal";
  g.description = "convolution programming outside conv.md's rules: ignored_fields runs (golden and RTL agree); "
                  "cross-unit mismatches, ENTRY_PER_SLICE, CBUF overflow/bank split, missing features, CVT with fp16, "
                  "FETCH_GRAIN and reuse-after-release cases are refused with the rule";
  g.knobs = {{"case", "ignored_fields", fmt::format("{}", fmt::join(case_names(), " | "))}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    for (Unit u : {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC, Unit::SDP, Unit::SDP_RDMA})
      if (!cfg.has_unit(u)) return std::string("the configuration has no ") + unit_name(u);
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
