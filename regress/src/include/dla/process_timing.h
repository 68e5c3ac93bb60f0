// Where the wall time of one test process goes, for the regression runner's overhead figure.
// The runner puts the steady-clock time at which it started the process into the environment
// (kSpawnTimeEnv); the process marks the entry of main() and times its phases from there.
// steady_clock is CLOCK_MONOTONIC on Linux, one clock for every process of the machine.
#pragma once

#include <cstdint>
#include <optional>

namespace dla {

constexpr const char* kSpawnTimeEnv = "DLA_SPAWN_NS";

// steady_clock now, in nanoseconds since its epoch.
int64_t steady_now_ns();

// Called first thing in main(); later calls do nothing.
void mark_main_entry();
// A forked child that runs a test without exec: its "main" starts now, and the runner started
// it at spawned_ns (instead of kSpawnTimeEnv).
void restart_main_clock(int64_t spawned_ns);
// Seconds from main() to now (from the first call when mark_main_entry was never called).
double seconds_since_main();
// Seconds from the runner's spawn to main(): exec, dynamic loading, static initialisation.
// nullopt when not started by the runner (no or malformed kSpawnTimeEnv).
std::optional<double> startup_seconds();

}  // namespace dla
