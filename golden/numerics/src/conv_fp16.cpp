#include "dla/numerics/conv_fp16.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dla::num {
namespace {

constexpr uint64_t kMask40 = (uint64_t{1} << 40) - 1;

// Low n bits of v as an n-bit two's-complement number (n < 64).
inline int64_t sext(uint64_t v, unsigned n) {
  const uint64_t low = v & ((uint64_t{1} << n) - 1);
  const uint64_t sign = uint64_t{1} << (n - 1);
  return static_cast<int64_t>(low ^ sign) - static_cast<int64_t>(sign);
}

inline unsigned bit(uint64_t v, unsigned i) { return static_cast<unsigned>((v >> i) & 1u); }

// 3:2 compressor of §4.4.2 step 5 on 32-bit words.
inline void csa(uint32_t x, uint32_t y, uint32_t z, uint32_t& s, uint32_t& c) {
  s = x ^ y ^ z;
  c = ((x & y) | (x & z) | (y & z)) << 1;
}

// First NaN in scan order (all weight lanes, then all data lanes), §4.4.1 step 1.
bool first_nan(const uint16_t* w, const uint16_t* d, unsigned lanes, uint16_t& nan) {
  for (unsigned i = 0; i < lanes; ++i)
    if (fp16_is_nan(w[i])) {
      nan = w[i];
      return true;
    }
  for (unsigned i = 0; i < lanes; ++i)
    if (fp16_is_nan(d[i])) {
      nan = d[i];
      return true;
    }
  return false;
}

// Common exponent Emax over the active lanes (0 when none is active), §4.4.1 step 2.
unsigned common_exponent(const uint16_t* w, const uint16_t* d, unsigned lanes) {
  unsigned emax = 0;
  for (unsigned i = 0; i < lanes; ++i)
    if (fp16_is_nonzero(w[i]) && fp16_is_nonzero(d[i]))
      emax = std::max(emax, cmac_fp16_decode(w[i]).g + cmac_fp16_decode(d[i]).g);
  return emax;
}

// Sum of the aligned products of lanes [0, n) against the common exponent, §4.4.1 steps 3-4.
CmacFp16Sum aligned_sum(const uint16_t* w, const uint16_t* d, unsigned n, unsigned emax) {
  int64_t m = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (!fp16_is_nonzero(w[i]) || !fp16_is_nonzero(d[i])) continue;
    const CmacFp16Operand a = cmac_fp16_decode(w[i]);
    const CmacFp16Operand b = cmac_fp16_decode(d[i]);
    m += cmac_booth_trunc(a.sign != b.sign, a.m, b.m, 4 * (emax - (a.g + b.g)));
  }
  // The 38-bit cell adder; the sum of up to 512 products cannot reach its limits.
  return CmacFp16Sum{4 * emax, sext(static_cast<uint64_t>(m), 38)};
}

}  // namespace

CmacFp16Operand cmac_fp16_decode(uint16_t x) {
  const unsigned e = (x >> 10) & 0x1Fu;
  const uint32_t f = x & 0x3FFu;
  CmacFp16Operand r;
  r.sign = (x >> 15) != 0;
  r.g = e / 4;
  r.h = e == 0 ? 1 : e % 4;
  r.m = ((e != 0 ? 1024u : 0u) + f) << r.h;
  return r;
}

CmacFp16Sum cmac_fp16_nan_sum(uint16_t nan) {
  const uint64_t code = (static_cast<uint64_t>(nan >> 15) << 37) | (static_cast<uint64_t>(nan & 0x3FFu) << 27);
  return CmacFp16Sum{kCmacFp16NanExp, sext(code, 38)};
}

BoothCarrySave cmac_booth_carry_save(bool sign, uint32_t a, uint32_t b) {
  if (a >= (1u << 14) || b >= (1u << 14))
    throw std::invalid_argument("cmac_booth_carry_save: mantissa operand >= 2^14");
  // Radix-4 digits of the multiplier with bit -1 = 0: bits (2i+1, 2i, 2i-1) of a.
  uint32_t pp[8], n[8];
  const uint32_t a2 = a << 1;
  for (unsigned i = 0; i < 8; ++i) {
    unsigned t = (a2 >> (2 * i)) & 7u;
    if (sign) t ^= 7u;
    switch (t) {
      case 1:
      case 2: pp[i] = 0x10000u + b; n[i] = 0; break;
      case 3: pp[i] = 0x10000u + 2 * b; n[i] = 0; break;
      case 4: pp[i] = ~(2 * b) & 0xFFFFu; n[i] = 1; break;
      case 5:
      case 6: pp[i] = ~b & 0xFFFFu; n[i] = 1; break;
      default: pp[i] = 0x10000u; n[i] = 0; break;  // 0 or 7
    }
  }
  const uint32_t r[10] = {pp[0],           pp[1] * 4 + n[0],
                          pp[2] * 16 + n[1] * 4,    pp[3] * 64 + n[2] * 16,
                          n[3] * 64,                pp[4] * 256,
                          pp[5] * 1024 + n[4] * 256, pp[6] * 4096 + n[5] * 1024,
                          pp[7] * 16384 + n[6] * 4096, n[7] * 16384};
  uint32_t s1, c1, s2, c2, a0, a1, b0, b1, s3, c3;
  csa(r[0], r[1], r[2], s1, c1);
  csa(s1, c1, r[3], s2, c2);
  csa(s2, c2, r[4], a0, a1);
  csa(r[5], r[6], r[7], s1, c1);
  csa(s1, c1, r[8], s2, c2);
  csa(s2, c2, r[9], b0, b1);
  csa(a0, a1, b0, s3, c3);
  BoothCarrySave f;
  csa(s3, c3, b1, f.f0, f.f1);
  return f;
}

int32_t cmac_booth_trunc(bool sign, uint32_t a, uint32_t b, unsigned q) {
  const BoothCarrySave f = cmac_booth_carry_save(sign, a, b);
  if (q >= 32) return 0;
  // Kq = ceil(-0x55550000 / 2^q): 0xAAAB0000, 0xFAAAB000, ..., 0xFFFFFFFB for q = 0, 4, ..., 28.
  const uint32_t kq = 0u - (0x55550000u >> q);
  return static_cast<int32_t>((f.f0 >> q) + (f.f1 >> q) + kq);
}

CmacFp16Sum cmac_fp16_dot(const uint16_t* w, const uint16_t* d, unsigned lanes) {
  uint16_t nan = 0;
  if (first_nan(w, d, lanes, nan)) return cmac_fp16_nan_sum(nan);
  return aligned_sum(w, d, lanes, common_exponent(w, d, lanes));
}

void cmac_fp16_grouped_dot(const uint16_t* w, const uint16_t* d, unsigned lanes, unsigned group,
                           CmacFp16Sum* out) {
  if (group == 0 || lanes % group != 0)
    throw std::invalid_argument("cmac_fp16_grouped_dot: " + std::to_string(lanes) +
                                " lanes not a multiple of group " + std::to_string(group));
  const unsigned outputs = lanes / group;
  uint16_t nan = 0;
  if (first_nan(w, d, lanes, nan)) {
    std::fill(out, out + outputs, cmac_fp16_nan_sum(nan));
    return;
  }
  const unsigned emax = common_exponent(w, d, lanes);
  for (unsigned j = 0; j < outputs; ++j) out[j] = aligned_sum(w + j * group, d + j * group, group, emax);
}

CaccFp48::CaccFp48(unsigned ea, int64_t ma)
    : ea_(ea & 0xFFu), ma_(sext(static_cast<uint64_t>(ma), 40)) {}

void CaccFp48::add(const CmacFp16Sum& partial) {
  const int64_t mb = sext(static_cast<uint64_t>(partial.mant), 38);
  if (mb == 0) return;                                   // step 1
  if (ea_ == kCaccNanExp) {                              // step 2: NaN is sticky
    ma_ = sext(static_cast<uint64_t>(ma_) & ~((uint64_t{1} << 29) - 1), 40);
    return;
  }
  if (partial.exp == kCmacFp16NanExp) {                  // step 3: Mb[37:27] -> Ma[39:29]
    const uint64_t code = (static_cast<uint64_t>(mb) >> 27) & 0x7FFu;
    ma_ = sext(code << 29, 40);
    ea_ = kCaccNanExp;
    return;
  }

  // Step 4: normalise the input so that bit 36 differs from the sign bit 37.
  const unsigned sb = bit(static_cast<uint64_t>(mb), 37);
  unsigned n0 = 0;
  while (n0 < 37 && bit(static_cast<uint64_t>(mb), 36 - n0) == sb) ++n0;
  int64_t xb = 4 * sext(static_cast<uint64_t>(mb) << n0, 38);
  const int eb = static_cast<int>(partial.exp) - static_cast<int>(n0) + 49;

  // Step 5.
  const int ea = ma_ == 0 ? 0 : static_cast<int>(ea_);
  int64_t xa = ma_;

  // Step 6: align the operand with the smaller exponent; Z keeps its discarded bits.
  const int eg = std::max(ea, eb);
  const unsigned dist = static_cast<unsigned>(ea > eb ? ea - eb : eb - ea);
  uint64_t z = 0;
  if (dist > 0) {
    int64_t& small = ea < eb ? xa : xb;
    if (dist > 40) {
      small = 0;
    } else {
      z = (static_cast<uint64_t>(small) << (40 - dist)) & kMask40;
      small >>= dist;  // arithmetic
    }
  }

  // Step 7.
  uint64_t y = static_cast<uint64_t>(xa + xb) & kMask40;

  // Step 8: normalise the sum.
  int e = eg;
  bool guard, sticky;
  const unsigned ysign = bit(y, 39);
  const unsigned sa = xa < 0 ? 1u : 0u, sbb = xb < 0 ? 1u : 0u;
  if (sa == sbb && ysign != sa) {  // overflow
    guard = (y & 1u) != 0;
    sticky = z != 0;
    y = (uint64_t{sa} << 39) | (y >> 1);
    e = eg + 1;
  } else {
    if (bit(y, 38) == ysign) {
      unsigned n1 = 1;
      while (n1 < 39 && bit(y, 38 - n1) == ysign) ++n1;
      y = ((y << n1) | (z >> (40 - n1))) & kMask40;
      z = (z << n1) & kMask40;
      e = eg - static_cast<int>(n1);
    }
    guard = bit(z, 39) != 0;
    sticky = (z & ((uint64_t{1} << 39) - 1)) != 0;
  }

  // Step 9: round half away from zero; step 10: renormalise on a carry into bit 39.
  const unsigned old_sign = bit(y, 39);
  if ((old_sign == 0 && guard) || (old_sign == 1 && guard && sticky)) {
    y = (y + 1) & kMask40;
    if (bit(y, 39) != old_sign) {
      y = (uint64_t{old_sign} << 39) | (y >> 1);
      ++e;
    }
  }

  // Step 11: exponent kept modulo 256.
  ma_ = sext(y, 40);
  ea_ = y == 0 ? 0u : static_cast<unsigned>(e) & 0xFFu;
}

uint32_t CaccFp48::to_fp32() const {
  const uint64_t u = static_cast<uint64_t>(ma_) & kMask40;
  const uint32_t sign = bit(u, 39);
  if (ea_ == kCaccNanExp) return (sign << 31) | (0xFFu << 23) | static_cast<uint32_t>((u >> 29) & 0x3FFu);
  if (ma_ == -(int64_t{1} << 39)) return 0x80000000u | (((ea_ + 65) & 0xFFu) << 23);
  if (ma_ == 0) return 0;  // +0.0
  const uint64_t mag = static_cast<uint64_t>(ma_ < 0 ? -ma_ : ma_);
  uint32_t exponent = (ea_ + 64) & 0xFFu;
  uint32_t fraction;
  if (bit(mag, 14)) {  // round half up in magnitude, no sticky
    uint64_t t = (mag >> 15) + 1;
    if (t == (uint64_t{1} << 24)) {
      t = uint64_t{1} << 23;
      exponent = (exponent + 1) & 0xFFu;
    }
    fraction = static_cast<uint32_t>(t & 0x7FFFFFu);
  } else {
    fraction = static_cast<uint32_t>((mag >> 15) & 0x7FFFFFu);
  }
  return (sign << 31) | (exponent << 23) | fraction;
}

}  // namespace dla::num
