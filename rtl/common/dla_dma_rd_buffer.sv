// Read-data side of the DMA read engines (SDP_RDMA streams, PDP_RDMA, CDP_RDMA): the atom
// buffer that takes the returned beats of one or two ports (only one port returns data at a
// time), compacted to a stream of atoms (head in lane 0), with the credit that makes a read
// safe to issue without back-pressure on R: the caller issues a request of `atoms` atoms
// only when `free >= atoms` (room for all of its data) and records it with `req_fire`.
// `inflight` counts requested atoms not yet returned (a port change waits for 0).
module dla_dma_rd_buffer #(
  parameter int ATOM_BITS = 256,
  parameter int APB       = 2,
  parameter int DEPTH     = 64,      // atoms, a power of two >= 2*APB
  parameter int PORTS     = 1,       // 1, or 2 (DBB = 0, SRAM = 1)
  parameter int MAX_ATOMS = 32,      // largest request
  parameter int CNT_BITS  = $clog2(DEPTH + 1),
  parameter int RQ_BITS   = $clog2(MAX_ATOMS + 1)
) (
  input  logic                         clk,
  input  logic                         rstn,
  input  logic                         req_fire,
  input  logic [RQ_BITS-1:0]           req_atoms,
  output logic [CNT_BITS-1:0]          free,       // atoms not reserved by a request
  output logic [CNT_BITS-1:0]          inflight,
  // returned data (payloads per port)
  input  logic [PORTS-1:0]             rd_dat_valid,
  input  logic [PORTS*APB*ATOM_BITS-1:0] rd_dat_data,
  input  logic [PORTS*APB-1:0]         rd_dat_mask,
  // atoms out: the caller pops `take` of the `count` buffered atoms
  input  logic [CNT_BITS-1:0]          take,
  output logic [APB*ATOM_BITS-1:0]     out_data,
  output logic [CNT_BITS-1:0]          count
);
  localparam int DATA_BITS = APB * ATOM_BITS;

  wire           in_valid = |rd_dat_valid;
  wire           in_port  = (PORTS > 1) && rd_dat_valid[PORTS-1];
  wire [APB-1:0] in_mask  = rd_dat_mask[32'(in_port)*APB +: APB];
  logic [CNT_BITS-1:0] in_atoms, reserved;
  always_comb begin
    in_atoms = '0;
    if (in_valid)
      for (int k = 0; k < APB; k++) in_atoms = in_atoms + CNT_BITS'(in_mask[k]);
  end

  dla_atom_fifo #(.ATOM_BITS(ATOM_BITS), .APB(APB), .DEPTH(DEPTH)) u_buf (
    .clk, .rstn, .in_valid, .in_data(rd_dat_data[32'(in_port)*DATA_BITS +: DATA_BITS]), .in_mask,
    .out_lane('0), .out_take(take), .out_data, .count);
  assign free = CNT_BITS'(DEPTH) - reserved;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      reserved <= '0;
      inflight <= '0;
    end else begin
      reserved <= reserved + (req_fire ? CNT_BITS'(req_atoms) : '0) - take;
      inflight <= inflight + (req_fire ? CNT_BITS'(req_atoms) : '0) - in_atoms;
    end
endmodule
