// fp17 -> fp16 narrowing (pdp_cdp_bdma_rubik_glb.md App. A.4; golden: dla::num::fp17_to_fp16).
// Exponents 47..63 (Inf pattern included) saturate to the largest finite fp16, exponents
// below 6 flush to zero, 6..16 give nearest-even subnormals, NaN keeps its payload.
module dla_fp17_to_fp16 (
  input  logic [16:0] a,
  output logic [15:0] y
);
  wire       s = a[16];
  wire [5:0] e = a[15:10];
  wire [9:0] m = a[9:0];

  // Subnormal result: (2^10 + m) / 2^(17 - e), rounded to nearest even.
  logic [10:0] v;
  logic [3:0]  sh;           // 1..11
  logic [10:0] r, rem;
  logic        guard, sticky;
  always_comb begin
    v      = {1'b1, m};
    sh     = 4'(6'd17 - e);
    r      = v >> sh;
    rem    = v & ((11'd1 << sh) - 11'd1);
    guard  = rem[sh - 4'd1];
    sticky = (rem & ((11'd1 << (sh - 4'd1)) - 11'd1)) != '0;
    if (guard && (sticky || r[0])) r = r + 11'd1;
  end

  always_comb begin
    if (e == 6'd63 && m != '0) y = {s, 5'd31, m};
    else if (e >= 6'd47)       y = {s, 5'd30, 10'h3ff};
    else if (e < 6'd6)         y = {s, 15'd0};
    else if (e <= 6'd16)       y = (r == 11'd1024) ? {s, 5'd1, 10'd0} : {s, 5'd0, r[9:0]};
    else                       y = {s, 5'(e - 6'd16), m};
  end
endmodule
