#include "dla/regression/slurm_launcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

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
    << "start=$(date +%s.%N)\n"
    << "timeout --kill-after=10 \"$timeout_s\" bash -c \"exec $cmd\" >\"$result_dir/log.txt\" 2>&1\n"
    << "rc=$?\n"
    << "end=$(date +%s.%N)\n"
    << "printf '{\"exit_code\": %d, \"wall_seconds\": %s, \"timeout_seconds\": %s, \"slurm_job\": \"%s_%s\"}\\n' "
       "\"$rc\" \"$(echo \"$end - $start\" | bc)\" \"$timeout_s\" \"${SLURM_ARRAY_JOB_ID:-}\" \"${SLURM_ARRAY_TASK_ID}\" "
       ">\"$result_dir/exit_status.json.tmp\"\n"
    << "mv \"$result_dir/exit_status.json.tmp\" \"$result_dir/exit_status.json\"\n";
  if (!s) throw std::runtime_error("cannot write " + script.string());
  s.close();
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  return script.string();
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
