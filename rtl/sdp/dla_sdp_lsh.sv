// SDP saturating left shift LSH_OW(v, s) = sat_OW(v * 2^s) (sdp.md §0.3).
module dla_sdp_lsh #(
  parameter int IW = 16,
  parameter int OW = 32,
  parameter int SW = 6
) (
  input  logic signed [IW-1:0] v,
  input  logic        [SW-1:0] s,
  output logic signed [OW-1:0] y
);
  localparam int XW = IW + OW + 1;
  localparam int XWP = XW;
  localparam logic signed [XW-1:0] OMAX = XW'(((XWP'(1) <<< (OW - 1))) - 1);
  // -(N'(x)), not -N'(x): Yosys 0.23 reads the latter as the cast (-N)'(x) (mutant models).
  localparam logic signed [XW-1:0] OMIN = -(XW'((XWP'(1) <<< (OW - 1))));
  logic signed [XW-1:0] w;
  always_comb begin
    w = XW'(v) <<< s;
    if (v == '0)                         y = '0;
    else if ($signed(32'(s)) >= OW)              y = (v < 0) ? OW'(OMIN) : OW'(OMAX);
    else if (w > OMAX)                   y = OW'(OMAX);
    else if (w < OMIN)                   y = OW'(OMIN);
    else                                 y = OW'(w);
  end
endmodule
