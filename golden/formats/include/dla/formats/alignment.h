#pragma once
// The seed's "Requirements of alignment" table (nvdla_in_memory_formats.rst) as data plus
// a checker. The table is written for a 32-byte atom; its 32-byte entries are read as "one
// atom" (conv.md §3.1: feature strides are multiples of the atom, 8 B on nv_small), the
// weight/WMB/WGS entries (256 B start, 128 B size) are fixed.
#include <cstdint>
#include <optional>
#include <string>

namespace dla::formats {

enum class DataFormat : uint8_t {
  FeatureCube, Weight, WeightMaskBits /*WMB*/, WeightGroupSize /*WGS*/, PitchLinearPixel,
  Bias, Prelu, BatchNorm, ElementWise
};
const char* data_format_name(DataFormat f);

struct AlignmentRule {
  DataFormat format;
  // nullopt: "NA" in the table (the quantity does not exist or is unconstrained).
  std::optional<uint32_t> start, line_stride, surface_stride, planar_stride, data_size;
};

// atom_bytes: 8, 16, 32 or 64 (throws std::invalid_argument otherwise).
AlignmentRule alignment_rule(DataFormat f, unsigned atom_bytes = 32);

// A memory region as programmed; unset members are not checked.
struct RegionParams {
  uint64_t start = 0;
  std::optional<uint64_t> line_stride, surface_stride, planar_stride, data_size;
};

// nullopt when every given quantity meets the rule, else a message naming the format, the
// quantity, its value and the required alignment.
std::optional<std::string> alignment_violation(DataFormat f, const RegionParams& r, unsigned atom_bytes = 32);
// Same, throwing std::invalid_argument with that message.
void check_alignment(DataFormat f, const RegionParams& r, unsigned atom_bytes = 32);

}  // namespace dla::formats
