// The on-flying link from SDP to PDP (sdp.md §11.7, pdp_cdp_bdma_rubik_glb.md §1.12). An SDP
// layer with OUTPUT_DST = PDP delivers its output atoms, in its output order, to the channel
// instead of memory; the next PDP layer armed on-flying consumes them. SDP can finish only
// while PDP consumes (back-pressure), so an SDP layer sent to PDP runs once the PDP group it
// streams into is armed on-flying, and PDP then runs on the delivered cube.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "dla/pdp_layer.h"
#include "dla/unit_model.h"
#include "pdp_engine.h"

namespace dla::golden {

struct SdpPdpChannel {
  struct Cube {
    int sdp_group = -1;
    unsigned atom_bytes = 0;
    uint32_t out_precision = 0;               // SDP D_DATA_FORMAT.OUT_PRECISION code
    std::vector<std::vector<uint8_t>> atoms;  // in SDP's output order
  };
  std::deque<Cube> cubes;  // delivered by SDP, not yet consumed by PDP (oldest first)
};

// Whether PDP's CONSUMER group is armed with FLYING_MODE = on-flying (the stream's reader).
bool pdp_armed_on_flying(UnitContext& ctx);

// PDP's input in on-flying mode: every atom PDP reads is the next atom of SDP's stream. PDP
// reads stripe -> surface -> line -> column, which is the order SDP sends (§1.12).
class PdpStreamInput final : public PdpInput {
 public:
  explicit PdpStreamInput(const SdpPdpChannel::Cube& cube) : cube_(cube) {}
  void read_atom(uint32_t surface, uint32_t line, int64_t column, uint8_t* out) override;
  bool from_memory() const override { return false; }

 private:
  const SdpPdpChannel::Cube& cube_;
  size_t next_ = 0;
};

// Atoms PDP reads for the layer (overlap columns once per stripe in split mode).
uint64_t pdp_input_atom_count(const PdpLayer& l, unsigned atom_bytes);

// Runs PDP layer `l` (on-flying, decoded from PDP's registers of group `group`) on the
// oldest cube of the channel and removes it. nullopt: the layer cannot complete (warned).
std::optional<PdpCounters> run_on_flying_pdp_layer(const PdpLayer& l, int group, SdpPdpChannel* channel,
                                                   UnitContext& ctx);

}  // namespace dla::golden
