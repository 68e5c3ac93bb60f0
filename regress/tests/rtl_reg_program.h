// Shared by the directed RTL tests (rtl_pdp_test, rtl_cdp_test, rtl_sdp_pdp_test): a test
// program written register by register, with register names resolved in the configuration's
// map, so that directed cases read like the spec's register tables. The unit builders
// (PdpProgram, CdpProgram, FusedProgram) derive from it and add their layer fields.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/program.h"
#include "dla/register_map.h"
#include "rtl_test_support.h"

namespace dla {

class RegProgram {
 public:
  RegProgram(const std::string& config, const std::string& test)
      : cfg_(HwConfig::get(config)), map_(RegisterMap::of(cfg_)) {
    p_.test = test;
    p_.config = config;
  }
  uint32_t addr(const std::string& reg) const {
    const RegInfo* r = map_.find(reg);
    BOOST_REQUIRE_MESSAGE(r, "no register " << reg);
    return map_.address_of(*r);
  }
  void write(const std::string& reg, uint32_t v) { p_.ops.push_back(RegWrite{addr(reg), v}); }
  // A read, checked against `expect` when given (the golden model checks the others);
  // `what` names it in reports (default: the register).
  void read(const std::string& reg, std::optional<uint32_t> expect = std::nullopt, std::string what = {}) {
    p_.ops.push_back(RegRead{addr(reg), 0xffffffffu, expect, what.empty() ? reg : std::move(what)});
  }
  void load(uint64_t a, std::vector<uint8_t> bytes, MemPort port = MemPort::Dbb) {
    p_.ops.push_back(MemLoad{port, a, std::move(bytes)});
  }
  void idle(uint32_t cycles) { p_.ops.push_back(Idle{cycles}); }
  // Waits until GLB.S_INTR_STATUS has all of `bits`, then clears them.
  void wait_intr(uint32_t bits, const std::string& what) {
    WaitIntr wait;
    wait.status_bits = bits;
    wait.what = what;
    p_.ops.push_back(wait);
    p_.ops.push_back(RegWrite{addr("GLB.S_INTR_STATUS"), bits});
  }
  const Program& get() const { return p_; }
  // Plays the program on the RTL (golden model and scoreboard check it).
  RunResult run() const { return run_program(request(p_.config, p_.test, 1), p_); }
  unsigned atom_bytes() const { return cfg_.atom_bytes; }

 protected:
  const HwConfig& cfg_;
  const RegisterMap& map_;
  Program p_;
};

}  // namespace dla
