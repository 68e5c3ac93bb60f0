// PDP_RDMA: the PDP_RDMA register block and the read DMA of off-flying layers.
// Reads the input cube in the order of pdp_cdp_bdma_rubik_glb.md §6.1 (per stripe, per
// surface, per row: the stripe's input columns of the row), each row split into chunks that
// stay inside one MAX_BURST-beat aligned block (one AXI burst), and hands the atoms to the
// PDP core in that order. A chunk is requested only when the atom buffer has room for it
// (credit), so read data is never back-pressured. OP_EN clears (op_done) when the whole cube
// has been delivered to the core. A group armed with FLYING_MODE = 0 (on-flying: PDP_RDMA
// should not be armed) reads nothing and never completes, as in the golden model.
module dla_pdp_rdma #(
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int MAX_BURST  = 16,
  parameter bit HAS_16BIT  = 1'b1,     // int16 or fp16 exist (2-byte elements)
  parameter bit HAS_SRAM   = 1'b1,
  parameter int BUF_ATOMS  = 128,      // read-ahead buffer, a power of two
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                   clk,
  input  logic                   rstn,
  // CSB access to the register block
  input  logic                   req_vld,
  input  logic                   req_wr,
  input  logic [9:0]             req_word,
  input  logic [31:0]            req_wdat,
  output logic [31:0]            rd_data,
  // DMA read client ([0] = DBB, [1] = SRAM; request payload shared)
  output logic [1:0]             rd_req_valid,
  input  logic [1:0]             rd_req_ready,
  output logic [ADDR_BITS-1:0]   rd_req_addr,
  output logic [LEN_BITS-1:0]    rd_req_len,
  input  logic [1:0]             rd_dat_valid,
  input  logic [2*DATA_BITS-1:0] rd_dat_data,
  input  logic [2*APB-1:0]       rd_dat_mask,
  // atoms to the PDP core, in stream order
  output logic                   o_valid,
  input  logic                   o_ready,
  output logic [8*ATOM_BYTES-1:0] o_data
);
  localparam int ATOM_BITS = 8 * ATOM_BYTES;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;

  // ---- registers ------------------------------------------------------------------------
  logic        op_en, op_done, unused_consumer, unused_producer;
  logic [12:0] width_m1, height_m1, chan_m1;
  logic        flying, ram_type, perf_en;
  logic [31:0] src_lo, src_hi, line_stride, surf_stride, read_stall, unused_cya;
  logic [1:0]  fmt;
  logic [7:0]  split_num;
  logic [3:0]  kw_m1, sw_m1, unused_pad_width;
  logic [9:0]  in_first_m1, in_last_m1, in_mid_m1;

  dla_pdp_rdma_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .op_done, .op_en, .consumer(unused_consumer), .producer(unused_producer),
    .d_data_cube_in_width_cube_in_width(width_m1),
    .d_data_cube_in_height_cube_in_height(height_m1),
    .d_data_cube_in_channel_cube_in_channel(chan_m1),
    .d_flying_mode_flying_mode(flying),
    .d_src_base_addr_low_src_base_addr_low(src_lo),
    .d_src_base_addr_high_src_base_addr_high(src_hi),
    .d_src_line_stride_src_line_stride(line_stride),
    .d_src_surface_stride_src_surface_stride(surf_stride),
    .d_src_ram_cfg_src_ram_type(ram_type),
    .d_data_format_input_data(fmt),
    .d_operation_mode_cfg_split_num(split_num),
    .d_pooling_kernel_cfg_kernel_width(kw_m1),
    .d_pooling_kernel_cfg_kernel_stride_width(sw_m1),
    .d_pooling_padding_cfg_pad_width(unused_pad_width),
    .d_partial_width_in_partial_width_in_first(in_first_m1),
    .d_partial_width_in_partial_width_in_last(in_last_m1),
    .d_partial_width_in_partial_width_in_mid(in_mid_m1),
    .d_perf_enable_dma_en(perf_en),
    .d_perf_read_stall_perf_read_stall(read_stall),
    .d_cya_cya(unused_cya)
  );

  /* verilator lint_off UNUSEDSIGNAL */   // address bits above ADDR_BITS
  wire [63:0] src64 = {src_hi, src_lo};
  /* verilator lint_on UNUSEDSIGNAL */
  wire two_byte = HAS_16BIT && fmt != 2'd0;
  wire [12:0] surf_m1 = two_byte ? chan_m1 >> (ATOM_SH - 1) : chan_m1 >> ATOM_SH;
  wire port = HAS_SRAM ? !ram_type : 1'b0;

  // ---- stripe geometry ------------------------------------------------------------------
  logic [7:0]  st_j;
  logic [13:0] wp_m1, step, unused_ow;
  logic [2:0]  unused_pl, unused_pr;
  logic        last_stripe;
  dla_pdp_stripe u_geom (
    .split_num, .j(st_j), .width_m1, .out_width_m1(13'd0), .in_first_m1, .in_mid_m1,
    .in_last_m1, .out_first_m1(10'd0), .out_mid_m1(10'd0), .out_last_m1(10'd0),
    .kw_m1, .sw_m1, .pad_left(3'd0), .pad_right(3'd0),
    .in_m1(wp_m1), .out_m1(unused_ow), .pl(unused_pl), .pr(unused_pr), .step, .last(last_stripe)
  );

  // ---- read walker: stripe -> surface -> row -> chunks of the stripe's columns ---------
  logic                 running, walking, row_end;
  logic [12:0]          st_s, st_h;
  logic [13:0]          xin;
  logic [ADDR_BITS-1:0] surf_base, line_base;
  logic [14:0]          chunk;

  wire  start = op_en && !running;
  logic rd_fire, buf_empty; `ifdef DLA_PLANTS wire [3:0] plant_pdp_rdma /*verilator public_flat_rw*/; `endif
  dla_dma_rd_client #(.ATOM_BITS(ATOM_BITS), .APB(APB), .BUF_ATOMS(BUF_ATOMS), .CHUNK(CHUNK),
                      .LEN_BITS(LEN_BITS)) u_client (
    .clk, .rstn, .start, .walking(walking `ifdef DLA_PLANTS && (plant_pdp_rdma != 4'd1 || buf_empty) `endif), .port, .chunk, .perf_en, .rd_fire, .empty(buf_empty),
    .rd_req_valid, .rd_req_ready, .rd_req_len, .rd_dat_valid, .rd_dat_data, .rd_dat_mask,
    .o_valid, .o_ready, .o_data, .read_stall);

  assign op_done = running && flying && !walking && buf_empty;

  dla_line_chunker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(14)) u_chunk (
    .clk, .rstn, .clear(start), .line_addr(line_base + (ADDR_BITS'(xin) << ATOM_SH)),
    .line_atoms_m1(wp_m1), .single(1'b0), .step(rd_fire),
    .addr(rd_req_addr), .atoms(chunk), .last(row_end));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running   <= 1'b0;
      walking   <= 1'b0;
      st_j      <= '0;
      st_s      <= '0;
      st_h      <= '0;
      xin       <= '0;
      surf_base <= '0;
      line_base <= '0;
    end else begin
      if (start) begin
        running   <= 1'b1;
        walking   <= flying;
        st_j      <= '0;
        st_s      <= '0;
        st_h      <= '0;
        xin       <= '0;
        surf_base <= src64[ADDR_BITS-1:0];
        line_base <= src64[ADDR_BITS-1:0];
      end
      if (op_done) running <= 1'b0;
      if (rd_fire) begin
        if (row_end) begin
          if (st_h != height_m1) begin
            st_h      <= st_h + 13'd1;
            line_base <= line_base + ADDR_BITS'(line_stride);
          end else begin
            st_h <= '0;
            if (st_s != surf_m1) begin
              st_s      <= st_s + 13'd1;
              surf_base <= surf_base + ADDR_BITS'(surf_stride);
              line_base <= surf_base + ADDR_BITS'(surf_stride);
            end else begin
              st_s      <= '0;
              surf_base <= src64[ADDR_BITS-1:0];
              line_base <= src64[ADDR_BITS-1:0];
              xin       <= xin + step;
              if (last_stripe) walking <= 1'b0;
              else st_j <= st_j + 8'd1;
            end
          end
        end
      end
    end

endmodule
