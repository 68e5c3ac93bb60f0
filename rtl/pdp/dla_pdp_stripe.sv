// Geometry of stripe j of a PDP layer (pdp_cdp_bdma_rubik_glb.md §1.11): input columns
// processed, output columns, the pads that apply, and the step to the next stripe's first
// input column. SPLIT_NUM = 0 is the single stripe of the whole width. Register fields are
// "field+1" values; out-of-range results (illegal programming) clamp at one column.
module dla_pdp_stripe (
  input  logic [7:0]  split_num,
  input  logic [7:0]  j,
  input  logic [12:0] width_m1,       // CUBE_IN_WIDTH field
  input  logic [12:0] out_width_m1,   // CUBE_OUT_WIDTH field
  input  logic [9:0]  in_first_m1,
  input  logic [9:0]  in_mid_m1,
  input  logic [9:0]  in_last_m1,
  input  logic [9:0]  out_first_m1,
  input  logic [9:0]  out_mid_m1,
  input  logic [9:0]  out_last_m1,
  input  logic [3:0]  kw_m1,
  input  logic [3:0]  sw_m1,
  input  logic [2:0]  pad_left,
  input  logic [2:0]  pad_right,
  output logic [13:0] in_m1,          // input columns processed - 1
  output logic [13:0] out_m1,         // output columns - 1
  output logic [2:0]  pl,
  output logic [2:0]  pr,
  output logic [13:0] step,           // next stripe's first column - this one's
  output logic        last            // the layer's last stripe
);
  wire single   = split_num == '0;
  wire is_first = j == '0;
  assign last   = j == split_num;

  // ov = kw - sw; a middle or last stripe processes its width + ov columns.
  wire signed [15:0] ov   = $signed({12'd0, kw_m1}) - $signed({12'd0, sw_m1});
  wire signed [15:0] mid  = $signed({6'd0, in_mid_m1}) + ov;
  wire signed [15:0] lst  = $signed({6'd0, in_last_m1}) + ov;
  wire signed [15:0] part = last ? lst : mid;

  always_comb begin
    if (single)        in_m1 = {1'b0, width_m1};
    else if (is_first) in_m1 = {4'd0, in_first_m1};
    else               in_m1 = part < 0 ? '0 : part[13:0];
    if (single)        out_m1 = {1'b0, out_width_m1};
    else if (is_first) out_m1 = {4'd0, out_first_m1};
    else if (last)     out_m1 = {4'd0, out_last_m1};
    else               out_m1 = {4'd0, out_mid_m1};
    pl   = is_first ? pad_left : '0;
    pr   = last ? pad_right : '0;
    // first stripe: Fi - ov; middle stripes: Mi
    step = is_first ? 14'($signed({6'd0, in_first_m1}) + 16'sd1 - ov) : {4'd0, in_mid_m1} + 14'd1;
  end
endmodule
