#include "dla/formats/kneron_layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

namespace dla::formats::kneron {
namespace {

uint64_t ru(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }
uint64_t cdiv(uint64_t x, uint64_t m) { return (x + m - 1) / m; }

[[noreturn]] void unsupported(const std::string& why) { throw std::invalid_argument("unsupported: " + why); }

const char* const kLayoutNames[kLayoutCount] = {
    "4W4C8B", "1W16C8B", "16W1C8B", "8W1C16B", "4W4C8BHL", "1W16C8BHL", "16W1C8BHL", "1W16C8B_CH_COMPACT",
    "1W16C8BHL_CH_COMPACT", "RAW_8B", "RAW_16B", "RAW_FLOAT", "PS_1W16C24B", "HW1C8B", "HW4C8B_KEEP_A",
    "HW4C8B_DROP_A", "HW1C16B_LE", "HW1C16B_BE"};

bool is_outer_group(Layout l) { return l == Layout::k1W16C8B || l == Layout::k1W16C8BHL; }

}  // namespace

Family family_of(Chip c) {
  switch (c) {
    case Chip::KL520: return Family::A;
    case Chip::KL530:
    case Chip::KL630:
    case Chip::KL720: return Family::B;
    case Chip::KL730: return Family::C;
  }
  throw std::invalid_argument("family_of: unknown chip");
}

const char* chip_name(Chip c) {
  switch (c) {
    case Chip::KL520: return "KL520";
    case Chip::KL530: return "KL530";
    case Chip::KL630: return "KL630";
    case Chip::KL720: return "KL720";
    case Chip::KL730: return "KL730";
  }
  return "?";
}

const char* layout_name(Layout l) {
  const auto i = static_cast<unsigned>(l);
  return i < kLayoutCount ? kLayoutNames[i] : "?";
}

std::optional<Layout> layout_from_name(const std::string& name) {
  for (unsigned i = 0; i < kLayoutCount; ++i)
    if (name == kLayoutNames[i]) return static_cast<Layout>(i);
  return std::nullopt;
}

ElementKind element_kind(Layout l) {
  switch (l) {
    case Layout::k8W1C16B:
    case Layout::RAW_16B:
    case Layout::HW1C16B_LE: return ElementKind::Int16LE;
    case Layout::HW1C16B_BE: return ElementKind::Int16BE;
    case Layout::k4W4C8BHL:
    case Layout::k1W16C8BHL:
    case Layout::k16W1C8BHL:
    case Layout::k1W16C8BHL_CH_COMPACT: return ElementKind::Int16HL;
    case Layout::RAW_FLOAT: return ElementKind::Float32;
    case Layout::PS_1W16C24B: unsupported("PS_1W16C24B: no public source describes its byte layout");
    default: return ElementKind::Int8;
  }
}

Legality legality(Chip c, Layout l) {
  // kneron_layouts.md §4, column by chip.
  const auto ci = static_cast<unsigned>(c);
  // Each row: KL520, KL530, KL630, KL720, KL730 as strings of flags: I, O, o, e; "" = not defined.
  static const char* const table[kLayoutCount][5] = {
      {"I", "e", "I", "I", "Io"},      // 4W4C8B
      {"", "e", "Io", "IO", "IO"},     // 1W16C8B
      {"O", "e", "IO", "IO", "IO"},    // 16W1C8B (KL520 input: open question §8.8)
      {"", "e", "eo", "Oe", "IO"},     // 8W1C16B
      {"", "e", "e", "", "IO"},        // 4W4C8BHL
      {"", "e", "e", "e", "IO"},       // 1W16C8BHL
      {"", "e", "e", "", "IO"},        // 16W1C8BHL
      {"", "", "", "", "IO"},          // 1W16C8B_CH_COMPACT
      {"", "", "", "", "IO"},          // 1W16C8BHL_CH_COMPACT
      {"", "e", "e", "e", "IO"},       // RAW_8B
      {"", "e", "e", "e", "IO"},       // RAW_16B
      {"", "e", "e", "e", "e"},        // RAW_FLOAT
      {"", "", "", "e", "e"},          // PS_1W16C24B
      {"", "", "", "", "I"},           // HW1C8B
      {"", "", "", "", "I"},           // HW4C8B_KEEP_A
      {"", "", "", "", "I"},           // HW4C8B_DROP_A
      {"", "", "", "", "I"},           // HW1C16B_LE (§3.5: input only, KL730 only)
      {"", "", "", "", "I"},           // HW1C16B_BE
  };
  const auto li = static_cast<unsigned>(l);
  if (li >= kLayoutCount || ci > 4) throw std::invalid_argument("legality: unknown chip or layout");
  Legality g;
  for (const char* p = table[li][ci]; *p; ++p) {
    g.input |= *p == 'I';
    g.output |= *p == 'O';
    g.decoder_output |= *p == 'o';
    g.enum_only |= *p == 'e';
  }
  return g;
}

std::optional<std::string> usage_error(Chip c, Layout l, Direction d) {
  const Legality g = legality(c, l);
  const bool ok = d == Direction::Input ? g.input : (g.output || g.decoder_output);
  if (ok) return std::nullopt;
  const char* dir = d == Direction::Input ? "input" : "output";
  if (l == Layout::PS_1W16C24B)
    return ::fmt::format("unsupported: PS_1W16C24B on {} ({}): its byte layout is not publicly described",
                         chip_name(c), dir);
  if (g.enum_only)
    return ::fmt::format("unsupported: {} as {} on {}: the format code exists but no documented use", layout_name(l), dir,
                         chip_name(c));
  return ::fmt::format("unsupported: {} is not a legal {} layout on {}", layout_name(l), dir, chip_name(c));
}

LayoutMap LayoutMap::fixed(Chip chip, Layout l, const Shape& s) {
  const Family fam = family_of(chip);
  if (fam == Family::C) unsupported(std::string(chip_name(chip)) + " layouts are stride driven; use LayoutMap::strided");
  if (s.n != 1) unsupported(::fmt::format("{}: the fixed (v1) layouts assume N = 1, got N = {}", chip_name(chip), s.n));
  if (s.c == 0 || s.h == 0 || s.w == 0) throw std::invalid_argument("kneron layout: every dimension must be >= 1");
  LayoutMap m(l, s);
  m.family_ = fam;
  m.chip_ = chip;
  const uint64_t C = s.c, H = s.h, W = s.w;
  switch (l) {
    case Layout::k4W4C8B: m.size_bytes_ = cdiv(C, 4) * H * ru(W, fam == Family::A ? 16 : 4) * 4; break;
    case Layout::k16W1C8B: m.size_bytes_ = C * H * ru(W, 16); break;
    case Layout::k1W16C8B:
      if (fam == Family::A) unsupported("1W16C8B is not defined on KL520");
      m.size_bytes_ = cdiv(C, 16) * H * W * 16;
      break;
    case Layout::k8W1C16B:
      if (fam == Family::A) unsupported("KL520 has no 16-bit layouts");
      m.size_bytes_ = 2 * C * H * ru(W, 8);
      break;
    default:
      unsupported(::fmt::format("{} on {}: no public fixed formula for this chip family", layout_name(l), chip_name(chip)));
  }
  return m;
}

std::array<uint64_t, 4> LayoutMap::canonical_strides(Layout l, const Shape& s) {
  const uint64_t C = s.c, H = s.h, W = s.w;
  switch (l) {
    case Layout::k4W4C8B:
    case Layout::k4W4C8BHL:
      if (C > 4) unsupported(::fmt::format("{} with C = {} > 4 on KL730: a channel stride cannot express 4-channel "
                                           "blocks (open question)", layout_name(l), C));
      return {H * ru(W, 4) * 4, 1, ru(W, 4) * 4, 4};
    case Layout::k16W1C8B:
    case Layout::k16W1C8BHL: return {C * H * ru(W, 16), H * ru(W, 16), ru(W, 16), 1};
    case Layout::k1W16C8B:
    case Layout::k1W16C8BHL: return {H * W * 16, 1, W * 16, 16};
    case Layout::k1W16C8B_CH_COMPACT:
    case Layout::k1W16C8BHL_CH_COMPACT: {
      const uint64_t cp = ru(C, 16);
      return {H * W * cp, 1, W * cp, cp};
    }
    case Layout::k8W1C16B: return {C * H * ru(W, 8), H * ru(W, 8), ru(W, 8), 1};
    case Layout::RAW_8B:
    case Layout::RAW_16B:
    case Layout::RAW_FLOAT: return {C * H * W, H * W, W, 1};
    case Layout::HW1C8B:
    case Layout::HW1C16B_LE:
    case Layout::HW1C16B_BE:
      if (C != 1) unsupported(::fmt::format("{} holds one channel, got C = {}", layout_name(l), C));
      return {H * W, H * W, W, 1};
    case Layout::HW4C8B_KEEP_A:
    case Layout::HW4C8B_DROP_A: {
      const uint64_t want = l == Layout::HW4C8B_KEEP_A ? 4 : 3;
      if (C != want) unsupported(::fmt::format("{} is defined for C = {}, got C = {}", layout_name(l), want, C));
      return {H * W * 4, 1, W * 4, 4};
    }
    case Layout::PS_1W16C24B: break;
  }
  unsupported("PS_1W16C24B: no public source describes its byte layout");
}

LayoutMap LayoutMap::strided(Layout l, const Shape& s, const std::array<uint64_t, 4>& stride) {
  const ElementKind kind = element_kind(l);  // rejects PS_1W16C24B
  if (s.n == 0 || s.c == 0 || s.h == 0 || s.w == 0) throw std::invalid_argument("kneron layout: every dimension must be >= 1");
  LayoutMap m(l, s);
  m.family_ = Family::C;
  m.chip_ = Chip::KL730;
  m.stride_ = stride;
  m.mask_lsb_ = kind != ElementKind::Int8 && kind != ElementKind::Float32;
  const std::array<uint64_t, 4> extent = {s.n, s.c, s.h, s.w};
  uint64_t elems = 0;
  for (int k = 0; k < 4; ++k) elems = std::max(elems, extent[static_cast<size_t>(k)] * stride[static_cast<size_t>(k)]);
  if (is_outer_group(l)) {
    if (stride[1] != 1) unsupported(::fmt::format("{}: the channel stride must be 1 for the outer-group fix-up", layout_name(l)));
    if (s.n > 1) unsupported(::fmt::format("{} with N = {} > 1: outer-group batching is an open question", layout_name(l), s.n));
    uint64_t g = 0;
    for (size_t k : {size_t{0}, size_t{2}, size_t{3}}) g = std::max(g, extent[k] * stride[k]);
    m.group_stride_ = g;
    elems = cdiv(s.c, 16) * g;
  }
  switch (kind) {
    case ElementKind::Int8: m.size_bytes_ = elems; break;
    case ElementKind::Int16LE:
    case ElementKind::Int16BE: m.size_bytes_ = 2 * elems; break;
    case ElementKind::Int16HL: m.size_bytes_ = 32 * cdiv(elems, 16); break;
    case ElementKind::Float32: m.size_bytes_ = 4 * elems; break;
  }
  return m;
}

LayoutMap LayoutMap::for_chip(Chip chip, Layout l, Direction d, const Shape& s) {
  if (auto e = usage_error(chip, l, d)) throw std::invalid_argument(*e);
  return family_of(chip) == Family::C ? kl730_canonical(l, s) : fixed(chip, l, s);
}

uint64_t LayoutMap::virtual_index(uint32_t n, uint32_t c, uint32_t h, uint32_t w) const {
  if (n >= shape_.n || c >= shape_.c || h >= shape_.h || w >= shape_.w)
    throw std::out_of_range(::fmt::format("kneron layout: element ({}, {}, {}, {}) outside {}x{}x{}x{}", n, c, h, w,
                                          shape_.n, shape_.c, shape_.h, shape_.w));
  const uint64_t C = shape_.c, H = shape_.h, W = shape_.w;
  if (family_ != Family::C) {
    const bool a = family_ == Family::A;
    switch (layout_) {
      case Layout::k4W4C8B: {
        const uint64_t cg = cdiv(C, 4), wa = ru(W, a ? 16 : 4), cb = c / 4, ci = c % 4;
        return (a ? ((h * cg + cb) * wa + w) : ((cb * H + h) * wa + w)) * 4 + ci;
      }
      case Layout::k16W1C8B: return (a ? (h * C + c) : (c * H + h)) * ru(W, 16) + w;
      case Layout::k1W16C8B: return ((c / 16) * H + h) * W * 16 + w * 16 + c % 16;
      case Layout::k8W1C16B: return (c * H + h) * ru(W, 8) + w;
      default: break;
    }
    unsupported("no fixed formula");
  }
  uint64_t v = n * stride_[0] + c * stride_[1] + h * stride_[2] + w * stride_[3];
  if (group_stride_) v += (c / 16) * (group_stride_ - 16);
  return v;
}

std::array<uint64_t, 2> LayoutMap::byte_address(uint32_t n, uint32_t c, uint32_t h, uint32_t w) const {
  const uint64_t v = virtual_index(n, c, h, w);
  switch (element_kind(layout_)) {
    case ElementKind::Int8: return {v, v};
    case ElementKind::Int16LE: return {2 * v, 2 * v + 1};
    case ElementKind::Int16BE: return {2 * v + 1, 2 * v};
    case ElementKind::Int16HL: {
      const uint64_t lo = 32 * (v / 16) + v % 16;
      return {lo, lo + 16};
    }
    case ElementKind::Float32: return {4 * v, 4 * v};
  }
  return {v, v};
}

namespace {
template <class F>
void for_each_element(const Shape& s, F&& f) {
  uint64_t i = 0;
  for (uint32_t n = 0; n < s.n; ++n)
    for (uint32_t c = 0; c < s.c; ++c)
      for (uint32_t h = 0; h < s.h; ++h)
        for (uint32_t w = 0; w < s.w; ++w) f(i++, n, c, h, w);
}
}  // namespace

std::vector<uint8_t> LayoutMap::encode(const std::vector<int32_t>& x) const {
  const ElementKind kind = element_kind(layout_);
  if (kind == ElementKind::Float32) throw std::invalid_argument("RAW_FLOAT holds floats: use encode_float");
  if (x.size() != shape_.elements())
    throw std::invalid_argument(::fmt::format("kneron encode: {} values for {} elements", x.size(), shape_.elements()));
  std::vector<uint8_t> out(size_bytes_, 0);
  const int32_t lo = kind == ElementKind::Int8 ? -128 : -32768, hi = kind == ElementKind::Int8 ? 127 : 32767;
  for_each_element(shape_, [&](uint64_t i, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
    const int32_t v = x[i];
    if (v < lo || v > hi)
      throw std::out_of_range(::fmt::format("kneron encode {}: value {} at ({}, {}, {}, {}) outside [{}, {}]",
                                            layout_name(layout_), v, n, c, h, w, lo, hi));
    const auto a = byte_address(n, c, h, w);
    auto u = static_cast<uint16_t>(v);
    if (mask_lsb_) u = static_cast<uint16_t>(u & 0xFFFE);
    switch (kind) {
      case ElementKind::Int8: out[a[0]] = static_cast<uint8_t>(v); break;
      case ElementKind::Int16LE:
      case ElementKind::Int16BE:
        out[a[0]] = static_cast<uint8_t>(u);
        out[a[1]] = static_cast<uint8_t>(u >> 8);
        break;
      case ElementKind::Int16HL:
        out[a[0]] = static_cast<uint8_t>((u >> 1) & 0x7F);
        out[a[1]] = static_cast<uint8_t>(u >> 8);
        break;
      case ElementKind::Float32: break;
    }
  });
  return out;
}

std::vector<int32_t> LayoutMap::decode(const std::vector<uint8_t>& bytes) const {
  const ElementKind kind = element_kind(layout_);
  if (kind == ElementKind::Float32) throw std::invalid_argument("RAW_FLOAT holds floats: use decode_float");
  if (bytes.size() < size_bytes_)
    throw std::invalid_argument(::fmt::format("kneron decode {}: buffer has {} bytes, layout needs {}",
                                              layout_name(layout_), bytes.size(), size_bytes_));
  std::vector<int32_t> x(shape_.elements());
  for_each_element(shape_, [&](uint64_t i, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
    const auto a = byte_address(n, c, h, w);
    uint16_t u = 0;
    switch (kind) {
      case ElementKind::Int8: x[i] = static_cast<int8_t>(bytes[a[0]]); return;
      case ElementKind::Int16LE:
      case ElementKind::Int16BE: u = static_cast<uint16_t>(bytes[a[0]] | (bytes[a[1]] << 8)); break;
      case ElementKind::Int16HL: u = static_cast<uint16_t>((bytes[a[1]] << 8) | ((bytes[a[0]] & 0x7F) << 1)); break;
      case ElementKind::Float32: break;
    }
    if (mask_lsb_) u = static_cast<uint16_t>(u & 0xFFFE);
    x[i] = static_cast<int16_t>(u);
  });
  return x;
}

std::vector<uint8_t> LayoutMap::encode_float(const std::vector<float>& x) const {
  if (element_kind(layout_) != ElementKind::Float32)
    throw std::invalid_argument(std::string("encode_float: ") + layout_name(layout_) + " holds integers");
  if (x.size() != shape_.elements()) throw std::invalid_argument("encode_float: value count does not match the shape");
  std::vector<uint8_t> out(size_bytes_, 0);
  for_each_element(shape_, [&](uint64_t i, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
    uint32_t b;
    std::memcpy(&b, &x[i], 4);
    const uint64_t a = byte_address(n, c, h, w)[0];
    for (int k = 0; k < 4; ++k) out[a + static_cast<uint64_t>(k)] = static_cast<uint8_t>(b >> (8 * k));
  });
  return out;
}

std::vector<float> LayoutMap::decode_float(const std::vector<uint8_t>& bytes) const {
  if (element_kind(layout_) != ElementKind::Float32)
    throw std::invalid_argument(std::string("decode_float: ") + layout_name(layout_) + " holds integers");
  if (bytes.size() < size_bytes_) throw std::invalid_argument("decode_float: buffer too small");
  std::vector<float> x(shape_.elements());
  for_each_element(shape_, [&](uint64_t i, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
    const uint64_t a = byte_address(n, c, h, w)[0];
    uint32_t b = 0;
    for (int k = 0; k < 4; ++k) b |= uint32_t{bytes[a + static_cast<uint64_t>(k)]} << (8 * k);
    std::memcpy(&x[i], &b, 4);
  });
  return x;
}

int32_t quantize(double x, int radix, double scale, unsigned bits, Rounding r, bool clear_lsb) {
  if (bits != 8 && bits != 16) throw std::invalid_argument(::fmt::format("quantize: {} bits is not 8 or 16", bits));
  const double y = x * std::ldexp(1.0, radix) * scale;
  double q = r == Rounding::HalfEven ? std::nearbyint(y) : std::round(y);  // nearbyint: default mode ties-to-even
  const double hi = bits == 8 ? 127 : 32767, lo = bits == 8 ? -128 : -32768;
  q = std::min(hi, std::max(lo, q));
  auto v = static_cast<int32_t>(q);
  if (clear_lsb && bits == 16) v = static_cast<int16_t>(static_cast<uint16_t>(v) & 0xFFFE);
  return v;
}

double dequantize(int32_t q, int radix, double scale) { return q / (std::ldexp(1.0, radix) * scale); }

namespace {
std::pair<int, double> descriptor(const Quantization& qp, uint32_t c) {
  if (qp.radix.empty() || qp.scale.empty()) throw std::invalid_argument("quantization: radix and scale need >= 1 entry");
  const auto pick = [c](const auto& v, const char* what) {
    if (v.size() == 1) return v[0];
    if (c >= v.size())
      throw std::invalid_argument(::fmt::format("quantization: {} has {} entries, channel {} needs one", what, v.size(), c));
    return v[c];
  };
  return {pick(qp.radix, "radix"), pick(qp.scale, "scale")};
}
}  // namespace

std::vector<int32_t> quantize_tensor(const std::vector<float>& x, const Shape& s, const Quantization& qp, unsigned bits,
                                     Rounding r, bool clear_lsb) {
  if (x.size() != s.elements()) throw std::invalid_argument("quantize_tensor: value count does not match the shape");
  std::vector<int32_t> q(x.size());
  for_each_element(s, [&](uint64_t i, uint32_t, uint32_t c, uint32_t, uint32_t) {
    const auto [radix, scale] = descriptor(qp, c);
    q[i] = quantize(x[i], radix, scale, bits, r, clear_lsb);
  });
  return q;
}

std::vector<float> dequantize_tensor(const std::vector<int32_t>& q, const Shape& s, const Quantization& qp) {
  if (q.size() != s.elements()) throw std::invalid_argument("dequantize_tensor: value count does not match the shape");
  std::vector<float> x(q.size());
  for_each_element(s, [&](uint64_t i, uint32_t, uint32_t c, uint32_t, uint32_t) {
    const auto [radix, scale] = descriptor(qp, c);
    x[i] = static_cast<float>(dequantize(q[i], radix, scale));
  });
  return x;
}

}  // namespace dla::formats::kneron
