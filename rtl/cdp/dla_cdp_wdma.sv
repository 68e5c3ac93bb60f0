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
  localparam int CHUNK_M1  = CHUNK - 1;
  localparam int APB_M1    = APB - 1;
  localparam int CNT_BITS  = $clog2(BUF_ATOMS + 1);
  localparam int PLAN_BITS = 1 + 1 + LANE_BITS + 14;     // {port, last, lane0, atoms-1}

  wire port = HAS_SRAM ? !ram_type : 1'b0;

  // ---- atom buffer --------------------------------------------------------------------------
  logic [CNT_BITS-1:0]  buf_count, take;
  logic [LANE_BITS-1:0] out_lane;
  assign a_ready = buf_count < CNT_BITS'(BUF_ATOMS);
  dla_atom_fifo #(.ATOM_BITS(ATOM_BITS), .APB(APB), .DEPTH(BUF_ATOMS)) u_buf (
    .clk, .rstn,
    .in_valid(a_valid && a_ready), .in_data({{(APB-1)*ATOM_BITS{1'b0}}, a_data}),
    .in_mask(APB'(1)), .out_lane, .out_take(take), .out_data(wr_dat_data), .count(buf_count)
  );

  // ---- request walker: row -> width block -> surface -> chunks --------------------------------
  logic                 active;
  logic [12:0]          st_s, st_h, w0;
  logic [13:0]          off;
  logic [ADDR_BITS-1:0] surf_base, row_base, cur;
  logic [CNT_BITS-1:0]  committed;
  logic [14:0]          left, room, chunk, blk;
  logic                 blk_end, last_blk, layer_end;

  always_comb begin
    blk       = ({2'b0, width_m1} - {2'b0, w0} + 15'd1 < 15'(BLOCK)) ?
                {2'b0, width_m1} - {2'b0, w0} + 15'd1 : 15'(BLOCK);
    last_blk  = {2'b0, w0} + blk > {2'b0, width_m1};
    cur       = surf_base + ((ADDR_BITS'(w0) + ADDR_BITS'(off)) << ATOM_SH);
    left      = blk - {1'b0, off};
    room      = 15'(CHUNK) - 15'((cur >> ATOM_SH) & ADDR_BITS'(CHUNK_M1));
    chunk     = (left < room) ? left : room;
    blk_end   = chunk == left;
    layer_end = blk_end && st_s == surf_m1 && last_blk && st_h == height_m1;
  end

  logic plan_full, plan_empty, line_done, dat_fire;
  logic [PLAN_BITS-1:0] plan_head;
  logic [$clog2(4+1)-1:0] unused_plan_count;
  wire [CNT_BITS-1:0] avail = buf_count - committed;
  wire req_valid = active && !plan_full && {{(15-CNT_BITS){1'b0}}, avail} >= chunk;
  assign wr_req_valid = {req_valid && port, req_valid && !port};
  assign wr_req_addr  = cur;
  assign wr_req_len   = LEN_BITS'(chunk - 15'd1);
  assign wr_req_cmpl  = layer_end;
  assign wr_req_tag   = TAG_BITS'({layer_end, group});
  wire req_fire = req_valid && wr_req_ready[port];

  logic [LANE_BITS-1:0] cur_lane;
  logic [13:0]          chunk_m1;
  always_comb begin
    cur_lane = LANE_BITS'((cur >> ATOM_SH) & ADDR_BITS'(APB_M1));
    chunk_m1 = 14'(chunk - 15'd1);
  end
  dla_fifo #(.WIDTH(PLAN_BITS), .DEPTH(4)) u_plan (
    .clk, .rstn,
    .push(req_fire),
    .push_data({port, layer_end, cur_lane, chunk_m1}),
    .pop(dat_fire && line_done), .head(plan_head),
    .empty(plan_empty), .full(plan_full), .count(unused_plan_count)
  );

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      active    <= 1'b0;
      st_s      <= '0;
      st_h      <= '0;
      w0        <= '0;
      off       <= '0;
      surf_base <= '0;
      row_base  <= '0;
    end else if (start) begin
      active    <= 1'b1;
      st_s      <= '0;
      st_h      <= '0;
      w0        <= '0;
      off       <= '0;
      surf_base <= dst;
      row_base  <= dst;
    end else if (req_fire) begin
      off <= off + 14'(chunk);
      if (blk_end) begin
        off <= '0;
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
    end

  // ---- data streamer ------------------------------------------------------------------------
  logic                 p_port, p_last, dat_valid;
  logic [LANE_BITS-1:0] p_lane0, lane;
  logic [13:0]          p_atoms_m1, sent;
  logic [14:0]          d_left, need;
  assign {p_port, p_last, p_lane0, p_atoms_m1} = plan_head;

  always_comb begin
    lane      = (sent == '0) ? p_lane0 : '0;
    d_left    = {1'b0, p_atoms_m1} - {1'b0, sent} + 15'd1;
    need      = 15'(APB) - 15'(lane);
    if (d_left < need) need = d_left;
    line_done = need == d_left;
    for (int k = 0; k < APB; k++)
      wr_dat_mask[k] = 15'(k) >= 15'(lane) && 15'(k) < 15'(lane) + need;
  end
  assign out_lane     = lane;
  assign dat_valid    = !plan_empty;
  assign wr_dat_valid = {dat_valid && p_port, dat_valid && !p_port};
  assign dat_fire     = dat_valid && wr_dat_ready[p_port];
  assign take         = dat_fire ? CNT_BITS'(need) : '0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      sent      <= '0;
      committed <= '0;
      done      <= 1'b0;
    end else begin
      if (dat_fire) sent <= line_done ? '0 : sent + 14'(need);
      committed <= committed + (req_fire ? CNT_BITS'(chunk) : '0) - take;
      done      <= dat_fire && line_done && p_last;
    end

  wire stall = perf_en && ((req_valid && !wr_req_ready[port]) || (dat_valid && !wr_dat_ready[p_port]));
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) write_stall <= '0;
    else if (start) write_stall <= '0;
    else if (stall && write_stall != '1) write_stall <= write_stall + 32'd1;
endmodule
