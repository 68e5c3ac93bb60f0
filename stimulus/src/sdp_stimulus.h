// sdp.random's layer writer for other generators: random legal SDP layers (every SDP setup
// sdp.random makes) programmed on one register group. sdp_pdp.random uses it to stream a
// layer into PDP.
#pragma once

#include <cstdint>
#include <memory>

#include "dla/hwconfig.h"
#include "dla/rng.h"
#include "program_builder.h"

namespace dla::stimulus {

// A layer whose output streams to PDP (OUTPUT_DST = PDP): the cube and OUT_PRECISION are
// given (PDP's input cube and format); no EQL mode (it sends nothing) and no 8->16 output
// split (its atoms are not in PDP's cube order).
struct SdpLayerRequest {
  bool to_pdp = false;
  uint32_t width = 1, height = 1, channels = 1;
  Precision out = Precision::Int8;
};

class SdpRandomLayers {
 public:
  // The streams are sdp.random's shape/data/layout roles; `special` the special-value density.
  SdpRandomLayers(const HwConfig& cfg, ProgramBuilder& b, Rng& shape, Rng& data, Rng& layout, double special);
  ~SdpRandomLayers();
  SdpRandomLayers(const SdpRandomLayers&) = delete;
  SdpRandomLayers& operator=(const SdpRandomLayers&) = delete;

  // Loads the input and operands and programs SDP and SDP_RDMA group `group` (S_POINTERs
  // included) for `req`; arms nothing. SDP's memory output registers point at a pre-filled
  // region that must stay untouched.
  void write_to_pdp(unsigned layer, unsigned group, const SdpLayerRequest& req);
  // A DBB region (atom aligned) disjoint from every region of these layers.
  uint64_t take(uint64_t bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dla::stimulus
