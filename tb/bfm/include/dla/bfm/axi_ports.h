#pragma once
// DUT-agnostic snapshots of one AXI4 port as NVDLA uses it (no size/burst/lock/cache/prot/resp:
// bursts are INCR, full width and aligned). The data width is a runtime parameter of the
// BFMs (1..kMaxAxiDataBytes bytes); bytes beyond it are ignored.
#include <array>
#include <cstdint>

namespace dla::tb {

inline constexpr unsigned kMaxAxiDataBytes = 64;
using AxiData = std::array<uint8_t, kMaxAxiDataBytes>;  // byte i = data bits [8i+7:8i]

// Signals driven by the AXI master (the DUT).
struct AxiMasterOut {
  bool awvalid = false;
  uint8_t awid = 0;
  uint8_t awlen = 0;  // beats - 1
  uint64_t awaddr = 0;
  bool wvalid = false;
  AxiData wdata{};
  uint64_t wstrb = 0;  // bit i enables wdata byte i
  bool wlast = false;
  bool bready = false;
  bool arvalid = false;
  uint8_t arid = 0;
  uint8_t arlen = 0;
  uint64_t araddr = 0;
  bool rready = false;
};

// Signals driven by the AXI slave (the testbench memory).
struct AxiSlaveOut {
  bool awready = false;
  bool wready = false;
  bool bvalid = false;
  uint8_t bid = 0;
  bool arready = false;
  bool rvalid = false;
  uint8_t rid = 0;
  bool rlast = false;
  AxiData rdata{};
};

// Throws std::invalid_argument unless data_bytes is a power of two in 1..kMaxAxiDataBytes.
void validate_axi_data_bytes(unsigned data_bytes, const char* who);

}  // namespace dla::tb
