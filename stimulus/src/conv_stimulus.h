// Building blocks of the conv.* generators (spec conv.md): a plain description of one
// convolution layer (ConvLayerSpec: mode, precisions, cube, kernel, stride, dilation,
// padding, pixel conversion, weights, CBUF split, release/reuse, memory placement and the SDP
// stage behind it in flying mode), its derived register quantities (§8.2 ENTRY_PER_SLICE,
// CBUF fit, kernel bytes), seeded input and weight data, the memory images it needs, and the
// CSB sequence that programs CDMA, CSC, CMAC_A, CMAC_B, CACC, SDP (and SDP_RDMA when an
// operand stream is used), arms them and waits for the layer.
//
// Every hardware constant comes from HwConfig (atom, MAC atomics, CBUF geometry, features).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dla/formats/feature_tensor.h"
#include "dla/formats/pixel_format.h"
#include "dla/formats/weight_format.h"
#include "dla/hwconfig.h"
#include "dla/nvdla_weight_credit.h"
#include "dla/rng.h"
#include "program_builder.h"

namespace dla::stimulus {

enum class ConvMode : uint8_t { Direct, Image, Winograd };
const char* conv_mode_name(ConvMode m);  // "direct", "image", "winograd"

inline unsigned conv_es(Precision p) { return p == Precision::Int8 ? 1 : 2; }

// How a layer uses the CBUF contents the previous layer left (§8.4, §8.5): full data reuse
// (CDMA fetches nothing), partial data reuse (kept lines + new lines), weight reuse, or both.
enum class ConvReuse : uint8_t { None, DataFull, DataPartial, Weights, DataAndWeights };
const char* conv_reuse_name(ConvReuse r);
inline bool reuses_data(ConvReuse r) { return r == ConvReuse::DataFull || r == ConvReuse::DataPartial || r == ConvReuse::DataAndWeights; }
inline bool reuses_weights(ConvReuse r) { return r == ConvReuse::Weights || r == ConvReuse::DataAndWeights; }

// One SDP X stage (BS or BN): ALU (MAX/MIN/SUM), MUL, ReLU/PReLU; operands from the register
// or from a per-kernel operand block in memory (SDP_RDMA BRDMA/NRDMA).
struct ConvSdpXStage {
  bool enabled = false;
  bool alu = false, mul = false, relu = false, prelu = false;
  uint32_t alu_algo = 2;  // 0 MAX, 1 MIN, 2 SUM
  uint16_t alu_operand = 0, mul_operand = 1;
  uint32_t alu_shift = 0, mul_shift = 0;
  bool alu_mem = false, mul_mem = false;  // operands from memory (per kernel, or per element)
  bool two_byte = true;                   // memory operand size (16-bit PROC: always)
  MemPort operand_port = MemPort::Dbb;
  uint64_t operands = 0;  // per-kernel operand block, or the per-element operand cube
  // PER_ELEMENT (sdp.md §5.3): one operand per output element (every batch uses the same), in a
  // cube of the output's W x H x K with its own line and surface strides.
  bool per_element = false;
  uint64_t op_line = 0, op_surface = 0;
  uint64_t operand_bytes_per_element() const { return (two_byte ? 2u : 1u) * (alu && alu_mem && mul && mul_mem ? 2u : 1u); }
  bool uses_memory() const { return enabled && ((alu && alu_mem) || (mul && mul_mem)); }
  uint32_t cfg_register() const;  // D_DP_BS_CFG / D_DP_BN_CFG value
};

// SDP behind CACC (FLYING_MODE = 1, OUTPUT_DST = MEM). SDP's PROC precision is the
// convolution's PROC precision; the cube is W_out x H_out x K (x batches).
struct ConvSdpSpec {
  Precision out = Precision::Int8;
  ConvSdpXStage bs, bn;
  bool ew = false, ew_alu = false, ew_mul = false, ew_prelu = false;  // EW, LUT bypassed
  uint32_t ew_alu_algo = 2, ew_alu_operand = 0, ew_mul_operand = 0, ew_truncate = 0;
  // EW operands from memory (SDP_RDMA's ERDMA): only the operand-stream fields of `ew_stream`
  // are used (enabled/alu/mul mirror ew/ew_alu/ew_mul; alu_mem, mul_mem, size, per kernel or
  // per element, port, placement). Each memory operand passes its integer converter unless
  // bypassed (ignored in fp16, sdp.md §7.1).
  ConvSdpXStage ew_stream;
  struct EwConverter {
    bool bypass = true;
    int32_t offset = 0;
    int16_t scale = 1;
    uint32_t truncate = 0;
  } ew_alu_cvt, ew_mul_cvt;
  int32_t cvt_offset = 0;
  int16_t cvt_scale = 1;
  uint32_t cvt_shift = 0;
  bool nan_to_zero = false;
  uint32_t perf_enable = 0;  // SDP D_PERF_ENABLE
  MemPort port = MemPort::Dbb;
  uint64_t dst = 0, line_stride = 0, surface_stride = 0, batch_stride = 0;
  unsigned rdma_group = 0;  // SDP_RDMA's own ping-pong group for this layer
  bool to_pdp = false;      // OUTPUT_DST = PDP: SDP streams its output on-flying into PDP
  bool needs_rdma() const { return bs.uses_memory() || bn.uses_memory() || ew_stream.uses_memory(); }
};

// One convolution layer. Sizes are real counts (registers hold count - 1).
struct ConvLayerSpec {
  ConvMode mode = ConvMode::Direct;
  Precision in_precision = Precision::Int8, proc_precision = Precision::Int8;

  // Input as CDMA fetches it: direct/Winograd a W x H x C feature cube per batch (Winograd:
  // before padding and stride folding); image W x H pixels of C components.
  uint32_t width = 1, height = 1, channels = 1;
  uint32_t batches = 1;
  // Partial data reuse (§8.4): lines kept in CBUF from the previous layer that come before the
  // `height` fetched lines; CSC sees kept_lines + height lines.
  uint32_t kept_lines = 0;

  // Kernel as software writes it: K kernels of R rows x S columns x C (image mode: before
  // pre-extension; Winograd: before stride folding and the transform).
  uint32_t kernel_w = 1, kernel_h = 1, kernels = 1;
  uint32_t stride_x = 1, stride_y = 1, dilation_x = 1, dilation_y = 1;
  // Direct: left/top are CSC's padding; right/bottom only describe the output extent (no
  // register). Image: left/right are CDMA's padding of the line, top is CSC's, bottom implicit.
  // Winograd: all four are CDMA's.
  uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
  uint16_t pad_value = 0;       // CSC ZERO_PADDING_VALUE (direct; image top/bottom rows)
  uint16_t cdma_pad_value = 0;  // CDMA ZERO_PADDING_VALUE (image left/right; Winograd)
  uint32_t out_width = 1, out_height = 1;

  // Image input.
  formats::PixelFormat pixel_format = formats::PixelFormat::T_R8;
  uint32_t pixel_x_offset = 0;
  bool pixel_sign_override = false;
  bool mean_format = false;
  int16_t mean[4] = {0, 0, 0, 0};
  uint32_t y_extension = 0;  // post-extension P = 1 << y_extension

  // CDMA input converter (direct int / image) and fp16 NaN flush.
  bool cvt_en = false;
  uint32_t cvt_truncate = 0;
  int16_t cvt_offset = 0, cvt_scale = 0;
  bool nan_to_zero = false;

  // Weights.
  bool compressed = false;
  bool minimal_weight_bytes = false;  // WEIGHT_BYTES = K*BPK rounded to the entry size, not 128
  uint32_t clip_truncate = 0, pra_truncate = 0;

  // CBUF.
  uint32_t data_banks = 1, weight_banks = 1;
  uint32_t entries_per_slice = 1;  // conv_entries_per_slice() for a legal layer
  uint32_t fetch_grain = 1;        // lines per CDMA->CSC update (D_FETCH_GRAIN + 1)
  bool data_reuse = false, weight_reuse = false, skip_data_rls = false, skip_weight_rls = false;
  uint32_t release_slices = 1;  // D_RELEASE + 1 (SKIP_DATA_RLS = 0)

  // Memory. Image: src / src_line = plane 0, src_uv / src_uv_line = plane 1.
  MemPort data_port = MemPort::Dbb, weight_port = MemPort::Dbb;
  uint64_t src = 0, src_line = 0, src_surface = 0, src_batch = 0, src_uv = 0, src_uv_line = 0;
  uint64_t weight_addr = 0, weight_bytes = 0, wmb_addr = 0, wmb_bytes = 0, wgs_addr = 0;

  ConvSdpSpec sdp;

  ConvReuse reuse = ConvReuse::None;  // relation to the previous layer (what is loaded)

  // Value shape for random_conv_data: integer magnitudes in bits, fp16 exponent centres,
  // integer extremes everywhere (32-bit saturation), percentage of zero weights.
  uint32_t data_bits = 8, weight_bits = 8;
  uint32_t fp_data_exp = 15, fp_weight_exp = 15;
  bool saturating = false;
  uint32_t sparsity_percent = 0;

  // Random values in the fields the spec says have no effect (conv.illegal ignored_fields).
  bool junk_ignored_fields = false;
  uint64_t junk_seed = 0;

  unsigned in_es() const { return conv_es(in_precision); }
  unsigned proc_es() const { return conv_es(proc_precision); }
  uint32_t csc_height() const { return kept_lines + height; }  // direct and image
};

// Quantities derived from a layer and the configuration.
struct ConvDerived {
  unsigned atom_elems = 0;  // A: elements of one atom in the processing precision
  unsigned ak = 0, ac = 0;  // kernels per group, channels per atomic operation
  unsigned ape = 1;         // atoms per CBUF entry
  uint32_t w_ext = 0, h_ext = 0, c_ext = 0;  // CSC DATAIN_*_EXT + 1
  uint32_t cdma_w_ext = 0, cdma_h_ext = 0;   // CDMA DATAIN_SIZE_EXT_0 + 1
  uint32_t kernel_w_ext = 0, kernel_h_ext = 0, kernel_c_ext = 0;  // CSC WEIGHT_*_EXT + 1
  uint64_t bytes_per_kernel = 0;                                  // BYTE_PER_KERNEL + 1
  uint32_t groups = 0;                                            // kernel groups
  uint32_t slices = 0;        // CBUF slices of the layer's input (CSC view)
  uint32_t cdma_slices = 0;   // slices CDMA fetches
  uint32_t entries = 0;       // §8.2
  uint64_t atomic_ops = 0;    // CSC atomic operations (size budget)
  uint32_t out_surfaces = 0;  // SDP output surfaces (8->16 split: two per int8 surface)
};
ConvDerived conv_derived(const ConvLayerSpec& l, const HwConfig& cfg);
// D_ENTRY_PER_SLICE + 1 by the formula of §8.2.
uint32_t conv_entries_per_slice(const ConvLayerSpec& l, const HwConfig& cfg);
// NVDLA's WEIGHT_BYTES for K*BPK uncompressed bytes (128 multiple, or the entry multiple).
uint64_t conv_uncompressed_weight_bytes(const ConvLayerSpec& l, const HwConfig& cfg);
// Entries of the weight region needed: one kernel group plus margin, or all weights with
// SKIP_WEIGHT_RLS.
uint64_t conv_weight_entries_needed(const ConvLayerSpec& l, const HwConfig& cfg);
// SDP: elements per output atom and the bytes of the output image.
uint64_t conv_output_extent(const ConvLayerSpec& l, const HwConfig& cfg);
// Bytes a per-element BS/BN operand cube spans (the stage's op_line / op_surface strides).
uint64_t conv_operand_cube_extent(const ConvLayerSpec& l, const HwConfig& cfg, const ConvSdpXStage& st);
uint64_t conv_input_extent(const ConvLayerSpec& l, const HwConfig& cfg, bool plane1 = false);

// What the CBUF holds after a layer (for the next layer's reuse).
struct ConvCbufState {
  bool valid = false;  // a layer ran since reset
  ConvMode mode = ConvMode::Direct;
  uint32_t data_banks = 0, weight_banks = 0;
  uint32_t kept_slices = 0;  // data slices left in CBUF
  bool weights_kept = false;
  bool compressed = false;
  uint32_t kernels = 0;
  uint64_t bytes_per_kernel = 0, weight_bytes = 0, wmb_bytes = 0;
  ConvLayerSpec layer;  // the layer that left this state
};
ConvCbufState conv_state_after(const ConvLayerSpec& l, const HwConfig& cfg);

// Every rule of conv.md the layer breaks (§2.6 is consistent by construction; this checks
// sizes, modes, features, CBUF fit, §8.2, FETCH_GRAIN, reuse); empty: legal. `before`: the
// CBUF state the layer starts from.
enum : unsigned { kConvCheckFeatures = 1, kConvCheckMemory = 2, kConvCheckAll = 3 };
std::vector<std::string> conv_layer_problems(const ConvLayerSpec& l, const HwConfig& cfg, const ConvCbufState& before,
                                             unsigned checks = kConvCheckAll);

// Input and weight values of a layer.
struct ConvLayerData {
  // Direct and Winograd: W x H x C x N elements (bit patterns of IN precision).
  std::optional<formats::FeatureTensor> features;
  // Image: raw plane bytes, conv_input_extent() bytes from src (and src_uv).
  std::vector<uint8_t> plane0, plane1;
  // K x R x S x C in PROC precision (image: before pre-extension; Winograd: before folding).
  formats::KernelSet kernels;
};

// `special`: density of fp16 NaN/Inf/subnormal/+-0/max/min-normal and integer extremes in the
// data (a quarter of it in the weights); the rest follows the layer's value shape.
ConvLayerData random_conv_data(const ConvLayerSpec& l, const HwConfig& cfg, Rng& data, double special);

// The weight image as CDMA copies it (§3.2, §5.5, §5.6, §6.2, §7), padded to WEIGHT_BYTES.
struct ConvWeightImage {
  std::vector<uint8_t> weights, wmb, wgs;
  uint64_t weight_bytes = 0, wmb_bytes = 0;
};
ConvWeightImage conv_weight_image(const ConvLayerSpec& l, const HwConfig& cfg, const formats::KernelSet& k, Rng& fill);
// Winograd: the transformed kernel U (K x 4 x 4 x C_ext) of an original kernel set.
formats::KernelSet conv_winograd_weights(const ConvLayerSpec& l, const formats::KernelSet& k);

// A memory image the layer needs.
struct ConvMemoryImage {
  MemPort port = MemPort::Dbb;
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;
  std::string what;
};
// Input (unless fully reused), weights / WMB / WGS (unless reused), SDP operand blocks and the
// SDP output window pre-filled with random bytes. Sets l.weight_bytes / l.wmb_bytes from the
// weights (before the addresses are placed). `weights` as from conv_weight_image.
std::vector<ConvMemoryImage> conv_layer_images(const ConvLayerSpec& l, const HwConfig& cfg, const ConvLayerData& d,
                                               const ConvWeightImage& weights, Rng& fill);

// Region allocator on both ports (atom-aligned regions that never overlap).
class ConvAllocator {
 public:
  ConvAllocator(const HwConfig& cfg, Rng& layout);
  uint64_t take(MemPort port, uint64_t bytes, uint64_t align);
  // Moves the next DBB region to `start` (high_addresses); the layout stream is not touched.
  void restart_dbb(uint64_t start) { next_[0] = start; }

 private:
  Rng& rng_;
  uint64_t next_[2];
};
// Input strides (packed or gapped) and address; not for fully reused data (kept from the
// previous layer).
void place_conv_input(ConvLayerSpec& l, const HwConfig& cfg, Rng& layout, ConvAllocator& alloc);
// Weights / WMB / WGS (unless reused: the previous layer's addresses stay), SDP operand
// blocks and the SDP output (strides: packed or gapped; batching: 64-byte aligned, unpacked).
void place_conv_outputs(ConvLayerSpec& l, const HwConfig& cfg, Rng& layout, ConvAllocator& alloc, bool place_weights);

// CSB: S_POINTER of every unit, every D_ register of the layer (CDMA, CSC, CMAC_A, CMAC_B,
// CACC, SDP, SDP_RDMA), then arming SDP_RDMA (when an operand stream is used), SDP, CACC,
// CMAC_A, CMAC_B, CSC, CDMA.
void program_conv_layer(ProgramBuilder& b, const HwConfig& cfg, const ConvLayerSpec& l, unsigned group);
// GLB S_INTR_STATUS bits of a finished layer: SDP, CDMA_DAT, CDMA_WT, CACC done of `group`.
uint32_t conv_done_bits(unsigned group);
// Waits for the done bits, checks and clears them, reads the layer's counters (CACC
// D_OUT_SATURATION, CDMA NaN/Inf counters, SDP output counters).
void finish_conv_layer(ProgramBuilder& b, const HwConfig& cfg, const ConvLayerSpec& l, unsigned group,
                       const std::string& what);
// Before the first layer: poll CDMA.S_CBUF_FLUSH_STATUS.FLUSH_DONE until 1.
void wait_cbuf_flush(Program& p, const HwConfig& cfg);
// Every conv unit and SDP idle, GLB clear.
void conv_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when);
uint64_t conv_timeout(const ConvLayerSpec& l, const HwConfig& cfg);
std::string describe_conv_layer(const ConvLayerSpec& l, const HwConfig& cfg);

// ---- random legal layers
enum class ConvSize : uint8_t { Small, Medium, Large };
struct ConvShapeLimits {
  uint32_t max_wh = 16, max_c = 64, max_k = 32, max_kernel = 32;
  uint64_t max_atomic_ops = 8192;
  uint32_t max_batches = 4;
  static ConvShapeLimits of(ConvSize s);
};


struct ConvDrawOptions {
  ConvShapeLimits limits;
  std::vector<ConvMode> modes;          // allowed modes (non-empty)
  std::vector<Precision> precisions;    // allowed processing precisions (non-empty)
  unsigned batch_percent = 0, compression_percent = 0, sram_percent = 0, post_extension_percent = 40;
  bool minimal_weight_bytes = true;     // sometimes WEIGHT_BYTES below the 128 rounding
  bool sdp_split = true, sdp_ew = true; // SDP 8->16 output split and EW stage (v1)
  bool unsupported_ok = false;          // conv.illegal: ignore the configuration's feature set
  // NVIDIA nv_small behaviours between conv layers (docs/nvdla-differential.md), avoided:
  // WEIGHT_BYTES exactly the entries CSC consumes (ceil(K*BPK / entry) entries; extra
  // fetched entries are never released), a bank-split change never shrinks a region, and
  // post-extension (Y_EXTENSION > 0) only with CONV_X_STRIDE 1, and no image layer of one
  // output column whose S*C spans more than three channel blocks. Also, NVIDIA's CDMA may still
  // count weight entries of earlier layers as occupied (conv-weight-release-lost): with
  // avoid_nvdla_errata a layer's largest kernel group (all its weights with SKIP_WEIGHT_RLS) fits
  // the weight region beside `nvdla_weight_entries_held` (NvdlaWeightCredit::high() of the layers
  // before; conv.random sets it layer by layer).
  bool avoid_nvdla_errata = false;
  uint64_t nvdla_weight_entries_held = 0;
  // Compute-bound direct layers only (throughput checks): 3x3 kernels, stride and dilation 1,
  // padding 1 on every side, 8..12 full channel blocks, 2..4 full kernel groups, 8..16 pixels.
  bool compute_bound = false;
  // Weight-streaming direct layers only (memory-bound checks): one output pixel, the kernel
  // as large as the 2..3 x 2..3 input, no padding, 4..8 full channel blocks, 4..8 full kernel
  // groups, so the weight bytes (AC x AK elements an operation) bound the run.
  bool memory_bound = false;
  // Image layers draw only two-plane pixel formats (Y plane + interleaved UV plane).
  bool semi_planar_only = false;
  // Largest Winograd stride drawn (strides above 1 are drawn from 2..this; CDMA folds up to 8).
  uint32_t winograd_max_stride = 3;
};

// A random legal layer (without memory placement and release flags). With `prev` and a
// reuse relation the layer takes the previous layer's input and/or weights (and banks);
// nullopt when no such layer fits after some attempts.
std::optional<ConvLayerSpec> random_conv_layer(const HwConfig& cfg, Rng& shape, const ConvDrawOptions& opt,
                                               const ConvLayerSpec* prev, ConvReuse rel);
// Random SDP stages, converter and output precision for the layer (no placement).
void random_conv_sdp(ConvLayerSpec& l, const HwConfig& cfg, Rng& shape, const ConvDrawOptions& opt);
// Sets SKIP_DATA_RLS / RLS_SLICES / SKIP_WEIGHT_RLS for the relation to the next layer
// (random partial releases when nothing is reused). Returns false when the relation cannot
// be honoured (e.g. the weights do not fit the weight banks entirely). `weight_entries_held`:
// entries of the weight region that stay occupied besides the layer's own (kept weights must
// fit beside them; see ConvDrawOptions::nvdla_weight_entries_held).
bool set_release_for_next(ConvLayerSpec& l, const HwConfig& cfg, Rng& shape, ConvReuse next,
                          uint64_t weight_entries_held = 0);
// NVIDIA nv_small's view of the layer's weight traffic (dla/nvdla_weight_credit.h): region,
// entries per kernel group from WEIGHT_BYTES (weight_bytes, or the uncompressed size while it is
// not set yet), SKIP_WEIGHT_RLS; `reuses`: the layer reuses weights the previous layer kept.
// No groups for compressed weights (nv_small has no compression).
NvdlaWeightLayer conv_nvdla_weight_layer(const ConvLayerSpec& l, const HwConfig& cfg);

// ---- whole programs
struct ConvRandomOptions {
  unsigned layers = 3;
  ConvDrawOptions draw;
  bool reuse = true;          // consecutive layers reuse data and/or weights
  double special = 0.02;      // see random_conv_data
  bool junk = false;          // random values in every field without effect
  std::string knob_note;      // first note of the program
  // Per-cent of layers (one batch, not Winograd) whose SDP output goes on-flying into a random
  // PDP pooling layer over the convolution's output cube (conv -> SDP -> PDP); draws come from
  // their own stream "conv.pdp", so 0 leaves every other draw as it was.
  unsigned pdp_percent = 0;
  bool avoid_pdp_errata = false;  // PDP windows that leave rows/columns unused are not drawn
  // Per-cent of integer layers whose output is a random 8- or 16-bit window of the accumulator,
  // low bits included: SDP's BS/BN/EW bypassed, converter scale 1, offset 0; half of them with
  // CLIP_TRUNCATE 0 and a shift drawn from 0 up to the accumulator's typical width, half with
  // CLIP_TRUNCATE leaving about the output's width and no shift (CACC's rounding in the output's
  // low bit). Own stream "conv.window"; 0 leaves every other draw as it was.
  unsigned window_percent = 0;
  // Per-cent of enabled BS/BN stages whose ALU and MUL operands (those the stage uses) come per
  // element from memory (sdp.md §5.3). Own stream "conv.sdp_element"; 0 leaves every other
  // draw as it was.
  unsigned sdp_per_element_percent = 0;
  // Per-cent of layers (integer or fp16, no output window) whose SDP EW stage takes its ALU and/or
  // MUL operand from memory (per kernel or per element, through the operand converters). Own
  // stream "conv.sdp_ew_memory"; 0 leaves every other draw as it was.
  unsigned sdp_ew_memory_percent = 0;
  // Per-cent of per-element operand streams (BS, BN, EW) made to carry both the ALU and the MUL
  // operand, two bytes each. Own stream "conv.sdp_pairs"; 0 leaves every other draw as it was.
  unsigned sdp_operand_pairs_percent = 0;
  // DBB regions start anywhere in the configuration's address space (below its top 256 MiB)
  // instead of just above 0x8000_0000, so every address bit of both read clients and of SDP's
  // write toggles. Own stream "conv.high"; off leaves every other draw as it was.
  bool high_addresses = false;
};
// conv.random's program: layers on alternating groups, each waited for.
Program conv_random_program(const HwConfig& cfg, uint64_t seed, const ConvRandomOptions& o);

// conv.illegal's cases: one runs (ignored_fields), the others break one rule each and are
// refused by the generator; conv_illegal_program builds them anyway for golden-only tests.
struct ConvIllegalCase {
  std::string name;
  bool runs = false;
  std::string rule;  // the rule broken, with its conv.md section
};
const std::vector<ConvIllegalCase>& conv_illegal_cases();
// std::invalid_argument for an unknown case or one that does not apply to the configuration
// (e.g. winograd_unsupported on a configuration with Winograd).
Program conv_illegal_program(const HwConfig& cfg, uint64_t seed, const std::string& case_name);

}  // namespace dla::stimulus
