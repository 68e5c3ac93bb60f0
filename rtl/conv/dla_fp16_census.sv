// fp16 NaNs and infinities among the selected elements of a word (CDMA's D_NAN_INPUT_* /
// D_INF_INPUT_* counters): a NaN has exponent 31 and a non-zero fraction, an infinity
// exponent 31 and fraction 0.
module dla_fp16_census #(
  parameter int BITS = 512,                                      // 16-bit elements of the word
  parameter int CB   = $clog2(BITS / 16) + 1
) (
  input  logic [BITS-1:0]    data,
  input  logic [BITS/16-1:0] sel,                                // elements that count
  output logic [CB-1:0]      nan,
  output logic [CB-1:0]      inf
);
  always_comb begin
    nan = '0;
    inf = '0;
    for (int e = 0; e < BITS / 16; e++)
      if (sel[e] && data[e*16 + 10 +: 5] == 5'h1f) begin
        if (data[e*16 +: 10] != '0) nan = nan + CB'(1);
        else inf = inf + CB'(1);
      end
  end
endmodule
