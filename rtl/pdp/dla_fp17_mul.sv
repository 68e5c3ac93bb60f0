// NVDLA fp17 multiplication mul17(a, b) (pdp_cdp_bdma_rubik_glb.md App. A.2; golden:
// dla::num::mul17): nearest-even rounding, overflow saturates to the largest finite value,
// underflow flushes to a signed zero, a NaN operand is returned unchanged (first wins).
module dla_fp17_mul (
  input  logic [16:0] a,
  input  logic [16:0] b,
  output logic [16:0] y
);
  wire sa = a[16], sb = b[16];
  wire [5:0] ea = a[15:10], eb = b[15:10];
  wire [9:0] ma = a[9:0],   mb = b[9:0];
  wire nan_a  = ea == 6'd63 && ma != '0;
  wire nan_b  = eb == 6'd63 && mb != '0;
  wire zero_a = ea == '0 && ma == '0;
  wire zero_b = eb == '0 && mb == '0;
  wire s      = sa ^ sb;
  wire [6:0]  esum = {1'b0, ea} + {1'b0, eb};
  wire [21:0] p    = {1'b1, ma} * {1'b1, mb};

  logic [6:0]  e;
  logic [21:0] full;               // 1.fraction with 21 fraction bits
  logic [11:0] top;
  logic        guard, sticky, ovf;

  always_comb begin
    e   = esum - 7'd31;
    ovf = 1'b0;
    if (p[21]) begin
      if (e >= 7'd62) ovf = 1'b1;
      e    = e + 7'd1;
      full = p;
    end else begin
      full = {p[20:0], 1'b0};
    end
    top    = {1'b0, full[21:11]};
    guard  = full[10];
    sticky = full[9:0] != '0;
    if (guard && (sticky || top[0])) top = top + 12'd1;
    if (top[11]) begin
      top = top >> 1;
      e   = e + 7'd1;
      if (e == 7'd63) ovf = 1'b1;
    end
    if (nan_a)                                  y = a;
    else if (nan_b)                             y = b;
    else if (zero_a || zero_b || esum < 7'd31)  y = {s, 16'd0};
    else if (esum >= 7'd94 || ovf)              y = {s, 6'd62, 10'h3ff};
    else if (e == '0)                           y = {s, 16'd0};
    else                                        y = {s, e[5:0], top[9:0]};
  end
endmodule
