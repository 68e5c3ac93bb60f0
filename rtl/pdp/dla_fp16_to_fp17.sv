// fp16 -> fp17 widening (pdp_cdp_bdma_rubik_glb.md App. A.3; golden: dla::num::fp16_to_fp17).
// Exact for finite values: subnormals become normals, Inf becomes the fp17 largest finite
// value, NaN keeps its payload in the low mantissa bits.
module dla_fp16_to_fp17 (
  input  logic [15:0] a,
  output logic [16:0] y
);
  wire       s = a[15];
  wire [4:0] e = a[14:10];
  wire [9:0] m = a[9:0];

  logic [3:0] lz;          // leading zeros of m in 10 bits
  always_comb begin
    lz = 4'd10;
    for (int i = 0; i < 10; i++) if (m[i]) lz = 4'(9 - i);
  end

  always_comb begin
    if (e == 5'd31 && m != '0)      y = {s, 6'd63, m};
    else if (e == 5'd31)            y = {s, 6'd62, 10'h3ff};
    else if (e == '0 && m == '0)    y = {s, 16'd0};
    else if (e == '0)               y = {s, 6'(5'd16 - {1'b0, lz}), 10'(m << (lz + 4'd1))};
    else                            y = {s, 6'({1'b0, e} + 6'd16), m};
  end
endmodule
