#include "dla/process_timing.h"

#include <chrono>
#include <cstdlib>
#include <string>

namespace dla {

namespace {
int64_t g_main_ns = 0;
int64_t g_spawned_ns = 0;  // restart_main_clock(); 0: read kSpawnTimeEnv
}

int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void mark_main_entry() {
  if (g_main_ns == 0) g_main_ns = steady_now_ns();
}

void restart_main_clock(int64_t spawned_ns) {
  g_main_ns = steady_now_ns();
  g_spawned_ns = spawned_ns;
}

double seconds_since_main() {
  mark_main_entry();
  return static_cast<double>(steady_now_ns() - g_main_ns) * 1e-9;
}

std::optional<double> startup_seconds() {
  if (g_main_ns == 0) return std::nullopt;
  long long spawned = g_spawned_ns;
  if (spawned == 0) {
    const char* env = std::getenv(kSpawnTimeEnv);
    if (!env || !*env) return std::nullopt;
    char* end = nullptr;
    spawned = std::strtoll(env, &end, 10);
    if (*end != '\0') return std::nullopt;
  }
  if (spawned <= 0 || spawned > g_main_ns) return std::nullopt;
  return static_cast<double>(g_main_ns - spawned) * 1e-9;
}

}  // namespace dla
