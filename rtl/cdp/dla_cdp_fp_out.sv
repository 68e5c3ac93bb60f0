// CDP fp16 LUT result and output for one element (pdp_cdp_bdma_rubik_glb.md §2.11 steps 4-7).
//   hit:  res = add17(mul17(fp32->fp17(sub32(fp32(T[i+1]), fp32(T[i]))), u16->fp17(frac)), fp17(T[i]))
//   flow: res = add17(mul17(fp32->fp17(sub32(s, anchor)), fp17(SCALE)), fp17(T[0 or N]))
//   out = fp17->fp16(MUL_BYPASS ? (x NaN ? x : res) : mul17(x, res))
// `anchor` is the chosen table's START/END (fp32), already biased by 2^IOFF for an
// exponential LE underflow.
module dla_cdp_fp_out (
  input  logic        hit,
  input  logic [15:0] frac,         // 16-bit fraction (value frac / 2^16)
  input  logic [31:0] s,            // LUT input (fp32)
  input  logic [15:0] y0,           // T[i] (hit) or the flow anchor entry
  input  logic [15:0] y1,           // T[i+1]
  input  logic [31:0] anchor,
  input  logic [15:0] scale,        // slope of the chosen flow (fp16)
  input  logic [16:0] x17,          // the element itself (fp17)
  input  logic        mul_bypass,
  output logic [15:0] y,
  output logic        nan
);
  logic [31:0] y0w, y1w, dy32, dx32;
  logic [16:0] dy17, dx17, f17, k17, y017, ma, mb, prod, res, o17, xres;
  dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_w0 (.x(y0), .y(y0w));
  dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_w1 (.x(y1), .y(y1w));
  dla_fp_add #(.E(8), .M(23)) u_dy (.a(y1w), .b({~y0w[31], y0w[30:0]}), .y(dy32));
  dla_fp_add #(.E(8), .M(23)) u_dx (.a(s), .b({~anchor[31], anchor[30:0]}), .y(dx32));
  dla_fp_narrow #(.EI(8), .MI(23), .EO(6), .MO(10), .KEEP_DENORM(1'b0)) u_ndy (.x(dy32), .y(dy17));
  dla_fp_narrow #(.EI(8), .MI(23), .EO(6), .MO(10), .KEEP_DENORM(1'b0)) u_ndx (.x(dx32), .y(dx17));
  dla_lut_frac_fp17 u_frac (.f({frac, 19'd0}), .y(f17));
  dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_k (.x(scale), .y(k17));
  dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_y0 (.x(y0), .y(y017));
  assign ma = hit ? dy17 : dx17;
  assign mb = hit ? f17 : k17;
  dla_fp_mul #(.E(6), .M(10)) u_mul (.a(ma), .b(mb), .y(prod));
  dla_fp_add #(.E(6), .M(10)) u_add (.a(prod), .b(y017), .y(res));
  dla_fp_mul #(.E(6), .M(10)) u_mx (.a(x17), .b(res), .y(xres));
  wire x_nan = &x17[15:10] && |x17[9:0];
  assign o17 = !mul_bypass ? xres : x_nan ? x17 : res;
  dla_fp_narrow #(.EI(6), .MI(10), .EO(5), .MO(10), .KEEP_DENORM(1'b1)) u_out (.x(o17), .y(y));
  assign nan = &y[14:10] && |y[9:0];
endmodule
