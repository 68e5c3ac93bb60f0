#include "dla/sparse_memory.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace dla {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr uint64_t kOffsetMask = SparseMemory::kPageBytes - 1;

}  // namespace

SparseMemory::SparseMemory(uint64_t poison_seed, unsigned address_bits)
    : poison_seed_(poison_seed),
      address_bits_(address_bits),
      address_mask_(address_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << address_bits) - 1) {
  if (address_bits < 12 || address_bits > 64)
    throw std::invalid_argument("SparseMemory: address_bits must be 12..64, got " + std::to_string(address_bits));
}

SparseMemory::SparseMemory(const SparseMemory& other)
    : poison_seed_(other.poison_seed_), address_bits_(other.address_bits_), address_mask_(other.address_mask_) {
  for (const auto& [no, page] : other.pages_) pages_.emplace(no, std::make_unique<Page>(*page));
}

SparseMemory& SparseMemory::operator=(const SparseMemory& other) {
  if (this != &other) *this = SparseMemory(other);
  return *this;
}

SparseMemory::SparseMemory(SparseMemory&& other) noexcept
    : poison_seed_(other.poison_seed_),
      address_bits_(other.address_bits_),
      address_mask_(other.address_mask_),
      pages_(std::move(other.pages_)) {
  other.pages_.clear();
  other.cached_page_ = nullptr;
}

SparseMemory& SparseMemory::operator=(SparseMemory&& other) noexcept {
  if (this != &other) {
    poison_seed_ = other.poison_seed_;
    address_bits_ = other.address_bits_;
    address_mask_ = other.address_mask_;
    pages_ = std::move(other.pages_);
    other.pages_.clear();
    other.cached_page_ = nullptr;
    cached_page_ = nullptr;
  }
  return *this;
}

uint8_t SparseMemory::poison_byte(uint64_t addr) const {
  // One 64-bit hash per aligned 8-byte word; the byte lane picks one of its bytes.
  addr = wrap(addr);
  const uint64_t word = splitmix64((addr & ~uint64_t{7}) ^ splitmix64(poison_seed_));
  return static_cast<uint8_t>(word >> (8 * (addr & 7)));
}

const SparseMemory::Page* SparseMemory::find_page(uint64_t page_no) const {
  if (cached_page_ && cached_page_no_ == page_no) return cached_page_;
  const auto it = pages_.find(page_no);
  if (it == pages_.end()) return nullptr;
  cached_page_no_ = page_no;
  cached_page_ = it->second.get();
  return cached_page_;
}

SparseMemory::Page& SparseMemory::page_for_write(uint64_t page_no) {
  if (cached_page_ && cached_page_no_ == page_no) return *cached_page_;
  auto& slot = pages_[page_no];
  if (!slot) {
    slot = std::make_unique<Page>();
    // Same pattern as poison_byte(), one hash per 8-byte word (pages are word aligned).
    const uint64_t base = page_no * kPageBytes;
    const uint64_t seed_hash = splitmix64(poison_seed_);
    for (uint64_t i = 0; i < kPageBytes; i += 8) {
      const uint64_t word = splitmix64((base + i) ^ seed_hash);
      for (unsigned b = 0; b < 8; ++b) slot->data[i + b] = static_cast<uint8_t>(word >> (8 * b));
    }
    slot->written.fill(0);
    slot->footprint.fill(0);
  }
  cached_page_no_ = page_no;
  cached_page_ = slot.get();
  return *slot;
}

void SparseMemory::write(uint64_t addr, const uint8_t* data, size_t n) { store(addr, data, n, true); }

void SparseMemory::load(uint64_t addr, const uint8_t* data, size_t n) { store(addr, data, n, false); }

void SparseMemory::store(uint64_t addr, const uint8_t* data, size_t n, bool mark_footprint) {
  while (n > 0) {
    addr = wrap(addr);  // a page never straddles the wrap point
    const uint64_t off = addr & kOffsetMask;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPageBytes - off));
    Page& p = page_for_write(addr / kPageBytes);
    std::memcpy(p.data.data() + off, data, chunk);
    std::memset(p.written.data() + off, 1, chunk);
    if (mark_footprint) std::memset(p.footprint.data() + off, 1, chunk);
    addr += chunk;
    data += chunk;
    n -= chunk;
  }
}

void SparseMemory::write_masked(uint64_t addr, const uint8_t* data, size_t n,
                                const uint8_t* byte_enable) {
  size_t i = 0;
  while (i < n) {
    while (i < n && byte_enable[i] == 0) ++i;  // skip disabled lanes without allocating
    size_t j = i;
    while (j < n && byte_enable[j] != 0) ++j;
    if (j > i) write(addr + i, data + i, j - i);
    i = j;
  }
}

void SparseMemory::read(uint64_t addr, uint8_t* out, size_t n) const {
  while (n > 0) {
    addr = wrap(addr);
    const uint64_t off = addr & kOffsetMask;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPageBytes - off));
    if (const Page* p = find_page(addr / kPageBytes)) {
      std::memcpy(out, p->data.data() + off, chunk);
    } else {
      for (size_t i = 0; i < chunk; ++i) out[i] = poison_byte(addr + i);
    }
    addr += chunk;
    out += chunk;
    n -= chunk;
  }
}

std::vector<uint8_t> SparseMemory::read(uint64_t addr, size_t n) const {
  std::vector<uint8_t> v(n);
  read(addr, v.data(), n);
  return v;
}

uint8_t SparseMemory::read_byte(uint64_t addr) const {
  addr = wrap(addr);
  const Page* p = find_page(addr / kPageBytes);
  return p ? p->data[addr & kOffsetMask] : poison_byte(addr);
}

bool SparseMemory::is_written(uint64_t addr) const {
  addr = wrap(addr);
  const Page* p = find_page(addr / kPageBytes);
  return p && p->written[addr & kOffsetMask] != 0;
}

void SparseMemory::clear_footprint() {
  for (auto& kv : pages_) kv.second->footprint.fill(0);
}

bool SparseMemory::in_footprint(uint64_t addr) const {
  addr = wrap(addr);
  const Page* p = find_page(addr / kPageBytes);
  return p && p->footprint[addr & kOffsetMask] != 0;
}

std::vector<uint64_t> SparseMemory::sorted_page_numbers() const {
  std::vector<uint64_t> nos;
  nos.reserve(pages_.size());
  for (const auto& kv : pages_) nos.push_back(kv.first);
  std::sort(nos.begin(), nos.end());
  return nos;
}

}  // namespace dla
