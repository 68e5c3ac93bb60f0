// CDP unit as seen from NV_nvdla: CDP_RDMA (read DMA, own register block) feeding the CDP
// core (own register block, LUT, datapath, write DMA). One DMA client on each memory port
// ([0] = DBB, [1] = SRAM): reads from CDP_RDMA, writes from the core. Done interrupts of
// group 0 / 1 go to GLB bits 2 / 3.
module dla_cdp #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int MAX_BURST  = 16,
  parameter bit HAS_INT16  = 1'b1,
  parameter bit HAS_FP16   = 1'b1,
  parameter bit HAS_SRAM   = 1'b1,
  parameter bit OUT_SAT    = 1'b1,   // CDP.D_OUT_SATURATION exists (0: reads 0)
  parameter int IBUF_ATOMS = 64,
  parameter int OBUF_ATOMS = 32,
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                    clk,
  input  logic                    rstn,
  // CSB: the two register windows
  input  logic                    rdma_req_vld,
  input  logic                    core_req_vld,
  input  logic                    req_wr,
  input  logic [9:0]              req_word,
  input  logic [31:0]             req_wdat,
  output logic [31:0]             rd_data,
  // DMA client on both ports
  output logic [1:0]              rd_req_valid,
  input  logic [1:0]              rd_req_ready,
  output logic [ADDR_BITS-1:0]    rd_req_addr,
  output logic [LEN_BITS-1:0]     rd_req_len,
  input  logic [1:0]              rd_dat_valid,
  input  logic [2*DATA_BITS-1:0]  rd_dat_data,
  input  logic [2*APB-1:0]        rd_dat_mask,
  output logic [1:0]              wr_req_valid,
  input  logic [1:0]              wr_req_ready,
  output logic [ADDR_BITS-1:0]    wr_req_addr,
  output logic [LEN_BITS-1:0]     wr_req_len,
  output logic                    wr_req_cmpl,
  output logic [TAG_BITS-1:0]     wr_req_tag,
  output logic [1:0]              wr_dat_valid,
  input  logic [1:0]              wr_dat_ready,
  output logic [DATA_BITS-1:0]    wr_dat_data,
  output logic [APB-1:0]          wr_dat_mask,
  input  logic [1:0]              wr_cmpl,
  input  logic [2*TAG_BITS-1:0]   wr_cmpl_tag,
  output logic [1:0]              intr_done
);
  localparam int BLOCK = 8;     // atoms per width block of the DMA order (§6.2)
  logic [31:0]             rd_rdma, rd_core;
  logic                    a_valid, a_ready, armed;
  logic [8*ATOM_BYTES-1:0] a_data;
  logic [12:0]             width_m1, height_m1, chan_m1;

  dla_cdp_rdma #(
    .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS), .ADDR_BITS(ADDR_BITS), .LEN_BITS(LEN_BITS),
    .MAX_BURST(MAX_BURST), .BLOCK(BLOCK), .HAS_16BIT(HAS_INT16 || HAS_FP16), .HAS_SRAM(HAS_SRAM),
    .BUF_ATOMS(IBUF_ATOMS)
  ) u_rdma (
    .clk, .rstn, .req_vld(rdma_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_rdma),
    .rd_req_valid, .rd_req_ready, .rd_req_addr, .rd_req_len,
    .rd_dat_valid, .rd_dat_data, .rd_dat_mask,
    .armed, .width_m1, .height_m1, .chan_m1,
    .o_valid(a_valid), .o_ready(a_ready), .o_data(a_data)
  );

  dla_cdp_core #(
    .TP(TP), .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS), .ADDR_BITS(ADDR_BITS),
    .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS), .MAX_BURST(MAX_BURST), .BLOCK(BLOCK),
    .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16), .HAS_SRAM(HAS_SRAM), .OUT_SAT(OUT_SAT),
    .OBUF_ATOMS(OBUF_ATOMS)
  ) u_core (
    .clk, .rstn, .req_vld(core_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_core),
    .rdma_armed(armed), .rdma_width_m1(width_m1), .rdma_height_m1(height_m1),
    .rdma_chan_m1(chan_m1), .in_valid(a_valid), .in_ready(a_ready), .in_data(a_data),
    .wr_req_valid, .wr_req_ready, .wr_req_addr, .wr_req_len, .wr_req_cmpl, .wr_req_tag,
    .wr_dat_valid, .wr_dat_ready, .wr_dat_data, .wr_dat_mask, .wr_cmpl, .wr_cmpl_tag,
    .intr_done
  );

  assign rd_data = rd_rdma | rd_core;
endmodule
