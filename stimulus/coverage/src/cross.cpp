#include "dla/coverage/cross.h"

#include <algorithm>
#include <stdexcept>

namespace dla::cov {

Cross::Cross(std::string name, std::vector<const Coverpoint*> points) : name_(std::move(name)) {
  if (points.size() < 2) throw std::invalid_argument("cross '" + name_ + "' needs at least two coverpoints");
  size_t total = 1;
  for (const Coverpoint* p : points) {
    point_names_.push_back(p->name());
    axis_bins_.push_back(p->normal_bin_names());
    if (axis_bins_.back().empty())
      throw std::invalid_argument("cross '" + name_ + "': coverpoint '" + p->name() + "' has no normal bins");
    total *= axis_bins_.back().size();
  }
  bins_.resize(total);
  for (size_t i = 0; i < total; ++i) {
    size_t rest = i;
    std::string n;
    for (size_t a = axis_bins_.size(); a-- > 0;) {
      const auto& axis = axis_bins_[a];
      n = axis[rest % axis.size()] + (n.empty() ? "" : "," + n);
      rest /= axis.size();
    }
    bins_[i].name = n;
  }
}

size_t Cross::index_of(const std::vector<size_t>& positions) const {
  size_t i = 0;
  for (size_t a = 0; a < axis_bins_.size(); ++a) i = i * axis_bins_[a].size() + positions.at(a);
  return i;
}

Cross& Cross::mark(const std::vector<std::string>& pattern, BinKind kind) {
  if (pattern.size() != axis_bins_.size())
    throw std::invalid_argument("cross '" + name_ + "': a pattern needs " + std::to_string(axis_bins_.size()) +
                                " bin names, got " + std::to_string(pattern.size()));
  std::vector<std::vector<size_t>> choices(pattern.size());
  for (size_t a = 0; a < pattern.size(); ++a) {
    const auto& axis = axis_bins_[a];
    for (size_t b = 0; b < axis.size(); ++b)
      if (pattern[a] == "*" || pattern[a] == axis[b]) choices[a].push_back(b);
    if (choices[a].empty())
      throw std::invalid_argument("cross '" + name_ + "': coverpoint '" + point_names_[a] + "' has no bin '" +
                                  pattern[a] + "'");
  }
  std::vector<size_t> at(pattern.size(), 0);
  while (true) {
    std::vector<size_t> pos(pattern.size());
    for (size_t a = 0; a < pattern.size(); ++a) pos[a] = choices[a][at[a]];
    bins_[index_of(pos)].kind = kind;
    size_t a = pattern.size();
    while (a-- > 0) {
      if (++at[a] < choices[a].size()) break;
      at[a] = 0;
    }
    if (a == static_cast<size_t>(-1)) break;
  }
  return *this;
}

BinKind Cross::sample(const std::vector<size_t>& normal_positions) {
  Bin& b = bins_[index_of(normal_positions)];
  ++b.hits;  // ignore bins count too (shown, never part of the percentage)
  return b.kind;
}

}  // namespace dla::cov
