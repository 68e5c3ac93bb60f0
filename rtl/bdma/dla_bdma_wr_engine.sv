// BDMA write engine. Two decoupled halves:
//  - request issue: takes line descriptors from the read engine in order and issues one
//    write request per line (completion requested, tagged with the batch slot) to the
//    destination port; tells the batch tracker when a batch's last line has been issued;
//  - data streamer: for each issued line, pops the line's atoms from the atom buffer and
//    sends them as beats placed at the destination's atom phase (first beat starts at the
//    destination's lane, last beat may be partial).
module dla_bdma_wr_engine #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2,
  parameter int LEN_BITS   = 16,
  parameter int NA_BITS    = 14,
  parameter int CNT_BITS   = 8,
  parameter int SLOT_BITS  = 2,
  parameter int PLAN_DEPTH = 4,
  parameter int LD_BITS    = 1 + 1 + SLOT_BITS + 1 + 1 + NA_BITS + ADDR_BITS,
  parameter int LANE_BITS  = (APB > 1) ? $clog2(APB) : 1
) (
  input  logic                 clk,
  input  logic                 rstn,
  // line descriptors: {nul, last_of_batch, slot, grp, port, atoms-1, dst}
  input  logic                 ld_valid,
  input  logic [LD_BITS-1:0]   ld_data,
  output logic                 ld_pop,
  // write requests (to port wr_port)
  output logic                 wr_valid,
  output logic                 wr_port,
  input  logic                 wr_ready,
  output logic [ADDR_BITS-1:0] wr_addr,
  output logic [LEN_BITS-1:0]  wr_len,
  output logic [SLOT_BITS-1:0] wr_slot,
  output logic                 batch_issued,   // slot wr_slot has issued its last request
  // write data (to port dat_port)
  output logic                 dat_valid,
  output logic                 dat_port,
  input  logic                 dat_ready,
  output logic [APB-1:0]       dat_mask,
  output logic [LANE_BITS-1:0] dat_lane,       // lane of the first atom popped this beat
  output logic [CNT_BITS-1:0]  dat_take,       // atoms popped from the buffer this cycle
  input  logic [CNT_BITS-1:0]  buf_count,      // atoms in the buffer
  output logic                 dat_grp,
  output logic                 busy
);
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int APB_M1    = APB - 1;
  localparam int PLAN_BITS = 1 + 1 + LANE_BITS + NA_BITS;       // {port, grp, lane0, atoms-1}

  // ---- request issue ------------------------------------------------------------------
  logic                 ld_nul, ld_last, ld_grp, ld_port;
  logic [SLOT_BITS-1:0] ld_slot;
  logic [NA_BITS-1:0]   ld_atoms_m1;
  logic [ADDR_BITS-1:0] ld_dst;
  logic                 plan_full, plan_empty;
  logic [PLAN_BITS-1:0] plan_head;
  logic [$clog2(PLAN_DEPTH+1)-1:0] unused_plan_count;
  logic                 line_done;        // the current beat is the line's last

  assign {ld_nul, ld_last, ld_slot, ld_grp, ld_port, ld_atoms_m1, ld_dst} = ld_data;

  wire [LANE_BITS-1:0] ld_lane0 = LANE_BITS'((ld_dst >> ATOM_SH) & ADDR_BITS'(APB_M1));

  // The line goes to the data streamer when its request is first presented, not when the
  // AXI master has accepted all of it: a line of more bursts than the master may have
  // outstanding is only accepted after earlier bursts are acknowledged, which needs data.
  logic plan_pushed;                      // the current descriptor's line is in the plan
  wire  plan_push = ld_valid && !ld_nul && !plan_pushed && !plan_full;
  assign wr_valid     = ld_valid && !ld_nul && (plan_pushed || plan_push);
  assign wr_port      = ld_port;
  assign wr_addr      = ld_dst;
  assign wr_len       = LEN_BITS'(ld_atoms_m1);
  assign wr_slot      = ld_slot;
  wire   wr_accept    = wr_valid && wr_ready;
  assign ld_pop       = wr_accept || (ld_valid && ld_nul);
  assign batch_issued = ld_pop && ld_last;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) plan_pushed <= 1'b0;
    else if (wr_accept) plan_pushed <= 1'b0;
    else if (plan_push) plan_pushed <= 1'b1;

  dla_fifo #(.WIDTH(PLAN_BITS), .DEPTH(PLAN_DEPTH)) u_plan (
    .clk, .rstn,
    .push(plan_push), .push_data({ld_port, ld_grp, ld_lane0, ld_atoms_m1}),
    .pop(dat_valid && dat_ready && line_done), .head(plan_head),
    .empty(plan_empty), .full(plan_full), .count(unused_plan_count)
  );

  // ---- data streamer --------------------------------------------------------------------
  logic [LANE_BITS-1:0] p_lane0;
  logic [NA_BITS-1:0]   p_atoms_m1, sent;
  logic [NA_BITS:0]     left, need;

  assign {dat_port, dat_grp, p_lane0, p_atoms_m1} = plan_head;

  always_comb begin
    dat_lane  = (sent == '0) ? p_lane0 : '0;
    left      = {1'b0, p_atoms_m1} - {1'b0, sent} + 1'b1;
    need      = (NA_BITS+1)'(APB) - (NA_BITS+1)'(dat_lane);
    if (left < need) need = left;
    line_done = (need == left);
    for (int k = 0; k < APB; k++)
      dat_mask[k] = (LANE_BITS+1)'(k) >= {1'b0, dat_lane} &&
                    (NA_BITS+1)'(k) < (NA_BITS+1)'(dat_lane) + need;
  end

  assign dat_valid = !plan_empty &&
                     {{(NA_BITS+1){1'b0}}, buf_count} >= {{(CNT_BITS){1'b0}}, need};
  assign dat_take  = (dat_valid && dat_ready) ? CNT_BITS'(need) : '0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) sent <= '0;
    else if (dat_valid && dat_ready) sent <= line_done ? '0 : sent + NA_BITS'(need);

  assign busy = ld_valid || !plan_empty;
endmodule
