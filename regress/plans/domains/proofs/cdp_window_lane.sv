// Proof obligation of fp32_window_lane.v: every fp16 input widened as CDP's fp16 path widens it
// (dla_cdp_core.sv g_icvt: fp16 -> fp17 keeping subnormals; dla_cdp_window.sv: fp17 -> fp32) is
// in the domain, given to both operands of the square. `bad` can never be 1
// (scripts/mutate/domain_proofs.py).
module cdp_window_lane(input [15:0] x, output bad);
  wire [16:0] x17;
  wire [31:0] x32;
  wire ok;
  dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_w17 (.x(x), .y(x17));
  dla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b0)) u_w32 (.x(x17), .y(x32));
  dom_lane d (.a(x32), .b(x32), .ok(ok));
  assign bad = !ok;
endmodule
