#include "dla/coverage/covergroup.h"

#include <stdexcept>

namespace dla::cov {

Covergroup::Covergroup(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {
  if (name_.empty()) throw std::invalid_argument("a covergroup needs a name");
}

Coverpoint& Covergroup::coverpoint(const std::string& name) {
  for (const Coverpoint& p : points_)
    if (p.name() == name)
      throw std::invalid_argument("covergroup '" + name_ + "': coverpoint '" + name + "' is declared twice");
  points_.emplace_back(name);
  return points_.back();
}

Cross& Covergroup::cross(const std::string& name, const std::vector<std::string>& points) {
  std::vector<const Coverpoint*> ps;
  for (const std::string& n : points) {
    const Coverpoint* found = nullptr;
    for (const Coverpoint& p : points_)
      if (p.name() == n) found = &p;
    if (!found)
      throw std::invalid_argument("covergroup '" + name_ + "' cross '" + name + "': no coverpoint '" + n + "'");
    ps.push_back(found);
  }
  for (const Cross& c : crosses_)
    if (c.name() == name) throw std::invalid_argument("covergroup '" + name_ + "': cross '" + name + "' is declared twice");
  crosses_.emplace_back(name, ps);
  return crosses_.back();
}

void Covergroup::sample(const std::map<std::string, int64_t>& values) {
  if (values.size() != points_.size())
    for (const auto& [n, v] : values) {
      bool known = false;
      for (const Coverpoint& p : points_) known = known || p.name() == n;
      if (!known) throw std::invalid_argument("covergroup '" + name_ + "' has no coverpoint '" + n + "'");
    }
  std::map<std::string, std::optional<size_t>> normal;  // coverpoint -> normal position
  for (Coverpoint& p : points_) {
    const auto v = values.find(p.name());
    if (v == values.end())
      throw std::invalid_argument("covergroup '" + name_ + "' sample has no value for coverpoint '" + p.name() + "'");
    const auto bin = p.sample(v->second);
    normal[p.name()] = bin ? p.normal_position(*bin) : std::nullopt;
    if (bin && p.bins()[*bin].kind == BinKind::Illegal &&
        illegal_events_.size() < CoverageData::kMaxIllegalEvents)
      illegal_events_.push_back(name_ + "." + p.name() + ": value " + std::to_string(v->second) +
                                " is in illegal bin '" + p.bins()[*bin].name + "'");
  }
  for (Cross& c : crosses_) {
    std::vector<size_t> pos;
    for (const std::string& n : c.point_names()) {
      if (!normal[n]) break;
      pos.push_back(*normal[n]);
    }
    if (pos.size() != c.point_names().size()) continue;  // a value outside the normal bins
    if (c.sample(pos) == BinKind::Illegal && illegal_events_.size() < CoverageData::kMaxIllegalEvents)
      illegal_events_.push_back(name_ + "." + c.name() + ": illegal combination");
  }
  ++samples_;
}

GroupData Covergroup::data() const {
  GroupData g;
  g.name = name_;
  g.description = description_;
  g.samples = samples_;
  g.illegal_events = illegal_events_;
  auto bins_of = [](const std::vector<Bin>& bins) {
    std::vector<BinData> out;
    for (const Bin& b : bins) out.push_back(BinData{b.name, b.kind, b.hits});
    return out;
  };
  for (const Coverpoint& p : points_) g.items.push_back(ItemData{p.name(), {}, bins_of(p.bins())});
  for (const Cross& c : crosses_) g.items.push_back(ItemData{c.name(), c.point_names(), bins_of(c.bins())});
  return g;
}

}  // namespace dla::cov
