// CDP_RDMA: the CDP_RDMA register block and the read DMA of the CDP input cube.
// Reads in the order of pdp_cdp_bdma_rubik_glb.md §6.2: per row h, per block of up to
// BLOCK atoms along the width, per surface s: the block's atoms of (h, s). A block is split
// into chunks that stay inside one MAX_BURST-beat aligned region (one AXI burst). A chunk is
// requested only when the atom buffer has room for all of it (credit), so read data is never
// back-pressured. Atoms leave in the same order. OP_EN clears (op_done) when the whole cube
// has been delivered to the datapath (§2.12). The geometry outputs show the consumer group.
module dla_cdp_rdma #(
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int MAX_BURST  = 16,
  parameter int BLOCK      = 8,        // atoms per width block
  parameter bit HAS_16BIT  = 1'b1,     // int16 or fp16 exist (2-byte elements)
  parameter bit HAS_SRAM   = 1'b1,
  parameter int BUF_ATOMS  = 64,       // read-ahead buffer, a power of two
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                    clk,
  input  logic                    rstn,
  // CSB access to the register block
  input  logic                    req_vld,
  input  logic                    req_wr,
  input  logic [9:0]              req_word,
  input  logic [31:0]             req_wdat,
  output logic [31:0]             rd_data,
  // DMA read client ([0] = DBB, [1] = SRAM; request payload shared)
  output logic [1:0]              rd_req_valid,
  input  logic [1:0]              rd_req_ready,
  output logic [ADDR_BITS-1:0]    rd_req_addr,
  output logic [LEN_BITS-1:0]     rd_req_len,
  input  logic [1:0]              rd_dat_valid,
  input  logic [2*DATA_BITS-1:0]  rd_dat_data,
  input  logic [2*APB-1:0]        rd_dat_mask,
  // consumer group state for the datapath
  output logic                    armed,        // OP_EN of the consumer group
  output logic [12:0]             width_m1,
  output logic [12:0]             height_m1,
  output logic [12:0]             chan_m1,
  // atoms to the CDP datapath, in read order
  output logic                    o_valid,
  input  logic                    o_ready,
  output logic [8*ATOM_BYTES-1:0] o_data
);
  localparam int ATOM_BITS = 8 * ATOM_BYTES;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;          // atoms of one burst-aligned region
  localparam int REQ_MAX   = (BLOCK < CHUNK) ? BLOCK : CHUNK;   // a request stays in its width block

  // ---- registers ------------------------------------------------------------------------
  logic        op_en, op_done, unused_consumer, unused_producer;
  logic        ram_type, perf_en;
  logic [31:0] src_lo, src_hi, line_stride, surf_stride, read_stall, unused_cya;
  logic [1:0]  fmt;

  dla_cdp_rdma_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .op_done, .op_en, .consumer(unused_consumer), .producer(unused_producer),
    .d_data_cube_width_width(width_m1),
    .d_data_cube_height_height(height_m1),
    .d_data_cube_channel_channel(chan_m1),
    .d_src_base_addr_low_src_base_addr_low(src_lo),
    .d_src_base_addr_high_src_base_addr_high(src_hi),
    .d_src_line_stride_src_line_stride(line_stride),
    .d_src_surface_stride_src_surface_stride(surf_stride),
    .d_src_dma_cfg_src_ram_type(ram_type),
    .d_data_format_input_data(fmt),
    .d_perf_enable_dma_en(perf_en),
    .d_perf_read_stall_perf_read_stall(read_stall),
    .d_cya_cya(unused_cya)
  );
  assign armed = op_en;

  /* verilator lint_off UNUSEDSIGNAL */   // address bits above ADDR_BITS
  wire [63:0] src64 = {src_hi, src_lo};
  /* verilator lint_on UNUSEDSIGNAL */
  wire two_byte = HAS_16BIT && fmt != 2'd0;
  wire [12:0] surf_m1 = two_byte ? chan_m1 >> (ATOM_SH - 1) : chan_m1 >> ATOM_SH;
  wire port = HAS_SRAM ? !ram_type : 1'b0;

  // ---- read walker: row -> width block -> surface -> chunks of the block -------------------
  logic                 running, walking, blk_end;
  logic [12:0]          st_s, st_h, w0;
  logic [ADDR_BITS-1:0] surf_base, row_base;
  logic [14:0]          chunk, blk;
  wire                  last_blk = {2'b0, w0} + blk > {2'b0, width_m1};
  assign blk = ({2'b0, width_m1} - {2'b0, w0} + 15'd1 < 15'(BLOCK)) ?
               {2'b0, width_m1} - {2'b0, w0} + 15'd1 : 15'(BLOCK);

  wire  start = op_en && !running;
  logic rd_fire, buf_empty;
  dla_dma_rd_client #(.ATOM_BITS(ATOM_BITS), .APB(APB), .BUF_ATOMS(BUF_ATOMS), .CHUNK(REQ_MAX),
                      .LEN_BITS(LEN_BITS)) u_client (
    .clk, .rstn, .start, .walking, .port, .chunk, .perf_en, .rd_fire, .empty(buf_empty),
    .rd_req_valid, .rd_req_ready, .rd_req_len, .rd_dat_valid, .rd_dat_data, .rd_dat_mask,
    .o_valid, .o_ready, .o_data, .read_stall);

  assign op_done = running && !walking && buf_empty;

  dla_line_chunker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(14)) u_chunk (
    .clk, .rstn, .clear(start), .line_addr(surf_base + (ADDR_BITS'(w0) << ATOM_SH)),
    .line_atoms_m1(14'(blk - 15'd1)), .single(1'b0), .step(rd_fire),
    .addr(rd_req_addr), .atoms(chunk), .last(blk_end));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running   <= 1'b0;
      walking   <= 1'b0;
      st_s      <= '0;
      st_h      <= '0;
      w0        <= '0;
      surf_base <= '0;
      row_base  <= '0;
    end else begin
      if (start) begin
        running   <= 1'b1;
        walking   <= 1'b1;
        st_s      <= '0;
        st_h      <= '0;
        w0        <= '0;
        surf_base <= src64[ADDR_BITS-1:0];
        row_base  <= src64[ADDR_BITS-1:0];
      end
      if (op_done) running <= 1'b0;
      if (rd_fire) begin
        if (blk_end) begin
          if (st_s != surf_m1) begin                // next surface of the block
            st_s      <= st_s + 13'd1;
            surf_base <= surf_base + ADDR_BITS'(surf_stride);
          end else begin
            st_s      <= '0;
            surf_base <= row_base;
            if (!last_blk) w0 <= w0 + 13'(blk);   // next block of the row
            else begin
              w0 <= '0;
              if (st_h != height_m1) begin          // next row
                st_h      <= st_h + 13'd1;
                row_base  <= row_base + ADDR_BITS'(line_stride);
                surf_base <= row_base + ADDR_BITS'(line_stride);
              end else walking <= 1'b0;
            end
          end
        end
      end
    end

endmodule
