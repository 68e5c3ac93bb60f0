// Hardware configuration description (one per configuration, from rtl/configs/*.yaml).
// The tables are generated at build time; this header is the only way C++ code sees them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dla {

// Every unit window the CSB address map can hold (NVDLA naming; RBK = RUBIK).
enum class Unit : uint8_t {
  CFGROM, GLB, GEC, MCIF, CVIF, BDMA, CDMA, CSC, CMAC_A, CMAC_B, CACC,
  SDP_RDMA, SDP, PDP_RDMA, PDP, CDP_RDMA, CDP, RBK,
  Count
};
constexpr unsigned kUnitCount = static_cast<unsigned>(Unit::Count);

const char* unit_name(Unit u);                          // "BDMA"
std::optional<Unit> unit_from_name(const std::string&); // accepts "RUBIK" for RBK

enum class Precision : uint8_t { Int8 = 0, Int16 = 1, Fp16 = 2 };
const char* precision_name(Precision p);                // "int8", "int16", "fp16"

// SDP D_PERF_OUT_SATURATION rule for integer outputs. Margin (nv_full): the floor of the
// converter's result lies more than one step outside the 17-bit range. Range (nv_small): the
// rounded result lies above the range or its floor below it.
enum class SdpSatFlag : uint8_t { Margin, Range };

struct HwConfig {
  std::string name;              // "v1", "small", "nv_large" (the file name in rtl/configs/)
  // The names NVDLA gives this configuration where they differ from `name` (spec files, trace
  // folders): small = "nv_small", v1 = "nv_full" and "nvdlav1".
  std::vector<std::string> nvdla_names;
  std::string description;
  std::string register_variant;  // "nvdlav1" or "master": which field widths/resets apply
  unsigned atom_bytes = 32;
  unsigned dbb_data_bits = 512;
  unsigned dbb_addr_bits = 64;
  bool sram_if = false;          // secondary AXI port (nvdla_core2cvsram_*) present
  unsigned sram_data_bits = 0;   // its data width (0 without it; else = dbb_data_bits)
  bool cfgrom = false;
  // CFGROM words that are numbers of this configuration (atomics, CBUF geometry, bus and
  // address widths, throughputs), as {register, value}; they replace the register
  // description's values (nv_small's ROM). Empty without CFGROM. docs/configurations.md.
  std::vector<std::pair<std::string, uint32_t>> cfgrom_words;
  std::vector<Precision> precisions;
  bool sdp_bs = true, sdp_bn = true, sdp_ew = true, sdp_lut = true;
  // Which SDP output-converter results count in D_PERF_OUT_SATURATION (docs/sdp.md).
  SdpSatFlag sdp_sat_flag = SdpSatFlag::Margin;
  unsigned sdp_throughput = 1, pdp_throughput = 1, cdp_throughput = 1;
  // CDP.D_OUT_SATURATION counts saturated integer outputs (spec §2.8); false: the counter is
  // absent and reads 0 in both groups (NVIDIA's nv_small).
  bool cdp_out_saturation = true;
  // PDP line buffer in atoms (0: no limit modelled). A stripe may produce at most
  // pdp_line_buffer_atoms / pow2ceil(open rows) output columns (docs/pdp.md).
  unsigned pdp_line_buffer_atoms = 0;
  // Most output columns one PDP stripe may write, whatever the open rows (0: no such limit): the
  // depth of the RTL's line buffer where it is not NVIDIA's shared one (docs/pdp.md).
  unsigned pdp_max_stripe_columns = 0;
  unsigned bdma_queue_depth = 0; // 0 when BDMA is absent
  // Convolution pipeline (docs/conv.md). MAC atomic C: input channels per atomic operation;
  // MAC atomic K (int8): kernels per group, = atom_bytes (16-bit precisions: atom_bytes / 2).
  unsigned conv_mac_atomic_c = 8, conv_mac_atomic_k = 8;
  unsigned conv_cbuf_banks = 32, conv_cbuf_bank_entries = 512, conv_cbuf_entry_bytes = 8;
  bool conv_winograd = false, conv_batching = false, conv_compression = false;
  // CACC D_OUT_SATURATION adds an atom's saturated-lane count with a log2(K)-bit adder: an atom
  // whose K lanes all saturate adds 0 (the configurable NVDLA family).
  bool conv_sat_count_wraps = false;
  unsigned axi_id_bits = 8, axi_max_burst_beats = 16, axi_max_outstanding_reads = 32;
  // CSB byte base of each unit's 4 KiB window; nullopt = unit absent.
  std::optional<uint32_t> unit_base[kUnitCount];

  unsigned dbb_bytes() const { return dbb_data_bits / 8; }
  // Kernels per group (= output channels per atom) at a precision's element size.
  unsigned conv_kernels_per_group(Precision p) const { return p == Precision::Int8 ? atom_bytes : atom_bytes / 2; }
  bool has_unit(Unit u) const { return unit_base[static_cast<unsigned>(u)].has_value(); }
  bool supports(Precision p) const;
  // Which unit window a CSB byte address falls in (nullopt: no unit there).
  std::optional<Unit> unit_at(uint32_t byte_addr) const;

  // Lookup. get() throws std::invalid_argument naming the valid configurations.
  static const HwConfig& get(const std::string& name);
  static const std::vector<HwConfig>& all();
  // The configuration called `name` or whose nvdla_names hold it ("nv_small" -> small);
  // nullptr when none is.
  static const HwConfig* find(const std::string& name);
  // The build's default (CMake DLA_DEFAULT_CONFIG: v1 when its model is built, else the first
  // configuration with a model).
  static const HwConfig& default_config();
};

}  // namespace dla
