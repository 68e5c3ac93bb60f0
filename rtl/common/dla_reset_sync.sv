// Reset synchroniser: asynchronous assertion, deassertion synchronised to clk (two flops).
module dla_reset_sync (
  input  logic clk,
  input  logic rstn_async,
  output logic rstn
);
  logic meta;
  always_ff @(posedge clk or negedge rstn_async)
    if (!rstn_async) {rstn, meta} <= 2'b00;
    else             {rstn, meta} <= {meta, 1'b1};
endmodule
