#pragma once
// Pitch-linear pixel formats of CDMA image mode (seed "Pixel Format", conv.md §5.1-5.2):
// format table, pixel <-> component unpacking, and image <-> memory with X offset.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dla/formats/byte_memory.h"
#include "dla/hwconfig.h"

namespace dla::formats {

// Codes of CDMA D_DATAIN_FORMAT.PIXEL_FORMAT.
enum class PixelFormat : uint8_t {
  T_R8, T_R10, T_R12, T_R16, T_R16_I, T_R16_F, T_A16B16G16R16, T_X16B16G16R16, T_A16B16G16R16_F,
  T_A16Y16U16V16, T_V16U16Y16A16, T_A16Y16U16V16_F, T_A8B8G8R8, T_A8R8G8B8, T_B8G8R8A8, T_R8G8B8A8,
  T_X8B8G8R8, T_X8R8G8B8, T_B8G8R8X8, T_R8G8B8X8, T_A2B10G10R10, T_A2R10G10B10, T_B10G10R10A2,
  T_R10G10B10A2, T_A2Y10U10V10, T_V10U10Y10A2, T_A8Y8U8V8, T_V8U8Y8A8, T_Y8___U8V8_N444,
  T_Y8___V8U8_N444, T_Y10___U10V10_N444, T_Y10___V10U10_N444, T_Y12___U12V12_N444,
  T_Y12___V12U12_N444, T_Y16___U16V16_N444, T_Y16___V16U16_N444
};
inline constexpr unsigned kPixelFormatCount = 36;

struct PixelFormatInfo {
  PixelFormat format;
  const char* name;
  unsigned planes;             // 1 or 2 (semi-planar)
  unsigned plane_bytes[2];     // bytes per pixel in plane 0 and plane 1 (0: no plane 1)
  unsigned channels;           // 1, 3 or 4 (DATAIN_CHANNEL + 1)
  Precision precision;         // required IN_PRECISION
};

const PixelFormatInfo& pixel_format_info(PixelFormat f);  // throws for an unknown code
std::optional<PixelFormat> pixel_format_from_name(std::string_view name);
// Largest legal X offset: atom / bytes-per-pixel(plane 0) - 1 (seed: 0~31, 0~15, 0~7, 0~3 for 32 B).
unsigned max_x_offset(PixelFormat f, unsigned atom_bytes = 32);

// Components 0..3 (R/Y, G/U, B/V, A/X) as raw 16-bit patterns; unused components are 0.
using PixelComponents = std::array<uint16_t, 4>;

// plane1 may be null for 1-plane formats.
PixelComponents unpack_pixel(PixelFormat f, const uint8_t* plane0, const uint8_t* plane1);
// Inverse; throws std::invalid_argument if a component is not representable (e.g. a 10-bit
// packed component that is not a multiple of 64, or an 8-bit component above 255).
void pack_pixel(PixelFormat f, const PixelComponents& c, uint8_t* plane0, uint8_t* plane1);

// Integer value of a component as CDMA reads it: unsigned unless PIXEL_SIGN_OVERRIDE = 1
// (two's complement of the 8- or 16-bit element). Throws for fp16 formats.
int32_t component_value(PixelFormat f, uint16_t bits, bool sign_override);

struct PixelImage {
  uint32_t width = 0, height = 0;
  PixelFormat format = PixelFormat::T_R8;
  std::vector<PixelComponents> pixels;  // row-major, width * height

  PixelImage() = default;
  PixelImage(uint32_t w, uint32_t h, PixelFormat f) : width(w), height(h), format(f), pixels(size_t{w} * h) {}
  PixelComponents& at(uint32_t x, uint32_t y) { return pixels[size_t{y} * width + x]; }
  const PixelComponents& at(uint32_t x, uint32_t y) const { return pixels[size_t{y} * width + x]; }
  bool operator==(const PixelImage& o) const {
    return width == o.width && height == o.height && format == o.format && pixels == o.pixels;
  }
};

// Image pixel (x, y) is memory pixel x_offset + x of line y in each plane.
struct PixelLayout {
  uint64_t plane0_base = 0, line_stride = 0;
  uint64_t plane1_base = 0, line_uv_stride = 0;  // semi-planar formats only
  unsigned x_offset = 0;
  unsigned atom_bytes = 32;
};

// nullopt if usable; else the rule broken: plane bases and strides atom aligned (alignment
// table, pitch linear pixel), X offset range, stride >= (x_offset + W) * bytes per pixel.
std::optional<std::string> pixel_layout_violation(uint32_t width, uint32_t height, PixelFormat f,
                                                  const PixelLayout& l);
// Writes only the image pixels (the X-offset bytes and line tails are left alone).
void write_pixel_image(ByteSink& mem, const PixelImage& img, const PixelLayout& l);
PixelImage read_pixel_image(const ByteSource& mem, uint32_t width, uint32_t height, PixelFormat f,
                            const PixelLayout& l);

}  // namespace dla::formats
