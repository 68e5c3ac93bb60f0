// One step of the order in which a batched convolution's output atoms travel from CSC through
// CACC to SDP (docs/conv-rtl.md, batching): within an output line, pixels are taken in pairs
// (x, x + 1) from x = 0, and each pair is sent for batch 0, then batch 1, ... (x, b), (x + 1, b);
// an odd line's last pixel goes alone, batch after batch. With one batch this is raster order.
//
// A position is (xp, dx, b, y): the pair's first pixel, 0 or 1 within the pair, the batch and
// the line; the pixel is xp + dx. `line_end` / `last` say the step leaves the line / the cube.
module dla_batch_order (
  input  logic [12:0] w_m1,         // output width - 1
  input  logic [12:0] h_m1,         // output height - 1
  input  logic [4:0]  n_m1,         // batches - 1
  input  logic [12:0] xp,
  input  logic        dx,
  input  logic [4:0]  b,
  input  logic [12:0] y,
  output logic [12:0] xp_next,
  output logic        dx_next,
  output logic [4:0]  b_next,
  output logic [12:0] y_next,
  output logic        line_end,     // the next position is on the next line
  output logic        last          // this was the last position of the cube
);
  wire pair     = 14'(xp) + 14'd1 <= 14'(w_m1);       // the pair has a second pixel
  wire pair_end = !pair || dx;
  always_comb begin
    xp_next  = xp;
    dx_next  = 1'b0;
    b_next   = b;
    y_next   = y;
    line_end = 1'b0;
    if (!pair_end) dx_next = 1'b1;
    else if (b != n_m1) b_next = b + 5'd1;
    else begin
      b_next = '0;
      if (14'(xp) + 14'd2 <= 14'(w_m1)) xp_next = xp + 13'd2;
      else begin
        xp_next  = '0;
        y_next   = y + 13'd1;
        line_end = 1'b1;
      end
    end
  end
  assign last = line_end && y == h_m1;
endmodule
