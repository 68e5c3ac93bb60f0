#include "dla/trace_config.h"

#include <stdexcept>

#include "dla/hwconfig.h"

namespace dla::trace {

namespace {

bool looks_like_nvdla_configuration(const std::string& folder) {
  return folder.rfind("nv_", 0) == 0 || folder.rfind("nvdla", 0) == 0;
}

std::string known_names() {
  std::string s;
  for (const HwConfig& c : HwConfig::all()) {
    s += (s.empty() ? "" : ", ") + c.name;
    for (const std::string& n : c.nvdla_names) s += " (" + n + ")";
  }
  return s;
}

}  // namespace

std::string trace_config_for(const TraceTest& test, const std::optional<std::string>& header_config) {
  if (header_config) return HwConfig::get(*header_config).name;  // throws naming the known ones
  if (const HwConfig* c = HwConfig::find(test.group)) return c->name;
  if (looks_like_nvdla_configuration(test.group))
    throw std::invalid_argument("trace folder '" + test.group + "' (of " + test.label() +
                                ") names no hardware configuration (known: " + known_names() +
                                "); add rtl/configs/" + test.group + ".yaml or play it with --config NAME");
  return test.dialect == TraceDialect::Txn ? "v1" : "small";
}

}  // namespace dla::trace
