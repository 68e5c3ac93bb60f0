// The fp32 sums of dla_cdp_window.sv's square-sum window for one lane, in its association
// (p1 = x3 + x5, s3 = p1 + x4, p2 = x2 + x6, s5 = s3 + p2, p3 = x1 + x7, s7 = s5 + p3,
// p4 = x0 + x8, s9 = s7 + p4), from nine squares: shared by the domain proofs' wrappers. It copies
// the window's association; a change there needs this changed too.
module cdp_window_chain(input [31:0] f0, f1, f2, f3, f4, f5, f6, f7, f8,
                        output [31:0] p1, s3, p2, s5, p3, s7, p4, s9);
  dla_fp_add #(.E(8), .M(23)) u_p1 (.a(f3), .b(f5), .y(p1));
  dla_fp_add #(.E(8), .M(23)) u_s3 (.a(p1), .b(f4), .y(s3));
  dla_fp_add #(.E(8), .M(23)) u_p2 (.a(f2), .b(f6), .y(p2));
  dla_fp_add #(.E(8), .M(23)) u_s5 (.a(s3), .b(p2), .y(s5));
  dla_fp_add #(.E(8), .M(23)) u_p3 (.a(f1), .b(f7), .y(p3));
  dla_fp_add #(.E(8), .M(23)) u_s7 (.a(s5), .b(p3), .y(s7));
  dla_fp_add #(.E(8), .M(23)) u_p4 (.a(f0), .b(f8), .y(p4));
  dla_fp_add #(.E(8), .M(23)) u_s9 (.a(s7), .b(p4), .y(s9));
endmodule
