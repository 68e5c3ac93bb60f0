#include "dla/formats/byte_memory.h"

#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

namespace dla::formats {

VectorMemory::VectorMemory(uint64_t base, size_t size, uint8_t fill) : base_(base), bytes_(size, fill) {}

size_t VectorMemory::offset_of(uint64_t addr, size_t n, const char* what) const {
  if (addr < base_ || addr - base_ > bytes_.size() || n > bytes_.size() - (addr - base_))
    throw std::out_of_range(::fmt::format("VectorMemory::{}: [{:#x}, {:#x}) is outside the window "
                                          "[{:#x}, {:#x})",
                                          what, addr, addr + n, base_, base_ + bytes_.size()));
  return static_cast<size_t>(addr - base_);
}

void VectorMemory::write(uint64_t addr, const uint8_t* data, size_t n) {
  if (n) std::memcpy(bytes_.data() + offset_of(addr, n, "write"), data, n);
}

void VectorMemory::read(uint64_t addr, uint8_t* out, size_t n) const {
  if (n) std::memcpy(out, bytes_.data() + offset_of(addr, n, "read"), n);
}

}  // namespace dla::formats
