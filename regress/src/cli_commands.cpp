#include "dla/cli_command.h"

namespace dla::cli {

std::vector<CommandFactory> all_commands() {
  return {add_run_command, add_list_command};
}

}  // namespace dla::cli
