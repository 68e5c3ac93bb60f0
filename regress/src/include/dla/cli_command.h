// One dlaverif subcommand. Each lives in its own cmd_<name>.cpp and is listed in
// cli_commands.cpp, so commands are added without touching main.cpp or each other.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
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

// `dlaverif regress` runs the plan's gradings (Plan::gradings at `level`) before its tests, with
// `dlaverif mutate` into the regression's out dir and store. Every mutant model is checked
// before the first grading starts. Returns the first non-zero exit code of a grading (2 bad input,
// 130 interrupted; a kill rate is never a failure here), else 0.
int run_plan_gradings(const std::string& plan_path, const std::string& level, unsigned parallel,
                      const std::string& out_dir, const std::string& db_path, bool quiet);

// Every command with the name its factory gives it, in the order `dlaverif --help` shows them.
struct NamedCommand {
  const char* name;
  CommandFactory add;
};
std::vector<NamedCommand> all_commands();

// dlaverif's command line (argv[0] first): parses it, runs the command, returns the exit code.
// main() calls it; so does a test process the regression runner forks without exec.
int run_cli(int argc, char** argv);
int run_cli(const std::vector<std::string>& argv);

}  // namespace dla::cli
