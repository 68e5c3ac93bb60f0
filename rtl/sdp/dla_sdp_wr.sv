// SDP write DMA: takes output atoms in cube order (surface, line, w), buffers them, and
// writes each line in chunks that stay inside one MAX_BURST-beat block (one AXI burst).
// A chunk is requested only once all of its atoms are buffered, so its W beats never wait.
// `done` = every line requested, every beat sent and every request acknowledged (B).
module dla_sdp_wr #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int DEPTH      = 64      // atom buffer, power of two, >= MAX_BURST*APB
) (
  input  logic                         clk,
  input  logic                         rstn,
  input  logic                         start,
  input  logic                         enable,
  input  logic [ADDR_BITS-1:0]         base,
  input  logic [31:0]                  line_stride,
  input  logic [31:0]                  surf_stride,
  input  logic [12:0]                  line_atoms_m1,
  input  logic [12:0]                  lines_m1,
  input  logic [12:0]                  surfs_m1,
  // pair mode (16->8 input merge / 8->16 output split, sdp.md §4.4, §11.5): one atom per
  // request, alternating between surface 2k and 2k+1 (pair_stride apart) at each position;
  // surf_stride is then the step from pair to pair
  input  logic                       pairs,
  input  logic [31:0]                pair_stride,
  // output atoms
  input  logic                         in_valid,
  input  logic [ATOM_BYTES*8-1:0]      in_atom,
  output logic                         in_ready,
  // write requests / data / completions (of the port this layer uses)
  output logic                         wr_req_valid,
  input  logic                         wr_req_ready,
  output logic [ADDR_BITS-1:0]         wr_req_addr,
  output logic [LEN_BITS-1:0]          wr_req_len,
  output logic                         wr_dat_valid,
  input  logic                         wr_dat_ready,
  output logic [APB*ATOM_BYTES*8-1:0]  wr_dat_data,
  output logic [APB-1:0]               wr_dat_mask,
  input  logic                         wr_cmpl,
  output logic                         done
);
  localparam int AB        = ATOM_BYTES * 8;
  localparam int ATOM_SH   = $clog2(ATOM_BYTES);
  localparam int CHUNK     = MAX_BURST * APB;
  localparam int CHUNK_M1  = CHUNK - 1;
  localparam int APB_M1    = APB - 1;
  localparam int CNT_BITS  = $clog2(DEPTH + 1);
  localparam int LANE_BITS = (APB > 1) ? $clog2(APB) : 1;
  localparam int CH_BITS   = $clog2(CHUNK + 1);
  localparam int NA_BITS   = 14;
  localparam int DESC_BITS = LANE_BITS + CH_BITS;

  logic                 running, second;
  logic [ADDR_BITS-1:0] cur, line_base, surf_base;
  logic [NA_BITS-1:0]   off, line_left, chunk_room, chunk;
  logic [12:0]          l_left, s_left;
  logic [CNT_BITS:0]    committed;
  logic [CNT_BITS-1:0]  count, take;
  logic                 line_end, desc_full, desc_empty;
  logic [31:0]          n_req, n_cmpl;

  always_comb begin
    line_left  = NA_BITS'(line_atoms_m1) - off + 1'b1;
    chunk_room = NA_BITS'(CHUNK) - NA_BITS'((cur >> ATOM_SH) & ADDR_BITS'(CHUNK_M1));
    chunk      = (line_left < chunk_room) ? line_left : chunk_room;
    line_end   = (chunk == line_left);
    if (pairs) begin
      chunk    = NA_BITS'(1);
      line_end = second && line_left == NA_BITS'(1);
    end
  end

  assign wr_req_valid = running && !desc_full &&
                        (NA_BITS'(count) >= NA_BITS'(committed) + chunk);
  assign wr_req_addr  = cur;
  assign wr_req_len   = LEN_BITS'(chunk) - 1'b1;
  wire accept = wr_req_valid && wr_req_ready;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running   <= 1'b0;
      cur       <= '0;
      line_base <= '0;
      surf_base <= '0;
      off       <= '0;
      l_left    <= '0;
      s_left    <= '0;
      second    <= 1'b0;
    end else if (start) begin
      running   <= enable;
      cur       <= base;
      line_base <= base;
      surf_base <= base;
      off       <= '0;
      l_left    <= lines_m1;
      s_left    <= surfs_m1;
      second    <= 1'b0;
    end else if (accept && pairs && !second) begin
      second <= 1'b1;
      cur    <= cur + ADDR_BITS'(pair_stride);
    end else if (accept && pairs && !line_end) begin
      second <= 1'b0;
      off    <= off + 1'b1;
      cur    <= cur - ADDR_BITS'(pair_stride) + ADDR_BITS'(ATOM_BYTES);
    end else if (accept) begin
      second <= 1'b0;
      if (!line_end) begin
        off <= off + chunk;
        cur <= cur + (ADDR_BITS'(chunk) << ATOM_SH);
      end else begin
        off <= '0;
        if (l_left != '0) begin
          l_left    <= l_left - 1'b1;
          line_base <= line_base + ADDR_BITS'(line_stride);
          cur       <= line_base + ADDR_BITS'(line_stride);
        end else if (s_left != '0) begin
          s_left    <= s_left - 1'b1;
          l_left    <= lines_m1;
          surf_base <= surf_base + ADDR_BITS'(surf_stride);
          line_base <= surf_base + ADDR_BITS'(surf_stride);
          cur       <= surf_base + ADDR_BITS'(surf_stride);
        end else running <= 1'b0;
      end
    end

  // ---- atom buffer (re-aligns atoms to their destination lanes) ----
  logic [LANE_BITS-1:0] out_lane;
  dla_atom_fifo #(.ATOM_BITS(AB), .APB(APB), .DEPTH(DEPTH)) u_buf (
    .clk, .rstn, .in_valid, .in_data({{((APB-1)*AB){1'b0}}, in_atom}),
    .in_mask({{(APB-1){1'b0}}, 1'b1}),
    .out_lane, .out_take(take), .out_data(wr_dat_data), .count);
  assign in_ready = count != CNT_BITS'(DEPTH);

  // ---- issued chunks: first lane and atom count; beats streamed in order ----
  logic [DESC_BITS-1:0] desc_head;
  logic [LANE_BITS-1:0] d_lane;
  logic [CH_BITS-1:0]   d_atoms, sent, left, beat;
  logic [$clog2(8+1)-1:0] unused_desc_count;
  wire [CH_BITS-1:0]   chunk_c = chunk[CH_BITS-1:0];
  wire [LANE_BITS-1:0] lane0 = LANE_BITS'((cur >> ATOM_SH) & ADDR_BITS'(APB_M1));
  dla_fifo #(.WIDTH(DESC_BITS), .DEPTH(8)) u_desc (
    .clk, .rstn, .push(accept), .push_data({lane0, chunk_c}),
    .pop(wr_dat_valid && wr_dat_ready && beat == left), .head(desc_head),
    .empty(desc_empty), .full(desc_full), .count(unused_desc_count));
  assign {d_lane, d_atoms} = desc_head;

  always_comb begin
    left     = d_atoms - sent;
    out_lane = (sent == '0) ? d_lane : '0;
    beat     = CH_BITS'(APB) - CH_BITS'(out_lane);
    if (beat > left) beat = left;
    for (int k = 0; k < APB; k++)
      wr_dat_mask[k] = (k >= $signed(32'(out_lane))) && (k < $signed(32'(out_lane)) + $signed(32'(beat)));
  end
  assign wr_dat_valid = !desc_empty;
  assign take = (wr_dat_valid && wr_dat_ready) ? CNT_BITS'(beat) : '0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) sent <= '0;
    else if (wr_dat_valid && wr_dat_ready) sent <= (beat == left) ? '0 : sent + beat;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) committed <= '0;
    else committed <= committed + (accept ? (CNT_BITS+1)'(chunk) : '0) - (CNT_BITS+1)'(take);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      n_req  <= '0;
      n_cmpl <= '0;
    end else if (start) begin
      n_req  <= '0;
      n_cmpl <= '0;
    end else begin
      n_req  <= n_req + 32'(accept);
      n_cmpl <= n_cmpl + 32'(wr_cmpl);
    end

  assign done = !running && desc_empty && n_req == n_cmpl;
endmodule
