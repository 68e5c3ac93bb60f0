#pragma once
// Integer primitives of the NVDLA datapaths (pdp_cdp_bdma_rubik_glb.md §0.3, §1.7, §2.5,
// §2.8; sdp.md §0.3, §3.1; conv.md §5.3). All operate on int64_t; widths n are 1..64.
#include <cstdint>

namespace dla::num {

// Low n bits of v read as an n-bit two's-complement number ("sx_n", "wrap_n").
int64_t sx(int64_t v, unsigned n);
inline int64_t wrap(int64_t v, unsigned n) { return sx(v, n); }
// Clamp to [-2^(n-1), 2^(n-1)-1].
int64_t sat(int64_t v, unsigned n);
// Whether v fits n-bit signed without clamping.
bool fits_signed(int64_t v, unsigned n);
// Arithmetic right shift = floor(v / 2^s); s >= 64 gives 0 or -1.
int64_t floor_shift(int64_t v, unsigned s);
// v / 2^s rounded to nearest, ties away from zero ("rha"). s >= 64 gives 0.
int64_t rha(int64_t v, unsigned s);
// SDP rounding right shift RSH_N = sat_N(rha(v, s)).
inline int64_t rsh_sat(int64_t v, unsigned s, unsigned n) { return sat(rha(v, s), n); }
// SDP left shift LSH_N = sat_N(v * 2^s) (computed without overflow).
int64_t lsh_sat(int64_t v, unsigned s, unsigned n);
// SDP signed shift SRS_N: RSH_N for t >= 0, LSH_N(-t) otherwise.
int64_t srs_sat(int64_t v, int t, unsigned n);

// PDP average-pooling narrowing step RND(P, w) (pdp §1.7): rha(P, 16) when the result fits
// w bits, otherwise the RTL's wrap-around behaviour. w in 2..48.
int64_t pdp_round_narrow(int64_t p, unsigned w);

// The offset/scale/shift converter shared by CDP ICVT/OCVT, SDP CVT and CDMA pixel CVT:
// sat_{out_bits}( rha((v - offset) * scale, shift) ). Operands must keep the product within
// 63 bits (true for every NVDLA converter); throws std::overflow_error otherwise.
struct OffsetScaleShift {
  int64_t offset = 0;
  int64_t scale = 1;
  unsigned shift = 0;
  unsigned out_bits = 32;
  int64_t operator()(int64_t v) const;
};

// SDP output-converter saturation flag (sdp.md §9.1 step 5, v1 rule): the 17-bit stage
// clamped by more than one step.
bool sdp_cvt_saturation_flag(int64_t product, unsigned shift);
// The same flag under nv_small's rule: the rounded value above the 17-bit range, or the
// floor below it (a negative value that rounds back to -65536 still counts).
bool sdp_cvt_saturation_flag_range(int64_t product, unsigned shift);

// CDP output-converter saturation flag (pdp doc §2.8): floor_shift(r, shift) not within
// one step of the clamped output.
bool cdp_ocvt_saturation_flag(int64_t r, unsigned shift, int64_t out);

}  // namespace dla::num
