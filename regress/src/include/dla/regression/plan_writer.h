// Writes jobs back as a test plan (one entry per job, one seed each) that `dlaverif regress
// --plan` reruns: the closure's kept tests and the ranked seed set.
#pragma once

#include <string>
#include <vector>

#include "dla/regression/job.h"

namespace dla::regression {

// Entry names are the jobs' entries; a job's id "<entry>/<seed>" is the same when rerun.
std::string plan_yaml(const std::string& name, const std::string& description, const std::vector<Job>& jobs);

}  // namespace dla::regression
