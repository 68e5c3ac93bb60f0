#pragma once
// Copy values and bytes between the BFM snapshots and Verilated ports of any width
// (CData/SData/IData/QData or VlWide<N>). Byte i is port bits [8i+7:8i].
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "verilated.h"

namespace dla::tb::port {

template <class T>
using Bare = std::remove_cv_t<std::remove_reference_t<T>>;

// Number of bytes a port's storage holds (exact for power-of-two widths of 8 bits or more).
template <class T>
constexpr size_t storage_bytes() {
  return sizeof(Bare<T>);
}

template <class T>
uint64_t value(const T& p) {
  static_assert(std::is_integral_v<T>, "scalar Verilated port expected");
  return static_cast<uint64_t>(p);
}
template <std::size_t N>
uint64_t value(const VlWide<N>& p) {
  return static_cast<uint64_t>(p.m_storage[0]) | (N > 1 ? static_cast<uint64_t>(p.m_storage[N > 1 ? 1 : 0]) << 32 : 0);
}

template <class T>
void set(T& p, uint64_t v) {
  static_assert(std::is_integral_v<T>, "scalar Verilated port expected");
  p = static_cast<T>(v);
}

template <class T>
void to_bytes(const T& p, uint8_t* out, size_t n) {
  static_assert(std::is_integral_v<T>, "scalar Verilated port expected");
  const uint64_t v = static_cast<uint64_t>(p);
  for (size_t i = 0; i < n && i < sizeof(T); ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}
template <std::size_t N>
void to_bytes(const VlWide<N>& p, uint8_t* out, size_t n) {
  if (n > 4 * N) n = 4 * N;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(out, p.m_storage, n);  // words are little-endian: byte order matches bit order
#else
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(p.m_storage[i / 4] >> (8 * (i % 4)));
#endif
}

template <class T>
void from_bytes(T& p, const uint8_t* in, size_t n) {
  static_assert(std::is_integral_v<T>, "scalar Verilated port expected");
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < sizeof(T); ++i) v |= static_cast<uint64_t>(in[i]) << (8 * i);
  p = static_cast<T>(v);
}
template <std::size_t N>
void from_bytes(VlWide<N>& p, const uint8_t* in, size_t n) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (n >= 4 * N) {
    std::memcpy(p.m_storage, in, 4 * N);
    return;
  }
#endif
  for (size_t w = 0; w < N; ++w) {
    EData word = 0;
    for (size_t b = 0; b < 4 && 4 * w + b < n; ++b) word |= static_cast<EData>(in[4 * w + b]) << (8 * b);
    p.m_storage[w] = word;
  }
}

}  // namespace dla::tb::port
