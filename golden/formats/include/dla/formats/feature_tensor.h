#pragma once
// A small dense tensor of W x H x C x N elements of 1 or 2 bytes, held as raw bit patterns
// (int8 as its byte, int16/fp16 as the 16-bit little-endian word). Channel-fastest storage
// (N, H, W, C order) so one atom's lanes are contiguous.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dla::formats {

struct CubeShape {
  uint32_t w = 1, h = 1, c = 1, n = 1;
  uint64_t elements() const { return uint64_t{w} * h * c * n; }
  bool operator==(const CubeShape& o) const { return w == o.w && h == o.h && c == o.c && n == o.n; }
  std::string str() const;  // "WxHxC" or "WxHxCxN"
};

class FeatureTensor {
 public:
  // Throws std::invalid_argument for a zero dimension or an element size other than 1 or 2.
  FeatureTensor(CubeShape shape, unsigned elem_bytes);

  const CubeShape& shape() const { return shape_; }
  unsigned elem_bytes() const { return elem_bytes_; }

  size_t byte_offset(uint32_t w, uint32_t h, uint32_t c, uint32_t n = 0) const {
    return ((((size_t{n} * shape_.h + h) * shape_.w + w) * shape_.c) + c) * elem_bytes_;
  }
  // Element bits; bounds-checked (std::out_of_range names the coordinate).
  uint16_t get(uint32_t w, uint32_t h, uint32_t c, uint32_t n = 0) const;
  void set(uint32_t w, uint32_t h, uint32_t c, uint32_t n, uint16_t bits);
  void set(uint32_t w, uint32_t h, uint32_t c, uint16_t bits) { set(w, h, c, 0, bits); }

  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }
  size_t size_bytes() const { return bytes_.size(); }

  bool operator==(const FeatureTensor& o) const {
    return shape_ == o.shape_ && elem_bytes_ == o.elem_bytes_ && bytes_ == o.bytes_;
  }
  bool operator!=(const FeatureTensor& o) const { return !(*this == o); }

 private:
  void check(uint32_t w, uint32_t h, uint32_t c, uint32_t n) const;
  CubeShape shape_;
  unsigned elem_bytes_;
  std::vector<uint8_t> bytes_;
};

}  // namespace dla::formats
