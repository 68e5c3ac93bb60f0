// CACC fp16 accumulation (docs/conv-rtl.md "fp16"), as functions: the accumulator of one
// output element is {Ea[7:0], Ma[39:0]}, value Ma * 2^(Ea - 101), Ea = 255 a NaN; it starts at
// 0. A CMAC output {Eb[5:0], Mb[37:0]} (fe, fm; value Mb * 2^(Eb - 50), Eb = 63 a NaN) is added
// in arrival order: the input is normalised, the operand with the smaller exponent shifted
// right (its lost bits kept to refill a left normalisation and for rounding), the sum
// normalised and rounded half away from zero on its magnitude (a negative tie needs a sticky
// bit). The exponent is kept modulo 256. Callers use dla_conv_fp_pkg::fp48_add (Yosys reads
// package functions only with the package prefix, not through an import).
package dla_conv_fp_pkg;

  function automatic logic [47:0] fp48_add(input logic [47:0] fa, input logic [5:0] fe,
                                           input logic [37:0] fm);
    logic [7:0]  ea;
    logic [39:0] ma, xa, xb, yv, z, sm;
    logic [37:0] mn;
    logic [5:0]  n0, n1;
    logic        stop, sa, sb, ovf, guard, sticky, sg;
    logic signed [10:0] eav, ebn, eg, e, sh_d;
    ea = fa[47:40];
    ma = fa[39:0];
    fp48_add = fa;
    if (fm == '0) begin
      fp48_add = fa;
    end else if (ea == 8'hff) begin                       // a NaN accumulator stays one
      fp48_add = {ea, ma[39:29], 29'd0};
    end else if (fe == 6'd63) begin                       // a NaN input: its code
      fp48_add = {8'hff, fm[37:27], 29'd0};
    end else begin
      // normalise the input: bit 36 made to differ from the sign bit 37
      n0   = '0;
      stop = 1'b0;
      for (int i = 36; i >= 0; i--)
        if (!stop) begin
          if (fm[i] == fm[37]) n0 = n0 + 6'd1;
          else stop = 1'b1;
        end
      mn  = fm << n0;
      xb  = {mn, 2'b00};
      ebn = 11'(fe) - 11'(n0) + 11'sd49;
      eav = ma == '0 ? 11'sd0 : 11'(ea);
      xa  = ma;
      // align the operand with the smaller exponent, keeping its lost bits in z
      eg   = eav > ebn ? eav : ebn;
      sh_d = eav > ebn ? eav - ebn : ebn - eav;
      z    = '0;
      if (sh_d != 11'sd0) begin
        sm = eav < ebn ? xa : xb;
        if (sh_d > 11'sd40) sm = '0;
        else begin
          z  = sm << (11'sd40 - sh_d);
          sm = 40'($signed(sm) >>> sh_d);
        end
        if (eav < ebn) xa = sm;
        else xb = sm;
      end
      yv  = xa + xb;
      sa  = xa[39];
      sb  = xb[39];
      ovf = sa == sb && yv[39] != sa;
      e   = eg;
      if (ovf) begin
        guard  = yv[0];
        sticky = z != '0;
        yv     = {sa, yv[39:1]};
        e      = eg + 11'sd1;
      end else begin
        if (yv[38] == yv[39]) begin
          n1   = 6'd1;
          stop = 1'b0;
          for (int i = 37; i >= 0; i--)
            if (!stop) begin
              if (yv[i] == yv[39]) n1 = n1 + 6'd1;
              else stop = 1'b1;
            end
          yv = (yv << n1) | (z >> (6'd40 - n1));
          z  = z << n1;
          e  = eg - 11'(n1);
        end
        guard  = z[39];
        sticky = z[38:0] != '0;
      end
      sg = yv[39];
      if ((!sg && guard) || (sg && guard && sticky)) begin
        yv = yv + 40'd1;
        if (yv[39] != sg) begin
          yv = {sg, yv[39:1]};
          e  = e + 11'sd1;
        end
      end
      fp48_add = {yv == '0 ? 8'd0 : e[7:0], yv};
    end
  endfunction

  // The accumulator as the fp32 element SDP receives: rounded half up on the magnitude at bit
  // 14 (no sticky); a NaN keeps 10 bits of its code; a zero is +0.
  function automatic logic [31:0] fp48_to_fp32(input logic [47:0] fa);
    logic [7:0]  ea, ex;
    logic [39:0] ma;
    /* verilator lint_off UNUSEDSIGNAL */   // bits below the rounding bit
    logic [39:0] mag;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [24:0] t;
    ea = fa[47:40];
    ma = fa[39:0];
    mag = ma[39] ? 40'd0 - ma : ma;
    ex  = ea + 8'd64;
    if (ea == 8'hff) fp48_to_fp32 = {ma[39], 8'hff, 13'd0, ma[38:29]};
    else if (ma == 40'h80_0000_0000) fp48_to_fp32 = {1'b1, ea + 8'd65, 23'd0};
    else if (ma == '0) fp48_to_fp32 = '0;
    else if (mag[14]) begin
      t = 25'(mag[39:15]) + 25'd1;
      if (t == 25'h100_0000) fp48_to_fp32 = {ma[39], ex + 8'd1, 23'd0};
      else fp48_to_fp32 = {ma[39], ex, t[22:0]};
    end else fp48_to_fp32 = {ma[39], ex, mag[37:15]};
  endfunction

  // ---- Winograd PRA in fp16 (CSC) --------------------------------------------------------------
  // The PRA works on a 17-bit float (sign, 6-bit exponent with bias 31, 10 fraction bits, no
  // subnormals): fp16 is widened exactly (a subnormal becomes a normal, an infinity the largest
  // finite value, a NaN keeps its payload), added with pra_add17 and narrowed with
  // pra_narrow16.

  function automatic logic [16:0] pra_widen17(input logic [15:0] h);
    logic [3:0] lz;
    logic [9:0] fr;
    lz = 4'd10;
    for (int i = 0; i < 10; i++) if (h[i]) lz = 4'(9 - i);
    fr = 10'(h[9:0] << (lz + 4'd1));
    if (h[14:10] == 5'h1f && h[9:0] != '0) pra_widen17 = {h[15], 6'h3f, h[9:0]};
    else if (h[14:10] == 5'h1f) pra_widen17 = {h[15], 6'd62, 10'h3ff};
    else if (h[14:0] == '0) pra_widen17 = {h[15], 16'd0};
    else if (h[14:10] == 5'd0) pra_widen17 = {h[15], 6'd16 - 6'(lz), fr};
    else pra_widen17 = {h[15], 6'(h[14:10]) + 6'd16, h[9:0]};
  endfunction

  // a + b: the larger magnitude gives sign and exponent, the smaller one's significand is
  // shifted with its lost bits dropped (no sticky), RNE on the rest; a carry at an exponent of
  // 61 or more saturates to the largest finite value (exponent 62), a result below the smallest
  // normal is a signed zero; NaN: a if a is one, else b.
  function automatic logic [16:0] pra_add17(input logic [16:0] a, input logic [16:0] b);
    logic        al, s;
    logic [5:0]  e, es, dd;
    logic [10:0] sl, ss, top;
    logic [23:0] x, y, z;
    logic [4:0]  lz;
    logic        guard, sticky, done;
    al = a[15:10] > b[15:10] || (a[15:10] == b[15:10] && a[9:0] >= b[9:0]);
    s  = al ? a[16] : b[16];
    e  = al ? a[15:10] : b[15:10];
    es = al ? b[15:10] : a[15:10];
    sl = al ? (a[15:0] == '0 ? 11'd0 : {1'b1, a[9:0]}) : (b[15:0] == '0 ? 11'd0 : {1'b1, b[9:0]});
    ss = al ? (b[15:0] == '0 ? 11'd0 : {1'b1, b[9:0]}) : (a[15:0] == '0 ? 11'd0 : {1'b1, a[9:0]});
    dd = e - es;
    x  = 24'(sl) << 12;
    y  = dd <= 6'd12 ? 24'(ss) << (6'd12 - dd) : 24'(ss) >> (dd - 6'd12);
    z  = a[16] == b[16] ? x + y : x - y;
    done = 1'b0;
    pra_add17 = '0;
    if (z[23]) begin
      if (e >= 6'd61) begin pra_add17 = {s, 6'd62, 10'h3ff}; done = 1'b1; end
      else begin e = e + 6'd1; z = z >> 1; end
    end else begin
      lz = 5'd23;
      for (int i = 0; i < 23; i++) if (z[i]) lz = 5'(22 - i);
      if (z == '0 || 6'(lz) >= e) begin pra_add17 = {s, 16'd0}; done = 1'b1; end
      else begin e = e - 6'(lz); z = z << lz; end
    end
    if (!done) begin
      top    = z[22:12];
      guard  = z[11];
      sticky = z[10:0] != '0;
      if (guard && (sticky || top[0])) begin
        if (top == 11'h7ff) begin
          if (e >= 6'd61) begin pra_add17 = {s, 6'd62, 10'h3ff}; done = 1'b1; end
          else begin e = e + 6'd1; top = 11'h400; end
        end else top = top + 11'd1;
      end
      if (!done) pra_add17 = {s, e, top[9:0]};
    end
    if (a[15:10] == 6'h3f && a[9:0] != '0) pra_add17 = a;
    else if (b[15:10] == 6'h3f && b[9:0] != '0) pra_add17 = b;
  endfunction

  function automatic logic [16:0] pra_sub17(input logic [16:0] a, input logic [16:0] b);
    pra_sub17 = pra_add17(a, {~b[16], b[15:0]});
  endfunction

  // 17-bit float -> fp16: NaN kept, exponents of 47 or more saturate, below 6 a signed zero,
  // 6..16 an fp16 subnormal (RNE; a carry into bit 10 is the smallest normal).
  function automatic logic [15:0] pra_narrow16(input logic [16:0] x);
    logic [5:0]  e;
    logic [3:0]  sh;
    logic [10:0] sig, q;
    logic        guard, sticky;
    e   = x[15:10];
    sig = {1'b1, x[9:0]};
    sh  = (e >= 6'd6 && e <= 6'd16) ? 4'(6'd17 - e) : 4'd1;   // 1..11 where used
    q   = sig >> sh;
    guard  = sig[sh - 4'd1];
    sticky = (sig & ((11'd1 << (sh - 4'd1)) - 11'd1)) != '0;
    if (e == 6'h3f) pra_narrow16 = {x[16], 5'h1f, x[9:0]};
    else if (e >= 6'd47) pra_narrow16 = {x[16], 5'd30, 10'h3ff};
    else if (e < 6'd6) pra_narrow16 = {x[16], 15'd0};
    else if (e <= 6'd16) pra_narrow16 = {x[16], 15'(q) + 15'(guard && (sticky || q[0]))};
    else pra_narrow16 = {x[16], 5'(e - 6'd16), x[9:0]};
  endfunction

endpackage
