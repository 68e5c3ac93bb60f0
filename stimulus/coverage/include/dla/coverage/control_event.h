// The control part of a program (register writes, reads and interrupt waits, no memory
// payloads), kept in a test's result so that coverage models can sample sequences such as
// back-to-back launches that the golden model's layer records cannot show.
#pragma once

#include <cstdint>
#include <vector>

#include "dla/program.h"

namespace dla::cov {

struct ControlEvent {
  enum class Kind : uint8_t { Write, Read, WaitIntr };
  Kind kind = Kind::Write;
  uint32_t addr = 0;  // CSB byte address (0 for WaitIntr)
  uint32_t data = 0;  // written value; WaitIntr: the awaited GLB status bits
};

std::vector<ControlEvent> control_events(const Program& program);

}  // namespace dla::cov
