// CMAC_A / CMAC_B (docs/conv-rtl.md): one half of the MAC array with its register block.
// CMAC_A owns kernels [0, AK/2) of a group, CMAC_B kernels [AK/2, AK). Each half keeps two
// weight slots (CSC loads the next operation's weights while the current one runs) and, for
// every atomic operation, computes the exact integer dot product of the AC data lanes with
// each of its kernels' AC weight lanes, registered (one operation per clock). Lanes are LW
// bits: 8 (int8 configurations) or 16 (int16 configurations; int8 values arrive sign-extended
// and int16 groups use kernels [0, AK/2) only, so CMAC_B idles in int16 layers).
module dla_cmac #(
  parameter int AC   = 8,
  parameter int AK   = 8,
  parameter int HALF = 0,                 // 0: CMAC_A, 1: CMAC_B
  parameter int LW   = 8,                 // lane width
  parameter int PW   = 2 * LW + $clog2(AC),   // partial-sum width
  parameter int AKB  = $clog2(AK)
) (
  input  logic                   clk,
  input  logic                   rstn,
  input  logic                   req_vld,
  input  logic                   req_wr,
  input  logic [9:0]             req_word,
  input  logic [31:0]            req_wdat,
  output logic [31:0]            rd_data,
  output logic                   op_en,
  input  logic                   op_done,
  // weight loads (all kernels of the group; this half keeps its own)
  input  logic                   wl_valid,
  input  logic                   wl_slot,
  input  logic [AKB-1:0]         wl_kernel,
  input  logic [AC*LW-1:0]       wl_data,
  // atomic operations
  input  logic                   mi_valid,
  input  logic                   mi_slot,
  input  logic [AC*LW-1:0]       mi_data,
  output logic [AK/2*PW-1:0]     partial
);
  localparam int KH = AK / 2;

  /* verilator lint_off UNUSEDSIGNAL */
  logic       consumer, producer, conv_mode;
  logic [1:0] proc_prec;
  /* verilator lint_on UNUSEDSIGNAL */
  if (HALF == 0) begin : g_a
    dla_cmac_a_regs u_regs (
      .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data, .op_done, .op_en,
      .consumer, .producer, .d_misc_cfg_conv_mode(conv_mode), .d_misc_cfg_proc_precision(proc_prec)
    );
  end else begin : g_b
    dla_cmac_b_regs u_regs (
      .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data, .op_done, .op_en,
      .consumer, .producer, .d_misc_cfg_conv_mode(conv_mode), .d_misc_cfg_proc_precision(proc_prec)
    );
  end

  logic [AC*LW-1:0] wt [2][KH];
  always_ff @(posedge clk)
    if (wl_valid && wl_kernel[AKB-1] == 1'(HALF))
      wt[wl_slot][32'(wl_kernel[AKB-2:0])] <= wl_data;

  for (genvar k = 0; k < KH; k++) begin : g_k
    logic signed [PW-1:0] dot;
    always_comb begin
      dot = '0;
      for (int l = 0; l < AC; l++)
        dot = dot + PW'($signed(wt[mi_slot][k][l*LW +: LW])) * PW'($signed(mi_data[l*LW +: LW]));
    end
    always_ff @(posedge clk or negedge rstn)
      if (!rstn) partial[k*PW +: PW] <= '0;
      else if (mi_valid) partial[k*PW +: PW] <= dot;
  end
endmodule
