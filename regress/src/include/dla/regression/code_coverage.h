// Verilator code coverage (line and toggle) as data: reads a coverage.dat written by a
// dlaverif-cov model or merged by `verilator_coverage --write`, answers which source lines
// were hit (mutation grading uses this) and summarises line/toggle coverage per file and unit.
// docs/coverage.md, "Code coverage".
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dla::regression {

// One counter of the model.
struct CodePoint {
  std::string type;     // line | branch | toggle | expr | user (from the point's page)
  std::string file;     // as Verilator recorded it (relative to the DUT file list's folder or absolute)
  int line = 0;
  std::vector<int> lines;  // source lines the point stands for (line/branch: the block's lines)
  std::string hier, comment;
  uint64_t count = 0;
  bool line_kind() const { return type == "line" || type == "branch"; }
};

struct FileCodeCoverage {
  std::string file, unit;
  size_t lines = 0, lines_hit = 0;      // source lines with a line/branch point; those with a hit
  size_t toggles = 0, toggles_hit = 0;  // toggle points (one per signal bit and instance)
  double line_percent() const { return lines ? 100.0 * static_cast<double>(lines_hit) / static_cast<double>(lines) : 100; }
  double toggle_percent() const {
    return toggles ? 100.0 * static_cast<double>(toggles_hit) / static_cast<double>(toggles) : 100;
  }
};

class CodeCoverage {
 public:
  // Reads a Verilator coverage file; std::invalid_argument naming the file and line when it
  // is missing or not one. A relative file name is made absolute against `source_root` when
  // that is given and the file exists there.
  static CodeCoverage load(const std::string& path, const std::string& source_root = "");

  const std::vector<CodePoint>& points() const { return points_; }
  bool empty() const { return points_.empty(); }

  // file -> source line -> hits (the largest count of the line/branch points covering the
  // line, over all instances). A line in the map with 0 hits was instrumented and never run;
  // a line not in the map has no line point (declarations, comments).
  std::map<std::string, std::map<int, uint64_t>> line_hits() const;
  // Lines of `file` with at least one hit.
  std::set<int> hit_lines(const std::string& file) const;

  std::vector<FileCodeCoverage> per_file() const;  // sorted by unit, then file
  std::vector<FileCodeCoverage> per_unit() const;  // file = unit name
  FileCodeCoverage total() const;

 private:
  std::vector<CodePoint> points_;
};

// The unit a source file belongs to: its folder's name (rtl/pdp/x.sv -> pdp); generated
// register blocks (dla_<unit>_regs.sv, dla_<unit>_shell.sv) -> "regs".
std::string unit_of_source(const std::string& file);

// Folder the RTL file names of this build's models are relative to (the DUT file list's).
std::string code_coverage_source_root();

}  // namespace dla::regression
