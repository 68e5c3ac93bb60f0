// One read client of a unit's RDMA on the two memory ports (PDP_RDMA, CDP_RDMA): the caller's
// walker says what to read next (`walking`, `chunk` atoms at the walker's address, on `port`);
// a request goes out when the port has no reads of the other port in flight (returns stay in
// order) and the atom buffer has room for all of the chunk (read data is never
// back-pressured). Returned atoms come out one a clock in request order. The D_PERF_READ_STALL
// counter counts the clocks a request waited for the port while PERF_ENABLE.DMA_EN is set.
//
// A request, once presented, stays presented until rd_fire (the read path's rule, docs/rtl.md):
// the read path accepts a request with its last burst, and the data of its first burst may
// return before that, so after a port change `inflight` can leave 0 while the request is still
// waiting; the port check only gates the first presentation (`presented`). The caller keeps
// walking, port, chunk and the address stable until rd_fire.
module dla_dma_rd_client #(
  parameter int ATOM_BITS = 256,
  parameter int APB       = 2,
  parameter int BUF_ATOMS = 64,      // read-ahead buffer, a power of two
  parameter int CHUNK     = 32,      // largest request, atoms
  parameter int LEN_BITS  = 16
) (
  input  logic                         clk,
  input  logic                         rstn,
  input  logic                         start,          // a layer starts: the stall count clears
  input  logic                         walking,        // the walker has a chunk to request
  input  logic                         port,           // 0 DBB, 1 SRAM
  input  logic [14:0]                  chunk,
  input  logic                         perf_en,
  output logic                         rd_fire,        // the chunk was requested
  output logic                         empty,          // nothing requested is still to come
  // DMA read client ([0] = DBB, [1] = SRAM; one payload)
  output logic [1:0]                   rd_req_valid,
  input  logic [1:0]                   rd_req_ready,
  output logic [LEN_BITS-1:0]          rd_req_len,
  input  logic [1:0]                   rd_dat_valid,
  input  logic [2*APB*ATOM_BITS-1:0]   rd_dat_data,
  input  logic [2*APB-1:0]             rd_dat_mask,
  // atoms in request order
  output logic                         o_valid,
  input  logic                         o_ready,
  output logic [ATOM_BITS-1:0]         o_data,
  output logic [31:0]                  read_stall
);
  localparam int CNT_BITS = $clog2(BUF_ATOMS + 1);
  localparam int RQ_BITS  = $clog2(CHUNK + 1);
  localparam int LEN_M1_BITS = $clog2(CHUNK);   // a request is 1..CHUNK atoms: its length - 1 fits

  logic                last_port, presented;
  logic [CNT_BITS-1:0] free, inflight, buf_count;
  wire port_ok  = port == last_port || inflight == '0 || presented;
  wire room_ok  = {{(15-CNT_BITS){1'b0}}, free} >= chunk;
  wire rd_valid = walking && port_ok && room_ok;
  assign rd_req_valid = {rd_valid && port, rd_valid && !port};
  assign rd_req_len   = LEN_BITS'(LEN_M1_BITS'(chunk - 15'd1));
  assign rd_fire      = rd_valid && rd_req_ready[port];
  assign empty        = free == CNT_BITS'(BUF_ATOMS);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) last_port <= 1'b0;
    else if (rd_fire) last_port <= port;

  // the request was presented and not accepted in the last clock (it may be partly taken)
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) presented <= 1'b0;
    else presented <= rd_valid && !rd_fire;

  /* verilator lint_off UNUSEDSIGNAL */   // the head atom is always placed in lane 0
  logic [APB*ATOM_BITS-1:0] buf_out;
  /* verilator lint_on UNUSEDSIGNAL */
  wire take = o_valid && o_ready;
  dla_dma_rd_buffer #(.ATOM_BITS(ATOM_BITS), .APB(APB), .DEPTH(BUF_ATOMS), .PORTS(2),
                      .MAX_ATOMS(CHUNK)) u_buf (
    .clk, .rstn, .req_fire(rd_fire), .req_atoms(chunk[RQ_BITS-1:0]), .free, .inflight,
    .rd_dat_valid, .rd_dat_data, .rd_dat_mask,
    .take(CNT_BITS'(take)), .out_data(buf_out), .count(buf_count));
  assign o_valid = buf_count != '0;
  assign o_data  = buf_out[ATOM_BITS-1:0];

  dla_stall_counter u_stall (.clk, .rstn, .clear(start), .stall(perf_en && rd_valid && !rd_req_ready[port]),
                             .count(read_stall));
endmodule
