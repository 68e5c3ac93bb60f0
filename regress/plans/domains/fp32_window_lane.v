// Input domain for local_equiv.py --assume (docs/mutation.md, "Local equivalence of an instance"):
// the operands of the squaring multipliers (g_fp.g_sq[i].u_sq) of CDP's fp32 square-sum window
// (dla_cdp_window.sv), used only in fp16 mode: both are the same lane, an fp16 input widened to
// fp17 (dla_cdp_core.sv g_icvt: subnormals kept exact, an infinity becoming fp17's largest finite
// 2047 * 2^21) and then to fp32 (dla_cdp_window.sv), or +0 beyond the cube. So a = b, and a is
// +-0, +-0x4f7fe000, a NaN with mantissa bits 22..10 clear (either sign), or a value of either sign
// with biased exponent 103..142 (2^-24 .. 65504) and mantissa bits 12..0 clear.
module local_equiv_domain (
  input  [31:0] a,
  input  [31:0] b,
  output        ok
);
  wire nan     = a[30:23] == 8'hff && a[22:0] != 23'd0 && a[22:10] == 13'd0;
  wire widened = a[30:0] == 31'd0 || a[30:0] == 31'h4f7fe000
              || (a[30:23] >= 8'd103 && a[30:23] <= 8'd142 && a[12:0] == 13'd0);
  assign ok = a == b && (nan || widened);
endmodule
