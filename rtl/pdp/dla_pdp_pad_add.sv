// End of the PDP width pass for one window row (§1.6, §1.7, §1.8): average pooling adds
// the padding-value register of the row's padded-position count n = kw - nc and wraps the
// row result R (int8: sx_11 of sum + sx_11(PAD_VALUE_nX[10:0]); int16: 22 bits with
// sx_19(PAD_VALUE_nX); fp16: add17(acc, PAD_VALUE_nX[16:0]), skipped when n = 0).
// Max/min rows pass unchanged.
module dla_pdp_pad_add #(
  parameter int TP        = 8,
  parameter bit HAS_INT16 = 1'b1,
  parameter bit HAS_FP16  = 1'b1,
  parameter int PW        = 28 * TP
) (
  input  logic [1:0]    fmt,
  input  logic          is_avg,
  input  logic          has_pad,     // n > 0
  input  logic [18:0]   pad_value,   // PAD_VALUE_nX (0 when n = 0)
  input  logic [PW-1:0] a,
  output logic [PW-1:0] y
);
  logic [PW-1:0] y8, y16, yfp;

  always_comb
    for (int i = 0; i < 2 * TP; i++) begin
      logic [10:0] r;
      r = a[14*i +: 11] + pad_value[10:0];
      y8[14*i +: 14] = 14'($signed(r));
    end

  if (HAS_INT16) begin : g_int16
    always_comb
      for (int i = 0; i < TP; i++)
        y16[28*i +: 28] = {6'd0, 22'(a[28*i +: 22] + 22'($signed(pad_value)))};
  end else begin : g_no_int16
    assign y16 = '0;
  end

  if (HAS_FP16) begin : g_fp16
    for (genvar i = 0; i < TP; i++) begin : g_lane
      logic [16:0] sum;
      dla_fp_add #(.E(6), .M(10)) u_add (.a(a[28*i +: 17]), .b(pad_value[16:0]), .y(sum));
      assign yfp[28*i +: 28] = {11'd0, has_pad ? sum : a[28*i +: 17]};
    end
  end else begin : g_no_fp16
    assign yfp = '0;
    wire unused_pad = &{has_pad, pad_value[18:11]};
  end

  always_comb begin
    if (!is_avg)                          y = a;
    else if (HAS_INT16 && fmt == 2'd1)    y = y16;
    else if (HAS_FP16 && fmt == 2'd2)     y = yfp;
    else                                  y = y8;
  end
endmodule
