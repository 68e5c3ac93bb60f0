// Saturating 32-bit cycle counter with a synchronous clear (clear wins).
module dla_bdma_stall_cnt (
  input  logic        clk,
  input  logic        rstn,
  input  logic        clr,
  input  logic        inc,
  output logic [31:0] count
);
  always_ff @(posedge clk or negedge rstn)
    if (!rstn)                      count <= '0;
    else if (clr)                   count <= '0;
    else if (inc && count != '1)    count <= count + 1'b1;
endmodule
