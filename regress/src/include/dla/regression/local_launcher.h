// Runs jobs as child processes of this one (`dlaverif run ... --out DIR`), N at a time, each
// with its plan timeout. Children get their own process group, so a Ctrl-C reaches only the
// runner, which then stops them; they also die with the runner (PR_SET_PDEATHSIG).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "dla/regression/job.h"
#include "dla/regression/outcome.h"

namespace dla::regression {

struct LaunchOptions {
  std::string dlaverif;  // path of the dlaverif binary to exec
  std::string out_dir;
  unsigned parallel = 1;
  size_t stop_after = 0;  // > 0: behave as if interrupted after this many results (tests)
};

// Runs `jobs`, calling on_done for each as it finishes (in finishing order). Returns false
// when interrupted (SIGINT/SIGTERM or stop_after): running jobs are killed and not reported.
bool run_local(const std::vector<Job>& jobs, const LaunchOptions& opt,
               const std::function<void(const Outcome&)>& on_done);

}  // namespace dla::regression
