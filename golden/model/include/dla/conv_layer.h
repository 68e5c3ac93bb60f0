// One convolution layer as the CDMA, CSC, CMAC_A, CMAC_B and CACC registers describe it
// (docs/conv.md), decoded into plain values, plus the programming rules the pipeline needs
// to run it (cross-unit consistency, CBUF fit, D_ENTRY_PER_SLICE, mode restrictions).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/unit_model.h"

namespace dla::golden {

// Register value at a byte offset of a unit window (the unit's CONSUMER group).
using ConvRegReader = std::function<uint32_t(uint32_t offset)>;

enum class ConvInputKind : uint8_t { Feature, Image, Winograd };
const char* conv_input_kind_name(ConvInputKind k);

struct ConvLayer {
  // Shared by the five units (CSC's view; the others are checked against it).
  ConvInputKind kind = ConvInputKind::Feature;
  unsigned in_code = 0, proc_code = 0;  // raw 2-bit precision fields
  Precision in = Precision::Int8, proc = Precision::Int8;
  bool data_reuse = false, weight_reuse = false, skip_data_rls = false, skip_weight_rls = false;
  bool compressed = false;
  unsigned data_bank = 0, weight_bank = 0;  // banks - 1
  uint32_t entries = 0;                     // D_ENTRY_PER_SLICE (entries - 1)
  unsigned batches = 1;

  // CDMA fetch.
  uint32_t width = 1, height = 1, channels = 1;  // DATAIN_SIZE_0/1 + 1
  uint32_t width_ext = 1, height_ext = 1;        // DATAIN_SIZE_EXT_0 + 1
  MemPort data_port = MemPort::Dbb;
  bool data_port_is_sram = false;
  uint64_t data_addr0 = 0, data_addr1 = 0, line_stride = 0, uv_line_stride = 0, surf_stride = 0, batch_stride = 0;
  bool line_packed = false, surf_packed = false;
  unsigned pixel_format = 0, pixel_x_offset = 0, pixel_y_offset = 0;
  bool pixel_mapping = false, pixel_sign_override = false;
  bool mean_format = false;
  int32_t mean[4] = {0, 0, 0, 0};
  bool cvt_en = false;
  unsigned cvt_truncate = 0;
  int32_t cvt_offset = 0, cvt_scale = 0;
  unsigned cdma_stride_x = 1, cdma_stride_y = 1;
  unsigned cdma_pad_left = 0, cdma_pad_right = 0, cdma_pad_top = 0, cdma_pad_bottom = 0;
  uint16_t cdma_pad_value = 0;
  bool nan_to_zero = false;
  uint32_t fetch_grains = 0;  // D_FETCH_GRAIN (lines - 1)

  // CDMA weights.
  uint64_t bytes_per_kernel = 1;  // BYTE_PER_KERNEL + 1
  uint32_t cdma_kernels = 1;      // WEIGHT_KERNEL + 1
  MemPort weight_port = MemPort::Dbb;
  bool weight_port_is_sram = false;
  uint64_t weight_addr = 0, wgs_addr = 0, wmb_addr = 0, weight_bytes = 0, wmb_bytes = 0;

  // CSC.
  uint32_t csc_width = 1, csc_height = 1, csc_channels = 1;  // DATAIN_SIZE_EXT_0/1 + 1
  unsigned y_extension = 0;                                  // P = 1 << y_extension
  uint32_t kernel_width = 1, kernel_height = 1, kernel_channels = 1, kernels = 1;  // WEIGHT_SIZE_EXT + 1
  uint32_t out_width = 1, out_height = 1, out_channels = 1;  // DATAOUT_SIZE + 1
  uint32_t atomics = 1;                                      // ATOMICS + 1
  uint32_t release_slices = 1;                               // RLS_SLICES + 1
  unsigned stride_x = 1, stride_y = 1, dilation_x = 1, dilation_y = 1;
  unsigned pad_left = 0, pad_top = 0;
  uint16_t pad_value = 0;
  unsigned pra_truncate = 0;

  // CACC.
  unsigned clip_truncate = 0;

  // Per-unit copies of the shared fields, for the consistency rules (§2.6 of the spec).
  struct UnitView {
    const char* unit;
    unsigned conv_mode, proc_code;
  };
  std::vector<UnitView> mode_views;               // CDMA, CSC, CMAC_A, CMAC_B, CACC
  std::vector<std::string> mismatches;            // cross-unit disagreements, as text

  unsigned in_es() const { return in == Precision::Int8 ? 1 : 2; }
  unsigned proc_es() const { return proc == Precision::Int8 ? 1 : 2; }
  unsigned post_rows() const { return 1u << y_extension; }
};

// Decodes the five units' registers (CONSUMER groups).
ConvLayer decode_conv_layer(const HwConfig& cfg, const ConvRegReader& cdma, const ConvRegReader& csc,
                            const ConvRegReader& cmac_a, const ConvRegReader& cmac_b, const ConvRegReader& cacc);

// D_ENTRY_PER_SLICE the layer must hold (entries - 1 encoding), from the slice formula.
uint32_t conv_expected_entries(const ConvLayer& l, const HwConfig& cfg);

// Rules whose violation makes NVDLA hang or compute garbage: the golden model refuses the
// layer (it never completes) and names the rule. `kept_slices`: slices the CBUF holds from
// the previous layer that this layer reuses (0 without data reuse); `full_reuse`: the layer's
// whole input is those slices (CDMA fetches nothing).
std::vector<std::string> conv_rule_violations(const ConvLayer& l, const HwConfig& cfg, uint32_t kept_slices = 0,
                                              bool full_reuse = false);

// One completed convolution layer of a run: the i-th completed CDMA, CSC, CMAC_A, CMAC_B and
// CACC records decoded together (they complete together, in order). `cdma` and `cacc` carry
// the counters latched at done.
struct CompletedConvLayer {
  ConvLayer layer;
  const LayerRecord* cdma = nullptr;
  const LayerRecord* cacc = nullptr;
};
// Every completed convolution layer of `layers`, in order (pointers into `layers`).
std::vector<CompletedConvLayer> completed_conv_layers(const HwConfig& cfg, const std::vector<LayerRecord>& layers);

}  // namespace dla::golden
