// The two memory interfaces of the accelerator: DBB (main memory, MCIF) and SRAM (CV-SRAM,
// CVIF; present only when HwConfig::sram_if).
#pragma once

#include <cstdint>

namespace dla {

enum class MemPort : uint8_t { Dbb = 0, Sram = 1 };
constexpr unsigned kMemPortCount = 2;

// "dbb" / "sram" (used in reports, signatures and JSON).
inline const char* mem_port_name(MemPort p) { return p == MemPort::Dbb ? "dbb" : "sram"; }

}  // namespace dla
