// Per-atom valid mask of one data beat of a DMA request: the request's first beat starts at
// lane a0, its last beat ends at lane aend, beats in between are full.
module dla_axi_beat_mask #(
  parameter int APB       = 2,
  parameter int LANE_BITS = (APB > 1) ? $clog2(APB) : 1
) (
  input  logic                 req_first_beat,
  input  logic                 req_last_beat,
  input  logic [LANE_BITS-1:0] a0,
  input  logic [LANE_BITS-1:0] aend,
  output logic [APB-1:0]       mask
);
  always_comb
    for (int k = 0; k < APB; k++)
      mask[k] = !(req_first_beat && LANE_BITS'(k) < a0) && !(req_last_beat && LANE_BITS'(k) > aend);
endmodule
