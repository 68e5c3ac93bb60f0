// Write-data side of the DMA write engines (SDP write, PDP write, CDP write): an atom buffer
// filled one atom at a time, a plan FIFO of the issued write requests (first lane, atoms,
// user bits such as the port or a last flag) and the beat streamer that sends each request's
// atoms from the buffer at their destination lanes (the first beat starts at the request's
// lane, docs/rtl.md "DMA client interface").
//
// The caller walks the output (dla_line_chunker) and may issue a request of `atoms` atoms when
// `!plan_full && avail >= atoms` (all of its atoms are buffered and not promised to an
// earlier request), so its W beats never wait for data; `req_fire` records it.
module dla_dma_wr_stream #(
  parameter int ATOM_BITS  = 256,
  parameter int APB        = 2,
  parameter int BUF_ATOMS  = 64,     // atom buffer, a power of two >= 2*APB
  parameter int MAX_ATOMS  = 32,     // largest request (a CHUNK)
  parameter int PLAN_DEPTH = 4,      // issued requests whose beats are not all sent
  parameter int USER_BITS  = 1,
  parameter int LANE_BITS  = (APB > 1) ? $clog2(APB) : 1,
  parameter int CNT_BITS   = $clog2(BUF_ATOMS + 1),
  parameter int RQ_BITS    = $clog2(MAX_ATOMS + 1)
) (
  input  logic                     clk,
  input  logic                     rstn,
  // atoms, in output order (the caller pushes only when `in_room`)
  input  logic                     in_push,
  input  logic [ATOM_BITS-1:0]     in_atom,
  output logic                     in_room,
  output logic [CNT_BITS-1:0]      count,       // buffered atoms
  // issued requests
  input  logic                     req_fire,
  input  logic [LANE_BITS-1:0]     req_lane,    // lane of the request's first atom
  input  logic [RQ_BITS-1:0]       req_atoms,   // 1..MAX_ATOMS
  input  logic [USER_BITS-1:0]     req_user,
  output logic                     plan_full,
  output logic [CNT_BITS-1:0]      avail,       // buffered atoms not promised to a request
  // write beats of the oldest request
  output logic                     dat_valid,
  input  logic                     dat_ready,
  output logic [APB*ATOM_BITS-1:0] dat_data,
  output logic [APB-1:0]           dat_mask,
  output logic [USER_BITS-1:0]     dat_user,
  output logic                     dat_end      // this beat is the request's last
);
  localparam int PLAN_BITS = USER_BITS + LANE_BITS + RQ_BITS;

  // ---- atom buffer ----
  logic [LANE_BITS-1:0] lane;
  logic [CNT_BITS-1:0]  take, committed;
  dla_atom_fifo #(.ATOM_BITS(ATOM_BITS), .APB(APB), .DEPTH(BUF_ATOMS)) u_buf (
    .clk, .rstn, .in_valid(in_push), .in_data({{((APB-1)*ATOM_BITS){1'b0}}, in_atom}),
    .in_mask({{(APB-1){1'b0}}, 1'b1}), .out_lane(lane), .out_take(take), .out_data(dat_data),
    .count);
  assign in_room = count != CNT_BITS'(BUF_ATOMS);
  assign avail   = count - committed;

  // ---- plan of issued requests ----
  logic                 plan_empty;
  logic [PLAN_BITS-1:0] plan_head;
  logic [LANE_BITS-1:0] p_lane0;
  logic [RQ_BITS-1:0]   p_atoms, sent, d_left, need;
  logic [$clog2(PLAN_DEPTH+1)-1:0] unused_plan_count;
  wire dat_fire = dat_valid && dat_ready;
  dla_fifo #(.WIDTH(PLAN_BITS), .DEPTH(PLAN_DEPTH)) u_plan (
    .clk, .rstn, .push(req_fire), .push_data({req_user, req_lane, req_atoms}),
    .pop(dat_fire && dat_end), .head(plan_head), .empty(plan_empty), .full(plan_full),
    .count(unused_plan_count));
  assign {dat_user, p_lane0, p_atoms} = plan_head;

  // ---- beat streamer ----
  always_comb begin
    lane    = (sent == '0) ? p_lane0 : '0;
    d_left  = p_atoms - sent;
    need    = RQ_BITS'(APB) - RQ_BITS'(lane);
    if (d_left < need) need = d_left;
    dat_end = need == d_left;
    for (int k = 0; k < APB; k++)
      dat_mask[k] = RQ_BITS'(k) >= RQ_BITS'(lane) && RQ_BITS'(k) < RQ_BITS'(lane) + need;
  end
  assign dat_valid = !plan_empty;
  assign take      = dat_fire ? CNT_BITS'(need) : '0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      sent      <= '0;
      committed <= '0;
    end else begin
      if (dat_fire) sent <= dat_end ? '0 : sent + need;
      committed <= committed + (req_fire ? CNT_BITS'(req_atoms) : '0) - take;
    end
endmodule
