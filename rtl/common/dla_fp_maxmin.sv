// NVDLA float MAX / MIN for a format (E, M) (sdp.md §3.3 FMAX/FMIN, pdp_cdp_bdma_rubik_glb.md
// App. A.6 max16/min16; golden: dla::num::fmax, fmin): a NaN operand wins (a first, then b);
// otherwise sign first, then exponent/mantissa magnitude (-0 < +0); on a tie MAX returns b
// and MIN returns a.
module dla_fp_maxmin #(
  parameter int E = 8,
  parameter int M = 23
) (
  input  logic [E+M:0] a,
  input  logic [E+M:0] b,
  input  logic         is_max,
  output logic [E+M:0] y
);
  logic absgt, agt;
  always_comb begin
    absgt = a[E+M-1:0] > b[E+M-1:0];
    if (a[E+M] != b[E+M]) agt = !a[E+M];
    else                  agt = a[E+M] ? !absgt : absgt;
    if ((&a[E+M-1:M]) && (|a[M-1:0]))      y = a;
    else if ((&b[E+M-1:M]) && (|b[M-1:0])) y = b;
    else if (is_max) y = agt ? a : b;
    else             y = agt ? b : a;
  end
endmodule
