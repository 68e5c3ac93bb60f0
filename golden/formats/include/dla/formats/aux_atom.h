#pragma once
// Atom size of SDP's auxiliary data (bias, PReLU, batch normalization, element-wise):
// BytesPerAtom = ElementPerAtom x ComponentsPerElement x BytesPerComponent (seed, end of
// "Element-Wise Data Format").
#include "dla/hwconfig.h"

namespace dla::formats {

enum class AuxUse : uint8_t { Bias, Prelu, BatchNorm, ElementWiseAluOrMul, ElementWiseAluAndMul };

// ElementPerAtom by PROC_PRECISION: atom/1 for int8, atom/2 for int16 and fp16
// (32 and 16 with the v1 atom of 32 bytes).
unsigned aux_elements_per_atom(Precision proc, unsigned atom_bytes = 32);
unsigned aux_components_per_element(AuxUse use);
// bytes_per_component: 1 (DATA_SIZE ONE_BYTE) or 2 (TWO_BYTE); throws otherwise.
unsigned aux_bytes_per_atom(Precision proc, AuxUse use, unsigned bytes_per_component, unsigned atom_bytes = 32);

}  // namespace dla::formats
