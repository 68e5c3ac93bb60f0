// Input domain for local_equiv.py --assume (docs/mutation.md, "Local equivalence of an instance"):
// operand `a` of the fp32 subtractor (g_fp.u_sub) of CDP's LUT index instances (dla_cdp_core.sv
// g_idx: u_le, u_lo; dla_lut_table_index.sv): the LUT input X, used only in fp16 mode. X is the
// window's sum lane: with SQSUM_BYPASS the lane's own widened value, else the sum of 3..9 squares.
// A widened value (fp16 -> fp17 keeping subnormals, an infinity becoming fp17's largest finite
// 2047 * 2^21; then fp32) is +-0, +-2047 * 2^21 = 0x4f7fe000 with either sign, a NaN with mantissa
// bits 22..10 clear, or a value of either sign with biased exponent 103..142 (2^-24 .. 65504) and
// mantissa bits 12..0 clear. A sum is in fp32_window_sums.v's domain (+0, positive with exponent
// 79..194, or such a NaN). Operand `b` (the START register, sign flipped) is any value.
module local_equiv_domain (
  input  [31:0] a,
  output        ok
);
  wire nan    = a[30:23] == 8'hff && a[22:0] != 23'd0 && a[22:10] == 13'd0;
  wire sum    = a == 32'd0 || (!a[31] && a[30:23] >= 8'd79 && a[30:23] <= 8'd194);
  wire widened = a[30:0] == 31'd0 || a[30:0] == 31'h4f7fe000
              || (a[30:23] >= 8'd103 && a[30:23] <= 8'd142 && a[12:0] == 13'd0);
  assign ok = nan || sum || widened;
endmodule
