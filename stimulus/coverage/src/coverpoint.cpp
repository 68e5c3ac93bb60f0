#include "dla/coverage/coverpoint.h"

#include <stdexcept>

namespace dla::cov {

const char* bin_kind_name(BinKind k) {
  switch (k) {
    case BinKind::Normal: return "normal";
    case BinKind::Ignore: return "ignore";
    case BinKind::Illegal: return "illegal";
  }
  return "?";
}

BinKind bin_kind_from_name(const std::string& s) {
  if (s == "normal") return BinKind::Normal;
  if (s == "ignore") return BinKind::Ignore;
  if (s == "illegal") return BinKind::Illegal;
  throw std::invalid_argument("bin kind '" + s + "' is not normal, ignore or illegal");
}

Coverpoint::Coverpoint(std::string name) : name_(std::move(name)) {
  if (name_.empty()) throw std::invalid_argument("a coverpoint needs a name");
}

Coverpoint& Coverpoint::add(const std::string& name, BinKind kind, int64_t lo, int64_t hi) {
  const std::string where = "coverpoint '" + name_ + "' bin '" + name + "'";
  if (name.empty()) throw std::invalid_argument("coverpoint '" + name_ + "': a bin needs a name");
  if (lo > hi) throw std::invalid_argument(where + ": range low end is above the high end");
  for (const Bin& b : bins_) {
    if (b.name == name) throw std::invalid_argument(where + " is declared twice");
    if (kind == BinKind::Normal && b.kind == BinKind::Normal && lo <= b.hi && b.lo <= hi)
      throw std::invalid_argument(where + " overlaps normal bin '" + b.name + "'");
  }
  bins_.push_back(Bin{name, kind, lo, hi, 0});
  return *this;
}

Coverpoint& Coverpoint::bin(const std::string& name, int64_t lo, int64_t hi) {
  return add(name, BinKind::Normal, lo, hi);
}

Coverpoint& Coverpoint::ignore(const std::string& name, int64_t lo, int64_t hi) {
  return add(name, BinKind::Ignore, lo, hi);
}

Coverpoint& Coverpoint::illegal(const std::string& name, int64_t lo, int64_t hi) {
  return add(name, BinKind::Illegal, lo, hi);
}

Coverpoint& Coverpoint::bins(const std::string& prefix, int64_t lo, int64_t hi, unsigned count) {
  if (count == 0 || lo > hi || static_cast<uint64_t>(hi - lo) + 1 < count)
    throw std::invalid_argument("coverpoint '" + name_ + "' bins '" + prefix +
                                "': cannot split the range into " + std::to_string(count) + " bins");
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  int64_t start = lo;
  for (unsigned i = 0; i < count; ++i) {
    const uint64_t width = span / count + (i < span % count ? 1 : 0);
    const int64_t end = start + static_cast<int64_t>(width) - 1;
    const std::string n = start == end ? prefix + "[" + std::to_string(start) + "]"
                                       : prefix + "[" + std::to_string(start) + ":" + std::to_string(end) + "]";
    add(n, BinKind::Normal, start, end);
    start = end + 1;
  }
  return *this;
}

std::optional<size_t> Coverpoint::find(int64_t v) const {
  for (BinKind k : {BinKind::Illegal, BinKind::Ignore, BinKind::Normal})
    for (size_t i = 0; i < bins_.size(); ++i)
      if (bins_[i].kind == k && bins_[i].contains(v)) return i;
  return std::nullopt;
}

std::optional<size_t> Coverpoint::sample(int64_t v) {
  const auto i = find(v);
  if (i) ++bins_[*i].hits;
  return i;
}

std::vector<std::string> Coverpoint::normal_bin_names() const {
  std::vector<std::string> names;
  for (const Bin& b : bins_)
    if (b.kind == BinKind::Normal) names.push_back(b.name);
  return names;
}

std::optional<size_t> Coverpoint::normal_position(size_t index) const {
  if (index >= bins_.size() || bins_[index].kind != BinKind::Normal) return std::nullopt;
  size_t pos = 0;
  for (size_t i = 0; i < index; ++i)
    if (bins_[i].kind == BinKind::Normal) ++pos;
  return pos;
}

}  // namespace dla::cov
