#pragma once
// The seed's four precision-conversion tables (convolution, SDP, LRN, pooling) as a
// queryable rule set (nvdla_in_memory_formats.rst, "Precision Conversion").
#include <optional>
#include <string>

#include "dla/hwconfig.h"

namespace dla::formats {

enum class LayerUnit : uint8_t { Convolution, Sdp, Lrn /*CDP*/, Pooling /*PDP*/ };
const char* layer_unit_name(LayerUnit u);

// What the input is. Image input exists only for convolution (CDMA image mode); its
// precision is that of the pixel components (int8: 8-bit formats, int16: 10/12/16-bit
// integer formats, fp16: the _F formats).
enum class InputKind : uint8_t { Feature, Image };

struct ConversionRuling {
  bool legal = false;
  std::string pipeline;  // "Real precision in pipeline": int8/int16/fp16/int32/fp32 (legal only)
  std::string weight;    // convolution only: "Corresponding weight precision"
  std::string reason;    // why it is illegal (empty when legal)
};

ConversionRuling precision_conversion(LayerUnit unit, InputKind kind, Precision in, Precision out);
// nullopt if legal, else the reason.
std::optional<std::string> precision_conversion_error(LayerUnit unit, InputKind kind, Precision in, Precision out);

}  // namespace dla::formats
