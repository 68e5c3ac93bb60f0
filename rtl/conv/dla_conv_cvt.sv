// CDMA input converter for one element (docs/conv-rtl.md): sat_17(rha((p - offset) * scale,
// truncate)) with round-half-away-from-zero, then saturated to the processing precision.
// `p` is the element already sign- or zero-extended to 17 bits; a shift of 34 or more gives 0.
module dla_conv_cvt (
  input  logic [16:0] p,
  input  logic [15:0] offset,
  input  logic [15:0] scale,
  input  logic [5:0]  truncate,
  output logic [7:0]  sat8,
  output logic [15:0] sat16,
  output logic [16:0] z17                  // the 17-bit result before the precision's saturation
);
  logic signed [63:0] prod, fl, z;
  logic signed [17:0] diff;
  logic               guard, sticky;
  always_comb begin
    diff = $signed({p[16], p}) - $signed({{2{offset[15]}}, offset});
    prod = 64'(diff) * 64'($signed(scale));
    fl   = prod >>> truncate;
    guard  = truncate != 6'd0 && prod[truncate - 6'd1];
    sticky = truncate > 6'd1 && (prod & ((64'sd1 <<< (truncate - 6'd1)) - 64'sd1)) != 64'sd0;
    z = (truncate == 6'd0) ? prod : fl + 64'(guard && (!prod[63] || sticky));
    if (z > 64'sd65535)       z = 64'sd65535;
    else if (z < -64'sd65536) z = -64'sd65536;
    sat8  = (z > 64'sd127)   ? 8'h7f   : (z < -64'sd128)   ? 8'h80   : z[7:0];
    sat16 = (z > 64'sd32767) ? 16'h7fff : (z < -64'sd32768) ? 16'h8000 : z[15:0];
    z17   = z[16:0];
  end
endmodule
