#pragma once
// The seed's precision-conversion equations (nvdla_in_memory_formats.rst, "Equation 1" and
// "Equation 3") made exact with the rounding and widths of the units that implement them.
#include <cstdint>

namespace dla::num {

// Pixel conversion in CDMA image mode (conv.md §5.3):
//   z = sat_17( rha((p - offset) * scale, truncate) )
// p: the component value (already zero- or sign-extended), offset/scale: signed 16-bit
// register values (offset = CVT_OFFSET or the per-component mean), truncate: 0..63.
struct PixelConverter {
  int32_t offset = 0;
  int32_t scale = 1;
  unsigned truncate = 0;

  int32_t to_int17(int32_t p) const;
  int8_t to_int8(int32_t p) const;    // sat_8(z)
  int16_t to_int16(int32_t p) const;  // sat_16(z)
  uint16_t to_fp16(int32_t p) const;  // IEEE-like RNE, may give +-Inf (conv.md §5.3)
};

// Integer precision change in SDP's output converter (sdp.md §9.1):
//   t = sat_17( rha((z - offset) * scale, shift) )
// z: 32-bit pipeline value, offset: 32-bit signed, scale: 16-bit signed, shift 0..63.
struct SdpOutputConverter {
  int64_t offset = 0;
  int32_t scale = 1;
  unsigned shift = 0;

  int32_t to_int17(int64_t z) const;
  int8_t to_int8(int64_t z) const;     // int16 -> int8 of the seed's Equation 3
  int16_t to_int16(int64_t z) const;   // int8 -> int16 of the seed's Equation 3
  uint16_t to_fp16(int64_t z) const;   // INT17->FP16, saturating (sdp.md §3.2)
  bool saturated(int64_t z) const;     // D_PERF_OUT_SATURATION flag (v1 rule)
};

}  // namespace dla::num
