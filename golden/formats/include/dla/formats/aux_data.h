#pragma once
// SDP operand data in memory: bias, PReLU, batch-normalization pairs and element-wise data
// (seed "Bias/PReLU/Batch Normalization/Element-Wise Data Format"; sdp.md §5).
#include <cstdint>
#include <vector>

#include "dla/formats/byte_memory.h"
#include "dla/hwconfig.h"

namespace dla::formats {

enum class OperandUse : uint8_t { Alu, Mul, Both };  // DATA_USE

struct OperandFormat {
  Precision proc = Precision::Int8;  // SDP PROC_PRECISION
  OperandUse use = OperandUse::Alu;
  unsigned bytes_per_component = 2;  // 1 = ONE_BYTE, 2 = TWO_BYTE (fp16: always 2)
  unsigned atom_bytes = 32;

  unsigned components() const { return use == OperandUse::Both ? 2 : 1; }
  unsigned bytes_per_element() const { return components() * bytes_per_component; }  // BPE
  unsigned elements_per_atom() const { return proc == Precision::Int8 ? atom_bytes : atom_bytes / 2; }  // EPA
  // One w position of a per-element cube = seed BytesPerAtom.
  unsigned bytes_per_atom() const { return elements_per_atom() * bytes_per_element(); }
};
void check_operand_format(const OperandFormat& f);  // throws std::invalid_argument naming the rule

// An operand as delivered to the stage: 16 bits (ONE_BYTE data sign-extended). The unused
// component is 0 (DATA_USE ALU or MUL stores one component, used as `alu` resp. `mul`).
struct Operand {
  uint16_t alu = 0, mul = 0;
  bool operator==(const Operand& o) const { return alu == o.alu && mul == o.mul; }
};

// Per kernel (per channel): channel c at base + c*BPE (ALU first, then MUL). The block holds
// S*EPA operands (pad channels too): returns its size in bytes.
uint64_t per_kernel_block_bytes(const OperandFormat& f, uint32_t channels);
// ops.size() = channels; pad channels up to the block size are written as zero operands.
void write_per_kernel_operands(ByteSink& mem, uint64_t base, const OperandFormat& f, const std::vector<Operand>& ops);
std::vector<Operand> read_per_kernel_operands(const ByteSource& mem, uint64_t base, const OperandFormat& f,
                                              uint32_t channels);

// Per element: W x H x C cube, element (w, h, c) at
//   base + (c / EPA)*surface_stride + h*line_stride + w*EPA*BPE + (c % EPA)*BPE.
struct OperandCubeLayout {
  uint64_t base = 0, line_stride = 0, surface_stride = 0;
  // Lines of W*BytesPerAtom bytes rounded up to the atom, surfaces of H lines.
  static OperandCubeLayout packed(const OperandFormat& f, uint32_t w, uint32_t h, uint64_t base = 0);
};
uint64_t per_element_operand_address(const OperandFormat& f, const OperandCubeLayout& l, uint32_t w, uint32_t h,
                                     uint32_t c);
// ops index: (h*W + w)*C + c. Pad lanes of the last surface are written as zero operands.
void write_per_element_operands(ByteSink& mem, const OperandFormat& f, const OperandCubeLayout& l, uint32_t w,
                                uint32_t h, uint32_t c, const std::vector<Operand>& ops);
std::vector<Operand> read_per_element_operands(const ByteSource& mem, const OperandFormat& f,
                                               const OperandCubeLayout& l, uint32_t w, uint32_t h, uint32_t c);

}  // namespace dla::formats
