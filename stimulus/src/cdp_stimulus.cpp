#include "cdp_stimulus.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <tuple>

#include "dla/regs.gen.h"

namespace dla::stimulus {

namespace {

namespace C = reg::CDP;
namespace RD = reg::CDP_RDMA;

uint32_t unit_base(const HwConfig& cfg, Unit u) { return *cfg.unit_base[static_cast<unsigned>(u)]; }

uint32_t fp32_bits(double v) {
  const float f = static_cast<float>(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

uint64_t reg38(int64_t v) { return static_cast<uint64_t>(v) & ((uint64_t{1} << 38) - 1); }

// An fp16 pattern with exponent field in [lo, hi] and a random sign.
uint16_t fp16_moderate(Rng& r, unsigned lo, unsigned hi) {
  const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
  return static_cast<uint16_t>(sign | (r.uniform(lo, hi) << 10) | r.below(0x400));
}

uint16_t fp16_special(Rng& r) {
  const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
  switch (r.below(6)) {
    case 0: return static_cast<uint16_t>(sign | 0x7c00 | r.uniform(1, 0x3ff));  // NaN
    case 1: return static_cast<uint16_t>(sign | 0x7c00);                        // +-Inf
    case 2: return static_cast<uint16_t>(sign | r.uniform(1, 0x3ff));           // subnormal
    case 3: return sign;                                                        // +-0
    case 4: return static_cast<uint16_t>(sign | 0x7bff);                        // +-max
    default: return static_cast<uint16_t>(sign | (r.uniform(24, 30) << 10) | r.below(0x400));  // huge
  }
}

int64_t int_extreme(Rng& r, unsigned bits) {
  const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
  return r.choice(std::vector<int64_t>{lo, hi, 0, -1, 1, lo + 1, hi - 1});
}

// log2 of the typical magnitude of the LUT input for the layer.
int lut_input_log2(const CdpLayerSpec& l, Rng& r) {
  switch (l.precision) {
    case Precision::Int8: return l.sqsum_bypass ? static_cast<int>(r.uniform(4, 8)) : static_cast<int>(r.uniform(8, 19));
    case Precision::Int16: return l.sqsum_bypass ? static_cast<int>(r.uniform(6, 16)) : static_cast<int>(r.uniform(12, 35));
    default: return l.sqsum_bypass ? static_cast<int>(r.uniform_signed(-3, 4)) : static_cast<int>(r.uniform_signed(-2, 10));
  }
}

uint16_t lut_entry(const CdpLayerSpec& l, Rng& r, unsigned style, unsigned i, unsigned n) {
  if (l.precision == Precision::Fp16) {
    if (r.chance(0.01)) return fp16_special(r);
    return fp16_moderate(r, 9, 17);
  }
  switch (style) {
    case 0: {  // LRN-like falling curve in Q15 with a little noise
      const double x = static_cast<double>(i) / n;
      return static_cast<uint16_t>(static_cast<int>(32767.0 * std::pow(1.0 + 8.0 * x, -0.75)) - static_cast<int>(r.below(8)));
    }
    case 1: return static_cast<uint16_t>(r.chance(0.05) ? int_extreme(r, 16) : r.uniform_signed(-32768, 32767));
    default: return static_cast<uint16_t>(static_cast<int>(i * 200) - 20000 + static_cast<int>(r.below(50)));
  }
}

}  // namespace

const char* cdp_lut_case_name(CdpLutCase c) {
  static const char* kNames[] = {"overlap LE<LO", "overlap LO<LE", "disjoint LE<LO", "disjoint LO<LE",
                                 "LO inside LE",  "LE inside LO",  "LRN (exp LE, dense LO)", "activation (dense LE in LO)"};
  return kNames[static_cast<unsigned>(c)];
}

CdpLutProgram random_cdp_lut(const CdpLayerSpec& l, Rng& r, CdpLutCase kase) {
  CdpLutProgram p;
  p.kase = kase;
  const bool fp = l.precision == Precision::Fp16;
  const int big = lut_input_log2(l, r);
  const bool le_linear = kase == CdpLutCase::Activation ? true : kase == CdpLutCase::Lrn ? false : r.chance(0.5);
  int span_le = big - static_cast<int>(r.uniform(0, 2)), span_lo = big - static_cast<int>(r.uniform(0, 2));
  if (kase == CdpLutCase::LoInsideLe || kase == CdpLutCase::Lrn) span_lo = span_le - static_cast<int>(r.uniform(2, 4));
  if (kase == CdpLutCase::LeInsideLo || kase == CdpLutCase::Activation) span_le = span_lo - static_cast<int>(r.uniform(2, 4));
  const double w_le = std::ldexp(1.0, span_le), w_lo = std::ldexp(1.0, span_lo);
  const double low = l.sqsum_bypass ? -std::ldexp(1.0, big) : 0.0;
  double s_le = low + std::ldexp(1.0, big - 3) * (r.unit() - 0.5), s_lo = s_le;
  switch (kase) {
    case CdpLutCase::OverlapLeLo: s_lo = s_le + w_le / 2; break;
    case CdpLutCase::OverlapLoLe: s_le = s_lo + w_lo / 2; break;
    case CdpLutCase::DisjointLeLo: s_lo = s_le + w_le + w_le / 4; break;
    case CdpLutCase::DisjointLoLe: s_le = s_lo + w_lo + w_lo / 4; break;
    case CdpLutCase::LoInsideLe: s_lo = s_le + w_le / 4; break;
    case CdpLutCase::LeInsideLo: case CdpLutCase::Activation: s_le = s_lo + w_lo / 4; break;
    case CdpLutCase::Lrn: s_le = s_lo = l.sqsum_bypass ? low : 0.0; break;
  }
  // Exponent LE: 64 octaves ending at the span, or (integer modes) a non-negative offset
  // whose first entry lies above START, so small positive distances underflow.
  int offset = span_le - 64;
  if (!le_linear && !fp && r.chance(0.3)) offset = static_cast<int>(r.uniform(0, static_cast<uint64_t>(std::max(0, span_le - 3))));
  if (le_linear) offset = static_cast<int>(r.uniform_signed(-128, 127));  // unused: random
  const int sel_le = span_le - 6, sel_lo = span_lo - 8;
  const uint32_t le_select = le_linear ? static_cast<uint32_t>(sel_le) : static_cast<uint32_t>(r.below(256));
  const uint32_t priorities = static_cast<uint32_t>(r.below(8));
  p.cfg = (le_linear ? 1u : 0u) | (priorities << 4);
  p.info = (static_cast<uint32_t>(offset) & 0xffu) | ((le_select & 0xffu) << 8) | ((static_cast<uint32_t>(sel_lo) & 0xffu) << 16);

  const double le_end = le_linear ? s_le + 64 * std::ldexp(1.0, sel_le) : s_le + std::ldexp(1.0, std::min(70, 64 + offset));
  const double lo_end = s_lo + 256 * std::ldexp(1.0, sel_lo);
  auto jitter_end = [&](double end, double w) { return r.chance(0.2) ? end + w * (r.unit() - 0.5) : end; };
  auto value = [&](double v) -> uint64_t {
    if (fp) return fp32_bits(v);
    const double lim = std::ldexp(1.0, 37) - 1;
    return reg38(static_cast<int64_t>(std::floor(std::clamp(v, -lim, lim))));
  };
  p.le_start = value(s_le);
  p.lo_start = value(s_lo);
  p.le_end = value(jitter_end(le_end, w_le));
  p.lo_end = value(jitter_end(lo_end, w_lo));

  auto slope = [&]() -> uint32_t {
    if (fp) return r.chance(0.1) ? 0u : fp16_moderate(r, 9, 16);
    return static_cast<uint16_t>(r.chance(0.7) ? r.uniform_signed(-300, 300) : r.uniform_signed(-32768, 32767));
  };
  auto shift = [&]() { return static_cast<uint32_t>(r.chance(0.8) ? r.uniform_signed(-3, 15) : r.uniform_signed(-16, 15)) & 0x1fu; };
  p.le_slope_scale = slope() | (slope() << 16);
  p.le_slope_shift = shift() | (shift() << 5);
  p.lo_slope_scale = slope() | (slope() << 16);
  p.lo_slope_shift = shift() | (shift() << 5);

  const unsigned style = static_cast<unsigned>(r.below(3));
  p.le.resize(65);
  p.lo.resize(257);
  for (unsigned i = 0; i < 65; ++i) p.le[i] = lut_entry(l, r, style, i, 64);
  for (unsigned i = 0; i < 257; ++i) p.lo[i] = lut_entry(l, r, style, i, 256);
  return p;
}

CdpLayerSpec random_cdp_layer(const HwConfig& cfg, Rng& r, const CdpShapeLimits& lim) {
  CdpLayerSpec l;
  std::vector<Precision> precisions = lim.precisions;
  if (precisions.empty())
    for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16})
      if (cfg.supports(p)) precisions.push_back(p);
  l.precision = r.choice(precisions);
  const uint32_t lanes = cfg.atom_bytes / l.element_bytes();
  const uint32_t max_c = lim.max_surfaces * lanes;
  l.width = static_cast<uint32_t>(r.uniform(1, lim.max_width));
  l.height = static_cast<uint32_t>(r.uniform(1, lim.max_height));
  const double shape = r.unit();
  if (shape < 0.1) {
    l.width = l.height = l.channels = 1;
  } else if (shape < 0.35) {
    l.channels = static_cast<uint32_t>(r.uniform(1, lanes - 1));  // less than one atom
  } else if (shape < 0.65 && lim.max_surfaces > 1) {
    l.channels = static_cast<uint32_t>(r.uniform(lanes + 1, max_c));  // many surfaces
  } else {
    l.channels = static_cast<uint32_t>(r.uniform(1, max_c));
  }
  l.normalz_len = static_cast<uint32_t>(r.below(4));
  const double bypass = r.unit();
  l.sqsum_bypass = bypass >= 0.5 && bypass < 0.7;
  l.mul_bypass = bypass >= 0.7 && bypass < 0.85;
  if (bypass >= 0.85) l.sqsum_bypass = l.mul_bypass = true;
  l.nan_to_zero = r.chance(0.4);

  const bool fp = l.precision == Precision::Fp16, int8 = l.precision == Precision::Int8;
  if (fp) {  // converters are ignored in fp16: random contents
    l.datin_offset = static_cast<uint32_t>(r.below(0x10000));
    l.datin_scale = static_cast<uint32_t>(r.below(0x10000));
    l.datin_shifter = static_cast<uint32_t>(r.below(32));
    l.datout_offset = static_cast<uint32_t>(r.next_u64());
    l.datout_scale = static_cast<uint32_t>(r.below(0x10000));
    l.datout_shifter = static_cast<uint32_t>(r.below(64));
  } else {
    const unsigned bits = int8 ? 8 : 16;
    if (r.chance(0.6)) {
      const int64_t off = r.chance(0.15) ? int_extreme(r, bits) : r.uniform_signed(-100, 100);
      // int8 uses DATIN_OFFSET[7:0] only: the upper byte carries junk.
      l.datin_offset = static_cast<uint32_t>(off) & (int8 ? 0xffu : 0xffffu);
      if (int8) l.datin_offset |= static_cast<uint32_t>(r.below(256)) << 8;
    }
    if (r.chance(0.6)) {
      const int64_t s = r.chance(0.15) ? r.uniform_signed(-32768, 32767) : r.uniform_signed(-8, 8);
      l.datin_scale = static_cast<uint16_t>(s);
    }
    l.datin_shifter = static_cast<uint32_t>(r.chance(0.5) ? 0 : r.chance(0.8) ? r.uniform(0, 4) : r.uniform(0, 31));
    // Output: aim the LUT result (Q15-ish) times x' at the output width, sometimes not.
    const int in_bits = int8 ? 9 : 17, out_bits = int8 ? 8 : 16;
    const int m_bits = 16 + (l.mul_bypass ? 0 : in_bits - 1);
    int scale_bits = 0;
    if (r.chance(0.5)) {
      const int64_t s = r.chance(0.15) ? r.uniform_signed(-32768, 32767) : r.uniform_signed(-6, 6);
      l.datout_scale = static_cast<uint16_t>(s);
      scale_bits = s == 0 ? 0 : static_cast<int>(std::log2(std::abs(static_cast<double>(s))));
    }
    const int aim = m_bits + scale_bits - out_bits + static_cast<int>(r.uniform_signed(-3, 2));
    l.datout_shifter = static_cast<uint32_t>(r.chance(0.1) ? r.uniform(0, 63) : static_cast<uint64_t>(std::clamp(aim, 0, 63)));
    if (r.chance(0.5)) {
      const int64_t span = int64_t{1} << std::min(30, static_cast<int>(l.datout_shifter) + 2);
      const int64_t off = r.uniform_signed(-span, span);
      // int8 uses DATOUT_OFFSET[24:0]: bits above carry junk sometimes.
      l.datout_offset = static_cast<uint32_t>(off);
      if (int8) l.datout_offset = (l.datout_offset & 0x1ffffffu) | (r.chance(0.3) ? static_cast<uint32_t>(r.below(128)) << 25 : (l.datout_offset & 0xfe000000u));
    }
  }
  const CdpLutCase kase = static_cast<CdpLutCase>(r.below(8));
  l.lut = random_cdp_lut(l, r, kase);
  return l;
}

uint64_t cdp_extent(const CdpLayerSpec& l, const HwConfig& cfg, bool output) {
  const uint32_t lanes = cfg.atom_bytes / l.element_bytes(), surfaces = (l.channels + lanes - 1) / lanes;
  const uint64_t line = output ? l.dst_line : l.src_line, surface = output ? l.dst_surface : l.src_surface;
  return (surfaces - 1) * surface + (l.height - 1) * line + uint64_t{l.width} * cfg.atom_bytes;
}

void place_cdp_layer(CdpLayerSpec& l, const HwConfig& cfg, Rng& r, uint64_t& next) {
  const unsigned a = cfg.atom_bytes;
  auto strides = [&](uint64_t& line, uint64_t& surface) {
    const bool packed = r.chance(0.4);
    line = uint64_t{l.width} * a + (packed ? 0 : r.uniform(1, 3) * a);
    surface = uint64_t{l.height} * line + (packed ? 0 : r.uniform(1, 3) * a);
  };
  strides(l.src_line, l.src_surface);
  strides(l.dst_line, l.dst_surface);
  next += r.uniform(0, 4) * a;
  l.src = next;
  next = (next + cdp_extent(l, cfg, false) + r.uniform(0, 4) * a + a - 1) / a * a;
  l.dst = next;
  next = (next + cdp_extent(l, cfg, true) + a - 1) / a * a;
}

std::vector<uint8_t> random_cdp_input(const CdpLayerSpec& l, const HwConfig& cfg, Rng& r, double special) {
  std::vector<uint8_t> bytes = r.bytes(cdp_extent(l, cfg, false));
  const unsigned a = cfg.atom_bytes, bpe = l.element_bytes(), lanes = a / bpe;
  const uint32_t surfaces = (l.channels + lanes - 1) / lanes;
  // Per layer a typical magnitude, so that square sums spread over the LUT's range.
  const unsigned mag = static_cast<unsigned>(r.uniform(1, bpe == 1 ? 8 : 16));
  for (uint32_t s = 0; s < surfaces; ++s)
    for (uint32_t h = 0; h < l.height; ++h)
      for (uint32_t w = 0; w < l.width; ++w)
        for (unsigned e = 0; e < lanes; ++e) {
          const uint64_t at = s * l.src_surface + h * l.src_line + uint64_t{w} * a + e * bpe;
          uint16_t v = 0;
          if (l.precision == Precision::Fp16) {
            v = r.chance(special) ? fp16_special(r) : fp16_moderate(r, 11, 19);
          } else if (r.chance(special)) {
            v = static_cast<uint16_t>(int_extreme(r, bpe * 8));
          } else {
            const int64_t m = int64_t{1} << (mag - 1);
            v = static_cast<uint16_t>(r.uniform_signed(-m, m - 1));
          }
          bytes[at] = static_cast<uint8_t>(v);
          if (bpe == 2) bytes[at + 1] = static_cast<uint8_t>(v >> 8);
        }
  return bytes;
}

void make_cdp_tiny_lut(CdpLayerSpec& l, Rng& r) {
  if (l.precision != Precision::Fp16) return;
  auto tiny = [&r]() -> uint16_t {
    const uint16_t sign = r.chance(0.25) ? 0x8000 : 0;
    const uint64_t kind = r.below(10);
    if (kind < 5) return sign;                                                            // +-0
    if (kind < 8) return static_cast<uint16_t>(sign | r.uniform(1, 0x3ff));               // subnormal
    return static_cast<uint16_t>(sign | (r.uniform(1, 2) << 10) | r.below(0x400));        // smallest normals
  };
  for (uint16_t& e : l.lut.le) e = tiny();
  for (uint16_t& e : l.lut.lo) e = tiny();
  if (r.chance(0.75)) l.mul_bypass = false;
}

void add_cdp_special_runs(std::vector<uint8_t>& bytes, const CdpLayerSpec& l, const HwConfig& cfg, Rng& r) {
  if (l.precision != Precision::Fp16) return;
  const unsigned a = cfg.atom_bytes, lanes = a / 2;
  auto special = [&r]() -> uint16_t {
    const uint16_t sign = r.chance(0.5) ? 0x8000 : 0;
    switch (r.below(6)) {
      case 0: case 1: return static_cast<uint16_t>(sign | 0x7c00 | (1u << r.below(10)));  // NaN, one payload bit
      case 2: return static_cast<uint16_t>(sign | 0x7c00 | r.uniform(1, 0x3ff));          // NaN
      case 3: return static_cast<uint16_t>(sign | 0x7c00);                                 // +-Inf
      case 4: return sign;                                                                 // +-0
      default: return static_cast<uint16_t>(sign | 0x7bff);                                // +-max
    }
  };
  for (uint32_t h = 0; h < l.height; ++h)
    for (uint32_t w = 0; w < l.width; ++w) {
      if (!r.chance(0.25)) continue;
      const uint32_t run = static_cast<uint32_t>(r.uniform(2, 9));
      const uint32_t first = static_cast<uint32_t>(r.below(l.channels));
      for (uint32_t c = first; c < std::min(l.channels, first + run); ++c) {
        const uint64_t at = (c / lanes) * l.src_surface + h * l.src_line + uint64_t{w} * a + (c % lanes) * 2;
        const uint16_t v = special();
        bytes[at] = static_cast<uint8_t>(v);
        bytes[at + 1] = static_cast<uint8_t>(v >> 8);
      }
    }
}

void make_cdp_sat_edge(CdpLayerSpec& l, Rng& r) {
  if (l.precision == Precision::Fp16) return;
  const bool int8 = l.precision == Precision::Int8;
  const int64_t max = int8 ? 127 : 32767, min = -max - 1;
  const auto e = static_cast<int16_t>(r.uniform_signed(-32768, 32767));
  // Half the layers: both tables flat and no under/overflow slope, so every element's LUT
  // result is E; otherwise flat tables or runs of E, slopes as drawn.
  const bool all_e = r.chance(0.5);
  if (all_e) l.lut.le_slope_scale = l.lut.lo_slope_scale = 0;
  for (std::vector<uint16_t>* table : {&l.lut.le, &l.lut.lo}) {
    if (all_e || r.chance(0.5)) {
      std::fill(table->begin(), table->end(), static_cast<uint16_t>(e));
      continue;
    }
    for (uint64_t n = r.uniform(1, 4); n != 0; --n) {
      const size_t len = static_cast<size_t>(r.uniform(2, 16));
      const size_t first = static_cast<size_t>(r.below(table->size() - 1));  // two entries at least
      std::fill(table->begin() + static_cast<std::ptrdiff_t>(first),
                table->begin() + static_cast<std::ptrdiff_t>(std::min(table->size(), first + len)), static_cast<uint16_t>(e));
    }
  }
  l.mul_bypass = true;
  const int k = static_cast<int>(r.uniform(0, 14));
  l.datout_scale = uint32_t{1} << k;
  l.datout_shifter = static_cast<uint32_t>(k);
  // Half the layers one step beyond (the quirk), a quarter each on the edge and two beyond.
  static constexpr std::array<int64_t, 4> kBeyond = {1, 1, 0, 2};
  const int64_t beyond = kBeyond[r.below(kBeyond.size())];
  const int64_t target = r.chance(0.5) ? max + beyond : min - beyond;
  const int64_t offset = int64_t{e} - target;
  l.datout_offset = static_cast<uint32_t>(offset);
  // int8 reads DATOUT_OFFSET[24:0]: junk above, as random layers have.
  if (int8) l.datout_offset = (l.datout_offset & 0x1ffffffu) | static_cast<uint32_t>(r.below(128)) << 25;
}

void make_cdp_exact_lut(CdpLayerSpec& l, Rng& r) {
  if (l.precision == Precision::Fp16) return;
  const bool int8 = l.precision == Precision::Int8;
  const int64_t entry_max = int8 ? 100 : 20000;
  for (std::vector<uint16_t>* table : {&l.lut.le, &l.lut.lo})
    for (uint16_t& e : *table) e = static_cast<uint16_t>(r.uniform_signed(-entry_max, entry_max));
  // A slope's shift from the table's span (a typical under/overflow distance): scale * span / 2^shift ~ 64.
  const auto signed38 = [](uint64_t v) { return static_cast<int64_t>(v << 26) >> 26; };
  const auto slope_pair = [&](int64_t span) {
    uint32_t scales = 0, shifts = 0;
    for (unsigned half = 0; half < 2; ++half) {
      const int64_t k = static_cast<int64_t>(r.uniform(1, 300));
      const double bits = std::log2(static_cast<double>(std::max<int64_t>(1, span)) * static_cast<double>(k) / 64.0);
      const int shift = std::clamp(static_cast<int>(std::ceil(bits)) + static_cast<int>(r.uniform_signed(-1, 1)), 1, 15);
      scales |= static_cast<uint32_t>(static_cast<uint16_t>(r.chance(0.5) ? -k : k)) << (16 * half);
      shifts |= static_cast<uint32_t>(shift) << (5 * half);
    }
    return std::pair{scales, shifts};
  };
  std::tie(l.lut.le_slope_scale, l.lut.le_slope_shift) =
      slope_pair(signed38(l.lut.le_end) - signed38(l.lut.le_start));
  std::tie(l.lut.lo_slope_scale, l.lut.lo_slope_shift) =
      slope_pair(signed38(l.lut.lo_end) - signed38(l.lut.lo_start));
  l.mul_bypass = true;
  l.datout_offset = 0;
  l.datout_scale = 1;
  l.datout_shifter = 0;
  if (r.chance(0.5)) {
    // The scaled value's lowest set bit is k + (trailing zeros of x - offset): with a shift of
    // k + 1 every odd x - offset is an exact tie; with k + j, j = 2..9, the bits of x - offset
    // under bit j - 1 decide the sticky OR, and one in 2^j elements has a single one there: over
    // the layers every bit position of the shifter (0..23) is once the whole sticky OR.
    const int k = static_cast<int>(r.uniform(0, 15));
    const int j = r.chance(0.5) ? 1 : r.chance(0.6) ? static_cast<int>(r.uniform(2, 3)) : static_cast<int>(r.uniform(4, 9));
    const int32_t m = int32_t{1} << k;
    l.datin_scale = static_cast<uint16_t>(k == 15 || r.chance(0.5) ? -m : m);  // +2^15 does not fit
    l.datin_shifter = static_cast<uint32_t>(k + j);
  }
}

const char* cdp_lut_class_name(CdpLutClass c) {
  static constexpr std::array<const char*, 6> kNames = {"le_hit", "lo_hit", "hybrid", "uflow", "oflow", "split"};
  return kNames[static_cast<size_t>(c)];
}

void make_cdp_lut_class(CdpLayerSpec& l, CdpLutClass c, Rng& r) {
  if (l.precision == Precision::Fp16) return;
  // Every LUT input lies in [-2^b, 2^b); "above" starts at 2^b, "below" ends at -2^(b+1) + 2^(b-1).
  const int b = l.precision == Precision::Int8 ? 20 : 36;
  enum class Place { Cover, Above, Below, UpTo };
  // The table that must not be hit alone: wholly outside, or (3 times in 4) up to a threshold
  // t (0 or +-2^m), so the values below t hit both tables: the counter's increments then vary from one
  // update to the next.
  const auto other = [&] { return r.chance(0.75) ? Place::UpTo : r.chance(0.5) ? Place::Above : Place::Below; };
  const auto outside = [&] { return r.chance(0.5) ? Place::Above : Place::Below; };
  Place le = Place::Cover, lo = Place::Cover;
  switch (c) {
    case CdpLutClass::LeHit: lo = other(); break;
    case CdpLutClass::LoHit: le = other(); break;
    case CdpLutClass::Hybrid: break;
    case CdpLutClass::Underflow: le = lo = Place::Above; break;
    case CdpLutClass::Overflow: le = lo = Place::Below; break;
    case CdpLutClass::Split: le = outside(); lo = le == Place::Above ? Place::Below : Place::Above; break;
  }
  // A table of 2^index_bits entries over [start, start + 2^span): select = span - index bits.
  const auto place = [&](Place where, int index_bits, uint64_t& start, uint64_t& end) {
    int span = b - 1;
    int64_t first = 0;
    switch (where) {
      case Place::Cover: span = b + 1; first = -(int64_t{1} << b); break;
      case Place::Above: first = int64_t{1} << b; break;
      case Place::Below: first = -(int64_t{1} << (b + 1)); break;
      case Place::UpTo: {  // [t - 2^b, t): t - 2^b <= -2^(b-1) lies below every value
        span = b;
        // SQSUM bypassed: the converted input, signed and mostly small; else a square sum.
        const uint64_t m_max = l.sqsum_bypass ? 4 : static_cast<uint64_t>(b - 2);
        const int64_t t = l.sqsum_bypass && r.chance(0.5) ? 0 : int64_t{1} << r.uniform(0, m_max);
        first = (l.sqsum_bypass && r.chance(0.5) ? -t : t) - (int64_t{1} << b);
        break;
      }
    }
    start = reg38(first);
    end = reg38(first + (int64_t{1} << span));
    return static_cast<uint32_t>(span - index_bits) & 0xffu;
  };
  const uint32_t sel_le = place(le, 6, l.lut.le_start, l.lut.le_end);
  const uint32_t sel_lo = place(lo, 8, l.lut.lo_start, l.lut.lo_end);
  l.lut.cfg |= 1u;  // linear LE
  l.lut.info = (l.lut.info & 0xffu) | sel_le << 8 | sel_lo << 16;
}

void program_cdp_lut(ProgramBuilder& b, const HwConfig& cfg, const CdpLutProgram& p, Rng& flow,
                     CdpLutReadback readback, Rng* scramble) {
  const uint32_t cdp = unit_base(cfg, Unit::CDP);
  b.write(cdp + C::S_LUT_CFG::offset, p.cfg);
  b.write(cdp + C::S_LUT_INFO::offset, p.info);
  const std::pair<uint32_t, uint64_t> wide[] = {{C::S_LUT_LE_START_LOW::offset, p.le_start},
                                                {C::S_LUT_LE_END_LOW::offset, p.le_end},
                                                {C::S_LUT_LO_START_LOW::offset, p.lo_start},
                                                {C::S_LUT_LO_END_LOW::offset, p.lo_end}};
  for (const auto& [off, v] : wide) {
    b.write(cdp + off, static_cast<uint32_t>(v));
    b.write(cdp + off + 4, static_cast<uint32_t>(v >> 32) & 0x3fu);
  }
  b.write(cdp + C::S_LUT_LE_SLOPE_SCALE::offset, p.le_slope_scale);
  b.write(cdp + C::S_LUT_LE_SLOPE_SHIFT::offset, p.le_slope_shift);
  b.write(cdp + C::S_LUT_LO_SLOPE_SCALE::offset, p.lo_slope_scale);
  b.write(cdp + C::S_LUT_LO_SLOPE_SHIFT::offset, p.lo_slope_shift);
  const unsigned first = scramble && scramble->chance(0.5) ? 1u : 0u;  // LO first sometimes
  for (unsigned table : {first, first ^ 1u}) {
    b.write(cdp + C::S_LUT_ACCESS_CFG::offset, (table << 16) | (1u << 17));
    for (uint16_t v : table ? p.lo : p.le) b.write(cdp + C::S_LUT_ACCESS_DATA::offset, v);
  }
  if (scramble && scramble->chance(0.5)) {  // writes at an address past the table store nothing
    const unsigned table = static_cast<unsigned>(scramble->below(2));
    const uint32_t addr = static_cast<uint32_t>(scramble->uniform(table ? 257 : 65, 0x3ff));
    b.write(cdp + C::S_LUT_ACCESS_CFG::offset, (table << 16) | (1u << 17) | addr);
    for (uint64_t i = scramble->uniform(1, 3); i > 0; --i)
      b.write(cdp + C::S_LUT_ACCESS_DATA::offset, static_cast<uint32_t>(scramble->below(0x10000)));
  }
  const auto gap = [&]() {
    if (scramble && scramble->chance(0.3)) b.idle(static_cast<uint32_t>(scramble->uniform(1, 3)));
  };
  // NVDLA's data port answers from a copy of the addressed entry taken one clock earlier: a
  // DATA read in the clock after S_LUT_ACCESS_CFG is written returns the entry at the previous
  // address. Reading S_LUT_ACCESS_CFG first (a blocking round trip) keeps that window closed.
  const auto start_readback = [&](uint32_t cfg_value) {
    b.write(cdp + C::S_LUT_ACCESS_CFG::offset, cfg_value, true);
    b.read(cdp + C::S_LUT_ACCESS_CFG::offset, 0xffffffffu, std::nullopt, "CDP.S_LUT_ACCESS_CFG before read-back");
  };
  if (readback == CdpLutReadback::All) {
    for (unsigned table = 0; table < 2; ++table) {
      start_readback(table << 16);
      const unsigned n = table ? 257 : 65;
      for (unsigned i = 0; i < n; ++i) {
        gap();
        b.read(cdp + C::S_LUT_ACCESS_DATA::offset, 0xffffffffu, std::nullopt,
               fmt::format("CDP LUT {} entry {} (full read-back)", table ? "LO" : "LE", i));
      }
    }
    b.read(cdp + C::S_LUT_ACCESS_CFG::offset, 0xffffffffu, std::nullopt, "CDP.S_LUT_ACCESS_CFG after full read-back");
  } else if (flow.chance(0.3)) {  // read back a few entries from a random address (auto-increment on read)
    const unsigned table = static_cast<unsigned>(flow.below(2));
    const unsigned at = static_cast<unsigned>(flow.below(table ? 255 : 63));
    start_readback((table << 16) | at);
    for (unsigned i = 0; i < 3; ++i) {
      gap();
      b.read(cdp + C::S_LUT_ACCESS_DATA::offset, 0xffffffffu, std::nullopt,
             fmt::format("CDP LUT {} entry {}", table ? "LO" : "LE", std::min(at + i, table ? 256u : 64u)));
    }
    b.read(cdp + C::S_LUT_ACCESS_CFG::offset, 0xffffffffu, std::nullopt, "CDP.S_LUT_ACCESS_CFG after read-back");
  }
}

void make_cdp_lut_sweep(CdpLayerSpec& l, const HwConfig& cfg, bool prefer_lo) {
  const uint32_t lanes = cfg.atom_bytes;  // int8
  l.channels = lanes;
  l.width = std::min(8u, 256 / lanes);
  l.height = 256 / lanes / l.width;
  l.sqsum_bypass = true;
  l.datin_offset = 0;
  l.datin_scale = 1;
  l.datin_shifter = 0;
  CdpLutProgram& p = l.lut;
  const uint32_t priorities = (p.cfg >> 4) & 3u;  // keep the random underflow/overflow priorities
  p.cfg = 1u | (priorities << 4) | ((prefer_lo ? 1u : 0u) << 6);
  const uint32_t sel_le = 2, sel_lo = 0;
  p.info = (p.info & 0xffu) | (sel_le << 8) | (sel_lo << 16);
  p.le_start = p.lo_start = reg38(-128);
  p.le_end = reg38(-128 + (64 << sel_le));
  p.lo_end = reg38(-128 + (256 << sel_lo));
}

void make_cdp_rounding_converter(CdpLayerSpec& l, Rng& r) {
  if (l.precision == Precision::Fp16) return;
  const int shift = static_cast<int>(r.uniform(1, 24));
  const int hi = std::min(15, shift + 1), lo = std::min(hi - 1, std::max(0, shift - 4));
  const int64_t magnitude = std::min<int64_t>(32767, static_cast<int64_t>(r.uniform(uint64_t{1} << lo, uint64_t{1} << hi)));
  l.datin_scale = static_cast<uint16_t>(r.chance(0.5) ? -magnitude : magnitude);
  l.datin_shifter = static_cast<uint32_t>(shift);
}

void make_cdp_pow2_converters(CdpLayerSpec& l, Rng& r) {
  if (l.precision == Precision::Fp16) return;
  const auto pow2 = [&r](int k) {
    const int32_t m = int32_t{1} << k;
    return static_cast<uint16_t>(r.chance(0.5) ? -m : m);
  };
  const int k_in = static_cast<int>(r.uniform(0, 14));
  l.datin_scale = pow2(k_in);
  // Mostly 1..3 bits between the scaled value's lowest set bit and the guard bit: a tie or a
  // single sticky bit is then one data pattern in 2 to 8.
  const int j = static_cast<int>(r.chance(0.8) ? r.uniform(1, 3) : r.uniform(1, 9));
  l.datin_shifter = static_cast<uint32_t>(std::min(31, k_in + j));
  const int16_t old_scale = static_cast<int16_t>(l.datout_scale);
  const int old_bits = old_scale == 0 ? 0 : static_cast<int>(std::log2(std::abs(static_cast<double>(old_scale))));
  const int k_out = static_cast<int>(r.uniform(0, 14));
  l.datout_scale = pow2(k_out);
  l.datout_shifter = static_cast<uint32_t>(std::clamp(static_cast<int>(l.datout_shifter) - old_bits + k_out, 0, 63));
}

std::vector<uint8_t> cdp_sweep_input(const CdpLayerSpec& l, const HwConfig& cfg, Rng& r) {
  std::vector<uint8_t> bytes = r.bytes(cdp_extent(l, cfg, false));
  const unsigned a = cfg.atom_bytes;
  unsigned v = static_cast<unsigned>(r.below(256));
  for (uint32_t h = 0; h < l.height; ++h)
    for (uint32_t w = 0; w < l.width; ++w)
      for (unsigned e = 0; e < l.channels; ++e) bytes[h * l.src_line + uint64_t{w} * a + e] = static_cast<uint8_t>(v++);
  return bytes;
}

std::vector<std::pair<uint32_t, uint32_t>> cdp_rdma_register_values(const CdpLayerSpec& l, unsigned group,
                                                                     int rdma_format) {
  return {{RD::D_DATA_CUBE_WIDTH::offset, l.width - 1},
          {RD::D_DATA_CUBE_HEIGHT::offset, l.height - 1},
          {RD::D_DATA_CUBE_CHANNEL::offset, l.channels - 1},
          {RD::D_SRC_BASE_ADDR_LOW::offset, static_cast<uint32_t>(l.src)},
          {RD::D_SRC_BASE_ADDR_HIGH::offset, static_cast<uint32_t>(l.src >> 32)},
          {RD::D_SRC_LINE_STRIDE::offset, static_cast<uint32_t>(l.src_line)},
          {RD::D_SRC_SURFACE_STRIDE::offset, static_cast<uint32_t>(l.src_surface)},
          {RD::D_SRC_DMA_CFG::offset, l.src_port == MemPort::Dbb ? 1u : 0u},  // SRC_RAM_TYPE: 1 MC, 0 CV
          {RD::D_DATA_FORMAT::offset, rdma_format < 0 ? l.format_code() : static_cast<uint32_t>(rdma_format)},
          {RD::D_PERF_ENABLE::offset, group}};
}

std::vector<std::pair<uint32_t, uint32_t>> cdp_register_values(const CdpLayerSpec& l, unsigned group) {
  return {{C::D_FUNC_BYPASS::offset, (l.sqsum_bypass ? 1u : 0u) | (l.mul_bypass ? 2u : 0u)},
          {C::D_DST_BASE_ADDR_LOW::offset, static_cast<uint32_t>(l.dst)},
          {C::D_DST_BASE_ADDR_HIGH::offset, static_cast<uint32_t>(l.dst >> 32)},
          {C::D_DST_LINE_STRIDE::offset, static_cast<uint32_t>(l.dst_line)},
          {C::D_DST_SURFACE_STRIDE::offset, static_cast<uint32_t>(l.dst_surface)},
          {C::D_DST_DMA_CFG::offset, l.dst_port == MemPort::Dbb ? 1u : 0u},
          {C::D_DATA_FORMAT::offset, l.format_code()},
          {C::D_NAN_FLUSH_TO_ZERO::offset, l.nan_to_zero ? 1u : 0u},
          {C::D_LRN_CFG::offset, l.normalz_len},
          {C::D_DATIN_OFFSET::offset, l.datin_offset},
          {C::D_DATIN_SCALE::offset, l.datin_scale},
          {C::D_DATIN_SHIFTER::offset, l.datin_shifter},
          {C::D_DATOUT_OFFSET::offset, l.datout_offset},
          {C::D_DATOUT_SCALE::offset, l.datout_scale},
          {C::D_DATOUT_SHIFTER::offset, l.datout_shifter},
          {C::D_PERF_ENABLE::offset, 2u | group}};
}

void program_cdp_layer(ProgramBuilder& b, const HwConfig& cfg, const CdpLayerSpec& l, unsigned group, bool rdma_first,
                       int rdma_format, bool rdma_armed_early, Rng* armed_writes) {
  const uint32_t cdp = unit_base(cfg, Unit::CDP), rdma = unit_base(cfg, Unit::CDP_RDMA);
  b.write(cdp + C::S_POINTER::offset, group);
  b.write(rdma + RD::S_POINTER::offset, group);
  const auto rdma_values = cdp_rdma_register_values(l, group, rdma_format);
  for (const auto& [off, v] : rdma_values) b.write(rdma + off, v);
  if (rdma_armed_early) {  // CDP_RDMA runs (and waits) while CDP's group is still being programmed
    b.write(rdma + RD::D_OP_ENABLE::offset, 1);
    b.idle(64);
  }
  const auto cdp_values = cdp_register_values(l, group);
  for (const auto& [off, v] : cdp_values) b.write(cdp + off, v);
  const uint32_t en_cdp = cdp + C::D_OP_ENABLE::offset, en_rdma = rdma + RD::D_OP_ENABLE::offset;
  if (rdma_armed_early) {
    b.write(en_cdp, 1);
    return;
  }
  b.write(rdma_first ? en_rdma : en_cdp, 1);
  if (armed_writes) {
    // The first unit's group is armed and the layer cannot end before the second is: writes to
    // each of the group's registers (other values), and D_OP_ENABLE = 0, must be dropped (the
    // read-backs follow the golden model).
    Rng& r = *armed_writes;
    const uint32_t base = rdma_first ? rdma : cdp;
    const auto& values = rdma_first ? rdma_values : cdp_values;
    const char* unit = rdma_first ? "CDP_RDMA" : "CDP";
    for (const auto& [off, v] : values) b.write(base + off, v ^ static_cast<uint32_t>(r.uniform(1, 0xffffffffu)));
    b.write(rdma_first ? en_rdma : en_cdp, 0);
    for (const auto& written : values)
      b.read(base + written.first, 0xffffffffu, std::nullopt,
             fmt::format("{} register 0x{:03x} group {} after a write while armed", unit, written.first, group));
    b.read(rdma_first ? en_rdma : en_cdp, 0xffffffffu, 1u,
           fmt::format("{}.D_OP_ENABLE group {} still armed after a write of 0", unit, group));
  }
  b.write(rdma_first ? en_cdp : en_rdma, 1);
}

void finish_cdp_layer(ProgramBuilder& b, const HwConfig& cfg, unsigned group, uint64_t timeout, const std::string& what) {
  const uint32_t cdp = unit_base(cfg, Unit::CDP);
  const uint32_t glb_status = b.addr("GLB.S_INTR_STATUS");
  const uint32_t bit = 1u << (2 + group);
  b.wait_intr(bit, timeout);
  b.read(glb_status, bit, bit, fmt::format("GLB CDP_DONE_STATUS{} set after {}", group, what));
  b.write(glb_status, bit);
  b.write(cdp + C::S_POINTER::offset, group);
  const std::pair<uint32_t, const char*> counters[] = {
      {C::D_NAN_INPUT_NUM::offset, "D_NAN_INPUT_NUM"},   {C::D_INF_INPUT_NUM::offset, "D_INF_INPUT_NUM"},
      {C::D_NAN_OUTPUT_NUM::offset, "D_NAN_OUTPUT_NUM"}, {C::D_OUT_SATURATION::offset, "D_OUT_SATURATION"},
      {C::D_PERF_LUT_UFLOW::offset, "D_PERF_LUT_UFLOW"}, {C::D_PERF_LUT_OFLOW::offset, "D_PERF_LUT_OFLOW"},
      {C::D_PERF_LUT_HYBRID::offset, "D_PERF_LUT_HYBRID"}, {C::D_PERF_LUT_LE_HIT::offset, "D_PERF_LUT_LE_HIT"},
      {C::D_PERF_LUT_LO_HIT::offset, "D_PERF_LUT_LO_HIT"}};
  for (const auto& [off, name] : counters)
    b.read(cdp + off, 0xffffffffu, std::nullopt, fmt::format("CDP.{} group {} after {}", name, group, what));
}

void cdp_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when) {
  b.read(unit_base(cfg, Unit::CDP) + C::S_STATUS::offset, 0xffffffffu, 0u, "CDP.S_STATUS idle " + when);
  b.read(unit_base(cfg, Unit::CDP_RDMA) + RD::S_STATUS::offset, 0xffffffffu, 0u, "CDP_RDMA.S_STATUS idle " + when);
  b.read(b.addr("GLB.S_INTR_STATUS"), 0xffffffffu, 0u, "GLB.S_INTR_STATUS all clear " + when);
}

uint64_t cdp_timeout(const CdpLayerSpec& l, const HwConfig& cfg) {
  const uint64_t lanes = cfg.atom_bytes / l.element_bytes(), s = (l.channels + lanes - 1) / lanes;
  return 20'000 + s * l.width * l.height * 128;
}

std::string describe_cdp_layer(const CdpLayerSpec& l) {
  return fmt::format(
      "{} {}x{}x{} n={} bypass sq{} mul{} nan0 {} in(off 0x{:x} scale 0x{:x} sh {}) out(off 0x{:x} scale 0x{:x} sh {}) "
      "lut[{} cfg 0x{:x} info 0x{:06x}]",
      precision_name(l.precision), l.width, l.height, l.channels, 2 * l.normalz_len + 3, l.sqsum_bypass, l.mul_bypass,
      l.nan_to_zero, l.datin_offset, l.datin_scale, l.datin_shifter, l.datout_offset, l.datout_scale, l.datout_shifter,
      cdp_lut_case_name(l.lut.kase), l.lut.cfg, l.lut.info);
}

}  // namespace dla::stimulus
