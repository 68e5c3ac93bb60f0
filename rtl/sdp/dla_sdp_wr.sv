// SDP write DMA: takes output atoms in cube order (surface, line, w), buffers them, and
// writes each line in chunks that stay inside one MAX_BURST-beat block (one AXI burst).
// A chunk is requested only once all of its atoms are buffered, so its W beats never wait.
// `done` = every line requested, every beat sent and every request acknowledged (B).
module dla_sdp_wr #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int DEPTH      = 64,     // atom buffer, power of two, >= MAX_BURST*APB
  parameter bit HAS_BATCH  = 1'b0    // batched convolution output (dla_sdp_batch_walker)
) (
  input  logic                         clk,
  input  logic                         rstn,
  input  logic                         start,
  input  logic                         enable,
  input  logic [ADDR_BITS-1:0]         base,
  input  logic [31:0]                  line_stride,
  input  logic [31:0]                  surf_stride,
  input  logic [12:0]                  line_atoms_m1,
  input  logic [12:0]                  lines_m1,
  input  logic [12:0]                  surfs_m1,
  // pair mode (16->8 input merge / 8->16 output split, sdp.md §4.4, §11.5): one atom per
  // request, alternating between surface 2k and 2k+1 (pair_stride apart) at each position;
  // surf_stride is then the step from pair to pair
  input  logic                       pairs,
  input  logic [31:0]                pair_stride,
  // batches - 1 (0: the cube walk above; else dla_sdp_batch_walker's order) and their stride
  input  logic [4:0]                   batches_m1,
  input  logic [31:0]                  batch_stride,
  // output atoms
  input  logic                         in_valid,
  input  logic [ATOM_BYTES*8-1:0]      in_atom,
  output logic                         in_ready,
  // write requests / data / completions (of the port this layer uses)
  output logic                         wr_req_valid,
  input  logic                         wr_req_ready,
  output logic [ADDR_BITS-1:0]         wr_req_addr,
  output logic [LEN_BITS-1:0]          wr_req_len,
  output logic                         wr_dat_valid,
  input  logic                         wr_dat_ready,
  output logic [APB*ATOM_BYTES*8-1:0]  wr_dat_data,
  output logic [APB-1:0]               wr_dat_mask,
  input  logic                         wr_cmpl,
  output logic                         done
);
  localparam int AB        = ATOM_BYTES * 8;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;
  localparam int APB_M1    = APB - 1;
  localparam int CNT_BITS  = $clog2(DEPTH + 1);
  localparam int LANE_BITS = (APB > 1) ? $clog2(APB) : 1;
  localparam int RQ_BITS   = $clog2(CHUNK + 1);
  localparam int LEN_M1_BITS = $clog2(CHUNK);  // a request is 1..CHUNK atoms: its length - 1 fits

  logic                 running;
  logic [13:0]          chunk;
  logic [CNT_BITS-1:0]  avail, unused_count;
  logic                 plan_full, unused_dat_user, unused_dat_end;
  logic [31:0]          n_req, n_cmpl;

  wire accept = wr_req_valid && wr_req_ready;
  wire batched = HAS_BATCH && batches_m1 != '0;
  logic                 c_running, b_running;
  logic [ADDR_BITS-1:0] c_addr, b_addr;
  logic [13:0]          c_atoms, b_atoms;
  dla_cube_walker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(13)) u_walk (
    .clk, .rstn, .start, .enable(enable && !batched), .base, .line_stride, .surf_stride, .line_atoms_m1,
    .lines_m1, .surfs_m1, .pairs, .pair_stride, .accept, .running(c_running), .addr(c_addr),
    .atoms(c_atoms));
  if (HAS_BATCH) begin : g_batch
    dla_sdp_batch_walker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES)) u_bwalk (
      .clk, .rstn, .start, .enable(enable && batched), .base, .line_stride, .surf_stride,
      .batch_stride, .w_m1(line_atoms_m1), .h_m1(lines_m1), .surfs_m1, .n_m1(batches_m1), .k(3'd1), .accept,
      .running(b_running), .addr(b_addr), .atoms(b_atoms));
  end else begin : g_no_batch
    assign {b_running, b_addr, b_atoms} = '0;
    wire unused_batch = &{1'b0, batch_stride};
  end
  assign running     = c_running || b_running;
  assign wr_req_addr = batched ? b_addr : c_addr;
  assign chunk       = batched ? b_atoms : c_atoms;

  assign wr_req_valid = running && !plan_full && 14'(avail) >= chunk;
  assign wr_req_len   = LEN_BITS'(LEN_M1_BITS'(chunk - 14'd1));

  // ---- atom buffer, issued chunks and their beats at the destination lanes ----
  dla_dma_wr_stream #(.ATOM_BITS(AB), .APB(APB), .BUF_ATOMS(DEPTH), .MAX_ATOMS(CHUNK),
                      .PLAN_DEPTH(8), .USER_BITS(1)) u_stream (
    .clk, .rstn, .in_push(in_valid), .in_atom, .in_room(in_ready), .count(unused_count),
    .req_fire(accept), .req_lane(LANE_BITS'((wr_req_addr >> ATOM_SH) & ADDR_BITS'(APB_M1))),
    .req_atoms(chunk[RQ_BITS-1:0]), .req_user(1'b0), .plan_full, .avail,
    .dat_valid(wr_dat_valid), .dat_ready(wr_dat_ready), .dat_data(wr_dat_data),
    .dat_mask(wr_dat_mask), .dat_user(unused_dat_user), .dat_end(unused_dat_end));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      n_req  <= '0;
      n_cmpl <= '0;
    end else if (start) begin
      n_req  <= '0;
      n_cmpl <= '0;
    end else begin
      n_req  <= n_req + 32'(accept);
      n_cmpl <= n_cmpl + 32'(wr_cmpl);
    end

  assign done = !running && !wr_dat_valid && n_req == n_cmpl;
endmodule
