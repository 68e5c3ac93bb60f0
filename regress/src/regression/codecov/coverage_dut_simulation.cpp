// The harness of one configuration around its code-coverage model (Vdutcov_<cfg>), for
// dlaverif-cov. Compiled once per configuration with the same definitions tb/harness uses
// (DLA_DUT_HEADER, DLA_DUT_CLASS, DLA_CFG_NAME, DLA_HAS_SRAM_IF from dla_dut_<cfg>_cov).
#include DLA_DUT_HEADER

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "dla/regression/coverage_file_gzip.h"
#include "dla/regression/reset_phase_coverage.h"

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

// The file this model writes: DLA_CODE_COVERAGE_FILE (default coverage.dat); a second model in
// the same process writes <name>-2.dat and so on.
std::string next_coverage_path() {
  static int models = 0;
  const char* env = std::getenv("DLA_CODE_COVERAGE_FILE");
  std::string path = env && *env ? env : "coverage.dat";
  if (++models > 1) {
    const auto dot = path.rfind(".dat");
    const std::string suffix = "-" + std::to_string(models);
    path = dot == std::string::npos ? path + suffix : path.substr(0, dot) + suffix + path.substr(dot);
  }
  return path;
}

// Writes the model's line and toggle counters (then gzip-compressed: <file>.gz) when it goes
// away (the counters live in the model, so this is the last moment they exist). At reset release it saves the counters to
// <file>.reset and zeroes them, so toggles count only after reset (the random start would
// otherwise toggle nearly every bit); the reset phase's line hits are added back at the end.
// The line hits of the clocks before reset stay in that snapshot on purpose: Verilator 5.006
// counts the lines of many combinational blocks (register read muxes, the AXI master's burst
// split, datapath selects) only when it settles the model at time 0, although the logic runs
// all the time; zeroing them at reset assertion lost 752 live lines on small (90.6 % -> 76.7 %
// for one regs.access and two pdp.random tests) and v1 SDP's 96.2 % became 64.6 %.
class CoverageDut : public DLA_DUT_CLASS {
 public:
  using DLA_DUT_CLASS::DLA_DUT_CLASS;

  void on_reset_release() {
    contextp()->coveragep()->write(reset_path().c_str());
    contextp()->coveragep()->zero();
    reset_saved_ = true;
  }

  ~CoverageDut() override {
    contextp()->coveragep()->write(path_.c_str());
    if (reset_saved_) {
      try {
        dla::regression::add_reset_phase_hits(path_, reset_path());
        std::remove(reset_path().c_str());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "dlaverif-cov: the reset phase's line hits are not in %s: %s\n", path_.c_str(), e.what());
      }
    }
    // Kept compressed (~25x smaller): the regression's merge expands it again.
    try {
      dla::regression::gzip_coverage_file(path_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dlaverif-cov: %s (the file stays uncompressed)\n", e.what());
    }
  }

 private:
  std::string reset_path() const { return path_ + ".reset"; }

  std::string path_ = next_coverage_path();
  bool reset_saved_ = false;
};

}  // namespace

std::unique_ptr<Simulation> DLA_TB_FACTORY(const SimOptions& options) {
  return std::make_unique<VerilatedSimulation<CoverageDut, DLA_TB_HAS_SRAM>>(DLA_CFG_NAME, DLA_CFG_ADDR_BITS, options);
}

}  // namespace dla::tb::detail
