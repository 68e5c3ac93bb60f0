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

namespace {
std::string join_command_line(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  return command_line;
}
}  // namespace

// Sets up the commands `only` names (all of them when null) on a fresh App.
PreparedCli::PreparedCli(const char* only)
    : app_(std::make_unique<CLI::App>("dlaverif: co-verification of an NVDLA-compatible accelerator")) {
  app_->require_subcommand(1);
  std::vector<NamedCommand> factories = all_commands();
  if (only) {
    const auto named = std::find_if(factories.begin(), factories.end(),
                                    [&](const NamedCommand& c) { return c.name == std::string(only); });
    if (named == factories.end()) throw std::logic_error("PreparedCli: no command '" + std::string(only) + "'");
    factories = {*named};
    only_ = only;
  }
  for (const NamedCommand& factory : factories) {
    const size_t before = app_->get_subcommands({}).size();
    Command cmd = factory.add(*app_, command_line_);
    CLI::App* sub = app_->get_subcommands({}).at(before);
    if (sub->get_name() != factory.name)
      throw std::logic_error("all_commands(): '" + std::string(factory.name) + "' adds command '" + sub->get_name() + "'");
    commands_.emplace_back(sub, std::move(cmd));
  }
}

PreparedCli::~PreparedCli() = default;

bool PreparedCli::accepts(int argc, char** argv) const {
  return !parsed_ && (only_.empty() || (argc > 1 && argv[1] == only_));
}

int PreparedCli::run(int argc, char** argv) {
  if (parsed_) throw std::logic_error("PreparedCli::run: a command line is parsed once");
  parsed_ = true;
  command_line_ = join_command_line(argc, argv);
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app_->exit(e);
    std::cerr << "dlaverif: error: " << e.what() << " (see `dlaverif --help`)\n";
    return kExitUsage;
  }
  for (auto& [sub, cmd] : commands_)
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

int run_cli(int argc, char** argv) {
  // A command line that names a command sets up only that one (each adds dozens of options;
  // a regression starts a test process per test). Anything else (--help, a typo) sees all.
  const std::vector<NamedCommand> commands = all_commands();
  const auto named = std::find_if(commands.begin(), commands.end(),
                                  [&](const NamedCommand& c) { return argc > 1 && argv[1] == std::string(c.name); });
  PreparedCli cli(named != commands.end() ? named->name : nullptr);
  return cli.run(argc, argv);
}

int run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  return run_cli(static_cast<int>(copy.size()), argv.data());
}

}  // namespace dla::cli
