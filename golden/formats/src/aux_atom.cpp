#include "dla/formats/aux_atom.h"

#include <fmt/format.h>
#include <stdexcept>

namespace dla::formats {

unsigned aux_elements_per_atom(Precision proc, unsigned atom_bytes) {
  return proc == Precision::Int8 ? atom_bytes : atom_bytes / 2;
}

unsigned aux_components_per_element(AuxUse use) {
  switch (use) {
    case AuxUse::Bias:
    case AuxUse::Prelu:
    case AuxUse::ElementWiseAluOrMul: return 1;
    case AuxUse::BatchNorm:
    case AuxUse::ElementWiseAluAndMul: return 2;
  }
  throw std::invalid_argument("aux_components_per_element: unknown use");
}

unsigned aux_bytes_per_atom(Precision proc, AuxUse use, unsigned bytes_per_component, unsigned atom_bytes) {
  if (bytes_per_component != 1 && bytes_per_component != 2)
    throw std::invalid_argument(::fmt::format(
        "aux_bytes_per_atom: bytes per component must be 1 (ONE_BYTE) or 2 (TWO_BYTE), got {}", bytes_per_component));
  if (proc == Precision::Fp16 && bytes_per_component != 2)
    throw std::invalid_argument("aux_bytes_per_atom: fp16 auxiliary data is always 2 bytes per component");
  return aux_elements_per_atom(proc, atom_bytes) * aux_components_per_element(use) * bytes_per_component;
}

}  // namespace dla::formats
