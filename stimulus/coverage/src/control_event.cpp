#include "dla/coverage/control_event.h"

#include <type_traits>

namespace dla::cov {

std::vector<ControlEvent> control_events(const Program& program) {
  std::vector<ControlEvent> out;
  for (const ProgramOp& op : program.ops)
    std::visit(
        [&](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, RegWrite>) out.push_back({ControlEvent::Kind::Write, o.addr, o.data});
          else if constexpr (std::is_same_v<T, RegRead>) out.push_back({ControlEvent::Kind::Read, o.addr, 0});
          else if constexpr (std::is_same_v<T, WaitIntr>) out.push_back({ControlEvent::Kind::WaitIntr, 0, o.status_bits});
        },
        op);
  return out;
}

}  // namespace dla::cov
