// One PDP combining step on a slice of packed lanes (format of dla_pdp_slice_in):
// y = op(a, b) per lane, op = average: a + b (integers wrap; fp16 mode: add17(a, b)),
// max or min (signed integers; fp16 mode: max16 / min16(a, b), first operand's NaN wins).
// The caller picks the operand order the spec prescribes (§1.8: width pass acc first,
// height pass the newer row first).
module dla_pdp_slice_op #(
  parameter int TP        = 8,
  parameter bit HAS_INT16 = 1'b1,
  parameter bit HAS_FP16  = 1'b1,
  parameter int PW        = 28 * TP
) (
  input  logic [1:0]    fmt,
  input  logic [1:0]    method,     // 0 average, 1 max, 2 min
  input  logic [PW-1:0] a,
  input  logic [PW-1:0] b,
  output logic [PW-1:0] y
);
  wire is_avg = method == 2'd0;
  wire is_min = method == 2'd2;
  logic [PW-1:0] y8, y16, yfp;

  always_comb
    for (int i = 0; i < 2 * TP; i++) begin
      logic signed [13:0] x, z;
      x = $signed(a[14*i +: 14]);
      z = $signed(b[14*i +: 14]);
      if (is_avg)                 y8[14*i +: 14] = x + z;
      else if ((x > z) ^ is_min)  y8[14*i +: 14] = x;
      else                        y8[14*i +: 14] = z;
    end

  if (HAS_INT16) begin : g_int16
    always_comb
      for (int i = 0; i < TP; i++) begin
        logic signed [21:0] x, z;
        x = $signed(a[28*i +: 22]);
        z = $signed(b[28*i +: 22]);
        y16[28*i +: 28] = '0;
        if (is_avg)                 y16[28*i +: 22] = x + z;
        else if ((x > z) ^ is_min)  y16[28*i +: 22] = x;
        else                        y16[28*i +: 22] = z;
      end
  end else begin : g_no_int16
    assign y16 = '0;
  end

  if (HAS_FP16) begin : g_fp16
    for (genvar i = 0; i < TP; i++) begin : g_lane
      logic [16:0] sum;
      logic [15:0] sel;
      dla_fp_add #(.E(6), .M(10))    u_add (.a(a[28*i +: 17]), .b(b[28*i +: 17]), .y(sum));
      dla_fp_maxmin #(.E(5), .M(10)) u_cmp (.is_max(!is_min), .a(a[28*i +: 16]), .b(b[28*i +: 16]), .y(sel));
      assign yfp[28*i +: 28] = {11'd0, is_avg ? sum : {1'b0, sel}};
    end
  end else begin : g_no_fp16
    assign yfp = '0;
  end

  assign y = (HAS_INT16 && fmt == 2'd1) ? y16 : (HAS_FP16 && fmt == 2'd2) ? yfp : y8;
endmodule
