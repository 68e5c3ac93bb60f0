#include "dla/trace_crc32.h"

#include <algorithm>
#include <array>
#include <vector>

namespace dla::trace {

namespace {

std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    t[i] = c;
  }
  return t;
}

const std::array<uint32_t, 256>& table() {
  static const std::array<uint32_t, 256> t = make_table();
  return t;
}

}  // namespace

uint32_t crc32(const uint8_t* data, size_t n, uint32_t previous) {
  const auto& t = table();
  uint32_t c = previous ^ 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = t[(c ^ data[i]) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t crc32(const SparseMemory& mem, uint64_t addr, uint64_t size) {
  constexpr uint64_t kChunk = 64 * 1024;
  std::vector<uint8_t> buf(static_cast<size_t>(std::min(size, kChunk)));
  uint32_t crc = 0;
  while (size > 0) {
    const size_t n = static_cast<size_t>(std::min(size, kChunk));
    mem.read(addr, buf.data(), n);
    crc = crc32(buf.data(), n, crc);
    addr += n;
    size -= n;
  }
  return crc;
}

}  // namespace dla::trace
