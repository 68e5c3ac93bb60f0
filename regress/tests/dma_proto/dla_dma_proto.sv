// Test wrapper (not part of the DUT): the read protocol between the DMA read clients and the
// AXI master's read half, on their own, so rtl_dma_proto_test.cpp can drive them against an
// AXI slave model with random AR back-pressure and R latency. Two memory ports (0 DBB,
// 1 SRAM), each a dla_axi_rd_path with N = 2 clients; each client index is one
// dla_dma_rd_client (as in PDP_RDMA and CDP_RDMA) reading on both ports. The test drives the
// clients' walks (walking, port, chunk, address) and watches the request channels of both
// ports (valid, ready, length) and the AR channels to check the request stability rule.
module dla_dma_proto #(
  parameter int ADDR_BITS  = 32,
  parameter int DATA_BITS  = 512,
  parameter int ATOM_BYTES = 32,
  parameter int ID_BITS    = 8,
  parameter int MAX_BURST  = 16,
  parameter int MAX_OUT    = 8,
  parameter int LEN_BITS   = 16,
  parameter int BUF_ATOMS  = 64,
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES),
  parameter int CHUNK      = MAX_BURST * APB,
  parameter int AB         = 8 * ATOM_BYTES
) (
  input  logic                     clk,
  input  logic                     rstn,
  // the clients' walks ([c] = client c)
  input  logic [1:0]               walking,
  input  logic [1:0]               port,
  input  logic [2*15-1:0]          chunk,
  input  logic [2*ADDR_BITS-1:0]   addr,
  output logic [1:0]               rd_fire,
  output logic [1:0]               empty,
  output logic [1:0]               o_valid,
  input  logic [1:0]               o_ready,
  output logic [2*AB-1:0]          o_data,
  // request channels seen at the masters ([p*2 + c] = port p, client c)
  output logic [3:0]               req_valid,
  output logic [3:0]               req_ready,
  output logic [2*LEN_BITS-1:0]    req_len,
  // AXI AR and R of the two ports ([p])
  output logic [1:0]               ar_valid,
  input  logic [1:0]               ar_ready,
  output logic [2*ID_BITS-1:0]     ar_id,
  output logic [2*4-1:0]           ar_len,
  output logic [2*ADDR_BITS-1:0]   ar_addr,
  input  logic [1:0]               r_valid,
  input  logic [2*ID_BITS-1:0]     r_id,
  input  logic [1:0]               r_last,
  input  logic [2*DATA_BITS-1:0]   r_data,
  // CDMA's image fetch (dla_cdma_img, integer pixels, no padding or conversion) on a read path
  // of its own (one client, at most two bursts outstanding)
  input  logic                     i_start,
  input  logic [5:0]               i_pixel_format,
  input  logic [12:0]              i_width_m1,
  input  logic [12:0]              i_height_m1,
  input  logic [12:0]              i_chan_m1,
  input  logic [ADDR_BITS-1:0]     i_addr0,
  input  logic [ADDR_BITS-1:0]     i_addr1,
  input  logic [31:0]              i_line_stride,
  input  logic [31:0]              i_uv_stride,
  output logic [13:0]              i_rows_done,
  output logic                     i_req_valid,
  output logic                     i_req_ready,
  output logic [ADDR_BITS-1:0]     i_req_addr,
  output logic [LEN_BITS-1:0]      i_req_len,
  output logic [3:0]               i_req_tag,
  output logic                     i_ar_valid,
  input  logic                     i_ar_ready,
  output logic [ID_BITS-1:0]       i_ar_id,
  output logic [3:0]               i_ar_len,
  output logic [ADDR_BITS-1:0]     i_ar_addr,
  input  logic                     i_r_valid,
  input  logic [ID_BITS-1:0]       i_r_id,
  input  logic                     i_r_last,
  input  logic [DATA_BITS-1:0]     i_r_data
);
  localparam int TAG_BITS = 4;

  // per port p: the clients' request valids and readies, the returned beats
  logic [3:0]           dat_valid;   // [p*2 + c]
  logic [DATA_BITS-1:0] p_dat_data  [2];
  logic [APB-1:0]       p_dat_mask  [2];
  /* verilator lint_off UNUSEDSIGNAL */
  logic [TAG_BITS-1:0]  unused_tag  [2];
  logic [1:0]           unused_last, unused_r_ready, unused_idle;
  logic [31:0]          unused_stall [2];
  /* verilator lint_on UNUSEDSIGNAL */

  for (genvar p = 0; p < 2; p++) begin : g_port
    dla_axi_rd_path #(
      .N(2), .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
      .ID_BITS(ID_BITS), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_OUT), .LEN_BITS(LEN_BITS),
      .TAG_BITS(TAG_BITS)
    ) u_rd (
      .clk, .rstn,
      .rd_req_valid(req_valid[p*2 +: 2]), .rd_req_ready(req_ready[p*2 +: 2]), .rd_req_addr(addr),
      .rd_req_len(req_len), .rd_req_tag('0),
      .rd_dat_valid(dat_valid[p*2 +: 2]), .rd_dat_data(p_dat_data[p]), .rd_dat_mask(p_dat_mask[p]),
      .rd_dat_tag(unused_tag[p]), .rd_dat_last(unused_last[p]),
      .ar_valid(ar_valid[p]), .ar_ready(ar_ready[p]), .ar_id(ar_id[p*ID_BITS +: ID_BITS]),
      .ar_len(ar_len[p*4 +: 4]), .ar_addr(ar_addr[p*ADDR_BITS +: ADDR_BITS]),
      .r_valid(r_valid[p]), .r_ready(unused_r_ready[p]), .r_id(r_id[p*ID_BITS +: ID_BITS]),
      .r_last(r_last[p]), .r_data(r_data[p*DATA_BITS +: DATA_BITS]), .idle(unused_idle[p])
    );
  end

  for (genvar c = 0; c < 2; c++) begin : g_client
    dla_dma_rd_client #(.ATOM_BITS(AB), .APB(APB), .BUF_ATOMS(BUF_ATOMS), .CHUNK(CHUNK),
                        .LEN_BITS(LEN_BITS)) u_client (
      .clk, .rstn, .start(1'b0), .walking(walking[c]), .port(port[c]),
      .chunk(chunk[c*15 +: 15]), .perf_en(1'b0), .rd_fire(rd_fire[c]), .empty(empty[c]),
      .rd_req_valid({req_valid[2+c], req_valid[c]}), .rd_req_ready({req_ready[2+c], req_ready[c]}),
      .rd_req_len(req_len[c*LEN_BITS +: LEN_BITS]),
      .rd_dat_valid({dat_valid[2+c], dat_valid[c]}),
      .rd_dat_data({p_dat_data[1], p_dat_data[0]}), .rd_dat_mask({p_dat_mask[1], p_dat_mask[0]}),
      .o_valid(o_valid[c]), .o_ready(o_ready[c]), .o_data(o_data[c*AB +: AB]),
      .read_stall(unused_stall[c]));
  end

  // ---- CDMA image fetch
  localparam int EA = 12;
  logic                 i_dat_valid;
  logic [DATA_BITS-1:0] i_dat_data;
  logic [APB-1:0]       i_dat_mask;
  logic [TAG_BITS-1:0]  i_dat_tag;
  /* verilator lint_off UNUSEDSIGNAL */
  logic                 i_unused_last, i_unused_r_ready, i_unused_idle, i_w_en;
  logic [EA-1:0]        i_w_addr;
  logic [8*128-1:0]     i_w_data;
  logic [127:0]         i_w_mask;
  logic [$clog2(ATOM_BYTES / 2):0] i_nan, i_inf;
  /* verilator lint_on UNUSEDSIGNAL */
  dla_axi_rd_path #(
    .N(1), .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(MAX_BURST), .MAX_OUT(2), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS)
  ) u_img_rd (
    .clk, .rstn,
    .rd_req_valid(i_req_valid), .rd_req_ready(i_req_ready), .rd_req_addr(i_req_addr),
    .rd_req_len(i_req_len), .rd_req_tag(i_req_tag),
    .rd_dat_valid(i_dat_valid), .rd_dat_data(i_dat_data), .rd_dat_mask(i_dat_mask),
    .rd_dat_tag(i_dat_tag), .rd_dat_last(i_unused_last),
    .ar_valid(i_ar_valid), .ar_ready(i_ar_ready), .ar_id(i_ar_id), .ar_len(i_ar_len),
    .ar_addr(i_ar_addr), .r_valid(i_r_valid), .r_ready(i_unused_r_ready), .r_id(i_r_id),
    .r_last(i_r_last), .r_data(i_r_data), .idle(i_unused_idle)
  );
  dla_cdma_img #(
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES), .ENTRY_BYTES(128),
    .EA(EA), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS)
  ) u_img (
    .clk, .rstn, .start(i_start), .pixel_format(i_pixel_format), .es2(1'b0), .fp_out(1'b0),
    .nan_to_zero(1'b0), .sign_override(1'b0), .width_m1(i_width_m1), .height_m1(i_height_m1),
    .chan_m1(i_chan_m1), .x_offset('0), .addr0(i_addr0), .addr1(i_addr1),
    .line_stride(i_line_stride), .uv_stride(i_uv_stride), .pad_left('0), .pad_right('0),
    .pad_value('0), .cvt_en(1'b0), .cvt_truncate('0), .cvt_offset('0), .cvt_scale('0),
    .mean_format(1'b0), .mean_ry('0), .mean_gu('0), .mean_bv('0), .mean_ax('0),
    .slice_base0('0), .eps_p1((EA+1)'(64)), .data_ring((EA+1)'(1 << EA)),
    .req_valid(i_req_valid), .req_ready(i_req_ready), .req_addr(i_req_addr), .req_len(i_req_len),
    .req_tag(i_req_tag), .dat_valid(i_dat_valid), .dat_data(i_dat_data), .dat_mask(i_dat_mask),
    .dat_tag(i_dat_tag), .w_en(i_w_en), .w_addr(i_w_addr), .w_data(i_w_data), .w_mask(i_w_mask),
    .rows_done(i_rows_done), .cen_nan(i_nan), .cen_inf(i_inf)
  );
endmodule
