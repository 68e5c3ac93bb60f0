// CMAC_A / CMAC_B (docs/conv-rtl.md): one half of the MAC array with its register block.
// CMAC_A owns kernels [0, AK/2) of a group, CMAC_B kernels [AK/2, AK). Each half keeps two
// weight slots (CSC loads the next operation's weights while the current one runs) and, for
// every atomic operation, computes the exact integer dot product of the AC data lanes with
// each of its kernels' AC weight lanes, registered (one operation per clock). Lanes are LW
// bits: 8 (int8 configurations) or 16 (int16 configurations; int8 values arrive sign-extended
// and int16 groups use kernels [0, AK/2) only, so CMAC_B idles in int16 layers). fp16 layers
// (HAS_FP, CMAC_A only) use dla_cmac_fp16 per kernel: a 38-bit mantissa in `partial` and its
// exponent in `pexp`.
module dla_cmac #(
  parameter int AC   = 8,
  parameter int AK   = 8,
  parameter int HALF = 0,                 // 0: CMAC_A, 1: CMAC_B
  parameter int LW   = 8,                 // lane width
  parameter bit HAS_WINO = 1'b0,          // Winograd (AC = 64: 16 positions x 4 channels)
  parameter bit HAS_FP   = 1'b0,          // fp16 layers (LW = 16, PW = 38)
  parameter bit WL2      = 1'b0,          // CSC may load two kernels a clock
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
  input  logic                   wl_pair,  // WL2: kernel wl_kernel + 1 too, from wl_data2
  input  logic [AC*LW-1:0]       wl_data2,
  // atomic operations
  input  logic                   mi_valid,
  input  logic                   mi_slot,
  input  logic [AC*LW-1:0]       mi_data,
  input  logic [1:0]             wsel,     // Winograd: which of the tile's four outputs
  output logic [AK/2*PW-1:0]     partial,
  output logic [AK/2*6-1:0]      pexp      // fp16: the exponent of each kernel's partial
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
  if (WL2) begin : g_wl2
    wire [AKB-1:0] k2 = wl_kernel + AKB'(1);     // the pair's second kernel
    always_ff @(posedge clk) begin
      if (wl_valid && wl_kernel[AKB-1] == 1'(HALF)) wt[wl_slot][32'(wl_kernel[AKB-2:0])] <= wl_data;
      if (wl_valid && wl_pair && k2[AKB-1] == 1'(HALF)) wt[wl_slot][32'(k2[AKB-2:0])] <= wl_data2;
    end
  end else begin : g_wl1
    always_ff @(posedge clk)
      if (wl_valid && wl_kernel[AKB-1] == 1'(HALF))
        wt[wl_slot][32'(wl_kernel[AKB-2:0])] <= wl_data;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_wl2 = ^{wl_pair, wl_data2};      // CSC loads one kernel a clock here
    /* verilator lint_on UNUSEDSIGNAL */
  end

  // Direct: the dot product of the AC lanes. Winograd: Q[p] = sum over the 4 channels of
  // position p, then the output transform Y = A^T Q A (rows: Q0 + Q1 + Q2, Q1 - Q2 - Q3; then
  // the same on the columns), exactly; the four outputs (Y00, Y01, Y10, Y11) are kept and
  // given out one a clock as `wsel` says.
  wire wino = HAS_WINO && conv_mode;
  wire fp   = HAS_FP && HALF == 0 && proc_prec == 2'd2;
  // Outputs kept per operation: the four of a Winograd tile, else the one dot product (a
  // configuration without Winograd has no registers for the other three).
  localparam int NO = HAS_WINO ? 4 : 1;
  for (genvar k = 0; k < KH; k++) begin : g_k
    logic signed [PW-1:0] dot;
    logic [NO*PW-1:0]     res;                    // two's complement, output o at [o*PW +: PW]
    if (HAS_WINO) begin : g_wino
      // the direct dot product is the sum of the 16 position sums (one set of products)
      logic [16*PW-1:0] q;
      logic [8*PW-1:0]  r;
      logic [4*PW-1:0]  y;
      always_comb begin
        dot = '0;
        for (int p = 0; p < 16; p++) begin
          q[p*PW +: PW] = '0;
          for (int c = 0; c < 4; c++)
            q[p*PW +: PW] = q[p*PW +: PW] + PW'($signed(wt[mi_slot][k][(4*p + c)*LW +: LW])) *
                                            PW'($signed(mi_data[(4*p + c)*LW +: LW]));
          dot = dot + $signed(q[p*PW +: PW]);
        end
        for (int col = 0; col < 4; col++) begin
          r[col*PW +: PW]       = q[col*PW +: PW] + q[(4 + col)*PW +: PW] + q[(8 + col)*PW +: PW];
          r[(4 + col)*PW +: PW] = q[(4 + col)*PW +: PW] - q[(8 + col)*PW +: PW] - q[(12 + col)*PW +: PW];
        end
        for (int i = 0; i < 2; i++) begin
          y[(2*i)*PW +: PW]     = r[(4*i)*PW +: PW] + r[(4*i + 1)*PW +: PW] + r[(4*i + 2)*PW +: PW];
          y[(2*i + 1)*PW +: PW] = r[(4*i + 1)*PW +: PW] - r[(4*i + 2)*PW +: PW] - r[(4*i + 3)*PW +: PW];
        end
      end
      always_ff @(posedge clk or negedge rstn)
        if (!rstn) res <= '0;
        else if (mi_valid) res <= {y[PW +: 3*PW], wino ? y[0 +: PW] : dot};
    end else begin : g_direct
      always_comb begin
        dot = '0;
        for (int l = 0; l < AC; l++)
          dot = dot + PW'($signed(wt[mi_slot][k][l*LW +: LW])) * PW'($signed(mi_data[l*LW +: LW]));
      end
      always_ff @(posedge clk or negedge rstn)
        if (!rstn) res <= '0;
        else if (mi_valid) res <= dot;
    end
    logic [NO*PW-1:0] fres;                       // fp16: the cell's outputs
    if (HAS_FP && HALF == 0) begin : g_fp
      logic [4*PW-1:0] fy;
      dla_cmac_fp16 #(.AC(AC), .PW(PW)) u_fp (
        .clk, .en(mi_valid && fp), .wino, .w(wt[mi_slot][k]), .d(mi_data),
        .x(pexp[k*6 +: 6]), .y(fy)
      );
      assign fres = fy[NO*PW-1:0];
    end else begin : g_no_fp
      assign fres = '0;
      assign pexp[k*6 +: 6] = '0;
    end
    wire [NO*PW-1:0] out = fp ? fres : res;
    if (HAS_WINO) begin : g_pick
      assign partial[k*PW +: PW] = wino ? out[32'(wsel)*PW +: PW] : out[0 +: PW];
    end else begin : g_one
      assign partial[k*PW +: PW] = out;
    end
  end
  if (!HAS_WINO) begin : g_no_wsel
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_wino = ^{wsel, wino};             // Winograd controls: no Winograd here
    /* verilator lint_on UNUSEDSIGNAL */
  end
endmodule
