#include "dla/cli_command.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace dla::cli {

// Regression commands (cmd_regress.cpp, cmd_repro.cpp; built from regression/CMakeLists.txt).
Command add_regress_command(CLI::App& app, const std::string& command_line);
Command add_repro_command(CLI::App& app, const std::string& command_line);
Command add_trace_command(CLI::App& app, const std::string& command_line);  // cmd_trace.cpp
Command add_mutate_command(CLI::App& app, const std::string& command_line);  // cmd_mutate.cpp (mutation/)

std::vector<NamedCommand> all_commands() {
  return {{"run", add_run_command},         {"list", add_list_command},   {"regress", add_regress_command},
          {"repro", add_repro_command},     {"trace", add_trace_command}, {"mutate", add_mutate_command}};
}

int run_cli(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"dlaverif: co-verification of an NVDLA-compatible accelerator"};
  app.require_subcommand(1);
  // A command line that names a command sets up only that one (each adds dozens of options;
  // a regression starts a test process per test). Anything else (--help, a typo) sees all.
  std::vector<NamedCommand> factories = all_commands();
  const auto named = std::find_if(factories.begin(), factories.end(),
                                  [&](const NamedCommand& c) { return argc > 1 && argv[1] == std::string(c.name); });
  if (named != factories.end()) factories = {*named};
  std::vector<std::pair<CLI::App*, Command>> commands;
  for (const NamedCommand& factory : factories) {
    const size_t before = app.get_subcommands({}).size();
    Command cmd = factory.add(app, command_line);
    CLI::App* sub = app.get_subcommands({}).at(before);
    if (sub->get_name() != factory.name)
      throw std::logic_error("all_commands(): '" + std::string(factory.name) + "' adds command '" + sub->get_name() + "'");
    commands.emplace_back(sub, std::move(cmd));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "dlaverif: error: " << e.what() << " (see `dlaverif --help`)\n";
    return kExitUsage;
  }
  for (auto& [sub, cmd] : commands)
    if (sub->parsed()) {
      try {
        return cmd.run();
      } catch (const std::exception& e) {
        std::cerr << "dlaverif: error: " << e.what() << "\n";
        return kExitUsage;
      }
    }
  return kExitUsage;
}

int run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  return run_cli(static_cast<int>(copy.size()), argv.data());
}

}  // namespace dla::cli
