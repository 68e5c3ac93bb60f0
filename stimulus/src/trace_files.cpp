#include "dla/trace_files.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>

namespace dla::trace {

namespace fs = std::filesystem;

namespace {

std::string group_of(const fs::path& test_dir) {
  const fs::path abs = fs::absolute(test_dir).lexically_normal();
  const fs::path parent = (abs.filename().empty() ? abs.parent_path() : abs).parent_path();
  return parent.filename().string();
}

std::string dir_name(const fs::path& dir) {
  const fs::path abs = fs::absolute(dir).lexically_normal();
  return (abs.filename().empty() ? abs.parent_path() : abs).filename().string();
}

// `in_test_dir`: the file is the trace of its directory (named after the directory's test).
TraceTest from_file(const fs::path& file, bool in_test_dir = false) {
  TraceTest t;
  t.file = file.string();
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (file.extension() == ".txn") {
    t.dialect = TraceDialect::Txn;
  } else if (file.extension() == ".cfg") {
    t.dialect = TraceDialect::Cfg;
  } else {
    throw std::invalid_argument("'" + file.string() + "' is not a trace (expected a .cfg file, an input.txn file or a "
                                "test directory)");
  }
  if (in_test_dir || file.filename() == "input.txn" || file.stem() == dir_name(dir)) {
    t.name = dir_name(dir);
    t.group = group_of(dir);
  } else {
    t.name = file.stem().string();
    t.group = dir_name(dir);
  }
  return t;
}

// The trace of a test directory, if it is one.
std::optional<TraceTest> test_in(const fs::path& dir) {
  if (fs::is_regular_file(dir / "input.txn")) return from_file(dir / "input.txn");
  const fs::path named = dir / (dir_name(dir) + ".cfg");
  if (fs::is_regular_file(named)) return from_file(named);
  std::vector<fs::path> cfgs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".cfg") cfgs.push_back(e.path());
  if (cfgs.size() == 1) return from_file(cfgs.front(), true);
  if (cfgs.size() > 1) {
    std::sort(cfgs.begin(), cfgs.end());
    throw std::invalid_argument("test directory '" + dir.string() + "' holds several .cfg files (" +
                                cfgs[0].filename().string() + ", " + cfgs[1].filename().string() +
                                ", ...) and none is named " + named.filename().string());
  }
  return std::nullopt;
}

void collect(const fs::path& dir, std::vector<TraceTest>& out) {
  if (auto t = test_in(dir)) {
    out.push_back(*t);
    return;
  }
  std::vector<fs::path> subdirs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory()) subdirs.push_back(e.path());
  std::sort(subdirs.begin(), subdirs.end());
  for (const auto& d : subdirs) collect(d, out);
}

}  // namespace

std::vector<TraceTest> find_trace_tests(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (!fs::exists(p, ec)) throw std::invalid_argument("trace path '" + path + "' does not exist");
  if (!fs::is_directory(p, ec)) return {from_file(p)};
  std::vector<TraceTest> out;
  collect(p, out);
  if (out.empty())
    throw std::invalid_argument("no trace tests under '" + path + "' (looked for input.txn and .cfg files)");
  return out;
}

}  // namespace dla::trace
