#include "dla/warning_log.h"

#include <utility>

namespace dla {

WarningLog::WarningLog(std::string prefix, std::string kind) : prefix_(std::move(prefix)), kind_(std::move(kind)) {}

void WarningLog::add(const std::string& message, const std::string& subject) {
  auto [it, fresh] = index_.emplace(message, entries_.size());
  if (fresh) entries_.push_back(Entry{message, 0, {}, 0, {}});
  Entry& e = entries_[it->second];
  ++e.count;
  if (subject.empty() || !e.seen.insert(subject).second) return;
  if (e.subjects.size() < kMaxSubjects) e.subjects.push_back(subject);
  else ++e.more_subjects;
}

size_t WarningLog::total() const {
  size_t n = 0;
  for (const Entry& e : entries_) n += e.count;
  return n;
}

size_t WarningLog::count(const std::string& message) const {
  const auto it = index_.find(message);
  return it == index_.end() ? 0 : entries_[it->second].count;
}

std::vector<std::string> WarningLog::lines() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) {
    std::string line = prefix_.empty() ? kind_ : prefix_ + ": " + kind_;
    if (e.count > 1) line += " (x" + std::to_string(e.count) + ")";
    line += ": " + e.message;
    for (size_t i = 0; i < e.subjects.size(); ++i) line += (i ? ", " : ": ") + e.subjects[i];
    if (e.more_subjects) line += " and " + std::to_string(e.more_subjects) + " more";
    out.push_back(std::move(line));
  }
  return out;
}

void WarningLog::print(std::ostream& os) {
  for (const std::string& l : lines()) os << l << "\n";
  os.flush();
  entries_.clear();
  index_.clear();
}

}  // namespace dla
