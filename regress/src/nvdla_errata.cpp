#include "dla/nvdla_errata.h"

#include "dla/pdp_layer.h"

namespace dla {

std::optional<std::string> nvdla_erratum_of(const std::vector<LayerRecord>& layers) {
  for (const LayerRecord& r : layers) {
    if (r.unit != Unit::PDP) continue;
    const PdpLayer l = decode_pdp_registers(r.regs);
    if (pdp_unused_rows(l) != 0 || pdp_unused_columns(l) != 0) return std::string("pdp-unused-edges");
  }
  return std::nullopt;
}

}  // namespace dla
