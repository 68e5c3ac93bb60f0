// LE/LO table choice from the two per-table classes and the priority bits (sdp.md §8.3).
// Classes: 0 underflow, 1 overflow, 2 hit. sel_lo = 1 picks LO.
module dla_lut_select (
  input  logic [1:0]  le_cls,
  input  logic [8:0]  le_idx,
  input  logic [34:0] le_frac,
  input  logic [1:0]  lo_cls,
  input  logic [8:0]  lo_idx,
  input  logic [34:0] lo_frac,
  input  logic        uflow_pri,
  input  logic        oflow_pri,
  input  logic        hybrid_pri,
  output logic        sel_lo,
  output logic [1:0]  cls,
  output logic [8:0]  idx,
  output logic [34:0] frac
);
  localparam logic [1:0] U = 2'd0, O = 2'd1, H = 2'd2;
  always_comb begin
    if (le_cls == U && lo_cls == U)      sel_lo = uflow_pri;
    else if (le_cls == O && lo_cls == O) sel_lo = oflow_pri;
    else if (le_cls == H && lo_cls == H) sel_lo = hybrid_pri;
    else if (le_cls == H)                sel_lo = 1'b0;
    else if (lo_cls == H)                sel_lo = 1'b1;
    else                                 sel_lo = hybrid_pri;   // one underflows, one overflows
    cls  = sel_lo ? lo_cls : le_cls;
    idx  = sel_lo ? lo_idx : le_idx;
    frac = sel_lo ? lo_frac : le_frac;
  end
endmodule
