#include <gtest/gtest.h>

#include <random>

#include "dla/formats/aux_atom.h"
#include "dla/formats/aux_data.h"

namespace dla::formats {
namespace {

// sdp.md §13.1: BN operand block, per kernel, BOTH, TWO_BYTE, int8 PROC, 128 bytes.
TEST(AuxData, SdpWorkedExampleBnBlock) {
  const OperandFormat f{Precision::Int8, OperandUse::Both, 2, 32};
  EXPECT_EQ(per_kernel_block_bytes(f, 2), 128u);
  VectorMemory mem(0x1000, 256, 0xCD);
  write_per_kernel_operands(mem, 0x1000, f, {{0xFFFD, 0xFFF9}, {0x0014, 0x012C}});
  std::vector<uint8_t> want(128, 0);
  const uint8_t head[8] = {0xFD, 0xFF, 0xF9, 0xFF, 0x14, 0x00, 0x2C, 0x01};
  std::copy(head, head + 8, want.begin());
  EXPECT_EQ(std::vector<uint8_t>(mem.bytes().begin(), mem.bytes().begin() + 128), want);
  EXPECT_EQ(mem.bytes()[128], 0xCD);  // nothing beyond the block
  const auto ops = read_per_kernel_operands(mem, 0x1000, f, 32);
  EXPECT_EQ(static_cast<int16_t>(ops[0].alu), -3);
  EXPECT_EQ(static_cast<int16_t>(ops[0].mul), -7);
  EXPECT_EQ(ops[1].alu, 20);
  EXPECT_EQ(ops[1].mul, 300);
  EXPECT_EQ(ops[31], (Operand{0, 0}));  // pad channels read zero operands
}

// sdp.md §5.1: ONE_BYTE components are sign-extended; a single component sits at c*BPE.
TEST(AuxData, OneByteComponentsAreSignExtended) {
  const OperandFormat f{Precision::Int8, OperandUse::Mul, 1, 8};
  VectorMemory mem(0, 64);
  write_per_kernel_operands(mem, 0, f, {{0, 0xFFF0}, {0, 0x007F}, {0, 0xFF80}});
  EXPECT_EQ(mem.bytes()[0], 0xF0);
  EXPECT_EQ(mem.bytes()[1], 0x7F);
  EXPECT_EQ(mem.bytes()[2], 0x80);
  EXPECT_EQ(per_kernel_block_bytes(f, 3), 8u);
  const auto ops = read_per_kernel_operands(mem, 0, f, 3);
  EXPECT_EQ(ops[0], (Operand{0, 0xFFF0}));
  EXPECT_EQ(ops[2], (Operand{0, 0xFF80}));
  EXPECT_THROW(write_per_kernel_operands(mem, 0, f, {{0, 0x0080}}), std::invalid_argument);
  EXPECT_THROW(write_per_kernel_operands(mem, 4, f, {{0, 1}}), std::invalid_argument);  // start not atom aligned
  EXPECT_THROW(check_operand_format({Precision::Fp16, OperandUse::Alu, 1, 32}), std::invalid_argument);
}

// One w position of a per-element cube is the seed's BytesPerAtom.
TEST(AuxData, PerElementAddressesAndBytesPerAtom) {
  const OperandFormat f{Precision::Int16, OperandUse::Both, 2, 32};  // EPA 16, BPE 4
  EXPECT_EQ(f.bytes_per_atom(), aux_bytes_per_atom(Precision::Int16, AuxUse::ElementWiseAluAndMul, 2));
  const OperandFormat bn{Precision::Int8, OperandUse::Both, 2, 32};
  EXPECT_EQ(bn.bytes_per_atom(), aux_bytes_per_atom(Precision::Int8, AuxUse::BatchNorm, 2));
  const OperandCubeLayout l = OperandCubeLayout::packed(f, 3, 2, 0x400);
  EXPECT_EQ(l.line_stride, 192u);
  EXPECT_EQ(l.surface_stride, 384u);
  EXPECT_EQ(per_element_operand_address(f, l, 2, 1, 17), 0x400u + 384 + 192 + 2 * 64 + 1 * 4);
}

TEST(AuxData, RandomPerElementRoundTrip) {
  std::mt19937_64 rng(0xA0);
  for (int iter = 0; iter < 100; ++iter) {
    OperandFormat f;
    f.proc = static_cast<Precision>(rng() % 3);
    f.use = static_cast<OperandUse>(rng() % 3);
    f.bytes_per_component = f.proc == Precision::Fp16 ? 2 : 1 + static_cast<unsigned>(rng() % 2);
    f.atom_bytes = (rng() & 1) ? 8 : 32;
    const uint32_t w = 1 + static_cast<uint32_t>(rng() % 6), h = 1 + static_cast<uint32_t>(rng() % 4),
                   c = 1 + static_cast<uint32_t>(rng() % 70);
    OperandCubeLayout l = OperandCubeLayout::packed(f, w, h, f.atom_bytes * (rng() % 4));
    l.line_stride += f.atom_bytes * (rng() % 2);
    l.surface_stride = l.line_stride * h + f.atom_bytes * (rng() % 2);
    std::vector<Operand> ops(uint64_t{w} * h * c);
    for (auto& o : ops) {
      const auto val = [&] {
        return f.bytes_per_component == 1 ? static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(rng())))
                                          : static_cast<uint16_t>(rng());
      };
      o.alu = f.use == OperandUse::Mul ? 0 : val();
      o.mul = f.use == OperandUse::Alu ? 0 : val();
    }
    VectorMemory mem(0, 1 << 16, 0xCD);
    write_per_element_operands(mem, f, l, w, h, c, ops);
    ASSERT_EQ(read_per_element_operands(mem, f, l, w, h, c), ops);
    // Spot-check one element's first byte at the address formula.
    const uint32_t x = w - 1, y = h - 1, ch = c - 1;
    const uint64_t a = per_element_operand_address(f, l, x, y, ch);
    const Operand& o = ops[(uint64_t{y} * w + x) * c + ch];
    ASSERT_EQ(mem.bytes()[a], static_cast<uint8_t>(f.use == OperandUse::Mul ? o.mul : o.alu));
  }
}

}  // namespace
}  // namespace dla::formats

namespace dla::formats {
namespace {
TEST(AuxData, PackedLineStrideIsRoundedUpToTheAtom) {
  const OperandFormat f{Precision::Int16, OperandUse::Alu, 1, 32};  // 16 bytes per w position
  EXPECT_EQ(OperandCubeLayout::packed(f, 3, 2).line_stride, 64u);
  OperandCubeLayout l = OperandCubeLayout::packed(f, 3, 2);
  l.line_stride = 48;  // W * 16, not atom aligned
  VectorMemory mem(0, 1024);
  EXPECT_THROW(write_per_element_operands(mem, f, l, 3, 2, 4, std::vector<Operand>(24)), std::invalid_argument);
}
}  // namespace
}  // namespace dla::formats
