// fp32 FMAX / FMIN of sdp.md §3.3: NaN operands first (a, then b); otherwise compare with
// -0 < +0; FMAX returns b on a tie, FMIN returns a.
module dla_sdp_fmaxmin (
  input  logic [31:0] a,
  input  logic [31:0] b,
  input  logic        is_max,
  output logic [31:0] y
);
  logic absgt, agt;
  always_comb begin
    absgt = (a[30:23] > b[30:23]) || (a[30:23] == b[30:23] && a[22:0] > b[22:0]);
    if (a[31] != b[31]) agt = !a[31];
    else                agt = a[31] ? !absgt : absgt;
    if (a[30:23] == 8'hff && a[22:0] != '0)      y = a;
    else if (b[30:23] == 8'hff && b[22:0] != '0) y = b;
    else if (is_max) y = agt ? a : b;
    else             y = agt ? b : a;
  end
endmodule
