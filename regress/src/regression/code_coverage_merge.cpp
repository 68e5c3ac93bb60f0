#include "dla/regression/code_coverage_merge.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dla/regression/coverage_file_gzip.h"

namespace fs = std::filesystem;

namespace dla::regression {

namespace {

// Runs argv[0] (looked up on PATH) with output appended to `log`; true on exit code 0.
bool run_tool(const std::vector<std::string>& args, const fs::path& log) {
  std::vector<std::string> a = args;
  std::vector<char*> argv;
  for (auto& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  const std::string log_s = log.string();
  {
    std::ofstream l(log, std::ios::app);
    l << "$";
    for (const auto& s : args) l << " " << s;
    l << "\n";
  }
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    const int fd = open(log_s.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string verilator_coverage_tool() {
  const std::string built = DLA_VERILATOR_COVERAGE;
  return !built.empty() && fs::exists(built) ? built : "verilator_coverage";
}

// lcov resolves relative SF: names against its working directory; make them absolute.
void absolutize_info(const fs::path& info, const std::string& root) {
  std::ifstream in(info);
  std::string text, line;
  while (std::getline(in, line)) {
    if (line.rfind("SF:", 0) == 0 && fs::path(line.substr(3)).is_relative() && fs::exists(fs::path(root) / line.substr(3)))
      line = "SF:" + (fs::path(root) / line.substr(3)).lexically_normal().string();
    text += line + "\n";
  }
  in.close();
  std::ofstream(info) << text;
}

}  // namespace

std::vector<std::string> code_coverage_files(const std::string& test_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(test_dir, ec)) {
    const std::string n = e.path().filename().string();
    const bool dat = e.path().extension() == ".dat";
    const bool gz = e.path().extension() == ".gz" && e.path().stem().extension() == ".dat";
    if (n.rfind("coverage", 0) == 0 && (dat || gz)) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

MergedCodeCoverage merge_code_coverage(const std::vector<std::string>& dat_files, const std::string& dir,
                                       std::ostream& err) {
  MergedCodeCoverage m;
  m.dir = dir;
  m.files = dat_files.size();
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path d(dir), log = d / "tools.log";
  m.merged_dat = (d / "merged.dat").string();
  if (dat_files.empty()) {
    err << "regress: warning: no test wrote a code-coverage file (golden-only tests have no RTL model)\n";
    return m;
  }
  // A model whose reset-phase hits could not be added back leaves its snapshot (and says why
  // in the test's log): its line coverage lacks the reset branches.
  size_t incomplete = 0;
  std::string example;
  for (const std::string& f : dat_files) {
    const fs::path plain = fs::path(f).extension() == ".gz" ? fs::path(f).replace_extension() : fs::path(f);
    if (fs::exists(plain.string() + ".reset") && incomplete++ == 0) example = plain.string() + ".reset";
  }
  if (incomplete)
    err << "regress: warning: " << incomplete << " coverage file(s) lack the reset phase's line hits (e.g. "
        << example << " was left behind; the test's log says why)\n";
  const std::string tool = verilator_coverage_tool();
  // In batches, so that no command line grows with the number of tests; compressed files
  // (coverage.dat.gz) are expanded to <dir>/expanded/ for their batch only.
  constexpr size_t kBatch = 200;
  const fs::path expanded = d / "expanded";
  size_t unreadable = 0, merged_any = 0;
  for (size_t i = 0; i < dat_files.size(); i += kBatch) {
    std::vector<std::string> args = {tool, "--write", m.merged_dat + ".tmp"};
    if (merged_any) args.push_back(m.merged_dat);
    fs::create_directories(expanded);
    for (size_t k = i; k < std::min(dat_files.size(), i + kBatch); ++k) {
      if (fs::path(dat_files[k]).extension() != ".gz") {
        args.push_back(dat_files[k]);
        continue;
      }
      const std::string plain = (expanded / (std::to_string(k) + ".dat")).string();
      try {
        gunzip_coverage_file(dat_files[k], plain);
        args.push_back(plain);
      } catch (const CoverageFileWriteError& e) {  // not the file's fault: a partial merge would mislead
        fs::remove_all(expanded);
        err << "regress: warning: " << e.what() << "; the code coverage is not merged (rerun with --resume)\n";
        return m;
      } catch (const std::exception& e) {
        if (unreadable++ == 0) err << "regress: warning: " << e.what() << " (left out of the code coverage)\n";
      }
    }
    if (args.size() == (merged_any ? 4u : 3u)) continue;  // nothing of this batch was readable
    const bool ok = run_tool(args, log);
    fs::remove_all(expanded);
    if (!ok) {
      err << "regress: warning: verilator_coverage could not merge the code coverage (see " << log.string() << ")\n";
      return m;
    }
    fs::rename(m.merged_dat + ".tmp", m.merged_dat);
    ++merged_any;
  }
  fs::remove_all(expanded);
  if (unreadable > 1)
    err << "regress: warning: " << unreadable << " compressed coverage files were unreadable and left out\n";
  m.files = dat_files.size() - unreadable;
  if (!merged_any) {
    err << "regress: warning: no code-coverage file could be read\n";
    return m;
  }
  const std::string root = code_coverage_source_root();
  try {
    m.data = CodeCoverage::load(m.merged_dat, root);
    m.merged = true;
  } catch (const std::exception& e) {
    err << "regress: warning: " << e.what() << "\n";
    return m;
  }
  {
    std::ofstream lines(d / "lines.tsv");
    lines << "# file\tline\thits (line and branch points of merged.dat)\n";
    for (const auto& [file, hits] : m.data.line_hits())
      for (const auto& [l, h] : hits) lines << file << "\t" << l << "\t" << h << "\n";
  }
  {
    nlohmann::json files = nlohmann::json::array();
    for (const FileCodeCoverage& f : m.data.per_file())
      files.push_back({{"file", f.file}, {"unit", f.unit}, {"lines", f.lines}, {"lines_hit", f.lines_hit},
                       {"toggles", f.toggles}, {"toggles_hit", f.toggles_hit}});
    const FileCodeCoverage t = m.data.total();
    std::ofstream(d / "summary.json") << nlohmann::json{{"tests_merged", m.files}, {"lines", t.lines},
                                                        {"lines_hit", t.lines_hit}, {"toggles", t.toggles},
                                                        {"toggles_hit", t.toggles_hit}, {"files", files}}
                                             .dump(1)
                                      << "\n";
  }
  const fs::path info = d / "merged.info";
  if (!run_tool({tool, "--write-info", info.string(), m.merged_dat}, log)) {
    err << "regress: warning: verilator_coverage --write-info failed (see " << log.string() << ")\n";
    return m;
  }
  absolutize_info(info, root);
  if (!run_tool({"genhtml", "--quiet", "--ignore-errors", "source", "--title", "dlaverif code coverage",
                 "--output-directory", (d / "html").string(), info.string()},
                log)) {
    err << "regress: warning: genhtml (lcov) could not render the code coverage (see " << log.string() << ")\n";
    return m;
  }
  m.html = fs::exists(d / "html" / "index.html");
  return m;
}

}  // namespace dla::regression
