#pragma once
// Access to a Verilated model's public signals (/*verilator public_flat_rw*/ or _rd) by leaf
// name, through Verilator's scope table: model controls such as a mutant model's selector.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_syms.h"

namespace dla::tb::signals {

// The one public signal called `name` in any scope; std::invalid_argument when none or several.
inline const VerilatedVar& find(VerilatedContext& context, const std::string& name) {
  const VerilatedVar* found = nullptr;
  if (const VerilatedScopeNameMap* scopes = context.scopeNameMap()) {
    for (const auto& scope : *scopes) {
      const VerilatedVarNameMap* vars = scope.second->varsp();
      if (!vars) continue;
      const auto it = vars->find(name.c_str());
      if (it == vars->end()) continue;
      if (found) throw std::invalid_argument("model signal '" + name + "' is public in more than one scope");
      found = &it->second;
    }
  }
  if (!found) throw std::invalid_argument("the model has no public signal '" + name + "'");
  return *found;
}

inline void write(VerilatedContext& context, const std::string& name, uint64_t value) {
  const VerilatedVar& var = find(context, name);
  if (!var.isPublicRW()) throw std::invalid_argument("model signal '" + name + "' is read-only");
  const uint32_t bytes = var.entSize();
  const int bits = var.packed().elements();
  if (bits < 64 && (value >> bits) != 0)
    throw std::invalid_argument("value " + std::to_string(value) + " does not fit model signal '" + name + "' (" +
                                std::to_string(bits) + " bits)");
  auto* p = static_cast<uint8_t*>(var.datap());
  std::memset(p, 0, bytes);
  std::memcpy(p, &value, bytes < sizeof value ? bytes : sizeof value);  // little-endian host
}

inline std::vector<uint32_t> read(VerilatedContext& context, const std::string& name) {
  const VerilatedVar& var = find(context, name);
  const uint32_t bytes = var.entSize();
  std::vector<uint32_t> words((bytes + 3) / 4, 0);
  std::memcpy(words.data(), var.datap(), bytes);
  const int bits = var.packed().elements();
  if (bits % 32) words[static_cast<size_t>(bits / 32)] &= (1u << (bits % 32)) - 1;
  words.resize(static_cast<size_t>((bits + 31) / 32));
  return words;
}

}  // namespace dla::tb::signals
