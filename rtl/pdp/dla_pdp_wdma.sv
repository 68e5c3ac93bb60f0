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
  localparam int APB_M1    = APB - 1;
  localparam int CNT_BITS  = $clog2(BUF_ATOMS + 1);
  localparam int RQ_BITS   = $clog2(CHUNK + 1);
  localparam int LEN_M1_BITS = $clog2(CHUNK);  // a request is 1..CHUNK atoms: its length - 1 fits
  localparam int SLB       = (NSL > 1) ? $clog2(NSL) : 1;

  wire port = HAS_SRAM ? !ram_type : 1'b0;

  // ---- atom assembly ----------------------------------------------------------------------
  logic [SLB-1:0]       a_sl;
  logic [ATOM_BITS-1:0] a_q;
  logic                 buf_room;
  wire  a_last = a_sl == SLB'(NSL - 1);
  assign s_ready = !a_last || buf_room;
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

  // ---- request walker: stripe -> surface -> output row -> chunks of the stripe's columns ---
  logic                 active;
  logic [7:0]           st_j;
  logic [12:0]          st_s, st_oy;
  logic [13:0]          x0;
  logic [ADDR_BITS-1:0] surf_base, line_base;
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

  logic [14:0]          chunk;
  logic                 row_end, plan_full, p_port, p_last, dat_valid, dat_end;
  logic [CNT_BITS-1:0]  avail, unused_count;
  wire layer_end = row_end && st_oy == out_height_m1 && st_s == surf_m1 && last_stripe;
  wire req_valid = active && !plan_full && {{(15-CNT_BITS){1'b0}}, avail} >= chunk;
  assign wr_req_valid = {req_valid && port, req_valid && !port};
  assign wr_req_len   = LEN_BITS'(LEN_M1_BITS'(chunk - 15'd1));
  assign wr_req_cmpl  = layer_end;
  assign wr_req_tag   = TAG_BITS'({layer_end, group});
  wire req_fire = req_valid && wr_req_ready[port];

  dla_line_chunker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(14)) u_chunk (
    .clk, .rstn, .clear(start), .line_addr(line_base + (ADDR_BITS'(x0) << ATOM_SH)),
    .line_atoms_m1(ow_m1), .single(1'b0), .step(req_fire),
    .addr(wr_req_addr), .atoms(chunk), .last(row_end));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      active    <= 1'b0;
      st_j      <= '0;
      st_s      <= '0;
      st_oy     <= '0;
      x0        <= '0;
      surf_base <= '0;
      line_base <= '0;
    end else if (start) begin
      active    <= 1'b1;
      st_j      <= '0;
      st_s      <= '0;
      st_oy     <= '0;
      x0        <= '0;
      surf_base <= dst;
      line_base <= dst;
    end else if (req_fire && row_end) begin
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

  // ---- output buffer, issued chunks ({port, last}) and their beats ---------------------------
  dla_dma_wr_stream #(.ATOM_BITS(ATOM_BITS), .APB(APB), .BUF_ATOMS(BUF_ATOMS), .MAX_ATOMS(CHUNK),
                      .PLAN_DEPTH(4), .USER_BITS(2)) u_stream (
    .clk, .rstn, .in_push(push), .in_atom(atom), .in_room(buf_room), .count(unused_count),
    .req_fire, .req_lane(LANE_BITS'((wr_req_addr >> ATOM_SH) & ADDR_BITS'(APB_M1))),
    .req_atoms(chunk[RQ_BITS-1:0]), .req_user({port, layer_end}), .plan_full, .avail,
    .dat_valid, .dat_ready(wr_dat_ready[p_port]), .dat_data(wr_dat_data), .dat_mask(wr_dat_mask),
    .dat_user({p_port, p_last}), .dat_end);
  assign wr_dat_valid = {dat_valid && p_port, dat_valid && !p_port};
  wire dat_fire = dat_valid && wr_dat_ready[p_port];

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) done <= 1'b0;
    else       done <= dat_fire && dat_end && p_last;

  // ---- counters (NaN count saturates at 0xFFFFFFFF) ----------------------------------------
  function automatic logic [31:0] sat_add(input logic [31:0] c, input logic [CW-1:0] n);
    logic [32:0] t;
    t = {1'b0, c} + 33'(n);
    sat_add = t[32] ? 32'hffffffff : t[31:0];
  endfunction
  // -----------------------------------------------------------------------------
  wire stall = perf_en && ((req_valid && !wr_req_ready[port]) || (dat_valid && !wr_dat_ready[p_port]));
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) nan_out <= '0;
    else if (start) nan_out <= '0;
    else if (s_fire) nan_out <= sat_add(nan_out, s_nan);
  dla_stall_counter u_stall (.clk, .rstn, .clear(start), .stall, .count(write_stall));
endmodule
