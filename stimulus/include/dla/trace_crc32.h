// CRC-32 as NVDLA's check_crc computes it: CRC-32/ISO-HDLC (zlib, Ethernet, PNG), reflected
// polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF, bytes in ascending address
// order. crc32("123456789") == 0xCBF43926.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dla/sparse_memory.h"

namespace dla::trace {

// `previous` continues an earlier CRC (zlib convention: crc32(b, crc32(a)) == crc32(a+b)).
uint32_t crc32(const uint8_t* data, size_t n, uint32_t previous = 0);
// CRC of `size` bytes of `mem` from `addr` (never-written bytes count as the memory reads them).
uint32_t crc32(const SparseMemory& mem, uint64_t addr, uint64_t size);

}  // namespace dla::trace
