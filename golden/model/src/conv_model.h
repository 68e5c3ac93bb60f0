// The convolution pipeline's units in the golden model: CDMA, CSC, CMAC_A, CMAC_B and CACC,
// each with its own ping-pong groups in the core. A convolution layer runs when all five
// have their CONSUMER group armed and SDP's CONSUMER group is armed in flying mode with the
// previous convolution output consumed (CACC cannot deliver otherwise). The layer runs once
// (conv_engine) and each unit then completes its group with its own counters and done
// interrupt (CDMA: DAT and WT done; CACC: done). The output goes to SDP through the
// ConvSdpChannel, which is SDP's flying input.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "conv_cbuf.h"
#include "conv_engine.h"
#include "dla/unit_model.h"
#include "sdp_stream.h"

namespace dla::golden {

// Convolution outputs CACC delivered and SDP has not consumed yet (oldest first).
struct ConvSdpChannel {
  std::deque<ConvOutput> cubes;
};

// SDP's flying input: the oldest delivered convolution output.
class ConvSdpInput final : public SdpInputSource {
 public:
  explicit ConvSdpInput(std::shared_ptr<ConvSdpChannel> channel) : channel_(std::move(channel)) {}
  void read_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, uint32_t* lanes) override;
  bool available() const override { return !channel_->cubes.empty(); }
  std::optional<std::string> mismatch(const SdpLayerConfig& l) const override;
  void consume() override { channel_->cubes.pop_front(); }

 private:
  std::shared_ptr<ConvSdpChannel> channel_;
};

// State shared by the five unit models.
struct ConvPipeline {
  static constexpr std::array<Unit, 5> kUnits = {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC};
  static int index_of(Unit u);

  ConvCbuf cbuf;
  // Per unit: results of layers that ran and the unit has not completed yet (nullopt: the
  // layer broke a rule and never completes).
  std::array<std::deque<std::optional<LayerResult>>, 5> pending;
  std::shared_ptr<ConvSdpChannel> to_sdp;

  bool busy() const;
};

class ConvUnitModel final : public UnitModel {
 public:
  ConvUnitModel(const HwConfig& cfg, Unit unit, std::shared_ptr<ConvPipeline> pipe)
      : cfg_(cfg), unit_(unit), pipe_(std::move(pipe)) {}
  Unit unit() const override { return unit_; }
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;

 private:
  // Runs the layer the five CONSUMER groups describe and queues every unit's result.
  void run_layer(int group, UnitContext& ctx);

  const HwConfig& cfg_;
  Unit unit_;
  std::shared_ptr<ConvPipeline> pipe_;
};

// The five models sharing one pipeline (empty when the configuration lacks a conv unit or
// SDP); `to_sdp` receives the outputs.
std::vector<std::unique_ptr<UnitModel>> make_conv_unit_models(const HwConfig& cfg, std::shared_ptr<ConvSdpChannel> to_sdp);

}  // namespace dla::golden
