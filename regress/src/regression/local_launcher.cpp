#include "dla/regression/local_launcher.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>

namespace fs = std::filesystem;

namespace dla::regression {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int) { g_interrupted = 1; }

// Installs the handlers for the life of the launcher and restores the previous ones.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

struct Running {
  const Job* job;
  Clock::time_point start;
  bool timed_out = false;
};

pid_t spawn(const std::string& program, const std::vector<std::string>& args, const fs::path& log) {
  std::vector<std::string> argv_s = {program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log_s = log.string();
  const std::string code_coverage_s = (log.parent_path() / "coverage.dat").string();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);                       // Ctrl-C on the terminal goes to the runner only
    prctl(PR_SET_PDEATHSIG, SIGKILL);    // a killed runner leaves no test behind
    if (getppid() != parent) _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    // Where a dlaverif-cov model writes its line/toggle counters (ignored by dlaverif).
    setenv("DLA_CODE_COVERAGE_FILE", code_coverage_s.c_str(), 1);
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

}  // namespace

bool run_local(const std::vector<Job>& jobs, const LaunchOptions& opt,
               const std::function<void(const Outcome&)>& on_done) {
  InterruptGuard guard;
  std::map<pid_t, Running> running;
  size_t next = 0, reported = 0;
  const unsigned parallel = opt.parallel ? opt.parallel : 1;
  auto stopping = [&] { return g_interrupted || (opt.stop_after && reported >= opt.stop_after); };

  while ((next < jobs.size() || !running.empty()) && !stopping()) {
    while (next < jobs.size() && running.size() < parallel && !stopping()) {
      const Job& j = jobs[next++];
      const fs::path dir = fs::path(opt.out_dir) / j.dir();
      fs::remove_all(dir);  // a rerun (resume) starts from a clean directory
      fs::create_directories(dir);
      const pid_t pid = spawn(opt.dlaverif, j.run_args(opt.out_dir), dir / "log.txt");
      running[pid] = Running{&j, Clock::now()};
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      auto it = running.find(pid);
      if (it == running.end()) continue;
      ProcessEnd end;
      end.wall_seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
      end.timed_out = it->second.timed_out;
      if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
      const Job& j = *it->second.job;
      running.erase(it);
      on_done(classify(j, opt.out_dir, end));
      ++reported;
      continue;
    }
    const auto now = Clock::now();
    for (auto& [p, r] : running)
      if (!r.timed_out && std::chrono::duration<double>(now - r.start).count() > r.job->timeout_seconds) {
        r.timed_out = true;
        kill(-p, SIGKILL);
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Interrupted: stop what still runs; those jobs are not finished and a resume reruns them.
  for (const auto& [p, r] : running) kill(-p, SIGKILL);
  for (const auto& [p, r] : running) waitpid(p, nullptr, 0);
  return next >= jobs.size() && running.empty();
}

}  // namespace dla::regression
