// RUBIK (data reshape, docs/rubik.md): contract, split and merge of 32-byte atoms. Bytes only
// move; the precision sets the element size (1 byte int8, 2 bytes int16/fp16).
//
//   dla_rubik_walk (chunks) -> read requests (one DMA client, DBB or SRAM) -> returned atoms
//   placed in one bank of the chunk buffer -> write requests whose beats dla_rubik_gather
//   builds from the bank -> acknowledgement of the layer's last write -> GLB bit 8 / 9
//
// A chunk is what one 64-atom bank holds (dla_rubik_walk): contract, the B = floor(64/sx)
// atoms of each x-phase that make B*sx consecutive atoms of one output line; split, up to 64
// atoms of one input row (one plane-row chunk per channel); merge, one plane-row chunk of up
// to 64 elements per lane. The reads of the next BANKS-1 chunks run while a chunk is written.
// A request never crosses a MAX_BURST-beat aligned block (one AXI burst each).
//
// The layer ends (op_done: OP_EN clears, CONSUMER flips) when its last beat is accepted; the
// next layer starts then. Its done interrupt is the acknowledgement of its last write (tag
// {1, group}). D_PERF_READ_STALL / D_PERF_WRITE_STALL count, while D_PERF_ENABLE.PERF_EN is
// set, the clocks a read request or a write request / beat waits for its port (cleared at the
// layer's start, latched by the register block at op_done).
module dla_rubik #(
  parameter int ATOM_BYTES = 32,     // RUBIK exists on 32-byte atom configurations only
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int MAX_BURST  = 16,
  parameter bit HAS_SRAM   = 1'b1,
  parameter int BANKS      = 4,      // chunk buffer banks of 64 atoms, a power of two >= 2
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                    clk,
  input  logic                    rstn,
  // CSB: the RBK window
  input  logic                    req_vld,
  input  logic                    req_wr,
  input  logic [9:0]              req_word,
  input  logic [31:0]             req_wdat,
  output logic [31:0]             rd_data,
  // DMA client on both ports ([0] = DBB, [1] = SRAM; payloads shared)
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
  output logic [TAG_BITS-1:0]     wr_req_tag,
  output logic [1:0]              wr_dat_valid,
  input  logic [1:0]              wr_dat_ready,
  output logic [DATA_BITS-1:0]    wr_dat_data,
  output logic [APB-1:0]          wr_dat_mask,
  input  logic [1:0]              wr_cmpl,
  input  logic [2*TAG_BITS-1:0]   wr_cmpl_tag,
  // done pulses of group 0 / 1 to GLB (bits 8 / 9)
  output logic [1:0]              intr_done
);
  localparam int ATOM_BITS = 8 * ATOM_BYTES;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;          // atoms of one aligned burst
  localparam int BB        = $clog2(BANKS);
  localparam int IB        = BB + 6;                    // buffer index {bank, atom}
  localparam int LANE_BITS = (APB > 1) ? $clog2(APB) : 1;
  localparam int RD_OUT    = 32;                        // read requests awaiting their data
  localparam int DESC_BITS = BB + 6 + 6 + 7;            // {bank, first atom, atom step, atoms}
  localparam int PLAN_BITS = 1 + BB + 5 + 7 + 7 + LANE_BITS + 1 + 1;

  // ---- registers ------------------------------------------------------------------------
  logic        op_en, op_done, group, unused_producer, perf_en, in_ram, out_ram;
  logic [1:0]  mode, prec;
  logic [12:0] width_m1, height_m1, chan_m1, ochan_m1;
  logic [31:0] in_hi, out_hi, read_stall, write_stall;
  logic [26:0] in_lo, in_line, in_surf, in_planar, out_lo, out_line, k0, k1, out_surf, out_planar;
  logic [4:0]  sx_m1, sy_m1;

  dla_rbk_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .op_done, .op_en, .consumer(group), .producer(unused_producer),
    .d_misc_cfg_rubik_mode(mode), .d_misc_cfg_in_precision(prec),
    .d_dain_ram_type_datain_ram_type(in_ram),
    .d_datain_size_0_datain_width(width_m1), .d_datain_size_0_datain_height(height_m1),
    .d_datain_size_1_datain_channel(chan_m1),
    .d_dain_addr_high_dain_addr_high(in_hi), .d_dain_addr_low_dain_addr_low(in_lo),
    .d_dain_line_stride_dain_line_stride(in_line), .d_dain_surf_stride_dain_surf_stride(in_surf),
    .d_dain_planar_stride_dain_planar_stride(in_planar),
    .d_daout_ram_type_dataout_ram_type(out_ram), .d_dataout_size_1_dataout_channel(ochan_m1),
    .d_daout_addr_high_daout_addr_high(out_hi), .d_daout_addr_low_daout_addr_low(out_lo),
    .d_daout_line_stride_daout_line_stride(out_line),
    .d_contract_stride_0_contract_stride_0(k0), .d_contract_stride_1_contract_stride_1(k1),
    .d_daout_surf_stride_daout_surf_stride(out_surf),
    .d_daout_planar_stride_daout_planar_stride(out_planar),
    .d_deconv_stride_deconv_x_stride(sx_m1), .d_deconv_stride_deconv_y_stride(sy_m1),
    .d_perf_enable_perf_en(perf_en),
    .d_perf_read_stall_rd_stall_cnt(read_stall), .d_perf_write_stall_wr_stall_cnt(write_stall)
  );

  // The consumer group's registers hold still while it is armed (writes to it are dropped),
  // so the layer reads them directly. Mode 3 (reserved, refused by the golden model) runs as
  // merge; precision 3 as 2-byte elements.
  wire contract = mode == 2'd0;
  wire split    = mode == 2'd1;
  wire merge    = !contract && !split;
  wire b16      = prec != 2'd0;
  wire in_port  = HAS_SRAM ? !in_ram : 1'b0;     // RAM type 1 (MCIF) = DBB
  wire out_port = HAS_SRAM ? !out_ram : 1'b0;
  /* verilator lint_off UNUSEDSIGNAL */           // address bits above ADDR_BITS
  wire [63:0] in64  = {in_hi, in_lo, 5'b0};
  wire [63:0] out64 = {out_hi, out_lo, 5'b0};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- layer control --------------------------------------------------------------------
  logic running;
  wire  start = op_en && !running;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn)        running <= 1'b0;
    else if (start)   running <= 1'b1;
    else if (op_done) running <= 1'b0;

  // ---- chunk walker and read requests ---------------------------------------------------
  logic [BANKS-1:0]     busy, issued, wdone;
  logic [8*BANKS-1:0]   pend;                      // atoms requested, not yet returned, per bank
  logic                 claim, walk_claim, rd_have, rd_fire, chunk_rd_end;
  logic [BB-1:0]        rb;
  logic [ADDR_BITS-1:0] rq_addr, ck_wbase;
  logic [7:0]           rq_atoms;
  logic [5:0]           rq_dest, rq_step, ck_wruns, ck_lanes;
  logic [6:0]           ck_n, ck_wr_atoms;
  logic                 ck_last;
  logic                 d_empty, d_full, last_port;

  wire port_ok  = in_port == last_port || d_empty;  // returns of one port at a time, in order
  wire rd_valid = rd_have && port_ok && !d_full;
  assign rd_req_valid = {rd_valid && in_port, rd_valid && !in_port};
  assign rd_req_addr  = rq_addr;
  assign rd_req_len   = LEN_BITS'(rq_atoms) - LEN_BITS'(1);
  assign rd_fire      = rd_valid && rd_req_ready[in_port];
  assign claim        = !busy[rb];

  dla_rubik_walk #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK)) u_walk (
    .clk, .rstn, .start, .contract, .split, .merge, .b16,
    .width_m1, .height_m1, .chan_m1, .ochan_m1, .sx_m1, .sy_m1,
    .in_base(in64[ADDR_BITS-1:0]), .out_base(out64[ADDR_BITS-1:0]),
    .in_line({in_line, 5'b0}), .in_surf({in_surf, 5'b0}), .in_planar({in_planar, 5'b0}),
    .out_line({out_line, 5'b0}), .out_surf({out_surf, 5'b0}), .out_planar({out_planar, 5'b0}),
    .k0({k0, 5'b0}), .k1({k1, 5'b0}),
    .bank_free(claim), .claim(walk_claim),
    .have(rd_have), .rd_fire, .rq_addr, .rq_atoms, .rq_dest, .rq_step,
    .chunk_end(chunk_rd_end), .ck_wbase, .ck_n, .ck_wruns, .ck_wr_atoms, .ck_lanes, .ck_last
  );

  // Per-bank chunk description for the write side, loaded when the walker claims the bank.
  logic [ADDR_BITS-1:0] bk_wbase [0:BANKS-1];
  logic [6:0]           bk_n [0:BANKS-1];
  logic [6:0]           bk_wr_atoms [0:BANKS-1];
  logic [5:0]           bk_wruns [0:BANKS-1];
  logic [5:0]           bk_lanes [0:BANKS-1];
  logic [BANKS-1:0]     bk_last;

  // ---- returned data -> chunk buffer ----------------------------------------------------
  logic [ATOM_BITS-1:0] mem [0:BANKS*64-1];
  logic [DESC_BITS-1:0] d_head;
  logic [BB-1:0]        h_bank;
  logic [5:0]           h_dest, h_step;
  logic [6:0]           h_atoms, consumed;
  logic [$clog2(RD_OUT+1)-1:0] unused_d_count;
  assign {h_bank, h_dest, h_step, h_atoms} = d_head;

  wire                 ret_valid = |rd_dat_valid;
  wire                 ret_port  = rd_dat_valid[1];
  wire [APB-1:0]       ret_mask  = ret_port ? rd_dat_mask[APB +: APB] : rd_dat_mask[0 +: APB];
  wire [DATA_BITS-1:0] ret_data  = ret_port ? rd_dat_data[DATA_BITS +: DATA_BITS] : rd_dat_data[0 +: DATA_BITS];
  logic [6:0]          ret_cnt;
  logic [IB*APB-1:0]   ret_idx;          // bank atom of each beat lane
  logic [6:0]          ret_rank;
  /* verilator lint_off UNUSEDSIGNAL */   // a bank has 64 atoms
  logic [12:0]         ret_atom;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    ret_cnt  = '0;
    ret_rank = '0;
    ret_atom = '0;
    for (int k = 0; k < APB; k++) begin
      // atom k of the beat is atom `consumed + rank` of the request (the mask is contiguous)
      ret_atom = 13'(h_dest) + (13'(consumed) + 13'(ret_rank)) * 13'(h_step);
      ret_idx[k*IB +: IB] = IB'(32'(h_bank) * 64 + 32'(ret_atom[5:0]));
      if (ret_mask[k]) begin
        ret_cnt  = ret_cnt + 7'd1;
        ret_rank = ret_rank + 7'd1;
      end
    end
    if (!ret_valid) ret_cnt = '0;
  end
  wire ret_pop = ret_valid && consumed + ret_cnt == h_atoms;

  always_ff @(posedge clk)
    for (int k = 0; k < APB; k++)
      if (ret_valid && ret_mask[k]) mem[ret_idx[k*IB +: IB]] <= ret_data[k*ATOM_BITS +: ATOM_BITS];

  wire [DESC_BITS-1:0] d_push = {rb, rq_dest, rq_step, rq_atoms[6:0]};
  dla_fifo #(.WIDTH(DESC_BITS), .DEPTH(RD_OUT)) u_desc (
    .clk, .rstn, .push(rd_fire), .push_data(d_push),
    .pop(ret_pop), .head(d_head), .empty(d_empty), .full(d_full), .count(unused_d_count));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      consumed  <= '0;
      last_port <= 1'b0;
      rb        <= '0;
    end else begin
      if (ret_valid) consumed <= ret_pop ? '0 : consumed + ret_cnt;
      if (rd_fire) last_port <= in_port;
      if (chunk_rd_end) rb <= rb + BB'(1);
    end

  // ---- write requests -------------------------------------------------------------------
  logic                 w_on, wq_last, plan_full, plan_empty, wchunk_end, wlayer_last;
  logic [BB-1:0]        wb;
  logic [4:0]           wq;
  logic [6:0]           woff;
  logic [ADDR_BITS-1:0] wrun, wq_addr;
  logic [7:0]           wq_atoms;
  wire ready_wb = busy[wb] && issued[wb] && !wdone[wb] && pend[wb*8 +: 8] == 8'd0;
  wire w_claim  = !w_on && ready_wb;
  wire wreq_valid = w_on && !plan_full;
  assign wr_req_valid = {wreq_valid && out_port, wreq_valid && !out_port};
  assign wr_req_addr  = wq_addr;
  assign wr_req_len   = LEN_BITS'(wq_atoms) - LEN_BITS'(1);
  wire wreq_fire = wreq_valid && wr_req_ready[out_port];
  // The request ends its chunk / the layer (payload: independent of ready).
  wire   req_clast   = wq_last && 6'(wq) == bk_wruns[wb] - 6'd1;
  assign wlayer_last = req_clast && bk_last[wb];
  assign wchunk_end  = wreq_fire && req_clast;
  assign wr_req_tag  = TAG_BITS'({wlayer_last, group});

  dla_line_chunker #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(7)) u_wchunk (
    .clk, .rstn, .clear(start), .line_addr(wrun), .line_atoms_m1(bk_wr_atoms[wb] - 7'd1), .single(1'b0),
    .step(wreq_fire), .addr(wq_addr), .atoms(wq_atoms), .last(wq_last));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      w_on <= 1'b0;
      wb   <= '0;
      wq   <= '0;
      woff <= '0;
      wrun <= '0;
    end else begin
      if (w_claim) begin
        w_on <= 1'b1;
        wq   <= '0;
        woff <= '0;
        wrun <= bk_wbase[wb];
      end
      if (wreq_fire) begin
        woff <= wq_last ? 7'd0 : woff + wq_atoms[6:0];
        if (wq_last) begin
          if (!wchunk_end) begin
            wq   <= wq + 5'd1;                                     // split: next channel's plane
            wrun <= wrun + ADDR_BITS'({out_planar, 5'b0});
          end else begin
            w_on <= 1'b0;
            wb   <= wb + BB'(1);
          end
        end
      end
    end

  // ---- write beats ----------------------------------------------------------------------
  logic [PLAN_BITS-1:0] plan_head;
  logic                 p_port, p_clast, p_llast, dat_end;
  logic [BB-1:0]        p_bank;
  logic [4:0]           p_q;
  logic [6:0]           p_off, p_atoms, sent, d_left, need;
  logic [LANE_BITS-1:0] p_lane0, lane;
  logic [$clog2(4+1)-1:0] unused_plan_count; `ifdef DLA_PLANTS wire [3:0] plant_rubik /*verilator public_flat_rw*/; wire [3:0] plant_rubik_stall /*verilator public_flat_rw*/; logic plant_rubik_tick; always_ff @(posedge clk) plant_rubik_tick <= !plant_rubik_tick; wire plant_rubik_go = plant_rubik != 4'd1 || plant_rubik_tick; `endif
  wire dat_valid = !plan_empty `ifdef DLA_PLANTS && plant_rubik_go `endif;
  wire dat_fire  = dat_valid && wr_dat_ready[p_port];
  wire [LANE_BITS-1:0] wq_lane = (APB > 1) ? wq_addr[ATOM_SH +: LANE_BITS] : '0;
  wire [PLAN_BITS-1:0] p_push  = {out_port, wb, wq, woff, wq_atoms[6:0], wq_lane, req_clast, wlayer_last};
  dla_fifo #(.WIDTH(PLAN_BITS), .DEPTH(4)) u_plan (
    .clk, .rstn, .push(wreq_fire), .push_data(p_push),
    .pop(dat_fire && dat_end), .head(plan_head), .empty(plan_empty), .full(plan_full),
    .count(unused_plan_count));
  assign {p_port, p_bank, p_q, p_off, p_atoms, p_lane0, p_clast, p_llast} = plan_head;

  logic [6*APB-1:0] g_idx;       // run atom of each bus lane
  always_comb begin
    lane    = (sent == '0) ? p_lane0 : '0;
    d_left  = p_atoms - sent;
    need    = 7'(APB) - 7'(lane);
    if (d_left < need) need = d_left;
    dat_end = need == d_left;
    for (int k = 0; k < APB; k++) begin
      wr_dat_mask[k] = 7'(k) >= 7'(lane) && 7'(k) < 7'(lane) + need;
      g_idx[k*6 +: 6] = 6'(p_off + sent + 7'(k) - 7'(lane));
    end
  end
  assign wr_dat_valid = {dat_valid && p_port, dat_valid && !p_port};

  logic [64*ATOM_BITS-1:0] bank_data;    // the bank of the oldest planned write
  always_comb
    for (int a = 0; a < 64; a++) bank_data[a*ATOM_BITS +: ATOM_BITS] = mem[IB'(32'(p_bank) * 64 + a)];
  dla_rubik_gather #(.ATOM_BYTES(ATOM_BYTES), .APB(APB)) u_gather (
    .bank_data, .contract, .split, .b16, .q(p_q), .n(bk_n[p_bank]), .lanes(bk_lanes[p_bank]),
    .idx(g_idx), .data(wr_dat_data));

  wire release_bank = dat_fire && dat_end && p_clast;
  logic done_q;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      sent   <= '0;
      done_q <= 1'b0;
    end else begin
      if (dat_fire) sent <= dat_end ? 7'd0 : sent + need;
      done_q <= dat_fire && dat_end && p_llast;
    end
  assign op_done = done_q;

  // ---- bank states ----------------------------------------------------------------------
  // busy: claimed by the walker until its last beat is sent; issued: every read requested;
  // wdone: every write requested; pend: atoms still to return.
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      busy    <= '0;
      issued  <= '0;
      wdone   <= '0;
      pend    <= '0;
      bk_last <= '0;
    end else
      for (int b = 0; b < BANKS; b++) begin
        if (walk_claim && rb == BB'(b)) begin
          busy[b]    <= 1'b1;
          bk_last[b] <= ck_last;
        end
        if (chunk_rd_end && rb == BB'(b)) issued[b] <= 1'b1;
        if (wchunk_end && wb == BB'(b)) wdone[b] <= 1'b1;
        if (release_bank && p_bank == BB'(b)) begin
          busy[b]   <= 1'b0;
          issued[b] <= 1'b0;
          wdone[b]  <= 1'b0;
        end
        pend[b*8 +: 8] <= pend[b*8 +: 8] + ((rd_fire && rb == BB'(b)) ? rq_atoms : 8'd0)
                          - ((ret_valid && h_bank == BB'(b)) ? {1'b0, ret_cnt} : 8'd0);
      end

  always_ff @(posedge clk)
    if (walk_claim) begin
      bk_wbase[rb]    <= ck_wbase;
      bk_n[rb]        <= ck_n;
      bk_wr_atoms[rb] <= ck_wr_atoms;
      bk_wruns[rb]    <= ck_wruns;
      bk_lanes[rb]    <= ck_lanes;
    end

  // ---- stall counters and the done interrupt --------------------------------------------
  wire rd_stall = perf_en && rd_valid && !rd_req_ready[in_port];
  wire wr_stall = perf_en && ((wreq_valid && !wr_req_ready[out_port]) || (dat_valid && !wr_dat_ready[p_port]) `ifdef DLA_PLANTS || plant_rubik_stall == 4'd1 `endif);
  dla_stall_counter u_rd_stall (.clk, .rstn, .clear(start), .stall(rd_stall), .count(read_stall));
  dla_stall_counter u_wr_stall (.clk, .rstn, .clear(start), .stall(wr_stall), .count(write_stall));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) intr_done <= '0;
    else begin
      intr_done <= '0;
      for (int p = 0; p < 2; p++)
        if (wr_cmpl[p] && wr_cmpl_tag[p*TAG_BITS + 1]) intr_done[wr_cmpl_tag[p*TAG_BITS]] <= 1'b1;
    end
  wire unused_tag = &{1'b0, wr_cmpl_tag};
endmodule
