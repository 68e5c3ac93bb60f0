#include "conv_model.h"

#include <algorithm>

#include <fmt/format.h>

#include "dla/regs.gen.h"

namespace dla::golden {

namespace {

uint32_t sat32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, 0xffffffffu)); }

uint32_t op_enable_offset(Unit u) {
  switch (u) {
    case Unit::CDMA: return reg::CDMA::D_OP_ENABLE::offset;
    case Unit::CSC: return reg::CSC::D_OP_ENABLE::offset;
    case Unit::CMAC_A: return reg::CMAC_A::D_OP_ENABLE::offset;
    case Unit::CMAC_B: return reg::CMAC_B::D_OP_ENABLE::offset;
    default: return reg::CACC::D_OP_ENABLE::offset;
  }
}

}  // namespace

void ConvSdpInput::read_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, uint32_t* lanes) {
  const ConvOutput& c = channel_->cubes.front();
  const uint32_t* a = c.atom(surface, line, w, batch);
  std::copy(a, a + c.lanes, lanes);
}

std::optional<std::string> ConvSdpInput::mismatch(const SdpLayerConfig& l) const {
  const ConvOutput& c = channel_->cubes.front();
  if (l.width != c.width || l.height != c.height || l.channels != c.kernels || l.batches != c.batches)
    return fmt::format("SDP expects a {}x{}x{} cube (x{} batches) but CACC delivers {}x{}x{} (x{})", l.width, l.height,
                       l.channels, l.batches, c.width, c.height, c.kernels, c.batches);
  if (l.proc != c.proc)
    return fmt::format("SDP PROC_PRECISION {} but the convolution ran in {}", precision_name(l.proc), precision_name(c.proc));
  if (l.winograd != c.winograd)
    return fmt::format("SDP WINOGRAD = {} but the convolution {} Winograd", l.winograd, c.winograd ? "is" : "is not");
  return std::nullopt;
}

int ConvPipeline::index_of(Unit u) {
  for (size_t i = 0; i < kUnits.size(); ++i)
    if (kUnits[i] == u) return static_cast<int>(i);
  return -1;
}

bool ConvPipeline::busy() const {
  return std::any_of(pending.begin(), pending.end(), [](const auto& q) { return !q.empty(); });
}

bool ConvUnitModel::ready(const RegisterSnapshot&, UnitContext& ctx) {
  if (!pipe_->pending[ConvPipeline::index_of(unit_)].empty()) return true;  // its layer already ran
  if (pipe_->busy()) return false;  // the other units still finish the previous layer
  for (Unit u : ConvPipeline::kUnits)
    if (!(ctx.stored(u, op_enable_offset(u)) & 1u)) return false;
  // CACC delivers only into an SDP layer armed in flying mode, one output at a time.
  using FM = reg::SDP::D_FEATURE_MODE_CFG;
  return (ctx.stored(Unit::SDP, reg::SDP::D_OP_ENABLE::offset) & 1u) &&
         FM::FLYING_MODE::get(ctx.stored(Unit::SDP, FM::offset)) != 0 && pipe_->to_sdp->cubes.empty();
}

std::optional<LayerResult> ConvUnitModel::execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) {
  auto& mine = pipe_->pending[ConvPipeline::index_of(unit_)];
  if (mine.empty()) run_layer(regs.group, ctx);
  std::optional<LayerResult> r = std::move(mine.front());
  mine.pop_front();
  return r;
}

void ConvUnitModel::run_layer(int group, UnitContext& ctx) {
  auto reader = [&ctx](Unit u) { return [&ctx, u](uint32_t off) { return ctx.stored(u, off); }; };
  const ConvLayer l =
      decode_conv_layer(cfg_, reader(Unit::CDMA), reader(Unit::CSC), reader(Unit::CMAC_A), reader(Unit::CMAC_B),
                        reader(Unit::CACC));
  const ConvMemories mem{ctx.memory(MemPort::Dbb), cfg_.sram_if ? ctx.memory(MemPort::Sram) : ctx.memory(MemPort::Dbb)};
  std::optional<ConvRun> run = run_conv_layer(l, cfg_, pipe_->cbuf, mem, [&](const std::string& rule) {
    ctx.warn(fmt::format("convolution ({} group {}): {}; the layer never completes", unit_name(unit_), group, rule));
  });
  if (!run) {
    for (auto& q : pipe_->pending) q.push_back(std::nullopt);
    return;
  }
  namespace D = reg::CDMA;
  LayerResult cdma, plain, cacc;
  cdma.counters = {{D::D_NAN_INPUT_DATA_NUM::offset, sat32(run->counters.nan_data)},
                   {D::D_NAN_INPUT_WEIGHT_NUM::offset, sat32(run->counters.nan_weight)},
                   {D::D_INF_INPUT_DATA_NUM::offset, sat32(run->counters.inf_data)},
                   {D::D_INF_INPUT_WEIGHT_NUM::offset, sat32(run->counters.inf_weight)}};
  plain.interrupt_bits = 0u;  // CSC and CMAC have no done interrupt
  cacc.counters = {{reg::CACC::D_OUT_SATURATION::offset, sat32(run->counters.out_saturation)}};
  pipe_->pending[ConvPipeline::index_of(Unit::CDMA)].push_back(cdma);
  pipe_->pending[ConvPipeline::index_of(Unit::CSC)].push_back(plain);
  pipe_->pending[ConvPipeline::index_of(Unit::CMAC_A)].push_back(plain);
  pipe_->pending[ConvPipeline::index_of(Unit::CMAC_B)].push_back(plain);
  pipe_->pending[ConvPipeline::index_of(Unit::CACC)].push_back(cacc);
  pipe_->to_sdp->cubes.push_back(std::move(run->output));
}

std::vector<std::unique_ptr<UnitModel>> make_conv_unit_models(const HwConfig& cfg, std::shared_ptr<ConvSdpChannel> to_sdp) {
  std::vector<std::unique_ptr<UnitModel>> v;
  if (!to_sdp || !cfg.has_unit(Unit::SDP)) return v;
  for (Unit u : ConvPipeline::kUnits)
    if (!cfg.has_unit(u)) return v;
  auto pipe = std::make_shared<ConvPipeline>();
  pipe->to_sdp = std::move(to_sdp);
  for (Unit u : ConvPipeline::kUnits) v.push_back(std::make_unique<ConvUnitModel>(cfg, u, pipe));
  return v;
}

}  // namespace dla::golden
