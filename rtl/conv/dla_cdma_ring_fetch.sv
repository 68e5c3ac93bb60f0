// One byte-for-byte copy from memory into a CBUF ring (docs/conv-rtl.md, CDMA weights): the
// weights (or, on configurations with weight compression, the compressed weight stream) and
// the weight mask bits each use one.
//
// `total` atoms starting at `base` are requested in chunks of at most CHUNK atoms, issued only
// while the atoms requested but not released by CSC fit the ring. A request takes what fits,
// so a kernel group that needs all but a few entries of the ring is still fetched completely
// before CSC releases anything. Returned beats (in request order) put their atoms at the next
// atom positions of the ring; they may end in the next entry.
module dla_cdma_ring_fetch #(
  parameter int ADDR_BITS   = 32,
  parameter int ATOM_BYTES  = 8,
  parameter int ENTRY_BYTES = 8,
  parameter int EA          = 14,
  parameter int APB         = 1,                     // atoms per memory beat
  parameter int CHUNK       = 16,                    // atoms per request at most
  parameter int RA_BITS     = $clog2(CHUNK + 1)
) (
  input  logic                       clk,
  input  logic                       rstn,
  input  logic                       start,
  input  logic                       walk,           // copy this layer (sampled at start)
  input  logic                       enable,         // requests allowed (the layer runs)
  input  logic [ADDR_BITS-1:0]       base,
  input  logic [31:0]                total,          // atoms to copy
  input  logic [EA-1:0]              ring_first,
  input  logic [EA:0]                ring_size,
  input  logic [31:0]                released,       // ring entries CSC released this layer
  output logic                       req_valid,
  input  logic                       req_fire,
  output logic [ADDR_BITS-1:0]       req_addr,
  output logic [RA_BITS-1:0]         req_atoms,
  input  logic                       beat_in,        // a returned beat of this copy
  input  logic [APB*ATOM_BYTES*8-1:0] beat_atoms,    // its atoms from the lowest valid lane
  input  logic [1:0]                 beat_n,         // how many
  output logic                       walking,
  output logic [31:0]                atoms,          // atoms written
  output logic                       w_en,
  output logic [EA-1:0]              w_addr0,
  output logic [EA-1:0]              w_addr1,
  output logic [2*ENTRY_BYTES*8-1:0] w_data,
  output logic [2*ENTRY_BYTES-1:0]   w_mask
);
  localparam int AB      = ATOM_BYTES * 8;
  localparam int APE     = ENTRY_BYTES / ATOM_BYTES;
  localparam int APE_B   = (APE > 1) ? $clog2(APE) : 1;
  localparam int APE_SH  = $clog2(APE);
  localparam int ATOM_SH = $clog2(ATOM_BYTES);

  function automatic logic [EA-1:0] ring_add(input logic [EA-1:0] e, input logic [EA:0] inc,
                                             input logic [EA-1:0] first, input logic [EA:0] size);
    logic [EA+1:0] s;
    s = {2'b0, e} + {1'b0, inc};
    if (s >= {1'b0, first} + {1'b0, size}) s = s - {1'b0, size};
    ring_add = s[EA-1:0];
  endfunction

  logic [31:0]      issued;
  logic [EA-1:0]    ent;
  logic [APE_B-1:0] lane;
  wire  [31:0]      left  = total - issued;
  wire  [32:0]      limit = ({1'b0, released} + 33'(ring_size)) << APE_SH;
  wire  [32:0]      space = (limit > {1'b0, issued}) ? limit - {1'b0, issued} : 33'd0;
  always_comb begin
    req_atoms = (left < 32'(CHUNK)) ? RA_BITS'(left) : RA_BITS'(CHUNK);
    if (33'(req_atoms) > space) req_atoms = RA_BITS'(space);
  end
  assign req_valid = enable && walking && left != 32'd0 && req_atoms != '0;
  wire [APE_B:0] lane_n = (APE_B+1)'(lane) + (APE_B+1)'(beat_n);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      walking  <= 1'b0;
      issued   <= '0;
      atoms    <= '0;
      req_addr <= '0;
      ent      <= '0;
      lane     <= '0;
    end else if (start) begin
      walking  <= walk;
      issued   <= '0;
      atoms    <= '0;
      req_addr <= base;
      ent      <= ring_first;
      lane     <= '0;
    end else begin
      if (req_fire) begin
        issued   <= issued + 32'(req_atoms);
        req_addr <= req_addr + (ADDR_BITS'(req_atoms) << ATOM_SH);
      end
      if (beat_in) begin
        atoms <= atoms + 32'(beat_n);
        // with one atom an entry (APE = 1) every atom starts an entry: the lane stays 0
        if (lane_n >= (APE_B+1)'(APE)) begin
          lane <= (APE == 1) ? '0 : APE_B'(lane_n - (APE_B+1)'(APE));
          ent  <= ring_add(ent, (EA+1)'(1), ring_first, ring_size);
        end else lane <= (APE == 1) ? '0 : APE_B'(lane_n);
      end
    end

  assign w_en    = beat_in;
  assign w_addr0 = ent;
  assign w_addr1 = ring_add(ent, (EA+1)'(1), ring_first, ring_size);
  assign w_data  = (2*ENTRY_BYTES*8)'(beat_atoms) << (32'(lane) * AB);
  always_comb begin
    w_mask = (2*ENTRY_BYTES)'((2*ENTRY_BYTES)'(1) << (32'(beat_n) * ATOM_BYTES)) - (2*ENTRY_BYTES)'(1);
    w_mask = w_mask << (32'(lane) * ATOM_BYTES);
  end
endmodule
