#include "dla/formats/precision_rules.h"

#include <fmt/format.h>

namespace dla::formats {

const char* layer_unit_name(LayerUnit u) {
  switch (u) {
    case LayerUnit::Convolution: return "convolution";
    case LayerUnit::Sdp: return "SDP";
    case LayerUnit::Lrn: return "LRN (CDP)";
    case LayerUnit::Pooling: return "pooling (PDP)";
  }
  return "?";
}

namespace {
ConversionRuling legal(std::string pipeline, std::string weight = {}) {
  return {true, std::move(pipeline), std::move(weight), {}};
}
ConversionRuling illegal(std::string reason) { return {false, {}, {}, std::move(reason)}; }
}  // namespace

ConversionRuling precision_conversion(LayerUnit unit, InputKind kind, Precision in, Precision out) {
  const std::string in_name = precision_name(in), out_name = precision_name(out);
  const std::string what = ::fmt::format("{} {} {} -> {}", layer_unit_name(unit),
                                         kind == InputKind::Image ? "image" : "feature", in_name, out_name);
  if (kind == InputKind::Image && unit != LayerUnit::Convolution)
    return illegal(what + ": only the convolution pipeline takes image input");
  switch (unit) {
    case LayerUnit::Convolution:
      if (kind == InputKind::Image) {
        if (in == Precision::Fp16 && out != Precision::Fp16)
          return illegal(what + ": floating-point images can only be converted to fp16");
        return legal(out_name, out_name);  // integer images convert to all three types
      }
      if (in != out)
        return illegal(what + ": direct and Winograd convolution do not convert precision "
                              "(only image input mode does)");
      return legal(out_name, out_name);
    case LayerUnit::Sdp:
      if (in == Precision::Int8 && out == Precision::Fp16)
        return illegal(what + ": SDP does not convert int8 feature data to fp16");
      if (in == Precision::Fp16 && out == Precision::Int8)
        return illegal(what + ": SDP does not convert fp16 feature data to int8");
      return legal(in == Precision::Fp16 ? "fp32" : "int32");
    case LayerUnit::Lrn:
    case LayerUnit::Pooling:
      if (in != out)
        return illegal(what + ": " + layer_unit_name(unit) + " does not support any precision conversion");
      return legal(in_name);
  }
  return illegal(what + ": unknown unit");
}

std::optional<std::string> precision_conversion_error(LayerUnit unit, InputKind kind, Precision in, Precision out) {
  ConversionRuling r = precision_conversion(unit, kind, in, out);
  if (r.legal) return std::nullopt;
  return std::move(r.reason);
}

}  // namespace dla::formats
