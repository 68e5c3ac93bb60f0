// NVDLA fp17 addition add17(a, b) (pdp_cdp_bdma_rubik_glb.md App. A.1; golden:
// dla::num::add17). Not IEEE: the aligned smaller operand loses its shifted-out bits (no
// sticky), results below the smallest normal flush to a signed zero, overflow saturates to
// the largest finite value, an Inf pattern is an ordinary number, and a NaN operand is
// returned unchanged (the first operand's NaN wins).
module dla_fp17_add (
  input  logic [16:0] a,
  input  logic [16:0] b,
  output logic [16:0] y
);
  localparam logic [5:0] ELIM = 6'd62;     // an exponent increment is allowed below this

  wire sa = a[16], sb = b[16];
  wire [5:0] ea = a[15:10], eb = b[15:10];
  wire [9:0] ma = a[9:0],   mb = b[9:0];
  wire nan_a = ea == 6'd63 && ma != '0;
  wire nan_b = eb == 6'd63 && mb != '0;
  wire [10:0] siga = (ea == '0 && ma == '0) ? 11'd0 : {1'b1, ma};
  wire [10:0] sigb = (eb == '0 && mb == '0) ? 11'd0 : {1'b1, mb};
  wire a_larger = ea > eb || (ea == eb && ma >= mb);

  logic        s;
  logic [5:0]  e, d, lz;
  logic [10:0] sig_big, sig_small;
  logic [23:0] x, ys, z;            // 2*Mw+3 = 23 bits plus a carry bit
  logic [11:0] top;
  logic        guard, sticky, zero_out, ovf;

  always_comb begin
    s         = a_larger ? sa : sb;
    e         = a_larger ? ea : eb;
    d         = a_larger ? ea - eb : eb - ea;
    sig_big   = a_larger ? siga : sigb;
    sig_small = a_larger ? sigb : siga;
    x  = {1'b0, sig_big, 12'd0};
    ys = (d <= 6'd12) ? ({1'b0, sig_small, 12'd0} >> d) : ({13'd0, sig_small} >> (d - 6'd12));
    z  = (sa == sb) ? x + ys : x - ys;
    zero_out = 1'b0;
    ovf      = 1'b0;
    lz       = '0;
    if (z[23]) begin
      if (e >= ELIM) ovf = 1'b1;
      e = e + 6'd1;
      z = z >> 1;
    end else begin
      lz = 6'd23;
      for (int i = 0; i < 23; i++) if (z[i]) lz = 6'(22 - i);
      if (z == '0 || e <= lz) zero_out = 1'b1;
      e = e - lz;
      z = 24'(z << lz);
    end
    top    = {1'b0, z[22:12]};
    guard  = z[11];
    sticky = z[10:0] != '0;
    if (guard && (sticky || top[0])) top = top + 12'd1;
    if (top[11]) begin
      top = top >> 1;
      if (e >= ELIM) ovf = 1'b1;
      e = e + 6'd1;
    end
    if (nan_a)         y = a;
    else if (nan_b)    y = b;
    else if (zero_out) y = {s, 16'd0};
    else if (ovf)      y = {s, 6'd62, 10'h3ff};
    else               y = {s, e, top[9:0]};
  end
endmodule
