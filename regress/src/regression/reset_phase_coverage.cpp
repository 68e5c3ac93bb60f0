#include "dla/regression/reset_phase_coverage.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace dla::regression {

namespace {

// One line of a Verilator coverage file: a point `C '<keys>' <count>`, or anything else
// (the header), kept as text.
struct CoverageLine {
  std::string text;  // the whole line when not a point; the keys when a point
  bool point = false;
  uint64_t count = 0;
};

std::vector<CoverageLine> read_coverage(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the coverage file", path));
  std::vector<CoverageLine> lines;
  std::string l;
  for (size_t n = 1; std::getline(in, l); ++n) {
    if (l.rfind("C '", 0) != 0) {
      lines.push_back({l, false, 0});
      continue;
    }
    const size_t close = l.rfind("' ");
    if (close == std::string::npos || close < 3) {
      throw std::runtime_error(fmt::format("{}:{}: not a coverage point (C '<keys>' <count>)", path, n));
    }
    const std::string count = l.substr(close + 2);
    if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos) {
      throw std::runtime_error(fmt::format("{}:{}: count '{}' is not a number", path, n, count));
    }
    lines.push_back({l.substr(3, close - 3), true, std::stoull(count)});
  }
  return lines;
}

bool is_toggle_point(const std::string& keys) { return keys.find("\x01page\x02v_toggle") != std::string::npos; }

}  // namespace

void add_reset_phase_hits(const std::string& final_file, const std::string& reset_snapshot) {
  std::vector<CoverageLine> final_lines = read_coverage(final_file);
  std::unordered_map<std::string, uint64_t> reset_counts;
  for (const CoverageLine& l : read_coverage(reset_snapshot)) {
    if (l.point) reset_counts.emplace(l.text, l.count);
  }
  size_t matched = 0;
  for (CoverageLine& l : final_lines) {
    if (!l.point) continue;
    const auto it = reset_counts.find(l.text);
    if (it == reset_counts.end()) {
      throw std::runtime_error(
          fmt::format("{}: point not in the reset snapshot {} (different models?)", final_file, reset_snapshot));
    }
    ++matched;
    if (!is_toggle_point(l.text)) l.count += it->second;
  }
  if (matched != reset_counts.size()) {
    throw std::runtime_error(fmt::format("{}: {} points, the reset snapshot {} has {}", final_file, matched,
                                         reset_snapshot, reset_counts.size()));
  }
  const std::string tmp = final_file + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    for (const CoverageLine& l : final_lines) {
      if (l.point) {
        out << "C '" << l.text << "' " << l.count << '\n';
      } else {
        out << l.text << '\n';
      }
    }
    if (!out.flush()) throw std::runtime_error(fmt::format("{}: cannot write", tmp));
  }
  if (std::rename(tmp.c_str(), final_file.c_str()) != 0) {
    throw std::runtime_error(fmt::format("{}: cannot replace it with {}", final_file, tmp));
  }
}

}  // namespace dla::regression
