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
#ifdef DLA_FUZZ_PLANTED_CRASH  // run_fuzz.sh's self-test (DLA_FUZZ_PLANT=1): a crash must be saved and reported
  if (text.rfind("dla-planted-crash", 0) == 0) __builtin_trap();
#endif
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
