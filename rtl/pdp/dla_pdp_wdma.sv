// PDP write DMA. Assembles output slices into atoms, buffers them, and writes the output
// cube in the order of pdp_cdp_bdma_rubik_glb.md §6.1: per stripe, per surface, per output
// row, the row's OWj atoms at DST + s*SURF_STRIDE + oy*LINE_STRIDE + X0j*ATOM. A row is
// requested in chunks that never cross a MAX_BURST-beat aligned block (so each chunk is one
// AXI burst), and a chunk is requested only when all of its atoms are buffered, so its data
// never waits. The layer's last chunk asks for a completion (wr_req_cmpl) and carries
// tag {1, group}, earlier chunks tag {0, group}: the completion of the tag with bit 1 set
// raises the interrupt (so the unit works whether or not the port asks every request for a
// completion). `done` pulses when the layer's last beat is accepted.
module dla_pdp_wdma #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int MAX_BURST  = 16,
  parameter bit HAS_SRAM   = 1'b1,
  parameter int BUF_ATOMS  = 64,       // output buffer, a power of two >= 2 chunks
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES),
  parameter int NSL        = ATOM_BYTES / (2 * TP),
  parameter int LANE_BITS  = (APB > 1) ? $clog2(APB) : 1,
  parameter int CW         = $clog2(TP + 1)
) (
  input  logic                  clk,
  input  logic                  rstn,
  input  logic                  start,          // pulse: a layer begins
  // configuration (stable during the layer)
  input  logic                  group,          // register group of the layer
  input  logic [ADDR_BITS-1:0]  dst,
  input  logic [31:0]           line_stride,
  input  logic [31:0]           surf_stride,
  input  logic                  ram_type,       // 1 = main memory (DBB), 0 = CV-SRAM
  input  logic [7:0]            split_num,
  input  logic [12:0]           out_width_m1,
  input  logic [9:0]            out_first_m1,
  input  logic [9:0]            out_mid_m1,
  input  logic [9:0]            out_last_m1,
  input  logic [12:0]           out_height_m1,
  input  logic [12:0]           surf_m1,
  input  logic                  perf_en,
  // output slices
  input  logic                  s_valid,
  output logic                  s_ready,
  input  logic [16*TP-1:0]      s_data,
  input  logic [CW-1:0]         s_nan,
  // DMA client ([0] = DBB, [1] = SRAM; payloads shared)
  output logic [1:0]            wr_req_valid,
  input  logic [1:0]            wr_req_ready,
  output logic [ADDR_BITS-1:0]  wr_req_addr,
  output logic [LEN_BITS-1:0]   wr_req_len,
  output logic                  wr_req_cmpl,
  output logic [TAG_BITS-1:0]   wr_req_tag,
  output logic [1:0]            wr_dat_valid,
  input  logic [1:0]            wr_dat_ready,
  output logic [DATA_BITS-1:0]  wr_dat_data,
  output logic [APB-1:0]        wr_dat_mask,
  // status
  output logic                  done,           // pulse: the layer's last beat accepted
  output logic [31:0]           nan_out,        // live NaN output count
  output logic [31:0]           write_stall     // live stall count (PERF_ENABLE.DMA_EN)
);
  localparam int ATOM_BITS = 8 * ATOM_BYTES;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;
  localparam int CHUNK_M1  = CHUNK - 1;
  localparam int APB_M1    = APB - 1;            // atoms of one aligned burst block
  localparam int CNT_BITS  = $clog2(BUF_ATOMS + 1);
  localparam int SLB       = (NSL > 1) ? $clog2(NSL) : 1;
  localparam int PLAN_BITS = 1 + 1 + LANE_BITS + 14;     // {port, last, lane0, atoms-1}

  wire port = HAS_SRAM ? !ram_type : 1'b0;

  // ---- atom assembly ----------------------------------------------------------------------
  logic [SLB-1:0]       a_sl;
  logic [ATOM_BITS-1:0] a_q;
  logic [CNT_BITS-1:0]  buf_count, take;
  wire  a_last = a_sl == SLB'(NSL - 1);
  assign s_ready = !a_last || buf_count < CNT_BITS'(BUF_ATOMS);
  wire  s_fire = s_valid && s_ready;
  wire  push   = s_fire && a_last;
  logic [ATOM_BITS-1:0] atom;
  always_comb begin
    atom = a_q;
    atom[a_sl*16*TP +: 16*TP] = s_data;
  end
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) a_sl <= '0;
    else if (s_fire) a_sl <= a_last ? '0 : a_sl + 1'b1;
  always_ff @(posedge clk) if (s_fire) a_q <= atom;

  logic [LANE_BITS-1:0] out_lane;
  dla_atom_fifo #(.ATOM_BITS(ATOM_BITS), .APB(APB), .DEPTH(BUF_ATOMS)) u_buf (
    .clk, .rstn,
    .in_valid(push), .in_data({{(APB-1)*ATOM_BITS{1'b0}}, atom}), .in_mask(APB'(1)),
    .out_lane, .out_take(take), .out_data(wr_dat_data), .count(buf_count)
  );

  // ---- request walker -----------------------------------------------------------------------
  logic                 active;
  logic [7:0]           st_j;
  logic [12:0]          st_s, st_oy;
  logic [13:0]          off, x0;
  logic [ADDR_BITS-1:0] surf_base, line_base;
  logic [CNT_BITS-1:0]  committed;            // buffered atoms promised to issued requests
  logic [13:0]          ow_m1, unused_in_m1, unused_step;
  logic [2:0]           unused_pl, unused_pr;
  logic                 last_stripe;

  dla_pdp_stripe u_geom (
    .split_num, .j(st_j), .width_m1(13'd0), .out_width_m1, .in_first_m1(10'd0),
    .in_mid_m1(10'd0), .in_last_m1(10'd0), .out_first_m1, .out_mid_m1, .out_last_m1,
    .kw_m1(4'd0), .sw_m1(4'd0), .pad_left(3'd0), .pad_right(3'd0),
    .in_m1(unused_in_m1), .out_m1(ow_m1), .pl(unused_pl), .pr(unused_pr), .step(unused_step),
    .last(last_stripe)
  );

  logic [ADDR_BITS-1:0] cur;
  logic [14:0]          left, room, chunk;
  logic                 row_end, layer_end;
  always_comb begin
    cur       = line_base + ((ADDR_BITS'(x0) + ADDR_BITS'(off)) << ATOM_SH);
    left      = {1'b0, ow_m1} - {1'b0, off} + 15'd1;
    room      = 15'(CHUNK) - 15'((cur >> ATOM_SH) & ADDR_BITS'(CHUNK_M1));
    chunk     = (left < room) ? left : room;
    row_end   = chunk == left;
    layer_end = row_end && st_oy == out_height_m1 && st_s == surf_m1 && last_stripe;
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
      st_j      <= '0;
      st_s      <= '0;
      st_oy     <= '0;
      off       <= '0;
      x0        <= '0;
      surf_base <= '0;
      line_base <= '0;
    end else if (start) begin
      active    <= 1'b1;
      st_j      <= '0;
      st_s      <= '0;
      st_oy     <= '0;
      off       <= '0;
      x0        <= '0;
      surf_base <= dst;
      line_base <= dst;
    end else if (req_fire) begin
      off <= off + 14'(chunk);
      if (row_end) begin
        off <= '0;
        if (st_oy != out_height_m1) begin
          st_oy     <= st_oy + 13'd1;
          line_base <= line_base + ADDR_BITS'(line_stride);
        end else begin
          st_oy <= '0;
          if (st_s != surf_m1) begin
            st_s      <= st_s + 13'd1;
            surf_base <= surf_base + ADDR_BITS'(surf_stride);
            line_base <= surf_base + ADDR_BITS'(surf_stride);
          end else begin
            st_s      <= '0;
            surf_base <= dst;
            line_base <= dst;
            x0        <= x0 + ow_m1 + 14'd1;
            if (last_stripe) active <= 1'b0;
            else st_j <= st_j + 8'd1;
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

  // ---- counters (NaN count saturates at 0xFFFFFFFF) ----------------------------------------
  function automatic logic [31:0] sat_add(input logic [31:0] c, input logic [CW-1:0] n);
    logic [32:0] t;
    t = {1'b0, c} + 33'(n);
    sat_add = t[32] ? 32'hffffffff : t[31:0];
  endfunction
  // -----------------------------------------------------------------------------
  wire stall = perf_en && ((req_valid && !wr_req_ready[port]) || (dat_valid && !wr_dat_ready[p_port]));
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      nan_out     <= '0;
      write_stall <= '0;
    end else if (start) begin
      nan_out     <= '0;
      write_stall <= '0;
    end else begin
      if (s_fire) nan_out <= sat_add(nan_out, s_nan);
      if (stall && write_stall != '1) write_stall <= write_stall + 32'd1;
    end
endmodule
