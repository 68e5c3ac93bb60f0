// Sparse byte-addressed memory of 2^address_bits bytes (64 by default). Pages of 4 KiB are
// allocated on first write; bytes never written read as a poison pattern derived from the
// address and a seed, so a model that reads memory nobody initialised gets recognisable,
// reproducible garbage. Every address is taken modulo 2^address_bits, as a memory behind a
// narrower address bus sees it (a 32-bit configuration drops the bits above 32).
//
// Not thread-safe: reads update a one-entry page cache.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace dla {

class SparseMemory {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  explicit SparseMemory(uint64_t poison_seed = 0, unsigned address_bits = 64);
  SparseMemory(const SparseMemory& other);
  SparseMemory& operator=(const SparseMemory& other);
  SparseMemory(SparseMemory&& other) noexcept;
  SparseMemory& operator=(SparseMemory&& other) noexcept;
  ~SparseMemory() = default;

  // Writes wrap around the top of the address space (addr + n overflowing is allowed).
  void write(uint64_t addr, const uint8_t* data, size_t n);
  // Preload (test data, trace files): like write() but not part of the write footprint.
  void load(uint64_t addr, const uint8_t* data, size_t n);
  void load(uint64_t addr, const std::vector<uint8_t>& bytes) { load(addr, bytes.data(), bytes.size()); }
  // Writes byte i only where byte_enable[i] != 0.
  void write_masked(uint64_t addr, const uint8_t* data, size_t n, const uint8_t* byte_enable);
  void write(uint64_t addr, const std::vector<uint8_t>& bytes) { write(addr, bytes.data(), bytes.size()); }
  void read(uint64_t addr, uint8_t* out, size_t n) const;
  std::vector<uint8_t> read(uint64_t addr, size_t n) const;
  uint8_t read_byte(uint64_t addr) const;

  uint64_t poison_seed() const { return poison_seed_; }
  unsigned address_bits() const { return address_bits_; }
  uint8_t poison_byte(uint64_t addr) const;
  bool is_written(uint64_t addr) const;

  // Write footprint: bytes written since the last clear_footprint() (or construction).
  void clear_footprint();
  bool in_footprint(uint64_t addr) const;

  size_t page_count() const { return pages_.size(); }

  // Visit allocated pages in address order:
  // f(uint64_t page_base, const uint8_t* data /*kPageBytes*/, const uint8_t* written /*kPageBytes flags*/)
  template <class F>
  void for_each_page(F&& f) const {
    for (uint64_t page_no : sorted_page_numbers()) {
      const Page& p = *pages_.at(page_no);
      f(page_no * kPageBytes, p.data.data(), p.written.data());
    }
  }
  // Same with the footprint flags as a fourth argument.
  template <class F>
  void for_each_page_with_footprint(F&& f) const {
    for (uint64_t page_no : sorted_page_numbers()) {
      const Page& p = *pages_.at(page_no);
      f(page_no * kPageBytes, p.data.data(), p.written.data(), p.footprint.data());
    }
  }

 private:
  struct Page {
    std::array<uint8_t, kPageBytes> data;
    std::array<uint8_t, kPageBytes> written;
    std::array<uint8_t, kPageBytes> footprint;
  };

  void store(uint64_t addr, const uint8_t* data, size_t n, bool mark_footprint);
  const Page* find_page(uint64_t page_no) const;
  Page& page_for_write(uint64_t page_no);
  std::vector<uint64_t> sorted_page_numbers() const;

  uint64_t wrap(uint64_t addr) const { return addr & address_mask_; }

  uint64_t poison_seed_;
  unsigned address_bits_;
  uint64_t address_mask_;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  // One-entry lookup cache: consecutive accesses mostly hit the same page.
  mutable uint64_t cached_page_no_ = 0;
  mutable Page* cached_page_ = nullptr;
};

}  // namespace dla
