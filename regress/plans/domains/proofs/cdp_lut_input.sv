// Proof obligation of fp32_lut_input.v: the LUT input X of CDP's fp16 path is in the domain, both
// as the widened lane itself (SQSUM_BYPASS: any fp16 input through dla_cdp_core.sv's and
// dla_cdp_window.sv's widenings) and as each of the window's sums s3, s5, s7, s9 for any nine
// squares in fp32_window_squares.v's domain (proved by cdp_window_squares.sv), in
// dla_cdp_window.sv's association. `bad` can never be 1 (scripts/mutate/domain_proofs.py).
module cdp_lut_input(input [15:0] x, input [31:0] f0, f1, f2, f3, f4, f5, f6, f7, f8, output bad);
  wire [16:0] x17;
  wire [31:0] x32, p1, s3, p2, s5, p3, s7, p4, s9;
  dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_w17 (.x(x), .y(x17));
  dla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b0)) u_w32 (.x(x17), .y(x32));
  cdp_window_chain u_chain (.f0, .f1, .f2, .f3, .f4, .f5, .f6, .f7, .f8, .p1, .s3, .p2, .s5, .p3, .s7, .p4, .s9);
  wire q0, q1, q2, q3, q4, kx, k3, k5, k7, k9;
  dom_sq  d0 (.a(f0), .b(f8), .ok(q0));
  dom_sq  d1 (.a(f1), .b(f7), .ok(q1));
  dom_sq  d2 (.a(f2), .b(f6), .ok(q2));
  dom_sq  d3 (.a(f3), .b(f5), .ok(q3));
  dom_sq  d4 (.a(f4), .b(f4), .ok(q4));
  dom_lut ex (.a(x32), .ok(kx));
  dom_lut e3 (.a(s3), .ok(k3));
  dom_lut e5 (.a(s5), .ok(k5));
  dom_lut e7 (.a(s7), .ok(k7));
  dom_lut e9 (.a(s9), .ok(k9));
  assign bad = !kx || (q0 && q1 && q2 && q3 && q4 && !(k3 && k5 && k7 && k9));
endmodule
