// One SDP_RDMA read stream (main input, or a BS/BN/EW operand stream): walks surfaces and
// lines of a strided cube of atoms, reads each line in chunks that stay inside one
// MAX_BURST-beat block (one AXI burst each) when the atom buffer has credit for the chunk,
// and delivers records of `rec_atoms` consecutive atoms (1, 2 or 4) in stream order.
module dla_sdp_rd_stream #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int DEPTH      = 64,     // atom buffer, power of two, >= MAX_BURST*APB
  parameter int REC        = 4       // largest record, atoms
) (
  input  logic                       clk,
  input  logic                       rstn,
  input  logic                       start,          // layer start: load the walk
  input  logic                       enable,         // the stream reads in this layer
  input  logic [ADDR_BITS-1:0]       base,
  input  logic [31:0]                line_stride,
  input  logic [31:0]                surf_stride,
  input  logic [15:0]                line_atoms_m1,
  input  logic [12:0]                lines_m1,
  input  logic [12:0]                surfs_m1,
  // pair mode (16->8 input merge / 8->16 output split, sdp.md §4.4, §11.5): one atom per
  // request, alternating between surface 2k and 2k+1 (pair_stride apart) at each position;
  // surf_stride is then the step from pair to pair
  input  logic                       pairs,
  input  logic [31:0]                pair_stride,
  input  logic [2:0]                 rec_atoms,
  // read requests and returned data (of the port this stream uses)
  output logic                       rd_req_valid,
  input  logic                       rd_req_ready,
  output logic [ADDR_BITS-1:0]       rd_req_addr,
  output logic [LEN_BITS-1:0]        rd_req_len,
  input  logic                       rd_dat_valid,
  input  logic [APB*ATOM_BYTES*8-1:0] rd_dat_data,
  input  logic [APB-1:0]             rd_dat_mask,
  // records
  output logic                       rec_valid,
  output logic [REC*ATOM_BYTES*8-1:0] rec_data,
  input  logic                       rec_pop,
  output logic                       busy            // requests left to issue
);
  localparam int AB       = ATOM_BYTES * 8;
  localparam int ATOM_SH  = $clog2(ATOM_BYTES);
  localparam int CHUNK    = MAX_BURST * APB;
  localparam int CHUNK_M1 = CHUNK - 1;
  localparam int CNT_BITS = $clog2(DEPTH + 1);
  localparam int NA_BITS  = 17;

  logic                 running, second;
  logic [ADDR_BITS-1:0] cur, line_base, surf_base;
  logic [NA_BITS-1:0]   off, line_left, chunk_room, chunk;
  logic [12:0]          l_left, s_left;
  logic [CNT_BITS:0]    reserved;
  logic                 line_end;

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

  assign rd_req_valid = running && (NA_BITS'(reserved) + chunk <= NA_BITS'(DEPTH));
  assign rd_req_addr  = cur;
  assign rd_req_len   = LEN_BITS'(chunk) - 1'b1;
  assign busy         = running;
  wire accept = rd_req_valid && rd_req_ready;

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

  // ---- atom buffer ----
  logic [APB*AB-1:0]   fifo_out;
  logic [CNT_BITS-1:0] fifo_count, take;
  dla_atom_fifo #(.ATOM_BITS(AB), .APB(APB), .DEPTH(DEPTH)) u_buf (
    .clk, .rstn, .in_valid(rd_dat_valid), .in_data(rd_dat_data), .in_mask(rd_dat_mask),
    .out_lane('0), .out_take(take), .out_data(fifo_out), .count(fifo_count));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) reserved <= '0;
    else reserved <= reserved + (accept ? (CNT_BITS+1)'(chunk) : '0) - (CNT_BITS+1)'(take);

  // ---- record assembly ----
  logic [2:0] fill, fill_base, space;
  always_comb begin
    fill_base = rec_pop ? 3'd0 : fill;
    space     = (rec_valid && !rec_pop) ? 3'd0 : rec_atoms - fill_base;
    take      = CNT_BITS'(space);
    if (take > CNT_BITS'(APB)) take = CNT_BITS'(APB);
    if (take > fifo_count)     take = fifo_count;
  end
  assign rec_valid = (fill == rec_atoms) && fill != '0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) fill <= '0;
    else if (start) fill <= '0;
    else fill <= fill_base + 3'(take);

  always_ff @(posedge clk)
    for (int r = 0; r < REC; r++)
      for (int i = 0; i < APB; i++)
        if (i < $signed(32'(take)) && r == $signed(32'(fill_base)) + i)
          rec_data[r*AB +: AB] <= fifo_out[i*AB +: AB];
endmodule
