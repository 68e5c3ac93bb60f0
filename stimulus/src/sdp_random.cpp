// sdp.random: random legal SDP layers (sdp.md §2.4/§2.5) on both register groups: every
// precision combination of the configuration, stage enables, ALU/MUL sources and algorithms,
// shifts, operand streams (per kernel / per element, one or two bytes, ALU/MUL/both), the
// six LUT coverage cases of the LUT seed in exponent and linear mode with random priorities,
// converter settings, cube shapes and strides, and data with controlled densities of
// special values. Each layer waits for SDP's interrupt and reads back every counter.
// armed_writes writes the first-armed unit's group (every plain configuration register, and
// D_OP_ENABLE = 0) before the second unit is armed and reads it back (an armed group drops writes).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "dla/register_map.h"
#include "dla/regs.gen.h"
#include "dla/rng.h"
#include "generators.h"
#include "program_builder.h"
#include "region_start.h"
#include "sdp_stimulus.h"
#include "sdp_sticky_sweep.h"
#include "wide_fp16_values.h"

namespace dla::stimulus {

namespace {

// Inputs of at least this many atoms take longer to read (a DMA beat of one or two atoms a cycle)
// than the CSB reads right after the arms: the layer still runs when busy_reads reads S_STATUS
// and the stall counters.
constexpr uint64_t kBusyCheckAtoms = 256;

namespace S = reg::SDP;
namespace R = reg::SDP_RDMA;

struct Precisions {
  Precision in, proc, out;
};

unsigned lanes_of(unsigned atom, Precision p) { return p == Precision::Int8 ? atom : atom / 2; }
unsigned bytes_of(Precision p) { return p == Precision::Int8 ? 1 : 2; }

uint32_t fp32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// Values with controlled densities of special cases.
class ValueSource {
 public:
  ValueSource(Rng& rng, double special) : rng_(rng), special_(special) {}

  int64_t int_value(unsigned bits) {
    const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
    if (rng_.chance(special_)) return rng_.choice(std::vector<int64_t>{lo, hi, 0, -1, 1, lo + 1, hi - 1});
    if (rng_.chance(0.5)) return rng_.uniform_signed(-16, 16);
    return rng_.uniform_signed(lo, hi);
  }
  uint16_t fp16(int min_exp = 8, int max_exp = 22) {
    const uint16_t sign = rng_.chance(0.5) ? 0x8000 : 0;
    if (rng_.chance(special_)) {
      switch (rng_.below(7)) {
        case 0: return static_cast<uint16_t>(sign | 0x7c00 | rng_.uniform(1, 0x3ff));  // NaN
        case 1: return static_cast<uint16_t>(sign | 0x7c00);                            // +-Inf
        case 2: return static_cast<uint16_t>(sign | rng_.uniform(1, 0x3ff));            // subnormal
        case 3: return sign;                                                            // +-0
        case 4: return static_cast<uint16_t>(sign | 0x7bff);                            // +-max
        case 5: return static_cast<uint16_t>(sign | 0x0400);                            // +-min normal
        default: return static_cast<uint16_t>(sign | (30u << 10) | rng_.below(0x400));  // huge
      }
    }
    return static_cast<uint16_t>(sign | (rng_.uniform(static_cast<uint64_t>(min_exp), static_cast<uint64_t>(max_exp)) << 10) |
                                 rng_.below(0x400));
  }
  // An element of precision p as its 16-bit (or 8-bit) pattern.
  uint16_t element(Precision p) {
    if (p == Precision::Fp16) return fp16();
    return static_cast<uint16_t>(int_value(p == Precision::Int8 ? 8 : 16));
  }

 private:
  Rng& rng_;
  double special_;
};

class Allocator {
 public:
  Allocator(Rng& rng, const HwConfig& cfg)
      : rng_(rng),
        cursor_(cfg.dbb_addr_bits > 32 && rng.chance(0.3) ? (rng.uniform(1, 0xf) << 32) | 0x80000000ull
                                                          : 0x80000000ull + rng.uniform(0, 0xfff) * 0x1000,
                cfg.atom_bytes, 4) {}
  // high_addresses: start anywhere instead, drawn from `high` so the layout stream stays.
  void start_anywhere(const HwConfig& cfg, Rng& high) {
    cursor_ = RegionCursor(random_dbb_start_anywhere(cfg, high, true), cfg.atom_bytes, 4);
  }
  uint64_t take(uint64_t bytes) { return cursor_.take(rng_, bytes); }

 private:
  Rng& rng_;
  RegionCursor cursor_;
};

struct Layout {
  uint64_t base = 0, line = 0, surface = 0;
  MemPort port = MemPort::Dbb;
  uint32_t ram_type() const { return port == MemPort::Dbb ? 1u : 0u; }  // the DMA_CFG RAM_TYPE bit: 1 MC, 0 CV
  uint64_t extent(uint32_t surfaces, uint32_t h, uint32_t w, unsigned atom) const {
    return (surfaces - 1) * surface + (h - 1) * line + uint64_t{w} * atom;
  }
};

// A random layer and the program that runs it.
class LayerWriter {
 public:
  // `armed_writes` (null: off) draws the values written to an armed group (armed_writes=on).
  LayerWriter(const HwConfig& cfg, ProgramBuilder& b, Rng& shape, Rng& data, Rng& layout, Allocator& alloc,
              double special, Rng* armed_writes = nullptr)
      : cfg_(cfg), b_(b), shape_(shape), layout_(layout), alloc_(alloc), values_(data, special), data_(data),
        armed_writes_(armed_writes) {}

  // busy_reads=on: the counters read right after the arms too (busy_checks).
  void set_busy_reads(bool on) { busy_reads_ = on; }
  // pow2_rounding_percent: that share of integer layers round in BS and BN (a multiply by +-2^k,
  // a shift right by k + 0..9: only a few bits of the ALU's sum lie under the rounding point, so
  // ties and each term of the sticky OR are common) with EW off and an identity output converter
  // (see x_stage). Drawn from `pow2` only, so 0 keeps every program.
  void set_pow2_rounding(Rng* pow2, uint64_t percent) {
    pow2_ = pow2;
    pow2_percent_ = percent;
  }
  // fp16_data=wide: every layer fp16 in; its input elements and memory operands come from
  // WideFp16Values (the whole format, NaN/Inf at a per-layer rate, adder partners) drawn from
  // `wide`, and one in 16 is a subnormal whose leading one sits at a random bit, so the widening's
  // normalising shift takes every amount. Null: off (no draw, every program stays).
  void set_wide_fp16(Rng* wide) { wide_ = wide; }
  // fp16_data=corners (with set_wide_fp16): three in four input elements and memory operands,
  // and half the fp16 register operands (BS/BN ALU and MUL, 16 bits) and fp32 ones (EW ALU and
  // MUL), are corners of the formats: signed zeros and infinities, NaNs, the largest finite, the
  // smallest normal and subnormal, one and its neighbour. Few values, so an element and an operand
  // meet as a pair of corners (-Inf + -Inf, 0 x Inf, max + max) in every layer.
  void set_fp16_corners(bool on) { corners_ = on; }
  // sram_percent: that share of regions (input, output, each memory operand stream) go to the
  // CV-SRAM, drawn from `sram` only (0 keeps every program).
  void set_sram(Rng* sram, uint64_t percent) {
    sram_ = sram;
    sram_percent_ = percent;
    sram_cursor_.emplace(random_sram_start(*sram), cfg_.atom_bytes, 4);
  }
  // lut_readback=on: each LUT load writes 0..100 entries past each table's end (ignored: only
  // existing entries are stored, sdp.md §8.1) and then reads both whole tables back, one entry
  // past each end included (0), every read compared with the golden model. Drawn from
  // `readback` only (null: off, every program stays).
  void set_lut_readback(Rng* readback) { readback_ = readback; }
  // sticky_sweep_percent: that share of layers is a sticky sweep (sdp_sticky_sweep.h) instead of
  // the usual draw; drawn from `sticky` only (0 keeps every program).
  void set_sticky_sweep(Rng* sticky, uint64_t percent) {
    sticky_ = sticky;
    sticky_percent_ = percent;
  }
  // With req.to_pdp the layer is only programmed (the caller arms it together with PDP).
  void write(unsigned layer, unsigned group, uint32_t max_w, uint32_t max_h, uint32_t max_c, bool wide,
             const SdpLayerRequest& req = {});

 private:
  uint32_t sdp(uint32_t off) const { return *cfg_.unit_base[static_cast<unsigned>(Unit::SDP)] + off; }
  uint32_t rdma(uint32_t off) const { return *cfg_.unit_base[static_cast<unsigned>(Unit::SDP_RDMA)] + off; }
  Precisions pick_precisions(const SdpLayerRequest& req);
  Layout pick_layout(uint32_t surfaces, uint32_t h, uint32_t w, uint64_t position_bytes, MemPort port);
  // The memory of the next region (sram_percent) and its first free address there.
  MemPort pick_port() { return sram_ && sram_->below(100) < sram_percent_ ? MemPort::Sram : MemPort::Dbb; }
  uint64_t take(MemPort port, uint64_t bytes) {
    return port == MemPort::Dbb ? alloc_.take(bytes) : sram_cursor_->take(*sram_, bytes);
  }
  // A BS/BN stage's part in a pow2_rounding layer (x_stage).
  enum class Pow2Role : uint8_t { None, ScaleUp, Exact, Round };
  uint32_t x_stage(uint32_t base, bool fp, Pow2Role role, uint32_t& upscale, bool& alu_mem, bool& mul_mem);
  void write_while_armed(Unit unit, unsigned group);
  void busy_checks(unsigned layer, unsigned group, uint64_t input_atoms);
  uint32_t stream(uint32_t cfg_off, uint32_t base_off, bool alu_mem, bool mul_mem, Precision proc, uint32_t w,
                  uint32_t h, uint32_t c, std::string& note);
  void lut(bool fp, std::string& note);
  void write_sticky_sweep(unsigned layer, unsigned group);
  // Both pointers, the cube on both sides, the input's address, strides and RAM type.
  void program_cube(unsigned group, uint32_t w, uint32_t h, uint32_t c, const Layout& in);
  void program_destination(const Layout& out);  // SDP's output address and strides
  // Arms SDP and SDP_RDMA of `group` (either first), waits for the layer and reads every counter.
  void arm_and_check(unsigned layer, unsigned group, uint64_t input_atoms, uint64_t elements);
  uint16_t wide_fp16(WideFp16Values& w);
  uint16_t operand16(bool fp) {
    if (fp && corners_ && wide_->chance(0.5)) return corner16();
    return fp ? values_.fp16(10, 18) : static_cast<uint16_t>(values_.int_value(shape_.chance(0.5) ? 8 : 16));
  }
  uint16_t corner16() {
    static constexpr uint16_t kCorners[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x7bff, 0xfbff, 0x0400,
                                            0x8400, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x3c00, 0xbc00, 0x3bff, 0x7800, 0xf800};
    return kCorners[wide_->below(std::size(kCorners))];
  }
  uint32_t corner32() {
    static constexpr uint32_t kCorners[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
                                            0x7f7fffff, 0xff7fffff, 0x00800000, 0x80000001, 0x3f800000, 0xbf800000,
                                            0x477fe000, 0xc77fe000, 0x33800000, 0x38800000};
    return kCorners[wide_->below(std::size(kCorners))];
  }
  uint32_t fp32_moderate(int lo, int hi) {
    const uint32_t sign = shape_.chance(0.5) ? 0x80000000u : 0u;
    return sign | (static_cast<uint32_t>(127 + shape_.uniform_signed(lo, hi)) << 23) | static_cast<uint32_t>(shape_.below(1u << 23));
  }

  const HwConfig& cfg_;
  ProgramBuilder& b_;
  Rng& shape_;
  Rng& layout_;
  Allocator& alloc_;
  ValueSource values_;
  Rng& data_;
  Rng* armed_writes_;
  bool busy_reads_ = false;
  Rng* pow2_ = nullptr;
  Rng* wide_ = nullptr;
  bool corners_ = false;
  uint64_t pow2_percent_ = 0;
  Rng* sram_ = nullptr;
  uint64_t sram_percent_ = 0;
  std::optional<RegionCursor> sram_cursor_;
  Rng* readback_ = nullptr;
  Rng* sticky_ = nullptr;
  uint64_t sticky_percent_ = 0;
};

// The group of `unit` was just armed and the layer cannot end before the other unit is: a write
// to each of the group's plain configuration registers (random values, then their complements)
// and D_OP_ENABLE = 0 must all be dropped; every register is read back after each pass (the
// golden model's values: those programmed).
void LayerWriter::write_while_armed(Unit unit, unsigned group) {
  const uint32_t base = *cfg_.unit_base[static_cast<unsigned>(unit)];
  const char* name = unit == Unit::SDP ? "SDP" : "SDP_RDMA";
  std::vector<uint32_t> offsets;
  for (const RegInfo* r : RegisterMap::of(cfg_).unit_registers(unit)) {
    if (!r->dual || r->name == "D_OP_ENABLE" || r->writable_mask() == 0) continue;
    const bool plain = std::all_of(r->fields.begin(), r->fields.end(), [](const FieldInfo& f) {
      return f.access == Access::RW && !f.trigger && !f.hw_modified;
    });
    if (plain) offsets.push_back(r->offset);
  }
  Rng& r = *armed_writes_;
  std::vector<uint32_t> values;
  for (size_t i = 0; i < offsets.size(); ++i) values.push_back(static_cast<uint32_t>(r.uniform(0, 0xffffffffu)));
  const uint32_t enable = base + (unit == Unit::SDP ? S::D_OP_ENABLE::offset : R::D_OP_ENABLE::offset);
  // Two passes, the second writing the complement of the first: a register that took a write
  // differs from its programmed value in every bit in one of the two read-backs.
  for (const bool complement : {false, true}) {
    for (size_t i = 0; i < offsets.size(); ++i) b_.write(base + offsets[i], complement ? ~values[i] : values[i]);
    if (!complement) b_.write(enable, 0);
    for (uint32_t off : offsets)
      b_.read(base + off, 0xffffffffu, std::nullopt,
              fmt::format("{} register 0x{:03x} group {} after a write while armed{}", name, off, group,
                          complement ? " (complement)" : ""));
  }
  b_.read(enable, 0xffffffffu, 1u, fmt::format("{}.D_OP_ENABLE group {} still armed after a write of 0", name, group));
}

// busy_reads: both units of `group` were just armed. Every counter the hardware clears at the arm
// and writes at the layer's end is read: 0 while the layer runs, the golden model's count once it
// ended (zero_ok). For inputs of kBusyCheckAtoms or more the layer still runs: both units'
// S_STATUS group field is not idle and the stall counters read 0 (DUT only: one read each, no
// timing in the golden model).
void LayerWriter::busy_checks(unsigned layer, unsigned group, uint64_t input_atoms) {
  auto counter = [&](uint32_t addr, const char* unit, const char* name) {
    b_.read_count_or_zero(addr, fmt::format("{}.{} group {} while layer {} runs", unit, name, group, layer));
  };
  if (input_atoms >= kBusyCheckAtoms) {
    const uint32_t field = 3u << (16 * group), running = 1u << (16 * group);
    for (const auto& [addr, unit] : {std::pair{rdma(R::S_STATUS::offset), "SDP_RDMA"}, std::pair{sdp(S::S_STATUS::offset), "SDP"}})
      b_.poll(PollReg{addr, field, running, RegCompare::Ge, 1,
                      fmt::format("{}.S_STATUS group {} running or pending right after layer {} is armed", unit, group,
                                  layer)});
    for (const auto& [off, name] : {std::pair{R::D_PERF_MRDMA_READ_STALL::offset, "D_PERF_MRDMA_READ_STALL"},
                                    std::pair{R::D_PERF_BRDMA_READ_STALL::offset, "D_PERF_BRDMA_READ_STALL"},
                                    std::pair{R::D_PERF_NRDMA_READ_STALL::offset, "D_PERF_NRDMA_READ_STALL"},
                                    std::pair{R::D_PERF_ERDMA_READ_STALL::offset, "D_PERF_ERDMA_READ_STALL"}})
      b_.read(rdma(off), 0xffffffffu, 0u, fmt::format("SDP_RDMA.{} group {} while layer {} runs", name, group, layer));
    b_.read(sdp(S::D_PERF_WDMA_WRITE_STALL::offset), 0xffffffffu, 0u,
            fmt::format("SDP.D_PERF_WDMA_WRITE_STALL group {} while layer {} runs", group, layer));
  }
  for (const auto& [off, name] : {std::pair{S::D_STATUS::offset, "D_STATUS"},
                                  std::pair{S::D_STATUS_NAN_INPUT_NUM::offset, "D_STATUS_NAN_INPUT_NUM"},
                                  std::pair{S::D_STATUS_INF_INPUT_NUM::offset, "D_STATUS_INF_INPUT_NUM"},
                                  std::pair{S::D_STATUS_NAN_OUTPUT_NUM::offset, "D_STATUS_NAN_OUTPUT_NUM"},
                                  std::pair{S::D_PERF_LUT_UFLOW::offset, "D_PERF_LUT_UFLOW"},
                                  std::pair{S::D_PERF_LUT_OFLOW::offset, "D_PERF_LUT_OFLOW"},
                                  std::pair{S::D_PERF_OUT_SATURATION::offset, "D_PERF_OUT_SATURATION"},
                                  std::pair{S::D_PERF_LUT_HYBRID::offset, "D_PERF_LUT_HYBRID"},
                                  std::pair{S::D_PERF_LUT_LE_HIT::offset, "D_PERF_LUT_LE_HIT"},
                                  std::pair{S::D_PERF_LUT_LO_HIT::offset, "D_PERF_LUT_LO_HIT"}})
    counter(sdp(off), "SDP", name);
  for (const auto& [off, name] : {std::pair{R::D_STATUS_NAN_INPUT_NUM::offset, "D_STATUS_NAN_INPUT_NUM"},
                                  std::pair{R::D_STATUS_INF_INPUT_NUM::offset, "D_STATUS_INF_INPUT_NUM"}})
    counter(rdma(off), "SDP_RDMA", name);
}

Precisions LayerWriter::pick_precisions(const SdpLayerRequest& req) {
  const Precision I8 = Precision::Int8, I16 = Precision::Int16, F16 = Precision::Fp16;
  std::vector<Precisions> legal = {{I8, I8, I8}};
  if (cfg_.supports(I16) && cfg_.supports(F16)) {
    legal.insert(legal.end(), {{I16, I16, I16}, {F16, F16, F16}, {F16, F16, F16}, {I16, I16, I16}, {F16, F16, I16},
                               {I16, I16, F16}, {I8, I8, I8}});
    if (cfg_.register_variant == "nvdlav1") legal.insert(legal.end(), {{I16, I8, I8}, {I8, I8, I16}, {I8, I8, F16}});
  }
  if (wide_)
    legal.erase(std::remove_if(legal.begin(), legal.end(), [&](const Precisions& p) { return p.in != F16; }), legal.end());
  if (req.to_pdp)  // PDP reads OUT-precision atoms in cube order: no 8->16 output split (§11.5)
    legal.erase(std::remove_if(legal.begin(), legal.end(),
                               [&](const Precisions& p) { return p.out != req.out || (p.proc == I8 && p.out != I8); }),
                legal.end());
  if (legal.empty())
    throw std::invalid_argument(std::string("SDP layer to PDP: no legal precision combination with OUT_PRECISION ") +
                                precision_name(req.out) + " in configuration '" + cfg_.name + "'");
  return shape_.choice(legal);
}

uint16_t LayerWriter::wide_fp16(WideFp16Values& w) {
  if (corners_ && wide_->below(4) != 0) return corner16();
  if (wide_->chance(1.0 / 16)) {
    const unsigned lead = static_cast<unsigned>(wide_->below(10));
    return static_cast<uint16_t>((wide_->chance(0.5) ? 0x8000u : 0u) | 1u << lead | wide_->below(uint64_t{1} << lead));
  }
  return w.next();
}

Layout LayerWriter::pick_layout(uint32_t surfaces, uint32_t h, uint32_t w, uint64_t position_bytes, MemPort port) {
  const unsigned a = cfg_.atom_bytes;
  Layout l;
  const bool packed = layout_.chance(0.4);
  l.line = uint64_t{w} * position_bytes + (packed ? 0 : layout_.uniform(1, 3) * a);
  l.surface = uint64_t{h} * l.line + (packed ? 0 : layout_.uniform(1, 3) * a);
  if (w == 1 && h == 1) l.surface = position_bytes;  // W = H = 1: surfaces back to back
  l.port = port;
  l.base = take(l.port, l.extent(surfaces, h, w, static_cast<unsigned>(position_bytes)));
  return l;
}

// pow2_rounding layers (role != None): the stage is on with ReLU bypassed, register operands and a
// small ALU operand (shifted by the previous stage's scale-up). ScaleUp multiplies by +-2^k and shifts right by k - u (an exact
// scale by 2^u, u returned in `upscale`, so the next stage's input has u trailing zeros); Exact
// the same with u = 0; Round
// multiplies by +-2^k and shifts right by k + upscale + j, j mostly 1..3: the lowest set bit of the
// product lands near bit k + upscale and only j bits lie between it and the guard bit, so exact
// ties and a single set bit under the guard bit (one term of the sticky OR) are common; a quarter
// of Round stages saturate the ALU operand instead and shift by 24..30 more. The caller
// keeps the output unsaturated (EW off, identity output converter) so the rounding shows.
uint32_t LayerWriter::x_stage(uint32_t base, bool fp, Pow2Role role, uint32_t& upscale, bool& alu_mem, bool& mul_mem) {
  const bool on = shape_.chance(0.65);
  const bool alu_bypass = shape_.chance(0.3), mul_bypass = shape_.chance(0.35);
  uint32_t c = on ? 0 : 1;
  c |= (alu_bypass ? 1u : 0u) << 1;
  c |= static_cast<uint32_t>(shape_.below(3)) << 2;  // MAX, MIN, SUM
  c |= (mul_bypass ? 1u : 0u) << 4;
  c |= (shape_.chance(0.3) ? 1u : 0u) << 5;  // PReLU
  c |= (shape_.chance(0.5) ? 1u : 0u) << 6;  // ReLU bypass
  alu_mem = shape_.chance(0.4);
  mul_mem = shape_.chance(0.4);
  uint32_t alu_shift = shape_.chance(0.7) ? static_cast<uint32_t>(shape_.below(4)) : static_cast<uint32_t>(shape_.below(64));
  uint32_t mul_shift = shape_.chance(0.6) ? static_cast<uint32_t>(shape_.below(16)) : static_cast<uint32_t>(shape_.below(256));
  uint16_t alu_operand = operand16(fp), mul_operand = operand16(fp);
  if (role != Pow2Role::None) {
    c = (c & ~(1u | (1u << 4))) | (1u << 6);  // on, multiplier used, ReLU bypassed
    alu_mem = mul_mem = false;
    alu_shift = role == Pow2Role::Round ? upscale : 0;  // keeps the input's trailing zeros
    alu_operand = static_cast<uint16_t>(pow2_->uniform_signed(-64, 63));
    const uint32_t k = static_cast<uint32_t>(pow2_->uniform(0, 14));
    mul_operand = static_cast<uint16_t>(pow2_->chance(0.5) ? -(int32_t{1} << k) : (int32_t{1} << k));
    if (role != Pow2Role::Round) {
      const uint32_t u = role == Pow2Role::Exact ? 0u : static_cast<uint32_t>(pow2_->uniform(0, std::min<uint32_t>(k, 8)));
      mul_shift = k - u;
      upscale = u;
    } else if (pow2_->chance(0.25)) {
      // The ALU operand saturates (a shift of 31..63): its +-(2^31 - 1 or 2^31) shifted right by
      // 24..30 lands in the output's range, so the saturated value's upper bits show.
      alu_shift = static_cast<uint32_t>(pow2_->uniform(31, 63));
      if (alu_operand == 0) alu_operand = 1;
      mul_shift = k + upscale + static_cast<uint32_t>(pow2_->uniform(24, 30));
    } else {
      const uint32_t j = static_cast<uint32_t>(pow2_->chance(0.8) ? pow2_->uniform(1, 3) : pow2_->uniform(0, 9));
      mul_shift = k + upscale + j;
    }
  }
  b_.write(sdp(base), c);
  b_.write(sdp(base + 4), (alu_shift << 8) | (alu_mem ? 1u : 0u));
  b_.write(sdp(base + 8), alu_operand);
  b_.write(sdp(base + 0xc), (mul_shift << 8) | (mul_mem ? 1u : 0u));
  b_.write(sdp(base + 0x10), mul_operand);
  alu_mem = alu_mem && (c & 1u) == 0 && (c & 2u) == 0;
  mul_mem = mul_mem && (c & 1u) == 0 && (c & 0x10u) == 0;
  return c;
}

uint32_t LayerWriter::stream(uint32_t cfg_off, uint32_t base_off, bool alu_mem, bool mul_mem, Precision proc,
                             uint32_t w, uint32_t h, uint32_t c, std::string& note) {
  const bool enabled = alu_mem || mul_mem;
  const uint32_t use = alu_mem && mul_mem ? 2 : alu_mem ? 1 : 0;
  const bool two_byte = proc != Precision::Int8 || shape_.chance(0.5);
  const bool per_element = shape_.chance(0.5);
  const MemPort port = enabled ? pick_port() : MemPort::Dbb;
  uint32_t v = (enabled ? 0u : 1u) | (use << 1) | ((two_byte ? 1u : 0u) << 3) | ((per_element ? 1u : 0u) << 4) |
               (port == MemPort::Dbb ? 1u : 0u) << 5;
  if (!enabled) v = 1u | (static_cast<uint32_t>(shape_.below(32)) << 1);  // disabled: other fields random
  b_.write(rdma(cfg_off), v);
  Layout l;
  if (enabled) {
    const unsigned epa = lanes_of(cfg_.atom_bytes, proc), bpe = (two_byte ? 2 : 1) * (use == 2 ? 2 : 1);
    const uint32_t surfaces = (c + epa - 1) / epa;
    if (per_element) {
      l = pick_layout(surfaces, h, w, uint64_t{epa} * bpe, port);
    } else {
      l.port = port;
      l.base = take(l.port, uint64_t{surfaces} * epa * bpe);
    }
    const uint64_t bytes = per_element ? l.extent(surfaces, h, w, epa * bpe) : uint64_t{surfaces} * epa * bpe;
    std::vector<uint8_t> d(bytes);
    const bool fp = proc == Precision::Fp16;
    const size_t step = two_byte ? 2 : 1;
    std::optional<WideFp16Values> wide;
    if (fp && wide_) wide.emplace(*wide_, epa * (use == 2 ? 2 : 1));
    for (size_t i = 0; i + step <= d.size(); i += step) {
      const uint16_t x = wide     ? wide_fp16(*wide)
                         : fp     ? values_.fp16(10, 17)
                                  : static_cast<uint16_t>(values_.int_value(two_byte ? 16 : 8));
      d[i] = static_cast<uint8_t>(x);
      if (two_byte) d[i + 1] = static_cast<uint8_t>(x >> 8);
    }
    b_.load(l.port, l.base, std::move(d));
    note += fmt::format(" stream@{}{:x}({},{}B,{})", l.port == MemPort::Sram ? "sram:" : "", l.base,
                        use == 2 ? "both" : use ? "alu" : "mul", two_byte ? 2 : 1, per_element ? "elem" : "kernel");
  } else {
    l.base = layout_.uniform(0, 0xffffffffu) & ~uint64_t{cfg_.atom_bytes - 1};  // unused: random
    l.line = layout_.below(0x10000);
    l.surface = layout_.below(0x10000);
  }
  b_.write(rdma(base_off), static_cast<uint32_t>(l.base));
  b_.write(rdma(base_off + 4), static_cast<uint32_t>(l.base >> 32));
  b_.write(rdma(base_off + 8), static_cast<uint32_t>(l.line));
  b_.write(rdma(base_off + 0xc), static_cast<uint32_t>(l.surface));
  b_.write(rdma(base_off + 0x10), static_cast<uint32_t>(layout_.below(0x100000)));  // batch stride: unused
  return v;
}

// The six coverage cases of the LUT seed (X = LE, Y = LO): overlap, disjoint, nested, in
// both orders; LE exponent or linear; random priorities; random slopes.
void LayerWriter::lut(bool fp, std::string& note) {
  static const char* kCases[] = {"overlap LE<LO", "overlap LO<LE", "disjoint LE<LO", "disjoint LO<LE", "LO inside LE",
                                 "LE inside LO"};
  const unsigned kase = static_cast<unsigned>(shape_.below(6));
  const bool le_linear = shape_.chance(0.5);
  const uint32_t priorities = static_cast<uint32_t>(shape_.below(8));
  b_.write(sdp(S::S_LUT_CFG::offset), (le_linear ? 1u : 0u) | (priorities << 4));
  // log2 of each table's span; linear: span = entries * 2^sel.
  const int span_le = fp ? static_cast<int>(shape_.uniform(2, 14)) : static_cast<int>(shape_.uniform(8, 24));
  const int span_lo = kase >= 4 ? span_le + (kase == 4 ? -2 : 2) : span_le + static_cast<int>(shape_.uniform_signed(-1, 1));
  const int sel_le = span_le - 6, sel_lo = span_lo - 8;
  const int64_t w_le = int64_t{1} << span_le, w_lo = int64_t{1} << span_lo;
  int64_t s_le = -w_le / 2, s_lo = 0;
  switch (kase) {
    case 0: s_lo = s_le + w_le / 2; break;
    case 1: s_lo = s_le - w_lo / 2; break;
    case 2: s_lo = s_le + w_le + w_le / 4; break;
    case 3: s_lo = s_le - w_lo - w_lo / 4; break;
    case 4: s_lo = s_le + w_le / 4; break;
    default: s_lo = s_le - w_lo / 4; break;
  }
  // Exponent LE: half the layers give the table the case's span (D < 2^(OFF+64), sdp.md §8.2;
  // fp values are on a 1/256 grid), the others a small OFF and so a range up to the input maximum.
  const int offset = le_linear              ? static_cast<int>(shape_.uniform_signed(-128, 127))
                     : shape_.chance(0.5) ? span_le - (fp ? 72 : 64)
                                          : static_cast<int>(shape_.uniform_signed(fp ? -10 : -2, fp ? 4 : 12));
  // fp tables live on a grid 256 times finer than the integer ones: selects shift by 8.
  const int grid = fp ? 8 : 0;
  const int le_select = le_linear ? sel_le - grid : static_cast<int>(shape_.uniform_signed(-128, 127));
  b_.write(sdp(S::S_LUT_INFO::offset), (static_cast<uint32_t>(offset) & 0xffu) | ((static_cast<uint32_t>(le_select) & 0xffu) << 8) |
                                           ((static_cast<uint32_t>(sel_lo - grid) & 0xffu) << 16));
  auto value = [&](int64_t v) -> uint32_t {
    if (!fp) return static_cast<uint32_t>(static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)));
    return fp32_bits(static_cast<float>(v) / 256.0f);
  };
  const int64_t le_end = le_linear ? s_le + w_le : s_le + (int64_t{1} << std::min(62, 64 + offset));
  b_.write(sdp(S::S_LUT_LE_START::offset), value(s_le));
  b_.write(sdp(S::S_LUT_LE_END::offset), value(std::min<int64_t>(le_end, INT32_MAX)));
  b_.write(sdp(S::S_LUT_LO_START::offset), value(s_lo));
  b_.write(sdp(S::S_LUT_LO_END::offset), value(s_lo + w_lo));
  auto slope = [&]() -> uint32_t {
    if (fp) return values_.fp16(12, 17);
    return static_cast<uint16_t>(shape_.uniform_signed(-300, 300));
  };
  auto shift = [&]() { return static_cast<uint32_t>(shape_.below(32)); };
  b_.write(sdp(S::S_LUT_LE_SLOPE_SCALE::offset), slope() | (slope() << 16));
  b_.write(sdp(S::S_LUT_LE_SLOPE_SHIFT::offset), shift() | (shift() << 5));
  b_.write(sdp(S::S_LUT_LO_SLOPE_SCALE::offset), slope() | (slope() << 16));
  b_.write(sdp(S::S_LUT_LO_SLOPE_SHIFT::offset), shift() | (shift() << 5));
  for (unsigned table = 0; table < 2; ++table) {
    b_.write(sdp(S::S_LUT_ACCESS_CFG::offset), (table << 16) | (1u << 17));
    const unsigned n = table ? 257 : 65;
    for (unsigned i = 0; i < n; ++i)
      b_.write(sdp(S::S_LUT_ACCESS_DATA::offset), fp ? values_.fp16(10, 20) : static_cast<uint16_t>(values_.int_value(16)));
    if (readback_)  // past the end: the address still advances, nothing is stored
      for (uint64_t i = 0, extra = readback_->below(101); i < extra; ++i)
        b_.write(sdp(S::S_LUT_ACCESS_DATA::offset), static_cast<uint32_t>(readback_->below(0x10000)));
  }
  if (readback_)
    for (unsigned table = 0; table < 2; ++table) {
      const unsigned n = table ? 257 : 65;
      b_.write(sdp(S::S_LUT_ACCESS_CFG::offset), table << 16);  // READ from entry 0
      for (unsigned i = 0; i <= n; ++i)
        b_.read(sdp(S::S_LUT_ACCESS_DATA::offset), 0xffffffffu, std::nullopt,
                fmt::format("SDP LUT {} entry {} (read back)", table ? "LO" : "LE", i));
    }
  if (shape_.chance(0.3)) {  // read back a few entries (auto-increment on read)
    const unsigned table = static_cast<unsigned>(shape_.below(2)), at = static_cast<unsigned>(shape_.below(table ? 250 : 60));
    b_.write(sdp(S::S_LUT_ACCESS_CFG::offset), (table << 16) | at, true);
    for (unsigned i = 0; i < 4; ++i)
      b_.read(sdp(S::S_LUT_ACCESS_DATA::offset), 0xffffffffu, std::nullopt, fmt::format("SDP LUT {} entry {}", table ? "LO" : "LE", at + i));
  }
  note += fmt::format(" lut[{} LE {} off {} prio {}]", kCases[kase], le_linear ? "linear" : "exponent", offset, priorities);
}

void LayerWriter::write(unsigned layer, unsigned group, uint32_t max_w, uint32_t max_h, uint32_t max_c, bool wide,
                        const SdpLayerRequest& req) {
  if (sticky_ && !req.to_pdp && sticky_->below(100) < sticky_percent_) return write_sticky_sweep(layer, group);
  const unsigned a = cfg_.atom_bytes;
  const Precisions p = pick_precisions(req);
  const bool fp = p.proc == Precision::Fp16;
  uint32_t w = static_cast<uint32_t>(shape_.uniform(1, max_w)), h = static_cast<uint32_t>(shape_.uniform(1, max_h));
  uint32_t c = static_cast<uint32_t>(shape_.uniform(1, max_c));
  const double r = shape_.unit();
  if (r < 0.08) w = h = c = 1;
  else if (r < 0.18) w = h = 1;
  if (wide && shape_.chance(0.5)) {
    w = 8192;
    h = 1;
    c = std::min<uint32_t>(c, lanes_of(a, p.proc));
  }
  if (req.to_pdp) w = req.width, h = req.height, c = req.channels;
  std::string note = fmt::format("layer {} group {}: {}x{}x{} {}/{}/{}", layer, group, w, h, c, precision_name(p.in),
                                 precision_name(p.proc), precision_name(p.out));

  const unsigned proc_lanes = lanes_of(a, p.proc);
  const uint32_t proc_surfaces = (c + proc_lanes - 1) / proc_lanes;
  const uint32_t in_surfaces = p.in == Precision::Int16 && p.proc == Precision::Int8 ? 2 * proc_surfaces
                                                                                     : (c + lanes_of(a, p.in) - 1) / lanes_of(a, p.in);
  const uint32_t out_surfaces = p.proc == Precision::Int8 && p.out != Precision::Int8 ? 2 * proc_surfaces
                                                                                      : (c + lanes_of(a, p.out) - 1) / lanes_of(a, p.out);
  const MemPort in_port = pick_port();
  const MemPort out_port = req.to_pdp ? MemPort::Dbb : pick_port();  // to PDP: nothing is written
  const Layout in = pick_layout(in_surfaces, h, w, a, in_port);
  const Layout out = pick_layout(out_surfaces, h, w, a, out_port);

  // Input data: every byte of every atom, pad lanes included.
  std::vector<uint8_t> bytes(in.extent(in_surfaces, h, w, a));
  data_.fill(bytes.data(), bytes.size());
  std::optional<WideFp16Values> wide_in;
  if (wide_ && p.in == Precision::Fp16) wide_in.emplace(*wide_, lanes_of(a, p.in));
  for (uint32_t sf = 0; sf < in_surfaces; ++sf)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (unsigned e = 0; e < lanes_of(a, p.in); ++e) {
          const uint64_t at = sf * in.surface + y * in.line + uint64_t{x} * a + e * bytes_of(p.in);
          const uint16_t v = wide_in ? wide_fp16(*wide_in) : values_.element(p.in);
          bytes[at] = static_cast<uint8_t>(v);
          if (p.in != Precision::Int8) bytes[at + 1] = static_cast<uint8_t>(v >> 8);
        }
  b_.load(in.port, in.base, std::move(bytes));
  // Output window pre-filled so that a byte the DUT writes wrongly shows.
  b_.load(out.port, out.base, data_.bytes(out.extent(out_surfaces, h, w, a)));

  program_cube(group, w, h, c, in);
  const bool rdma_count = shape_.chance(0.7);
  b_.write(rdma(R::D_PERF_ENABLE::offset), (rdma_count ? 2u : 0u) | static_cast<uint32_t>(shape_.below(2)));
  b_.write(rdma(R::D_FEATURE_MODE_CFG::offset), (static_cast<uint32_t>(p.in) << 2) | (static_cast<uint32_t>(p.proc) << 4) |
                                                    (static_cast<uint32_t>(p.out) << 6));

  program_destination(out);
  b_.write(sdp(S::D_DST_BATCH_STRIDE::offset), static_cast<uint32_t>(layout_.below(0x10000)));
  b_.write(sdp(S::D_DST_DMA_CFG::offset), out.ram_type());
  b_.write(sdp(S::D_DATA_FORMAT::offset), static_cast<uint32_t>(p.proc) | (static_cast<uint32_t>(p.out) << 2));
  const bool nan_to_zero = shape_.chance(0.4);
  b_.write(sdp(S::D_FEATURE_MODE_CFG::offset), (nan_to_zero ? 8u : 0u) | (req.to_pdp ? 2u : 0u));  // [1] OUTPUT_DST
  const uint32_t perf = static_cast<uint32_t>(shape_.below(16)) | (shape_.chance(0.8) ? 0x6u : 0u);
  b_.write(sdp(S::D_PERF_ENABLE::offset), perf);

  bool bs_alu = false, bs_mul = false, bn_alu = false, bn_mul = false;
  // pow2_rounding layer: BS and BN round, EW is off and the output converter the identity, so a
  // one-LSB difference of a rounding shifter reaches the output bytes.
  // One stage rounds, the other scales exactly (BS by 2^u before a rounding BN, BN by 1 after a
  // rounding BS).
  const bool pow2 = !fp && pow2_ != nullptr && pow2_->below(100) < pow2_percent_;
  const bool bn_rounds = pow2 && pow2_->chance(0.5);
  if (pow2) note += bn_rounds ? " pow2-rounding(bn)" : " pow2-rounding(bs)";
  const Pow2Role bs_role = !pow2 ? Pow2Role::None : bn_rounds ? Pow2Role::ScaleUp : Pow2Role::Round;
  const Pow2Role bn_role = !pow2 ? Pow2Role::None : bn_rounds ? Pow2Role::Round : Pow2Role::Exact;
  uint32_t upscale = 0;  // BS's exact scale-up, which BN's shift takes back
  const uint32_t bs = cfg_.sdp_bs ? x_stage(S::D_DP_BS_CFG::offset, fp, bs_role, upscale, bs_alu, bs_mul) : 1u;
  const uint32_t bn = cfg_.sdp_bn ? x_stage(S::D_DP_BN_CFG::offset, fp, bn_role, upscale, bn_alu, bn_mul) : 1u;
  note += fmt::format(" bs {:02x} bn {:02x}", bs, bn);
  note.reserve(note.size() + 64);
  std::string stream_note;
  stream(R::D_BRDMA_CFG::offset, R::D_BS_BASE_ADDR_LOW::offset, bs_alu, bs_mul, p.proc, w, h, c, stream_note);
  stream(R::D_NRDMA_CFG::offset, R::D_BN_BASE_ADDR_LOW::offset, bn_alu, bn_mul, p.proc, w, h, c, stream_note);

  // EW
  const bool ew_on = cfg_.sdp_ew && shape_.chance(0.6) && !pow2;
  const bool eql = ew_on && !req.to_pdp && shape_.chance(0.12);  // EQL sends nothing to PDP
  const bool ew_alu_bypass = !eql && shape_.chance(0.35), ew_mul_bypass = !eql && shape_.chance(0.4);
  const bool lut_on = ew_on && !eql && cfg_.sdp_lut && shape_.chance(0.6);
  const uint32_t algo = eql ? 3u : static_cast<uint32_t>(shape_.below(3));
  const uint32_t ew = (ew_on ? 0u : 1u) | ((ew_alu_bypass ? 1u : 0u) << 1) | (algo << 2) | ((ew_mul_bypass ? 1u : 0u) << 4) |
                      ((shape_.chance(0.3) ? 1u : 0u) << 5) | ((lut_on ? 0u : 1u) << 6);
  b_.write(sdp(S::D_DP_EW_CFG::offset), ew);
  const bool ew_alu_mem = shape_.chance(0.5), ew_mul_mem = shape_.chance(0.5);
  b_.write(sdp(S::D_DP_EW_ALU_CFG::offset), (ew_alu_mem ? 1u : 0u) | ((shape_.chance(0.5) ? 1u : 0u) << 1));
  b_.write(sdp(S::D_DP_EW_MUL_CFG::offset), (ew_mul_mem ? 1u : 0u) | ((shape_.chance(0.5) ? 1u : 0u) << 1));
  auto reg32 = [&]() { return fp ? fp32_moderate(-4, 4) : static_cast<uint32_t>(values_.int_value(shape_.chance(0.7) ? 12 : 32)); };
  const uint32_t ew_alu = reg32();
  const uint32_t ew_mul = fp ? fp32_moderate(-3, 3) : static_cast<uint32_t>(values_.int_value(12));
  b_.write(sdp(S::D_DP_EW_ALU_SRC_VALUE::offset), fp && corners_ && wide_->chance(0.5) ? corner32() : ew_alu);
  b_.write(sdp(S::D_DP_EW_MUL_SRC_VALUE::offset), fp && corners_ && wide_->chance(0.5) ? corner32() : ew_mul);
  for (uint32_t off : {S::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset, S::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset}) {
    b_.write(sdp(off), static_cast<uint32_t>(values_.int_value(shape_.chance(0.8) ? 10 : 32)));
    b_.write(sdp(off + 4), static_cast<uint16_t>(values_.int_value(shape_.chance(0.8) ? 6 : 16)));
    b_.write(sdp(off + 8), static_cast<uint32_t>(shape_.below(shape_.chance(0.8) ? 8 : 64)));
  }
  b_.write(sdp(S::D_DP_EW_TRUNCATE_VALUE::offset), static_cast<uint32_t>(shape_.below(shape_.chance(0.8) ? 16 : 1024)));
  stream(R::D_ERDMA_CFG::offset, R::D_EW_BASE_ADDR_LOW::offset, ew_on && !ew_alu_bypass && ew_alu_mem,
         ew_on && !ew_mul_bypass && ew_mul_mem, p.proc, w, h, c, stream_note);
  note += fmt::format(" ew {:02x}{}", ew, stream_note);
  if (lut_on) lut(fp, note);

  // Output converter: EQL mode needs the identity (sdp.md §10).
  const bool identity = eql || shape_.chance(0.2) || pow2;
  b_.write(sdp(S::D_CVT_OFFSET::offset), identity ? 0u : static_cast<uint32_t>(values_.int_value(shape_.chance(0.8) ? 8 : 32)));
  b_.write(sdp(S::D_CVT_SCALE::offset), identity ? 1u : static_cast<uint16_t>(values_.int_value(shape_.chance(0.7) ? 4 : 16)));
  b_.write(sdp(S::D_CVT_SHIFT::offset), identity ? 0u : static_cast<uint32_t>(shape_.below(shape_.chance(0.7) ? 12 : 64)));
  b_.note(note);

  if (req.to_pdp) return;
  arm_and_check(layer, group, uint64_t{w} * h * in_surfaces, uint64_t{w} * h * std::max(in_surfaces, out_surfaces) * a);
}

// A sticky-sweep layer (sdp_sticky_sweep.h): integer in, processing and out precision; BS and
// BN multiply by 2^k with ALU and ReLU bypassed, EW (where SDP has it) multiplies by 2^m, the
// converter by 2^c, and the rounding point shifts right by a + K + 1; no operand stream, no LUT.
// The probes cycle lane by lane over the positions, so every lane (the mutation models sample
// lane 0) sees each of them; at least as many positions as probes.
void LayerWriter::write_sticky_sweep(unsigned layer, unsigned group) {
  using P = SdpStickySweep::Point;
  const SdpStickySweep sw = draw_sdp_sticky_sweep(cfg_, *sticky_);
  const std::vector<int32_t> probes = sw.probes();
  const unsigned atom = cfg_.atom_bytes, lanes = lanes_of(atom, sw.precision), es = bytes_of(sw.precision);
  const uint32_t w = static_cast<uint32_t>(sticky_->uniform(2, 8));
  const uint32_t h = static_cast<uint32_t>((probes.size() + w - 1) / w + sticky_->below(3));
  const uint32_t c = static_cast<uint32_t>(sticky_->uniform(1, 2 * lanes));
  const uint32_t surfaces = (c + lanes - 1) / lanes;
  const Layout in = pick_layout(surfaces, h, w, atom, pick_port());
  const Layout out = pick_layout(surfaces, h, w, atom, pick_port());
  std::vector<uint8_t> bytes(in.extent(surfaces, h, w, atom));
  data_.fill(bytes.data(), bytes.size());  // pad lanes: anything
  uint64_t position = 0;
  for (uint32_t sf = 0; sf < surfaces; ++sf)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x, ++position)
        for (unsigned e = 0; e < lanes; ++e) {
          const uint16_t v = static_cast<uint16_t>(probes[(position + e) % probes.size()]);
          const uint64_t at = sf * in.surface + y * in.line + uint64_t{x} * atom + e * es;
          bytes[at] = static_cast<uint8_t>(v);
          if (es == 2) bytes[at + 1] = static_cast<uint8_t>(v >> 8);
        }
  b_.load(in.port, in.base, std::move(bytes));
  b_.load(out.port, out.base, data_.bytes(out.extent(surfaces, h, w, atom)));

  const uint32_t prec = static_cast<uint32_t>(sw.precision);
  program_cube(group, w, h, c, in);
  b_.write(rdma(R::D_PERF_ENABLE::offset), 0);
  b_.write(rdma(R::D_FEATURE_MODE_CFG::offset), (prec << 2) | (prec << 4) | (prec << 6));
  for (const auto& [cfg_off, base_off] : {std::pair{R::D_BRDMA_CFG::offset, R::D_BS_BASE_ADDR_LOW::offset},
                                          std::pair{R::D_NRDMA_CFG::offset, R::D_BN_BASE_ADDR_LOW::offset},
                                          std::pair{R::D_ERDMA_CFG::offset, R::D_EW_BASE_ADDR_LOW::offset}}) {
    b_.write(rdma(cfg_off), 1);  // disabled
    for (uint32_t o = 0; o < 0x14; o += 4) b_.write(rdma(base_off + o), 0);
  }
  program_destination(out);
  b_.write(sdp(S::D_DST_BATCH_STRIDE::offset), 0);
  b_.write(sdp(S::D_DST_DMA_CFG::offset), out.ram_type());
  b_.write(sdp(S::D_DATA_FORMAT::offset), prec | (prec << 2));
  b_.write(sdp(S::D_FEATURE_MODE_CFG::offset), 0);
  b_.write(sdp(S::D_PERF_ENABLE::offset), 0x4);  // saturation counted
  // BS / BN: ALU bypassed, MUL by 2^k from the register, ReLU bypassed; the point shifts
  auto x_stage = [&](uint32_t base, bool on, uint32_t k, uint32_t shift) {
    b_.write(sdp(base), on ? 0x42u : 0x53u);  // on: ALU and ReLU bypassed / off: bypassed
    b_.write(sdp(base + 4), 0);
    b_.write(sdp(base + 8), 0);
    b_.write(sdp(base + 0xc), shift << 8);
    b_.write(sdp(base + 0x10), uint32_t{1} << k);
  };
  if (cfg_.sdp_bs) x_stage(S::D_DP_BS_CFG::offset, true, sw.k_bs, sw.point == P::Bs ? sw.shift : 0);
  if (cfg_.sdp_bn) x_stage(S::D_DP_BN_CFG::offset, sw.point != P::Bs, sw.k_bn, sw.point == P::Bn ? sw.shift : 0);
  if (cfg_.sdp_ew) {
    const bool ew_on = sw.point == P::Ew || sw.point == P::Cvt;  // after the point: bypassed
    b_.write(sdp(S::D_DP_EW_CFG::offset), ew_on ? 0x42u : 0x53u);  // ALU and LUT bypassed, MUL from the register
    b_.write(sdp(S::D_DP_EW_ALU_CFG::offset), 2);
    b_.write(sdp(S::D_DP_EW_ALU_SRC_VALUE::offset), 0);
    b_.write(sdp(S::D_DP_EW_MUL_CFG::offset), 2);
    b_.write(sdp(S::D_DP_EW_MUL_SRC_VALUE::offset), uint32_t{1} << sw.m_ew);
    for (uint32_t off : {S::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset, S::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset}) {
      b_.write(sdp(off), 0);
      b_.write(sdp(off + 4), 1);
      b_.write(sdp(off + 8), 0);
    }
    b_.write(sdp(S::D_DP_EW_TRUNCATE_VALUE::offset), sw.point == P::Ew ? sw.shift : 0);
  }
  b_.write(sdp(S::D_CVT_OFFSET::offset), 0);
  b_.write(sdp(S::D_CVT_SCALE::offset), uint32_t{1} << sw.c_cvt);
  b_.write(sdp(S::D_CVT_SHIFT::offset), sw.point == P::Cvt ? sw.shift : 0);
  b_.note(fmt::format("layer {} group {}: {}x{}x{} {} {}", layer, group, w, h, c, precision_name(sw.precision), sw.describe()));
  arm_and_check(layer, group, uint64_t{w} * h * surfaces, uint64_t{w} * h * surfaces * atom);
}

void LayerWriter::program_cube(unsigned group, uint32_t w, uint32_t h, uint32_t c, const Layout& in) {
  b_.write(sdp(S::S_POINTER::offset), group);
  b_.write(rdma(R::S_POINTER::offset), group);
  for (uint32_t base : {rdma(R::D_DATA_CUBE_WIDTH::offset), sdp(S::D_DATA_CUBE_WIDTH::offset)}) {
    b_.write(base, w - 1);
    b_.write(base + 4, h - 1);
    b_.write(base + 8, c - 1);
  }
  b_.write(rdma(R::D_SRC_BASE_ADDR_LOW::offset), static_cast<uint32_t>(in.base));
  b_.write(rdma(R::D_SRC_BASE_ADDR_HIGH::offset), static_cast<uint32_t>(in.base >> 32));
  b_.write(rdma(R::D_SRC_LINE_STRIDE::offset), static_cast<uint32_t>(in.line));
  b_.write(rdma(R::D_SRC_SURFACE_STRIDE::offset), static_cast<uint32_t>(in.surface));
  b_.write(rdma(R::D_SRC_DMA_CFG::offset), in.ram_type());
}

void LayerWriter::program_destination(const Layout& out) {
  b_.write(sdp(S::D_DST_BASE_ADDR_LOW::offset), static_cast<uint32_t>(out.base));
  b_.write(sdp(S::D_DST_BASE_ADDR_HIGH::offset), static_cast<uint32_t>(out.base >> 32));
  b_.write(sdp(S::D_DST_LINE_STRIDE::offset), static_cast<uint32_t>(out.line));
  b_.write(sdp(S::D_DST_SURFACE_STRIDE::offset), static_cast<uint32_t>(out.surface));
}

void LayerWriter::arm_and_check(unsigned layer, unsigned group, uint64_t input_atoms, uint64_t elements) {
  // Enable in either order (the pair matches them up), then wait and read every counter.
  const bool sdp_first = shape_.chance(0.5);
  const uint32_t en_sdp = sdp(S::D_OP_ENABLE::offset), en_rdma = rdma(R::D_OP_ENABLE::offset);
  b_.write(sdp_first ? en_sdp : en_rdma, 1);
  if (armed_writes_) write_while_armed(sdp_first ? Unit::SDP : Unit::SDP_RDMA, group);
  b_.write(sdp_first ? en_rdma : en_sdp, 1);
  if (busy_reads_) busy_checks(layer, group, input_atoms);
  const uint32_t bit = 1u << group;
  const uint32_t glb = *cfg_.unit_base[static_cast<unsigned>(Unit::GLB)] + reg::GLB::S_INTR_STATUS::offset;
  b_.wait_intr(bit, 20000 + elements * 8);
  b_.read(glb, bit, bit, fmt::format("GLB SDP_DONE_STATUS{} after layer {}", group, layer));
  b_.write(glb, bit);
  for (uint32_t off : {S::D_STATUS::offset, S::D_STATUS_NAN_INPUT_NUM::offset, S::D_STATUS_INF_INPUT_NUM::offset,
                       S::D_STATUS_NAN_OUTPUT_NUM::offset, S::D_PERF_LUT_UFLOW::offset, S::D_PERF_LUT_OFLOW::offset,
                       S::D_PERF_OUT_SATURATION::offset, S::D_PERF_LUT_HYBRID::offset, S::D_PERF_LUT_LE_HIT::offset,
                       S::D_PERF_LUT_LO_HIT::offset, S::S_STATUS::offset, S::S_POINTER::offset})
    b_.read(sdp(off), 0xffffffffu, std::nullopt, fmt::format("SDP+0x{:03x} after layer {}", off, layer));
  for (uint32_t off : {R::D_STATUS_NAN_INPUT_NUM::offset, R::D_STATUS_INF_INPUT_NUM::offset, R::S_STATUS::offset,
                       R::S_POINTER::offset})
    b_.read(rdma(off), 0xffffffffu, std::nullopt, fmt::format("SDP_RDMA+0x{:03x} after layer {}", off, layer));
  b_.read(glb, 0xffffffffu, 0u, fmt::format("GLB.S_INTR_STATUS clear after layer {}", layer));
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const uint64_t layers = k.integer("layers", 1, 64);
  const uint32_t max_w = static_cast<uint32_t>(k.integer("max_width", 1, 8192));
  const uint32_t max_h = static_cast<uint32_t>(k.integer("max_height", 1, 8192));
  const uint32_t max_c = static_cast<uint32_t>(k.integer("max_channels", 1, 8192));
  const bool wide = k.integer("wide", 0, 1) != 0;
  const double special = static_cast<double>(k.integer("special_permille", 0, 1000)) / 1000.0;
  const bool high_addresses = k.choice("high_addresses", {"off", "on"}) == "on";
  const bool armed_writes = k.choice("armed_writes", {"off", "on"}) == "on";
  const bool busy_reads = k.choice("busy_reads", {"off", "on"}) == "on";
  const uint64_t pow2_percent = k.integer("pow2_rounding_percent", 0, 100);
  const std::string fp16_data = k.choice("fp16_data", {"usual", "wide", "corners"});
  const bool wide_fp16 = fp16_data != "usual";
  const uint64_t sram_percent = k.integer("sram_percent", 0, 100);
  const bool lut_readback = k.choice("lut_readback", {"off", "on"}) == "on";
  const uint64_t sticky_percent = k.integer("sticky_sweep_percent", 0, 100);
  if (lut_readback && !cfg.sdp_lut)
    throw std::invalid_argument("sdp.random: knob lut_readback=on needs SDP's LUT, which configuration '" + cfg.name +
                                "' does not have");
  if (sram_percent != 0 && !cfg.sram_if)
    throw std::invalid_argument("sdp.random: knob sram_percent needs the CV-SRAM port, which configuration '" + cfg.name +
                                "' does not have");
  if (wide_fp16 && !cfg.supports(Precision::Fp16))
    throw std::invalid_argument("sdp.random: knob fp16_data=" + fp16_data + " needs fp16, which configuration '" + cfg.name +
                                "' does not have");

  Program p;
  ProgramBuilder b(cfg, p);
  Rng armed = Rng::stream(seed, "sdp.armed");  // drawn only with armed_writes=on
  Rng shape = Rng::stream(seed, "sdp.shape");
  Rng data = Rng::stream(seed, "sdp.data");
  Rng layout = Rng::stream(seed, "sdp.layout");
  Rng pow2 = Rng::stream(seed, "sdp.pow2");  // drawn only with pow2_rounding_percent > 0
  Rng wide_values = Rng::stream(seed, "sdp.fp16_wide");  // drawn only with fp16_data=wide
  Rng sram = Rng::stream(seed, "sdp.sram");  // drawn only with sram_percent > 0
  Rng readback = Rng::stream(seed, "sdp.lut_readback");  // drawn only with lut_readback=on
  Rng sticky = Rng::stream(seed, "sdp.sticky_sweep");  // drawn only with sticky_sweep_percent > 0
  Allocator alloc(layout, cfg);
  if (high_addresses) {
    Rng high = Rng::stream(seed, "sdp.high");
    alloc.start_anywhere(cfg, high);
  }
  b.note(fmt::format("knobs: layers={} max_width={} max_height={} max_channels={} wide={} special_permille={}", layers, max_w,
                     max_h, max_c, wide, static_cast<unsigned>(special * 1000)) +
         (high_addresses ? " high_addresses=on" : "") + (armed_writes ? " armed_writes=on" : "") +
         (busy_reads ? " busy_reads=on" : "") +
         (pow2_percent != 0 ? fmt::format(" pow2_rounding_percent={}", pow2_percent) : std::string()) +
         (wide_fp16 ? " fp16_data=" + fp16_data : std::string()) +
         (sram_percent != 0 ? fmt::format(" sram_percent={}", sram_percent) : std::string()) +
         (lut_readback ? " lut_readback=on" : "") +
         (sticky_percent != 0 ? fmt::format(" sticky_sweep_percent={}", sticky_percent) : std::string()));
  LayerWriter writer(cfg, b, shape, data, layout, alloc, special, armed_writes ? &armed : nullptr);
  writer.set_busy_reads(busy_reads);
  writer.set_pow2_rounding(&pow2, pow2_percent);
  if (wide_fp16) writer.set_wide_fp16(&wide_values);
  writer.set_fp16_corners(fp16_data == "corners");
  if (sram_percent != 0) writer.set_sram(&sram, sram_percent);
  if (lut_readback) writer.set_lut_readback(&readback);
  if (sticky_percent != 0) writer.set_sticky_sweep(&sticky, sticky_percent);
  for (unsigned i = 0; i < layers; ++i) writer.write(i, i % 2, max_w, max_h, max_c, wide);
  return p;
}

}  // namespace

struct SdpRandomLayers::Impl {
  Impl(const HwConfig& cfg, ProgramBuilder& b, Rng& shape, Rng& data, Rng& layout, double special)
      : alloc(layout, cfg), writer(cfg, b, shape, data, layout, alloc, special) {}
  Allocator alloc;
  LayerWriter writer;
};

SdpRandomLayers::SdpRandomLayers(const HwConfig& cfg, ProgramBuilder& b, Rng& shape, Rng& data, Rng& layout,
                                 double special)
    : impl_(std::make_unique<Impl>(cfg, b, shape, data, layout, special)) {}
SdpRandomLayers::~SdpRandomLayers() = default;

void SdpRandomLayers::write_to_pdp(unsigned layer, unsigned group, const SdpLayerRequest& req) {
  SdpLayerRequest r = req;
  r.to_pdp = true;
  impl_->writer.write(layer, group, req.width, req.height, req.channels, false, r);
}

uint64_t SdpRandomLayers::take(uint64_t bytes) { return impl_->alloc.take(bytes); }

TestGenerator make_sdp_random_generator() {
  TestGenerator g;
  g.name = "sdp.random";
  g.description = "random legal SDP layers (precisions, BS/BN/EW, operand streams, LUT cases, converters) on both groups";
  g.knobs = {{"layers", "2", "layers, alternating register groups"},
             {"max_width", "6", "largest cube width"},
             {"max_height", "4", "largest cube height"},
             {"max_channels", "40", "largest channel count"},
             {"wide", "0", "1: half the layers are 8192 wide (one line, one atom of channels)"},
             {"special_permille", "80", "per-mille density of special values (NaN, Inf, subnormal, +-0, extremes)"},
             {"high_addresses", "off", "on: the regions (input, operands, output) start anywhere in the DBB address space"},
             {"armed_writes", "off",
              "on: after arming the first unit of a layer, write every configuration register of its group and "
              "D_OP_ENABLE = 0, and read them back (an armed group drops writes)"},
             {"busy_reads", "off",
              "on: right after a layer's arms read its counters (0 while it runs: cleared at the arm) and, for inputs "
              "of 256 atoms or more, both units' S_STATUS group field (not idle) and stall counters (0)"},
             {"pow2_rounding_percent", "0",
              "per-cent of integer layers whose BS and BN multiply by +-2^k and shift right by k + 0..9 (exact ties, "
              "single bits under the rounding point: each term of the sticky OR) with EW off and an identity output "
              "converter, so the rounding reaches the output"},
             {"fp16_data", "usual",
              "usual | wide | corners (configurations with fp16): every layer has fp16 input; wide: its elements and "
              "memory operands span the whole format (NaN/Inf at a per-layer rate, adder partners, subnormals with "
              "every leading-zero count); corners: as wide, with three in four elements and memory operands and half "
              "the register operands corners of fp16/fp32 (+-0, +-Inf, NaN, largest, smallest normal and subnormal, "
              "+-1), so elements and operands meet as pairs of corners"},
             {"sram_percent", "0",
              "per-cent of regions (input, output, each memory operand stream) placed in the CV-SRAM instead of the "
              "DBB (configurations with the SRAM port)"},
             {"sticky_sweep_percent", "0",
              "per-cent of layers that are sticky sweeps: an integer layer whose elements put every single set bit "
              "below the guard bit of one rounding shift (BS or BN MUL shift, EW truncate, output converter shift; "
              "exact power-of-two scales before it, identity after)"},
             {"lut_readback", "off",
              "on: every LUT load also writes 0..100 entries past each table's end (ignored) and reads both whole "
              "tables back, one entry past each end included (configurations with the LUT)"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  g.unsupported_reason = [](const HwConfig& cfg) -> std::string {
    if (!cfg.has_unit(Unit::SDP) || !cfg.has_unit(Unit::SDP_RDMA)) return "the configuration has no SDP";
    return "";
  };
  return g;
}

}  // namespace dla::stimulus
