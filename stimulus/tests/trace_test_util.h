// Helpers of the trace reader tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "dla/trace_error.h"

namespace dla::trace::test {

// Message of the TraceError `f` throws (a failure, and "", if it throws none).
template <class F>
std::string trace_error(F&& f) {
  try {
    f();
  } catch (const TraceError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no TraceError thrown";
  return "";
}

#define EXPECT_TRACE_ERROR(stmt, text) \
  EXPECT_PRED_FORMAT2(::testing::IsSubstring, text, ::dla::trace::test::trace_error([&] { stmt; }))

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string path() const { return path_.string(); }
  std::string file(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace dla::trace::test
