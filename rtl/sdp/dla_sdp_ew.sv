// EW stage arithmetic for one element, without the LUT (sdp.md §7): memory-operand
// converters, then MUL (or PReLU pass), then ALU (MAX/MIN/SUM/EQL). Integer or float.
// `y` is the ALU output (the LUT input); the caller applies EW_BYPASS and the LUT.
module dla_sdp_ew #(
  parameter bit HAS_FP = 1'b1
) (
  input  logic        fp,
  input  logic        nan_to_zero,
  input  logic        alu_bypass,
  input  logic [1:0]  alu_algo,
  input  logic        alu_src,        // 0 REG, 1 MEM
  input  logic        alu_cvt_bypass,
  input  logic [31:0] alu_reg,        // EW_ALU_OPERAND
  input  logic [31:0] alu_cvt_offset,
  input  logic [15:0] alu_cvt_scale,
  input  logic [5:0]  alu_cvt_truncate,
  input  logic [15:0] alu_mem,
  input  logic        mul_bypass,
  input  logic        mul_prelu,
  input  logic        mul_src,
  input  logic        mul_cvt_bypass,
  input  logic [31:0] mul_reg,
  input  logic [31:0] mul_cvt_offset,
  input  logic [15:0] mul_cvt_scale,
  input  logic [5:0]  mul_cvt_truncate,
  input  logic [15:0] mul_mem,
  input  logic [9:0]  truncate,
  input  logic [31:0] x,
  output logic [31:0] y
);
  // ---- integer converters and operands ----
  logic signed [32:0] a_diff, m_diff;
  logic signed [48:0] a_prod, m_prod;
  logic signed [31:0] a_cvt, m_cvt, op_a, op_m, unused_f0, unused_f1, unused_f2;
  always_comb begin
    a_diff = 33'($signed(alu_mem)) - 33'($signed(alu_cvt_offset));
    m_diff = 33'($signed(mul_mem)) - 33'($signed(mul_cvt_offset));
    a_prod = 49'(a_diff) * 49'($signed(alu_cvt_scale));
    m_prod = 49'(m_diff) * 49'($signed(mul_cvt_scale));
  end
  dla_sdp_rsh #(.IW(49), .OW(32), .SW(6), .FW(32)) u_acvt (
    .v(a_prod), .s(alu_cvt_truncate), .y(a_cvt), .floor_q(unused_f0));
  dla_sdp_rsh #(.IW(49), .OW(32), .SW(6), .FW(32)) u_mcvt (
    .v(m_prod), .s(mul_cvt_truncate), .y(m_cvt), .floor_q(unused_f1));
  always_comb begin
    op_a = !alu_src ? alu_reg : (alu_cvt_bypass ? 32'($signed(alu_mem)) : a_cvt);
    op_m = !mul_src ? mul_reg : (mul_cvt_bypass ? 32'($signed(mul_mem)) : m_cvt);
  end

  // ---- integer MUL and ALU ----
  logic signed [63:0] xm;
  logic signed [31:0] xm_sh, m_i, xi;
  logic signed [32:0] a33;
  logic [31:0]        y_int;
  assign xi = x;
  assign xm = 64'(xi) * 64'(op_m);
  dla_sdp_rsh #(.IW(64), .OW(32), .SW(10), .FW(32)) u_mrsh (
    .v(xm), .s(truncate), .y(xm_sh), .floor_q(unused_f2));
  always_comb begin
    m_i = (mul_bypass || (mul_prelu && xi >= 0)) ? xi : xm_sh;
    case (alu_algo)
      2'd0:    a33 = (m_i > op_a) ? 33'(m_i) : 33'(op_a);
      2'd1:    a33 = (m_i < op_a) ? 33'(m_i) : 33'(op_a);
      2'd2:    a33 = 33'(m_i) + 33'(op_a);
      default: a33 = (m_i == op_a) ? 33'd0 : 33'd1;
    endcase
    if (a33 > 33'sh0_7fff_ffff)       y_int = 32'h7fff_ffff;
    else if (a33 < -33'sh0_8000_0000) y_int = 32'h8000_0000;
    else                              y_int = a33[31:0];
    if (alu_bypass) y_int = m_i;
  end

  // ---- float ----
  logic [31:0] y_fp;
  if (HAS_FP) begin : g_fp
    logic [15:0] am16, mm16;
    logic [31:0] am, mm, fop_a, fop_m, fm_mul, fm, f_add, f_mx;
    assign am16 = (nan_to_zero && alu_mem[14:10] == 5'h1f && alu_mem[9:0] != '0) ? 16'd0 : alu_mem;
    assign mm16 = (nan_to_zero && mul_mem[14:10] == 5'h1f && mul_mem[9:0] != '0) ? 16'd0 : mul_mem;
    dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_wa (.x(am16), .y(am));
    dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_wm (.x(mm16), .y(mm));
    assign fop_a = alu_src ? am : alu_reg;
    assign fop_m = mul_src ? mm : mul_reg;
    dla_fp_mul #(.E(8), .M(23)) u_mul (.a(x), .b(fop_m), .y(fm_mul));
    assign fm = (mul_bypass || (mul_prelu && !x[31])) ? x : fm_mul;
    dla_fp_add #(.E(8), .M(23)) u_add (.a(fm), .b(fop_a), .y(f_add));
    dla_fp_maxmin #(.E(8), .M(23)) u_mx (.a(fm), .b(fop_a), .is_max(alu_algo == 2'd0), .y(f_mx));
    always_comb begin
      if (alu_bypass)             y_fp = fm;
      else if (alu_algo[1] == 1'b0) y_fp = f_mx;
      else if (alu_algo == 2'd2)  y_fp = f_add;
      else                        y_fp = {31'd0, fm != fop_a};
    end
  end else begin : g_nofp
    assign y_fp = '0;
    wire unused_fp = &{1'b0, nan_to_zero};
  end

  assign y = (HAS_FP && fp) ? y_fp : y_int;
endmodule
