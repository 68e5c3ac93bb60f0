// Round-robin arbiter. `grant` is one-hot among `req` (combinational); the priority moves
// past the granted requester when `advance` is high (i.e. when the grant was used).
module dla_rr_arb #(
  parameter int N = 2,
  parameter int IDX_BITS = (N > 1) ? $clog2(N) : 1
) (
  input  logic                clk,
  input  logic                rstn,
  input  logic [N-1:0]        req,
  input  logic                advance,
  output logic [N-1:0]        grant,
  output logic [IDX_BITS-1:0] grant_idx
);
  // Requester with the highest priority this cycle; the search wraps around from it.
  logic [IDX_BITS-1:0] first;
  logic                hit_above;
  logic [IDX_BITS-1:0] idx_above, idx_any;

  always_comb begin
    hit_above = 1'b0;
    idx_above = '0;
    idx_any   = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (req[i]) idx_any = IDX_BITS'(i);
      if (req[i] && IDX_BITS'(i) >= first) begin
        idx_above = IDX_BITS'(i);
        hit_above = 1'b1;
      end
    end
    grant_idx = hit_above ? idx_above : idx_any;
    grant = '0;
    if (|req) grant[grant_idx] = 1'b1;
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) first <= '0;
    else if (advance && |req)
      first <= (grant_idx == IDX_BITS'(N - 1)) ? '0 : grant_idx + 1'b1;
endmodule
