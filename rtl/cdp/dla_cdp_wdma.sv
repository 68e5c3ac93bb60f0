// CDP write DMA. Buffers whole output atoms and writes the output cube in the order of
// pdp_cdp_bdma_rubik_glb.md §6.2 (the datapath delivers atoms in that order): per row h, per
// width block of up to BLOCK atoms, per surface s, the block's atoms at
// DST + s*SURF_STRIDE + h*LINE_STRIDE + w*ATOM. A block is requested in chunks that never
// cross a MAX_BURST-beat aligned region (one AXI burst each), and a chunk only once all of
// its atoms are buffered, so its data never waits. The layer's last chunk carries tag
// {1, group} and asks for a completion; its acknowledgement raises the interrupt.
// `done` pulses when the layer's last beat is accepted.
module dla_cdp_wdma #(
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int MAX_BURST  = 16,
  parameter int BLOCK      = 8,
  parameter bit HAS_SRAM   = 1'b1,
  parameter int BUF_ATOMS  = 32,       // output buffer, a power of two >= 2 * BLOCK
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES),
  parameter int LANE_BITS  = (APB > 1) ? $clog2(APB) : 1
) (
  input  logic                    clk,
  input  logic                    rstn,
  input  logic                    start,          // pulse: a layer begins
  // configuration (stable during the layer)
  input  logic                    group,
  input  logic [ADDR_BITS-1:0]    dst,
  input  logic [31:0]             line_stride,
  input  logic [31:0]             surf_stride,
  input  logic                    ram_type,       // 1 = main memory (DBB), 0 = CV-SRAM
  input  logic [12:0]             width_m1,
  input  logic [12:0]             height_m1,
  input  logic [12:0]             surf_m1,
  input  logic                    perf_en,
  // output atoms
  input  logic                    a_valid,
  output logic                    a_ready,
  input  logic [8*ATOM_BYTES-1:0] a_data,
  // DMA client ([0] = DBB, [1] = SRAM; payloads shared)
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
  // status
  output logic                    done,
  output logic [31:0]             write_stall     // live stall count (PERF_ENABLE.DMA_EN)
);
  localparam int ATOM_BITS = 8 * ATOM_BYTES;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;
  localparam int APB_M1    = APB - 1;
  localparam int CNT_BITS  = $clog2(BUF_ATOMS + 1);
  localparam int RQ_BITS   = $clog2(CHUNK + 1);
  localparam int LEN_M1_BITS = $clog2(CHUNK);  // a request is 1..CHUNK atoms: its length - 1 fits

  wire port = HAS_SRAM ? !ram_type : 1'b0;

  // ---- request walker: row -> width block -> surface -> chunks --------------------------------
  logic                 active, blk_end; `ifdef DLA_PLANTS wire [3:0] plant_cdp_wdma /*verilator public_flat_rw*/; `endif
  logic [12:0]          st_s, st_h, w0;
  logic [ADDR_BITS-1:0] surf_base, row_base;
  logic [14:0]          chunk, blk;
  wire                  last_blk = {2'b0, w0} + blk > {2'b0, width_m1};
  assign blk = ({2'b0, width_m1} - {2'b0, w0} + 15'd1 < 15'(BLOCK)) ?
               {2'b0, width_m1} - {2'b0, w0} + 15'd1 : 15'(BLOCK);

  logic                 plan_full, p_port, p_last, dat_valid, dat_end;
  logic [CNT_BITS-1:0]  avail, unused_count;
  wire layer_end = blk_end && st_s == surf_m1 && last_blk && st_h == height_m1;
  wire req_valid = active && !plan_full && {{(15-CNT_BITS){1'b0}}, avail} >= chunk;
  assign wr_req_valid = {req_valid && port, req_valid && !port};
  assign wr_req_len   = LEN_BITS'(LEN_M1_BITS'(chunk - 15'd1));
  assign wr_req_cmpl  = layer_end;
  assign wr_req_tag   = TAG_BITS'({layer_end, group});
  wire req_fire = req_valid && wr_req_ready[port];

  dla_line_chunker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(14)) u_chunk (
    .clk, .rstn, .clear(start), .line_addr(surf_base + (ADDR_BITS'(w0) << ATOM_SH)),
    .line_atoms_m1(14'(blk - 15'd1)), .single(1'b0), .step(req_fire),
    .addr(wr_req_addr), .atoms(chunk), .last(blk_end));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      active    <= 1'b0;
      st_s      <= '0;
      st_h      <= '0;
      w0        <= '0;
      surf_base <= '0;
      row_base  <= '0;
    end else if (start) begin
      active    <= 1'b1;
      st_s      <= '0;
      st_h      <= '0;
      w0        <= '0;
      surf_base <= dst;
      row_base  <= dst;
    end else if (req_fire && blk_end) begin
      if (st_s != surf_m1) begin
        st_s      <= st_s + 13'd1;
        surf_base <= surf_base + ADDR_BITS'(surf_stride);
      end else begin
        st_s      <= '0;
        surf_base <= row_base;
        if (!last_blk) w0 <= w0 + 13'(blk);
        else begin
          w0 <= '0;
          if (st_h != height_m1) begin
            st_h      <= st_h + 13'd1;
            row_base  <= row_base + ADDR_BITS'(line_stride);
            surf_base <= row_base + ADDR_BITS'(line_stride);
          end else active <= 1'b0;
        end
      end
    end

  // ---- output buffer, issued chunks ({port, last}) and their beats ---------------------------
  dla_dma_wr_stream #(.ATOM_BITS(ATOM_BITS), .APB(APB), .BUF_ATOMS(BUF_ATOMS), .MAX_ATOMS(CHUNK),
                      .PLAN_DEPTH(4), .USER_BITS(2)) u_stream (
    .clk, .rstn, .in_push(a_valid && a_ready), .in_atom(a_data), .in_room(a_ready),
    .count(unused_count),
    .req_fire, .req_lane(LANE_BITS'((wr_req_addr >> ATOM_SH) & ADDR_BITS'(APB_M1))),
    .req_atoms(chunk[RQ_BITS-1:0]), .req_user({port, layer_end}), .plan_full, .avail,
    .dat_valid, .dat_ready(wr_dat_ready[p_port]), .dat_data(wr_dat_data), .dat_mask(wr_dat_mask),
    .dat_user({p_port, p_last}), .dat_end);
  assign wr_dat_valid = {dat_valid && p_port, dat_valid && !p_port};
  wire dat_fire = dat_valid && wr_dat_ready[p_port];

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) done <= 1'b0;
    else       done <= dat_fire && dat_end && p_last;

  // (planted bugs, DLA_PLANTS: 1 counts every enabled cycle, 2 counts stalls with DMA_EN 0)
  wire stall = (perf_en `ifdef DLA_PLANTS || plant_cdp_wdma == 4'd2 `endif) &&
               ((req_valid && !wr_req_ready[port]) || (dat_valid && !wr_dat_ready[p_port]) `ifdef DLA_PLANTS || plant_cdp_wdma == 4'd1 `endif);
  dla_stall_counter u_stall (.clk, .rstn, .clear(start), .stall, .count(write_stall));
endmodule
