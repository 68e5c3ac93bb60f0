// Signal bits a configuration's RTL holds constant by elaboration (scripts/constant_bits.py:
// Yosys flattens and optimises the design; a bit it drives with 0 or 1 cannot toggle after
// reset). The code-coverage closure leaves them out of the toggle goal. They matter twice:
// they can never be hit, and Verilator's coverage model counts some of them as toggled,
// because it gives aliased and constant signals one shared counter (docs/coverage.md).
#pragma once

#include <map>
#include <set>
#include <string>

namespace dla::regression {

class ConstantBits {
 public:
  ConstantBits() = default;
  // std::runtime_error naming the file and what is wrong (unreadable, not the format).
  static ConstantBits load(const std::string& path);

  // A toggle point of Verilator's coverage: its hierarchy ("TOP.NV_nvdla.u_pdp.u_core", where
  // Verilator may have combined instances into a '*' pattern such as "u_*.u_geom") and its
  // comment ("sig[5]", or "sig" for a 1-bit signal). A combined point is constant only when
  // every instance it stands for holds the bit constant.
  bool holds(const std::string& hier, const std::string& comment) const;

  std::string config;
  size_t bits() const;

 private:
  std::map<std::string, std::map<std::string, std::set<int>>> signals_;  // hier -> signal -> bits
  std::map<std::string, std::set<std::string>> declared_;                  // hier -> every signal
};

}  // namespace dla::regression
