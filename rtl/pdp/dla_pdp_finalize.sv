// PDP output stage for one slice of a completed window (height pass done): the height
// padding, the two reciprocal multiplies with their rounding, and the output element.
//   int (§1.7): T = wrap(acc + (m > 0 ? sx_19(PAD_VALUE_mX) * kw : 0)) (14 / 22 bits),
//               A = RND(T * RECIP_W, 11 | 19), out = RND(A * RECIP_H, 8 | 16);
//   fp16 (§1.8): out = fp17->fp16(mul17(mul17(add17(acc, mul17(PAD_VALUE_mX, kw)), RW), RH))
//               (the add skipped when m = 0);
//   max/min: out = acc.
// RND(P, w) is the hardware's rounding/narrowing (half away from zero, wrap, never
// saturate). Two register stages plus an output register; valid/ready.
module dla_pdp_finalize #(
  parameter int TP        = 8,
  parameter bit HAS_INT16 = 1'b1,
  parameter bit HAS_FP16  = 1'b1,
  parameter int PW        = 28 * TP,
  parameter int CW        = $clog2(TP + 1)
) (
  input  logic               clk,
  input  logic               rstn,
  // configuration (stable during a layer)
  input  logic [1:0]         fmt,
  input  logic [1:0]         method,
  input  logic [3:0]         kw_m1,          // kernel width - 1
  input  logic [16:0]        recip_w,
  input  logic [16:0]        recip_h,
  input  logic [7*19-1:0]    pad_values,     // PAD_VALUE_1X at [18:0] ... PAD_VALUE_7X
  // completed windows
  input  logic               in_valid,
  output logic               in_ready,
  input  logic [PW-1:0]      in_acc,
  input  logic [2:0]         in_m,           // padded rows of the window (kh - nr)
  // output slice
  output logic               out_valid,
  input  logic               out_ready,
  output logic [16*TP-1:0]   out_data,
  output logic [CW-1:0]      out_nan
);
  wire is_avg = method == 2'd0;
  wire fmt16  = HAS_INT16 && fmt == 2'd1;
  wire fmtfp  = HAS_FP16 && fmt == 2'd2;

  function automatic logic [21:0] rnd(input logic [40:0] p, input int w);
    logic [24:0] i, r, keep;
    i    = p[40:16];
    keep = (25'd1 << w) - 25'd1;
    if (!p[40]) r = (i & (keep >> 1)) + 25'(p[15]);
    else        r = i + 25'(p[15:0] > 16'h8000);
    r = r & keep;
    if (r[w-1]) r = r | ~keep;
    rnd = r[21:0];
  endfunction

  // ---- pipeline control --------------------------------------------------------------
  logic s0_v, s1_v;
  wire  s1_ready = !s1_v || !out_valid || out_ready;
  wire  out_adv  = s1_v && (!out_valid || out_ready);
  wire  s0_ready = !s0_v || s1_ready;
  assign in_ready = s0_ready;
  wire  s0_adv = s0_v && s1_ready;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      s0_v      <= 1'b0;
      s1_v      <= 1'b0;
      out_valid <= 1'b0;
    end else begin
      if (s0_ready) s0_v <= in_valid;
      if (s1_ready) s1_v <= s0_v;
      if (!out_valid || out_ready) out_valid <= s1_v;
    end

  // ---- stage 0: height padding and the width reciprocal ---------------------------------
  logic [PW-1:0] s0_acc, s1_val;
  logic [2:0]    s0_m;
  always_ff @(posedge clk)
    if (in_valid && s0_ready) begin
      s0_acc <= in_acc;
      s0_m   <= in_m;
    end

  logic [18:0] pv_m;
  always_comb begin
    pv_m = '0;
    for (int n = 1; n <= 7; n++) if (s0_m == 3'(n)) pv_m = pad_values[(n-1)*19 +: 19];
  end
  wire [4:0] kw = {1'b0, kw_m1} + 5'd1;
  /* verilator lint_off UNUSEDSIGNAL */   // kept to 14 / 22 bits
  wire signed [23:0] hpad = $signed(pv_m) * $signed({1'b0, kw});   // 0 when m = 0
  /* verilator lint_on UNUSEDSIGNAL */

  logic [PW-1:0] a8, a16, afp;
  always_comb
    for (int i = 0; i < 2 * TP; i++) begin
      logic [13:0] t;
      t = s0_acc[14*i +: 14] + hpad[13:0];
      a8[14*i +: 14] = 14'(rnd(41'($signed(t)) * 41'($signed({1'b0, recip_w})), 11));
    end

  if (HAS_INT16) begin : g_a16
    always_comb
      for (int i = 0; i < TP; i++) begin
        logic [21:0] t;
        t = s0_acc[28*i +: 22] + hpad[21:0];
        a16[28*i +: 28] = {6'd0, rnd(41'($signed(t)) * 41'($signed({1'b0, recip_w})), 19)};
      end
  end else begin : g_no_a16
    assign a16 = '0;
  end

  if (HAS_FP16) begin : g_afp
    // kw as an exact fp17 integer (§1.8)
    logic [16:0] kw17, ph;
    always_comb
      case (kw_m1[2:0])
        3'd0: kw17 = 17'h07c00;
        3'd1: kw17 = 17'h08000;
        3'd2: kw17 = 17'h08200;
        3'd3: kw17 = 17'h08400;
        3'd4: kw17 = 17'h08500;
        3'd5: kw17 = 17'h08600;
        3'd6: kw17 = 17'h08700;
        default: kw17 = 17'h08800;
      endcase
    dla_fp_mul #(.E(6), .M(10)) u_ph (.a(pv_m[16:0]), .b(kw17), .y(ph));
    for (genvar i = 0; i < TP; i++) begin : g_lane
      logic [16:0] padded, t;
      dla_fp_add #(.E(6), .M(10)) u_pad (.a(s0_acc[28*i +: 17]), .b(ph), .y(padded));
      dla_fp_mul #(.E(6), .M(10)) u_rw  (.a(s0_m != '0 ? padded : s0_acc[28*i +: 17]), .b(recip_w), .y(t));
      assign afp[28*i +: 28] = {11'd0, t};
    end
  end else begin : g_no_afp
    assign afp = '0;
  end

  always_ff @(posedge clk)
    if (s0_adv) s1_val <= !is_avg ? s0_acc : fmt16 ? a16 : fmtfp ? afp : a8;

  // ---- stage 1: the height reciprocal and the output element ----------------------------
  logic [16*TP-1:0] o8, o16, ofp;
  logic [CW-1:0]    nan_fp;

  always_comb
    for (int i = 0; i < 2 * TP; i++)
      o8[8*i +: 8] = !is_avg ? s1_val[14*i +: 8]
                   : 8'(rnd(41'($signed(s1_val[14*i +: 11])) * 41'($signed({1'b0, recip_h})), 8));

  if (HAS_INT16) begin : g_o16
    always_comb
      for (int i = 0; i < TP; i++)
        o16[16*i +: 16] = !is_avg ? s1_val[28*i +: 16]
                        : 16'(rnd(41'($signed(s1_val[28*i +: 19])) * 41'($signed({1'b0, recip_h})), 16));
  end else begin : g_no_o16
    assign o16 = '0;
  end

  if (HAS_FP16) begin : g_ofp
    logic [TP-1:0] nan;
    for (genvar i = 0; i < TP; i++) begin : g_lane
      logic [16:0] u;
      logic [15:0] h;
      dla_fp_mul #(.E(6), .M(10))     u_rh (.a(s1_val[28*i +: 17]), .b(recip_h), .y(u));
      dla_fp_narrow #(.EI(6), .MI(10), .EO(5), .MO(10), .KEEP_DENORM(1'b1)) u_nr (.x(u), .y(h));
      assign ofp[16*i +: 16] = is_avg ? h : s1_val[28*i +: 16];
      assign nan[i] = ofp[16*i + 10 +: 5] == 5'd31 && ofp[16*i +: 10] != '0;
    end
    always_comb begin
      nan_fp = '0;
      for (int i = 0; i < TP; i++) nan_fp = nan_fp + CW'(nan[i]);
    end
  end else begin : g_no_ofp
    assign ofp = '0;
    assign nan_fp = '0;
  end

  always_ff @(posedge clk)
    if (out_adv) begin
      out_data <= fmt16 ? o16 : fmtfp ? ofp : o8;
      out_nan  <= fmtfp ? nan_fp : '0;
    end
endmodule
