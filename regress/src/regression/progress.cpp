#include "dla/regression/progress.h"

#include <fmt/format.h>

namespace dla::regression {

Progress::Progress(std::ostream& out, bool terminal, size_t total, size_t done, size_t failed, bool quiet)
    : out_(out), terminal_(terminal), quiet_(quiet), total_(total), done_(done), failed_(failed),
      start_(std::chrono::steady_clock::now()) {
  if (terminal_) draw();
}

void Progress::draw() {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string eta = "--:--";
  if (done_here_ > 0) {
    const auto s = static_cast<long>(elapsed / static_cast<double>(done_here_) * static_cast<double>(total_ - done_));
    eta = fmt::format("{}:{:02}", s / 60, s % 60);
  }
  out_ << fmt::format("\r\033[K[{}/{}] {} pass {} fail  ETA {}", done_, total_, done_ - failed_, failed_, eta) << std::flush;
}

void Progress::finished(const Outcome& o) {
  ++done_;
  ++done_here_;
  if (!o.passed()) ++failed_;
  const std::string line = fmt::format("[{}/{}] {} {} {:.1f}s{}", done_, total_, o.passed() ? "PASS" : "FAIL", o.job_id,
                                       o.wall_seconds, o.passed() ? "" : " " + o.status + " " + o.signature);
  if (!terminal_) {
    if (quiet_ && o.passed()) return;
    out_ << line << "\n" << std::flush;
    return;
  }
  if (!o.passed()) out_ << "\r\033[K" << line << "\n";
  draw();
}

void Progress::close() {
  if (terminal_) out_ << "\n" << std::flush;
}

}  // namespace dla::regression
