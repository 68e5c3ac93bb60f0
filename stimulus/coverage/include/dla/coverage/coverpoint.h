// A coverpoint: named bins over an integer value. Normal bins must not overlap one another;
// ignore and illegal bins may overlap them and win (a value in an ignore bin is not counted,
// a value in an illegal bin is counted there and reported as an error).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dla::cov {

enum class BinKind { Normal, Ignore, Illegal };
const char* bin_kind_name(BinKind k);
// "normal" | "ignore" | "illegal"; std::invalid_argument otherwise.
BinKind bin_kind_from_name(const std::string& s);

struct Bin {
  std::string name;
  BinKind kind = BinKind::Normal;
  int64_t lo = 0, hi = 0;  // inclusive
  uint64_t hits = 0;
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
};

class Coverpoint {
 public:
  explicit Coverpoint(std::string name);

  // Bin builders; each throws std::invalid_argument naming the coverpoint and the bin when
  // the name repeats, lo > hi, or a normal bin overlaps another normal bin.
  Coverpoint& bin(const std::string& name, int64_t value) { return bin(name, value, value); }
  Coverpoint& bin(const std::string& name, int64_t lo, int64_t hi);
  // Splits [lo, hi] into `count` contiguous normal bins named "prefix[a:b]" (or "prefix[a]").
  Coverpoint& bins(const std::string& prefix, int64_t lo, int64_t hi, unsigned count);
  Coverpoint& ignore(const std::string& name, int64_t lo, int64_t hi);
  Coverpoint& illegal(const std::string& name, int64_t lo, int64_t hi);

  // Bin index of `v` (illegal, then ignore, then normal bins); nullopt: no bin has it.
  std::optional<size_t> find(int64_t v) const;
  // Counts `v`; returns the bin index it landed in.
  std::optional<size_t> sample(int64_t v);

  const std::string& name() const { return name_; }
  const std::vector<Bin>& bins() const { return bins_; }
  // Names of the normal bins, in declaration order (crosses are built over these).
  std::vector<std::string> normal_bin_names() const;
  // Position of bin `index` among the normal bins (nullopt for ignore/illegal bins).
  std::optional<size_t> normal_position(size_t index) const;

 private:
  Coverpoint& add(const std::string& name, BinKind kind, int64_t lo, int64_t hi);
  std::string name_;
  std::vector<Bin> bins_;
};

}  // namespace dla::cov
