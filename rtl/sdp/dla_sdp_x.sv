// One BS or BN stage for one element (sdp.md §6): ALU (MAX/MIN/SUM) -> MUL or PReLU ->
// rounding shift -> ReLU. Integer (PROC INT8/INT16: signed 32-bit in and out) or float
// (PROC FP16: fp32 in and out, fp16 operands). Operand selection (register or memory) is
// done by the caller.
module dla_sdp_x #(
  parameter bit HAS_FP = 1'b1
) (
  input  logic        fp,            // PROC = FP16
  input  logic        nan_to_zero,
  input  logic        bypass,
  input  logic        alu_bypass,
  input  logic [1:0]  alu_algo,
  input  logic [5:0]  alu_shift,
  input  logic [15:0] alu_op,
  input  logic        mul_bypass,
  input  logic        mul_prelu,
  input  logic [5:0]  mul_shift,
  input  logic [15:0] mul_op,
  input  logic        relu_bypass,
  input  logic [31:0] x,
  output logic [31:0] y
);
  // ---- integer path ----
  logic signed [31:0] op_s, xi, t_i;
  logic signed [32:0] a_i;
  logic signed [48:0] p_i;
  logic signed [31:0] unused_floor;
  logic [31:0]        y_int;

  dla_sdp_lsh #(.IW(16), .OW(32), .SW(6)) u_lsh (.v(alu_op), .s(alu_shift), .y(op_s));

  always_comb begin
    xi = x;
    case (alu_algo)
      2'd0:    a_i = (xi > op_s) ? 33'(xi) : 33'(op_s);
      2'd1:    a_i = (xi < op_s) ? 33'(xi) : 33'(op_s);
      default: a_i = 33'(xi) + 33'(op_s);
    endcase
    if (alu_bypass) a_i = 33'(xi);
    p_i = mul_bypass ? 49'(a_i) : 49'(a_i) * 49'($signed(mul_op));
  end

  dla_sdp_rsh #(.IW(49), .OW(32), .SW(6), .FW(32)) u_rsh (
    .v(p_i), .s(mul_shift), .y(t_i), .floor_q(unused_floor));

  always_comb begin
    logic signed [31:0] t;
    t = (!mul_bypass && mul_prelu && a_i >= 0) ? a_i[31:0] : t_i;
    y_int = (!relu_bypass && t < 0) ? 32'd0 : t;
  end

  // ---- float path ----
  logic [31:0] y_fp;
  if (HAS_FP) begin : g_fp
    logic [15:0] aop16, mop16;
    logic [31:0] aop, mop, xf, a_add, a_f, m_mul, m_f;
    assign xf    = x;
    assign aop16 = (nan_to_zero && alu_op[14:10] == 5'h1f && alu_op[9:0] != '0) ? 16'd0 : alu_op;
    assign mop16 = (nan_to_zero && mul_op[14:10] == 5'h1f && mul_op[9:0] != '0) ? 16'd0 : mul_op;
    dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_wa (.x(aop16), .y(aop));
    dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_wm (.x(mop16), .y(mop));
    dla_fp_add #(.E(8), .M(23)) u_add (.a(xf), .b(aop), .y(a_add));
    dla_fp_mul #(.E(8), .M(23)) u_mul (.a(a_f), .b(mop), .y(m_mul));
    logic [31:0] f_mx;
    dla_fp_maxmin #(.E(8), .M(23)) u_mx (.a(xf), .b(aop), .is_max(alu_algo == 2'd0), .y(f_mx));
    always_comb begin
      if (alu_bypass)            a_f = xf;
      else if (alu_algo[1] == 1'b0) a_f = f_mx;
      else if (alu_algo == 2'd2) a_f = a_add;
      else                       a_f = {31'd0, xf != aop};
    end
    always_comb begin
      if (mul_bypass || (mul_prelu && !a_f[31])) m_f = a_f;
      else                                          m_f = m_mul;
      y_fp = (!relu_bypass && m_f[31] && !(m_f[30:23] == 8'hff && m_f[22:0] != '0)) ? 32'd0 : m_f;
    end
  end else begin : g_nofp
    assign y_fp = '0;
    wire unused_fp = &{1'b0, fp, nan_to_zero};
  end

  assign y = bypass ? x : ((HAS_FP && fp) ? y_fp : y_int);
endmodule
