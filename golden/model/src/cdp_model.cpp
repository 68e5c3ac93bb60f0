#include "cdp_model.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "cdp_config.h"
#include "cdp_datapath.h"
#include "dla/regs.gen.h"

namespace dla::golden {

namespace C = reg::CDP;
namespace RD = reg::CDP_RDMA;

namespace {

uint32_t sat32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, 0xffffffffu)); }

void check_port(MemPort port, const char* what, UnitContext& ctx) {
  if (port == MemPort::Sram && !ctx.config().sram_if)
    ctx.warn(std::string("CDP: ") + what + " selects the CV-SRAM interface, which configuration '" +
             ctx.config().name + "' does not have; the golden model uses its SRAM memory");
}

}  // namespace

bool CdpRdmaModel::ready(const RegisterSnapshot&, UnitContext& ctx) {
  // The RDMA streams into CDP; it finishes only while CDP is armed to consume the cube.
  return link_->delivered.empty() && ctx.stored(Unit::CDP, C::D_OP_ENABLE::offset) == 1;
}

std::optional<LayerResult> CdpRdmaModel::execute_layer(const RegisterSnapshot& regs, UnitContext&) {
  link_->delivered.push_back(regs);
  LayerResult r;
  r.counters = {{RD::D_PERF_READ_STALL::offset, 0}};
  r.interrupt_bits = 0;  // the RDMA raises no interrupt (spec §5.2 rule 7)
  return r;
}

bool CdpModel::ready(const RegisterSnapshot&, UnitContext&) { return !link_->delivered.empty(); }

std::optional<LayerResult> CdpModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  const RegisterSnapshot rdma = link_->delivered.front();
  link_->delivered.pop_front();
  if (rdma.group != regs.group)
    ctx.warn(fmt::format("CDP: group {} consumes the cube of CDP_RDMA group {} (software must arm the same group "
                         "index in both, spec §5.2 rule 7)",
                         regs.group, rdma.group));
  CdpLayer l = decode_cdp_layer(regs, rdma);
  for (const std::string& v : cdp_layer_violations(l, ctx.config()))
    ctx.warn("CDP: " + v + "; the golden model computes with CDP's D_DATA_FORMAT and its documented widths");
  if (l.format == 3) l.format = 1;  // reserved: computed as int16 (same element size as fp16/int16)
  check_port(l.src_port, "CDP_RDMA.D_SRC_DMA_CFG", ctx);
  check_port(l.dst_port, "CDP.D_DST_DMA_CFG", ctx);
  const CdpCounters c =
      run_cdp_layer(l, tables_, ctx.config().atom_bytes, ctx.memory(l.src_port), ctx.memory(l.dst_port));
  const bool fp = l.format == 2;
  // D_OUT_SATURATION: int modes only, and only where the configuration has the counter
  // (nv_small has none: both groups read 0 whatever the layer, docs/nvdla-differential.md).
  const bool count_saturation = !fp && ctx.config().cdp_out_saturation;
  LayerResult r;
  r.counters = {{C::D_NAN_INPUT_NUM::offset, fp ? sat32(c.nan_input) : 0u},
                {C::D_INF_INPUT_NUM::offset, fp ? sat32(c.inf_input) : 0u},
                {C::D_NAN_OUTPUT_NUM::offset, fp ? sat32(c.nan_output) : 0u},
                {C::D_OUT_SATURATION::offset, count_saturation ? sat32(c.out_saturation) : 0u},
                {C::D_PERF_WRITE_STALL::offset, 0},
                {C::D_PERF_LUT_UFLOW::offset, sat32(c.lut_uflow)},
                {C::D_PERF_LUT_OFLOW::offset, sat32(c.lut_oflow)},
                {C::D_PERF_LUT_HYBRID::offset, sat32(c.lut_hybrid)},
                {C::D_PERF_LUT_LE_HIT::offset, sat32(c.lut_le_hit)},
                {C::D_PERF_LUT_LO_HIT::offset, sat32(c.lut_lo_hit)}};
  return r;  // standard CDP done bit of the group (GLB bit 2 / 3)
}

void CdpModel::on_write(uint32_t offset, uint32_t data, UnitContext&) {
  if (offset == C::S_LUT_ACCESS_CFG::offset) port_.write_cfg(data);
  else if (offset == C::S_LUT_ACCESS_DATA::offset) port_.write_data(tables_, data);
}

std::optional<uint32_t> CdpModel::read_hw(uint32_t offset) const {
  if (offset == C::S_LUT_ACCESS_DATA::offset) return port_.read_data(tables_);
  if (offset == C::S_LUT_ACCESS_CFG::offset)
    return port_.address() | (static_cast<uint32_t>(port_.table()) << 16) | (port_.write_access() ? 1u << 17 : 0u);
  return std::nullopt;
}

std::vector<std::unique_ptr<UnitModel>> make_cdp_unit_models(const HwConfig& cfg) {
  std::vector<std::unique_ptr<UnitModel>> models;
  if (!cfg.has_unit(Unit::CDP) || !cfg.has_unit(Unit::CDP_RDMA)) return models;
  auto link = std::make_shared<CdpLink>();
  models.push_back(std::make_unique<CdpRdmaModel>(link));
  models.push_back(std::make_unique<CdpModel>(link));
  return models;
}

}  // namespace dla::golden
