#include "dla/numerics/precision_convert.h"

#include "dla/numerics/float_convert.h"
#include "dla/numerics/integer_ops.h"

namespace dla::num {

int32_t PixelConverter::to_int17(int32_t p) const {
  const int64_t prod = (int64_t{p} - offset) * scale;  // 18-bit difference x 16-bit scale
  return static_cast<int32_t>(sat(rha(prod, truncate), 17));
}
int8_t PixelConverter::to_int8(int32_t p) const { return static_cast<int8_t>(sat(to_int17(p), 8)); }
int16_t PixelConverter::to_int16(int32_t p) const {
  return static_cast<int16_t>(sat(to_int17(p), 16));
}
uint16_t PixelConverter::to_fp16(int32_t p) const { return int17_to_fp16_ieee(to_int17(p)); }

int32_t SdpOutputConverter::to_int17(int64_t z) const {
  const OffsetScaleShift cvt{offset, scale, shift, 17};
  return static_cast<int32_t>(cvt(z));
}
int8_t SdpOutputConverter::to_int8(int64_t z) const {
  return static_cast<int8_t>(sat(to_int17(z), 8));
}
int16_t SdpOutputConverter::to_int16(int64_t z) const {
  return static_cast<int16_t>(sat(to_int17(z), 16));
}
uint16_t SdpOutputConverter::to_fp16(int64_t z) const {
  return int17_to_fp16_saturating(to_int17(z));
}
bool SdpOutputConverter::saturated(int64_t z) const {
  return sdp_cvt_saturation_flag((z - offset) * scale, shift);
}

}  // namespace dla::num
