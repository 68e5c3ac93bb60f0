// One PDP pooling layer as its registers describe it (pdp_cdp_bdma_rubik_glb.md §1), the
// register encoding of such a layer for PDP and PDP_RDMA, the split-mode stripe plan (§1.11)
// and the programming rules whose violation makes the hardware's behaviour undefined.
// Shared by the golden PDP model, the pdp.* generators and the tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/mem_port.h"
#include "dla/unit_model.h"

namespace dla {

enum class PoolMethod : uint8_t { Average = 0, Max = 1, Min = 2 };
const char* pool_method_name(PoolMethod m);  // "average", "max", "min"

// All sizes are real values (registers hold value - 1 where the spec says "field+1").
struct PdpLayer {
  uint32_t format = 0;  // D_DATA_FORMAT.INPUT_DATA: 0 int8, 1 int16, 2 fp16, 3 reserved
  uint32_t method = 0;  // D_OPERATION_MODE_CFG.POOLING_METHOD: 0 average, 1 max, 2 min, 3 reserved
  bool off_flying = true;
  bool nan_to_zero = false;
  uint32_t width = 1, height = 1, channels = 1;
  uint32_t out_width = 1, out_height = 1, out_channels = 1;
  uint32_t kernel_w = 1, kernel_h = 1, stride_w = 1, stride_h = 1;
  uint32_t pad_left = 0, pad_top = 0, pad_right = 0, pad_bottom = 0;
  uint32_t recip_w = 0x10000, recip_h = 0x10000;  // 17-bit patterns
  std::array<uint32_t, 7> pad_value{};             // PAD_VALUE_1X..7X, 19-bit patterns
  // Split mode: split_num = stripes - 1 (0: no split); widths of first/middle/last stripe.
  uint32_t split_num = 0;
  uint32_t in_first = 1, in_mid = 1, in_last = 1, out_first = 1, out_mid = 1, out_last = 1;
  uint64_t src = 0, src_line = 0, src_surface = 0;  // byte values
  uint64_t dst = 0, dst_line = 0, dst_surface = 0;
  MemPort src_port = MemPort::Dbb, dst_port = MemPort::Dbb;

  unsigned elem_bytes() const { return format == 0 ? 1 : 2; }
  bool is_fp16() const { return format == 2; }
};

// floor((pad_a + in + pad_b - k) / s) + 1, or 0 when the padded plane is smaller than k.
uint32_t pdp_output_size(uint32_t in, uint32_t pad_a, uint32_t pad_b, uint32_t k, uint32_t s);

// Reciprocal register value for 1/k: round(65536 / k) for int8/int16, the fp17 pattern of
// 1/k (round to nearest even) for fp16.
uint32_t pdp_reciprocal(uint32_t k, bool fp16);
// fp17 pattern of the small integer k (exact for k < 2048).
uint32_t fp17_of_integer(uint32_t k);

// One vertical stripe: input columns [in_start, in_start + in_width) of the cube, with
// pad_left / pad_right padded columns around them, producing output columns
// [out_start, out_start + out_width). in_start may be negative only for broken programming.
struct PdpStripe {
  int64_t in_start = 0;
  uint32_t in_width = 0, pad_left = 0, pad_right = 0, out_start = 0, out_width = 0;
};
// The stripes in processing order (one stripe when split_num = 0), spec §1.11 table.
std::vector<PdpStripe> pdp_stripes(const PdpLayer& l);

// Switches the layer to split mode (§1.11) with `stripes` >= 2 stripes of `out_first` and
// `out_mid` output columns (the last stripe takes the rest) and consistent input widths.
// Returns false and leaves the layer unchanged when no consistent split exists.
bool pdp_set_split(PdpLayer& l, const HwConfig& cfg, uint32_t stripes, uint32_t out_first, uint32_t out_mid);

// Input rows PDP keeps open in its line buffer while pooling: ceil(kh / sh) (1 when the
// stride is at least the kernel height).
uint32_t pdp_open_rows(const PdpLayer& l);
// Output columns one stripe may have in configuration `cfg`: the line buffer's atoms shared
// by the open rows rounded up to a power of two, and at most the configuration's
// max_stripe_columns (0: the configuration sets no limit).
uint32_t pdp_line_buffer_columns(const PdpLayer& l, const HwConfig& cfg);

// Padded rows / columns after the last pooling window along each axis (rows below it,
// columns right of it): (pad_a + in + pad_b - k) mod s when the plane holds a kernel.
uint32_t pdp_unused_rows(const PdpLayer& l);
uint32_t pdp_unused_columns(const PdpLayer& l);
// Removes them (bottom/right pad first, then input rows/columns) without changing the
// output size. Layers with unused bottom rows or right columns hit an erratum of NVIDIA's
// nv_small PDP (docs/pdp.md); generators call this when asked to avoid NVDLA errata.
// Call before a split is chosen.
void pdp_trim_unused_edges(PdpLayer& l);

// Every programming rule of §1.4, §1.11 and §1.2/§1.3 the layer breaks, one sentence each
// naming the register and the rule ("" none). The hardware does not check them; the golden
// model warns and computes anyway, the generators never produce them.
std::vector<std::string> pdp_layer_violations(const PdpLayer& l, const HwConfig& cfg);

// Decode the PDP core's registers / PDP_RDMA's registers (the RDMA carries only the input
// side: cube, format, kernel width and stride, split and input partial widths, source).
PdpLayer decode_pdp_registers(const RegisterSnapshot& pdp);
PdpLayer decode_pdp_rdma_registers(const RegisterSnapshot& rdma);
// Fields the RDMA copy programs differently from the core (empty: consistent).
std::vector<std::string> pdp_rdma_mismatches(const PdpLayer& core, const PdpLayer& rdma);

// Register writes that program the layer: (byte offset inside the unit window, value), in
// the order given, D_OP_ENABLE excluded. Address fields take the byte values as they are.
std::vector<std::pair<uint32_t, uint32_t>> pdp_register_values(const PdpLayer& l);
std::vector<std::pair<uint32_t, uint32_t>> pdp_rdma_register_values(const PdpLayer& l);

// Status counters are 32-bit and saturate at 0xFFFFFFFF (spec §8.6 leaves wrap vs saturate
// open; we follow the CDP counters, which saturate in the RTL).
inline uint32_t pdp_counter_add(uint32_t counter, uint64_t n) {
  const uint64_t s = uint64_t{counter} + n;
  return s > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<uint32_t>(s);
}

}  // namespace dla
