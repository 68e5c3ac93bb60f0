// Winograd input transform (CSC's PRA, docs/conv-rtl.md) of one operation's 64 lanes: lane
// 4 p + c holds channel c of the 4x4 window at position p = row * 4 + column. Per channel
// V = B^T d B, rows first (d0 - d2, d1 + d2, d2 - d1, d1 - d3), then the same on the columns,
// exactly; then each V is rounded right by PRA_TRUNCATE bits (half away from zero) and
// saturated to the element (8 or 16 bits), sign-extended to the lane width. fp16 (`fp`): the
// same operations in the PRA's 17-bit float (dla_conv_fp_pkg), then narrowed to fp16;
// PRA_TRUNCATE is ignored. (The float path is computed only when `fp` is set, so an integer
// layer costs the simulator nothing for it.)
module dla_conv_wino_pra #(
  parameter int LW = 16                        // lane width (int8 lanes arrive sign-extended)
) (
  input  logic [64*LW-1:0] d,
  input  logic             es2,                // 16-bit elements
  input  logic             fp,                 // fp16 elements (LW = 16)
  input  logic [1:0]       truncate,
  output logic [64*LW-1:0] v
);
  function automatic logic signed [19:0] rnd(input logic signed [19:0] x, input logic [1:0] t);
    logic guard, sticky;
    if (t == 2'd0) rnd = x;
    else begin
      guard  = x[32'(t) - 1];
      sticky = t == 2'd2 && x[0];
      // (both operands signed: an unsigned one would make the shift a logical one)
      rnd    = (x >>> t) + ((guard && (!x[19] || sticky)) ? 20'sd1 : 20'sd0);
    end
  endfunction

  // 20-bit two's complement (18 bits needed), position p at [p*20 +: 20]
  for (genvar c = 0; c < 4; c++) begin : g_ch
    logic [16*20-1:0] e, m, w, r;
    logic [16*17-1:0] f, g;                    // fp16: the 17-bit float values
    logic [16*16-1:0] vf;
    always_comb begin
      for (int p = 0; p < 16; p++) e[p*20 +: 20] = 20'($signed(d[(4*p + c)*LW +: LW]));
      for (int col = 0; col < 4; col++) begin     // rows: M = B^T d
        m[(0*4 + col)*20 +: 20] = e[(0*4 + col)*20 +: 20] - e[(2*4 + col)*20 +: 20];
        m[(1*4 + col)*20 +: 20] = e[(1*4 + col)*20 +: 20] + e[(2*4 + col)*20 +: 20];
        m[(2*4 + col)*20 +: 20] = e[(2*4 + col)*20 +: 20] - e[(1*4 + col)*20 +: 20];
        m[(3*4 + col)*20 +: 20] = e[(1*4 + col)*20 +: 20] - e[(3*4 + col)*20 +: 20];
      end
      for (int row = 0; row < 4; row++) begin     // columns: V = M B
        w[(row*4 + 0)*20 +: 20] = m[(row*4 + 0)*20 +: 20] - m[(row*4 + 2)*20 +: 20];
        w[(row*4 + 1)*20 +: 20] = m[(row*4 + 1)*20 +: 20] + m[(row*4 + 2)*20 +: 20];
        w[(row*4 + 2)*20 +: 20] = m[(row*4 + 2)*20 +: 20] - m[(row*4 + 1)*20 +: 20];
        w[(row*4 + 3)*20 +: 20] = m[(row*4 + 1)*20 +: 20] - m[(row*4 + 3)*20 +: 20];
      end
      if (fp) begin
        for (int p = 0; p < 16; p++) f[p*17 +: 17] = dla_conv_fp_pkg::pra_widen17(16'(d[(4*p + c)*LW +: LW]));
        for (int col = 0; col < 4; col++) begin
          g[(0*4 + col)*17 +: 17] = dla_conv_fp_pkg::pra_sub17(f[(0*4 + col)*17 +: 17], f[(2*4 + col)*17 +: 17]);
          g[(1*4 + col)*17 +: 17] = dla_conv_fp_pkg::pra_add17(f[(1*4 + col)*17 +: 17], f[(2*4 + col)*17 +: 17]);
          g[(2*4 + col)*17 +: 17] = dla_conv_fp_pkg::pra_sub17(f[(2*4 + col)*17 +: 17], f[(1*4 + col)*17 +: 17]);
          g[(3*4 + col)*17 +: 17] = dla_conv_fp_pkg::pra_sub17(f[(1*4 + col)*17 +: 17], f[(3*4 + col)*17 +: 17]);
        end
        for (int row = 0; row < 4; row++) begin
          f[(row*4 + 0)*17 +: 17] = dla_conv_fp_pkg::pra_sub17(g[(row*4 + 0)*17 +: 17], g[(row*4 + 2)*17 +: 17]);
          f[(row*4 + 1)*17 +: 17] = dla_conv_fp_pkg::pra_add17(g[(row*4 + 1)*17 +: 17], g[(row*4 + 2)*17 +: 17]);
          f[(row*4 + 2)*17 +: 17] = dla_conv_fp_pkg::pra_sub17(g[(row*4 + 2)*17 +: 17], g[(row*4 + 1)*17 +: 17]);
          f[(row*4 + 3)*17 +: 17] = dla_conv_fp_pkg::pra_sub17(g[(row*4 + 1)*17 +: 17], g[(row*4 + 3)*17 +: 17]);
        end
        for (int p = 0; p < 16; p++) vf[p*16 +: 16] = dla_conv_fp_pkg::pra_narrow16(f[p*17 +: 17]);
      end else begin
        f  = '0;
        g  = '0;
        vf = '0;
      end
      for (int p = 0; p < 16; p++) begin
        r[p*20 +: 20] = rnd($signed(w[p*20 +: 20]), truncate);
        if (es2) begin
          if ($signed(r[p*20 +: 20]) > 20'sd32767) r[p*20 +: 20] = 20'sd32767;
          else if ($signed(r[p*20 +: 20]) < -20'sd32768) r[p*20 +: 20] = -20'sd32768;
        end else begin
          if ($signed(r[p*20 +: 20]) > 20'sd127) r[p*20 +: 20] = 20'sd127;
          else if ($signed(r[p*20 +: 20]) < -20'sd128) r[p*20 +: 20] = -20'sd128;
        end
        v[(4*p + c)*LW +: LW] = fp ? LW'(vf[p*16 +: 16]) : LW'(r[p*20 +: 20]);
      end
    end
  end
endmodule
