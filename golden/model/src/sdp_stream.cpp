#include "sdp_stream.h"

#include "dla/numerics/float_convert.h"

namespace dla::golden {

uint64_t SdpMemoryInput::atom_address(const SdpLayerConfig& l, uint32_t surface, uint32_t line, uint32_t w) {
  if (l.width == 1 && l.height == 1) return l.src_base + uint64_t{surface} * l.atom_bytes;  // §15 item 13
  return l.src_base + surface * l.src_surface_stride + line * l.src_line_stride + uint64_t{w} * l.atom_bytes;
}

void SdpMemoryInput::read_atom(unsigned, uint32_t surface, uint32_t line, uint32_t w, uint32_t* lanes) {
  const unsigned a = l_.atom_bytes;
  if (l_.merge_16_to_8()) {  // §4.4: lanes 0..A/2-1 from INT16 surface 2k, the rest from 2k+1
    const unsigned half = a / 2;
    for (unsigned part = 0; part < 2; ++part) {
      mem_.read(atom_address(l_, 2 * surface + part, line, w), buf_.data(), a);
      for (unsigned i = 0; i < half; ++i)
        lanes[part * half + i] = static_cast<uint32_t>(static_cast<int32_t>(
            static_cast<int16_t>(buf_[2 * i] | (buf_[2 * i + 1] << 8))));
    }
    return;
  }
  mem_.read(atom_address(l_, surface, line, w), buf_.data(), a);
  switch (l_.in) {
    case Precision::Int8:
      for (unsigned i = 0; i < a; ++i) lanes[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(buf_[i])));
      break;
    case Precision::Int16:
      for (unsigned i = 0; i < a / 2; ++i)
        lanes[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(buf_[2 * i] | (buf_[2 * i + 1] << 8))));
      break;
    case Precision::Fp16:
      for (unsigned i = 0; i < a / 2; ++i)
        lanes[i] = num::fp16_to_fp32(static_cast<uint16_t>(buf_[2 * i] | (buf_[2 * i + 1] << 8)));
      break;
  }
}

uint64_t SdpMemoryOutput::atom_address(const SdpLayerConfig& l, unsigned batch, uint32_t surface, uint32_t line,
                                       uint32_t w) {
  const uint64_t b = uint64_t{batch} * l.dst_batch_stride;
  if (l.width == 1 && l.height == 1 && l.batches == 1) return l.dst_base + uint64_t{surface} * l.atom_bytes;
  return l.dst_base + b + surface * l.dst_surface_stride + line * l.dst_line_stride + uint64_t{w} * l.atom_bytes;
}

void SdpMemoryOutput::write_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, const uint8_t* bytes) {
  mem_.write(atom_address(l_, batch, surface, line, w), bytes, l_.atom_bytes);
}

void SdpCollectedOutput::write_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, const uint8_t* bytes) {
  atoms.push_back(Atom{batch, surface, line, w, std::vector<uint8_t>(bytes, bytes + atom_bytes)});
}

SdpOperandReader::SdpOperandReader(const SdpLayerConfig& l, const SdpOperandStream& s, const SparseMemory& mem)
    : l_(l), s_(s), mem_(mem) {
  if (!s.enabled || s.per_element) return;
  // §5.2: one block, S(PROC) * EPA(PROC) channels, pad channels included.
  const unsigned n = l.proc_surfaces() * l.proc_lanes(), bpe = s.bytes_per_element(), bpc = s.bytes_per_component();
  per_kernel_.resize(n);
  for (unsigned c = 0; c < n; ++c) {
    const uint64_t at = s.base + uint64_t{c} * bpe;
    const uint16_t first = component(at);
    const uint16_t second = s.use == SdpOperandUse::Both ? component(at + bpc) : 0;
    per_kernel_[c] = {s.carries_alu() ? first : uint16_t{0},
                      s.use == SdpOperandUse::Both ? second : (s.carries_mul() ? first : uint16_t{0})};
  }
}

uint16_t SdpOperandReader::component(uint64_t addr) const {
  if (!s_.two_byte) return static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(mem_.read_byte(addr))));
  return static_cast<uint16_t>(mem_.read_byte(addr) | (mem_.read_byte(addr + 1) << 8));
}

std::pair<uint16_t, uint16_t> SdpOperandReader::get(uint32_t surface, uint32_t line, uint32_t w, unsigned lane) const {
  if (!s_.enabled) return {0, 0};
  if (!s_.per_element) return per_kernel_[surface * l_.proc_lanes() + lane];
  // §5.3 (W = H = 1: surfaces back to back, §15 item 13)
  const unsigned epa = l_.proc_lanes(), bpe = s_.bytes_per_element(), bpc = s_.bytes_per_component();
  const uint64_t position = uint64_t{epa} * bpe;
  const uint64_t surface_stride = l_.width == 1 && l_.height == 1 ? position : s_.surface_stride;
  const uint64_t at = s_.base + surface * surface_stride + line * s_.line_stride + w * position + uint64_t{lane} * bpe;
  const uint16_t first = component(at);
  if (s_.use == SdpOperandUse::Both) return {first, component(at + bpc)};
  return {s_.carries_alu() ? first : uint16_t{0}, s_.carries_mul() ? first : uint16_t{0}};
}

}  // namespace dla::golden
