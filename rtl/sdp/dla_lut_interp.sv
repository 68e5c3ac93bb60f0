// LUT output for one element (sdp.md §8.4, §8.5): interpolation between y0 = T[I] and
// y1 = T[I+1] on a hit, linear extrapolation from the chosen table's anchor on under/overflow.
// Reusable by CDP: DW is the integer data width (32 for SDP); float mode needs DW = 32.
// HIT_Q16 = 1 selects CDP's integer hit rule (pdp_cdp_bdma_rubik_glb.md §2.7):
// y0 + rha((y1 - y0) * frac16, 16) with frac16 = frac[34:19].
module dla_lut_interp #(
  parameter int DW      = 32,
  parameter bit HAS_FP  = 1'b1,
  parameter bit HIT_Q16 = 1'b0
) (
  input  logic          fp,
  input  logic          sel_lo,
  input  logic [1:0]    cls,          // 0 underflow, 1 overflow, 2 hit
  input  logic [34:0]   frac,
  input  logic [DW-1:0] x,
  input  logic [15:0]   y0,
  input  logic [15:0]   y1,
  input  logic          le_exp,       // LE in EXPONENT mode
  input  logic [7:0]    le_off,       // LE_INDEX_OFFSET (signed)
  input  logic [DW-1:0] le_start,
  input  logic [DW-1:0] le_end,
  input  logic [DW-1:0] lo_start,
  input  logic [DW-1:0] lo_end,
  input  logic [15:0]   le_uflow_scale,
  input  logic [15:0]   le_oflow_scale,
  input  logic [4:0]    le_uflow_shift,
  input  logic [4:0]    le_oflow_shift,
  input  logic [15:0]   lo_uflow_scale,
  input  logic [15:0]   lo_oflow_scale,
  input  logic [4:0]    lo_uflow_shift,
  input  logic [4:0]    lo_oflow_shift,
  output logic [DW-1:0] y
);
  localparam int PW = DW + 18;          // (X - (P + bias)) * K
  localparam logic signed [DW:0] SMAX = $signed({2'b00, {(DW-1){1'b1}}});
  localparam logic signed [DW:0] SMIN = $signed({2'b11, {(DW-1){1'b0}}});
  logic          ovf, biased;
  logic [DW-1:0] p;
  logic [15:0]   k;
  logic [4:0]    t;
  integer            off;

  always_comb begin
    ovf    = (cls == 2'd1);
    p      = sel_lo ? (ovf ? lo_end : lo_start) : (ovf ? le_end : le_start);
    k      = sel_lo ? (ovf ? lo_oflow_scale : lo_uflow_scale) : (ovf ? le_oflow_scale : le_uflow_scale);
    t      = sel_lo ? (ovf ? lo_oflow_shift : lo_uflow_shift) : (ovf ? le_oflow_shift : le_uflow_shift);
    off    = 32'($signed(le_off));
    biased = !sel_lo && le_exp && cls == 2'd0;
  end

  // ---- integer ----
  logic signed [53:0]   hsum;
  logic signed [DW-1:0] hit_i, shr, shl, unused_fq0, unused_fq1;
  logic signed [DW+1:0] pb, dx;
  logic signed [PW-1:0] prod;
  logic [DW-1:0]        y_int;
  always_comb begin
    hsum = 54'($signed(y0)) * 54'(64'h8_0000_0000 - 64'(frac)) + 54'($signed(y1)) * 54'(frac);
    pb   = (DW+2)'($signed(p)) +
           ((biased && off >= 0 && off <= DW - 1) ? ((DW+2)'(1) << off) : '0);
    dx   = (DW+2)'($signed(x)) - pb;
    prod = PW'(dx) * PW'($signed(k));
  end
  if (HIT_Q16) begin : g_hit16
    logic signed [16:0]   dy;
    logic signed [33:0]   dq;
    logic signed [17:0]   t16, unused_fq16;     // |t16| < 2^17 (no saturation)
    wire unused_hsum = &{1'b0, hsum};
    assign dy = 17'($signed(y1)) - 17'($signed(y0));
    assign dq = 34'(dy) * 34'({1'b0, frac[34:19]});
    dla_sdp_rsh #(.IW(34), .OW(18), .SW(5), .FW(18)) u_hit (
      .v(dq), .s(5'd16), .y(t16), .floor_q(unused_fq16));
    assign hit_i = DW'($signed(y0)) + DW'(t16);
    assign unused_fq0 = '0;
  end else begin : g_hit35
    dla_sdp_rsh #(.IW(54), .OW(DW), .SW(6), .FW(DW)) u_hit (
      .v(hsum), .s(6'd35), .y(hit_i), .floor_q(unused_fq0));
  end
  dla_sdp_rsh #(.IW(PW), .OW(DW), .SW(5), .FW(DW)) u_shr (
    .v(prod), .s(t), .y(shr), .floor_q(unused_fq1));
  dla_sdp_lsh #(.IW(PW), .OW(DW), .SW(5)) u_shl (.v(prod), .s(5'(-$signed(t))), .y(shl));
  always_comb begin
    logic signed [DW:0] sum;
    sum = (DW+1)'($signed(y0)) + (t[4] ? (DW+1)'(shl) : (DW+1)'(shr));
    if (cls == 2'd2) y_int = hit_i;
    else if (sum > SMAX) y_int = {1'b0, {(DW-1){1'b1}}};
    else if (sum < SMIN) y_int = {1'b1, {(DW-1){1'b0}}};
    else                                                    y_int = sum[DW-1:0];
  end

  // ---- float (fp32 data, fp17 interpolation) ----
  logic [DW-1:0] y_fp;
  if (HAS_FP) begin : g_fp
    logic [16:0] a0, a1, a1r, y0w, y1w, kw, dx17, m0, m1, m1a, m1b, s0a, s0b, sum17;
    logic [31:0] biasf, pbf, dxf, yw;
    logic [34:0] nfrac;
    assign nfrac = 35'(36'h8_0000_0000 - 36'(frac));
    dla_lut_frac_fp17 u_a0 (.f(nfrac), .y(a1r));
    dla_lut_frac_fp17 u_a1 (.f(frac), .y(a1));
    assign a0 = (frac == '0) ? 17'h07c00 : a1r;
    dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_w0 (.x(y0), .y(y0w));
    dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_w1 (.x(y1), .y(y1w));
    dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_wk (.x(k), .y(kw));
    assign biasf = biased ? {1'b0, 8'(off + 127), 23'd0} : 32'd0;
    dla_fp_add #(.E(8), .M(23)) u_pb (.a(p[31:0]), .b(biasf), .y(pbf));
    dla_fp_add #(.E(8), .M(23)) u_dx (.a(x[31:0]), .b({~pbf[31], pbf[30:0]}), .y(dxf));
    dla_fp_narrow #(.EI(8), .MI(23), .EO(6), .MO(10), .KEEP_DENORM(1'b0)) u_n17 (.x(dxf), .y(dx17));
    // hit: m0 = a0*y0, m1 = a1*y1, out = m0 + m1; flow: m1 = dx*K, out = y0 + m1
    dla_fp_mul #(.E(6), .M(10)) u_m0 (.a(a0), .b(y0w), .y(m0));
    assign m1a = (cls == 2'd2) ? a1 : dx17;
    assign m1b = (cls == 2'd2) ? y1w : kw;
    dla_fp_mul #(.E(6), .M(10)) u_m1 (.a(m1a), .b(m1b), .y(m1));
    assign s0a = (cls == 2'd2) ? m0 : y0w;
    assign s0b = m1;
    dla_fp_add #(.E(6), .M(10)) u_s (.a(s0a), .b(s0b), .y(sum17));
    dla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b0)) u_wo (.x(sum17), .y(yw));
    assign y_fp = DW'(yw);
    if (DW > 32) begin : g_unused
      wire unused_hi = &{1'b0, x[DW-1:32], p[DW-1:32]};
    end
  end else begin : g_nofp
    assign y_fp = '0;
  end

  assign y = (HAS_FP && fp) ? y_fp : y_int;
endmodule
