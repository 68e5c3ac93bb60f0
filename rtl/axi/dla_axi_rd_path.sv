// Read half of the shared AXI4 master: round-robin over N read clients, burst splitting,
// AR output register, outstanding-burst cap, and routing of R beats back to their client
// (AXI ID = client index) with the per-atom valid mask of each beat.
module dla_axi_rd_path #(
  parameter int N          = 1,
  parameter int ADDR_BITS  = 64,
  parameter int DATA_BITS  = 512,
  parameter int ATOM_BYTES = 32,
  parameter int ID_BITS    = 8,
  parameter int MAX_BURST  = 16,
  parameter int MAX_OUT    = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES),
  parameter logic [N-1:0] USED = '1   // client slots with a reader; the others get no logic
) (
  input  logic                   clk,
  input  logic                   rstn,
  // client request channels
  input  logic [N-1:0]           rd_req_valid,
  output logic [N-1:0]           rd_req_ready,
  input  logic [N*ADDR_BITS-1:0] rd_req_addr,
  input  logic [N*LEN_BITS-1:0]  rd_req_len,
  input  logic [N*TAG_BITS-1:0]  rd_req_tag,
  // client return channel (payload shared, valid per client, no back-pressure)
  output logic [N-1:0]           rd_dat_valid,
  output logic [DATA_BITS-1:0]   rd_dat_data,
  output logic [APB-1:0]         rd_dat_mask,
  output logic [TAG_BITS-1:0]    rd_dat_tag,
  output logic                   rd_dat_last,
  // AXI4 AR and R channels
  output logic                   ar_valid,
  input  logic                   ar_ready,
  output logic [ID_BITS-1:0]     ar_id,
  output logic [3:0]             ar_len,
  output logic [ADDR_BITS-1:0]   ar_addr,
  input  logic                   r_valid,
  output logic                   r_ready,
  input  logic [ID_BITS-1:0]     r_id,
  input  logic                   r_last,
  input  logic [DATA_BITS-1:0]   r_data,
  output logic                   idle
);
  localparam int LANE_BITS = (APB > 1) ? $clog2(APB) : 1;
  localparam int IDX_BITS  = (N > 1) ? $clog2(N) : 1;
  localparam int OUT_BITS  = $clog2(MAX_OUT + 1);
  localparam int INFO_BITS = 2 + 2 * LANE_BITS + TAG_BITS;   // {first, last, a0, aend, tag}

  // ---- request side -------------------------------------------------------------------
  logic [N*ADDR_BITS-1:0] b_addr;
  logic [N*4-1:0]         b_len;
  logic [N-1:0]           b_first, b_last, info_full, take, arb_req, grant;
  logic [N*INFO_BITS-1:0] info_in, info_head;
  logic [IDX_BITS-1:0]    grant_idx;
  logic [OUT_BITS-1:0]    outstanding;
  logic                   issue;

  wire ar_free = !ar_valid || ar_ready;
  wire under_cap = outstanding < OUT_BITS'(MAX_OUT);
  wire r_done = r_valid && r_last;    // a burst completes (r_ready is always 1)

  for (genvar i = 0; i < N; i++) begin : g_client
    if (USED[i]) begin : g_used
      logic [LANE_BITS-1:0] a0, aend;
      logic                 unused_info_empty;
      logic [$clog2(MAX_OUT+1)-1:0] unused_info_count;
      dla_axi_burst_split #(
        .ADDR_BITS(ADDR_BITS), .BEAT_BYTES(DATA_BITS / 8), .ATOM_BYTES(ATOM_BYTES),
        .MAX_BURST(MAX_BURST), .LEN_BITS(LEN_BITS)
      ) u_split (
        .clk, .rstn,
        .req_addr(rd_req_addr[i*ADDR_BITS +: ADDR_BITS]),
        .req_len (rd_req_len[i*LEN_BITS +: LEN_BITS]),
        .take    (take[i]),
        .b_addr  (b_addr[i*ADDR_BITS +: ADDR_BITS]),
        .b_len   (b_len[i*4 +: 4]),
        .b_first (b_first[i]),
        .b_last  (b_last[i]),
        .a0, .aend
      );
      assign info_in[i*INFO_BITS +: INFO_BITS] =
        {b_first[i], b_last[i], a0, aend, rd_req_tag[i*TAG_BITS +: TAG_BITS]};
      // One entry per burst in flight for this client (its ID), popped at the burst's RLAST.
      dla_fifo #(.WIDTH(INFO_BITS), .DEPTH(MAX_OUT)) u_info (
        .clk, .rstn,
        .push(take[i]), .push_data(info_in[i*INFO_BITS +: INFO_BITS]),
        .pop(r_done && r_id == ID_BITS'(i)), .head(info_head[i*INFO_BITS +: INFO_BITS]),
        .empty(unused_info_empty), .full(info_full[i]), .count(unused_info_count)
      );
      assign arb_req[i]      = rd_req_valid[i] && !info_full[i];
      assign take[i]         = issue && grant[i];
      assign rd_req_ready[i] = take[i] && b_last[i];
      assign rd_dat_valid[i] = r_valid && r_id == ID_BITS'(i);
    end else begin : g_unused
      // no client in this slot: nothing is requested, so nothing returns on its ID
      assign {b_addr[i*ADDR_BITS +: ADDR_BITS], b_len[i*4 +: 4], b_first[i], b_last[i]} = '0;
      assign info_in[i*INFO_BITS +: INFO_BITS]   = '0;
      assign info_head[i*INFO_BITS +: INFO_BITS] = '0;
      assign {info_full[i], arb_req[i], take[i], rd_req_ready[i], rd_dat_valid[i]} = '0;
      wire unused_client = &{1'b0, rd_req_valid[i], rd_req_addr[i*ADDR_BITS +: ADDR_BITS],
                             rd_req_len[i*LEN_BITS +: LEN_BITS], rd_req_tag[i*TAG_BITS +: TAG_BITS],
                             grant[i], b_first[i], b_last[i], info_in[i*INFO_BITS +: INFO_BITS],
                             info_full[i], take[i]};
    end
  end

  assign issue = ar_free && under_cap && |arb_req;

  dla_rr_arb #(.N(N)) u_arb (
    .clk, .rstn, .req(arb_req), .advance(issue), .grant, .grant_idx
  );

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      ar_valid <= 1'b0;
      ar_id    <= '0;
      ar_len   <= '0;
      ar_addr  <= '0;
    end else if (ar_free) begin
      ar_valid <= issue;
      if (issue) begin
        ar_id   <= ID_BITS'(grant_idx);
        ar_len  <= b_len[grant_idx*4 +: 4];
        ar_addr <= b_addr[grant_idx*ADDR_BITS +: ADDR_BITS];
      end
    end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) outstanding <= '0;
    else outstanding <= outstanding + OUT_BITS'(issue) - OUT_BITS'(r_done);

  // ---- return side --------------------------------------------------------------------
  logic [N-1:0]           in_burst;      // a beat of the client's current burst has arrived
  logic [INFO_BITS-1:0]   head;
  logic                   head_first, head_last, mid_burst;
  logic [LANE_BITS-1:0]   head_a0, head_aend;

  always_comb begin
    head      = '0;
    mid_burst = 1'b0;
    for (int i = 0; i < N; i++)
      if (r_id == ID_BITS'(i)) begin
        head      = info_head[i*INFO_BITS +: INFO_BITS];
        mid_burst = in_burst[i];
      end
  end
  assign {head_first, head_last, head_a0, head_aend, rd_dat_tag} = head;

  dla_axi_beat_mask #(.APB(APB)) u_mask (
    .req_first_beat(head_first && !mid_burst),
    .req_last_beat (head_last && r_last),
    .a0(head_a0), .aend(head_aend), .mask(rd_dat_mask)
  );

  assign rd_dat_data = r_data;
  assign rd_dat_last = r_last && head_last;
  assign r_ready     = 1'b1;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) in_burst <= '0;
    else
      for (int i = 0; i < N; i++)
        if (USED[i] && r_valid && r_id == ID_BITS'(i)) in_burst[i] <= !r_last;

  assign idle = (outstanding == '0) && !ar_valid;
endmodule
