// Splits one DMA request (atom-aligned byte address, length in atoms) into AXI bursts:
// INCR, full bus width, aligned to the bus width, at most MAX_BURST beats, never crossing a
// 4 KiB boundary. Presents the current burst combinationally; `take` consumes it. The request
// must stay valid and stable until its last burst is taken (b_last && take).
module dla_axi_burst_split #(
  parameter int ADDR_BITS  = 64,
  parameter int BEAT_BYTES = 64,
  parameter int ATOM_BYTES = 32,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int LANE_BITS  = (BEAT_BYTES / ATOM_BYTES > 1) ? $clog2(BEAT_BYTES / ATOM_BYTES) : 1
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic [ADDR_BITS-1:0] req_addr,
  input  logic [LEN_BITS-1:0]  req_len,     // atoms - 1
  input  logic                 take,
  output logic [ADDR_BITS-1:0] b_addr,
  output logic [3:0]           b_len,       // beats - 1
  output logic                 b_first,     // first burst of the request
  output logic                 b_last,      // last burst of the request
  output logic [LANE_BITS-1:0] a0,          // lane of the request's first atom in its first beat
  output logic [LANE_BITS-1:0] aend         // lane of the request's last atom in its last beat
);
  localparam int APB        = BEAT_BYTES / ATOM_BYTES;
  localparam int BEAT_SH    = $clog2(BEAT_BYTES);
  localparam int ATOM_SH    = $clog2(ATOM_BYTES);
  localparam int LANE_SH    = $clog2(APB);
  localparam int CNT_BITS   = LEN_BITS + 1;
  localparam int APB_M1     = APB - 1;
  localparam int PAGE_BITS  = $clog2(4096 / BEAT_BYTES);   // beat index bits inside a 4 KiB page
  localparam logic [3:0] MAX_BURST_M1 = 4'(MAX_BURST - 1);   // MAX_BURST <= 16 (AXI4 INCR, 4-bit len)

  logic [CNT_BITS-1:0]  beats_done;             // beats of the request already issued
  logic [CNT_BITS-1:0]  first_lane, total_m1, remain_m1;
  logic [ADDR_BITS-1:0] beat_idx;
  // beats left in the page and in the burst, minus one: at most 4096 / BEAT_BYTES - 1 and
  // MAX_BURST - 1, so they are held in their own widths
  logic [PAGE_BITS-1:0] page_m1;
  logic [3:0]           len_m1;

  always_comb begin
    first_lane = CNT_BITS'((req_addr >> ATOM_SH) & ADDR_BITS'(APB_M1));
    total_m1   = (first_lane + CNT_BITS'(req_len)) >> LANE_SH;
    remain_m1  = total_m1 - beats_done;
    beat_idx   = (req_addr >> BEAT_SH) + ADDR_BITS'(beats_done);
    b_addr     = beat_idx << BEAT_SH;
    page_m1    = ~(PAGE_BITS'(beat_idx));    // (page beats - 1) - the beat's index in its page
    len_m1     = MAX_BURST_M1;
    if (remain_m1 < CNT_BITS'(len_m1))        len_m1 = 4'(remain_m1);
    if (CNT_BITS'(page_m1) < CNT_BITS'(len_m1)) len_m1 = 4'(page_m1);
    b_len   = len_m1;
    b_first = (beats_done == '0);
    b_last  = (CNT_BITS'(len_m1) == remain_m1);
    a0      = LANE_BITS'(first_lane);
    aend    = LANE_BITS'((first_lane + CNT_BITS'(req_len)) & CNT_BITS'(APB_M1));
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) beats_done <= '0;
    else if (take) beats_done <= b_last ? '0 : beats_done + CNT_BITS'(len_m1) + 1'b1;
endmodule
