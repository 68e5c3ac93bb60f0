// BDMA: bridge DMA copying line/surface regions between main memory (DBB) and CV-SRAM.
//
//   CSB -> dla_bdma_regs -> CFG_OP write: snapshot of CFG_* into the descriptor queue
//                           CFG_LAUNCHn write: the queued, unlaunched operations become
//                           one batch (slot) of interrupt group n
//   slots (launch order) -> read engine -> source reads -> atom buffer -> write engine
//                           -> destination writes -> completions -> slot done -> GLB
//
// Reads run ahead of writes (up to the atom buffer's size), reads and writes use separate
// AXI channels concurrently, and the atom buffer re-aligns source and destination atom
// phases inside a bus beat. Ports: index 0 = DBB (RAM type MC), 1 = SRAM (RAM type CVSRAM;
// mapped to DBB when the configuration has no SRAM interface).
// A CSB write that enqueues into a full queue, or launches while the oldest slot is still in
// use, is held (CSB back-pressure) until there is room.
module dla_bdma #(
  parameter int ADDR_BITS   = 64,
  parameter int DATA_BITS   = 512,
  parameter int ATOM_BYTES  = 32,     // must divide 32 (BDMA lines are counted in 32 bytes)
  parameter int QUEUE_DEPTH = 20,
  parameter int MAX_BURST   = 16,
  parameter int LEN_BITS    = 16,
  parameter int TAG_BITS    = 4,
  parameter int BUF_ATOMS   = 256,    // atom buffer (read-ahead) size, a power of two
  parameter bit HAS_SRAM    = 1'b1,
  parameter int APB         = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                   clk,
  input  logic                   rstn,
  // CSB: the pending request (for back-pressure) and the access itself
  input  logic                   pend_sel,
  input  logic                   pend_wr,
  input  logic [9:0]             pend_word,
  input  logic                   pend_wdat0,     // bit 0 of the pending write data
  output logic                   hold,
  input  logic                   req_vld,
  input  logic                   req_wr,
  input  logic [9:0]             req_word,
  input  logic [31:0]            req_wdat,
  output logic [31:0]            rd_data,
  // done pulses of group 0 / 1 to GLB
  output logic [1:0]             done,
  // DMA client on both ports ([0] = DBB, [1] = SRAM); payloads shared by the two ports
  output logic [1:0]             rd_req_valid,
  input  logic [1:0]             rd_req_ready,
  output logic [ADDR_BITS-1:0]   rd_req_addr,
  output logic [LEN_BITS-1:0]    rd_req_len,
  input  logic [1:0]             rd_dat_valid,
  input  logic [2*DATA_BITS-1:0] rd_dat_data,
  input  logic [2*APB-1:0]       rd_dat_mask,
  output logic [1:0]             wr_req_valid,
  input  logic [1:0]             wr_req_ready,
  output logic [ADDR_BITS-1:0]   wr_req_addr,
  output logic [LEN_BITS-1:0]    wr_req_len,
  output logic [TAG_BITS-1:0]    wr_req_tag,
  output logic [1:0]             wr_dat_valid,
  input  logic [1:0]             wr_dat_ready,
  output logic [DATA_BITS-1:0]   wr_dat_data,
  output logic [APB-1:0]         wr_dat_mask,
  input  logic [1:0]             wr_cmpl,
  input  logic [2*TAG_BITS-1:0]  wr_cmpl_tag
);
  localparam int ATOM_BITS = 8 * ATOM_BYTES;
  localparam int LANE_BITS = (APB > 1) ? $clog2(APB) : 1;
  localparam int UNIT_SH   = $clog2(32 / ATOM_BYTES);   // atoms per 32-byte line unit
  localparam int NA_BITS   = 13 + UNIT_SH;              // (SIZE+1)*32/ATOM - 1
  localparam int CNT_BITS  = $clog2(BUF_ATOMS + 1);
  localparam int OPS_BITS  = $clog2(QUEUE_DEPTH + 1);
  localparam int SLOTS     = 4;                          // launched batches in flight
  localparam int SLOT_BITS = 2;
  localparam int WOUT_BITS = 16;                         // write requests awaiting completion
  localparam int LD_BITS   = 1 + 1 + SLOT_BITS + 1 + 1 + NA_BITS + ADDR_BITS;
  localparam int DESC_BITS = 2 * ADDR_BITS + NA_BITS + 2 + 24 + 24 + 4 * 32;
  localparam logic [9:0] W_CFG_OP = 10'd12, W_LAUNCH0 = 10'd13, W_LAUNCH1 = 10'd14;

  // ---- registers -----------------------------------------------------------------------
  logic [26:0] src_lo, dst_lo, src_lstr, dst_lstr, src_sstr, dst_sstr;
  logic [31:0] src_hi, dst_hi;
  /* verilator lint_off UNUSEDSIGNAL */   // only bit 0 of a CFG_OP / CFG_LAUNCHn write acts
  logic [31:0] wdat;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [12:0] line_size;
  logic [23:0] line_rep, surf_rep;
  logic        src_ram, dst_ram, op_wr, launch0_wr, launch1_wr, stall_en;
  logic        unused_op_en, unused_launch0, unused_launch1;
  logic [7:0]  free_slot;
  logic        idle, grp0_busy, grp1_busy;
  logic [31:0] stall_rd0, stall_rd1, stall_wr0, stall_wr1;

  dla_bdma_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .wr_data(wdat),
    .cfg_src_addr_low_v32(src_lo),   .cfg_src_addr_high_v8(src_hi),
    .cfg_dst_addr_low_v32(dst_lo),   .cfg_dst_addr_high_v8(dst_hi),
    .cfg_line_size(line_size),
    .cfg_cmd_src_ram_type(src_ram),  .cfg_cmd_dst_ram_type(dst_ram),
    .cfg_line_repeat_number(line_rep),
    .cfg_src_line_stride(src_lstr),  .cfg_dst_line_stride(dst_lstr),
    .cfg_surf_repeat_number(surf_rep),
    .cfg_src_surf_stride(src_sstr),  .cfg_dst_surf_stride(dst_sstr),
    .cfg_op_wr(op_wr),               .cfg_op_en(unused_op_en),
    .cfg_launch0_wr(launch0_wr),     .cfg_launch0_grp0_launch(unused_launch0),
    .cfg_launch1_wr(launch1_wr),     .cfg_launch1_grp1_launch(unused_launch1),
    .cfg_status_stall_count_en(stall_en),
    .status_free_slot(free_slot),    .status_idle(idle),
    .status_grp0_busy(grp0_busy),    .status_grp1_busy(grp1_busy),
    .status_grp0_read_stall_count(stall_rd0),
    .status_grp0_write_stall_count(stall_wr0),
    .status_grp1_read_stall_count(stall_rd1),
    .status_grp1_write_stall_count(stall_wr1)
  );

  // RAM type MC (1) is the DBB port 0; CVSRAM (0) is the SRAM port 1 when it exists.
  function automatic logic port_of(input logic ram_type);
    port_of = HAS_SRAM ? !ram_type : 1'b0;
  endfunction

  // ---- descriptor queue -----------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */   // address bits above ADDR_BITS
  wire [63:0] src64 = {src_hi, src_lo, 5'b0};
  wire [63:0] dst64 = {dst_hi, dst_lo, 5'b0};
  /* verilator lint_on UNUSEDSIGNAL */
  wire [NA_BITS-1:0] atoms_m1 = ({line_size, {UNIT_SH{1'b1}}});

  logic                 enqueue, launch, launch_grp, q_empty, q_full, q_pop;
  logic [DESC_BITS-1:0] q_head;
  logic [OPS_BITS-1:0]  q_count, unlaunched;

  assign enqueue    = op_wr && wdat[0];
  assign launch     = (launch0_wr || launch1_wr) && wdat[0];
  assign launch_grp = launch1_wr;

  dla_fifo #(.WIDTH(DESC_BITS), .DEPTH(QUEUE_DEPTH)) u_queue (
    .clk, .rstn,
    .push(enqueue),
    .push_data({src64[ADDR_BITS-1:0], dst64[ADDR_BITS-1:0], atoms_m1,
                port_of(src_ram), port_of(dst_ram), line_rep, surf_rep,
                {src_lstr, 5'b0}, {dst_lstr, 5'b0}, {src_sstr, 5'b0}, {dst_sstr, 5'b0}}),
    .pop(q_pop), .head(q_head), .empty(q_empty), .full(q_full), .count(q_count)
  );

  logic [ADDR_BITS-1:0] op_src, op_dst;
  logic [NA_BITS-1:0]   op_atoms_m1;
  logic                 op_src_port, op_dst_port;
  logic [23:0]          op_lines_m1, op_surfs_m1;
  logic [31:0]          op_src_lstr, op_dst_lstr, op_src_sstr, op_dst_sstr;
  assign {op_src, op_dst, op_atoms_m1, op_src_port, op_dst_port, op_lines_m1, op_surfs_m1,
          op_src_lstr, op_dst_lstr, op_src_sstr, op_dst_sstr} = q_head;

  // ---- batch slots (launch order) -------------------------------------------------------
  // A slot holds one launched batch from its launch until its last write is acknowledged.
  logic [SLOTS-1:0]           slot_valid, slot_grp, slot_fin;
  logic [SLOTS*OPS_BITS-1:0]  slot_nops;
  logic [SLOT_BITS-1:0]       tail, rd_ptr;
  logic [2:0]                 rd_pending;
  logic                       batch_take, batch_issued;
  logic [SLOT_BITS-1:0]       wr_slot;
  logic                       wr_fire;

  // CSB back-pressure: an enqueue into a full queue, a launch into a busy slot.
  assign hold = pend_sel && pend_wr && pend_wdat0 &&
                ((pend_word == W_CFG_OP && q_full) ||
                 ((pend_word == W_LAUNCH0 || pend_word == W_LAUNCH1) && slot_valid[tail]));

  for (genvar s = 0; s < SLOTS; s++) begin : g_slot
    logic                 issued;   // the batch's last write request has been issued
    logic [WOUT_BITS-1:0] wout;     // its write requests awaiting completion
    wire this_launch = launch && tail == SLOT_BITS'(s);
    assign slot_fin[s] = slot_valid[s] && issued && wout == '0;
    always_ff @(posedge clk or negedge rstn)
      if (!rstn) begin
        slot_valid[s] <= 1'b0;
        slot_grp[s]   <= 1'b0;
        slot_nops[s*OPS_BITS +: OPS_BITS] <= '0;
        issued <= 1'b0;
        wout   <= '0;
      end else begin
        if (this_launch) begin
          slot_valid[s] <= 1'b1;
          slot_grp[s]   <= launch_grp;
          slot_nops[s*OPS_BITS +: OPS_BITS] <= unlaunched;
        end
        if (batch_issued && wr_slot == SLOT_BITS'(s)) issued <= 1'b1;
        if (slot_fin[s]) begin
          slot_valid[s] <= 1'b0;
          issued        <= 1'b0;
        end
        wout <= wout
                + WOUT_BITS'(wr_fire && wr_slot == SLOT_BITS'(s))
                - WOUT_BITS'(wr_cmpl[0] && wr_cmpl_tag[SLOT_BITS-1:0] == SLOT_BITS'(s))
                - WOUT_BITS'(wr_cmpl[1] && wr_cmpl_tag[TAG_BITS +: SLOT_BITS] == SLOT_BITS'(s));
      end
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      tail       <= '0;
      rd_ptr     <= '0;
      rd_pending <= '0;
      unlaunched <= '0;
      done       <= '0;
    end else begin
      if (enqueue) unlaunched <= unlaunched + 1'b1;
      if (launch) begin
        tail       <= tail + 1'b1;
        unlaunched <= '0;
      end
      rd_pending <= rd_pending + 3'(launch) - 3'(batch_take);
      if (batch_take) rd_ptr <= rd_ptr + 1'b1;
      done <= {|(slot_fin & slot_grp), |(slot_fin & ~slot_grp)};
    end

  /* verilator lint_off UNUSEDSIGNAL */   // upper tag bits: only the slot index is used
  wire [2*TAG_BITS-1:0] unused_cmpl_tag = wr_cmpl_tag;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- read engine ----------------------------------------------------------------------
  logic                 rd_valid, rd_port, ld_push, ld_full, ld_empty, ld_pop, rd_busy, rd_grp;
  logic [LD_BITS-1:0]   ld_in, ld_head;
  logic [CNT_BITS-1:0]  reserved, inflight, buf_count, take;
  logic [$clog2(8+1)-1:0] unused_ld_count;

  dla_bdma_rd_engine #(
    .ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .APB(APB), .MAX_BURST(MAX_BURST),
    .LEN_BITS(LEN_BITS), .NA_BITS(NA_BITS), .CNT_BITS(CNT_BITS), .OPS_BITS(OPS_BITS),
    .SLOT_BITS(SLOT_BITS)
  ) u_rd (
    .clk, .rstn,
    .batch_avail(rd_pending != '0), .batch_nops(slot_nops[rd_ptr*OPS_BITS +: OPS_BITS]), .batch_slot(rd_ptr),
    .batch_grp(slot_grp[rd_ptr]), .batch_take,
    .op_valid(!q_empty), .op_pop(q_pop),
    .op_src, .op_dst, .op_atoms_m1, .op_src_port, .op_dst_port, .op_lines_m1, .op_surfs_m1,
    .op_src_line_stride(op_src_lstr), .op_dst_line_stride(op_dst_lstr),
    .op_src_surf_stride(op_src_sstr), .op_dst_surf_stride(op_dst_sstr),
    .rd_valid, .rd_port, .rd_ready(rd_req_ready[rd_port]),
    .rd_addr(rd_req_addr), .rd_len(rd_req_len),
    .buf_room(CNT_BITS'(BUF_ATOMS) - reserved), .reads_inflight(inflight != '0),
    .ld_push, .ld_data(ld_in), .ld_full,
    .busy(rd_busy), .cur_grp(rd_grp)
  );
  assign rd_req_valid = {rd_valid && rd_port, rd_valid && !rd_port};
  wire rd_fire = rd_valid && rd_req_ready[rd_port];

  dla_fifo #(.WIDTH(LD_BITS), .DEPTH(8)) u_lines (
    .clk, .rstn, .push(ld_push), .push_data(ld_in), .pop(ld_pop), .head(ld_head),
    .empty(ld_empty), .full(ld_full), .count(unused_ld_count)
  );

  // ---- atom buffer ----------------------------------------------------------------------
  // Only one port returns read data at a time (a source change waits for all returns).
  wire                 in_valid = |rd_dat_valid;
  wire                 in_port  = rd_dat_valid[1];
  wire [APB-1:0]       in_mask  = rd_dat_mask[in_port*APB +: APB];
  logic [CNT_BITS-1:0] in_atoms;
  logic [LANE_BITS-1:0] out_lane;

  always_comb begin
    in_atoms = '0;
    if (in_valid)
      for (int k = 0; k < APB; k++) in_atoms = in_atoms + CNT_BITS'(in_mask[k]);
  end

  dla_atom_fifo #(.ATOM_BITS(ATOM_BITS), .APB(APB), .DEPTH(BUF_ATOMS)) u_buf (
    .clk, .rstn,
    .in_valid, .in_data(rd_dat_data[in_port*DATA_BITS +: DATA_BITS]), .in_mask,
    .out_lane, .out_take(take), .out_data(wr_dat_data), .count(buf_count)
  );

  // reserved = atoms in the buffer + atoms requested and not yet returned (credits).
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      reserved <= '0;
      inflight <= '0;
    end else begin
      reserved <= reserved + (rd_fire ? CNT_BITS'(rd_req_len) + 1'b1 : '0) - take;
      inflight <= inflight + (rd_fire ? CNT_BITS'(rd_req_len) + 1'b1 : '0) - in_atoms;
    end

  // ---- write engine ---------------------------------------------------------------------
  logic wr_valid, wr_port, dat_valid, dat_port, dat_grp, wr_busy;

  dla_bdma_wr_engine #(
    .ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .APB(APB), .LEN_BITS(LEN_BITS),
    .NA_BITS(NA_BITS), .CNT_BITS(CNT_BITS), .SLOT_BITS(SLOT_BITS)
  ) u_wr (
    .clk, .rstn,
    .ld_valid(!ld_empty), .ld_data(ld_head), .ld_pop,
    .wr_valid, .wr_port, .wr_ready(wr_req_ready[wr_port]),
    .wr_addr(wr_req_addr), .wr_len(wr_req_len), .wr_slot, .batch_issued,
    .dat_valid, .dat_port, .dat_ready(wr_dat_ready[dat_port]), .dat_mask(wr_dat_mask),
    .dat_lane(out_lane), .dat_take(take), .buf_count, .dat_grp, .busy(wr_busy)
  );
  assign wr_req_valid = {wr_valid && wr_port, wr_valid && !wr_port};
  assign wr_req_tag   = TAG_BITS'(wr_slot);
  assign wr_fire      = wr_valid && wr_req_ready[wr_port];
  assign wr_dat_valid = {dat_valid && dat_port, dat_valid && !dat_port};

  // ---- status ---------------------------------------------------------------------------
  assign free_slot = 8'(QUEUE_DEPTH) - 8'(q_count);
  assign idle      = q_empty && !rd_busy && !wr_busy && slot_valid == '0;
  assign grp0_busy = |(slot_valid & ~slot_grp);
  assign grp1_busy = |(slot_valid & slot_grp);

  // Stall counters: cycles a request/beat of the group waits for its port. Cleared when the
  // group is launched, counting only while CFG_STATUS.STALL_COUNT_EN is 1; saturating.
  wire rd_stall = stall_en && rd_valid && !rd_req_ready[rd_port];
  wire wr_stall = stall_en && dat_valid && !wr_dat_ready[dat_port];

  wire clr0 = launch && !launch_grp;
  wire clr1 = launch && launch_grp;
  dla_stall_counter  u_rd0 (.clk, .rstn, .clear(clr0), .stall(rd_stall && !rd_grp),  .count(stall_rd0));
  dla_stall_counter  u_rd1 (.clk, .rstn, .clear(clr1), .stall(rd_stall && rd_grp),   .count(stall_rd1));
  dla_stall_counter  u_wr0 (.clk, .rstn, .clear(clr0), .stall(wr_stall && !dat_grp), .count(stall_wr0));
  dla_stall_counter  u_wr1 (.clk, .rstn, .clear(clr1), .stall(wr_stall && dat_grp),  .count(stall_wr1));
endmodule
