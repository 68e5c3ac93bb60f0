#include "dla/regression/local_launcher.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "dla/process_timing.h"

namespace fs = std::filesystem;

namespace dla::regression {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int) { g_interrupted = 1; }

// For the life of the launcher: SIGINT/SIGTERM set a flag, SIGCHLD is blocked so that the
// runner can sleep in sigtimedwait until a child ends (or a timeout is due). Restores both.
class SignalGuard {
 public:
  SignalGuard() {
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;  // an inherited SIG_IGN would reap the children before waitpid
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGCHLD, &dfl, &old_chld_);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old_mask_);
  }
  ~SignalGuard() {
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGCHLD, &old_chld_, nullptr);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  // The mask the children get back (the runner's before the launcher).
  const sigset_t& child_mask() const { return old_mask_; }

  // Sleeps until a SIGCHLD, a handled signal (Ctrl-C) or `seconds` passed.
  static void wait_for_child(double seconds) {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    if (seconds < 0) seconds = 0;
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(seconds);
    ts.tv_nsec = static_cast<long>((seconds - static_cast<double>(ts.tv_sec)) * 1e9);
    sigtimedwait(&chld, nullptr, &ts);  // EAGAIN (timeout) and EINTR (Ctrl-C) just return
  }

 private:
  struct sigaction old_int_ {}, old_term_ {}, old_chld_ {};
  sigset_t old_mask_{};
};

struct Running {
  const Job* job;
  Clock::time_point start;
  bool timed_out = false;
};

// Longest sleep between looks at the clock (timeouts are per test, in seconds).
constexpr double kMaxWaitSeconds = 0.25;

pid_t spawn(const std::string& program, const std::vector<std::string>& args, const fs::path& log,
            const sigset_t& child_mask, int64_t spawned) {
  std::vector<std::string> argv_s = {program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log_s = log.string();
  const std::string code_coverage_s = (log.parent_path() / "coverage.dat").string();
  const std::string spawned_ns = std::to_string(spawned);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);                       // Ctrl-C on the terminal goes to the runner only
    prctl(PR_SET_PDEATHSIG, SIGKILL);    // a killed runner leaves no test behind
    if (getppid() != parent) _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, &child_mask, nullptr);
    // Where a dlaverif-cov model writes its line/toggle counters (ignored by dlaverif).
    setenv("DLA_CODE_COVERAGE_FILE", code_coverage_s.c_str(), 1);
    setenv(kSpawnTimeEnv, spawned_ns.c_str(), 1);  // the test's startup time (overhead breakdown)
    const int fd = open(log_s.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent: no race with a signal before the child ran
  return pid;
}

// ---------------------------------------------------------------- the fork server
// Runner -> server: a request = uint32 length, then NUL-terminated strings: spawn time, log,
// argv... Server -> runner: 12-byte records {kind 'S' started | 'E' ended,
// pid, status}; one write each (below PIPE_BUF: never interleaved).
struct Record {
  int32_t kind;
  int32_t pid;
  int32_t status;
};
// Test process -> server, on one pipe shared by all tests: the test is over, its exit code.
struct Finished {
  int32_t pid;
  int32_t exit_code;
};

bool write_all(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool read_all(int fd, void* data, size_t n) {
  char* p = static_cast<char*>(data);
  while (n) {
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

// Splits a request body (NUL-terminated strings: spawn time, log, argv...).
std::vector<std::string> request_fields(const std::string& body) {
  std::vector<std::string> fields;
  for (size_t at = 0; at < body.size();) {
    const size_t nul = body.find('\0', at);
    fields.push_back(body.substr(at, nul - at));
    at = nul + 1;
  }
  return fields;
}

// The test process: like spawn()'s child, then the arguments of the request it waits for on
// `request` run here; it writes a Finished record to `done` when it is over. It is forked before its request exists (a spare, see serve()), so the
// fork, the process setup and the copy-on-write faults of both are paid while another test
// runs, not between the runner's request and the test's start.
[[noreturn]] void run_test_child(const InProcessRun& run, int request, int done, const sigset_t& child_mask,
                                 pid_t server, const std::vector<int>& close_fds) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server dies with the runner, the test with the server
  if (getppid() != server) _exit(127);
  for (const int fd : close_fds) close(fd);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  prctl(PR_SET_NAME, "dlaverif-test");  // ps/top: a test, not another runner (same argv)
  uint32_t n = 0;
  if (!read_all(request, &n, sizeof n)) _exit(0);  // the server ended: no test for this spare
  std::string body(n, '\0');
  if (!read_all(request, body.data(), n)) _exit(0);
  close(request);
  const std::vector<std::string> fields = request_fields(body);
  if (fields.size() < 3) _exit(127);
  sigprocmask(SIG_SETMASK, &child_mask, nullptr);
  // No DLA_CODE_COVERAGE_FILE: only dlaverif-cov reads it, and that binary is always exec'd.
  const int fd = open(fields[1].c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
  restart_main_clock(std::stoll(fields[0]));  // this process's "main" starts here
  int rc = 127;
  try {
    rc = run(std::vector<std::string>(fields.begin() + 2, fields.end()));
  } catch (const std::exception& e) {
    std::cerr << "dlaverif: error: " << e.what() << "\n";
    rc = 2;
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // Everything of the test is written: say so before the exit, whose teardown of the test's
  // memory (milliseconds for an RTL model) the runner need not wait for.
  const Finished f{getpid(), rc};
  write_all(done, &f, sizeof f);
  _exit(rc);  // not exit(): the runner's static objects and atexit handlers are not the test's
}

[[noreturn]] void serve(const InProcessRun& run, const std::function<void()>& warm_up, int requests, int reports,
                        pid_t runner) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != runner) _exit(0);
  prctl(PR_SET_NAME, "dlaverif-fork");
  signal(SIGINT, SIG_IGN);   // the runner handles Ctrl-C and kills the tests itself
  signal(SIGTERM, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);  // a spare that died: its pipe's write fails, the server goes on
  if (warm_up) {
    try {
      warm_up();
    } catch (const std::exception&) {
      // Only a head start: a test that needs what failed here fails the same way itself.
    }
  }
  sigset_t child_mask, chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &child_mask);
  sigdelset(&child_mask, SIGCHLD);
  const int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0) _exit(1);
  const pid_t self = getpid();
  int done[2];  // every test's Finished records
  if (pipe2(done, O_CLOEXEC | O_NONBLOCK) != 0) _exit(1);
  std::set<pid_t> reported;  // tests whose end the runner knows from their Finished record
  auto reap = [&] {
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      if (reported.erase(pid)) continue;
      const Record r{'E', pid, status};
      if (!write_all(reports, &r, sizeof r)) _exit(0);
    }
  };
  auto read_finished = [&] {
    Finished f{};
    while (read(done[0], &f, sizeof f) == static_cast<ssize_t>(sizeof f)) {
      int status = 0;
      if (waitpid(f.pid, &status, WNOHANG) == f.pid) {
        // Already gone: its real status (a signal during the exit would show here).
      } else {
        status = (f.exit_code & 0xff) << 8;  // as waitpid reports an exit with this code
        reported.insert(f.pid);
      }
      const Record r{'E', f.pid, status};
      if (!write_all(reports, &r, sizeof r)) _exit(0);
    }
  };
  // One test process is always forked ahead, waiting on its own pipe for a request.
  struct Spare {
    pid_t pid = -1;
    int request = -1;  // the server's end of the spare's request pipe
  } spare;
  auto fork_spare = [&] {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      close(p[1]);
      run_test_child(run, p[0], done[1], child_mask, self, {requests, reports, sfd, done[0]});
    }
    close(p[0]);
    if (pid < 0) {
      close(p[1]);
      return;
    }
    setpgid(pid, pid);
    spare = Spare{pid, p[1]};
  };
  // The next spare is forked a little after a test was handed its request, not at once: the
  // fork would take the CPU the starting test needs for its first milliseconds (on 2 cores
  // both are busy with tests) and delay it; later it overlaps the test's body.
  constexpr int kSpareDelayMs = 5;
  fork_spare();
  int64_t spare_due_ns = 0;  // 0: nothing due
  while (true) {
    pollfd fds[3] = {{requests, POLLIN, 0}, {sfd, POLLIN, 0}, {done[0], POLLIN, 0}};
    int timeout_ms = -1;
    if (spare_due_ns) timeout_ms = static_cast<int>(std::max<int64_t>(0, (spare_due_ns - steady_now_ns() + 999999) / 1000000));
    const int ready = poll(fds, 3, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      _exit(1);
    }
    if (spare_due_ns && steady_now_ns() >= spare_due_ns) {
      spare_due_ns = 0;
      if (spare.pid < 0) fork_spare();
    }
    if (ready == 0) continue;
    if (fds[2].revents) read_finished();
    if (fds[1].revents) {
      signalfd_siginfo info;
      while (read(sfd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
      }
      reap();
    }
    if (!fds[0].revents) continue;
    uint32_t n = 0;
    if (!read_all(requests, &n, sizeof n)) break;  // the runner closed the pipe: done
    std::string body(n, '\0');
    if (!read_all(requests, body.data(), n)) break;
    if (request_fields(body).size() < 3) _exit(1);
    // Hand the request to the spare; a spare that is gone (killed from outside) is replaced once.
    pid_t started = -1;
    for (int attempt = 0; attempt < 2 && started < 0; ++attempt) {
      if (spare.pid < 0) fork_spare();
      const Spare test = std::exchange(spare, Spare{});
      if (test.pid < 0) break;
      if (write_all(test.request, &n, sizeof n) && write_all(test.request, body.data(), body.size()))
        started = test.pid;
      else
        kill(test.pid, SIGKILL);
      close(test.request);
    }
    const Record r{'S', started, started < 0 ? EAGAIN : 0};
    if (!write_all(reports, &r, sizeof r)) break;
    spare_due_ns = steady_now_ns() + kSpareDelayMs * 1000000LL;  // the next test's process
    reap();
  }
  if (spare.request >= 0) close(spare.request);  // the spare reads the end and exits
  _exit(0);
}

}  // namespace

TestForkServer::TestForkServer(const std::string& executable) {
  int req[2], rep[2];
  if (pipe2(req, O_CLOEXEC) != 0) throw std::runtime_error("cannot create the test fork server's pipe");
  if (pipe2(rep, O_CLOEXEC) != 0) {
    close(req[0]);
    close(req[1]);
    throw std::runtime_error("cannot create the test fork server's pipe");
  }
  const pid_t runner = getpid();
  const char* bind_now = std::getenv("LD_BIND_NOW");
  const bool set_bind_now = !bind_now || !*bind_now;
  // Everything the child needs is built before the fork (no allocation between fork and exec).
  const std::string spec = std::string(kForkServerEnv) + "=" + std::to_string(req[0]) + ":" + std::to_string(rep[1]) +
                           ":" + std::to_string(runner) + ":" + (set_bind_now ? "1" : "0");
  std::vector<std::string> env_s = {spec};
  if (set_bind_now) env_s.emplace_back("LD_BIND_NOW=1");
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "LD_BIND_NOW=", 12) != 0 || !set_bind_now) env_s.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string exe = executable;
  // The runner's own command line (main() ignores it in the server): ps and pgrep -f show the
  // server and its tests as this regression's, as when they were forks of the runner.
  std::vector<std::string> argv_s;
  {
    std::ifstream cmdline("/proc/self/cmdline");
    for (std::string arg; std::getline(cmdline, arg, '\0');) argv_s.push_back(arg);
  }
  if (argv_s.empty()) argv_s.emplace_back("dlaverif");
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  server_ = fork();
  if (server_ < 0) throw std::runtime_error("cannot fork the test fork server");
  if (server_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // kept across exec: the server dies with the runner
    if (getppid() != runner) _exit(0);
    fcntl(req[0], F_SETFD, 0);  // the two ends the server keeps, open across exec
    fcntl(rep[1], F_SETFD, 0);
    execve(exe.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  close(req[0]);
  close(rep[1]);
  to_server_ = req[1];
  from_server_ = rep[0];
}

void serve_test_fork_server(const char* spec, const InProcessRun& run, const std::function<void()>& warm_up) {
  int requests = -1, reports = -1, set_bind_now = 0;
  long runner = 0;
  if (std::sscanf(spec, "%d:%d:%ld:%d", &requests, &reports, &runner, &set_bind_now) != 4) _exit(1);
  unsetenv(kForkServerEnv);
  if (set_bind_now) unsetenv("LD_BIND_NOW");  // bound now; the tests and what they start load as usual
  fcntl(requests, F_SETFD, FD_CLOEXEC);
  fcntl(reports, F_SETFD, FD_CLOEXEC);
  serve(run, warm_up, requests, reports, static_cast<pid_t>(runner));
}

TestForkServer::~TestForkServer() {
  close(to_server_);  // the server sees the end of its requests and exits
  close(from_server_);
  if (server_ > 0) waitpid(server_, nullptr, 0);
}

bool TestForkServer::read_message(double seconds) {
  if (buffer_.size() < sizeof(Record)) {
    pollfd p{from_server_, POLLIN, 0};
    const int ms = seconds < 0 ? -1 : static_cast<int>(seconds * 1000) + 1;
    const int ready = poll(&p, 1, ms);
    if (ready <= 0) return false;  // time is up, or a signal (Ctrl-C: the caller looks)
    char chunk[4096];
    const ssize_t n = read(from_server_, chunk, sizeof chunk);
    if (n == 0) throw std::runtime_error("the test fork server ended unexpectedly");
    if (n < 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    if (buffer_.size() < sizeof(Record)) return false;
  }
  Record r{};
  std::memcpy(&r, buffer_.data(), sizeof r);
  buffer_.erase(0, sizeof r);
  if (r.kind == 'S') started_.push_back(r.pid);
  else ended_.push_back(Ended{r.pid, r.status});
  return true;
}

pid_t TestForkServer::start(const std::vector<std::string>& argv, const std::string& log, int64_t spawned_ns) {
  std::string body = std::to_string(spawned_ns) + '\0' + log + '\0';
  for (const std::string& a : argv) body += a + '\0';
  const uint32_t n = static_cast<uint32_t>(body.size());
  if (!write_all(to_server_, &n, sizeof n) || !write_all(to_server_, body.data(), body.size()))
    throw std::runtime_error("the test fork server ended unexpectedly");
  while (started_.empty()) read_message(-1);
  const pid_t pid = started_.front();
  started_.erase(started_.begin());
  if (pid < 0) throw std::runtime_error("the test fork server could not fork");
  return pid;
}

std::optional<TestForkServer::Ended> TestForkServer::wait(double seconds) {
  if (ended_.empty()) read_message(seconds);
  while (ended_.empty() && buffer_.size() >= sizeof(Record)) read_message(0);
  if (ended_.empty()) return std::nullopt;
  const Ended e = ended_.front();
  ended_.erase(ended_.begin());
  return e;
}

bool run_local(const std::vector<Job>& jobs, const LaunchOptions& opt,
               const std::function<void(const Outcome&)>& on_done) {
  SignalGuard guard;
  std::map<pid_t, Running> running;
  size_t next = 0, reported = 0;
  const unsigned parallel = opt.parallel ? opt.parallel : 1;
  TestForkServer* const server = opt.fork_server;
  auto stopping = [&] { return g_interrupted || (opt.stop_after && reported >= opt.stop_after); };
  auto finished = [&](pid_t pid, int status) {
    auto it = running.find(pid);
    if (it == running.end()) return;
    ProcessEnd end;
    end.wall_seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    end.timed_out = it->second.timed_out;
    if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
    const Job& j = *it->second.job;
    running.erase(it);
    on_done(classify(j, opt.out_dir, end));
    ++reported;
  };

  while ((next < jobs.size() || !running.empty()) && !stopping()) {
    while (next < jobs.size() && running.size() < parallel && !stopping()) {
      const Job& j = jobs[next++];
      const fs::path dir = fs::path(opt.out_dir) / j.dir();
      fs::remove_all(dir);  // a rerun (resume) starts from a clean directory
      fs::create_directories(dir);
      const auto start = Clock::now();
      const int64_t spawned = steady_now_ns();
      pid_t pid;
      if (server) {
        std::vector<std::string> argv = {opt.dlaverif};
        const auto args = j.run_args(opt.out_dir);
        argv.insert(argv.end(), args.begin(), args.end());
        pid = server->start(argv, (dir / "log.txt").string(), spawned);
      } else {
        pid = spawn(opt.dlaverif, j.run_args(opt.out_dir), dir / "log.txt", guard.child_mask(), spawned);
      }
      running[pid] = Running{&j, start};
    }
    if (!server) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid > 0) {
        finished(pid, status);
        continue;
      }
    }
    // Nothing ended yet: kill what ran past its timeout, then sleep until a test ends or the
    // next timeout is due.
    const auto now = Clock::now();
    double wait = kMaxWaitSeconds;
    for (auto& [p, r] : running) {
      const double left = r.job->timeout_seconds - std::chrono::duration<double>(now - r.start).count();
      if (!r.timed_out && left < 0) {
        r.timed_out = true;
        kill(-p, SIGKILL);
      } else if (!r.timed_out && left < wait) {
        wait = left;
      }
    }
    if (running.empty()) continue;
    if (server) {
      if (const auto e = server->wait(wait)) finished(e->pid, e->status);
    } else {
      SignalGuard::wait_for_child(wait);
    }
  }
  // Interrupted: stop what still runs; those jobs are not finished and a resume reruns them.
  for (const auto& [p, r] : running) kill(-p, SIGKILL);
  if (server) {
    std::map<pid_t, bool> killed;
    for (const auto& [p, r] : running) killed[p] = true;
    const auto until = Clock::now() + std::chrono::seconds(10);
    while (!killed.empty() && Clock::now() < until)
      if (const auto e = server->wait(0.5)) killed.erase(e->pid);
  } else {
    for (const auto& [p, r] : running) waitpid(p, nullptr, 0);
  }
  return next >= jobs.size() && running.empty();
}

}  // namespace dla::regression
