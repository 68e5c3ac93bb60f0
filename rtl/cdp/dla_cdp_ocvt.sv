// CDP multiplier and output converter for one element, integer modes
// (pdp_cdp_bdma_rubik_glb.md §2.8): M = Lr (MUL_BYPASS) or Lr * x'; r = (M - OOFF) * OSCALE;
// out = sat_8 / sat_16 of rha(r, OSH). `sat` is the saturation flag with the spec's one-step
// quirk: floor(r / 2^OSH) is not one of out-1, out, out+1.
module dla_cdp_ocvt #(
  parameter int XW = 17
) (
  input  logic                 is8,
  input  logic                 mul_bypass,
  input  logic signed [15:0]   lr,
  input  logic signed [XW-1:0] xc,
  input  logic [31:0]          offset,
  input  logic [15:0]          scale,
  input  logic [5:0]           shift,
  output logic [15:0]          y,
  output logic                 sat
);
  logic signed [32:0] m;
  logic signed [34:0] q;
  logic signed [50:0] r;
  logic signed [15:0] o16;
  logic signed [17:0] fq;
  logic signed [18:0] o, f;
  always_comb begin
    m = mul_bypass ? 33'(lr) : 33'(lr) * 33'(xc);
    q = 35'(m) - (is8 ? 35'($signed(offset[24:0])) : 35'($signed(offset)));
    r = 51'(q) * 51'($signed(scale));
  end
  dla_sdp_rsh #(.IW(51), .OW(16), .SW(6), .FW(18)) u_rsh (.v(r), .s(shift), .y(o16), .floor_q(fq));
  always_comb begin
    o = 19'(o16);
    if (is8 && o > 19'sd127)       o = 19'sd127;
    else if (is8 && o < -19'sd128) o = -19'sd128;
    f   = 19'(fq);
    sat = f != o && f != o - 19'sd1 && f != o + 19'sd1;
    y   = 16'(o);
  end
endmodule
