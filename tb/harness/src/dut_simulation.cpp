// Compiled once per configuration: DLA_DUT_HEADER, DLA_DUT_CLASS, DLA_CFG_NAME,
// DLA_CFG_ADDR_BITS and DLA_HAS_SRAM_IF come from the dla_dut_<cfg> target, DLA_TB_FACTORY from tb/harness.
#include DLA_DUT_HEADER

#include "simulation_factories.h"
#include "verilated_simulation.h"

#ifdef DLA_HAS_SRAM_IF
#define DLA_TB_HAS_SRAM true
#else
#define DLA_TB_HAS_SRAM false
#endif

namespace dla::tb::detail {

std::unique_ptr<Simulation> DLA_TB_FACTORY(const SimOptions& options) {
  return std::make_unique<VerilatedSimulation<DLA_DUT_CLASS, DLA_TB_HAS_SRAM>>(DLA_CFG_NAME, DLA_CFG_ADDR_BITS,
                                                                            options);
}

}  // namespace dla::tb::detail
