// SDP rounding right shift RSH_OW(v, s) (sdp.md §0.3): round half away from zero, then
// saturate to OW bits signed. Exact for every shift amount (a shift beyond the input width
// gives 0, or -1 at exactly the width for the most negative input). `floor_q` is
// floor(v / 2^s) saturated to FW bits (for the output converter's saturation flag).
module dla_sdp_rsh #(
  parameter int IW = 49,
  parameter int OW = 32,
  parameter int SW = 6,
  parameter int FW = 32
) (
  input  logic signed [IW-1:0] v,
  input  logic        [SW-1:0] s,
  output logic signed [OW-1:0] y,
  output logic signed [FW-1:0] floor_q
);
  localparam int XW = IW + 2;
  localparam int MAXS = IW + 1;
  localparam int XWP = XW + 1;
  localparam logic signed [XW:0] OMAX = (XW+1)'(((XWP'(1) <<< (OW - 1))) - 1);
  // -(N'(x)), not -N'(x): Yosys 0.23 reads the latter as the cast (-N)'(x) (mutant models).
  localparam logic signed [XW:0] OMIN = -((XW+1)'((XWP'(1) <<< (OW - 1))));
  localparam logic signed [XW:0] FMAX = (XW+1)'(((XWP'(1) <<< (FW - 1))) - 1);
  localparam logic signed [XW:0] FMIN = -((XW+1)'((XWP'(1) <<< (FW - 1))));

  integer                  se;
  logic signed [XW-1:0] vx, q;
  logic signed [XW:0]   r, qx;
  logic                 g, t;

  always_comb begin
    se = (32'(s) > 32'(MAXS)) ? MAXS : $signed(32'(s));
    vx = XW'(v);
    q  = vx >>> se;
    g  = (se == 0) ? 1'b0 : vx[se-1];
    t  = 1'b0;
    for (int i = 0; i < XW; i++) if (i < se - 1 && vx[i]) t = 1'b1;
    qx = (XW+1)'(q);
    r  = qx + ((v >= 0) ? (XW+1)'(g) : (XW+1)'(g && t));
    if (r > OMAX)      y = OW'(OMAX);
    else if (r < OMIN) y = OW'(OMIN);
    else               y = OW'(r);
    if (qx > FMAX)      floor_q = FW'(FMAX);
    else if (qx < FMIN) floor_q = FW'(FMIN);
    else                floor_q = FW'(qx);
  end
endmodule
