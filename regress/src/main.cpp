// dlaverif: command-line front end. Subcommands live in cmd_*.cpp (see cli_command.h).
// Exit codes: 0 pass, 1 test failure, 2 usage or input error.
#include "dla/cli_command.h"
#include "dla/process_timing.h"

int main(int argc, char** argv) {
  dla::mark_main_entry();  // the runner's overhead breakdown (result.json process_seconds)
  dla::cli::run_test_fork_server_if_asked();  // the regression's test fork server: never returns
  return dla::cli::run_cli(argc, argv);
}
