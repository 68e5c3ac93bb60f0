#include "rubik_model.h"

#include <fmt/format.h>

#include "dla/regs.gen.h"
#include "dla/rubik_layer.h"
#include "rubik_engine.h"

namespace dla::golden {

namespace R = reg::RBK;

std::optional<LayerResult> RubikModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  const RubikLayer l = decode_rubik_registers(regs);
  const std::vector<std::string> rules = rubik_layer_violations(l, ctx.config());
  if (!rules.empty()) {
    for (const std::string& rule : rules)
      ctx.warn(fmt::format("RUBIK group {}: {}; the layer is refused and never completes", regs.group, rule));
    return std::nullopt;
  }
  run_rubik_layer(l, ctx.memory(l.in_port), ctx.memory(l.out_port));
  LayerResult r;
  r.counters = {{R::D_PERF_READ_STALL::offset, 0}, {R::D_PERF_WRITE_STALL::offset, 0}};
  return r;  // the standard RUBIK done bit of the group (GLB bit 8 / 9)
}

}  // namespace dla::golden
