// Weight group sizes (WGS) of a compressed layer (docs/conv-rtl.md, compressed weights).
//
// WGS[g] is the byte length of kernel group g in the compressed weight stream. CDMA reads the
// table one atom (ATOM_BYTES / 4 words) at a time and declares group g to CSC once the stream
// bytes written reach WGS[0] + ... + WGS[g]; `declared` is that sum for the groups declared so
// far, and CSC reads no stream byte beyond it. As on NVDLA, WGS decides only when a group may
// start: an exact table changes nothing in the results, a sum larger than the stream leaves
// the last group undeclared (the layer never ends), a smaller one lets CSC read bytes that have
// not arrived (the golden model refuses such a layer).
module dla_cdma_wgs #(
  parameter int ADDR_BITS  = 32,
  parameter int ATOM_BYTES = 32
) (
  input  logic                    clk,
  input  logic                    rstn,
  input  logic                    start,
  input  logic                    walk,            // compressed layer that fetches weights
  input  logic                    enable,          // requests allowed (the layer runs)
  input  logic [ADDR_BITS-1:0]    base,            // WGS_ADDR
  input  logic [13:0]             groups_m1,       // kernel groups - 1
  output logic                    req_valid,       // one atom at req_addr
  input  logic                    req_fire,
  output logic [ADDR_BITS-1:0]    req_addr,
  input  logic                    atom_in,         // the requested atom returns
  input  logic [ATOM_BYTES*8-1:0] atom,
  input  logic [31:0]             stream_bytes,    // compressed stream bytes written
  output logic [31:0]             declared,
  output logic                    done             // every group declared (or nothing to do)
);
  localparam int WPA   = ATOM_BYTES / 4;           // words per atom
  localparam int WPA_B = $clog2(WPA);

  logic                    walking, buf_valid, pending;
  logic [ATOM_BYTES*8-1:0] words;
  logic [14:0]             g;                      // next group to declare
  wire  [31:0]             size = words[32'(g[WPA_B-1:0]) * 32 +: 32];
  wire  [32:0]             reach = 33'(declared) + 33'(size);
  wire                     more = g <= 15'(groups_m1);
  wire                     declare = walking && buf_valid && more && reach <= 33'(stream_bytes);

  assign req_valid = enable && walking && more && !buf_valid && !pending;
  assign done      = !walking || !more;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      walking <= 1'b0; buf_valid <= 1'b0; pending <= 1'b0; words <= '0; g <= '0;
      declared <= '0; req_addr <= '0;
    end else if (start) begin
      walking <= walk; buf_valid <= 1'b0; pending <= 1'b0; g <= '0;
      declared <= '0; req_addr <= base;
    end else begin
      if (req_fire) begin
        pending  <= 1'b1;
        req_addr <= req_addr + ADDR_BITS'(ATOM_BYTES);
      end
      if (atom_in) begin
        pending   <= 1'b0;
        buf_valid <= 1'b1;
        words     <= atom;
      end
      if (declare) begin
        declared <= 32'(reach);
        g        <= g + 15'd1;
        if (g[WPA_B-1:0] == WPA_B'(WPA - 1) || g == 15'(groups_m1)) buf_valid <= 1'b0;
      end
    end
endmodule
