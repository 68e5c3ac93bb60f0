// Output converter (C stage, sdp.md §9) for one element: the 16-bit output value `o`, the
// saturation-counter increment and the NaN-output flag. SAT_RANGE selects the counter's rule
// for integer results (docs/sdp.md): 0 the floor more than one step outside the 17-bit range,
// 1 the rounded value above the range or the floor below it (no count in EQL mode).
module dla_sdp_cvt #(
  parameter bit HAS_FP    = 1'b1,
  parameter bit SAT_RANGE = 1'b0
) (
  input  logic        fp,            // PROC = FP16
  input  logic [1:0]  out_prec,      // 0 INT8, 1 INT16, 2 FP16
  input  logic        eql,           // EQL mode: o = low 16 bits of z
  input  logic [31:0] offset,
  input  logic [15:0] scale,
  input  logic [5:0]  shift,
  input  logic [31:0] z,
  output logic [15:0] o,
  output logic        sat_cnt,
  output logic        nan_out
);
  logic signed [32:0] d;
  logic signed [48:0] p;
  logic signed [16:0] t;
  logic signed [31:0] fl;
  logic [15:0]        o_int, h17;
  logic               flag, rnd_up;
  logic [63:0]        pw;

  always_comb begin
    d = 33'($signed(z)) - 33'($signed(offset));
    p = 49'(d) * 49'($signed(scale));
  end
  dla_sdp_rsh #(.IW(49), .OW(17), .SW(6), .FW(32)) u_rsh (.v(p), .s(shift), .y(t), .floor_q(fl));
  if (HAS_FP) begin : g_h dla_sdp_int17_fp16 u_h (.v(t), .y(h17)); end else begin : g_no_h assign h17 = '0; end  // fp16 out needs fp16

  always_comb begin
    // the rounding increment of a non-negative value is its guard bit p[shift-1]
    pw     = 64'(p);
    rnd_up = (shift != 6'd0) && pw[shift - 6'd1];
    if (SAT_RANGE) flag = !eql && ((fl > 32'sd65535) || (fl == 32'sd65535 && rnd_up) || (fl < -32'sd65536));
    else           flag = (fl >= 32'sd65537) || (fl <= -32'sd65538);
    case (out_prec)
      2'd0:    o_int = (t > 17'sd127) ? 16'h007f : (t < -17'sd128) ? 16'hff80 : 16'(t);
      2'd1:    o_int = (t > 17'sd32767) ? 16'h7fff : (t < -17'sd32768) ? 16'h8000 : 16'(t);
      default: o_int = h17;
    endcase
  end

  logic [15:0] o_fp;
  if (HAS_FP) begin : g_fp
    logic [15:0] h, hi;
    dla_fp_narrow #(.EI(8), .MI(23), .EO(5), .MO(10), .KEEP_DENORM(1'b1)) u_n (.x(z), .y(h));
    dla_sdp_fp16_int16 u_i (.h(h), .y(hi));
    assign o_fp = (out_prec == 2'd1) ? hi : h;
  end else begin : g_nofp
    assign o_fp = '0;
  end

  always_comb begin
    if (eql)                 o = z[15:0];
    else if (HAS_FP && fp)   o = o_fp;
    else                     o = o_int;
    if (out_prec == 2'd2)    sat_cnt = (o == 16'h7bff) || (o == 16'hfbff);
    else                     sat_cnt = flag && !(HAS_FP && fp);
    nan_out = (out_prec == 2'd2) && o[14:10] == 5'h1f && o[9:0] != '0;
  end
endmodule
