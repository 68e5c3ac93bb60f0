// One CMAC cell in fp16 mode (docs/conv-rtl.md "fp16"): the block-floating-point dot product of
// AC weight and data lanes, registered when `en` is high.
//
// Every operand is re-encoded as m * 2^(4g - 25) (g = exponent / 4, m < 2^14; an infinity is
// the finite 2^16, a subnormal keeps its exponent 1). Lanes whose weight or data is +-0 are
// inactive. All active products are aligned to the largest g_w + g_d (Emax) by the radix-4
// Booth multiplier's own truncation: each of its two carry-save words is shifted right by
// q = 4 (Emax - g_w - g_d) before they are added with a compensation constant, so the sum is
// bit exact only with that row structure (a plain product shifted right differs by one now
// and then). The cell's result is the exponent X = 4 Emax and the 38-bit mantissa sum; the first
// NaN in scan order (weights, then data) replaces it by the NaN code (X = 63).
// Winograd: one Emax over all 64 lanes, the products summed per position (4 lanes), and the
// output transform Y = A^T Q A on the mantissas, all four outputs with the same X.
module dla_cmac_fp16 #(
  parameter int AC = 64,
  parameter int PW = 38                      // mantissa width (38: the CACC input)
) (
  input  logic            clk,
  input  logic            en,
  input  logic            wino,
  input  logic [AC*16-1:0] w,
  input  logic [AC*16-1:0] d,
  output logic [5:0]      x,
  output logic [4*PW-1:0] y                  // output o at [o*PW +: PW]; direct: o = 0
);
  // The two carry-save words {F1, F0} of (-1)^sgn * a * b (a the multiplier), before the
  // final addition: eight Booth digits, ten rows, a tree of 3:2 compressors.
  function automatic logic [63:0] booth_cs(input logic sgn, input logic [13:0] a,
                                           input logic [13:0] b);
    logic [16:0]  a2;
    logic [2:0]   t;
    logic [255:0] pp;
    logic [7:0]   n;
    logic [319:0] r;
    logic [31:0]  s1, c1, s2, c2, a0, a1, b0, b1, s3, c3, f0, f1;
    a2 = {2'b00, a, 1'b0};
    for (int i = 0; i < 8; i++) begin
      t = a2[2*i +: 3] ^ {3{sgn}};
      case (t)
        3'd1, 3'd2: begin pp[i*32 +: 32] = 32'h1_0000 + 32'(b);          n[i] = 1'b0; end
        3'd3:       begin pp[i*32 +: 32] = 32'h1_0000 + 32'({b, 1'b0});  n[i] = 1'b0; end
        3'd4:       begin pp[i*32 +: 32] = {16'd0, ~{1'b0, b, 1'b0}};    n[i] = 1'b1; end
        3'd5, 3'd6: begin pp[i*32 +: 32] = {16'd0, ~{2'b00, b}};         n[i] = 1'b1; end
        default:    begin pp[i*32 +: 32] = 32'h1_0000;                   n[i] = 1'b0; end
      endcase
    end
    r[0*32 +: 32] = pp[0*32 +: 32];
    r[1*32 +: 32] = (pp[1*32 +: 32] << 2) + 32'(n[0]);
    r[2*32 +: 32] = (pp[2*32 +: 32] << 4) + (32'(n[1]) << 2);
    r[3*32 +: 32] = (pp[3*32 +: 32] << 6) + (32'(n[2]) << 4);
    r[4*32 +: 32] = 32'(n[3]) << 6;
    r[5*32 +: 32] = pp[4*32 +: 32] << 8;
    r[6*32 +: 32] = (pp[5*32 +: 32] << 10) + (32'(n[4]) << 8);
    r[7*32 +: 32] = (pp[6*32 +: 32] << 12) + (32'(n[5]) << 10);
    r[8*32 +: 32] = (pp[7*32 +: 32] << 14) + (32'(n[6]) << 12);
    r[9*32 +: 32] = 32'(n[7]) << 14;
    s1 = r[0*32 +: 32] ^ r[1*32 +: 32] ^ r[2*32 +: 32];
    c1 = ((r[0*32 +: 32] & r[1*32 +: 32]) | (r[0*32 +: 32] & r[2*32 +: 32]) | (r[1*32 +: 32] & r[2*32 +: 32])) << 1;
    s2 = s1 ^ c1 ^ r[3*32 +: 32];
    c2 = ((s1 & c1) | (s1 & r[3*32 +: 32]) | (c1 & r[3*32 +: 32])) << 1;
    a0 = s2 ^ c2 ^ r[4*32 +: 32];
    a1 = ((s2 & c2) | (s2 & r[4*32 +: 32]) | (c2 & r[4*32 +: 32])) << 1;
    s1 = r[5*32 +: 32] ^ r[6*32 +: 32] ^ r[7*32 +: 32];
    c1 = ((r[5*32 +: 32] & r[6*32 +: 32]) | (r[5*32 +: 32] & r[7*32 +: 32]) | (r[6*32 +: 32] & r[7*32 +: 32])) << 1;
    s2 = s1 ^ c1 ^ r[8*32 +: 32];
    c2 = ((s1 & c1) | (s1 & r[8*32 +: 32]) | (c1 & r[8*32 +: 32])) << 1;
    b0 = s2 ^ c2 ^ r[9*32 +: 32];
    b1 = ((s2 & c2) | (s2 & r[9*32 +: 32]) | (c2 & r[9*32 +: 32])) << 1;
    s3 = a0 ^ a1 ^ b0;
    c3 = ((a0 & a1) | (a0 & b0) | (a1 & b0)) << 1;
    f0 = s3 ^ c3 ^ b1;
    f1 = ((s3 & c3) | (s3 & b1) | (c3 & b1)) << 1;
    booth_cs = {f1, f0};
  endfunction

  // The aligned product: both carry-save words shifted right by q, added, compensated.
  function automatic logic [31:0] booth_trunc(input logic sgn, input logic [13:0] a,
                                              input logic [13:0] b, input logic [5:0] q);
    logic [63:0] f;
    f = booth_cs(sgn, a, b);
    if (q >= 6'd32) booth_trunc = '0;
    else booth_trunc = (f[31:0] >> q) + (f[63:32] >> q) + (32'd0 - (32'h5555_0000 >> q));
  endfunction

  // operand decode: mantissa m = ((e != 0) * 1024 + f) << h, h = 1 if e == 0 else e mod 4
  function automatic logic [13:0] mant(input logic [14:0] v);
    if (v[14:10] == 5'd0) mant = {3'd0, v[9:0], 1'b0};
    else mant = 14'({1'b1, v[9:0]}) << v[11:10];
  endfunction

  function automatic logic is_nan(input logic [14:0] v);
    is_nan = v[14:10] == 5'h1f && v[9:0] != '0;
  endfunction

  if (PW != 38) begin : g_pw_check
    $error("dla_cmac_fp16: the fp16 mantissa is 38 bits (PW = %0d)", PW);
  end

  always_ff @(posedge clk)
    if (en) begin : b_cell
      logic [AC-1:0]    act;
      logic [3:0]       emax;
      logic [AC*32-1:0] p;
      logic             nan_hit;
      logic [10:0]      nan_v;                 // sign and fraction of the first NaN
      logic [PW-1:0]    m_all;
      logic [16*PW-1:0] q;
      logic [8*PW-1:0]  rr;
      logic [4*PW-1:0]  yw;
      // first NaN in scan order: scanned backwards so the earliest one is written last
      nan_hit = 1'b0;
      nan_v   = '0;
      for (int i = AC - 1; i >= 0; i--)
        if (is_nan(d[i*16 +: 15])) begin nan_hit = 1'b1; nan_v = {d[i*16+15], d[i*16 +: 10]}; end
      for (int i = AC - 1; i >= 0; i--)
        if (is_nan(w[i*16 +: 15])) begin nan_hit = 1'b1; nan_v = {w[i*16+15], w[i*16 +: 10]}; end
      emax = '0;
      for (int i = 0; i < AC; i++) begin
        act[i] = w[i*16 +: 15] != '0 && d[i*16 +: 15] != '0;
        if (act[i] && 4'(w[i*16+12 +: 3]) + 4'(d[i*16+12 +: 3]) > emax)
          emax = 4'(w[i*16+12 +: 3]) + 4'(d[i*16+12 +: 3]);
      end
      m_all = '0;
      for (int i = 0; i < AC; i++) begin
        p[i*32 +: 32] = !act[i] ? 32'd0 :
            booth_trunc(w[i*16+15] ^ d[i*16+15], mant(w[i*16 +: 15]), mant(d[i*16 +: 15]),
                        {emax - 4'(w[i*16+12 +: 3]) - 4'(d[i*16+12 +: 3]), 2'b00});
        m_all = m_all + PW'($signed(p[i*32 +: 32]));
      end
      for (int s = 0; s < AC / 4; s++)
        q[s*PW +: PW] = PW'($signed(p[(4*s)*32 +: 32])) + PW'($signed(p[(4*s+1)*32 +: 32])) +
                        PW'($signed(p[(4*s+2)*32 +: 32])) + PW'($signed(p[(4*s+3)*32 +: 32]));
      for (int c = 0; c < 4; c++) begin
        rr[c*PW +: PW]       = q[c*PW +: PW] + q[(4 + c)*PW +: PW] + q[(8 + c)*PW +: PW];
        rr[(4 + c)*PW +: PW] = q[(4 + c)*PW +: PW] - q[(8 + c)*PW +: PW] - q[(12 + c)*PW +: PW];
      end
      for (int i = 0; i < 2; i++) begin
        yw[(2*i)*PW +: PW]     = rr[(4*i)*PW +: PW] + rr[(4*i + 1)*PW +: PW] + rr[(4*i + 2)*PW +: PW];
        yw[(2*i + 1)*PW +: PW] = rr[(4*i + 1)*PW +: PW] - rr[(4*i + 2)*PW +: PW] - rr[(4*i + 3)*PW +: PW];
      end
      if (nan_hit) begin
        x <= 6'd63;
        y <= {4{PW'({nan_v, 27'd0})}};
      end else begin
        x <= {emax, 2'b00};
        y <= wino ? yw : {{3*PW{1'b0}}, m_all};
      end
    end
endmodule
