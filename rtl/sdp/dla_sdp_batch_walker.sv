// Walk of a batched (or Winograd) convolution's output in dla_batch_order's order (SDP flying
// mode, docs/sdp-rtl.md), surface by surface: per line each pair of pixels (x, x + 1) batch
// after batch, one request of 2k atoms (k for an odd line's last pixel) at
//   base + s * surf_stride + y * line_stride + x * k * A + b * batch_stride
// (k atoms a position: 1 for the output writes, 1, 2 or 4 for per-element operand reads).
module dla_sdp_batch_walker #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic                 start,
  input  logic                 enable,
  input  logic [ADDR_BITS-1:0] base,
  input  logic [31:0]          line_stride,
  input  logic [31:0]          surf_stride,
  input  logic [31:0]          batch_stride,
  input  logic [12:0]          w_m1,
  input  logic [12:0]          h_m1,
  input  logic [12:0]          surfs_m1,
  input  logic [4:0]           n_m1,
  input  logic [2:0]           k,              // atoms per position
  input  logic                 accept,         // the request below was taken
  output logic                 running,
  output logic [ADDR_BITS-1:0] addr,
  output logic [13:0]          atoms
);
  logic [12:0]          xp, y, s;
  logic [4:0]           b;
  logic [ADDR_BITS-1:0] surf_base, line_base, x_off, b_off;
  wire                  pair = 14'(xp) + 14'd1 <= 14'(w_m1);

  assign addr  = line_base + x_off + b_off;
  assign atoms = pair ? 14'(k) << 1 : 14'(k);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running <= 1'b0;
      {xp, y, s, b} <= '0;
      {surf_base, line_base, x_off, b_off} <= '0;
    end else if (start) begin
      running   <= enable;
      {xp, y, s, b} <= '0;
      surf_base <= base;
      line_base <= base;
      x_off     <= '0;
      b_off     <= '0;
    end else if (accept) begin
      if (b != n_m1) begin
        b     <= b + 5'd1;
        b_off <= b_off + ADDR_BITS'(batch_stride);
      end else begin
        b     <= '0;
        b_off <= '0;
        if (14'(xp) + 14'd2 <= 14'(w_m1)) begin
          xp    <= xp + 13'd2;
          x_off <= x_off + (ADDR_BITS'(k) << ($clog2(ATOM_BYTES) + 1));
        end else begin
          xp    <= '0;
          x_off <= '0;
          if (y != h_m1) begin
            y         <= y + 13'd1;
            line_base <= line_base + ADDR_BITS'(line_stride);
          end else begin
            y <= '0;
            if (s != surfs_m1) begin
              s         <= s + 13'd1;
              surf_base <= surf_base + ADDR_BITS'(surf_stride);
              line_base <= surf_base + ADDR_BITS'(surf_stride);
            end else running <= 1'b0;
          end
        end
      end
    end
endmodule
