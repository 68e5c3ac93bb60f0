#include "dla/formats/aux_data.h"

#include <fmt/format.h>
#include <stdexcept>

#include "dla/formats/alignment.h"

namespace dla::formats {
namespace {

void store(uint8_t* p, const OperandFormat& f, const Operand& op) {
  const uint16_t comp[2] = {f.use == OperandUse::Mul ? op.mul : op.alu, op.mul};
  for (unsigned i = 0; i < f.components(); ++i) {
    uint8_t* q = p + i * f.bytes_per_component;
    q[0] = static_cast<uint8_t>(comp[i]);
    if (f.bytes_per_component == 2) q[1] = static_cast<uint8_t>(comp[i] >> 8);
  }
}

Operand load(const uint8_t* p, const OperandFormat& f) {
  uint16_t comp[2] = {0, 0};
  for (unsigned i = 0; i < f.components(); ++i) {
    const uint8_t* q = p + i * f.bytes_per_component;
    comp[i] = f.bytes_per_component == 2 ? static_cast<uint16_t>(q[0] | (q[1] << 8))
                                         : static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(q[0])));
  }
  if (f.use == OperandUse::Mul) return {0, comp[0]};
  if (f.use == OperandUse::Alu) return {comp[0], 0};
  return {comp[0], comp[1]};
}

uint32_t surfaces(const OperandFormat& f, uint32_t c) { return (c + f.elements_per_atom() - 1) / f.elements_per_atom(); }

void check_values(const OperandFormat& f, const std::vector<Operand>& ops) {
  if (f.bytes_per_component != 1) return;
  for (size_t i = 0; i < ops.size(); ++i) {
    const bool alu = f.use != OperandUse::Mul, mul = f.use != OperandUse::Alu;
    for (uint16_t v : {alu ? ops[i].alu : uint16_t{0}, mul ? ops[i].mul : uint16_t{0}}) {
      const auto s = static_cast<int16_t>(v);
      if (s < -128 || s > 127)
        throw std::invalid_argument(::fmt::format("operand {}: value {:#x} does not fit a ONE_BYTE component", i, v));
    }
  }
}

}  // namespace

void check_operand_format(const OperandFormat& f) {
  if (f.bytes_per_component != 1 && f.bytes_per_component != 2)
    throw std::invalid_argument(::fmt::format("operand format: bytes per component {} is not 1 or 2",
                                              f.bytes_per_component));
  if (f.proc == Precision::Fp16 && f.bytes_per_component != 2)
    throw std::invalid_argument("operand format: fp16 operands are always TWO_BYTE");
  if (f.atom_bytes != 8 && f.atom_bytes != 16 && f.atom_bytes != 32 && f.atom_bytes != 64)
    throw std::invalid_argument(::fmt::format("operand format: atom size {} is not 8, 16, 32 or 64", f.atom_bytes));
}

uint64_t per_kernel_block_bytes(const OperandFormat& f, uint32_t channels) {
  check_operand_format(f);
  return uint64_t{surfaces(f, channels)} * f.elements_per_atom() * f.bytes_per_element();
}

void write_per_kernel_operands(ByteSink& mem, uint64_t base, const OperandFormat& f, const std::vector<Operand>& ops) {
  check_operand_format(f);
  check_alignment(DataFormat::Bias, RegionParams{base, {}, {}, {}, {}}, f.atom_bytes);
  check_values(f, ops);
  std::vector<uint8_t> block(per_kernel_block_bytes(f, static_cast<uint32_t>(ops.size())), 0);
  for (size_t c = 0; c < ops.size(); ++c) store(block.data() + c * f.bytes_per_element(), f, ops[c]);
  mem.write(base, block.data(), block.size());
}

std::vector<Operand> read_per_kernel_operands(const ByteSource& mem, uint64_t base, const OperandFormat& f,
                                              uint32_t channels) {
  check_operand_format(f);
  std::vector<uint8_t> block(uint64_t{channels} * f.bytes_per_element());
  mem.read(base, block.data(), block.size());
  std::vector<Operand> ops(channels);
  for (uint32_t c = 0; c < channels; ++c) ops[c] = load(block.data() + c * f.bytes_per_element(), f);
  return ops;
}

OperandCubeLayout OperandCubeLayout::packed(const OperandFormat& f, uint32_t w, uint32_t h, uint64_t base) {
  OperandCubeLayout l;
  l.base = base;
  // The alignment table asks for atom-aligned strides even when a line is not whole atoms
  // (e.g. int16 PROC with one ONE_BYTE component: 16 bytes per w position on v1).
  const uint64_t a = f.atom_bytes;
  l.line_stride = (uint64_t{w} * f.bytes_per_atom() + a - 1) / a * a;
  l.surface_stride = l.line_stride * h;
  return l;
}

uint64_t per_element_operand_address(const OperandFormat& f, const OperandCubeLayout& l, uint32_t w, uint32_t h,
                                     uint32_t c) {
  const uint32_t epa = f.elements_per_atom();
  return l.base + (c / epa) * l.surface_stride + h * l.line_stride + uint64_t{w} * f.bytes_per_atom() +
         (c % epa) * f.bytes_per_element();
}

namespace {
void check_cube(const OperandFormat& f, const OperandCubeLayout& l, uint32_t w, uint32_t h, uint32_t c) {
  check_operand_format(f);
  if (w == 0 || h == 0 || c == 0) throw std::invalid_argument("operand cube: every dimension must be >= 1");
  RegionParams r{l.base, l.line_stride, l.surface_stride, {}, {}};
  check_alignment(DataFormat::Bias, r, f.atom_bytes);
  if (l.line_stride < uint64_t{w} * f.bytes_per_atom())
    throw std::invalid_argument(::fmt::format("operand cube: line stride {} < W * BytesPerAtom = {} (lines would overlap)",
                                              l.line_stride, uint64_t{w} * f.bytes_per_atom()));
  if (surfaces(f, c) > 1 && l.surface_stride < h * l.line_stride)
    throw std::invalid_argument(::fmt::format("operand cube: surface stride {} < H * line stride = {} (surfaces would overlap)",
                                              l.surface_stride, h * l.line_stride));
}
}  // namespace

void write_per_element_operands(ByteSink& mem, const OperandFormat& f, const OperandCubeLayout& l, uint32_t w,
                                uint32_t h, uint32_t c, const std::vector<Operand>& ops) {
  check_cube(f, l, w, h, c);
  if (ops.size() != uint64_t{w} * h * c)
    throw std::invalid_argument(::fmt::format("operand cube: {} operands given for {}x{}x{}", ops.size(), w, h, c));
  check_values(f, ops);
  const uint32_t epa = f.elements_per_atom();
  std::vector<uint8_t> line(uint64_t{w} * f.bytes_per_atom());
  for (uint32_t sf = 0; sf < surfaces(f, c); ++sf)
    for (uint32_t y = 0; y < h; ++y) {
      std::fill(line.begin(), line.end(), 0);
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t l2 = 0; l2 < epa && sf * epa + l2 < c; ++l2)
          store(line.data() + uint64_t{x} * f.bytes_per_atom() + l2 * f.bytes_per_element(), f,
                ops[(uint64_t{y} * w + x) * c + sf * epa + l2]);
      mem.write(l.base + sf * l.surface_stride + y * l.line_stride, line.data(), line.size());
    }
}

std::vector<Operand> read_per_element_operands(const ByteSource& mem, const OperandFormat& f,
                                               const OperandCubeLayout& l, uint32_t w, uint32_t h, uint32_t c) {
  check_cube(f, l, w, h, c);
  std::vector<Operand> ops(uint64_t{w} * h * c);
  const uint32_t epa = f.elements_per_atom();
  std::vector<uint8_t> line(uint64_t{w} * f.bytes_per_atom());
  for (uint32_t sf = 0; sf < surfaces(f, c); ++sf)
    for (uint32_t y = 0; y < h; ++y) {
      mem.read(l.base + sf * l.surface_stride + y * l.line_stride, line.data(), line.size());
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t l2 = 0; l2 < epa && sf * epa + l2 < c; ++l2)
          ops[(uint64_t{y} * w + x) * c + sf * epa + l2] =
              load(line.data() + uint64_t{x} * f.bytes_per_atom() + l2 * f.bytes_per_element(), f);
    }
  return ops;
}

}  // namespace dla::formats
