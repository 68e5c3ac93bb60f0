// CDP input converter for one element, integer modes (pdp_cdp_bdma_rubik_glb.md §2.5):
// x' = sat_9 (int8) / sat_17 (int16) of rha((x - OFF) * SCALE, SHIFT), everything exact.
// `x` is the element sign-extended to 17 bits; int8 uses OFF = sx_8(OFFSET[7:0]).
module dla_cdp_icvt #(
  parameter int XW = 17          // width of x' kept downstream (9 when only int8 exists)
) (
  input  logic                 is8,
  input  logic signed [16:0]   x,
  input  logic [15:0]          offset,
  input  logic [15:0]          scale,
  input  logic [4:0]           shift,
  output logic signed [XW-1:0] y
);
  logic signed [17:0] off, d;
  logic signed [33:0] p;
  logic signed [16:0] r;
  logic signed [16:0] unused_floor;
  always_comb begin
    off = is8 ? 18'($signed(offset[7:0])) : 18'($signed(offset));
    d   = 18'(x) - off;
    p   = 34'(d) * 34'($signed(scale));
  end
  dla_sdp_rsh #(.IW(34), .OW(17), .SW(5), .FW(17)) u_rsh (.v(p), .s(shift), .y(r), .floor_q(unused_floor));
  always_comb begin
    if (is8 && r > 17'sd255)       y = XW'(17'sd255);
    else if (is8 && r < -17'sd256) y = XW'(-17'sd256);
    else                           y = XW'(r);
  end
endmodule
