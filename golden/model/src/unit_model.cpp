#include "dla/unit_model.h"

#include <algorithm>

namespace dla {

uint32_t RegisterSnapshot::get(uint32_t offset) const {
  const auto it = std::lower_bound(values.begin(), values.end(), offset,
                                   [](const auto& kv, uint32_t o) { return kv.first < o; });
  return it != values.end() && it->first == offset ? it->second : 0;
}

std::optional<LayerResult> UnitModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  ctx.warn(std::string("unit ") + unit_name(regs.unit) +
           ": its golden model does not execute ping-pong layers; the group stays armed");
  return std::nullopt;
}

bool UnitModel::ready(const RegisterSnapshot&, UnitContext&) { return true; }

void UnitModel::on_write(uint32_t, uint32_t, UnitContext&) {}

std::optional<uint32_t> UnitModel::read_hw(uint32_t) const { return std::nullopt; }

}  // namespace dla
