// Errors in NVDLA trace input: a malformed line, an unknown name, a missing or broken data
// file. The message names the file, the line (when there is one) and what was expected.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace dla::trace {

class TraceError : public std::invalid_argument {
 public:
  // line 0: the problem is not tied to one line (e.g. a missing file).
  TraceError(const std::string& file, size_t line, const std::string& message)
      : std::invalid_argument(file + (line ? ":" + std::to_string(line) : std::string()) + ": " + message),
        file_(file), line_(line), detail_(message) {}
  const std::string& file() const { return file_; }
  size_t line() const { return line_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string file_;
  size_t line_;
  std::string detail_;
};

}  // namespace dla::trace
