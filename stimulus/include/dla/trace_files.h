// Finding trace tests on disk: a test directory, a trace file, or a folder of tests.
#pragma once

#include <string>
#include <vector>

namespace dla::trace {

enum class TraceDialect { Cfg, Txn };

struct TraceTest {
  std::string name;   // test directory name (or file stem)
  std::string group;  // the folder holding the test directory, e.g. "nv_small" (may be empty)
  std::string file;   // the .cfg or input.txn
  TraceDialect dialect = TraceDialect::Cfg;
  std::string label() const { return group.empty() ? name : group + "/" + name; }
};

// A `.cfg` or `input.txn` file; a directory holding `input.txn` or `<dir>.cfg` (or exactly
// one .cfg); otherwise every test below the directory, sorted by path. Throws
// std::invalid_argument naming the path when it does not exist or holds no trace.
std::vector<TraceTest> find_trace_tests(const std::string& path);

}  // namespace dla::trace
