// Slurm launcher: the regression as one job array. write_slurm_array() writes the array
// script and its command table into <out>/slurm/; after `sbatch` ran it, collect_slurm()
// turns each job's directory (result.json, exit_status.json) into an Outcome.
#pragma once

#include <string>
#include <vector>

#include "dla/regression/job.h"
#include "dla/regression/outcome.h"

namespace dla::regression {

struct SlurmOptions {
  std::string dlaverif;  // absolute path of dlaverif on the compute nodes (shared file system)
  std::string out_dir;   // absolute, shared with the compute nodes
  std::string job_name = "dlaverif";
  unsigned max_parallel = 0;  // array throttle (%N); 0: none
};

// Writes <out>/slurm/commands.tsv (one line per array task: timeout, result dir, command) and
// <out>/slurm/array.sh; returns the script's path.
std::string write_slurm_array(const std::vector<Job>& jobs, const SlurmOptions& opt);

// The job's outcome from what its array task left behind; a task without exit_status.json
// (cancelled, node failure, never ran) is an error result with signature "slurm:no-result".
Outcome collect_slurm(const Job& job, const std::string& out_dir);

// `sbatch --parsable SCRIPT`; returns the array's job id. std::runtime_error with sbatch's
// message when it fails.
std::string submit_slurm_array(const std::string& script);
// Polls `squeue -h -j ID` every `poll_seconds` until the job has no task left.
void wait_for_slurm_job(const std::string& job_id, double poll_seconds);

// Single-quotes `s` for a POSIX shell.
std::string shell_quote(const std::string& s);
// Runs a shell command: its exit status (-1 when it did not exit) and what it printed (stdout
// and stderr).
int capture_command(const std::string& command, std::string& output);

}  // namespace dla::regression
