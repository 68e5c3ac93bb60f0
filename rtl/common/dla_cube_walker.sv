// Cube walker of the SDP DMA streams (SDP_RDMA's input and operand streams, SDP's write):
// walks the lines of a strided cube, surface by surface, line by line, and cuts each line into
// burst-sized chunks with dla_line_chunker. `addr`/`atoms` is the chunk to request now;
// `accept` says it was taken. `running` drops after the last chunk of the last line.
//
// Pair mode (SDP 16->8 input merge / 8->16 output split, docs/sdp-rtl.md): one atom per
// request, alternating between surface 2k and 2k+1 (pair_stride apart) at each position;
// surf_stride is then the step from pair to pair, and a line ends with the second atom of
// its last position.
module dla_cube_walker #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int CHUNK      = 32,     // atoms of one burst block, a power of two
  parameter int N_BITS     = 13      // width of the line length (atoms - 1)
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic                 start,          // load the walk
  input  logic                 enable,         // the walk has work in this layer
  input  logic [ADDR_BITS-1:0] base,
  input  logic [31:0]          line_stride,
  input  logic [31:0]          surf_stride,
  input  logic [N_BITS-1:0]    line_atoms_m1,
  input  logic [12:0]          lines_m1,
  input  logic [12:0]          surfs_m1,
  input  logic                 pairs,
  input  logic [31:0]          pair_stride,
  input  logic                 accept,         // the chunk below was requested
  output logic                 running,
  output logic [ADDR_BITS-1:0] addr,
  output logic [N_BITS:0]      atoms
);
  logic                 second, c_last;
  logic [ADDR_BITS-1:0] line_base, surf_base;
  logic [12:0]          l_left, s_left;
  wire line_end = c_last && (!pairs || second);

  dla_line_chunker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(N_BITS)) u_chunk (
    .clk, .rstn, .clear(start),
    .line_addr(line_base + (second ? ADDR_BITS'(pair_stride) : '0)), .line_atoms_m1,
    .single(pairs), .step(accept && (!pairs || second)),
    .addr, .atoms, .last(c_last));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running   <= 1'b0;
      line_base <= '0;
      surf_base <= '0;
      l_left    <= '0;
      s_left    <= '0;
      second    <= 1'b0;
    end else if (start) begin
      running   <= enable;
      line_base <= base;
      surf_base <= base;
      l_left    <= lines_m1;
      s_left    <= surfs_m1;
      second    <= 1'b0;
    end else if (accept) begin
      second <= pairs && !second;
      if (line_end) begin
        if (l_left != '0) begin
          l_left    <= l_left - 1'b1;
          line_base <= line_base + ADDR_BITS'(line_stride);
        end else if (s_left != '0) begin
          s_left    <= s_left - 1'b1;
          l_left    <= lines_m1;
          surf_base <= surf_base + ADDR_BITS'(surf_stride);
          line_base <= surf_base + ADDR_BITS'(surf_stride);
        end else running <= 1'b0;
      end
    end
endmodule
