// Repeated warnings printed once, with a count. A regression can meet the same problem in many
// tests (a coverage file that does not merge, an entry skipped for a missing model); printing
// it once per test buries everything else. Collect the messages, then print one line each:
//
//   regress: warning: <message>                          seen once
//   regress: warning (x7): <message>: a, b, c, ... and 2 more   seen 7 times, subjects listed
//
// Messages are grouped by their exact text, in the order first seen. A subject (a test, a plan
// entry) says where a message came from; the first kMaxSubjects distinct subjects are listed.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <ostream>
#include <string>
#include <vector>

namespace dla {

class WarningLog {
 public:
  static constexpr size_t kMaxSubjects = 5;

  // prefix: the program part of each line ("regress"); kind: "warning", "note", ...
  explicit WarningLog(std::string prefix, std::string kind = "warning");

  void add(const std::string& message, const std::string& subject = "");

  bool empty() const { return entries_.empty(); }
  size_t distinct() const { return entries_.size(); }  // lines print() writes
  size_t total() const;                                 // add() calls
  size_t count(const std::string& message) const;       // 0 when never added

  // One line per distinct message, in the order first seen (no trailing newline).
  std::vector<std::string> lines() const;
  // Writes lines() and forgets them (a later add() starts a new count).
  void print(std::ostream& os);

 private:
  struct Entry {
    std::string message;
    size_t count = 0;
    std::vector<std::string> subjects;  // distinct, in the order seen, at most kMaxSubjects
    size_t more_subjects = 0;           // distinct subjects beyond those
    std::set<std::string> seen;         // every distinct subject
  };
  std::string prefix_, kind_;
  std::vector<Entry> entries_;
  std::map<std::string, size_t> index_;  // message -> entries_ index
};

}  // namespace dla
