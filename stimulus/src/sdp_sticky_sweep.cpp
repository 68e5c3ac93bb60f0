#include "sdp_sticky_sweep.h"

#include <fmt/format.h>

#include <algorithm>

namespace dla::stimulus {

namespace {
// BS's and BN's results saturate to 32 bits (and EW's input is BN's output): an input below
// 2^(a+1) may be scaled by at most 2^(31 - (a + 1)) before EW's 64-bit product.
constexpr uint32_t kMaxRegisterScale = 14;  // a 16-bit signed MUL or converter operand: 2^14
}  // namespace

SdpStickySweep draw_sdp_sticky_sweep(const HwConfig& cfg, Rng& r) {
  SdpStickySweep s;
  s.precision = cfg.supports(Precision::Int16) ? Precision::Int16 : Precision::Int8;
  s.a = s.precision == Precision::Int16 ? 15 : 7;
  const uint32_t pre_room = 31 - (s.a + 1);  // scale the 32-bit stage outputs can carry
  std::vector<SdpStickySweep::Point> points = {SdpStickySweep::Point::Bs, SdpStickySweep::Point::Bn,
                                               SdpStickySweep::Point::Cvt};
  if (cfg.sdp_bs && cfg.sdp_bn && cfg.sdp_ew) points.push_back(SdpStickySweep::Point::Ew);
  if (!cfg.sdp_bn) points.erase(std::remove(points.begin(), points.end(), SdpStickySweep::Point::Bn), points.end());
  if (!cfg.sdp_bs) points.erase(std::remove(points.begin(), points.end(), SdpStickySweep::Point::Bs), points.end());
  s.point = points[r.below(points.size())];
  // K, the scale at the point, uniform over what the point can reach; the point's own operand
  // takes as much of it as its field holds, the stages before it (BS, then BN) the rest, split at random
  auto split_before = [&](uint32_t rest, bool bn_too) {
    const bool bs = cfg.sdp_bs, bn = bn_too && cfg.sdp_bn;
    const uint32_t to_bs = !bs ? 0 : !bn ? rest : static_cast<uint32_t>(r.uniform(rest > kMaxRegisterScale ? rest - kMaxRegisterScale : 0,
                                                                                       std::min(rest, kMaxRegisterScale)));
    s.k_bs = to_bs;
    s.k_bn = bn ? rest - to_bs : 0;
  };
  const uint32_t before = std::min(pre_room, (cfg.sdp_bs ? kMaxRegisterScale : 0) + (cfg.sdp_bn ? kMaxRegisterScale : 0));
  switch (s.point) {
    case SdpStickySweep::Point::Bs: s.k_bs = static_cast<uint32_t>(r.uniform(0, kMaxRegisterScale)); break;
    case SdpStickySweep::Point::Bn: {
      const uint32_t k = static_cast<uint32_t>(r.uniform(0, kMaxRegisterScale + (cfg.sdp_bs ? std::min(pre_room, kMaxRegisterScale) : 0)));
      s.k_bn = std::min(k, kMaxRegisterScale);
      s.k_bs = k - s.k_bn;
      break;
    }
    case SdpStickySweep::Point::Ew: {
      const uint32_t k = static_cast<uint32_t>(r.uniform(0, 30 + before));
      s.m_ew = std::min<uint32_t>(k, 30);  // a 32-bit signed register operand
      split_before(k - s.m_ew, true);
      break;
    }
    case SdpStickySweep::Point::Cvt: {
      const uint32_t k = static_cast<uint32_t>(r.uniform(0, kMaxRegisterScale + before));
      s.c_cvt = std::min(k, kMaxRegisterScale);
      split_before(k - s.c_cvt, true);
      break;
    }
  }
  s.shift = s.a + s.scale_to_point() + 1;
  return s;
}

std::vector<int32_t> SdpStickySweep::probes() const {
  const int32_t top = int32_t{1} << a;
  std::vector<int32_t> v;
  for (unsigned b = 0; b < a; ++b) v.push_back(-top + (int32_t{1} << b));  // one sticky bit, guard set
  v.push_back(-top);                                                         // an exact tie
  for (unsigned b : {0u, a / 2, a - 1}) {
    v.push_back(top - (int32_t{1} << b));               // below half, positive: guard clear
    v.push_back(-(top / 2) - (int32_t{1} << (b / 2)));  // below half, negative: many sticky bits
  }
  return v;
}

std::string SdpStickySweep::describe() const {
  static const char* kNames[] = {"bs", "bn", "ew", "cvt"};
  return fmt::format("sticky-sweep({} shift {} scales bs {} bn {} ew {} cvt {} probes {}..{})", kNames[static_cast<int>(point)],
                     shift, k_bs, k_bn, m_ew, c_cvt, scale_to_point(), scale_to_point() + a - 1);
}

}  // namespace dla::stimulus
