// libFuzzer target: the input.txn reader and its data-file reader accept or throw TraceError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dla/trace_error.h"
#include "dla/trace_surface.h"
#include "dla/trace_txn.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
#ifdef DLA_FUZZ_PLANTED_CRASH  // run_fuzz.sh's self-test (DLA_FUZZ_PLANT=1): a crash must be saved and reported
  if (text.rfind("dla-planted-crash", 0) == 0) __builtin_trap();
#endif
  try {
    dla::trace::parse_txn(text, "fuzz.txn");
  } catch (const dla::trace::TraceError&) {
  }
  try {
    dla::trace::parse_txn_data(text, "fuzz.dat", size % 97);
  } catch (const dla::trace::TraceError&) {
  }
  return 0;
}
