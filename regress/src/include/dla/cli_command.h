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

// Adds the subcommand (options bound to state the returned Command owns). command_line is
// the whole command line as typed; it may be set only after the factory returned (PreparedCli):
// a factory that keeps it reads it in its Command's run, not before.
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

// main() calls it first: in the regression's test fork server (an exec'd dlaverif with
// DLA_TEST_FORK_SERVER set, cmd_regress.cpp) it serves and never returns; otherwise nothing.
void run_test_fork_server_if_asked();

// A command line set up before it is known: the App and one command's options (or all
// commands'), then, once, the parse and the run. The regression's test fork server prepares
// `run` once and every forked test only parses its arguments (docs/regression.md, Runner
// overhead). run_cli(argc, argv) is PreparedCli(the named command).run(argc, argv).
class PreparedCli {
 public:
  explicit PreparedCli(const char* only = nullptr);  // nullptr: every command
  ~PreparedCli();
  PreparedCli(const PreparedCli&) = delete;
  PreparedCli& operator=(const PreparedCli&) = delete;

  // Not parsed yet, and argv names the prepared command (or every command is prepared).
  bool accepts(int argc, char** argv) const;
  // Parses argv (argv[0] first), runs the command, returns the exit code; once per object.
  int run(int argc, char** argv);

 private:
  std::unique_ptr<CLI::App> app_;
  std::vector<std::pair<CLI::App*, Command>> commands_;
  std::string only_;
  std::string command_line_;  // the factories' command_line, set by run() before the parse
  bool parsed_ = false;
};
int run_cli(const std::vector<std::string>& argv);

}  // namespace dla::cli
