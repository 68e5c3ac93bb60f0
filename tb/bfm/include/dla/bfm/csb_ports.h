#pragma once
// DUT-agnostic snapshots of NVDLA's CSB (configuration space bus) port.
#include <cstdint>

namespace dla::tb {

inline constexpr uint32_t kCsbByteAddressLimit = 1u << 18;  // 16-bit word address

// Driven by the CSB master (testbench) into csb2nvdla_*.
struct CsbMasterOut {
  bool valid = false;
  uint16_t addr = 0;  // word address = byte address >> 2
  uint32_t wdat = 0;
  bool write = false;
  bool nposted = false;
};

// Driven by the DUT on csb2nvdla_ready and nvdla2csb_*.
struct CsbSlaveOut {
  bool ready = false;
  bool rvalid = false;  // nvdla2csb_valid: read data (no back-pressure)
  uint32_t rdata = 0;
  bool wr_complete = false;  // completion of a non-posted write (no back-pressure)
};

}  // namespace dla::tb
