#include "dla/cli_command.h"

namespace dla::cli {

// Regression commands (cmd_regress.cpp, cmd_repro.cpp; built from regression/CMakeLists.txt).
Command add_regress_command(CLI::App& app, const std::string& command_line);
Command add_repro_command(CLI::App& app, const std::string& command_line);
Command add_trace_command(CLI::App& app, const std::string& command_line);  // cmd_trace.cpp
Command add_mutate_command(CLI::App& app, const std::string& command_line);  // cmd_mutate.cpp (mutation/)

std::vector<CommandFactory> all_commands() {
  return {add_run_command, add_list_command, add_regress_command, add_repro_command,
          add_trace_command, add_mutate_command};
}

}  // namespace dla::cli
