#include "dla/counter_signature.h"

#include <cctype>

#include <fmt/format.h>

namespace dla {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string without_prefix(const std::string& name) {
  for (const char* p : {"D_PERF_", "D_STATUS_", "D_"})
    if (name.rfind(p, 0) == 0) return name.substr(std::char_traits<char>::length(p));
  return name;
}

}  // namespace

std::string status_counter_name(const RegInfo& r) {
  if (!r.dual || r.fields.size() != 1) return "";
  const FieldInfo& f = r.fields.front();
  if (f.access != Access::RO || f.msb != 31 || f.lsb != 0) return "";
  return lower(unit_name(r.unit)) + "." + lower(without_prefix(r.name));
}

std::string counter_signature(const std::string& counter, uint32_t actual, uint32_t expected) {
  return fmt::format("{} rtl={} ref={}", counter, actual, expected);
}

}  // namespace dla
