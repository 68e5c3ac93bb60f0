#include "dla/regression/code_coverage_closure.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/core.h>
#include <yaml-cpp/yaml.h>

namespace dla::regression {

namespace {

// "120-124, 130" -> {{120,124},{130,130}}; std::invalid_argument text on a bad item.
std::vector<std::pair<int, int>> parse_ranges(const std::string& text) {
  std::vector<std::pair<int, int>> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = std::min(text.find(',', pos), text.size());
    std::string item = text.substr(pos, end - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    int a = 0, b = 0;
    char tail = 0;
    if (std::sscanf(item.c_str(), "%d-%d%c", &a, &b, &tail) == 2 && a >= 1 && b >= a) out.emplace_back(a, b);
    else if (std::sscanf(item.c_str(), "%d%c", &a, &tail) == 1 && a >= 1) out.emplace_back(a, a);
    else throw std::invalid_argument("'lines' item '" + item + "' is not a line (N) or a range (N-M, N <= M)");
    pos = end + 1;
  }
  return out;
}

// "u_rd.cnt[31]" -> "u_rd.cnt"
std::string signal_base(const std::string& s) {
  const size_t b = s.rfind('[');
  return b != std::string::npos && !s.empty() && s.back() == ']' ? s.substr(0, b) : s;
}

}  // namespace

bool CodeCoverageWaiver::applies_to_file(const std::string& source, const std::string& cfg) const {
  if (!config.empty() && config != cfg) return false;
  if (source.size() < file.size() || source.compare(source.size() - file.size(), file.size(), file) != 0) return false;
  return source.size() == file.size() || source[source.size() - file.size() - 1] == '/';
}

bool CodeCoverageWaiver::waives_line(int line) const {
  for (const auto& [a, b] : lines)
    if (line >= a && line <= b) return true;
  return false;
}

std::vector<CodeCoverageWaiver> load_code_coverage_waivers(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const std::exception& e) {
    throw std::invalid_argument("code-coverage waiver file " + path + ": " + e.what());
  }
  if (!root.IsMap() || !root["waivers"] || !root["waivers"].IsSequence())
    throw std::invalid_argument("code-coverage waiver file " + path + ": needs a top-level 'waivers:' list");
  std::vector<CodeCoverageWaiver> out;
  for (size_t i = 0; i < root["waivers"].size(); ++i) {
    const YAML::Node e = root["waivers"][i];
    const auto bad = [&](const std::string& rule) {
      return std::invalid_argument("code-coverage waiver file " + path + ": entry " + std::to_string(i + 1) + ": " + rule);
    };
    if (!e.IsMap()) throw bad("must be a map with file, lines and/or toggle, and reason");
    for (const auto& kv : e) {
      const auto key = kv.first.as<std::string>();
      if (key != "file" && key != "lines" && key != "toggle" && key != "config" && key != "reason")
        throw bad("unknown field '" + key + "' (fields: file, lines, toggle, config, reason)");
    }
    CodeCoverageWaiver w;
    w.entry = i + 1;
    if (!e["file"] || e["file"].as<std::string>().empty()) throw bad("needs 'file' (a source path, e.g. rtl/bdma/dla_bdma.sv)");
    w.file = e["file"].as<std::string>();
    if (!e["reason"] || e["reason"].as<std::string>().empty()) throw bad("needs a 'reason' (why no test can reach it)");
    w.reason = e["reason"].as<std::string>();
    if (e["config"]) w.config = e["config"].as<std::string>();
    if (e["lines"]) {
      try {
        w.lines = parse_ranges(e["lines"].as<std::string>());
      } catch (const std::invalid_argument& x) {
        throw bad(x.what());
      }
    }
    if (e["toggle"]) {
      w.toggle = e["toggle"].as<std::string>();
      try {
        w.toggle_re = std::regex(w.toggle);
      } catch (const std::regex_error& x) {
        throw bad("'toggle' is not a regular expression: " + w.toggle + " (" + x.what() + ")");
      }
    }
    if (w.lines.empty() && w.toggle.empty()) throw bad("needs 'lines' and/or 'toggle' (what it waives)");
    out.push_back(std::move(w));
  }
  return out;
}

CodeCoverageGoals parse_code_coverage_goals(const std::string& text) {
  CodeCoverageGoals g;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, end - pos);
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double v = -1;
    size_t used = 0;
    try {
      if (eq != std::string::npos) v = std::stod(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
    }
    if (eq == std::string::npos || used != item.size() - eq - 1 || v < 0 || v > 100 || (key != "line" && key != "toggle"))
      throw std::invalid_argument("code-coverage goals '" + text + "': '" + item +
                                  "' is not line=P or toggle=P with P a percentage 0..100");
    (key == "line" ? g.line_percent : g.toggle_percent) = v;
    pos = end + 1;
  }
  return g;
}

double UnitCodeClosure::line_percent() const {
  const size_t n = lines - lines_waived;
  return n ? 100.0 * static_cast<double>(lines_hit) / static_cast<double>(n) : 100;
}

double UnitCodeClosure::toggle_percent() const {
  const size_t n = toggles - toggles_waived - toggles_constant;
  return n ? 100.0 * static_cast<double>(toggles_hit) / static_cast<double>(n) : 100;
}

size_t UnitCodeClosure::uncovered_line_count() const {
  size_t n = 0;
  for (const auto& [file, ranges] : uncovered_lines)
    for (const auto& [a, b] : ranges) n += static_cast<size_t>(b - a + 1);
  return n;
}

std::string format_line_ranges(const std::vector<std::pair<int, int>>& ranges) {
  std::string s;
  for (const auto& [a, b] : ranges) s += (s.empty() ? "" : ", ") + (a == b ? std::to_string(a) : fmt::format("{}-{}", a, b));
  return s;
}

ConfigCodeClosure close_code_coverage(const CodeCoverage& cc, const std::string& config,
                                      const std::vector<CodeCoverageWaiver>& waivers,
                                      const ConstantBits* constants) {
  std::map<std::string, UnitCodeClosure> units;
  std::set<size_t> used;
  auto unit_row = [&](const std::string& file) -> UnitCodeClosure& {
    UnitCodeClosure& u = units[unit_of_source(file)];
    u.config = config;
    u.unit = unit_of_source(file);
    return u;
  };
  auto waiver_of_line = [&](const std::string& file, int line) -> const CodeCoverageWaiver* {
    for (const CodeCoverageWaiver& w : waivers)
      if (w.waives_line(line) && w.applies_to_file(file, config)) return &w;
    return nullptr;
  };
  for (const auto& [file, hits] : cc.line_hits()) {
    UnitCodeClosure& u = unit_row(file);
    std::vector<std::pair<int, int>> open;
    for (const auto& [line, h] : hits) {
      ++u.lines;
      if (h) {
        ++u.lines_hit;
        continue;
      }
      if (const CodeCoverageWaiver* w = waiver_of_line(file, line)) {
        ++u.lines_waived;
        used.insert(w->entry);
        continue;
      }
      if (!open.empty() && open.back().second + 1 == line) open.back().second = line;
      else open.emplace_back(line, line);
    }
    if (!open.empty()) u.uncovered_lines[file] = std::move(open);
  }
  for (const CodePoint& p : cc.points()) {
    if (p.type != "toggle") continue;
    UnitCodeClosure& u = unit_row(p.file);
    ++u.toggles;
    if (constants && constants->holds(p.hier, p.comment)) {
      ++u.toggles_constant;
      if (p.count) ++u.toggles_constant_counted;
      continue;
    }
    if (p.count) {
      ++u.toggles_hit;
      continue;
    }
    const CodeCoverageWaiver* waived = nullptr;
    for (const CodeCoverageWaiver& w : waivers)
      if (!w.toggle.empty() && w.applies_to_file(p.file, config) && std::regex_search(p.comment, w.toggle_re)) {
        waived = &w;
        break;
      }
    if (waived) {
      ++u.toggles_waived;
      used.insert(waived->entry);
    } else {
      ++u.uncovered_toggles[p.file + ": " + signal_base(p.comment)];
    }
  }
  ConfigCodeClosure c;
  c.config = config;
  for (auto& [name, u] : units) c.units.push_back(std::move(u));
  for (const CodeCoverageWaiver& w : waivers)
    if ((w.config.empty() || w.config == config) && !used.count(w.entry)) c.unused_waivers.push_back(w.entry);
  return c;
}

}  // namespace dla::regression
