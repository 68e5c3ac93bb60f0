#include <gtest/gtest.h>

#include "dla/formats/aux_atom.h"

namespace dla::formats {
namespace {

// BytesPerAtom for the v1 atom from the seed's three tables: ElementPerAtom (int8 32,
// int16/fp16 16) x ComponentsPerElement x BytesPerComponent, spelled out per case.
TEST(AuxAtom, BytesPerAtomTable) {
  struct Case { Precision p; AuxUse u; unsigned bpc, bytes; };
  const Case cases[] = {
      {Precision::Int8, AuxUse::Bias, 1, 32},
      {Precision::Int8, AuxUse::Bias, 2, 64},
      {Precision::Int16, AuxUse::Bias, 2, 32},
      {Precision::Fp16, AuxUse::Bias, 2, 32},
      {Precision::Int8, AuxUse::Prelu, 1, 32},
      {Precision::Int8, AuxUse::BatchNorm, 1, 64},
      {Precision::Int8, AuxUse::BatchNorm, 2, 128},
      {Precision::Int16, AuxUse::BatchNorm, 2, 64},
      {Precision::Fp16, AuxUse::BatchNorm, 2, 64},
      {Precision::Int8, AuxUse::ElementWiseAluOrMul, 1, 32},
      {Precision::Int8, AuxUse::ElementWiseAluAndMul, 2, 128},
      {Precision::Int16, AuxUse::ElementWiseAluAndMul, 1, 32},
      {Precision::Fp16, AuxUse::ElementWiseAluAndMul, 2, 64},
  };
  for (const Case& c : cases)
    EXPECT_EQ(aux_bytes_per_atom(c.p, c.u, c.bpc), c.bytes)
        << precision_name(c.p) << " use " << static_cast<int>(c.u) << " bpc " << c.bpc;
  EXPECT_EQ(aux_elements_per_atom(Precision::Int8), 32u);
  EXPECT_EQ(aux_elements_per_atom(Precision::Fp16), 16u);
  EXPECT_EQ(aux_elements_per_atom(Precision::Int8, 8), 8u);
  EXPECT_THROW(aux_bytes_per_atom(Precision::Int8, AuxUse::Bias, 3), std::invalid_argument);
  EXPECT_THROW(aux_bytes_per_atom(Precision::Fp16, AuxUse::Bias, 1), std::invalid_argument);
}

}  // namespace
}  // namespace dla::formats
