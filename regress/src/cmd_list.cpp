// dlaverif list: configurations, built RTL models and tests.
#include <fmt/core.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "dla/cli_command.h"
#include "dla/hwconfig.h"
#include "dla/planted_bug.h"
#include "dla/simulation.h"
#include "dla/test_generator.h"

namespace dla::cli {

Command add_list_command(CLI::App& app, const std::string& /*command_line*/) {
  auto* list = app.add_subcommand("list", "list configurations and tests");
  auto plants_only = std::make_shared<bool>(false);
  list->add_flag("--plants", *plants_only, "list the planted golden-model bugs (for checker proofs)");
  auto models_only = std::make_shared<bool>(false);
  list->add_flag("--models", *models_only, "list only the built RTL models, one '<config> <dut>' a line (for scripts)");
  Command c;
  c.run = [plants_only, models_only] {
    if (*models_only) {
      for (const auto& m : tb::simulation_models()) fmt::print("{} {}\n", m.config, m.dut);
      return kExitPass;
    }
    if (*plants_only) {
      for (const auto& p : golden::planted_bug_catalogue()) fmt::print("{:<28} {}\n", p.name, p.description);
      return kExitPass;
    }
    fmt::print("configurations:\n");
    for (const auto& cfg : HwConfig::all())
      fmt::print("  {:<20} {}{}\n", cfg.name, cfg.description,
                 cfg.name == HwConfig::default_config().name ? " (default)" : "");
    const auto models = tb::simulation_models();
    fmt::print("RTL models built:{}\n", models.empty() ? " none (golden-only runs only)" : "");
    for (const auto& m : models)
      fmt::print("  {:<20} --dut {:<6} initial state {}, {} idle cycles after reset  ({})\n", m.config, m.dut,
                 tb::initial_state_name(m.initial_state), m.reset_idle_cycles, m.source);
    fmt::print("tests:\n");
    for (const auto& g : test_generators()) {
      std::string where;
      for (const auto& cfg : HwConfig::all())
        if (g.supports(cfg)) where += (where.empty() ? "" : ",") + cfg.name;
      fmt::print("  {:<14} [{}] {}\n", g.name, where, g.description);
      for (const auto& k : g.knobs)
        fmt::print("      --knob {}=<{}> {} (default {})\n", k.name, k.name, k.description,
                   k.default_value);
    }
    return kExitPass;
  };
  return c;
}

}  // namespace dla::cli
