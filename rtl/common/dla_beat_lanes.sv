// The atoms a read beat carries (its mask is contiguous): how many, and the lowest lane.
module dla_beat_lanes #(
  parameter int APB    = 2,                          // atoms per beat
  parameter int LANE_B = (APB > 1) ? $clog2(APB) : 1
) (
  input  logic [APB-1:0]    mask,
  output logic [LANE_B-1:0] lo,
  output logic [1:0]        n
);
  always_comb begin
    lo = '0;
    n  = '0;
    for (int k = APB - 1; k >= 0; k--) if (mask[k]) lo = LANE_B'(k);
    for (int k = 0; k < APB; k++) n = n + 2'(mask[k]);
  end
endmodule
