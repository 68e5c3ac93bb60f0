// The harness of one configuration around its code-coverage model (Vdutcov_<cfg>), for
// dlaverif-cov. Compiled once per configuration with the same definitions tb/harness uses
// (DLA_DUT_HEADER, DLA_DUT_CLASS, DLA_CFG_NAME, DLA_HAS_SRAM_IF from dla_dut_<cfg>_cov).
#include DLA_DUT_HEADER

#include <cstdlib>
#include <string>

#include "simulation_factories.h"
#include "verilated_cov.h"
#include "verilated_simulation.h"

#ifdef DLA_HAS_SRAM_IF
#define DLA_TB_HAS_SRAM true
#else
#define DLA_TB_HAS_SRAM false
#endif

namespace dla::tb::detail {

namespace {

// Writes the model's line and toggle counters when it goes away (the counters live in the
// model, so this is the last moment they exist). DLA_CODE_COVERAGE_FILE names the file
// (default coverage.dat); a second model in the same process writes <name>-2.dat and so on.
class CoverageDut : public DLA_DUT_CLASS {
 public:
  using DLA_DUT_CLASS::DLA_DUT_CLASS;
  ~CoverageDut() override {
    static int models_written = 0;
    const char* env = std::getenv("DLA_CODE_COVERAGE_FILE");
    std::string path = env && *env ? env : "coverage.dat";
    if (++models_written > 1) {
      const auto dot = path.rfind(".dat");
      const std::string suffix = "-" + std::to_string(models_written);
      path = dot == std::string::npos ? path + suffix : path.substr(0, dot) + suffix + path.substr(dot);
    }
    contextp()->coveragep()->write(path.c_str());
  }
};

}  // namespace

std::unique_ptr<Simulation> DLA_TB_FACTORY(const SimOptions& options) {
  return std::make_unique<VerilatedSimulation<CoverageDut, DLA_TB_HAS_SRAM>>(DLA_CFG_NAME, DLA_CFG_ADDR_BITS, options);
}

}  // namespace dla::tb::detail
