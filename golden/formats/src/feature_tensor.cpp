#include "dla/formats/feature_tensor.h"

#include <fmt/format.h>
#include <stdexcept>

namespace dla::formats {

std::string CubeShape::str() const {
  return n == 1 ? ::fmt::format("{}x{}x{}", w, h, c) : ::fmt::format("{}x{}x{}x{}", w, h, c, n);
}

FeatureTensor::FeatureTensor(CubeShape shape, unsigned elem_bytes) : shape_(shape), elem_bytes_(elem_bytes) {
  if (shape.w == 0 || shape.h == 0 || shape.c == 0 || shape.n == 0)
    throw std::invalid_argument("FeatureTensor: every dimension must be >= 1, got " + shape.str());
  if (elem_bytes != 1 && elem_bytes != 2)
    throw std::invalid_argument(::fmt::format("FeatureTensor: element size must be 1 or 2 bytes, got {}", elem_bytes));
  bytes_.assign(shape.elements() * elem_bytes, 0);
}

void FeatureTensor::check(uint32_t w, uint32_t h, uint32_t c, uint32_t n) const {
  if (w >= shape_.w || h >= shape_.h || c >= shape_.c || n >= shape_.n)
    throw std::out_of_range(::fmt::format("FeatureTensor: element (w={}, h={}, c={}, n={}) outside {}", w, h,
                                          c, n, shape_.str()));
}

uint16_t FeatureTensor::get(uint32_t w, uint32_t h, uint32_t c, uint32_t n) const {
  check(w, h, c, n);
  const uint8_t* p = bytes_.data() + byte_offset(w, h, c, n);
  return elem_bytes_ == 1 ? p[0] : static_cast<uint16_t>(p[0] | (p[1] << 8));
}

void FeatureTensor::set(uint32_t w, uint32_t h, uint32_t c, uint32_t n, uint16_t bits) {
  check(w, h, c, n);
  if (elem_bytes_ == 1 && bits > 0xFF)
    throw std::out_of_range(::fmt::format("FeatureTensor: value {:#x} does not fit a 1-byte element", bits));
  uint8_t* p = bytes_.data() + byte_offset(w, h, c, n);
  p[0] = static_cast<uint8_t>(bits);
  if (elem_bytes_ == 2) p[1] = static_cast<uint8_t>(bits >> 8);
}

}  // namespace dla::formats
