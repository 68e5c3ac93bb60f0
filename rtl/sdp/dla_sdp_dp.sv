// SDP datapath: TP lanes (elements per cycle), each NaN flush -> BS -> BN -> EW (MUL, ALU,
// LUT) -> output converter (sdp.md §4.5-§9). Three register stages, all advancing together
// on `adv` (a stalled pipeline keeps its contents). `in_tag` travels with each slice.
// The LUT tables (LE 65 and LO 257 entries of 16 bits) come in flattened.
module dla_sdp_dp #(
  parameter int TP       = 16,
  parameter int TAG_BITS = 8,
  parameter bit HAS_FP   = 1'b1,
  parameter bit HAS_BS   = 1'b1,
  parameter bit HAS_BN   = 1'b1,
  parameter bit HAS_EW   = 1'b1,
  parameter bit HAS_LUT  = 1'b1,
  parameter bit SAT_RANGE = 1'b0
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic                 adv,
  input  logic                 in_valid,
  input  logic [TAG_BITS-1:0]  in_tag,
  input  logic [TP*32-1:0]     in_x,
  input  logic [TP*16-1:0]     in_bs_alu, in_bs_mul, in_bn_alu, in_bn_mul, in_ew_alu, in_ew_mul,
  // configuration (stable while a layer runs)
  input  logic                 fp,
  input  logic [1:0]           out_prec,
  input  logic                 nan_to_zero,
  input  logic                 bs_bypass, bs_alu_bypass, bs_mul_bypass, bs_mul_prelu, bs_relu_bypass,
  input  logic [1:0]           bs_alu_algo,
  input  logic                 bs_alu_src, bs_mul_src,
  input  logic [5:0]           bs_alu_shift, bs_mul_shift,
  input  logic [15:0]          bs_alu_reg, bs_mul_reg,
  input  logic                 bn_bypass, bn_alu_bypass, bn_mul_bypass, bn_mul_prelu, bn_relu_bypass,
  input  logic [1:0]           bn_alu_algo,
  input  logic                 bn_alu_src, bn_mul_src,
  input  logic [5:0]           bn_alu_shift, bn_mul_shift,
  input  logic [15:0]          bn_alu_reg, bn_mul_reg,
  input  logic                 ew_bypass, ew_alu_bypass, ew_mul_bypass, ew_mul_prelu, ew_lut_bypass,
  input  logic [1:0]           ew_alu_algo,
  input  logic                 ew_alu_src, ew_alu_cvt_bypass, ew_mul_src, ew_mul_cvt_bypass,
  input  logic [31:0]          ew_alu_reg, ew_alu_cvt_offset, ew_mul_reg, ew_mul_cvt_offset,
  input  logic [15:0]          ew_alu_cvt_scale, ew_mul_cvt_scale,
  input  logic [5:0]           ew_alu_cvt_truncate, ew_mul_cvt_truncate,
  input  logic [9:0]           ew_truncate,
  input  logic [31:0]          cvt_offset,
  input  logic [15:0]          cvt_scale,
  input  logic [5:0]           cvt_shift,
  input  logic                 lut_le_linear, lut_uflow_pri, lut_oflow_pri, lut_hybrid_pri,
  input  logic [7:0]           lut_le_off, lut_le_sel, lut_lo_sel,
  input  logic [31:0]          lut_le_start, lut_le_end, lut_lo_start, lut_lo_end,
  input  logic [15:0]          lut_le_uscale, lut_le_oscale, lut_lo_uscale, lut_lo_oscale,
  input  logic [4:0]           lut_le_ushift, lut_le_oshift, lut_lo_ushift, lut_lo_oshift,
  input  logic [65*16-1:0]     lut_le,
  input  logic [257*16-1:0]    lut_lo,
  // results
  output logic                 out_valid,
  output logic [TAG_BITS-1:0]  out_tag,
  output logic [TP*16-1:0]     out_o,
  output logic [TP-1:0]        out_sat,        // saturation-counter increment
  output logic [TP-1:0]        out_nan,        // fp16 NaN output
  output logic [TP-1:0]        out_nonzero,    // C-stage output != 0 (EQL status)
  output logic [TP-1:0]        out_lut_u, out_lut_o, out_lut_h, out_lut_le_hit, out_lut_lo_hit,
  output logic                 out_lut_used    // the slice went through the LUT
);
  wire eql     = HAS_EW && !ew_bypass && !ew_alu_bypass && ew_alu_algo == 2'd3;
  wire lut_on  = HAS_EW && HAS_LUT && !ew_bypass && !ew_lut_bypass;

  // ---- stage 0: input register ----
  logic                v0, v1, v2, v3;
  logic [TAG_BITS-1:0] tag0, tag1, tag2, tag3;
  logic [TP*32-1:0]    x0;
  logic [TP*16-1:0]    bsa0, bsm0, bna0, bnm0, ewa0, ewm0, ewa1, ewm1;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      v0 <= 1'b0; v1 <= 1'b0; v2 <= 1'b0; v3 <= 1'b0;
    end else if (adv) begin
      v0 <= in_valid; v1 <= v0; v2 <= v1; v3 <= v2;
    end
  always_ff @(posedge clk)
    if (adv) begin
      tag0 <= in_tag; tag1 <= tag0; tag2 <= tag1; tag3 <= tag2;
      x0 <= in_x;
      bsa0 <= in_bs_alu; bsm0 <= in_bs_mul; bna0 <= in_bn_alu; bnm0 <= in_bn_mul;
      ewa0 <= in_ew_alu; ewm0 <= in_ew_mul;
      ewa1 <= ewa0; ewm1 <= ewm0;
    end
  assign out_valid = v3;
  assign out_tag   = tag3;

  for (genvar l = 0; l < TP; l++) begin : g_lane
    // ---- stage 1: NaN flush, BS, BN ----
    logic [31:0] xin, bs_y, bn_y, x1;
    assign xin = (HAS_FP && fp && nan_to_zero && x0[l*32+23 +: 8] == 8'hff && x0[l*32 +: 23] != '0)
               ? 32'd0 : x0[l*32 +: 32];
    if (HAS_BS) begin : g_bs
      dla_sdp_x #(.HAS_FP(HAS_FP)) u_bs (
        .fp, .nan_to_zero, .bypass(bs_bypass), .alu_bypass(bs_alu_bypass), .alu_algo(bs_alu_algo),
        .alu_shift(bs_alu_shift), .alu_op(bs_alu_src ? bsa0[l*16 +: 16] : bs_alu_reg),
        .mul_bypass(bs_mul_bypass), .mul_prelu(bs_mul_prelu), .mul_shift(bs_mul_shift),
        .mul_op(bs_mul_src ? bsm0[l*16 +: 16] : bs_mul_reg), .relu_bypass(bs_relu_bypass),
        .x(xin), .y(bs_y));
    end else begin : g_nobs
      assign bs_y = xin;
    end
    if (HAS_BN) begin : g_bn
      dla_sdp_x #(.HAS_FP(HAS_FP)) u_bn (
        .fp, .nan_to_zero, .bypass(bn_bypass), .alu_bypass(bn_alu_bypass), .alu_algo(bn_alu_algo),
        .alu_shift(bn_alu_shift), .alu_op(bn_alu_src ? bna0[l*16 +: 16] : bn_alu_reg),
        .mul_bypass(bn_mul_bypass), .mul_prelu(bn_mul_prelu), .mul_shift(bn_mul_shift),
        .mul_op(bn_mul_src ? bnm0[l*16 +: 16] : bn_mul_reg), .relu_bypass(bn_relu_bypass),
        .x(bs_y), .y(bn_y));
    end else begin : g_nobn
      assign bn_y = bs_y;
    end
    always_ff @(posedge clk) if (adv) x1 <= bn_y;

    // ---- stage 2: EW MUL/ALU, LUT index ----
    logic [31:0] ew_y, x2, ew_in2;
    logic [1:0]  le_cls, lo_cls, cls, cls2, le_cls2, lo_cls2;
    logic [8:0]  le_idx, lo_idx, idx, idx2;
    logic [34:0] le_frac, lo_frac, frac, frac2;
    logic        sel_lo, sel_lo2;
    if (HAS_EW) begin : g_ew
      dla_sdp_ew #(.HAS_FP(HAS_FP)) u_ew (
        .fp, .nan_to_zero, .alu_bypass(ew_alu_bypass), .alu_algo(ew_alu_algo),
        .alu_src(ew_alu_src), .alu_cvt_bypass(ew_alu_cvt_bypass), .alu_reg(ew_alu_reg),
        .alu_cvt_offset(ew_alu_cvt_offset), .alu_cvt_scale(ew_alu_cvt_scale),
        .alu_cvt_truncate(ew_alu_cvt_truncate), .alu_mem(ewa1[l*16 +: 16]),
        .mul_bypass(ew_mul_bypass), .mul_prelu(ew_mul_prelu), .mul_src(ew_mul_src),
        .mul_cvt_bypass(ew_mul_cvt_bypass), .mul_reg(ew_mul_reg),
        .mul_cvt_offset(ew_mul_cvt_offset), .mul_cvt_scale(ew_mul_cvt_scale),
        .mul_cvt_truncate(ew_mul_cvt_truncate), .mul_mem(ewm1[l*16 +: 16]),
        .truncate(ew_truncate), .x(x1), .y(ew_y));
    end else begin : g_noew
      assign ew_y = x1;
      // no EW stage (nv_small): its settings and operand streams go nowhere
      wire unused_ew = &{1'b0, ew_alu_bypass, ew_alu_src, ew_alu_cvt_bypass, ew_alu_reg, ew_alu_cvt_offset,
                         ew_alu_cvt_scale, ew_alu_cvt_truncate, ew_mul_bypass, ew_mul_prelu, ew_mul_src,
                         ew_mul_cvt_bypass, ew_mul_reg, ew_mul_cvt_offset, ew_mul_cvt_scale, ew_mul_cvt_truncate,
                         ew_truncate, ewa1, ewm1};
    end
    if (HAS_EW && HAS_LUT) begin : g_lutidx
      dla_lut_table_index #(.DW(32), .LAST(64), .EXP_CAPABLE(1'b1), .HAS_FP(HAS_FP)) u_le (
        .fp, .exp_mode(!lut_le_linear), .x(ew_y), .start(lut_le_start), .sel(lut_le_sel),
        .off(lut_le_off), .cls(le_cls), .idx(le_idx), .frac(le_frac));
      dla_lut_table_index #(.DW(32), .LAST(256), .EXP_CAPABLE(1'b0), .HAS_FP(HAS_FP)) u_lo (
        .fp, .exp_mode(1'b0), .x(ew_y), .start(lut_lo_start), .sel(lut_lo_sel),
        .off(8'd0), .cls(lo_cls), .idx(lo_idx), .frac(lo_frac));
      dla_lut_select u_sel (
        .le_cls, .le_idx, .le_frac, .lo_cls, .lo_idx, .lo_frac,
        .uflow_pri(lut_uflow_pri), .oflow_pri(lut_oflow_pri), .hybrid_pri(lut_hybrid_pri),
        .sel_lo, .cls, .idx, .frac);
    end else begin : g_nolutidx
      assign {le_cls, lo_cls, cls, le_idx, lo_idx, idx, le_frac, lo_frac, frac, sel_lo} = '0;
    end
    always_ff @(posedge clk)
      if (adv) begin
        x2 <= ew_y;           // LUT input
        ew_in2 <= x1;         // EW bypass value
        cls2 <= cls; le_cls2 <= le_cls; lo_cls2 <= lo_cls;
        idx2 <= idx; frac2 <= frac; sel_lo2 <= sel_lo;
      end

    // ---- stage 3: LUT output, output converter ----
    logic [31:0] lut_y, z;
    logic [15:0] y0, y1, o;
    logic        sat, nan, o_sat, o_nan;
    if (HAS_EW && HAS_LUT) begin : g_lut
      always_comb begin
        if (sel_lo2) begin
          y0 = lut_lo[idx2*16 +: 16];
          y1 = (idx2 == 9'd256) ? 16'd0 : lut_lo[(idx2 + 9'd1)*16 +: 16];
        end else begin
          y0 = (idx2 > 9'd64) ? 16'd0 : lut_le[idx2[6:0]*16 +: 16];
          y1 = (idx2 >= 9'd64) ? 16'd0 : lut_le[(idx2[6:0] + 7'd1)*16 +: 16];
        end
      end
      dla_lut_interp #(.DW(32), .HAS_FP(HAS_FP)) u_interp (
        .fp, .sel_lo(sel_lo2), .cls(cls2), .frac(frac2), .x(x2), .y0, .y1,
        .le_exp(!lut_le_linear), .le_off(lut_le_off),
        .le_start(lut_le_start), .le_end(lut_le_end), .lo_start(lut_lo_start), .lo_end(lut_lo_end),
        .le_uflow_scale(lut_le_uscale), .le_oflow_scale(lut_le_oscale),
        .le_uflow_shift(lut_le_ushift), .le_oflow_shift(lut_le_oshift),
        .lo_uflow_scale(lut_lo_uscale), .lo_oflow_scale(lut_lo_oscale),
        .lo_uflow_shift(lut_lo_ushift), .lo_oflow_shift(lut_lo_oshift), .y(lut_y));
    end else begin : g_nolut
      assign {y0, y1} = '0;
      assign lut_y = x2;
      // no LUT (nv_small): its settings, tables and index pipeline go nowhere
      wire unused_lut = &{1'b0, y0, y1, idx2, frac2, sel_lo2, le_idx, lo_idx, le_frac, lo_frac, lut_le, lut_lo,
                          lut_le_linear, lut_le_start, lut_le_end, lut_le_sel, lut_le_off, lut_lo_start, lut_lo_end,
                          lut_lo_sel, lut_le_uscale, lut_le_oscale, lut_le_ushift, lut_le_oshift, lut_lo_uscale,
                          lut_lo_oscale, lut_lo_ushift, lut_lo_oshift, lut_uflow_pri, lut_oflow_pri, lut_hybrid_pri};
    end
    assign z = !HAS_EW ? ew_in2 : (ew_bypass ? ew_in2 : (lut_on ? lut_y : x2));
    dla_sdp_cvt #(.HAS_FP(HAS_FP), .SAT_RANGE(SAT_RANGE)) u_cvt (
      .fp, .out_prec, .eql, .offset(cvt_offset), .scale(cvt_scale), .shift(cvt_shift), .z,
      .o, .sat_cnt(sat), .nan_out(nan));
    logic [1:0] c3, le3, lo3;
    always_ff @(posedge clk)
      if (adv) begin
        out_o[l*16 +: 16] <= o;
        o_sat <= sat;
        o_nan <= nan;
        c3 <= cls2; le3 <= le_cls2; lo3 <= lo_cls2;
      end
    assign out_sat[l]        = o_sat;
    assign out_nan[l]        = o_nan;
    assign out_nonzero[l]    = out_o[l*16 +: 16] != '0;
    assign out_lut_u[l]      = c3 == 2'd0;
    assign out_lut_o[l]      = c3 == 2'd1;
    assign out_lut_h[l]      = c3 == 2'd2;
    assign out_lut_le_hit[l] = le3 == 2'd2;
    assign out_lut_lo_hit[l] = lo3 == 2'd2;
  end
  assign out_lut_used = lut_on;
endmodule
