// Write half of the shared AXI4 master: round-robin over N write clients, burst splitting,
// AW output register, W beats taken from the owning client in AW order (WLAST, WSTRB from
// the per-atom mask), outstanding-burst cap, and completion pulses from B (AXI ID = client).
module dla_axi_wr_path #(
  parameter int N          = 1,
  parameter int ADDR_BITS  = 64,
  parameter int DATA_BITS  = 512,
  parameter int ATOM_BYTES = 32,
  parameter int ID_BITS    = 8,
  parameter int MAX_BURST  = 16,
  parameter int MAX_OUT    = 32,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES),
  parameter logic [N-1:0] USED = '1   // client slots with a writer; the others get no logic
) (
  input  logic                   clk,
  input  logic                   rstn,
  // client request channels
  input  logic [N-1:0]           wr_req_valid,
  output logic [N-1:0]           wr_req_ready,
  input  logic [N*ADDR_BITS-1:0] wr_req_addr,
  input  logic [N*LEN_BITS-1:0]  wr_req_len,
  input  logic [N-1:0]           wr_req_cmpl,
  input  logic [N*TAG_BITS-1:0]  wr_req_tag,
  // client data channels
  input  logic [N-1:0]           wr_dat_valid,
  output logic [N-1:0]           wr_dat_ready,
  input  logic [N*DATA_BITS-1:0] wr_dat_data,
  input  logic [N*APB-1:0]       wr_dat_mask,
  // completion (one per cycle at most)
  output logic [N-1:0]           wr_cmpl,
  output logic [TAG_BITS-1:0]    wr_cmpl_tag,
  // AXI4 AW, W and B channels
  output logic                   aw_valid,
  input  logic                   aw_ready,
  output logic [ID_BITS-1:0]     aw_id,
  output logic [3:0]             aw_len,
  output logic [ADDR_BITS-1:0]   aw_addr,
  output logic                   w_valid,
  input  logic                   w_ready,
  output logic [DATA_BITS-1:0]   w_data,
  output logic [DATA_BITS/8-1:0] w_strb,
  output logic                   w_last,
  input  logic                   b_valid,
  output logic                   b_ready,
  input  logic [ID_BITS-1:0]     b_id,
  output logic                   idle
);
  localparam int LANE_BITS = (APB > 1) ? $clog2(APB) : 1;
  localparam int IDX_BITS  = (N > 1) ? $clog2(N) : 1;
  localparam int OUT_BITS  = $clog2(MAX_OUT + 1);
  localparam int BINF_BITS = 1 + TAG_BITS;                          // {cmpl, tag}
  localparam int WINF_BITS = IDX_BITS + 4 + 2 + 2 * LANE_BITS;      // {client, len, first, last, a0, aend}

  // ---- request side -------------------------------------------------------------------
  logic [N*ADDR_BITS-1:0] b_addr;
  logic [N*4-1:0]         b_len;
  logic [N-1:0]           b_first, b_last, binf_full, take, arb_req, grant;
  logic [N*BINF_BITS-1:0] binf_head;
  logic [N*2*LANE_BITS-1:0] lanes;
  logic [IDX_BITS-1:0]    grant_idx;
  logic [OUT_BITS-1:0]    outstanding;
  logic                   issue, winf_full, winf_empty;
  logic [WINF_BITS-1:0]   winf_in, winf_head;
  logic [OUT_BITS-1:0]    unused_winf_count;

  wire aw_free   = !aw_valid || aw_ready;
  wire under_cap = outstanding < OUT_BITS'(MAX_OUT);

  for (genvar i = 0; i < N; i++) begin : g_client
    if (USED[i]) begin : g_used
      logic                         unused_binf_empty;
      logic [$clog2(MAX_OUT+1)-1:0] unused_binf_count;
      dla_axi_burst_split #(
        .ADDR_BITS(ADDR_BITS), .BEAT_BYTES(DATA_BITS / 8), .ATOM_BYTES(ATOM_BYTES),
        .MAX_BURST(MAX_BURST), .LEN_BITS(LEN_BITS)
      ) u_split (
        .clk, .rstn,
        .req_addr(wr_req_addr[i*ADDR_BITS +: ADDR_BITS]),
        .req_len (wr_req_len[i*LEN_BITS +: LEN_BITS]),
        .take    (take[i]),
        .b_addr  (b_addr[i*ADDR_BITS +: ADDR_BITS]),
        .b_len   (b_len[i*4 +: 4]),
        .b_first (b_first[i]),
        .b_last  (b_last[i]),
        .a0      (lanes[i*2*LANE_BITS + LANE_BITS +: LANE_BITS]),
        .aend    (lanes[i*2*LANE_BITS +: LANE_BITS])
      );
      // One entry per burst awaiting its B response: does it complete a request that asked
      // for a completion, and with which tag.
      dla_fifo #(.WIDTH(BINF_BITS), .DEPTH(MAX_OUT)) u_binf (
        .clk, .rstn,
        .push(take[i]),
        .push_data({b_last[i] && wr_req_cmpl[i], wr_req_tag[i*TAG_BITS +: TAG_BITS]}),
        .pop(b_valid && b_id == ID_BITS'(i)), .head(binf_head[i*BINF_BITS +: BINF_BITS]),
        .empty(unused_binf_empty), .full(binf_full[i]), .count(unused_binf_count)
      );
      assign arb_req[i]      = wr_req_valid[i] && !binf_full[i];
      assign take[i]         = issue && grant[i];
      assign wr_req_ready[i] = take[i] && b_last[i];
      assign wr_cmpl[i]      = b_valid && b_id == ID_BITS'(i) && binf_head[i*BINF_BITS + TAG_BITS];
    end else begin : g_unused
      // no client in this slot: no bursts, no data, no completions on its ID
      assign {b_addr[i*ADDR_BITS +: ADDR_BITS], b_len[i*4 +: 4], b_first[i], b_last[i]} = '0;
      assign lanes[i*2*LANE_BITS +: 2*LANE_BITS] = '0;
      assign binf_head[i*BINF_BITS +: BINF_BITS] = '0;
      assign {binf_full[i], arb_req[i], take[i], wr_req_ready[i], wr_cmpl[i]} = '0;
      wire unused_client = &{1'b0, wr_req_valid[i], wr_req_addr[i*ADDR_BITS +: ADDR_BITS],
                             wr_req_len[i*LEN_BITS +: LEN_BITS], wr_req_cmpl[i],
                             wr_req_tag[i*TAG_BITS +: TAG_BITS], grant[i], binf_full[i], take[i]};
    end
  end

  assign issue = aw_free && under_cap && !winf_full && |arb_req;

  dla_rr_arb #(.N(N)) u_arb (
    .clk, .rstn, .req(arb_req), .advance(issue), .grant, .grant_idx
  );

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      aw_valid <= 1'b0;
      aw_id    <= '0;
      aw_len   <= '0;
      aw_addr  <= '0;
    end else if (aw_free) begin
      aw_valid <= issue;
      if (issue) begin
        aw_id   <= ID_BITS'(grant_idx);
        aw_len  <= b_len[grant_idx*4 +: 4];
        aw_addr <= b_addr[grant_idx*ADDR_BITS +: ADDR_BITS];
      end
    end

  // W beats follow AW order: one entry per issued burst.
  assign winf_in = {grant_idx, b_len[grant_idx*4 +: 4], b_first[grant_idx], b_last[grant_idx],
                    lanes[grant_idx*2*LANE_BITS +: 2*LANE_BITS]};

  logic                 w_load, w_beat_last, head_first, head_last;
  logic [IDX_BITS-1:0]  head_idx;
  logic [3:0]           head_len, w_beat;
  logic [LANE_BITS-1:0] head_a0, head_aend;
  logic [APB-1:0]       range_mask, beat_mask;

  assign {head_idx, head_len, head_first, head_last, head_a0, head_aend} = winf_head;

  dla_fifo #(.WIDTH(WINF_BITS), .DEPTH(MAX_OUT)) u_winf (
    .clk, .rstn,
    .push(issue), .push_data(winf_in),
    .pop(w_load && w_beat_last), .head(winf_head),
    .empty(winf_empty), .full(winf_full), .count(unused_winf_count)
  );

  // ---- W channel ----------------------------------------------------------------------
  assign w_beat_last = (w_beat == head_len);
  assign w_load = (!w_valid || w_ready) && !winf_empty && wr_dat_valid[head_idx];

  for (genvar i = 0; i < N; i++) begin : g_wready
    assign wr_dat_ready[i] = USED[i] && w_load && head_idx == IDX_BITS'(i);
  end

  dla_axi_beat_mask #(.APB(APB)) u_mask (
    .req_first_beat(head_first && w_beat == '0),
    .req_last_beat (head_last && w_beat_last),
    .a0(head_a0), .aend(head_aend), .mask(range_mask)
  );
  assign beat_mask = range_mask & wr_dat_mask[head_idx*APB +: APB];

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      w_valid <= 1'b0;
      w_data  <= '0;
      w_strb  <= '0;
      w_last  <= 1'b0;
      w_beat  <= '0;
    end else begin
      if (!w_valid || w_ready) w_valid <= w_load;
      if (w_load) begin
        w_data <= wr_dat_data[head_idx*DATA_BITS +: DATA_BITS];
        for (int k = 0; k < APB; k++) w_strb[k*ATOM_BYTES +: ATOM_BYTES] <= {ATOM_BYTES{beat_mask[k]}};
        w_last <= w_beat_last;
        w_beat <= w_beat_last ? '0 : w_beat + 1'b1;
      end
    end

  // ---- B channel ----------------------------------------------------------------------
  assign b_ready = 1'b1;

  always_comb begin
    wr_cmpl_tag = '0;
    for (int i = 0; i < N; i++)
      if (b_id == ID_BITS'(i)) wr_cmpl_tag = binf_head[i*BINF_BITS +: TAG_BITS];
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) outstanding <= '0;
    else outstanding <= outstanding + OUT_BITS'(issue) - OUT_BITS'(b_valid);

  assign idle = (outstanding == '0) && !aw_valid && !w_valid;
endmodule
