// SDP and SDP_RDMA golden datapaths (sdp.md). The two units keep independent ping-pong
// state (their own register groups, OP_EN, CONSUMER); a layer needs both armed (memory
// input) and the core runs each unit's layer when that unit's group is armed. SdpPair
// matches them up: whichever of the two is armed first is paired with the other's next
// arming. SDP executes the whole layer (output image, SDP counters) with the SDP_RDMA
// registers of the matching group; SDP_RDMA latches its own NaN/Inf input counters.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "dla/unit_model.h"
#include "lut_tables.h"
#include "sdp_config.h"
#include "sdp_pdp_channel.h"
#include "sdp_stream.h"

namespace dla::golden {

// Shared between the SDP and SDP_RDMA models of one GoldenModel.
struct SdpPair {
  std::deque<RegisterSnapshot> rdma_first;  // SDP_RDMA groups armed before their SDP layer
  unsigned sdp_first = 0;                   // SDP layers that ran before their SDP_RDMA arming
};

// SDP layer counters (sdp.md §12), before latching.
struct SdpCounters {
  uint64_t nan_output = 0, out_saturation = 0;
  uint64_t lut_uflow = 0, lut_oflow = 0, lut_hybrid = 0, lut_le_hit = 0, lut_lo_hit = 0;
  bool unequal = false;
};

// Runs one SDP layer functionally: reads `in`, writes `out` (null: nothing written).
SdpCounters run_sdp_layer(const SdpLayerConfig& l, const LutTables& tables, SdpInputSource& in,
                          const SparseMemory& operand_mem_dbb, const SparseMemory& operand_mem_sram, SdpOutputSink* out);

class SdpModel final : public UnitModel {
 public:
  // `to_pdp`: the on-flying channel into PDP (null: the configuration has no PDP).
  SdpModel(const HwConfig& cfg, std::shared_ptr<SdpPair> pair, std::shared_ptr<SdpPdpChannel> to_pdp = nullptr);
  Unit unit() const override { return Unit::SDP; }
  // A layer sent to PDP waits until PDP's CONSUMER group is armed on-flying and has taken
  // the previous cube (SDP cannot finish while PDP does not consume).
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;
  void on_write(uint32_t offset, uint32_t data, UnitContext& ctx) override;
  // S_LUT_ACCESS_DATA reads return the entry and advance the address (a side effect of a
  // CSB read; read_hw is the only read hook, hence the mutable port).
  std::optional<uint32_t> read_hw(uint32_t offset) const override;

  const LutTables& lut_tables() const { return tables_; }
  // The atoms of the last layer with OUTPUT_DST = PDP, in SDP's output order (for PDP's
  // on-flying input).
  const SdpCollectedOutput& pdp_stream() const { return pdp_stream_; }
  // Flying input (CACC) provider; without one a flying layer never completes.
  void set_flying_input(std::shared_ptr<SdpInputSource> source) { flying_input_ = std::move(source); }

 private:
  const HwConfig& cfg_;
  std::shared_ptr<SdpPair> pair_;
  LutTables tables_;
  uint32_t out_saturation_ = 0;  // the shared D_PERF_OUT_SATURATION counter (reset value 0)
  mutable LutAccessPort port_{LutPortPolicy::AdvanceOnEveryAccess};
  SdpCollectedOutput pdp_stream_;
  std::shared_ptr<SdpPdpChannel> to_pdp_;
  std::shared_ptr<SdpInputSource> flying_input_;
};

class SdpRdmaModel final : public UnitModel {
 public:
  SdpRdmaModel(const HwConfig& cfg, std::shared_ptr<SdpPair> pair) : cfg_(cfg), pair_(std::move(pair)) {}
  Unit unit() const override { return Unit::SDP_RDMA; }
  bool ready(const RegisterSnapshot& regs, UnitContext& ctx) override;
  std::optional<LayerResult> execute_layer(const RegisterSnapshot& regs, UnitContext& ctx) override;

 private:
  const HwConfig& cfg_;
  std::shared_ptr<SdpPair> pair_;
};

// The SDP and SDP_RDMA models of a configuration (empty when it has no SDP); `flying_input`:
// the convolution output (null: flying layers never complete).
std::vector<std::unique_ptr<UnitModel>> make_sdp_unit_models(const HwConfig& cfg,
                                                             std::shared_ptr<SdpPdpChannel> to_pdp = nullptr,
                                                             std::shared_ptr<SdpInputSource> flying_input = nullptr);

}  // namespace dla::golden
