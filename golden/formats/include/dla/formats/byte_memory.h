#pragma once
// Byte-addressed memory interfaces the format writers/readers target. Any memory model
// with write(addr, data, n) / read(addr, out, n) (e.g. dla::SparseMemory) plugs in through
// MemoryAdaptor without this library depending on it.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dla::formats {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(uint64_t addr, const uint8_t* data, size_t n) = 0;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual void read(uint64_t addr, uint8_t* out, size_t n) const = 0;
};

// Adapts any object with matching write/read member functions.
template <class Memory>
class MemoryAdaptor final : public ByteSink, public ByteSource {
 public:
  explicit MemoryAdaptor(Memory& m) : mem_(m) {}
  void write(uint64_t addr, const uint8_t* data, size_t n) override { mem_.write(addr, data, n); }
  void read(uint64_t addr, uint8_t* out, size_t n) const override { mem_.read(addr, out, n); }

 private:
  Memory& mem_;
};

// A flat window [base, base + size) of memory; accesses outside it throw std::out_of_range
// naming the address. Used by tests, benchmarks and tools.
class VectorMemory final : public ByteSink, public ByteSource {
 public:
  VectorMemory(uint64_t base, size_t size, uint8_t fill = 0);
  void write(uint64_t addr, const uint8_t* data, size_t n) override;
  void read(uint64_t addr, uint8_t* out, size_t n) const override;
  uint64_t base() const { return base_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  size_t offset_of(uint64_t addr, size_t n, const char* what) const;
  uint64_t base_;
  std::vector<uint8_t> bytes_;
};

}  // namespace dla::formats
