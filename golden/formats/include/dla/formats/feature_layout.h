#pragma once
// NVDLA feature data cube <-> memory image (pdp_cdp_bdma_rubik_glb.md §0.2, conv.md §3.1,
// seed "Feature Data Format"). Element (w, h, c, n) of a cube with E = atom / elem_bytes
// channels per atom lives at
//   base + n*batch_stride + (c / E)*surface_stride + h*line_stride + w*atom + (c % E)*elem_bytes
// little-endian. Lanes c >= C of the last surface are pad lanes.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "dla/formats/byte_memory.h"
#include "dla/formats/feature_tensor.h"

namespace dla::formats {

struct FeatureLayout {
  uint64_t base = 0;
  uint64_t line_stride = 0;     // bytes between lines (h)
  uint64_t surface_stride = 0;  // bytes between surfaces (groups of E channels)
  uint64_t batch_stride = 0;    // bytes between batches; ignored when N = 1
  unsigned atom_bytes = 32;

  // Compact lines and surfaces (and batches); base as given.
  static FeatureLayout packed(const CubeShape& s, unsigned elem_bytes, unsigned atom_bytes, uint64_t base = 0);
};

unsigned channels_per_atom(unsigned atom_bytes, unsigned elem_bytes);
uint32_t surface_count(const CubeShape& s, unsigned atom_bytes, unsigned elem_bytes);  // ceil(C / E)
bool is_line_packed(const CubeShape& s, const FeatureLayout& l);                       // line = W * atom
bool is_surface_packed(const CubeShape& s, const FeatureLayout& l);                    // surf = H * line

// Byte address of element (w, h, c, n); c may address pad lanes (c < surfaces * E).
uint64_t element_address(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l, uint32_t w,
                         uint32_t h, uint32_t c, uint32_t n = 0);
// [first byte, one past the last byte) touched by the image, pad lanes included.
std::pair<uint64_t, uint64_t> footprint(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l);

// nullopt when the layout is usable, else the broken rule: atom size in {8,16,32,64},
// element size 1 or 2, alignment table (start, line, surface, batch stride multiples of the
// atom), and non-overlap (line >= W*atom, surface >= H*line, batch >= surfaces*surface;
// conv.md §3.1). The hardware does not check overlap; the golden formatter refuses it.
std::optional<std::string> layout_violation(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l);
void check_layout(const CubeShape& s, unsigned elem_bytes, const FeatureLayout& l);  // throws invalid_argument

// What happens to the pad lanes of the last surface when writing.
struct PadLanes {
  // nullopt: "don't care" - pad bytes are not written (memory keeps its old contents).
  // A value: every pad byte is written with it (a unit that writes whole atoms).
  std::optional<uint8_t> fill;
  static PadLanes untouched() { return {}; }
  static PadLanes filled(uint8_t v) { return {v}; }
};

// Tensor -> memory image. Validates the layout first.
void write_feature_cube(ByteSink& mem, const FeatureTensor& t, const FeatureLayout& l,
                        PadLanes pad = PadLanes::filled(0));
// Memory image -> tensor of the given shape (pad lanes are not read into the tensor; to
// see them, read a shape whose C is rounded up to whole atoms).
FeatureTensor read_feature_cube(const ByteSource& mem, const CubeShape& s, unsigned elem_bytes,
                                const FeatureLayout& l);

// seed: a 1x1xC cube mapped surface-packed (surface stride = one atom) is the same memory
// image as a ceil(C/E) x 1 x E cube with packed lines. Returns that cube's shape and layout
// (its channels include the pad lanes), or nullopt when the cube is not 1x1xC surface-packed.
std::optional<std::pair<CubeShape, FeatureLayout>> as_line_of_atoms(const CubeShape& s, unsigned elem_bytes,
                                                                    const FeatureLayout& l);

}  // namespace dla::formats
