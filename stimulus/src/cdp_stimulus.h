// Building blocks of the cdp.* generators: a random legal CDP layer (cube, converters,
// bypasses, LUT setup), its memory placement and input data, and the CSB sequence that
// programs the LUT and runs one layer (pdp_cdp_bdma_rubik_glb.md §2, LUT seed).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dla/rng.h"
#include "program_builder.h"

namespace dla::stimulus {

// LUT setups. The first six are the coverage cases of the LUT seed with X = LE, Y = LO;
// lrn places an exponent LE over the whole range with a dense linear LO at its low end
// (LRN-typical), activation the reverse (dense linear LE inside a linear LO).
enum class CdpLutCase : uint8_t { OverlapLeLo, OverlapLoLe, DisjointLeLo, DisjointLoLe, LoInsideLe, LeInsideLo, Lrn, Activation };
const char* cdp_lut_case_name(CdpLutCase c);

struct CdpLutProgram {
  CdpLutCase kase = CdpLutCase::OverlapLeLo;
  uint32_t cfg = 0, info = 0;
  uint64_t le_start = 0, le_end = 0, lo_start = 0, lo_end = 0;  // register values: HIGH[5:0]:LOW
  uint32_t le_slope_scale = 0, le_slope_shift = 0, lo_slope_scale = 0, lo_slope_shift = 0;
  std::vector<uint16_t> le, lo;  // 65 and 257 entries
};

struct CdpLayerSpec {
  Precision precision = Precision::Int8;
  uint32_t width = 1, height = 1, channels = 1;
  uint32_t normalz_len = 0;  // register value: n = 2 * (value + 1) + 1
  bool sqsum_bypass = false, mul_bypass = false, nan_to_zero = false;
  uint32_t datin_offset = 0, datin_scale = 1, datin_shifter = 0;
  uint32_t datout_offset = 0, datout_scale = 1, datout_shifter = 0;
  uint32_t format_code() const { return static_cast<uint32_t>(precision); }
  unsigned element_bytes() const { return precision == Precision::Int8 ? 1 : 2; }
  CdpLutProgram lut;
  // memory: the DBB unless knob sram_percent moves a region to the CV-SRAM
  uint64_t src = 0, src_line = 0, src_surface = 0, dst = 0, dst_line = 0, dst_surface = 0;
  MemPort src_port = MemPort::Dbb, dst_port = MemPort::Dbb;
};

struct CdpShapeLimits {
  uint32_t max_width = 4, max_height = 3, max_surfaces = 4;
  std::vector<Precision> precisions;  // empty: all of the configuration's
  bool start_within_22_bits = true;   // int8 LUT starts inside the compared 22 bits
};

// A legal layer without addresses.
CdpLayerSpec random_cdp_layer(const HwConfig& cfg, Rng& shape, const CdpShapeLimits& limits);
// A LUT setup of the given case for the layer's precision and bypasses.
CdpLutProgram random_cdp_lut(const CdpLayerSpec& l, Rng& shape, CdpLutCase kase);

// Packed or padded strides; input and output regions from `next` onwards (advanced).
void place_cdp_layer(CdpLayerSpec& l, const HwConfig& cfg, Rng& layout, uint64_t& next);
uint64_t cdp_extent(const CdpLayerSpec& l, const HwConfig& cfg, bool output);
// Input image bytes from l.src: extremes, converter-saturating values and, for fp16, NaN,
// +-Inf, subnormals and +-0 at the given density; gaps and pad lanes random.
std::vector<uint8_t> random_cdp_input(const CdpLayerSpec& l, const HwConfig& cfg, Rng& data, double special);

// Knob fp16_corners (fp16 layers): both LUT tables hold only values at fp16's bottom (+-0, mostly
// +0, subnormals, the smallest normals), so an interval's first entry is often +0 beside a tiny
// second one and the entries' difference is exact at 2^-25; MUL_BYPASS is mostly turned off so
// the element scales that small result into fp16's subnormal range, where it shows.
void make_cdp_tiny_lut(CdpLayerSpec& l, Rng& r);
// Knob fp16_corners (fp16 layers): in about a quarter of the pixels a run of 2..9 consecutive
// channels holds only specials (NaN of either sign with single-bit or random payloads, +-Inf,
// +-0, +-max), so the window's square sums add two specials, not one special and a number.
void add_cdp_special_runs(std::vector<uint8_t>& bytes, const CdpLayerSpec& l, const HwConfig& cfg, Rng& r);
// Knob sat_edge_percent (integer layers): the output converter lands every element whose LUT
// result is a chosen value E on the output range's edge. Runs of LUT entries in both tables (or
// whole tables) hold E, so interpolation inside them gives E exactly (in half the layers both
// tables are flat and the under/overflow slopes 0: every element gives E); MUL_BYPASS is on, the
// output scale is 2^k with shift k (no rounding) and the offset puts E - offset at one of
// max, max+1, max+2, min, min-1, min-2 (max/min of int8 or int16). max+1 and min-1 are the
// saturation flag's one-step quirk: the output is clamped, yet floor(value) is out+-1, so the
// element is not counted; max+2 and min-2 are counted.
void make_cdp_sat_edge(CdpLayerSpec& l, Rng& r);
// Knob exact_lut_percent (integer layers): every least significant bit of the LUT stage shows in
// the output. MUL_BYPASS on, output converter the identity (offset 0, scale 1, shift 0), both
// tables hold small distinct values (int8: -100..100; int16: -20000..20000), and each under/
// overflow slope is a scale of +-1..300 with the right shift that keeps the extrapolation of a
// typical distance in about +-64, so its rounding (ties and sticky bits of negative products)
// lands in the output instead of in a shift. In half of these layers the input converter scales
// by +-2^k (k 0..15) and shifts k + 1 (every odd x - offset is an exact tie) or k + 2..9 (a
// single bit under the guard bit decides the sticky OR). The table ranges stay as drawn, so
// hits, under- and overflows all occur. fp16 layers are left alone.
void make_cdp_exact_lut(CdpLayerSpec& l, Rng& r);
// Knob lut_class (integer layers): every element of the layer lands in one LUT class, so one
// performance counter counts the whole cube (a counter's high bits, its adder's carries and its
// register's upper bits only move past 2^15 or 2^19 counts). Each table (linear, both) either
// covers every value the LUT stage can see (int8: [-2^20, 2^20), int16: [-2^36, 2^36); a square
// sum of nine 17-bit values stays below 2^35.2) or lies wholly above it (every element
// underflows) or below it (overflows). Starts stay inside int8's 22 compared bits. In le_hit and
// lo_hit layers the other table lies outside in a quarter of the layers and otherwise ends at a threshold
// +-2^m, so the values below it hit both tables (counted as hybrid) and the class's counter grows
// by varying amounts per update (a wrong carry then shows at odd as well as even update counts).
enum class CdpLutClass : uint8_t { LeHit, LoHit, Hybrid, Underflow, Overflow, Split };
const char* cdp_lut_class_name(CdpLutClass c);
void make_cdp_lut_class(CdpLayerSpec& l, CdpLutClass c, Rng& r);

// LUT read-back after programming: sample = sometimes a few entries from a random address,
// all = every entry of both tables (a corrupted table bit shows without data indexing it).
enum class CdpLutReadback : uint8_t { Sample, All };

// Writes the LUT single registers and both tables, then reads entries back. With `scramble`
// (knob lut_scramble): the tables in random order, sometimes DATA writes at an address beyond
// the table (which store nothing) after them, and idle cycles of random length between the
// read-back's reads, so a table bit that changes with the clock or with a write to the other
// table does not hide behind the usual order and timing.
void program_cdp_lut(ProgramBuilder& b, const HwConfig& cfg, const CdpLutProgram& lut, Rng& flow,
                     CdpLutReadback readback = CdpLutReadback::Sample, Rng* scramble = nullptr);

// Turns an int8 layer into a LUT sweep: one surface of full atoms with W*H*lanes = 256
// elements, SQSUM bypass, identity input converter, linear LE and LO from -128 (LE 4 values
// per entry, LO 1 per entry) and the hybrid priority `prefer_lo`. With the ramp input of
// cdp_sweep_input every value above START hits both tables and the preferred one is read at
// every entry (LE 0..64 as y0/y1, LO 1..255; -128 = START underflows).
void make_cdp_lut_sweep(CdpLayerSpec& l, const HwConfig& cfg, bool prefer_lo);
// Integer layers: an input converter shift of 1..24 with a scale of about 2^(shift-4) to
// 2^(shift+1), so x' stays moderate while the shifted-out bits (guard, sticky, ties of
// negative values) vary. fp16 layers are left alone (their converters are ignored).
void make_cdp_rounding_converter(CdpLayerSpec& l, Rng& r);
// Integer layers: both converters' scales become +-2^k, their shifts k + 1..9 (the input's; mostly 1..3), or
// the aimed shift moved by the scale's change (the output's). The scaled value's low k bits are
// then 0 and only a few bits of (x - offset) lie below the rounding point, so exact ties and a
// single set bit under the guard bit (one term of the sticky OR) are common, not one in 2^shift.
// fp16 layers are left alone.
void make_cdp_pow2_converters(CdpLayerSpec& l, Rng& r);
// Every int8 value -128..127 once, rotated by a random amount, in the cube's element order.
std::vector<uint8_t> cdp_sweep_input(const CdpLayerSpec& l, const HwConfig& cfg, Rng& data);
// Programs group `group` of CDP_RDMA (D_DATA_FORMAT = rdma_format, or the layer's when
// negative) and CDP, then arms both in the given order. rdma_armed_early: CDP_RDMA is armed
// (and left waiting 64 cycles) before any CDP register of the group is written, then CDP.
// armed_writes (not with rdma_armed_early): after arming the first unit, writes each register
// of its group (another value) and D_OP_ENABLE = 0, then reads them back: an armed group drops
// writes (knob armed_writes).
void program_cdp_layer(ProgramBuilder& b, const HwConfig& cfg, const CdpLayerSpec& l, unsigned group, bool rdma_first,
                       int rdma_format = -1, bool rdma_armed_early = false, Rng* armed_writes = nullptr);
// The (offset, value) writes of group `group` of CDP_RDMA and of CDP for layer l, in program order.
std::vector<std::pair<uint32_t, uint32_t>> cdp_rdma_register_values(const CdpLayerSpec& l, unsigned group,
                                                                     int rdma_format = -1);
std::vector<std::pair<uint32_t, uint32_t>> cdp_register_values(const CdpLayerSpec& l, unsigned group);
// Waits for CDP's done interrupt of `group`, clears it and reads every counter of the group.
void finish_cdp_layer(ProgramBuilder& b, const HwConfig& cfg, unsigned group, uint64_t timeout, const std::string& what);
// CDP / CDP_RDMA idle and GLB clear.
void cdp_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when);
uint64_t cdp_timeout(const CdpLayerSpec& l, const HwConfig& cfg);
std::string describe_cdp_layer(const CdpLayerSpec& l);

}  // namespace dla::stimulus
