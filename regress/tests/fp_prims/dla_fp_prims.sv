// Test wrapper (not part of the DUT): every parameter set of the shared float primitives
// (rtl/common/dla_fp_*) that the units instantiate, side by side on the same operands, so
// rtl_fp_prims_test.cpp can compare each with the golden numerics (dla::num).
module dla_fp_prims (
  input  logic [31:0] a,
  input  logic [31:0] b,
  // fp32 (E8 M23): SDP X/Y/EW stages, LUT, CDP sums
  output logic [31:0] add32, mul32, max32, min32,
  // fp17 (E6 M10): PDP, CDP, SDP LUT interpolation
  output logic [16:0] add17, mul17,
  // fp16 (E5 M10): PDP MAX/MIN
  output logic [15:0] max16, min16,
  // conversions of a
  output logic [31:0] w16to32,      // fp16 -> fp32, subnormals kept (SDP, CDP)
  output logic [16:0] w16to17,      // fp16 -> fp17, subnormals kept (PDP, CDP, SDP LUT)
  output logic [31:0] w17to32,      // fp17 -> fp32, hidden bit (SDP LUT, CDP window)
  output logic [15:0] n32to16,      // fp32 -> fp16, subnormals kept (SDP converter)
  output logic [16:0] n32to17,      // fp32 -> fp17, flush (SDP LUT, CDP)
  output logic [15:0] n17to16       // fp17 -> fp16, subnormals kept (PDP, CDP)
);
  dla_fp_add    #(.E(8), .M(23)) u_add32 (.a, .b, .y(add32));
  dla_fp_mul    #(.E(8), .M(23)) u_mul32 (.a, .b, .y(mul32));
  dla_fp_maxmin #(.E(8), .M(23)) u_max32 (.a, .b, .is_max(1'b1), .y(max32));
  dla_fp_maxmin #(.E(8), .M(23)) u_min32 (.a, .b, .is_max(1'b0), .y(min32));
  dla_fp_add    #(.E(6), .M(10)) u_add17 (.a(a[16:0]), .b(b[16:0]), .y(add17));
  dla_fp_mul    #(.E(6), .M(10)) u_mul17 (.a(a[16:0]), .b(b[16:0]), .y(mul17));
  dla_fp_maxmin #(.E(5), .M(10)) u_max16 (.a(a[15:0]), .b(b[15:0]), .is_max(1'b1), .y(max16));
  dla_fp_maxmin #(.E(5), .M(10)) u_min16 (.a(a[15:0]), .b(b[15:0]), .is_max(1'b0), .y(min16));
  dla_fp_widen  #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_w1 (.x(a[15:0]), .y(w16to32));
  dla_fp_widen  #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_w2 (.x(a[15:0]), .y(w16to17));
  dla_fp_widen  #(.EI(6), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b0)) u_w3 (.x(a[16:0]), .y(w17to32));
  dla_fp_narrow #(.EI(8), .MI(23), .EO(5), .MO(10), .KEEP_DENORM(1'b1)) u_n1 (.x(a), .y(n32to16));
  dla_fp_narrow #(.EI(8), .MI(23), .EO(6), .MO(10), .KEEP_DENORM(1'b0)) u_n2 (.x(a), .y(n32to17));
  dla_fp_narrow #(.EI(6), .MI(10), .EO(5), .MO(10), .KEEP_DENORM(1'b1)) u_n3 (.x(a[16:0]), .y(n17to16));
endmodule
