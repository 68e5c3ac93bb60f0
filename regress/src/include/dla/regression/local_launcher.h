// Runs jobs as child processes of this one (`dlaverif run ... --out DIR`), N at a time, each
// with its plan timeout. Children get their own process group, so a Ctrl-C reaches only the
// runner, which then stops them; they also die with the runner (PR_SET_PDEATHSIG).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dla/regression/job.h"
#include "dla/regression/outcome.h"

namespace dla::regression {

// Runs the arguments of one test (argv[0] first) inside the current process; the exit code.
using InProcessRun = std::function<int(const std::vector<std::string>& argv)>;

// The environment variable that makes a dlaverif process the test fork server (main() looks
// for it first): "<request fd>:<report fd>:<runner pid>:<1 if the runner set LD_BIND_NOW>".
constexpr const char* kForkServerEnv = "DLA_TEST_FORK_SERVER";

// Starts test processes without exec'ing a binary: a small server process forks one child per
// test that runs the test's arguments with an InProcessRun and exits. A test then costs a fork
// of a small process instead of starting the executable again (dynamic loading, relocation,
// static initialisation: about 20-40 ms a test on the 2-core VM), its memory starts mostly
// fresh (few copy-on-write faults), and the runner's own memory is not write-protected at
// every start. The server is this dlaverif exec'd afresh (not a fork of the runner: its memory
// holds none of the runner's) with LD_BIND_NOW=1, so that every library's symbols are bound
// once in the server: lazily bound, each test would look up again (every library's hash
// tables, page faults in a fresh child) each library function it calls first. The server
// removes LD_BIND_NOW again, the tests and what they start do not see it. The tests are
// children of the server: it reports their ends to the runner. They keep everything a spawned
// test has: own process group, the log, PR_SET_PDEATHSIG (the server dies with the runner,
// the tests with the server). DLA_CODE_COVERAGE_FILE is not set: only dlaverif-cov reads it,
// and --code-coverage always execs that binary. The server keeps one test process forked ahead
// (a spare waiting for its request), and a test reports its end just before it exits, so that
// neither the fork nor the teardown of a test's memory sits between two tests.
class TestForkServer {
 public:
  // Execs `executable` (this dlaverif) as the server; its main() finds kForkServerEnv and calls
  // serve_test_fork_server.
  explicit TestForkServer(const std::string& executable);
  ~TestForkServer();  // ends the server (tests still running are the caller's to kill first)
  TestForkServer(const TestForkServer&) = delete;
  TestForkServer& operator=(const TestForkServer&) = delete;

  // Starts a test: argv (argv[0] first), its log file and the runner's spawn time (the test's
  // startup in result.json). Returns the pid, which is also the test's process group.
  pid_t start(const std::vector<std::string>& argv, const std::string& log, int64_t spawned_ns);

  struct Ended {
    pid_t pid = 0;
    int status = 0;  // as from waitpid
  };
  // The next test that ended, waiting up to `seconds` (returns early, empty, on a handled
  // signal such as Ctrl-C, or when the time is up).
  std::optional<Ended> wait(double seconds);

 private:
  bool read_message(double seconds);
  pid_t server_ = -1;
  int to_server_ = -1, from_server_ = -1;
  std::vector<Ended> ended_;        // reports read while waiting for something else
  std::vector<pid_t> started_;
  std::string buffer_;
};

// The server's side, in the exec'd dlaverif whose main() found kForkServerEnv (spec: its
// value): runs warm_up once (what every test would otherwise build again: configurations,
// register maps, the command line, so that the tests find it ready), then forks a child per
// request that runs `run` on the request's arguments, until the runner closes its pipe.
[[noreturn]] void serve_test_fork_server(const char* spec, const InProcessRun& run,
                                         const std::function<void()>& warm_up);

struct LaunchOptions {
  std::string dlaverif;  // path of the dlaverif binary to exec
  std::string out_dir;
  unsigned parallel = 1;
  size_t stop_after = 0;  // > 0: behave as if interrupted after this many results (tests)
  // Set: tests are started by this server (the arguments run in a fork of it), not by
  // fork + exec of `dlaverif`. Same arguments, log, timeout, crash and interrupt handling.
  TestForkServer* fork_server = nullptr;
};

// Runs `jobs`, calling on_done for each as it finishes (in finishing order). Returns false
// when interrupted (SIGINT/SIGTERM or stop_after): running jobs are killed and not reported.
// A job's wall time runs from just before its process is started to the moment the runner
// learns of its end (the runner sleeps until then, not on a polling interval).
bool run_local(const std::vector<Job>& jobs, const LaunchOptions& opt,
               const std::function<void(const Outcome&)>& on_done);

}  // namespace dla::regression
