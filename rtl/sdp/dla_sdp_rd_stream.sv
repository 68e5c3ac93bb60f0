// One SDP_RDMA read stream (main input, or a BS/BN/EW operand stream): walks surfaces and
// lines of a strided cube of atoms, reads each line in chunks that stay inside one
// MAX_BURST-beat block (one AXI burst each) when the atom buffer has credit for the chunk,
// and delivers records of `rec_atoms` consecutive atoms (1, 2 or 4) in stream order.
// Winograd convolution input (`wino`, per-element operands): the positions are read in the
// order the tiles arrive (dla_sdp_batch_walker with the four lines of a band as four
// "batches"), one request per pair of positions and line.
module dla_sdp_rd_stream #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int DEPTH      = 64,     // atom buffer, power of two, >= MAX_BURST*APB
  parameter int REC        = 4,      // largest record, atoms
  parameter bit HAS_WINO   = 1'b0    // the Winograd walk
) (
  input  logic                       clk,
  input  logic                       rstn,
  input  logic                       start,          // layer start: load the walk
  input  logic                       enable,         // the stream reads in this layer
  input  logic [ADDR_BITS-1:0]       base,
  input  logic [31:0]                line_stride,
  input  logic [31:0]                surf_stride,
  input  logic [15:0]                line_atoms_m1,
  input  logic [12:0]                lines_m1,
  input  logic [12:0]                surfs_m1,
  // pair mode (16->8 input merge / 8->16 output split, sdp.md §4.4, §11.5): one atom per
  // request, alternating between surface 2k and 2k+1 (pair_stride apart) at each position;
  // surf_stride is then the step from pair to pair
  input  logic                       pairs,
  input  logic [31:0]                pair_stride,
  input  logic [2:0]                 rec_atoms,
  input  logic                       wino,           // Winograd order (positions x lines)
  input  logic [12:0]                wino_w_m1,      // positions a line - 1
  input  logic [12:0]                wino_bands_m1,  // bands of four lines - 1
  // read requests and returned data (of the port this stream uses)
  output logic                       rd_req_valid,
  input  logic                       rd_req_ready,
  output logic [ADDR_BITS-1:0]       rd_req_addr,
  output logic [LEN_BITS-1:0]        rd_req_len,
  input  logic                       rd_dat_valid,
  input  logic [APB*ATOM_BYTES*8-1:0] rd_dat_data,
  input  logic [APB-1:0]             rd_dat_mask,
  // records
  output logic                       rec_valid,
  output logic [REC*ATOM_BYTES*8-1:0] rec_data,
  input  logic                       rec_pop,
  output logic                       busy            // requests left to issue
);
  localparam int AB       = ATOM_BYTES * 8;
  localparam int CHUNK    = MAX_BURST * APB;
  localparam int CNT_BITS = $clog2(DEPTH + 1);
  localparam int RQ_BITS  = $clog2(CHUNK + 1);
  localparam int LEN_M1_BITS = $clog2(CHUNK);   // a request is 1..CHUNK atoms: its length - 1 fits

  logic                 running;
  logic [16:0]          chunk;
  logic [CNT_BITS-1:0]  free, take, fifo_count, unused_inflight;

  wire accept = rd_req_valid && rd_req_ready;
  logic                 c_running, w_running;
  logic [ADDR_BITS-1:0] c_addr, w_addr;
  logic [16:0]          c_chunk;
  logic [13:0]          w_atoms;
  dla_cube_walker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(16)) u_walk (
    .clk, .rstn, .start, .enable(enable && !(HAS_WINO && wino)), .base, .line_stride, .surf_stride,
    .line_atoms_m1, .lines_m1, .surfs_m1, .pairs, .pair_stride, .accept, .running(c_running),
    .addr(c_addr), .atoms(c_chunk));
  if (HAS_WINO) begin : g_wino
    dla_sdp_batch_walker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES)) u_wwalk (
      .clk, .rstn, .start, .enable(enable && wino), .base, .line_stride(line_stride << 2),
      .surf_stride, .batch_stride(line_stride), .w_m1(wino_w_m1), .h_m1(wino_bands_m1), .surfs_m1,
      .n_m1(5'd3), .k(rec_atoms), .accept, .running(w_running), .addr(w_addr), .atoms(w_atoms));
  end else begin : g_no_wino
    assign {w_running, w_addr, w_atoms} = '0;
    wire unused_wino = &{1'b0, wino, wino_w_m1, wino_bands_m1};
  end
  assign running     = c_running || w_running;
  assign rd_req_addr = w_running ? w_addr : c_addr;
  assign chunk       = w_running ? 17'(w_atoms) : c_chunk;

  assign rd_req_valid = running && chunk <= 17'(free);
  assign rd_req_len   = LEN_BITS'(LEN_M1_BITS'(chunk - 17'd1));
  assign busy         = running;

  // ---- atom buffer (credit: a chunk is requested only when all of it fits) ----
  logic [APB*AB-1:0] fifo_out;
  dla_dma_rd_buffer #(.ATOM_BITS(AB), .APB(APB), .DEPTH(DEPTH), .PORTS(1), .MAX_ATOMS(CHUNK)) u_buf (
    .clk, .rstn, .req_fire(accept), .req_atoms(chunk[RQ_BITS-1:0]), .free,
    .inflight(unused_inflight), .rd_dat_valid, .rd_dat_data, .rd_dat_mask,
    .take, .out_data(fifo_out), .count(fifo_count));

  // ---- record assembly ----
  logic [2:0] fill, fill_base, space;
  always_comb begin
    fill_base = rec_pop ? 3'd0 : fill;
    space     = (rec_valid && !rec_pop) ? 3'd0 : rec_atoms - fill_base;
    take      = CNT_BITS'(space);
    if (take > CNT_BITS'(APB)) take = CNT_BITS'(APB);
    if (take > fifo_count)     take = fifo_count;
  end
  assign rec_valid = (fill == rec_atoms) && fill != '0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) fill <= '0;
    else if (start) fill <= '0;
    else fill <= fill_base + 3'(take);

  always_ff @(posedge clk)
    for (int r = 0; r < REC; r++)
      for (int i = 0; i < APB; i++)
        if (i < $signed(32'(take)) && r == $signed(32'(fill_base)) + i)
          rec_data[r*AB +: AB] <= fifo_out[i*AB +: AB];
endmodule
