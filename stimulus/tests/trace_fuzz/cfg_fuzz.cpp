// libFuzzer target: the .cfg dialect reader and the .dat surface reader must either accept
// the input or throw TraceError; nothing else (no crash, no other exception, no hang).
#include <cstddef>
#include <cstdint>
#include <string>

#include "dla/trace_cfg.h"
#include "dla/trace_error.h"
#include "dla/trace_surface.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    dla::trace::parse_cfg(text, "fuzz.cfg");
  } catch (const dla::trace::TraceError&) {
  }
  try {
    dla::trace::parse_surface(text, "fuzz.dat");
  } catch (const dla::trace::TraceError&) {
  }
  return 0;
}
