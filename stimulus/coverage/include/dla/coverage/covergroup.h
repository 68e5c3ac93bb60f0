// A covergroup: coverpoints and crosses sampled together. Build it once, sample it many
// times, then take its data() (what sample files store and merges add up).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "dla/coverage/coverage_data.h"
#include "dla/coverage/coverpoint.h"
#include "dla/coverage/cross.h"

namespace dla::cov {

class Covergroup {
 public:
  Covergroup(std::string name, std::string description);

  // Declares a coverpoint (names unique within the group); add its bins on the result.
  Coverpoint& coverpoint(const std::string& name);
  // Declares a cross of already declared coverpoints (their bins must be complete).
  Cross& cross(const std::string& name, const std::vector<std::string>& points);

  // One sample: a value for every coverpoint, by name. std::invalid_argument when a
  // coverpoint is missing or unknown. Illegal bins hit are counted and remembered as events.
  void sample(const std::map<std::string, int64_t>& values);

  const std::string& name() const { return name_; }
  uint64_t samples() const { return samples_; }
  GroupData data() const;

 private:
  std::string name_, description_;
  std::deque<Coverpoint> points_;  // deque: references handed out stay valid
  std::deque<Cross> crosses_;
  uint64_t samples_ = 0;
  std::vector<std::string> illegal_events_;
};

}  // namespace dla::cov
