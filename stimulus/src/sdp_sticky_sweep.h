// sdp.random's sticky_sweep layers: one of SDP's integer rounding shifts (BS's or BN's MUL
// shift, EW's truncate, the output converter's shift) sees, element by element, every single
// set bit below its guard bit, so each term of the rounding's sticky OR decides some output.
//
// Every stage before the rounding point multiplies exactly by 2^k (register operand, no ALU,
// no shift), the stages after it are the identity. An input x = -(2^a) + 2^b (0 <= b < a)
// reaches the point as v = x * 2^K; with the shift s = a + K + 1, v's guard bit (s - 1) is 1
// and its only set bit below is b + K, so v rounds to 0 with that term and to -1 without it.
// The other values: -(2^a) (an exact tie), 2^a - 2^b (positive, below half) and
// -(2^(a-1) + 2^c) (negative, below half, many sticky bits). The layer probes positions
// K .. K + a - 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dla/hwconfig.h"
#include "dla/rng.h"

namespace dla::stimulus {

struct SdpStickySweep {
  enum class Point : uint8_t { Bs, Bn, Ew, Cvt };
  Point point = Point::Bn;
  Precision precision = Precision::Int16;  // input, processing and output
  unsigned a = 15;                         // the probes' top bit
  // log2 of each stage's exact multiplier (BS, BN and EW MUL operands, the converter's scale);
  // only stages up to the point scale
  uint32_t k_bs = 0, k_bn = 0, m_ew = 0, c_cvt = 0;
  uint32_t shift = 0;  // the point's right shift: a + K + 1

  uint32_t scale_to_point() const { return k_bs + k_bn + m_ew + c_cvt; }  // K
  // The probe values the layer's elements cycle through (lane by lane, so every lane sees all).
  std::vector<int32_t> probes() const;
  std::string describe() const;
};

// A sweep for `cfg` (int16 where it has it, else int8; EW only where SDP has it).
SdpStickySweep draw_sdp_sticky_sweep(const HwConfig& cfg, Rng& r);

}  // namespace dla::stimulus
