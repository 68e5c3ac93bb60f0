#include "cdp_datapath.h"

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/integer_ops.h"
#include "dla/planted_bug.h"

namespace dla::golden {

namespace {
using num::kFp16;
}  // namespace

CdpDatapath::CdpDatapath(const CdpLayer& layer, const LutTables& tables, unsigned lanes)
    : l_(layer),
      lut_(layer.lut, tables, layer.format == 2, layer.le_start_compare, layer.lo_start_compare),
      lanes_(lanes) {}

int64_t CdpDatapath::input_convert(uint16_t raw) const {
  const bool int8 = l_.format == 0;
  const int64_t x = int8 ? num::sx(raw & 0xff, 8) : num::sx(raw, 16);
  const int64_t p = (x - l_.in_offset) * l_.in_scale;
  int64_t r = num::rha(p, l_.in_shift);
  if (p < 0 && l_.in_shift > 0 && l_.in_shift < 63 && (-p) % (int64_t{1} << l_.in_shift) == (int64_t{1} << (l_.in_shift - 1)) &&
      planted("cdp.negative_ties"))
    ++r;
  return num::sat(r, int8 ? 9 : 17);
}

uint16_t CdpDatapath::output_convert(int64_t m, bool& saturated) const {
  const unsigned bits = l_.format == 0 ? 8 : 16;
  const int64_t r = (m - l_.out_offset) * l_.out_scale;
  const int64_t out = num::sat(num::rha(r, l_.out_shift), bits);
  saturated = num::cdp_ocvt_saturation_flag(r, l_.out_shift, out);
  if (planted("cdp.saturation_quirk")) saturated = out != num::rha(r, l_.out_shift);
  return static_cast<uint16_t>(out & (bits == 8 ? 0xff : 0xffff));
}

bool CdpDatapath::in_window(int64_t j, int64_t c) const {
  if (!planted("cdp.window_edge")) return true;
  return j / lanes_ == c / lanes_;
}

void CdpDatapath::count_lut(const CdpLutOutcome& o, CdpCounters& c) const {
  const bool le_hit = o.le == LutClass::Hit, lo_hit = o.lo == LutClass::Hit;
  if (le_hit && lo_hit) ++c.lut_hybrid;
  else if (le_hit) ++c.lut_le_hit;
  else if (lo_hit) ++c.lut_lo_hit;
  else if (o.le == o.lo) ++(o.le == LutClass::Underflow ? c.lut_uflow : c.lut_oflow);
  else ++c.lut_hybrid;  // one table under-, the other overflows
}

std::vector<uint16_t> CdpDatapath::process(const std::vector<uint16_t>& in, CdpCounters& c) const {
  return l_.format == 2 ? process_fp(in, c) : process_int(in, c);
}

std::vector<uint16_t> CdpDatapath::process_int(const std::vector<uint16_t>& in, CdpCounters& c) const {
  const int64_t n = static_cast<int64_t>(in.size()), k = l_.radius, channels = l_.channels;
  std::vector<int64_t> x(in.size(), 0);
  for (int64_t i = 0; i < n && i < channels; ++i) x[i] = input_convert(in[i]);
  std::vector<uint16_t> out(in.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t s = x[i];
    if (!l_.sqsum_bypass) {
      s = 0;
      for (int64_t j = i - k; j <= i + k; ++j)
        if (j >= 0 && j < n && in_window(j, i)) s += x[j] * x[j];
    }
    const CdpLutOutcome o = lut_.evaluate_int(s);
    count_lut(o, c);
    const int64_t lr = static_cast<int32_t>(o.value);
    bool saturated = false;
    out[i] = output_convert(l_.mul_bypass ? lr : lr * x[i], saturated);
    c.out_saturation += saturated;
  }
  return out;
}

std::vector<uint16_t> CdpDatapath::process_fp(const std::vector<uint16_t>& in, CdpCounters& c) const {
  const int64_t n = static_cast<int64_t>(in.size()), k = l_.radius, channels = l_.channels;
  std::vector<uint32_t> x17(in.size(), 0), sq(in.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t raw = in[i];
    c.nan_input += kFp16.is_nan(raw);
    c.inf_input += kFp16.is_inf_pattern(raw);
    if (i >= channels) continue;  // +0
    x17[i] = num::fp16_to_fp17(l_.nan_to_zero && kFp16.is_nan(raw) ? uint16_t{0} : raw);
    const uint32_t x32 = num::fp17_to_fp32(x17[i]);
    sq[i] = num::mul32(x32, x32);
  }
  auto sq_at = [&](int64_t j, int64_t i) -> uint32_t {
    return j >= 0 && j < n && in_window(j, i) ? sq[j] : 0u;
  };
  std::vector<uint16_t> out(in.size());
  for (int64_t i = 0; i < n; ++i) {
    uint32_t s = num::fp17_to_fp32(x17[i]);
    if (!l_.sqsum_bypass) {
      s = num::add32(num::add32(sq_at(i - 1, i), sq_at(i + 1, i)), sq_at(i, i));
      for (int64_t d = 2; d <= k; ++d) s = num::add32(s, num::add32(sq_at(i - d, i), sq_at(i + d, i)));
    }
    const CdpLutOutcome o = lut_.evaluate_fp(s);
    count_lut(o, c);
    uint32_t o17 = o.value;
    if (!l_.mul_bypass) o17 = num::mul17(x17[i], o.value);
    else if (num::kFp17.is_nan(x17[i])) o17 = x17[i];
    out[i] = num::fp17_to_fp16(o17);
    c.nan_output += kFp16.is_nan(out[i]);
  }
  return out;
}

CdpCounters run_cdp_layer(const CdpLayer& l, const LutTables& tables, unsigned atom_bytes, const SparseMemory& src,
                          SparseMemory& dst) {
  CdpCounters c;
  const unsigned lanes = l.lanes(atom_bytes), bpe = l.element_bytes();
  const uint32_t surfaces = l.surfaces(atom_bytes);
  const CdpDatapath dp(l, tables, lanes);
  std::vector<uint8_t> atom(atom_bytes);
  std::vector<uint16_t> in(size_t{surfaces} * lanes);
  for (uint32_t h = 0; h < l.height; ++h)
    for (uint32_t w = 0; w < l.width; ++w) {
      for (uint32_t s = 0; s < surfaces; ++s) {
        src.read(l.src + s * l.src_surface + h * l.src_line + uint64_t{w} * atom_bytes, atom.data(), atom_bytes);
        for (unsigned e = 0; e < lanes; ++e)
          in[s * lanes + e] = bpe == 1 ? atom[e] : static_cast<uint16_t>(atom[2 * e] | (atom[2 * e + 1] << 8));
      }
      const std::vector<uint16_t> out = dp.process(in, c);
      for (uint32_t s = 0; s < surfaces; ++s) {
        for (unsigned e = 0; e < lanes; ++e) {
          const uint16_t v = out[s * lanes + e];
          if (bpe == 1) {
            atom[e] = static_cast<uint8_t>(v);
          } else {
            atom[2 * e] = static_cast<uint8_t>(v);
            atom[2 * e + 1] = static_cast<uint8_t>(v >> 8);
          }
        }
        dst.write(l.dst + s * l.dst_surface + h * l.dst_line + uint64_t{w} * atom_bytes, atom.data(), atom_bytes);
      }
    }
  return c;
}

}  // namespace dla::golden
