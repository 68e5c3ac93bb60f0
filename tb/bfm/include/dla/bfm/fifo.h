#pragma once
// FIFO on a ring buffer that only allocates when it grows past its high-water mark, so the
// per-cycle paths of the BFMs do not allocate in steady state.
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace dla::tb {

template <class T>
class Fifo {
 public:
  explicit Fifo(size_t initial_capacity = 16) : slots_(initial_capacity < 1 ? 1 : initial_capacity) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  void push(const T& v) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) % slots_.size()] = v;
    ++size_;
  }
  T& front() {
    check_nonempty();
    return slots_[head_];
  }
  const T& front() const {
    check_nonempty();
    return slots_[head_];
  }
  // i-th element from the front (0 = front).
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("Fifo::at: index beyond size");
    return slots_[(head_ + i) % slots_.size()];
  }
  void pop() {
    check_nonempty();
    head_ = (head_ + 1) % slots_.size();
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  void check_nonempty() const {
    if (size_ == 0) throw std::logic_error("Fifo: access to an empty FIFO");
  }
  void grow() {
    std::vector<T> bigger(slots_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = slots_[(head_ + i) % slots_.size()];
    slots_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> slots_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace dla::tb
