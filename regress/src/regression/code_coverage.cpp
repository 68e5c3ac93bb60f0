#include "dla/regression/code_coverage.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace dla::regression {

namespace {

// "12-15,17" -> {12, 13, 14, 15, 17}; a malformed piece is skipped.
std::vector<int> parse_line_list(const std::string& s) {
  std::vector<int> lines;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    const std::string piece = s.substr(pos, end - pos);
    pos = end + 1;
    try {
      const size_t dash = piece.find('-');
      const int a = std::stoi(piece.substr(0, dash));
      const int b = dash == std::string::npos ? a : std::stoi(piece.substr(dash + 1));
      for (int l = a; l <= b && l - a < 100000; ++l) lines.push_back(l);
    } catch (const std::exception&) {
    }
  }
  return lines;
}

std::string type_of_page(const std::string& page) {
  if (page.rfind("v_", 0) != 0) return page.empty() ? "user" : page;
  const size_t slash = page.find('/');
  return page.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
}

void add(FileCodeCoverage& to, const FileCodeCoverage& from) {
  to.lines += from.lines;
  to.lines_hit += from.lines_hit;
  to.toggles += from.toggles;
  to.toggles_hit += from.toggles_hit;
}

}  // namespace

std::string unit_of_source(const std::string& file) {
  const fs::path p(file);
  const std::string name = p.filename().string();
  auto ends_with = [&](const char* s) {
    const std::string t(s);
    return name.size() >= t.size() && name.compare(name.size() - t.size(), t.size(), t) == 0;
  };
  // The generated register blocks, shells and the shells' wrapper (dla_reg_shells.sv).
  if (name.rfind("dla_", 0) == 0 && (ends_with("_regs.sv") || ends_with("_shell.sv") || ends_with("_shells.sv")))
    return "regs";
  const std::string dir = p.parent_path().filename().string();
  return dir.empty() ? "top" : dir;
}

std::string code_coverage_source_root() { return DLA_CODE_COVERAGE_SOURCE_ROOT; }

CodeCoverage CodeCoverage::load(const std::string& path, const std::string& source_root) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("code coverage file '" + path + "' cannot be read");
  CodeCoverage cc;
  std::string text;
  size_t line_no = 0;
  bool header = false;
  std::map<std::string, std::string> resolved;
  while (std::getline(f, text)) {
    ++line_no;
    if (text.empty()) continue;
    if (text[0] == '#') {
      header = header || text.find("SystemC::Coverage") != std::string::npos;
      continue;
    }
    const size_t open = text.find('\'');
    const size_t close = text.rfind('\'');
    if (text.rfind("C ", 0) != 0 || open == std::string::npos || close <= open)
      throw std::invalid_argument("code coverage file '" + path + "' line " + std::to_string(line_no) +
                                  ": not a Verilator coverage point (C '<keys>' <count>)");
    CodePoint p;
    try {
      p.count = std::stoull(text.substr(close + 1));
    } catch (const std::exception&) {
      throw std::invalid_argument("code coverage file '" + path + "' line " + std::to_string(line_no) +
                                  ": the count is not a number");
    }
    std::string page, lines_covered;
    const std::string keys = text.substr(open + 1, close - open - 1);
    size_t pos = 0;
    while ((pos = keys.find('\x01', pos)) != std::string::npos) {
      const size_t sep = keys.find('\x02', pos);
      if (sep == std::string::npos) break;
      size_t end = keys.find('\x01', sep);
      if (end == std::string::npos) end = keys.size();
      const std::string k = keys.substr(pos + 1, sep - pos - 1), v = keys.substr(sep + 1, end - sep - 1);
      if (k == "f") p.file = v;
      else if (k == "l") p.line = std::atoi(v.c_str());
      else if (k == "S") lines_covered = v;
      else if (k == "h") p.hier = v;
      else if (k == "o") p.comment = v;
      else if (k == "page") page = v;
      else if (k == "t" && !v.empty()) p.type = v;
      pos = end;
    }
    if (p.type.empty()) p.type = type_of_page(page);
    if (!source_root.empty() && !p.file.empty() && fs::path(p.file).is_relative()) {
      auto it = resolved.find(p.file);
      if (it == resolved.end()) {
        const fs::path abs = fs::path(source_root) / p.file;
        it = resolved.emplace(p.file, fs::exists(abs) ? abs.lexically_normal().string() : p.file).first;
      }
      p.file = it->second;
    }
    p.lines = lines_covered.empty() ? std::vector<int>{p.line} : parse_line_list(lines_covered);
    cc.points_.push_back(std::move(p));
  }
  if (!header && cc.points_.empty())
    throw std::invalid_argument("code coverage file '" + path + "' is not a Verilator coverage file (no header, no points)");
  return cc;
}

std::map<std::string, std::map<int, uint64_t>> CodeCoverage::line_hits() const {
  std::map<std::string, std::map<int, uint64_t>> hits;
  for (const CodePoint& p : points_) {
    if (!p.line_kind()) continue;
    auto& file = hits[p.file];
    for (int l : p.lines) {
      uint64_t& h = file[l];
      h = std::max(h, p.count);
    }
  }
  return hits;
}

std::set<int> CodeCoverage::hit_lines(const std::string& file) const {
  std::set<int> lines;
  const auto all = line_hits();
  const auto it = all.find(file);
  if (it == all.end()) return lines;
  for (const auto& [l, h] : it->second)
    if (h) lines.insert(l);
  return lines;
}

std::vector<FileCodeCoverage> CodeCoverage::per_file() const {
  std::map<std::string, FileCodeCoverage> files;
  for (const auto& [file, lines] : line_hits()) {
    FileCodeCoverage& fc = files[file];
    fc.lines = lines.size();
    for (const auto& [l, h] : lines) fc.lines_hit += h != 0;
  }
  for (const CodePoint& p : points_) {
    if (p.type != "toggle") continue;
    FileCodeCoverage& fc = files[p.file];
    ++fc.toggles;
    fc.toggles_hit += p.count != 0;
  }
  std::vector<FileCodeCoverage> out;
  for (auto& [file, fc] : files) {
    fc.file = file;
    fc.unit = unit_of_source(file);
    out.push_back(fc);
  }
  std::sort(out.begin(), out.end(), [](const FileCodeCoverage& a, const FileCodeCoverage& b) {
    return a.unit != b.unit ? a.unit < b.unit : a.file < b.file;
  });
  return out;
}

std::vector<FileCodeCoverage> CodeCoverage::per_unit() const {
  std::map<std::string, FileCodeCoverage> units;
  for (const FileCodeCoverage& f : per_file()) add(units[f.unit], f);
  std::vector<FileCodeCoverage> out;
  for (auto& [unit, u] : units) {
    u.file = u.unit = unit;
    out.push_back(u);
  }
  return out;
}

FileCodeCoverage CodeCoverage::total() const {
  FileCodeCoverage t;
  t.file = t.unit = "total";
  for (const FileCodeCoverage& f : per_file()) add(t, f);
  return t;
}

}  // namespace dla::regression
