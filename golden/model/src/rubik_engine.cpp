#include "rubik_engine.h"

#include <algorithm>
#include <vector>

#include "dla/planted_bug.h"

namespace dla::golden {

namespace {

constexpr uint64_t kAtom = kRubikAtom;

uint64_t atoms_bytes(uint64_t bytes) { return (bytes + kAtom - 1) / kAtom * kAtom; }

// §4.2: for each output surface s, input row h, y-phase ty, the output line (Wi*sx atoms)
// gathered from the sx x-phase groups of the input and written once.
void contract(const RubikLayer& l, SparseMemory& in, SparseMemory& out) {
  const uint32_t sx = l.stride_x, sy = l.stride_y;
  std::vector<uint8_t> line(static_cast<size_t>(uint64_t{l.width} * sx * kAtom));
  for (uint32_t s = 0; s < l.out_surfaces(); ++s)
    for (uint32_t h = 0; h < l.height; ++h)
      for (uint32_t ty = 0; ty < sy; ++ty) {
        for (uint32_t tx = 0; tx < sx; ++tx) {
          const uint64_t group = l.in + uint64_t{ty * sx + tx} * l.contract0 + uint64_t{s} * l.in_surface +
                                 uint64_t{h} * l.in_line;
          const uint32_t place = planted("rubik.contract_phase") ? sx - 1 - tx : tx;
          for (uint32_t w = 0; w < l.width; ++w)
            in.read(group + uint64_t{w} * kAtom, &line[(uint64_t{w} * sx + place) * kAtom], kAtom);
        }
        out.write(l.out + uint64_t{s} * l.out_surface + uint64_t{h} * l.contract1 + uint64_t{ty} * l.out_line,
                  line.data(), line.size());
      }
}

// §4.3: per input surface, row and 64-column chunk, the chunk's atoms are read and one plane
// row chunk is written per channel of the surface (below Co), its tail up to the atom zero.
void split(const RubikLayer& l, SparseMemory& in, SparseMemory& out) {
  const unsigned bpe = l.element_bytes(), lanes = l.lanes();
  std::vector<uint8_t> atoms(kRubikChunkElements * kAtom), row;
  for (uint32_t s = 0; s < l.in_surfaces(); ++s)
    for (uint32_t h = 0; h < l.height; ++h)
      for (uint32_t w0 = 0; w0 < l.width; w0 += kRubikChunkElements) {
        const uint32_t n = std::min<uint32_t>(kRubikChunkElements, l.width - w0);
        in.read(l.in + uint64_t{s} * l.in_surface + uint64_t{h} * l.in_line + uint64_t{w0} * kAtom, atoms.data(),
                uint64_t{n} * kAtom);
        const uint32_t c_end = std::min<uint32_t>(l.out_channels, (s + 1) * lanes);
        for (uint32_t c = s * lanes; c < c_end; ++c) {
          const unsigned lane = c - s * lanes;
          row.assign(static_cast<size_t>(atoms_bytes(uint64_t{n} * bpe)), planted("rubik.split_tail") ? 0xFF : 0);
          for (uint32_t w = 0; w < n; ++w)
            std::copy_n(&atoms[uint64_t{w} * kAtom + lane * bpe], bpe, &row[uint64_t{w} * bpe]);
          out.write(l.out + uint64_t{c} * l.out_planar + uint64_t{h} * l.out_line + uint64_t{w0} * bpe, row.data(),
                    row.size());
        }
      }
}

// §4.4: per output surface, row and 64-column chunk, one read per plane of the surface
// (whole atoms, the bytes past the row end ignored) and one write of the chunk's atoms, pad
// lanes (channels >= Ci) zero.
void merge(const RubikLayer& l, SparseMemory& in, SparseMemory& out) {
  const unsigned bpe = l.element_bytes(), lanes = l.lanes();
  std::vector<uint8_t> atoms, row;
  for (uint32_t s = 0; s < l.in_surfaces(); ++s)
    for (uint32_t h = 0; h < l.height; ++h)
      for (uint32_t w0 = 0; w0 < l.width; w0 += kRubikChunkElements) {
        const uint32_t n = std::min<uint32_t>(kRubikChunkElements, l.width - w0);
        atoms.assign(static_cast<size_t>(uint64_t{n} * kAtom), 0);
        row.resize(static_cast<size_t>(atoms_bytes(uint64_t{n} * bpe)));
        for (unsigned lane = 0; lane < lanes && s * lanes + lane < l.channels; ++lane) {
          const uint64_t c = uint64_t{s} * lanes + lane;
          in.read(l.in + c * l.in_planar + uint64_t{h} * l.in_line + uint64_t{w0} * bpe, row.data(), row.size());
          for (uint32_t w = 0; w < n; ++w)
            std::copy_n(&row[uint64_t{w} * bpe], bpe, &atoms[uint64_t{w} * kAtom + lane * bpe]);
        }
        out.write(l.out + uint64_t{s} * l.out_surface + uint64_t{h} * l.out_line + uint64_t{w0} * kAtom, atoms.data(),
                  atoms.size());
      }
}

}  // namespace

void run_rubik_layer(const RubikLayer& l, SparseMemory& in, SparseMemory& out) {
  switch (l.rubik_mode()) {
    case RubikMode::Contract: contract(l, in, out); break;
    case RubikMode::Split: split(l, in, out); break;
    case RubikMode::Merge: merge(l, in, out); break;
  }
}

}  // namespace dla::golden
