#include "dla/formats/alignment.h"

#include <fmt/format.h>
#include <stdexcept>

namespace dla::formats {

const char* data_format_name(DataFormat f) {
  switch (f) {
    case DataFormat::FeatureCube: return "feature data cube";
    case DataFormat::Weight: return "weight (uncompressed/compressed)";
    case DataFormat::WeightMaskBits: return "WMB";
    case DataFormat::WeightGroupSize: return "WGS";
    case DataFormat::PitchLinearPixel: return "pitch linear pixel";
    case DataFormat::Bias: return "bias";
    case DataFormat::Prelu: return "PReLU";
    case DataFormat::BatchNorm: return "batch normalization";
    case DataFormat::ElementWise: return "element-wise";
  }
  return "?";
}

AlignmentRule alignment_rule(DataFormat f, unsigned atom) {
  if (atom != 8 && atom != 16 && atom != 32 && atom != 64)
    throw std::invalid_argument(::fmt::format("alignment_rule: atom size {} is not 8, 16, 32 or 64", atom));
  const std::optional<uint32_t> na;
  switch (f) {
    case DataFormat::FeatureCube: return {f, atom, atom, atom, atom, na};
    case DataFormat::Weight:
    case DataFormat::WeightMaskBits:
    case DataFormat::WeightGroupSize: return {f, 256u, na, na, na, 128u};
    case DataFormat::PitchLinearPixel: return {f, atom, atom, na, na, na};
    case DataFormat::Bias: return {f, atom, atom, atom, na, na};
    case DataFormat::Prelu: return {f, atom, na, na, na, na};
    case DataFormat::BatchNorm: return {f, atom, na, na, na, na};
    case DataFormat::ElementWise: return {f, atom, atom, na, na, atom};
  }
  throw std::invalid_argument("alignment_rule: unknown data format");
}

std::optional<std::string> alignment_violation(DataFormat f, const RegionParams& r, unsigned atom) {
  const AlignmentRule rule = alignment_rule(f, atom);
  const auto check = [&](const char* what, const std::optional<uint64_t>& v,
                         const std::optional<uint32_t>& align) -> std::optional<std::string> {
    if (!v || !align || *v % *align == 0) return std::nullopt;
    return ::fmt::format("{}: {} {:#x} is not a multiple of {} bytes (alignment table, atom = {} B)",
                         data_format_name(f), what, *v, *align, atom);
  };
  if (auto e = check("start address", r.start, rule.start)) return e;
  if (auto e = check("line stride", r.line_stride, rule.line_stride)) return e;
  if (auto e = check("surface stride", r.surface_stride, rule.surface_stride)) return e;
  if (auto e = check("planar/cube stride", r.planar_stride, rule.planar_stride)) return e;
  if (auto e = check("data size", r.data_size, rule.data_size)) return e;
  return std::nullopt;
}

void check_alignment(DataFormat f, const RegionParams& r, unsigned atom) {
  if (auto e = alignment_violation(f, r, atom)) throw std::invalid_argument(*e);
}

}  // namespace dla::formats
