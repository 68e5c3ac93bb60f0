#include "pdp_model.h"

#include <string>

#include "dla/pdp_layer.h"
#include "dla/regs.gen.h"
#include "pdp_engine.h"

namespace dla::golden {

namespace P = reg::PDP;
namespace RD = reg::PDP_RDMA;

namespace {

bool pdp_armed_off_flying(UnitContext& ctx) {
  return ctx.stored(Unit::PDP, P::D_OP_ENABLE::offset) == 1 &&
         P::D_OPERATION_MODE_CFG::FLYING_MODE::get(ctx.stored(Unit::PDP, P::D_OPERATION_MODE_CFG::offset)) ==
             P::D_OPERATION_MODE_CFG::FLYING_MODE::OFF_FLYING;
}

void check_port(MemPort port, const char* what, UnitContext& ctx) {
  if (port == MemPort::Sram && !ctx.config().sram_if)
    ctx.warn(std::string("PDP: ") + what + " selects the CV-SRAM interface, which configuration '" +
             ctx.config().name + "' does not have; the golden model uses its SRAM memory");
}

// Counters latched at done; the standard PDP done bit of the group (GLB bit 4 / 5).
LayerResult layer_result(const PdpCounters& c) {
  LayerResult r;
  r.counters = {{P::D_INF_INPUT_NUM::offset, c.inf_input},
                {P::D_NAN_INPUT_NUM::offset, c.nan_input},
                {P::D_NAN_OUTPUT_NUM::offset, c.nan_output},
                {P::D_PERF_WRITE_STALL::offset, 0}};
  return r;
}

}  // namespace

bool PdpRdmaModel::ready(const RegisterSnapshot& regs, UnitContext& ctx) {
  if (regs.field<RD::D_FLYING_MODE, RD::D_FLYING_MODE::FLYING_MODE>() != RD::D_FLYING_MODE::FLYING_MODE::OFF_FLYING)
    return true;  // execute_layer reports the hang
  // The RDMA streams into the PDP core; it finishes only while the core consumes off-flying.
  return link_->delivered.empty() && pdp_armed_off_flying(ctx);
}

std::optional<LayerResult> PdpRdmaModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  if (regs.field<RD::D_FLYING_MODE, RD::D_FLYING_MODE::FLYING_MODE>() != RD::D_FLYING_MODE::FLYING_MODE::OFF_FLYING) {
    ctx.warn("PDP_RDMA: group " + std::to_string(regs.group) +
             " armed with D_FLYING_MODE = on-flying: the RDMA has nothing to read and the group stays armed "
             "(arm PDP_RDMA only for off-flying layers, spec §1.12)");
    return std::nullopt;
  }
  link_->delivered.push_back(regs);
  LayerResult r;
  r.counters = {{RD::D_PERF_READ_STALL::offset, 0}};
  r.interrupt_bits = 0;  // the RDMA raises no interrupt (spec §5.2 rule 7)
  return r;
}

bool PdpModel::ready(const RegisterSnapshot& regs, UnitContext&) {
  if (regs.field<P::D_OPERATION_MODE_CFG, P::D_OPERATION_MODE_CFG::FLYING_MODE>() !=
      P::D_OPERATION_MODE_CFG::FLYING_MODE::OFF_FLYING)
    return !link_->from_sdp || !link_->from_sdp->cubes.empty();  // waits for SDP's cube
  return !link_->delivered.empty();
}

std::optional<LayerResult> PdpModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  const PdpLayer core = decode_pdp_registers(regs);
  if (!core.off_flying) {
    check_port(core.dst_port, "PDP.D_DST_RAM_CFG", ctx);
    const std::optional<PdpCounters> c = run_on_flying_pdp_layer(core, regs.group, link_->from_sdp.get(), ctx);
    if (!c) return std::nullopt;
    return layer_result(*c);
  }
  const RegisterSnapshot rdma_regs = link_->delivered.front();
  link_->delivered.pop_front();
  const PdpLayer rdma = decode_pdp_rdma_registers(rdma_regs);
  if (rdma_regs.group != regs.group)
    ctx.warn("PDP: group " + std::to_string(regs.group) + " consumes the cube of PDP_RDMA group " +
             std::to_string(rdma_regs.group) + " (software must arm the same group index in both, spec §5.2 rule 7)");
  for (const std::string& m : pdp_rdma_mismatches(core, rdma))
    ctx.warn("PDP: PDP and PDP_RDMA disagree on " + m +
             "; the golden model reads through the RDMA's source address/strides and computes with PDP's registers");
  for (const std::string& v : pdp_layer_violations(core, ctx.config()))
    ctx.warn("PDP: " + v + "; behaviour undefined, the golden model extends the arithmetic naturally");

  // Source address, strides and memory come from PDP_RDMA (PDP's copies are unused, §8.14).
  PdpLayer layer = core;
  layer.src = rdma.src;
  layer.src_line = rdma.src_line;
  layer.src_surface = rdma.src_surface;
  layer.src_port = rdma.src_port;
  check_port(layer.src_port, "PDP_RDMA.D_SRC_RAM_CFG", ctx);
  check_port(layer.dst_port, "PDP.D_DST_RAM_CFG", ctx);
  const unsigned atom = ctx.config().atom_bytes;
  PdpMemoryInput input(ctx.memory(layer.src_port), layer.src, layer.src_line, layer.src_surface, atom);
  return layer_result(run_pdp_layer(layer, atom, input, ctx.memory(layer.dst_port)));
}

std::vector<std::unique_ptr<UnitModel>> make_pdp_unit_models(const HwConfig& cfg,
                                                             std::shared_ptr<SdpPdpChannel> from_sdp) {
  std::vector<std::unique_ptr<UnitModel>> models;
  if (!cfg.has_unit(Unit::PDP) || !cfg.has_unit(Unit::PDP_RDMA)) return models;
  auto link = std::make_shared<PdpLink>();
  link->from_sdp = std::move(from_sdp);
  models.push_back(std::make_unique<PdpRdmaModel>(link));
  models.push_back(std::make_unique<PdpModel>(link));
  return models;
}

}  // namespace dla::golden
