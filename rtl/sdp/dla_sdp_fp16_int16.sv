// FP16->INT16 (sdp.md §3.2): hidden bit always 1, rounding half away from zero on the
// magnitude, NaN -> -32768, saturation to the int16 range.
module dla_sdp_fp16_int16 (
  input  logic [15:0] h,
  output logic [15:0] y
);
  logic [10:0] sig;
  logic [47:0] mag;
  integer          k;
  always_comb begin
    sig = {1'b1, h[9:0]};
    k   = 25 - $signed(32'(h[14:10]));
    if (k > 11)      mag = '0;
    else if (k > 0)  mag = (48'(sig) >> k) + 48'(sig[k-1]);
    else if (k == 0) mag = 48'(sig);
    else             mag = 48'(sig) << (-k);
    if (h[14:10] == 5'h1f && h[9:0] != '0) y = 16'h8000;
    else if (mag > 48'd32767)              y = h[15] ? 16'h8000 : 16'h7fff;
    else                                   y = h[15] ? 16'(-mag[15:0]) : mag[15:0];
  end
endmodule
