// Test wrapper (not part of the DUT): the fp16 arithmetic of the convolution pipeline on its
// own, so rtl_conv_fp16_test.cpp can compare it with the golden numerics (dla::num): one CMAC
// cell (64 lanes, direct or Winograd; the result one clock after `en`) and the CACC "fp48"
// accumulator step and its fp32 conversion, and the Winograd PRA in fp16 (combinational).
module dla_conv_fp16 (
  input  logic          clk,
  input  logic          en,
  input  logic          wino,
  input  logic [1023:0] w,
  input  logic [1023:0] d,
  output logic [5:0]    x,
  output logic [151:0]  y,
  input  logic [47:0]   acc,
  input  logic [5:0]    eb,
  input  logic [37:0]   mb,
  output logic [47:0]   acc_next,
  output logic [31:0]   acc_fp32,
  input  logic [1023:0] pra_in,                    // 64 lanes: 4 p + c, p = row * 4 + column
  output logic [1023:0] pra_out
);
  dla_cmac_fp16 #(.AC(64), .PW(38)) u_cell (.clk, .en, .wino, .w, .d, .x, .y);
  assign acc_next = dla_conv_fp_pkg::fp48_add(acc, eb, mb);
  assign acc_fp32 = dla_conv_fp_pkg::fp48_to_fp32(acc);
  dla_conv_wino_pra #(.LW(16)) u_pra (.d(pra_in), .es2(1'b1), .fp(1'b1), .truncate(2'd0), .v(pra_out));
endmodule
