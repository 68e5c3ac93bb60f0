// Atom FIFO that re-aligns a stream of atoms between two beat phases.
//
// Input: bus beats of APB atoms with a contiguous per-atom valid mask (e.g. the read data of
// a DMA request starting on an odd atom). Valid atoms are appended in lane order.
// Output: the caller pops `out_take` atoms per cycle and gets them placed from lane
// `out_lane` upwards in `out_data` (lanes below `out_lane` and above the popped atoms carry
// don't-care data). So a source phase and a destination phase can differ freely.
// Storage is APB banks (one per atom position modulo APB), each written and read at most
// once per cycle. The caller guarantees there is room (credit scheme) and enough atoms.
module dla_atom_fifo #(
  parameter int ATOM_BITS = 256,
  parameter int APB       = 2,     // atoms per beat, a power of two
  parameter int DEPTH     = 128,   // atoms, a power of two and at least 2*APB
  parameter int LANE_BITS = (APB > 1) ? $clog2(APB) : 1,
  parameter int CNT_BITS  = $clog2(DEPTH + 1)
) (
  input  logic                     clk,
  input  logic                     rstn,
  input  logic                     in_valid,
  input  logic [APB*ATOM_BITS-1:0] in_data,
  input  logic [APB-1:0]           in_mask,
  input  logic [LANE_BITS-1:0]     out_lane,
  input  logic [CNT_BITS-1:0]      out_take,
  output logic [APB*ATOM_BITS-1:0] out_data,
  output logic [CNT_BITS-1:0]      count
);
  localparam int PTR_BITS = $clog2(DEPTH);
  localparam int SH       = $clog2(APB);          // bank = index mod APB, row = index >> SH
  localparam int ROWS     = DEPTH / APB;
  localparam int ROW_BITS = $clog2(ROWS);
  localparam logic [PTR_BITS-1:0] LANE_MASK = PTR_BITS'(APB - 1);

  logic [PTR_BITS-1:0] wr_ptr, rd_ptr;   // stream index of the next atom written / read
  logic [PTR_BITS-1:0] in_lo;            // lowest valid input lane
  logic [CNT_BITS-1:0] in_cnt;           // number of valid input atoms

  always_comb begin
    in_lo  = '0;
    in_cnt = '0;
    for (int i = APB - 1; i >= 0; i--) if (in_mask[i]) in_lo = PTR_BITS'(i);
    if (in_valid)
      for (int i = 0; i < APB; i++) in_cnt = in_cnt + CNT_BITS'(in_mask[i]);
  end

  logic [APB*ATOM_BITS-1:0] bank_rd;     // bank b's atom at its read row

  for (genvar b = 0; b < APB; b++) begin : g_bank
    logic [ATOM_BITS-1:0] mem [0:ROWS-1];
    // Write: bank b takes stream index wr_ptr + w_rel, which is input lane in_lo + w_rel.
    wire [PTR_BITS-1:0] w_rel  = (PTR_BITS'(b) - wr_ptr) & LANE_MASK;
    wire [PTR_BITS-1:0] w_idx  = wr_ptr + w_rel;
    wire [PTR_BITS-1:0] w_lane = in_lo + w_rel;
    wire                w_en   = in_valid && ({{(CNT_BITS){1'b0}}, w_rel} < {{(PTR_BITS){1'b0}}, in_cnt});
    wire [ROW_BITS-1:0] w_row  = ROW_BITS'(w_idx >> SH);
    always_ff @(posedge clk)
      if (w_en) mem[w_row] <= in_data[w_lane*ATOM_BITS +: ATOM_BITS];
    // Read: bank b holds stream index rd_ptr + r_rel for the current output beat.
    wire [PTR_BITS-1:0] r_rel = (PTR_BITS'(b) - rd_ptr) & LANE_MASK;
    wire [PTR_BITS-1:0] r_idx = rd_ptr + r_rel;
    assign bank_rd[b*ATOM_BITS +: ATOM_BITS] = mem[ROW_BITS'(r_idx >> SH)];
  end

  // Output lane k carries stream index rd_ptr + ((k - out_lane) mod APB).
  always_comb begin
    for (int k = 0; k < APB; k++) begin
      logic [PTR_BITS-1:0] bank;
      bank = (rd_ptr + PTR_BITS'(k) - PTR_BITS'(out_lane)) & LANE_MASK;
      out_data[k*ATOM_BITS +: ATOM_BITS] = bank_rd[bank*ATOM_BITS +: ATOM_BITS];
    end
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      wr_ptr <= '0;
      rd_ptr <= '0;
      count  <= '0;
    end else begin
      wr_ptr <= wr_ptr + PTR_BITS'(in_cnt);
      rd_ptr <= rd_ptr + PTR_BITS'(out_take);
      count  <= count + in_cnt - out_take;
    end
endmodule
