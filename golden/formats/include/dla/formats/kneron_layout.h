#pragma once
// Kneron NPU tensor layouts (kneron_layouts.md, seeds/kneron_npu_data_layout.txt): per-chip
// legality, the fixed formulas of KL520 (family A) and KL630/KL720 (family B), the
// stride-driven KL730 layouts (family C) with outer-group fix-up, HL split and the 16-bit
// LSB rule, and fixed-point <-> float conversion.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dla::formats::kneron {

enum class Chip : uint8_t { KL520, KL530, KL630, KL720, KL730 };
enum class Family : uint8_t { A, B, C };  // A: KL520 (HCW), B: KL630/KL720 (CHW), C: KL730 (strides)
Family family_of(Chip c);
const char* chip_name(Chip c);

enum class Layout : uint8_t {
  k4W4C8B, k1W16C8B, k16W1C8B, k8W1C16B, k4W4C8BHL, k1W16C8BHL, k16W1C8BHL, k1W16C8B_CH_COMPACT,
  k1W16C8BHL_CH_COMPACT, RAW_8B, RAW_16B, RAW_FLOAT, PS_1W16C24B, HW1C8B, HW4C8B_KEEP_A, HW4C8B_DROP_A,
  HW1C16B_LE, HW1C16B_BE
};
inline constexpr unsigned kLayoutCount = 18;
const char* layout_name(Layout l);  // "4W4C8B", "1W16C8BHL_CH_COMPACT", ...
std::optional<Layout> layout_from_name(const std::string& name);

// How one element is stored.
enum class ElementKind : uint8_t { Int8, Int16LE, Int16BE, Int16HL, Float32 };
ElementKind element_kind(Layout l);  // PS_1W16C24B throws (unsupported)

// §4 legality table: I = documented input, O = documented output, o = accepted by the host
// output decoder only, e = code exists without documented use.
struct Legality {
  bool input = false, output = false, decoder_output = false, enum_only = false;
};
Legality legality(Chip c, Layout l);
enum class Direction : uint8_t { Input, Output };
// nullopt if the layout may be used in that direction on that chip (I / O / o), else a
// reason starting with "unsupported".
std::optional<std::string> usage_error(Chip c, Layout l, Direction d);

struct Shape {  // ONNX N x C x H x W
  uint32_t n = 1, c = 1, h = 1, w = 1;
  uint64_t elements() const { return uint64_t{n} * c * h * w; }
};

// Element placement of one tensor in one layout. Values are NCHW-ordered integers (int8 or
// int16 range) or floats for RAW_FLOAT.
class LayoutMap {
 public:
  // Families A and B: the fixed formulas of §2 (N must be 1). HL and RAW/HW layouts have no
  // public fixed formula on these chips and are rejected as unsupported.
  static LayoutMap fixed(Chip chip, Layout l, const Shape& s);
  // Family C: stride_npu[N, C, H, W] from the model, in the layout's base units (§3.1).
  static LayoutMap strided(Layout l, const Shape& s, const std::array<uint64_t, 4>& stride_npu);
  // Family C with the inferred canonical strides of §3.2.
  static std::array<uint64_t, 4> canonical_strides(Layout l, const Shape& s);
  static LayoutMap kl730_canonical(Layout l, const Shape& s) { return strided(l, s, canonical_strides(l, s)); }
  // Checks usage_error first, then builds the map for the chip's family.
  static LayoutMap for_chip(Chip chip, Layout l, Direction d, const Shape& s);

  Layout layout() const { return layout_; }
  const Shape& shape() const { return shape_; }
  uint64_t size_bytes() const { return size_bytes_; }
  // Byte address(es) of element (n, c, h, w): [0] = first/low byte; for HL [1] = high byte.
  std::array<uint64_t, 2> byte_address(uint32_t n, uint32_t c, uint32_t h, uint32_t w) const;

  // Buffer of size_bytes(), zero padding. Values outside the element range throw; 16-bit
  // values lose bit 0 on KL730 (LSB rule) and in HL layouts.
  std::vector<uint8_t> encode(const std::vector<int32_t>& nchw) const;
  std::vector<int32_t> decode(const std::vector<uint8_t>& bytes) const;
  std::vector<uint8_t> encode_float(const std::vector<float>& nchw) const;  // RAW_FLOAT only
  std::vector<float> decode_float(const std::vector<uint8_t>& bytes) const;

 private:
  LayoutMap(Layout l, const Shape& s) : layout_(l), shape_(s) {}
  uint64_t virtual_index(uint32_t n, uint32_t c, uint32_t h, uint32_t w) const;
  Layout layout_;
  Shape shape_;
  Family family_ = Family::C;
  Chip chip_ = Chip::KL730;
  std::array<uint64_t, 4> stride_{};
  uint64_t group_stride_ = 0;  // outer-group fix-up G (0: none)
  bool mask_lsb_ = false;      // KL730 16-bit LSB rule
  uint64_t size_bytes_ = 0;
};

// §5 quantization. Descriptors run along the channel axis (one entry = per layer; a single
// radix is broadcast over per-channel scales).
struct Quantization {
  std::vector<int> radix{0};
  std::vector<double> scale{1.0};
};
enum class Rounding : uint8_t { HalfEven /*current vendor flow*/, HalfAwayFromZero /*older C examples*/ };
// q = saturate(round(x * 2^radix * scale)) to 8 or 16 bits; clear_lsb applies the KL730
// 16-bit rule (after rounding, never re-rounded).
int32_t quantize(double x, int radix, double scale, unsigned bits, Rounding r = Rounding::HalfEven, bool clear_lsb = false);
double dequantize(int32_t q, int radix, double scale);  // q / (2^radix * scale)
// Whole NCHW tensors with per-channel descriptors.
std::vector<int32_t> quantize_tensor(const std::vector<float>& x, const Shape& s, const Quantization& q, unsigned bits,
                                     Rounding r = Rounding::HalfEven, bool clear_lsb = false);
std::vector<float> dequantize_tensor(const std::vector<int32_t>& q, const Shape& s, const Quantization& qp);

}  // namespace dla::formats::kneron
