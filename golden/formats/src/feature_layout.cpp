#include "dla/formats/feature_layout.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

#include "dla/formats/alignment.h"

namespace dla::formats {

unsigned channels_per_atom(unsigned atom_bytes, unsigned elem_bytes) { return atom_bytes / elem_bytes; }

uint32_t surface_count(const CubeShape& s, unsigned atom_bytes, unsigned elem_bytes) {
  const unsigned e = channels_per_atom(atom_bytes, elem_bytes);
  return (s.c + e - 1) / e;
}

bool is_line_packed(const CubeShape& s, const FeatureLayout& l) { return l.line_stride == uint64_t{s.w} * l.atom_bytes; }
bool is_surface_packed(const CubeShape& s, const FeatureLayout& l) { return l.surface_stride == uint64_t{s.h} * l.line_stride; }

FeatureLayout FeatureLayout::packed(const CubeShape& s, unsigned elem_bytes, unsigned atom_bytes, uint64_t base) {
  FeatureLayout l;
  l.base = base;
  l.atom_bytes = atom_bytes;
  l.line_stride = uint64_t{s.w} * atom_bytes;
  l.surface_stride = l.line_stride * s.h;
  l.batch_stride = l.surface_stride * surface_count(s, atom_bytes, elem_bytes);
  return l;
}

std::optional<std::string> layout_violation(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l) {
  if (l.atom_bytes != 8 && l.atom_bytes != 16 && l.atom_bytes != 32 && l.atom_bytes != 64)
    return ::fmt::format("feature layout: atom size {} is not 8, 16, 32 or 64 bytes", l.atom_bytes);
  if (elem_bytes != 1 && elem_bytes != 2)
    return ::fmt::format("feature layout: element size {} is not 1 or 2 bytes", elem_bytes);
  if (s.w == 0 || s.h == 0 || s.c == 0 || s.n == 0)
    return "feature layout: cube " + s.str() + " has a zero dimension";
  RegionParams r;
  r.start = l.base;
  r.line_stride = l.line_stride;
  r.surface_stride = l.surface_stride;
  if (s.n > 1) r.planar_stride = l.batch_stride;
  if (auto e = alignment_violation(DataFormat::FeatureCube, r, l.atom_bytes)) return e;
  const uint64_t line_min = uint64_t{s.w} * l.atom_bytes;
  if (l.line_stride < line_min)
    return ::fmt::format("feature layout: line stride {} < W*atom = {} (lines would overlap)", l.line_stride, line_min);
  const uint32_t surfaces = surface_count(s, l.atom_bytes, elem_bytes);
  if (surfaces > 1 && l.surface_stride < s.h * l.line_stride)
    return ::fmt::format("feature layout: surface stride {} < H*line stride = {} (surfaces would overlap)",
                         l.surface_stride, s.h * l.line_stride);
  if (s.n > 1 && l.batch_stride < surfaces * std::max(l.surface_stride, s.h * l.line_stride))
    return ::fmt::format("feature layout: batch stride {} < surfaces*surface stride = {} (batches would overlap)",
                         l.batch_stride, surfaces * std::max(l.surface_stride, s.h * l.line_stride));
  return std::nullopt;
}

void check_layout(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l) {
  if (auto e = layout_violation(s, elem_bytes, l)) throw std::invalid_argument(*e);
}

uint64_t element_address(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l, uint32_t w, uint32_t h,
                         uint32_t c, uint32_t n) {
  const unsigned e = channels_per_atom(l.atom_bytes, elem_bytes);
  const uint32_t surfaces = surface_count(s, l.atom_bytes, elem_bytes);
  if (w >= s.w || h >= s.h || c >= surfaces * e || n >= s.n)
    throw std::out_of_range(::fmt::format("element_address: (w={}, h={}, c={}, n={}) outside cube {} "
                                          "({} lanes incl. pad)", w, h, c, n, s.str(), surfaces * e));
  return l.base + n * l.batch_stride + (c / e) * l.surface_stride + h * l.line_stride + uint64_t{w} * l.atom_bytes +
         (c % e) * elem_bytes;
}

std::pair<uint64_t, uint64_t> footprint(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l) {
  const uint32_t surfaces = surface_count(s, l.atom_bytes, elem_bytes);
  const uint64_t last = (s.n - 1) * l.batch_stride + (surfaces - 1) * l.surface_stride + (s.h - 1) * l.line_stride +
                        uint64_t{s.w} * l.atom_bytes;
  return {l.base, l.base + last};
}

void write_feature_cube(ByteSink& mem, const FeatureTensor& t, const FeatureLayout& l, PadLanes pad) {
  const CubeShape& s = t.shape();
  const unsigned bpe = t.elem_bytes();
  check_layout(s, bpe, l);
  const unsigned e = channels_per_atom(l.atom_bytes, bpe);
  const uint32_t surfaces = surface_count(s, l.atom_bytes, bpe);
  const size_t atom = l.atom_bytes;
  const size_t pixel_bytes = size_t{s.c} * bpe;
  std::vector<uint8_t> line(s.w * atom);
  for (uint32_t n = 0; n < s.n; ++n)
    for (uint32_t sf = 0; sf < surfaces; ++sf) {
      const uint32_t c0 = sf * e;
      const size_t lanes = std::min<uint32_t>(e, s.c - c0);
      const size_t real = lanes * bpe;
      const bool whole_atoms = lanes == e || pad.fill.has_value();
      if (lanes < e && pad.fill) std::fill(line.begin(), line.end(), *pad.fill);
      for (uint32_t h = 0; h < s.h; ++h) {
        const uint8_t* src = t.data() + t.byte_offset(0, h, c0, n);
        const uint64_t addr = l.base + n * l.batch_stride + sf * l.surface_stride + h * l.line_stride;
        if (whole_atoms) {
          uint8_t* dst = line.data();
          for (uint32_t w = 0; w < s.w; ++w, src += pixel_bytes, dst += atom) std::memcpy(dst, src, real);
          mem.write(addr, line.data(), line.size());
        } else {  // pad bytes are "don't care": write only the real lanes of each atom
          for (uint32_t w = 0; w < s.w; ++w, src += pixel_bytes) mem.write(addr + w * atom, src, real);
        }
      }
    }
}

FeatureTensor read_feature_cube(const ByteSource& mem, const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l) {
  check_layout(s, elem_bytes, l);
  FeatureTensor t(s, elem_bytes);
  const unsigned e = channels_per_atom(l.atom_bytes, elem_bytes);
  const uint32_t surfaces = surface_count(s, l.atom_bytes, elem_bytes);
  const size_t atom = l.atom_bytes;
  const size_t pixel_bytes = size_t{s.c} * elem_bytes;
  std::vector<uint8_t> line(s.w * atom);
  for (uint32_t n = 0; n < s.n; ++n)
    for (uint32_t sf = 0; sf < surfaces; ++sf) {
      const uint32_t c0 = sf * e;
      const size_t real = std::min<uint32_t>(e, s.c - c0) * elem_bytes;
      for (uint32_t h = 0; h < s.h; ++h) {
        mem.read(l.base + n * l.batch_stride + sf * l.surface_stride + h * l.line_stride, line.data(), line.size());
        uint8_t* dst = t.data() + t.byte_offset(0, h, c0, n);
        const uint8_t* src = line.data();
        for (uint32_t w = 0; w < s.w; ++w, dst += pixel_bytes, src += atom) std::memcpy(dst, src, real);
      }
    }
  return t;
}

std::optional<std::pair<CubeShape, FeatureLayout>> as_line_of_atoms(const CubeShape& s, unsigned elem_bytes,
                                                                    const FeatureLayout& l) {
  if (s.w != 1 || s.h != 1 || s.n != 1) return std::nullopt;
  const uint32_t surfaces = surface_count(s, l.atom_bytes, elem_bytes);
  if (surfaces > 1 && l.surface_stride != l.atom_bytes) return std::nullopt;
  const CubeShape line{surfaces, 1, channels_per_atom(l.atom_bytes, elem_bytes), 1};
  FeatureLayout out = FeatureLayout::packed(line, elem_bytes, l.atom_bytes, l.base);
  return std::make_pair(line, out);
}

}  // namespace dla::formats
