// The per-element SDP pipeline (sdp.md §4.5, §6-§10): NaN flush, BS, BN, EW (operand
// converters, MUL, ALU, LUT), output converter. Every element, pad lanes included, is a
// function of its 32-bit input and its operands only.
#pragma once

#include <cstdint>

#include "sdp_config.h"
#include "sdp_lut.h"

namespace dla::golden {

// Memory operands of one element (16-bit values as delivered, sdp.md §5.1).
struct SdpElementOperands {
  uint16_t bs_alu = 0, bs_mul = 0, bn_alu = 0, bn_mul = 0, ew_alu = 0, ew_mul = 0;
};

struct SdpElementResult {
  uint16_t out = 0;         // the C-stage value o (§9): int8 in the low byte, int16 or fp16
  uint32_t z = 0;           // the 32-bit value entering the C stage
  bool cvt_saturated = false;  // §9.1 step 5 flag (integer PROC)
  bool lut_used = false;
  SdpLutOutcome lut;
};

class SdpDatapath {
 public:
  SdpDatapath(const SdpLayerConfig& layer, const LutTables& tables)
      : l_(layer), lut_(layer.lut, tables, layer.fp()) {}

  SdpElementResult process(uint32_t x, const SdpElementOperands& ops) const;

  // The stages one by one (exposed for unit tests). Values are int32 or fp32 patterns.
  uint32_t x_stage(const SdpXStage& st, uint32_t x, uint16_t mem_alu, uint16_t mem_mul) const;
  uint32_t ew_operand(const SdpEwConverter& cvt, uint16_t mem) const;
  uint32_t y_stage(uint32_t x, uint16_t mem_alu, uint16_t mem_mul, SdpElementResult& r) const;
  void c_stage(uint32_t z, SdpElementResult& r) const;

 private:
  uint32_t flush_nan32(uint32_t v) const;
  uint16_t flush_nan16(uint16_t v) const;
  const SdpLayerConfig& l_;
  SdpLut lut_;
};

}  // namespace dla::golden
