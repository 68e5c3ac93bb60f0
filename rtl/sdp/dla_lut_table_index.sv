// Index, fraction and class of one LUT table for one element (sdp.md §8.2). Reusable by CDP:
// DW is the integer data width (32 for SDP). Classes: 0 underflow, 1 overflow, 2 hit.
// LAST is Depth-1 (64 for LE, 256 for LO). Exponent mode only when EXP_CAPABLE.
// In float mode (HAS_FP, fp = 1; DW must be 32) X and START are fp32 and D = FSUB(X, START).
module dla_lut_table_index #(
  parameter int DW          = 32,
  parameter int LAST        = 64,
  parameter bit EXP_CAPABLE = 1'b1,
  parameter bit HAS_FP      = 1'b1
) (
  input  logic          fp,
  input  logic          exp_mode,     // LE function EXPONENT (ignored unless EXP_CAPABLE)
  input  logic [DW-1:0] x,
  input  logic [DW-1:0] start,
  input  logic [7:0]    sel,          // INDEX_SELECT (signed)
  input  logic [7:0]    off,          // LE_INDEX_OFFSET (signed)
  output logic [1:0]    cls,
  output logic [8:0]    idx,
  output logic [34:0]   frac
);
  localparam logic [1:0] U = 2'd0, O = 2'd1, H = 2'd2;
  localparam int XW = DW + 36;
  localparam logic [9:0] LASTI = 10'(LAST);

  // ---- integer ----
  logic [1:0]    cls_i;
  logic [8:0]    idx_i;
  logic [34:0]   frac_i;
  logic [DW-1:0] d;
  logic [XW-1:0] wide;
  integer            eb, s_sel, s_off, ii;
  logic [DW-1:0]     q;
  logic [XW-1:0]     qn;

  always_comb begin
    s_sel = 32'($signed(sel));
    s_off = 32'($signed(off));
    d     = x - start;
    eb    = 0;
    for (int i = 0; i < DW; i++) if (d[i]) eb = i;
    cls_i  = H;
    idx_i  = '0;
    frac_i = '0;
    wide   = '0;
    ii     = 0;
    q      = '0;
    qn     = '0;
    if ($signed(x) <= $signed(start)) begin
      cls_i = U;
    end else if (EXP_CAPABLE && exp_mode) begin
      if (eb < s_off) cls_i = U;
      else begin
        ii = eb - s_off;
        if (ii >= 64) begin
          cls_i = O;
          idx_i = 9'd64;
        end else begin
          idx_i = 9'(ii);
          wide  = (XW'(d) & ~(XW'(1) << eb)) << 35;
          frac_i = 35'(wide >> eb);
        end
      end
    end else begin
      if (s_sel >= 0) begin
        wide   = (s_sel >= DW) ? XW'(d) : (XW'(d) & ((XW'(1) << s_sel) - 1'b1));
        wide   = (wide << 35) >> s_sel;
        frac_i = 35'(wide);
        q      = (s_sel >= DW) ? '0 : (d >> s_sel);
        ii     = (q > DW'(511)) ? 511 : $signed(32'(q[8:0]));
      end else begin
        qn = XW'(d) << (-s_sel);
        ii = (-s_sel >= 9 || qn > XW'(511)) ? 511 : $signed(32'(qn[8:0]));
      end
      if (ii >= LAST) begin
        cls_i  = O;
        idx_i  = LASTI[8:0];
        frac_i = '0;
      end else idx_i = 9'(ii);
    end
  end

  // ---- float ----
  logic [1:0]  cls_f;
  logic [8:0]  idx_f;
  logic [34:0] frac_f;
  if (HAS_FP) begin : g_fp
    logic [31:0] df;
    logic [59:0] sw;
    wire unused_sw = &{1'b0, sw[59:35]};
    integer          e, sh, n, fi;
    dla_fp_add #(.E(8), .M(23)) u_sub (.a(x[31:0]), .b({~start[31], start[30:0]}), .y(df));
    always_comb begin
      e      = $signed(32'(df[30:23])) - 127;
      cls_f  = H;
      idx_f  = '0;
      frac_f = '0;
      sh     = 0;
      n      = 0;
      fi     = 0;
      sw     = '0;
      if (df[31] || df[30:0] == '0 || (df[30:23] == 8'hff && df[22:0] != '0)) begin
        cls_f = U;
      end else if (EXP_CAPABLE && exp_mode) begin
        if (e < s_off) cls_f = U;
        else if (e - s_off >= 64) begin
          cls_f = O;
          idx_f = 9'd64;
        end else begin
          idx_f  = 9'(e - s_off);
          frac_f = {df[22:0], 12'd0};
        end
      end else begin
        sh = e - s_sel;
        if (sh >= 9) fi = 511;
        else begin
          n  = 23 - sh;
          fi = (n >= 24) ? 0 : $signed(32'({1'b1, df[22:0]}) >> n);
          sw = (n >= 60) ? 60'd0 : ((60'({1'b1, df[22:0]}) & ((60'(1) << n) - 1'b1)) << 35) >> n;
          frac_f = (n >= 60) ? 35'd0 : sw[34:0];
        end
        if (fi >= LAST) begin
          cls_f  = O;
          idx_f  = LASTI[8:0];
          frac_f = '0;
        end else idx_f = 9'(fi);
      end
    end
  end else begin : g_nofp
    assign cls_f = U;
    assign idx_f = '0;
    assign frac_f = '0;
  end

  assign cls  = (HAS_FP && fp) ? cls_f : cls_i;
  assign idx  = (HAS_FP && fp) ? idx_f : idx_i;
  assign frac = (HAS_FP && fp) ? frac_f : frac_i;
endmodule
