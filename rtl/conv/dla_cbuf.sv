// CBUF: the convolution buffer, BANKS x DEPTH entries of ENTRY_BYTES bytes (docs/conv-rtl.md).
//
// The entries are held in an even and an odd half, so that two consecutive entries of a ring
// (the caller passes the entry after addr0 inside its ring, so one is even and one odd) can be
// written or read in one clock:
// * two pair-write ports (CDMA data, CDMA weights; they never address the same entry because
//   the data and weight regions are disjoint): a window of 2 x ENTRY_BYTES bytes,
//   {entry addr1, entry addr0}, written under a byte mask (a beat of several atoms may end in
//   the next entry, or place its atoms at two pixel positions of a slice);
// * NRD pair-read ports (CSC data, CSC weights, and on configurations with weight compression
//   CSC's weight-mask reads): {entry addr1, entry addr0} one clock later, a window from which
//   CSC cuts any ENTRY_BYTES-long run of bytes (or mask bits). A port's output holds until its
//   next read.
module dla_cbuf #(
  parameter int BANKS       = 32,
  parameter int DEPTH       = 512,
  parameter int ENTRY_BYTES = 8,
  parameter int NRD         = 2,                      // pair-read ports
  parameter int EA          = $clog2(BANKS * DEPTH)   // entry address bits
) (
  input  logic                       clk,
  // pair-write ports: 0 = data, 1 = weights
  input  logic [1:0]                 w_en,
  input  logic [2*EA-1:0]            w_addr0,
  input  logic [2*EA-1:0]            w_addr1,
  input  logic [4*ENTRY_BYTES*8-1:0] w_data,
  input  logic [4*ENTRY_BYTES-1:0]   w_mask,
  // pair-read ports: 0 = data, 1 = weights, 2 = weight mask
  input  logic [NRD-1:0]               r_en,
  input  logic [NRD*EA-1:0]            r_addr0,
  input  logic [NRD*EA-1:0]            r_addr1,
  output logic [NRD*2*ENTRY_BYTES*8-1:0] r_data
);
  localparam int EB   = ENTRY_BYTES * 8;
  localparam int HALF = BANKS * DEPTH / 2;

  // One RAM per byte column and half: a write port writes the bytes its mask selects.
  wire [4*EA-1:0] wa = {w_addr1[EA +: EA], w_addr0[EA +: EA], w_addr1[0 +: EA], w_addr0[0 +: EA]};
  logic [NRD*2*(EA-1)-1:0] rd_row;                   // per read port: {odd row, even row}
  logic [NRD*2*EB-1:0] rd_q;                         // per read port: {odd entry, even entry}
  for (genvar b = 0; b < ENTRY_BYTES; b++) begin : g_col
    logic [7:0] ram_even [HALF];
    logic [7:0] ram_odd  [HALF];
    // port p, window half h (0: addr0, 1: addr1) goes to the even or odd RAM by the parity
    // of its own address
    always_ff @(posedge clk)
      for (int i = 0; i < 4; i++)
        if (w_en[i / 2] && w_mask[i*ENTRY_BYTES + b]) begin
          if (wa[i*EA]) ram_odd[wa[i*EA + 1 +: EA-1]] <= w_data[i*EB + b*8 +: 8];
          else ram_even[wa[i*EA + 1 +: EA-1]] <= w_data[i*EB + b*8 +: 8];
        end
    for (genvar p = 0; p < NRD; p++) begin : g_rd
      always_ff @(posedge clk)
        if (r_en[p]) begin
          rd_q[p*2*EB + b*8 +: 8]      <= ram_even[rd_row[p*2*(EA-1) +: EA-1]];
          rd_q[p*2*EB + EB + b*8 +: 8] <= ram_odd[rd_row[p*2*(EA-1) + EA-1 +: EA-1]];
        end
    end
  end

  for (genvar p = 0; p < NRD; p++) begin : g_rd
    wire [EA-1:0] a0 = r_addr0[p*EA +: EA];
    wire [EA-1:0] a1 = r_addr1[p*EA +: EA];
    wire unused_a1 = a1[0];   // the parity of addr1 is the opposite of addr0's
    logic a0_odd;
    assign rd_row[p*2*(EA-1) +: EA-1]        = a0[0] ? a1[EA-1:1] : a0[EA-1:1];   // even row
    assign rd_row[p*2*(EA-1) + EA-1 +: EA-1] = a0[0] ? a0[EA-1:1] : a1[EA-1:1];   // odd row
    always_ff @(posedge clk)
      if (r_en[p]) a0_odd <= a0[0];
    wire [EB-1:0] even_q = rd_q[p*2*EB +: EB];
    wire [EB-1:0] odd_q  = rd_q[p*2*EB + EB +: EB];
    assign r_data[p*2*EB +: 2*EB] = a0_odd ? {even_q, odd_q} : {odd_q, even_q};
  end
endmodule
