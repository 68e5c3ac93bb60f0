// One dlaverif subcommand. Each lives in its own cmd_<name>.cpp and is listed in
// cli_commands.cpp, so commands are added without touching main.cpp or each other.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace dla::cli {

// Exit codes of every command.
constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

struct Command {
  // Called when the subcommand was given; returns the exit code.
  std::function<int()> run;
};

// Adds the subcommand (options bound to state the returned Command owns).
using CommandFactory = std::function<Command(CLI::App& app, const std::string& command_line)>;

Command add_run_command(CLI::App& app, const std::string& command_line);
Command add_list_command(CLI::App& app, const std::string& command_line);

// Every command, in the order `dlaverif --help` shows them.
std::vector<CommandFactory> all_commands();

}  // namespace dla::cli
