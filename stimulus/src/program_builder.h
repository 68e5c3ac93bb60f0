// Small helper to append program operations with register names resolved once.
#pragma once

#include <stdexcept>
#include <string>

#include "dla/program.h"
#include "dla/register_map.h"

namespace dla::stimulus {

class ProgramBuilder {
 public:
  ProgramBuilder(const HwConfig& cfg, Program& p) : cfg_(cfg), map_(RegisterMap::of(cfg)), p_(p) {}

  // CSB address of "UNIT.REGISTER"; throws if the configuration lacks it.
  uint32_t addr(const std::string& name) const {
    const RegInfo* r = map_.find(name);
    if (!r) throw std::logic_error("configuration '" + cfg_.name + "' has no register " + name);
    return map_.address_of(*r);
  }
  void write(uint32_t a, uint32_t v, bool nposted = false) { p_.ops.push_back(RegWrite{a, v, nposted}); }
  void read(uint32_t a, uint32_t mask, std::optional<uint32_t> expect, std::string what) {
    p_.ops.push_back(RegRead{a, mask, expect, std::move(what)});
  }
  // A counter read while its layer runs: the golden model's count or 0 (RegRead::zero_ok).
  void read_count_or_zero(uint32_t a, std::string what) {
    RegRead r{a, 0xffffffffu, std::nullopt, std::move(what)};
    r.zero_ok = true;
    p_.ops.push_back(std::move(r));
  }
  void poll(PollReg p) { p_.ops.push_back(std::move(p)); }
  void load(MemPort port, uint64_t a, std::vector<uint8_t> bytes) { p_.ops.push_back(MemLoad{port, a, std::move(bytes)}); }
  void wait_intr(uint32_t bits, uint64_t timeout = 0) { p_.ops.push_back(WaitIntr{bits, timeout, {}}); }
  void idle(uint32_t cycles) { p_.ops.push_back(Idle{cycles}); }
  void note(std::string s) { p_.notes.push_back(std::move(s)); }

  const RegisterMap& map() const { return map_; }

 private:
  const HwConfig& cfg_;
  const RegisterMap& map_;
  Program& p_;
};

}  // namespace dla::stimulus
