// sdp.illegal: a legal sdp.random program (from a sub-seed of the test's seed) broken the way
// the `case` knob says. One case is defined by the spec and runs: fp_ignored_fields puts
// random values into every field sdp.md §2.4 says FP16 mode ignores, so golden and RTL must
// produce what they would without them. Every other case breaks a rule whose hardware
// behaviour the spec leaves undefined (§2.4, §2.5, §11.4): the generator refuses it with the
// rule (CLI exit 2), and the golden model warns when fed the program anyway.
#include "dla/sdp_illegal.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>

#include "dla/regs.gen.h"
#include "dla/rng.h"
#include "dla/test_generator.h"
#include "generators.h"

namespace dla::stimulus {

namespace {

namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;

const std::vector<SdpIllegalCase> kCases = {
    {"fp_ignored_fields", true,
     "FP16 mode ignores the X-stage shifts, EW_TRUNCATE, every EW_*_CVT_* field, D_CVT_* and the LUT slope shifts "
     "(sdp.md §2.4): random values there must change nothing",
     ""},
    {"precision", false,
     "IN/PROC/OUT must be a combination of sdp.md §2.5 the configuration supports; any other is undefined",
     "undefined precision combination"},
    {"reserved_precision", false, "precision code 3 is not a precision (sdp.md §2.2/§2.3); its behaviour is undefined",
     "precision code 3 is undefined"},
    {"format_mismatch", false,
     "SDP.D_DATA_FORMAT must agree with SDP_RDMA's PROC/OUT precision; disagreement is undefined (sdp.md §2.4)",
     "SDP and SDP_RDMA disagree on"},
    {"cube_mismatch", false,
     "SDP's and SDP_RDMA's cube registers must agree; disagreement is undefined (sdp.md §2.4)",
     "SDP and SDP_RDMA disagree on cube"},
    {"mode_mismatch", false,
     "SDP and SDP_RDMA must agree on FLYING_MODE, WINOGRAD and BATCH_NUMBER; disagreement is undefined (sdp.md §2.4)",
     "SDP and SDP_RDMA disagree on WINOGRAD"},
    {"batch_memory_input", false,
     "BATCH_NUMBER > 0 exists only with flying (CACC) input (sdp.md §5.4, §11.4); with memory input it is undefined",
     "only with flying (CACC) input"},
    {"stream_inconsistent", false,
     "an operand stream must be enabled exactly when its stage takes memory operands (sdp.md §2.4)",
     "operand stream is"},
    {"one_byte_operand", false, "with PROC = INT16 or FP16 the operand DATA_SIZE must be TWO_BYTE (sdp.md §2.4)",
     "DATA_SIZE ONE_BYTE is illegal"},
};

std::vector<std::string> case_names() {
  std::vector<std::string> n;
  for (const auto& c : kCases) n.push_back(c.name);
  return n;
}

// A legal program and the CSB addresses of the two units.
class Editor {
 public:
  Editor(const HwConfig& cfg, Program p)
      : p_(std::move(p)), sdp_(*cfg.unit_base[static_cast<unsigned>(Unit::SDP)]),
        rdma_(*cfg.unit_base[static_cast<unsigned>(Unit::SDP_RDMA)]) {}

  // Every write to SDP (rdma = false) or SDP_RDMA at `offset`, in program order.
  std::vector<RegWrite*> writes(bool rdma, uint32_t offset) {
    std::vector<RegWrite*> w;
    const uint32_t addr = (rdma ? rdma_ : sdp_) + offset;
    for (ProgramOp& op : p_.ops)
      if (auto* rw = std::get_if<RegWrite>(&op); rw && rw->addr == addr) w.push_back(rw);
    return w;
  }
  RegWrite& only(bool rdma, uint32_t offset) {
    auto w = writes(rdma, offset);
    if (w.size() != 1)
      throw std::logic_error(fmt::format("sdp.illegal: expected one write to {}+0x{:03x}, found {}",
                                         rdma ? "SDP_RDMA" : "SDP", offset, w.size()));
    return *w.front();
  }
  // Visits SDP writes in order with the PROC precision of the layer being programmed.
  void for_each_sdp_write(const std::function<void(RegWrite&, uint32_t offset, uint32_t proc)>& f) {
    uint32_t proc = 0;
    for (ProgramOp& op : p_.ops) {
      auto* rw = std::get_if<RegWrite>(&op);
      if (!rw || rw->addr < sdp_ || rw->addr >= sdp_ + 0x1000) continue;
      const uint32_t off = rw->addr - sdp_;
      if (off == S::D_DATA_FORMAT::offset) proc = S::D_DATA_FORMAT::PROC_PRECISION::get(rw->data);
      f(*rw, off, proc);
    }
  }
  Program& program() { return p_; }

 private:
  Program p_;
  uint32_t sdp_, rdma_;
};

// The first sdp.random program (over sub-seeds of `seed`) that `fits`.
Editor legal_program(const HwConfig& cfg, Rng& rng, const Knobs& knobs, const std::string& case_name,
                     const std::function<bool(Editor&)>& fits) {
  const TestGenerator& random = find_test_generator("sdp.random");
  for (int attempt = 0; attempt < 400; ++attempt) {
    Editor e(cfg, random.generate(cfg, rng.next_u64(), knobs));
    if (fits(e)) return e;
  }
  throw std::invalid_argument(fmt::format("test 'sdp.illegal': case={} cannot be built on configuration '{}' "
                                          "(no legal sdp.random layer of the needed kind)", case_name, cfg.name));
}

uint32_t with_precisions(uint32_t rdma_mode, uint32_t in, uint32_t proc, uint32_t out) {
  using F = R::D_FEATURE_MODE_CFG;
  return F::OUT_PRECISION::put(F::PROC_PRECISION::put(F::IN_PRECISION::put(rdma_mode, in), proc), out);
}

constexpr uint32_t kStreamCfgs[] = {R::D_BRDMA_CFG::offset, R::D_NRDMA_CFG::offset, R::D_ERDMA_CFG::offset};

// Puts random values into every field FP16 mode ignores, in the FP16 layers only.
void randomize_ignored_fields(Editor& e, Rng& r) {
  auto any = [&](unsigned bits) {
    const uint64_t all = (uint64_t{1} << bits) - 1;
    return static_cast<uint32_t>(r.chance(0.3) ? all : r.below(all + 1));
  };
  e.for_each_sdp_write([&](RegWrite& w, uint32_t off, uint32_t proc) {
    if (proc != 2) return;
    if (off == S::D_DP_BS_ALU_CFG::offset || off == S::D_DP_BN_ALU_CFG::offset) w.data = (w.data & 1u) | any(6) << 8;
    else if (off == S::D_DP_BS_MUL_CFG::offset || off == S::D_DP_BN_MUL_CFG::offset) w.data = (w.data & 1u) | any(8) << 8;
    else if (off == S::D_DP_EW_ALU_CFG::offset || off == S::D_DP_EW_MUL_CFG::offset) w.data = (w.data & 1u) | any(1) << 1;
    else if (off == S::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset || off == S::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset ||
             off == S::D_CVT_OFFSET::offset)
      w.data = any(32);
    else if (off == S::D_DP_EW_ALU_CVT_SCALE_VALUE::offset || off == S::D_DP_EW_MUL_CVT_SCALE_VALUE::offset ||
             off == S::D_CVT_SCALE::offset)
      w.data = any(16);
    else if (off == S::D_DP_EW_ALU_CVT_TRUNCATE_VALUE::offset || off == S::D_DP_EW_MUL_CVT_TRUNCATE_VALUE::offset ||
             off == S::D_CVT_SHIFT::offset)
      w.data = any(6);
    else if (off == S::D_DP_EW_TRUNCATE_VALUE::offset) w.data = any(10);
    else if (off == S::S_LUT_LE_SLOPE_SHIFT::offset || off == S::S_LUT_LO_SLOPE_SHIFT::offset) w.data = any(10);
  });
}

// Breaks the one-layer program `e` as `name` says.
void break_program(Editor& e, const HwConfig& cfg, const std::string& name, Rng& r) {
  using F = R::D_FEATURE_MODE_CFG;
  RegWrite& fmt = e.only(false, S::D_DATA_FORMAT::offset);
  RegWrite& mode = e.only(true, F::offset);
  if (name == "precision") {
    // Triples outside §2.5 (on an int8-only configuration: any triple using int16 or fp16).
    std::vector<std::array<uint32_t, 3>> undefined = {{0, 1, 1}, {0, 2, 2}, {1, 1, 0}, {2, 2, 0}, {1, 2, 2}, {2, 1, 1}};
    if (!cfg.supports(Precision::Int16)) undefined.insert(undefined.end(), {{1, 1, 1}, {2, 2, 2}, {0, 0, 1}});
    const auto t = r.choice(undefined);
    mode.data = with_precisions(mode.data, t[0], t[1], t[2]);
    fmt.data = S::D_DATA_FORMAT::OUT_PRECISION::put(S::D_DATA_FORMAT::PROC_PRECISION::put(fmt.data, t[1]), t[2]);
  } else if (name == "reserved_precision") {
    const uint64_t which = r.below(3);
    const uint32_t in = which == 0 ? 3 : F::IN_PRECISION::get(mode.data);
    const uint32_t proc = which == 1 ? 3 : F::PROC_PRECISION::get(mode.data);
    const uint32_t out = which == 2 ? 3 : F::OUT_PRECISION::get(mode.data);
    mode.data = with_precisions(mode.data, in, proc, out);
    fmt.data = S::D_DATA_FORMAT::OUT_PRECISION::put(S::D_DATA_FORMAT::PROC_PRECISION::put(fmt.data, proc), out);
  } else if (name == "format_mismatch") {
    const bool proc = r.chance(0.5);
    const uint32_t was = proc ? F::PROC_PRECISION::get(mode.data) : F::OUT_PRECISION::get(mode.data);
    const uint32_t now = (was + 1 + static_cast<uint32_t>(r.below(2))) % 3;
    mode.data = proc ? F::PROC_PRECISION::put(mode.data, now) : F::OUT_PRECISION::put(mode.data, now);
  } else if (name == "cube_mismatch") {
    const uint32_t offs[] = {R::D_DATA_CUBE_WIDTH::offset, R::D_DATA_CUBE_HEIGHT::offset, R::D_DATA_CUBE_CHANNEL::offset};
    RegWrite& w = e.only(true, offs[r.below(3)]);
    w.data += static_cast<uint32_t>(r.uniform(1, 3));
  } else if (name == "mode_mismatch") {
    mode.data = F::WINOGRAD::put(mode.data, 1);
  } else if (name == "batch_memory_input") {
    const uint32_t batch = static_cast<uint32_t>(r.uniform(1, 31));
    mode.data = F::BATCH_NUMBER::put(mode.data, batch);
    RegWrite& s = e.only(false, S::D_FEATURE_MODE_CFG::offset);
    s.data = S::D_FEATURE_MODE_CFG::BATCH_NUMBER::put(s.data, batch);
  } else if (name == "stream_inconsistent") {
    RegWrite& w = e.only(true, kStreamCfgs[r.below(3)]);
    w.data ^= 1u;  // DISABLE flipped: enabled though not needed, or disabled though needed
  } else if (name == "one_byte_operand") {
    for (uint32_t off : kStreamCfgs) {
      RegWrite& w = e.only(true, off);
      if ((w.data & 1u) == 0) w.data &= ~(1u << 3);  // DATA_SIZE = ONE_BYTE
    }
  }
}

bool any_fp16_layer(Editor& e) {
  bool fp = false;
  e.for_each_sdp_write([&](RegWrite&, uint32_t off, uint32_t proc) { fp = fp || (off == S::D_DATA_FORMAT::offset && proc == 2); });
  return fp;
}

bool sixteen_bit_with_stream(Editor& e) {
  if (S::D_DATA_FORMAT::PROC_PRECISION::get(e.only(false, S::D_DATA_FORMAT::offset).data) == 0) return false;
  return std::any_of(std::begin(kStreamCfgs), std::end(kStreamCfgs), [&](uint32_t off) { return (e.only(true, off).data & 1u) == 0; });
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const SdpIllegalCase& c = sdp_illegal_case(k.choice("case", case_names()));
  if (!c.runs)
    throw std::invalid_argument(fmt::format("test 'sdp.illegal': case={} is refused: {}. The hardware behaviour is "
                                            "undefined, so golden and RTL cannot be compared",
                                            c.name, c.rule));
  return sdp_illegal_program(cfg, seed, c.name);
}

}  // namespace

const std::vector<SdpIllegalCase>& sdp_illegal_cases() { return kCases; }

const SdpIllegalCase& sdp_illegal_case(const std::string& name) {
  for (const SdpIllegalCase& c : kCases)
    if (c.name == name) return c;
  throw std::invalid_argument(fmt::format("sdp.illegal: unknown case '{}' (known: {})", name, fmt::join(case_names(), ", ")));
}

Program sdp_illegal_program(const HwConfig& cfg, uint64_t seed, const std::string& case_name) {
  const SdpIllegalCase& c = sdp_illegal_case(case_name);
  Rng pick = Rng::stream(seed, "sdp.illegal.program");
  Rng edit = Rng::stream(seed, "sdp.illegal.edit");
  const bool needs16 = c.name == "fp_ignored_fields" || c.name == "one_byte_operand";
  if (needs16 && !cfg.supports(Precision::Fp16))
    throw std::invalid_argument(fmt::format("test 'sdp.illegal': case={} needs int16/fp16 processing, which configuration "
                                            "'{}' does not have", c.name, cfg.name));
  Program p;
  if (c.name == "fp_ignored_fields") {
    Editor e = legal_program(cfg, pick, {{"layers", "2"}}, c.name, any_fp16_layer);
    randomize_ignored_fields(e, edit);
    p = std::move(e.program());
    p.notes.push_back("case fp_ignored_fields: every field FP16 mode ignores (sdp.md §2.4) holds a random value in the "
                      "FP16 layers; golden and RTL must agree");
  } else {
    auto fits = c.name == "one_byte_operand" ? std::function<bool(Editor&)>(sixteen_bit_with_stream)
                                             : std::function<bool(Editor&)>([](Editor&) { return true; });
    Editor e = legal_program(cfg, pick, {{"layers", "1"}}, c.name, fits);
    break_program(e, cfg, c.name, edit);
    p = std::move(e.program());
    p.notes.push_back(fmt::format("case {} (refused by the generator): {}", c.name, c.rule));
  }
  p.test = "sdp.illegal";
  p.seed = seed;
  return p;
}

TestGenerator make_sdp_illegal_generator() {
  TestGenerator g;
  g.name = "sdp.illegal";
  g.description = "SDP programming outside sdp.md §2.4/§2.5: fp_ignored_fields runs (golden and RTL agree); "
                  "undefined precision/format/cube/mode/batch/stream/operand-size cases are refused with the rule";
  g.knobs = {{"case", "fp_ignored_fields", fmt::format("{}", fmt::join(case_names(), " | "))}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::SDP) || !cfg.has_unit(Unit::SDP_RDMA)) return "the configuration has no SDP";
    if (!cfg.supports(Precision::Fp16))
      return "the only generated case (fp_ignored_fields) needs fp16; every other case is refused anyway";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
