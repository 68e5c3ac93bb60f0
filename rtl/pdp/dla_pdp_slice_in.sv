// PDP input conversion of one slice (2*TP bytes of an input atom) into the packed lane
// format every PDP stage uses (PW = 28*TP bits):
//   int8:  2*TP lanes of 14 bits, lane i at [14*i +: 14], sign-extended element;
//   int16: TP lanes at [28*i +: 22], sign-extended element;
//   fp16:  TP lanes at [28*i +: 17]: average -> fp17 (App. A.3), max/min -> the fp16 pattern.
// fp16 NaN inputs are counted (and Inf inputs), then replaced by +0 when `nan_flush`
// (pdp_cdp_bdma_rubik_glb.md §1.8, §1.9; the caller enables both only off-flying).
module dla_pdp_slice_in #(
  parameter int TP        = 8,
  parameter bit HAS_INT16 = 1'b1,
  parameter bit HAS_FP16  = 1'b1,
  parameter int PW        = 28 * TP,
  parameter int CW        = $clog2(TP + 1)
) (
  input  logic [1:0]        fmt,        // 0 int8, 1 int16, 2 fp16
  input  logic              is_avg,
  input  logic              nan_flush,
  input  logic [16*TP-1:0]  raw,
  output logic [PW-1:0]     y,
  output logic [CW-1:0]     nan_count,  // fp16 only, else 0
  output logic [CW-1:0]     inf_count
);
  logic [PW-1:0] y8, y16, yfp;

  always_comb
    for (int i = 0; i < 2 * TP; i++) y8[14*i +: 14] = 14'($signed(raw[8*i +: 8]));

  if (HAS_INT16) begin : g_int16
    always_comb
      for (int i = 0; i < TP; i++) y16[28*i +: 28] = {6'd0, 22'($signed(raw[16*i +: 16]))};
  end else begin : g_no_int16
    assign y16 = '0;
  end

  if (HAS_FP16) begin : g_fp16
    logic [TP-1:0] is_nan, is_inf;
    for (genvar i = 0; i < TP; i++) begin : g_lane
      wire [15:0] h = raw[16*i +: 16];
      assign is_nan[i] = h[14:10] == 5'd31 && h[9:0] != '0;
      assign is_inf[i] = h[14:10] == 5'd31 && h[9:0] == '0;
      wire [15:0] hf = (nan_flush && is_nan[i]) ? 16'h0000 : h;
      logic [16:0] h17;
      dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_widen (.x(hf), .y(h17));
      assign yfp[28*i +: 28] = {11'd0, is_avg ? h17 : {1'b0, hf}};
    end
    always_comb begin
      nan_count = '0;
      inf_count = '0;
      if (fmt == 2'd2)
        for (int i = 0; i < TP; i++) begin
          nan_count = nan_count + CW'(is_nan[i]);
          inf_count = inf_count + CW'(is_inf[i]);
        end
    end
  end else begin : g_no_fp16
    assign yfp = '0;
    assign nan_count = '0;
    assign inf_count = '0;
    wire unused_fp = &{is_avg, nan_flush};
  end

  assign y = (HAS_INT16 && fmt == 2'd1) ? y16 : (HAS_FP16 && fmt == 2'd2) ? yfp : y8;
endmodule
