#include "dla/regression/slurm_launcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <sys/wait.h>

namespace fs = std::filesystem;

namespace dla::regression {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string write_slurm_array(const std::vector<Job>& jobs, const SlurmOptions& opt) {
  if (jobs.empty()) throw std::invalid_argument("no tests to submit");
  const fs::path dir = fs::path(opt.out_dir) / "slurm";
  fs::create_directories(dir / "logs");
  double max_timeout = 0;
  {
    std::ofstream t(dir / "commands.tsv");
    for (const Job& j : jobs) {
      std::string cmd = shell_quote(opt.dlaverif);
      for (const std::string& a : j.run_args(opt.out_dir)) cmd += " " + shell_quote(a);
      t << static_cast<long>(j.timeout_seconds) << "\t" << (fs::path(opt.out_dir) / j.dir()).string() << "\t" << cmd << "\n";
      max_timeout = std::max(max_timeout, j.timeout_seconds);
    }
    if (!t) throw std::runtime_error("cannot write " + (dir / "commands.tsv").string());
  }
  const long minutes = static_cast<long>(max_timeout / 60) + 5;
  const std::string throttle = opt.max_parallel ? "%" + std::to_string(opt.max_parallel) : "";
  const fs::path script = dir / "array.sh";
  std::ofstream s(script);
  s << "#!/bin/bash\n"
    << "# dlaverif regression as a Slurm job array: task i runs line i+1 of commands.tsv.\n"
    << "# Submit: sbatch " << script.string() << "\n"
    << "# Then:   dlaverif regress --collect --out " << opt.out_dir << "\n"
    << "#SBATCH --job-name=" << opt.job_name << "\n"
    << "#SBATCH --array=0-" << jobs.size() - 1 << throttle << "\n"
    << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
    << "#SBATCH --time=" << minutes << "\n"
    << "#SBATCH --output=" << (dir / "logs").string() << "/%A_%a.out\n"
    << "set -u\n"
    << "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << shell_quote((dir / "commands.tsv").string()) << ")\n"
    << "IFS=$'\\t' read -r timeout_s result_dir cmd <<<\"$line\"\n"
    << "mkdir -p \"$result_dir\"\n"
    << "rm -f \"$result_dir/exit_status.json\" \"$result_dir/result.json\"\n"
    << "export DLA_CODE_COVERAGE_FILE=\"$result_dir/coverage.dat\"  # dlaverif-cov's line/toggle counters\n"
    << "start=$(date +%s.%N)\n"
    << "timeout --kill-after=10 \"$timeout_s\" bash -c \"exec $cmd\" >\"$result_dir/log.txt\" 2>&1\n"
    << "rc=$?\n"
    << "end=$(date +%s.%N)\n"
    << "printf '{\"exit_code\": %d, \"wall_seconds\": %s, \"timeout_seconds\": %s, \"slurm_job\": \"%s_%s\"}\\n' "
       "\"$rc\" \"$(awk -v a=\"$start\" -v b=\"$end\" 'BEGIN{printf \"%.3f\", b - a}')\" \"$timeout_s\" \"${SLURM_ARRAY_JOB_ID:-}\" \"${SLURM_ARRAY_TASK_ID}\" "
       ">\"$result_dir/exit_status.json.tmp\"\n"
    << "mv \"$result_dir/exit_status.json.tmp\" \"$result_dir/exit_status.json\"\n";
  if (!s) throw std::runtime_error("cannot write " + script.string());
  s.close();
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  return script.string();
}

int capture_command(const std::string& command, std::string& output) {
  output.clear();
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[512];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

std::string submit_slurm_array(const std::string& script) {
  std::string out;
  if (capture_command("sbatch --parsable " + shell_quote(script), out) != 0)
    throw std::runtime_error("sbatch " + script + " failed: " + trimmed(out));
  const std::string id = trimmed(out.substr(0, out.find(';')));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("sbatch " + script + " printed no job id: " + trimmed(out));
  return id;
}

void wait_for_slurm_job(const std::string& job_id, double poll_seconds) {
  int failures = 0;
  for (;;) {
    std::string out;
    const int rc = capture_command("squeue -h -o %i -j " + shell_quote(job_id), out);
    if (rc == 0 && trimmed(out).empty()) return;
    // squeue forgets finished jobs after MinJobAge: "Invalid job id specified".
    if (rc != 0 && out.find("Invalid job id") != std::string::npos) return;
    if (rc != 0 && ++failures > 10) throw std::runtime_error("squeue keeps failing: " + trimmed(out));
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_seconds));
  }
}

namespace {
// json::value() on numbers trips GCC 12's -Wnull-dereference inside nlohmann; this does not.
double number(const nlohmann::json& j, const char* key, double fallback) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (const auto* u = it->get_ptr<const nlohmann::json::number_unsigned_t*>()) return static_cast<double>(*u);
  if (const auto* i = it->get_ptr<const nlohmann::json::number_integer_t*>()) return static_cast<double>(*i);
  if (const auto* f = it->get_ptr<const nlohmann::json::number_float_t*>()) return *f;
  return fallback;
}
}  // namespace

Outcome collect_slurm(const Job& job, const std::string& out_dir) {
  const fs::path status = fs::path(out_dir) / job.dir() / "exit_status.json";
  std::ifstream f(status);
  nlohmann::json j;
  bool ok = static_cast<bool>(f);
  if (ok) {
    try {
      f >> j;
    } catch (const nlohmann::json::exception&) {
      ok = false;
    }
  }
  if (!ok) {
    Outcome o = classify(job, out_dir, ProcessEnd{0, 0, false, 0});  // fills identity and repro
    if (o.status.empty() || !fs::exists(fs::path(out_dir) / job.dir() / "result.json")) {
      o.status = "error";
      o.signature = "slurm:no-result";
      o.summary = "the array task left no exit status (cancelled, failed node, or never ran)";
    }
    return o;
  }
  ProcessEnd end;
  const int rc = static_cast<int>(number(j, "exit_code", -1));
  end.wall_seconds = number(j, "wall_seconds", 0);
  // timeout(1): 124 when it stopped the test with SIGTERM, 128+9 when it had to SIGKILL it.
  if (rc == 124 || (rc == 137 && end.wall_seconds >= job.timeout_seconds)) end.timed_out = true;
  else if (rc > 128) end.signal = rc - 128;
  else end.exit_code = rc;
  return classify(job, out_dir, end);
}

}  // namespace dla::regression
