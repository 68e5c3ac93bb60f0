// NVDLA fp16 max16 / min16 (pdp_cdp_bdma_rubik_glb.md App. A.6; golden: dla::num::max16,
// min16): sign first, then exponent/mantissa magnitude (+0 > -0); a NaN operand wins,
// the first operand's NaN first.
module dla_fp16_maxmin (
  input  logic        is_min,
  input  logic [15:0] a,
  input  logic [15:0] b,
  output logic [15:0] y
);
  wire nan_a = a[14:10] == 5'd31 && a[9:0] != '0;
  wire nan_b = b[14:10] == 5'd31 && b[9:0] != '0;
  wire absgt = a[14:0] > b[14:0];
  wire a_greater = (a[15] != b[15]) ? !a[15] : (a[15] ? !absgt : absgt);

  always_comb begin
    if (nan_a)      y = a;
    else if (nan_b) y = b;
    else            y = (a_greater ^ is_min) ? a : b;
  end
endmodule
