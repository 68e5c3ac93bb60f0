// Proof obligation of fp32_window_sums.v: for any nine squares in fp32_window_squares.v's domain
// (proved by cdp_window_squares.sv), the operands of every sum adder of dla_cdp_window.sv's fp32
// chain (cdp_window_chain.sv, the window's association) are in the domain. `bad` can never be 1
// (scripts/mutate/domain_proofs.py).
module cdp_window_sums(input [31:0] f0, f1, f2, f3, f4, f5, f6, f7, f8, output bad);
  wire [31:0] p1, s3, p2, s5, p3, s7, p4, s9;
  cdp_window_chain u_chain (.f0, .f1, .f2, .f3, .f4, .f5, .f6, .f7, .f8, .p1, .s3, .p2, .s5, .p3, .s7, .p4, .s9);
  wire q0, q1, q2, q3, q4, k3, k5, k7, k9;
  dom_sq  d0 (.a(f0), .b(f8), .ok(q0));
  dom_sq  d1 (.a(f1), .b(f7), .ok(q1));
  dom_sq  d2 (.a(f2), .b(f6), .ok(q2));
  dom_sq  d3 (.a(f3), .b(f5), .ok(q3));
  dom_sq  d4 (.a(f4), .b(f4), .ok(q4));
  dom_sum e3 (.a(p1), .b(f4), .ok(k3));
  dom_sum e5 (.a(s3), .b(p2), .ok(k5));
  dom_sum e7 (.a(s5), .b(p3), .ok(k7));
  dom_sum e9 (.a(s7), .b(p4), .ok(k9));
  // the squares as the window gives them (proved by sq_chk), every sum adder's operands in its domain
  assign bad = q0 && q1 && q2 && q3 && q4 && !(k3 && k5 && k7 && k9);
endmodule
