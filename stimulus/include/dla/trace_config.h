// Which hardware configuration plays a trace when `dlaverif trace` is not given --config.
#pragma once

#include <optional>
#include <string>

#include "dla/trace_files.h"

namespace dla::trace {

// In order: the trace's own `// dlaverif config=NAME` header; the folder holding the test
// when it names a configuration or NVDLA's name for one (NVDLA's folder-per-configuration
// layout: nv_small/ plays on small, nvdlav1/ on v1, nv_large/ on nv_large); otherwise the
// dialect's map (input.txn: v1, .cfg: small). Returns the configuration's name. Throws
// std::invalid_argument naming the folder and the known configurations when the folder
// looks like an NVDLA configuration folder (nv_*, nvdla*) but none is called so, and when
// the header names an unknown configuration.
std::string trace_config_for(const TraceTest& test, const std::optional<std::string>& header_config);

}  // namespace dla::trace
