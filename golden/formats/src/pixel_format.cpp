#include "dla/formats/pixel_format.h"

#include <fmt/format.h>
#include <stdexcept>

#include "dla/formats/alignment.h"

namespace dla::formats {
namespace {

// One component: bits [lsb, lsb+nbits) of the little-endian pixel word of `plane`, shifted
// up by `up` (the 10-bit packed formats scale to 16 bits: x64 for colour, x16384 for alpha).
struct Field {
  uint8_t plane, lsb, nbits, up;
};

struct FormatDef {
  PixelFormatInfo info;
  Field field[4];
};

constexpr Field B(unsigned i) { return {0, static_cast<uint8_t>(8 * i), 8, 0}; }
constexpr Field W(unsigned i) { return {0, static_cast<uint8_t>(16 * i), 16, 0}; }
constexpr Field P1B(unsigned i) { return {1, static_cast<uint8_t>(8 * i), 8, 0}; }
constexpr Field P1W(unsigned i) { return {1, static_cast<uint8_t>(16 * i), 16, 0}; }
constexpr Field U10(unsigned lsb) { return {0, static_cast<uint8_t>(lsb), 10, 6}; }
constexpr Field U2(unsigned lsb) { return {0, static_cast<uint8_t>(lsb), 2, 14}; }
constexpr Field kNone{0, 0, 0, 0};

constexpr Precision I8 = Precision::Int8, I16 = Precision::Int16, F16 = Precision::Fp16;
using PF = PixelFormat;

// conv.md §5.2 component table; names, planes, channels and precisions from the seed.
const FormatDef kFormats[kPixelFormatCount] = {
    {{PF::T_R8, "T_R8", 1, {1, 0}, 1, I8}, {B(0), kNone, kNone, kNone}},
    {{PF::T_R10, "T_R10", 1, {2, 0}, 1, I16}, {W(0), kNone, kNone, kNone}},
    {{PF::T_R12, "T_R12", 1, {2, 0}, 1, I16}, {W(0), kNone, kNone, kNone}},
    {{PF::T_R16, "T_R16", 1, {2, 0}, 1, I16}, {W(0), kNone, kNone, kNone}},
    {{PF::T_R16_I, "T_R16_I", 1, {2, 0}, 1, I16}, {W(0), kNone, kNone, kNone}},
    {{PF::T_R16_F, "T_R16_F", 1, {2, 0}, 1, F16}, {W(0), kNone, kNone, kNone}},
    {{PF::T_A16B16G16R16, "T_A16B16G16R16", 1, {8, 0}, 4, I16}, {W(0), W(1), W(2), W(3)}},
    {{PF::T_X16B16G16R16, "T_X16B16G16R16", 1, {8, 0}, 4, I16}, {W(0), W(1), W(2), W(3)}},
    {{PF::T_A16B16G16R16_F, "T_A16B16G16R16_F", 1, {8, 0}, 4, F16}, {W(0), W(1), W(2), W(3)}},
    {{PF::T_A16Y16U16V16, "T_A16Y16U16V16", 1, {8, 0}, 4, I16}, {W(2), W(1), W(0), W(3)}},
    {{PF::T_V16U16Y16A16, "T_V16U16Y16A16", 1, {8, 0}, 4, I16}, {W(1), W(2), W(3), W(0)}},
    {{PF::T_A16Y16U16V16_F, "T_A16Y16U16V16_F", 1, {8, 0}, 4, F16}, {W(2), W(1), W(0), W(3)}},
    {{PF::T_A8B8G8R8, "T_A8B8G8R8", 1, {4, 0}, 4, I8}, {B(0), B(1), B(2), B(3)}},
    {{PF::T_A8R8G8B8, "T_A8R8G8B8", 1, {4, 0}, 4, I8}, {B(2), B(1), B(0), B(3)}},
    {{PF::T_B8G8R8A8, "T_B8G8R8A8", 1, {4, 0}, 4, I8}, {B(1), B(2), B(3), B(0)}},
    {{PF::T_R8G8B8A8, "T_R8G8B8A8", 1, {4, 0}, 4, I8}, {B(3), B(2), B(1), B(0)}},
    {{PF::T_X8B8G8R8, "T_X8B8G8R8", 1, {4, 0}, 4, I8}, {B(0), B(1), B(2), B(3)}},
    {{PF::T_X8R8G8B8, "T_X8R8G8B8", 1, {4, 0}, 4, I8}, {B(2), B(1), B(0), B(3)}},
    {{PF::T_B8G8R8X8, "T_B8G8R8X8", 1, {4, 0}, 4, I8}, {B(1), B(2), B(3), B(0)}},
    {{PF::T_R8G8B8X8, "T_R8G8B8X8", 1, {4, 0}, 4, I8}, {B(3), B(2), B(1), B(0)}},
    {{PF::T_A2B10G10R10, "T_A2B10G10R10", 1, {4, 0}, 4, I16}, {U10(0), U10(10), U10(20), U2(30)}},
    {{PF::T_A2R10G10B10, "T_A2R10G10B10", 1, {4, 0}, 4, I16}, {U10(20), U10(10), U10(0), U2(30)}},
    {{PF::T_B10G10R10A2, "T_B10G10R10A2", 1, {4, 0}, 4, I16}, {U10(2), U10(12), U10(22), U2(0)}},
    {{PF::T_R10G10B10A2, "T_R10G10B10A2", 1, {4, 0}, 4, I16}, {U10(22), U10(12), U10(2), U2(0)}},
    {{PF::T_A2Y10U10V10, "T_A2Y10U10V10", 1, {4, 0}, 4, I16}, {U10(20), U10(10), U10(0), U2(30)}},
    {{PF::T_V10U10Y10A2, "T_V10U10Y10A2", 1, {4, 0}, 4, I16}, {U10(2), U10(12), U10(22), U2(0)}},
    {{PF::T_A8Y8U8V8, "T_A8Y8U8V8", 1, {4, 0}, 4, I8}, {B(2), B(1), B(0), B(3)}},
    {{PF::T_V8U8Y8A8, "T_V8U8Y8A8", 1, {4, 0}, 4, I8}, {B(1), B(2), B(3), B(0)}},
    {{PF::T_Y8___U8V8_N444, "T_Y8___U8V8_N444", 2, {1, 2}, 3, I8}, {B(0), P1B(1), P1B(0), kNone}},
    {{PF::T_Y8___V8U8_N444, "T_Y8___V8U8_N444", 2, {1, 2}, 3, I8}, {B(0), P1B(0), P1B(1), kNone}},
    {{PF::T_Y10___U10V10_N444, "T_Y10___U10V10_N444", 2, {2, 4}, 3, I16}, {W(0), P1W(1), P1W(0), kNone}},
    {{PF::T_Y10___V10U10_N444, "T_Y10___V10U10_N444", 2, {2, 4}, 3, I16}, {W(0), P1W(0), P1W(1), kNone}},
    {{PF::T_Y12___U12V12_N444, "T_Y12___U12V12_N444", 2, {2, 4}, 3, I16}, {W(0), P1W(1), P1W(0), kNone}},
    {{PF::T_Y12___V12U12_N444, "T_Y12___V12U12_N444", 2, {2, 4}, 3, I16}, {W(0), P1W(0), P1W(1), kNone}},
    {{PF::T_Y16___U16V16_N444, "T_Y16___U16V16_N444", 2, {2, 4}, 3, I16}, {W(0), P1W(1), P1W(0), kNone}},
    {{PF::T_Y16___V16U16_N444, "T_Y16___V16U16_N444", 2, {2, 4}, 3, I16}, {W(0), P1W(0), P1W(1), kNone}},
};

const FormatDef& def(PixelFormat f) {
  const auto i = static_cast<unsigned>(f);
  if (i >= kPixelFormatCount) throw std::invalid_argument(::fmt::format("pixel format code {} is not defined (0..35)", i));
  return kFormats[i];
}

uint64_t load_le(const uint8_t* p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

void store_le(uint8_t* p, unsigned n, uint64_t v) {
  for (unsigned i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

const PixelFormatInfo& pixel_format_info(PixelFormat f) { return def(f).info; }

std::optional<PixelFormat> pixel_format_from_name(std::string_view name) {
  for (const FormatDef& d : kFormats)
    if (name == d.info.name) return d.info.format;
  return std::nullopt;
}

unsigned max_x_offset(PixelFormat f, unsigned atom_bytes) { return atom_bytes / def(f).info.plane_bytes[0] - 1; }

PixelComponents unpack_pixel(PixelFormat f, const uint8_t* plane0, const uint8_t* plane1) {
  const FormatDef& d = def(f);
  if (d.info.planes == 2 && plane1 == nullptr)
    throw std::invalid_argument(std::string("unpack_pixel: ") + d.info.name + " needs plane 1 data");
  const uint64_t word[2] = {load_le(plane0, d.info.plane_bytes[0]),
                            d.info.planes == 2 ? load_le(plane1, d.info.plane_bytes[1]) : 0};
  PixelComponents c{};
  for (unsigned i = 0; i < d.info.channels; ++i) {
    const Field& fl = d.field[i];
    const uint64_t bits = (word[fl.plane] >> fl.lsb) & ((uint64_t{1} << fl.nbits) - 1);
    c[i] = static_cast<uint16_t>(bits << fl.up);
  }
  return c;
}

void pack_pixel(PixelFormat f, const PixelComponents& c, uint8_t* plane0, uint8_t* plane1) {
  const FormatDef& d = def(f);
  if (d.info.planes == 2 && plane1 == nullptr)
    throw std::invalid_argument(std::string("pack_pixel: ") + d.info.name + " needs plane 1 storage");
  uint64_t word[2] = {0, 0};
  for (unsigned i = 0; i < d.info.channels; ++i) {
    const Field& fl = d.field[i];
    const uint64_t v = c[i] >> fl.up;
    if ((v << fl.up) != c[i] || (v >> fl.nbits) != 0)
      throw std::invalid_argument(::fmt::format("pack_pixel: {} component {} value {:#x} is not representable "
                                                "({} bits scaled by {})",
                                                d.info.name, i, c[i], fl.nbits, 1u << fl.up));
    word[fl.plane] |= v << fl.lsb;
  }
  store_le(plane0, d.info.plane_bytes[0], word[0]);
  if (d.info.planes == 2) store_le(plane1, d.info.plane_bytes[1], word[1]);
}

int32_t component_value(PixelFormat f, uint16_t bits, bool sign_override) {
  const PixelFormatInfo& info = def(f).info;
  if (info.precision == Precision::Fp16)
    throw std::invalid_argument(std::string("component_value: ") + info.name + " holds fp16 components, not integers");
  if (info.precision == Precision::Int8) return sign_override ? static_cast<int8_t>(bits) : static_cast<int32_t>(bits & 0xFF);
  return sign_override ? static_cast<int16_t>(bits) : static_cast<int32_t>(bits);
}

std::optional<std::string> pixel_layout_violation(uint32_t width, uint32_t height, PixelFormat f, const PixelLayout& l) {
  const PixelFormatInfo& info = def(f).info;
  if (width == 0 || height == 0) return ::fmt::format("pixel image {}: size {}x{} has a zero dimension", info.name, width, height);
  RegionParams p0;
  p0.start = l.plane0_base;
  p0.line_stride = l.line_stride;
  if (auto e = alignment_violation(DataFormat::PitchLinearPixel, p0, l.atom_bytes)) return "plane 0 " + *e;
  const unsigned max_off = max_x_offset(f, l.atom_bytes);
  if (l.x_offset > max_off)
    return ::fmt::format("pixel image {}: X offset {} exceeds {} (atom / bytes per pixel - 1)", info.name, l.x_offset, max_off);
  const uint64_t need0 = uint64_t{l.x_offset + width} * info.plane_bytes[0];
  if (height > 1 && l.line_stride < need0)
    return ::fmt::format("pixel image {}: line stride {} < (X offset + W) * {} = {}", info.name, l.line_stride,
                         info.plane_bytes[0], need0);
  if (info.planes == 2) {
    RegionParams p1;
    p1.start = l.plane1_base;
    p1.line_stride = l.line_uv_stride;
    if (auto e = alignment_violation(DataFormat::PitchLinearPixel, p1, l.atom_bytes)) return "plane 1 " + *e;
    const uint64_t need1 = uint64_t{l.x_offset + width} * info.plane_bytes[1];
    if (height > 1 && l.line_uv_stride < need1)
      return ::fmt::format("pixel image {}: UV line stride {} < (X offset + W) * {} = {}", info.name, l.line_uv_stride,
                           info.plane_bytes[1], need1);
  }
  return std::nullopt;
}

namespace {
void check_pixel_layout(uint32_t w, uint32_t h, PixelFormat f, const PixelLayout& l) {
  if (auto e = pixel_layout_violation(w, h, f, l)) throw std::invalid_argument(*e);
}
}  // namespace

void write_pixel_image(ByteSink& mem, const PixelImage& img, const PixelLayout& l) {
  check_pixel_layout(img.width, img.height, img.format, l);
  if (img.pixels.size() != size_t{img.width} * img.height)
    throw std::invalid_argument("write_pixel_image: pixel vector size does not match width * height");
  const PixelFormatInfo& info = def(img.format).info;
  std::vector<uint8_t> line0(size_t{img.width} * info.plane_bytes[0]);
  std::vector<uint8_t> line1(size_t{img.width} * info.plane_bytes[1]);
  for (uint32_t y = 0; y < img.height; ++y) {
    for (uint32_t x = 0; x < img.width; ++x)
      pack_pixel(img.format, img.at(x, y), line0.data() + size_t{x} * info.plane_bytes[0],
                 info.planes == 2 ? line1.data() + size_t{x} * info.plane_bytes[1] : nullptr);
    mem.write(l.plane0_base + y * l.line_stride + uint64_t{l.x_offset} * info.plane_bytes[0], line0.data(), line0.size());
    if (info.planes == 2)
      mem.write(l.plane1_base + y * l.line_uv_stride + uint64_t{l.x_offset} * info.plane_bytes[1], line1.data(),
                line1.size());
  }
}

PixelImage read_pixel_image(const ByteSource& mem, uint32_t width, uint32_t height, PixelFormat f, const PixelLayout& l) {
  check_pixel_layout(width, height, f, l);
  const PixelFormatInfo& info = def(f).info;
  PixelImage img(width, height, f);
  std::vector<uint8_t> line0(size_t{width} * info.plane_bytes[0]);
  std::vector<uint8_t> line1(size_t{width} * info.plane_bytes[1]);
  for (uint32_t y = 0; y < height; ++y) {
    mem.read(l.plane0_base + y * l.line_stride + uint64_t{l.x_offset} * info.plane_bytes[0], line0.data(), line0.size());
    if (info.planes == 2)
      mem.read(l.plane1_base + y * l.line_uv_stride + uint64_t{l.x_offset} * info.plane_bytes[1], line1.data(),
               line1.size());
    for (uint32_t x = 0; x < width; ++x)
      img.at(x, y) = unpack_pixel(f, line0.data() + size_t{x} * info.plane_bytes[0],
                                  info.planes == 2 ? line1.data() + size_t{x} * info.plane_bytes[1] : nullptr);
  }
  return img;
}

}  // namespace dla::formats
