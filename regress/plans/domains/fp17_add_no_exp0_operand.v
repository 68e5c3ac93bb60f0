// Input domain for local_equiv.py --assume (docs/mutation.md, "Local equivalence of an instance"):
// the operands of a dla_fp_add (E = 6, M = 10) in PDP's height pass never have exponent 0 with a
// non-zero mantissa. In average mode they are widened fp16 data (dla_fp_widen keeps subnormals as
// normals of exponent 7 or more, zeros stay zero), sums out of dla_fp_add (a result below the
// smallest normal flushes to a signed zero; a carry gives exponent 1 or more) or NaNs passed
// through (exponent 63); in max and min mode the adder's result is not selected.
module local_equiv_domain (
  input  [16:0] a,
  input  [16:0] b,
  output        ok
);
  assign ok = !(a[15:10] == 6'd0 && a[9:0] != 10'd0) && !(b[15:10] == 6'd0 && b[9:0] != 10'd0);
endmodule
