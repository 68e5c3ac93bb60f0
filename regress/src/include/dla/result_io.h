// Shared pieces of the commands that run tests: knobs, out dirs, verdict lines, result.json.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "dla/run_request.h"

namespace dla::cli {

// "NAME=VALUE" strings to a knob map; std::invalid_argument naming a malformed one.
std::map<std::string, std::string> parse_knobs(const std::vector<std::string>& items);
// Creates the directory and checks that it is writable (std::invalid_argument if not), so a
// long run does not end in an unwritable directory.
void prepare_out_dir(const std::string& dir);
// One verdict line and one repro line (errors: one line on `err`).
void print_verdict(const RunResult& res, std::ostream& out, std::ostream& err);
// <dir>/result.json; std::runtime_error if it cannot be written.
void write_result_json(const RunResult& res, const std::string& dir);
int exit_code(Verdict v);

// --dut, --initial-state, --reset-idle-cycles on a command that runs the RTL: which built model
// of the configuration runs, and how it starts (the model's configure-time defaults unless
// given). Call the returned function after parsing: it stores --reset-idle-cycles in `req`.
std::function<void()> add_dut_options(CLI::App* cmd, RunRequest& req);

}  // namespace dla::cli
