// Progress of a regression: on a terminal one line rewritten in place (done/total, pass,
// fail, ETA) with failures printed above it; otherwise one plain line per finished test.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>

#include "dla/regression/outcome.h"

namespace dla::regression {

class Progress {
 public:
  // `done`, `failed`: results already there (resume).
  // quiet: off a terminal, only failures get a line.
  Progress(std::ostream& out, bool terminal, size_t total, size_t done, size_t failed, bool quiet = false);
  void finished(const Outcome& o);
  void close();  // ends the in-place line

 private:
  void draw();
  std::ostream& out_;
  bool terminal_, quiet_;
  size_t total_, done_, failed_, done_here_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dla::regression
