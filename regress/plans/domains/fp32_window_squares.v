// Input domain for local_equiv.py --assume (docs/mutation.md, "Local equivalence of an instance"):
// the operands of the pair adders (u_p1..u_p4) of CDP's fp32 square-sum window
// (dla_cdp_window.sv, g_fp.g_sum) are two squares out of dla_fp_mul, used only in fp16 mode. By
// the argument of fp32_window_sums.v a square is a NaN with mantissa bits 22..10 clear (either
// sign), +0, exactly 0x5f7fc004 (the square of fp17's largest finite value, which an infinite
// input becomes), or a positive value in [2^-48, 2^32) (biased exponent 79..158) that is the
// exact square of an 11-bit significand: at most 22 significant bits, so the two lowest mantissa
// bits are 0.
module local_equiv_domain (
  input  [31:0] a,
  input  [31:0] b,
  output        ok
);
  wire a_nan = a[30:23] == 8'hff && a[22:0] != 23'd0 && a[22:10] == 13'd0;
  wire b_nan = b[30:23] == 8'hff && b[22:0] != 23'd0 && b[22:10] == 13'd0;
  wire a_sq = a == 32'd0 || a == 32'h5f7fc004 || (!a[31] && a[30:23] >= 8'd79 && a[30:23] <= 8'd158 && a[1:0] == 2'd0);
  wire b_sq = b == 32'd0 || b == 32'h5f7fc004 || (!b[31] && b[30:23] >= 8'd79 && b[30:23] <= 8'd158 && b[1:0] == 2'd0);
  assign ok = (a_nan || a_sq) && (b_nan || b_sq);
endmodule
