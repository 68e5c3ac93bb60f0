// AXI4 master shared by DMA clients (one instance per memory port). See docs/rtl.md for the
// client interface. Reads and writes are independent halves; each arbitrates round-robin
// among its clients, splits requests into NVDLA-style bursts (INCR, full bus width, aligned,
// <= MAX_BURST beats, no 4 KiB crossing) and uses the client index as AXI ID.
// Adding a client = raising N_RD / N_WR and wiring one more slice of the flat client ports.
module dla_axi_master #(
  parameter int N_RD        = 1,
  parameter int N_WR        = 1,
  parameter int ADDR_BITS   = 64,
  parameter int DATA_BITS   = 512,
  parameter int ATOM_BYTES  = 32,
  parameter int ID_BITS     = 8,
  parameter int MAX_BURST   = 16,
  parameter int MAX_RD_OUT  = 64,
  parameter int MAX_WR_OUT  = 32,
  parameter int LEN_BITS    = 16,
  parameter int TAG_BITS    = 4,
  parameter int APB         = DATA_BITS / (8 * ATOM_BYTES),
  parameter logic [N_RD-1:0] RD_USED = '1,   // client slots that read / write: an unused slot
  parameter logic [N_WR-1:0] WR_USED = '1    // gets no logic (its inputs are ignored, outputs 0)
) (
  input  logic                      clk,
  input  logic                      rstn,
  // read clients
  input  logic [N_RD-1:0]           rd_req_valid,
  output logic [N_RD-1:0]           rd_req_ready,
  input  logic [N_RD*ADDR_BITS-1:0] rd_req_addr,
  input  logic [N_RD*LEN_BITS-1:0]  rd_req_len,
  input  logic [N_RD*TAG_BITS-1:0]  rd_req_tag,
  output logic [N_RD-1:0]           rd_dat_valid,
  output logic [DATA_BITS-1:0]      rd_dat_data,
  output logic [APB-1:0]            rd_dat_mask,
  output logic [TAG_BITS-1:0]       rd_dat_tag,
  output logic                      rd_dat_last,
  // write clients
  input  logic [N_WR-1:0]           wr_req_valid,
  output logic [N_WR-1:0]           wr_req_ready,
  input  logic [N_WR*ADDR_BITS-1:0] wr_req_addr,
  input  logic [N_WR*LEN_BITS-1:0]  wr_req_len,
  input  logic [N_WR-1:0]           wr_req_cmpl,
  input  logic [N_WR*TAG_BITS-1:0]  wr_req_tag,
  input  logic [N_WR-1:0]           wr_dat_valid,
  output logic [N_WR-1:0]           wr_dat_ready,
  input  logic [N_WR*DATA_BITS-1:0] wr_dat_data,
  input  logic [N_WR*APB-1:0]       wr_dat_mask,
  output logic [N_WR-1:0]           wr_cmpl,
  output logic [TAG_BITS-1:0]       wr_cmpl_tag,
  // AXI4 master port
  output logic                      ar_valid,
  input  logic                      ar_ready,
  output logic [ID_BITS-1:0]        ar_id,
  output logic [3:0]                ar_len,
  output logic [ADDR_BITS-1:0]      ar_addr,
  input  logic                      r_valid,
  output logic                      r_ready,
  input  logic [ID_BITS-1:0]        r_id,
  input  logic                      r_last,
  input  logic [DATA_BITS-1:0]      r_data,
  output logic                      aw_valid,
  input  logic                      aw_ready,
  output logic [ID_BITS-1:0]        aw_id,
  output logic [3:0]                aw_len,
  output logic [ADDR_BITS-1:0]      aw_addr,
  output logic                      w_valid,
  input  logic                      w_ready,
  output logic [DATA_BITS-1:0]      w_data,
  output logic [DATA_BITS/8-1:0]    w_strb,
  output logic                      w_last,
  input  logic                      b_valid,
  output logic                      b_ready,
  input  logic [ID_BITS-1:0]        b_id,
  output logic                      idle      // nothing queued or outstanding on this port
);
  logic rd_idle, wr_idle;

  dla_axi_rd_path #(
    .N(N_RD), .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_RD_OUT), .LEN_BITS(LEN_BITS),
    .TAG_BITS(TAG_BITS), .USED(RD_USED)
  ) u_rd (
    .clk, .rstn,
    .rd_req_valid, .rd_req_ready, .rd_req_addr, .rd_req_len, .rd_req_tag,
    .rd_dat_valid, .rd_dat_data, .rd_dat_mask, .rd_dat_tag, .rd_dat_last,
    .ar_valid, .ar_ready, .ar_id, .ar_len, .ar_addr,
    .r_valid, .r_ready, .r_id, .r_last, .r_data,
    .idle(rd_idle)
  );

  dla_axi_wr_path #(
    .N(N_WR), .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_WR_OUT), .LEN_BITS(LEN_BITS),
    .TAG_BITS(TAG_BITS), .USED(WR_USED)
  ) u_wr (
    .clk, .rstn,
    .wr_req_valid, .wr_req_ready, .wr_req_addr, .wr_req_len, .wr_req_cmpl, .wr_req_tag,
    .wr_dat_valid, .wr_dat_ready, .wr_dat_data, .wr_dat_mask,
    .wr_cmpl, .wr_cmpl_tag,
    .aw_valid, .aw_ready, .aw_id, .aw_len, .aw_addr,
    .w_valid, .w_ready, .w_data, .w_strb, .w_last,
    .b_valid, .b_ready, .b_id,
    .idle(wr_idle)
  );

  assign idle = rd_idle && wr_idle;
endmodule
