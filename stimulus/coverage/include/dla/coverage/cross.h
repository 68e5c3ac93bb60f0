// A cross: one bin per combination of the normal bins of two or more coverpoints. Some
// combinations can be declared ignore (impossible or uninteresting) or illegal (an error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dla/coverage/coverpoint.h"

namespace dla::cov {

class Cross {
 public:
  // `points`: the coverpoints crossed, with their bins already declared.
  Cross(std::string name, std::vector<const Coverpoint*> points);

  // Marks every combination matching `pattern` (one bin name per crossed coverpoint, "*"
  // matches any) as ignore / illegal. std::invalid_argument naming the cross when the pattern
  // has the wrong length, names an unknown bin or matches nothing.
  Cross& ignore(const std::vector<std::string>& pattern) { return mark(pattern, BinKind::Ignore); }
  Cross& illegal(const std::vector<std::string>& pattern) { return mark(pattern, BinKind::Illegal); }

  // Counts one combination given by each coverpoint's normal-bin position.
  // Returns the combination's kind.
  BinKind sample(const std::vector<size_t>& normal_positions);

  const std::string& name() const { return name_; }
  const std::vector<std::string>& point_names() const { return point_names_; }
  // Bins named "binA,binB,...", in row-major order of the crossed coverpoints.
  const std::vector<Bin>& bins() const { return bins_; }

 private:
  Cross& mark(const std::vector<std::string>& pattern, BinKind kind);
  size_t index_of(const std::vector<size_t>& positions) const;
  std::string name_;
  std::vector<std::string> point_names_;
  std::vector<std::vector<std::string>> axis_bins_;
  std::vector<Bin> bins_;
};

}  // namespace dla::cov
