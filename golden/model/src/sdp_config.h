// One SDP layer as the SDP and SDP_RDMA registers describe it (sdp.md §2), decoded into
// plain values, plus the legality rules of §2.4 / §2.5.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "lut_index.h"

namespace dla::golden {

// Register value at a byte offset of a unit window (one group).
using SdpRegReader = std::function<uint32_t(uint32_t offset)>;

enum class SdpOperandUse : uint8_t { Mul = 0, Alu = 1, Both = 2, Reserved = 3 };

// One of the BRDMA / NRDMA / ERDMA operand streams (sdp.md §5).
struct SdpOperandStream {
  bool enabled = false;
  SdpOperandUse use = SdpOperandUse::Mul;
  bool two_byte = false;
  bool per_element = false;
  MemPort port = MemPort::Dbb;
  bool port_is_sram = false;  // RAM_TYPE = CV as programmed
  uint64_t base = 0, line_stride = 0, surface_stride = 0;

  unsigned bytes_per_component() const { return two_byte ? 2 : 1; }
  unsigned components() const { return use == SdpOperandUse::Both ? 2 : 1; }
  unsigned bytes_per_element() const { return bytes_per_component() * components(); }
  bool carries_alu() const { return use == SdpOperandUse::Alu || use == SdpOperandUse::Both; }
  bool carries_mul() const { return use == SdpOperandUse::Mul || use == SdpOperandUse::Both; }
};

enum class SdpAluAlgo : uint8_t { Max = 0, Min = 1, Sum = 2, Eql = 3 };

// BS or BN (sdp.md §6).
struct SdpXStage {
  bool bypass = true, alu_bypass = true, mul_bypass = true, prelu = false, relu_bypass = true;
  SdpAluAlgo alu_algo = SdpAluAlgo::Max;
  bool alu_from_mem = false, mul_from_mem = false;
  unsigned alu_shift = 0, mul_shift = 0;  // 6 bits each (MUL: low 6 bits of the 8-bit field)
  uint16_t alu_operand = 0, mul_operand = 0;

  bool alu_active() const { return !bypass && !alu_bypass; }
  bool mul_active() const { return !bypass && !mul_bypass; }
  bool needs_stream() const { return (alu_active() && alu_from_mem) || (mul_active() && mul_from_mem); }
};

// The EW stage's operand converter (sdp.md §7.1).
struct SdpEwConverter {
  bool bypass = true;
  int32_t offset = 0;
  int16_t scale = 0;
  unsigned truncate = 0;  // 6 bits
};

// EW (sdp.md §7, §8).
struct SdpYStage {
  bool bypass = true, alu_bypass = true, mul_bypass = true, prelu = false, lut_bypass = true;
  SdpAluAlgo alu_algo = SdpAluAlgo::Max;
  bool alu_from_mem = false, mul_from_mem = false;
  uint32_t alu_operand = 0, mul_operand = 0;  // int32 or fp32
  SdpEwConverter alu_cvt, mul_cvt;
  unsigned truncate = 0;  // 10 bits

  bool alu_active() const { return !bypass && !alu_bypass; }
  bool mul_active() const { return !bypass && !mul_bypass; }
  bool lut_active() const { return !bypass && !lut_bypass; }
  bool needs_stream() const { return (alu_active() && alu_from_mem) || (mul_active() && mul_from_mem); }
  bool eql_mode() const { return alu_active() && alu_algo == SdpAluAlgo::Eql; }
};

struct SdpLayerConfig {
  unsigned atom_bytes = 32;
  uint32_t width = 1, height = 1, channels = 1;  // W, H, C (registers + 1)
  unsigned in_code = 0, proc_code = 0, out_code = 0;  // raw 2-bit fields (3 = undefined)
  Precision in = Precision::Int8, proc = Precision::Int8, out = Precision::Int8;
  bool flying = false, winograd = false, nan_to_zero = false, output_to_pdp = false;
  unsigned batches = 1;

  // SDP_RDMA main input (memory mode).
  uint64_t src_base = 0, src_line_stride = 0, src_surface_stride = 0;
  MemPort src_port = MemPort::Dbb;
  bool src_port_is_sram = false;
  SdpOperandStream bs_stream, bn_stream, ew_stream;
  bool rdma_nan_inf_count = false;  // SDP_RDMA PERF_NAN_INF_COUNT_EN

  // SDP output.
  uint64_t dst_base = 0, dst_line_stride = 0, dst_surface_stride = 0, dst_batch_stride = 0;
  MemPort dst_port = MemPort::Dbb;
  bool dst_port_is_sram = false;

  SdpXStage bs, bn;
  SdpYStage ew;
  int32_t cvt_offset = 0;
  int16_t cvt_scale = 0;
  unsigned cvt_shift = 0;
  bool perf_lut = false, perf_sat = false, perf_nan_inf = false;
  bool sat_flag_range = false;  // the configuration's saturation-flag rule (HwConfig::SdpSatFlag)
  LutSettings lut;

  // Mismatches between what SDP and SDP_RDMA were programmed with (§2.4), as text.
  std::vector<std::string> rdma_mismatches;

  bool fp() const { return proc == Precision::Fp16; }
  unsigned lanes(Precision p) const { return p == Precision::Int8 ? atom_bytes : atom_bytes / 2; }
  unsigned proc_lanes() const { return lanes(proc); }
  // Surfaces of the processing cube (one atom of EPA(PROC) lanes per surface position).
  uint32_t proc_surfaces() const { return (channels + proc_lanes() - 1) / proc_lanes(); }
  bool merge_16_to_8() const { return in == Precision::Int16 && proc == Precision::Int8; }
  bool split_8_to_16() const { return proc == Precision::Int8 && out != Precision::Int8; }
  bool writes_memory() const { return !output_to_pdp && !ew.eql_mode(); }
  // SDP_RDMA is needed: memory input, or any operand stream in use.
  bool needs_rdma() const { return !flying || bs_stream.enabled || bn_stream.enabled || ew_stream.enabled; }
};

// Decodes SDP registers (one group plus the single S_ registers) and SDP_RDMA registers.
SdpLayerConfig decode_sdp_layer(const HwConfig& cfg, const SdpRegReader& sdp, const SdpRegReader& rdma);
// Decodes only what SDP_RDMA alone needs (for its own NaN/Inf counters).
SdpLayerConfig decode_sdp_rdma_layer(const HwConfig& cfg, const SdpRegReader& rdma);

enum class SdpRuleKind : uint8_t { Undefined, Unsupported };
struct SdpRuleViolation {
  SdpRuleKind kind;
  std::string message;
};
// Programming the spec calls undefined or that this model does not execute, with the rule.
std::vector<SdpRuleViolation> sdp_rule_violations(const SdpLayerConfig& l, const HwConfig& cfg);

// The precision combinations of sdp.md §2.5 legal on `cfg`.
bool sdp_precision_legal(const HwConfig& cfg, Precision in, Precision proc, Precision out, std::string* why = nullptr);

}  // namespace dla::golden
