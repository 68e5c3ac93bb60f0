// Float widening conversion (sdp.md §3.2 WIDEN): NaN payload copied into the low mantissa
// bits, Inf pattern -> largest finite value, subnormals made exact normals when KEEP_DENORM
// (otherwise read with the hidden bit set).
module dla_fp_widen #(
  parameter int EI = 5,
  parameter int MI = 10,
  parameter int EO = 8,
  parameter int MO = 23,
  parameter bit KEEP_DENORM = 1'b1
) (
  input  logic [EI+MI:0] x,
  output logic [EO+MO:0] y
);
  localparam int D = ((1 << (EO - 1)) - 1) - ((1 << (EI - 1)) - 1);

  logic          s;
  logic [EI-1:0] e;
  logic [MI-1:0] m, frac;
  integer            lz;

  always_comb begin
    {s, e, m} = x;
    lz = MI;
    for (int i = 0; i < MI; i++) if (m[i]) lz = MI - 1 - i;
    frac = MI'(m << (lz + 1));
    if ((&e) && (|m))          y = {s, {EO{1'b1}}, (MO)'(m)};
    else if (&e)               y = {s, {(EO-1){1'b1}}, 1'b0, {MO{1'b1}}};
    else if (e == '0 && m == '0) y = {s, {(EO+MO){1'b0}}};
    else if (e == '0 && KEEP_DENORM) y = {s, EO'(D - lz), frac, {(MO-MI){1'b0}}};
    else                       y = {s, EO'($signed(32'(e)) + D), m, {(MO-MI){1'b0}}};
  end
endmodule
