// Output pixels in the next stripe of a kernel group (docs/conv-rtl.md), shared by CSC (which
// issues the stripes) and CACC (which delivers them): SL pixels, except that when fewer than
// 1.5 x SL remain they are split into two stripes of nearly equal length, so no stripe is so
// short that loading its weights (one kernel per clock) costs more than computing it.
module dla_conv_stripe #(
  parameter int SL  = 32,
  parameter int SLB = $clog2(SL)
) (
  input  logic [26:0]  left,   // pixels of the group not yet in a stripe
  output logic [SLB:0] len,
  output logic         last    // this stripe is the group's last
);
  always_comb begin
    if (left <= 27'(SL))                len = (SLB+1)'(left);
    else if (left < 27'(SL + SL / 2))   len = (SLB+1)'((left + 27'd1) >> 1);
    else                                len = (SLB+1)'(SL);
    last = left <= 27'(SL);
  end
endmodule
