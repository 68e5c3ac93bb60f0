#include <gtest/gtest.h>

#include "dla/formats/precision_rules.h"

namespace dla::formats {
namespace {

constexpr Precision I8 = Precision::Int8, I16 = Precision::Int16, F16 = Precision::Fp16;

// The seed's tables, transcribed: {unit, kind, in, out, pipeline precision or "" = invalid}.
struct Entry { LayerUnit u; InputKind k; Precision in, out; const char* pipeline; };
const Entry kSeedTables[] = {
    // Convolution: image input (uint8 / int16 / uint16 components, and fp16 images).
    {LayerUnit::Convolution, InputKind::Image, I8, I8, "int8"},
    {LayerUnit::Convolution, InputKind::Image, I8, I16, "int16"},
    {LayerUnit::Convolution, InputKind::Image, I8, F16, "fp16"},
    {LayerUnit::Convolution, InputKind::Image, I16, I8, "int8"},
    {LayerUnit::Convolution, InputKind::Image, I16, I16, "int16"},
    {LayerUnit::Convolution, InputKind::Image, I16, F16, "fp16"},
    {LayerUnit::Convolution, InputKind::Image, F16, I8, ""},
    {LayerUnit::Convolution, InputKind::Image, F16, I16, ""},
    {LayerUnit::Convolution, InputKind::Image, F16, F16, "fp16"},
    {LayerUnit::Convolution, InputKind::Feature, I8, I8, "int8"},
    {LayerUnit::Convolution, InputKind::Feature, I8, I16, ""},
    {LayerUnit::Convolution, InputKind::Feature, I8, F16, ""},
    {LayerUnit::Convolution, InputKind::Feature, I16, I8, ""},
    {LayerUnit::Convolution, InputKind::Feature, I16, I16, "int16"},
    {LayerUnit::Convolution, InputKind::Feature, I16, F16, ""},
    {LayerUnit::Convolution, InputKind::Feature, F16, I8, ""},
    {LayerUnit::Convolution, InputKind::Feature, F16, I16, ""},
    {LayerUnit::Convolution, InputKind::Feature, F16, F16, "fp16"},
    // SDP (offline mode).
    {LayerUnit::Sdp, InputKind::Feature, I8, I8, "int32"},
    {LayerUnit::Sdp, InputKind::Feature, I8, I16, "int32"},
    {LayerUnit::Sdp, InputKind::Feature, I8, F16, ""},
    {LayerUnit::Sdp, InputKind::Feature, I16, I8, "int32"},
    {LayerUnit::Sdp, InputKind::Feature, I16, I16, "int32"},
    {LayerUnit::Sdp, InputKind::Feature, I16, F16, "int32"},
    {LayerUnit::Sdp, InputKind::Feature, F16, I8, ""},
    {LayerUnit::Sdp, InputKind::Feature, F16, I16, "fp32"},
    {LayerUnit::Sdp, InputKind::Feature, F16, F16, "fp32"},
    // LRN.
    {LayerUnit::Lrn, InputKind::Feature, I8, I8, "int8"},
    {LayerUnit::Lrn, InputKind::Feature, I8, I16, ""},
    {LayerUnit::Lrn, InputKind::Feature, I8, F16, ""},
    {LayerUnit::Lrn, InputKind::Feature, I16, I8, ""},
    {LayerUnit::Lrn, InputKind::Feature, I16, I16, "int16"},
    {LayerUnit::Lrn, InputKind::Feature, I16, F16, ""},
    {LayerUnit::Lrn, InputKind::Feature, F16, I8, ""},
    {LayerUnit::Lrn, InputKind::Feature, F16, I16, ""},
    {LayerUnit::Lrn, InputKind::Feature, F16, F16, "fp16"},
    // Pooling (the seed lists "int8 -> int16" twice; the missing row is int8 -> fp16,
    // invalid by the rule "PDP does not support any precision conversion").
    {LayerUnit::Pooling, InputKind::Feature, I8, I8, "int8"},
    {LayerUnit::Pooling, InputKind::Feature, I8, I16, ""},
    {LayerUnit::Pooling, InputKind::Feature, I8, F16, ""},
    {LayerUnit::Pooling, InputKind::Feature, I16, I8, ""},
    {LayerUnit::Pooling, InputKind::Feature, I16, I16, "int16"},
    {LayerUnit::Pooling, InputKind::Feature, I16, F16, ""},
    {LayerUnit::Pooling, InputKind::Feature, F16, I8, ""},
    {LayerUnit::Pooling, InputKind::Feature, F16, I16, ""},
    {LayerUnit::Pooling, InputKind::Feature, F16, F16, "fp16"},
};

TEST(PrecisionRules, EveryEntryOfTheSeedTables) {
  for (const Entry& e : kSeedTables) {
    const ConversionRuling r = precision_conversion(e.u, e.k, e.in, e.out);
    SCOPED_TRACE(std::string(layer_unit_name(e.u)) + " " + precision_name(e.in) + "->" + precision_name(e.out));
    const bool want_legal = e.pipeline[0] != '\0';
    EXPECT_EQ(r.legal, want_legal) << r.reason;
    if (want_legal) {
      EXPECT_EQ(r.pipeline, e.pipeline);
      EXPECT_TRUE(r.reason.empty());
      if (e.u == LayerUnit::Convolution) {
        EXPECT_EQ(r.weight, e.pipeline);  // weight = pipeline precision
      }
      EXPECT_FALSE(precision_conversion_error(e.u, e.k, e.in, e.out).has_value());
    } else {
      EXPECT_NE(r.reason.find(layer_unit_name(e.u)), std::string::npos) << r.reason;
      EXPECT_NE(r.reason.find(std::string(precision_name(e.in)) + " -> " + precision_name(e.out)), std::string::npos)
          << r.reason;
      EXPECT_EQ(precision_conversion_error(e.u, e.k, e.in, e.out), r.reason);
    }
  }
}

TEST(PrecisionRules, ReasonsExplainTheRule) {
  EXPECT_NE(precision_conversion(LayerUnit::Convolution, InputKind::Image, F16, I8).reason.find("only be converted to fp16"),
            std::string::npos);
  EXPECT_NE(precision_conversion(LayerUnit::Convolution, InputKind::Feature, I8, I16).reason.find("do not convert"),
            std::string::npos);
  EXPECT_NE(precision_conversion(LayerUnit::Pooling, InputKind::Feature, I16, F16).reason.find("does not support"),
            std::string::npos);
  EXPECT_NE(precision_conversion(LayerUnit::Sdp, InputKind::Image, I8, I8).reason.find("image input"),
            std::string::npos);
}

}  // namespace
}  // namespace dla::formats
