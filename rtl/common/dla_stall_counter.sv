// A DMA stall counter (D_PERF_*_STALL of PDP/CDP and their RDMAs, BDMA's per-group stall
// counts): clears at a layer's start, counts the clocks `stall` is high, and holds at
// 0xFFFFFFFF instead of wrapping (clear wins).
module dla_stall_counter (
  input  logic        clk,
  input  logic        rstn,
  input  logic        clear,
  input  logic        stall,
  output logic [31:0] count
);
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) count <= '0;
    else if (clear) count <= '0;
    else if (stall && count != '1) count <= count + 32'd1;
endmodule
