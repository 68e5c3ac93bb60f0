#include "dla/nvdla_errata.h"

#include "dla/conv_layer.h"
#include "dla/nvdla_weight_credit.h"
#include "dla/pdp_layer.h"

namespace dla {

std::optional<std::string> nvdla_erratum_of(const HwConfig& cfg, const std::vector<LayerRecord>& layers) {
  for (const LayerRecord& r : layers) {
    if (r.unit != Unit::PDP) continue;
    const PdpLayer l = decode_pdp_registers(r.regs);
    if (pdp_unused_rows(l) != 0 || pdp_unused_columns(l) != 0) return std::string("pdp-unused-edges");
  }
  std::vector<golden::ConvLayer> conv;
  for (const golden::CompletedConvLayer& c : golden::completed_conv_layers(cfg, layers)) conv.push_back(c.layer);
  // CDMA's count of unreleased weight entries keeps what CSC released after CDMA's done: a layer
  // whose largest kernel group no longer fits beside what is certainly left behind hangs. Checked
  // first: such a run hangs whatever else its layers hit.
  NvdlaWeightCredit credit;
  for (size_t i = 0; i < conv.size(); ++i) {
    const golden::ConvLayer& l = conv[i];
    if (l.compressed) break;  // not modelled (nv_small has no weight compression)
    NvdlaWeightLayer w;
    w.region = uint64_t{l.weight_bank + 1} * cfg.conv_cbuf_bank_entries;
    w.keeps = l.skip_weight_rls;
    w.reuses = l.weight_reuse && i > 0 && conv[i - 1].skip_weight_rls;  // CDMA fetches nothing
    if (!w.reuses)
      w.groups = nvdla_weight_group_entries(l.cdma_kernels, l.bytes_per_kernel, l.weight_bytes,
                                            cfg.conv_kernels_per_group(l.proc), cfg.conv_cbuf_entry_bytes);
    if (credit.certain_hang(w)) return std::string("conv-weight-release-lost");
    credit.run(w);
  }
  for (const golden::ConvLayer& l : conv) {
    if (l.kind != golden::ConvInputKind::Image) continue;
    if (l.y_extension > 0 && l.stride_x > 1) return std::string("conv-post-extension-x-stride");
    if (l.out_width == 1 && l.kernel_channels > 3 * cfg.conv_mac_atomic_c) return std::string("conv-image-single-column");
  }
  const uint64_t entry = cfg.conv_cbuf_entry_bytes;
  for (size_t i = 1; i < conv.size(); ++i) {
    const golden::ConvLayer &a = conv[i - 1], &b = conv[i];
    const bool same_banks = a.data_bank == b.data_bank && a.weight_bank == b.weight_bank;
    const uint64_t consumed = (uint64_t{a.kernels} * a.bytes_per_kernel + entry - 1) / entry * entry;
    if (same_banks && !a.compressed && !a.skip_weight_rls && a.weight_bytes > consumed)
      return std::string("conv-weight-bytes-unreleased");
    if (!same_banks && (b.data_bank < a.data_bank || b.weight_bank < a.weight_bank))
      return std::string("conv-bank-region-shrinks");
  }
  return std::nullopt;
}

}  // namespace dla
