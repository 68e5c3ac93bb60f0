// Input domain for local_equiv.py --assume (docs/mutation.md, "Local equivalence of an instance"):
// the operands of the sum adders (u_s3, u_s5, u_s7, u_s9) of CDP's fp32 square-sum window
// (dla_cdp_window.sv, g_fp.g_sum): squares of the window's inputs or sums of them. The window's
// fp32 sums are used only in fp16 mode (`fp`); there an input lane is +0 (beyond the cube) or an
// fp16 value widened to fp17 (dla_cdp_core.sv: subnormals kept exact, an infinity becomes fp17's
// largest finite value 2047 * 2^21, a NaN keeps its payload) and then to fp32 (the payload in the
// low 10 mantissa bits). dla_fp_mul squares it: a NaN passes through bit-identical (either sign),
// every other square is +0 or positive (sign a XOR b), in [2^-48, 65504^2 < 2^32] (biased
// exponents 79..158) or exactly (2047 * 2^21)^2 = 0x5f7fc004; no square overflows. dla_fp_add
// passes NaNs through, and sums of up to nine such squares are positive and below 9 * 2^64 < 2^68
// (exponents up to 194) or NaN. So each operand is a NaN with mantissa bits 22..10 clear, +0, or
// positive with a biased exponent in 79..194.
module local_equiv_domain (
  input  [31:0] a,
  input  [31:0] b,
  output        ok
);
  wire a_nan = a[30:23] == 8'hff && a[22:0] != 23'd0 && a[22:10] == 13'd0;
  wire b_nan = b[30:23] == 8'hff && b[22:0] != 23'd0 && b[22:10] == 13'd0;
  wire a_num = a == 32'd0 || (!a[31] && a[30:23] >= 8'd79 && a[30:23] <= 8'd194);
  wire b_num = b == 32'd0 || (!b[31] && b[30:23] >= 8'd79 && b[30:23] <= 8'd194);
  assign ok = (a_nan || a_num) && (b_nan || b_num);
endmodule
