// CBUF: the convolution buffer, BANKS x DEPTH entries of ENTRY_BYTES bytes (docs/conv-rtl.md).
//
// Two write ports (CDMA data, CDMA weights; they never address the same entry because the
// data and weight regions are disjoint) with byte enables, and two pair-read ports (CSC data,
// CSC weights). A pair read returns entries `addr0` and `addr1` (the caller passes the entry
// after addr0 inside its ring, so one is even and one odd) one clock later as
// {entry addr1, entry addr0}: a window of 2 x ENTRY_BYTES bytes from which CSC cuts any
// ENTRY_BYTES-long run of bytes. The entries are held in an even and an odd half for that.
module dla_cbuf #(
  parameter int BANKS       = 32,
  parameter int DEPTH       = 512,
  parameter int ENTRY_BYTES = 8,
  parameter int EA          = $clog2(BANKS * DEPTH)   // entry address bits
) (
  input  logic                       clk,
  // write ports: 0 = data, 1 = weights
  input  logic [1:0]                 w_en,
  input  logic [2*EA-1:0]            w_addr,
  input  logic [2*ENTRY_BYTES*8-1:0] w_data,
  input  logic [2*ENTRY_BYTES-1:0]   w_mask,
  // pair-read ports: 0 = data, 1 = weights
  input  logic [1:0]                 r_en,
  input  logic [2*EA-1:0]            r_addr0,
  input  logic [2*EA-1:0]            r_addr1,
  output logic [4*ENTRY_BYTES*8-1:0] r_data
);
  localparam int EB   = ENTRY_BYTES * 8;
  localparam int HALF = BANKS * DEPTH / 2;

  logic [EB-1:0] ram_even [HALF];
  logic [EB-1:0] ram_odd  [HALF];

  always_ff @(posedge clk)
    for (int p = 0; p < 2; p++)
      if (w_en[p])
        for (int b = 0; b < ENTRY_BYTES; b++)
          if (w_mask[p*ENTRY_BYTES + b]) begin
            if (w_addr[p*EA]) ram_odd[w_addr[p*EA+1 +: EA-1]][b*8 +: 8] <= w_data[p*EB + b*8 +: 8];
            else              ram_even[w_addr[p*EA+1 +: EA-1]][b*8 +: 8] <= w_data[p*EB + b*8 +: 8];
          end

  for (genvar p = 0; p < 2; p++) begin : g_rd
    wire [EA-1:0] a0 = r_addr0[p*EA +: EA];
    wire [EA-1:0] a1 = r_addr1[p*EA +: EA];
    wire unused_a1 = a1[0];   // the parity of addr1 is the opposite of addr0's
    logic [EB-1:0] even_q, odd_q;
    logic          a0_odd;
    always_ff @(posedge clk)
      if (r_en[p]) begin
        even_q <= ram_even[a0[0] ? a1[EA-1:1] : a0[EA-1:1]];
        odd_q  <= ram_odd[a0[0] ? a0[EA-1:1] : a1[EA-1:1]];
        a0_odd <= a0[0];
      end
    assign r_data[p*2*EB +: 2*EB] = a0_odd ? {even_q, odd_q} : {odd_q, even_q};
  end
endmodule
