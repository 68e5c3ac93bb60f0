// dlaverif: command-line front end. Subcommands live in cmd_*.cpp (see cli_command.h).
// Exit codes: 0 pass, 1 test failure, 2 usage or input error.
#include <iostream>
#include <string>

#include "dla/cli_command.h"

int main(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"dlaverif: co-verification of an NVDLA-compatible accelerator"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, dla::cli::Command>> commands;
  for (const auto& factory : dla::cli::all_commands()) {
    const size_t before = app.get_subcommands({}).size();
    dla::cli::Command cmd = factory(app, command_line);
    commands.emplace_back(app.get_subcommands({}).at(before), std::move(cmd));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "dlaverif: error: " << e.what() << " (see `dlaverif --help`)\n";
    return dla::cli::kExitUsage;
  }
  for (auto& [sub, cmd] : commands)
    if (sub->parsed()) {
      try {
        return cmd.run();
      } catch (const std::exception& e) {
        std::cerr << "dlaverif: error: " << e.what() << "\n";
        return dla::cli::kExitUsage;
      }
    }
  return dla::cli::kExitUsage;
}
