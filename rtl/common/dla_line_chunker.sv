// Line chunker of the DMA engines (SDP_RDMA streams, SDP write, PDP_RDMA, PDP write,
// CDP_RDMA, CDP write): walks one line (a run of consecutive atoms starting at `line_addr`)
// in chunks that stay inside one CHUNK-atom aligned block, so that each chunk is one AXI
// burst (CHUNK = MAX_BURST beats of APB atoms). The caller walks the lines (rows, surfaces,
// stripes, width blocks) and changes `line_addr` / `line_atoms_m1` when `last` is issued.
//
//   addr  = line_addr + off * ATOM_BYTES        (off: atoms of the line already issued)
//   atoms = min(atoms left in the line, atoms left in addr's CHUNK block), or 1 with `single`
//   last  = the chunk ends the line
//
// `step` (the chunk was issued) advances `off` by `atoms`, or back to 0 after the last chunk;
// `clear` (a walk starts) sets it to 0. Purely combinational from `off` to the outputs.
module dla_line_chunker #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int CHUNK      = 32,     // atoms of one aligned block, a power of two
  parameter int N_BITS     = 14      // width of the line length (atoms - 1)
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic                 clear,
  input  logic [ADDR_BITS-1:0] line_addr,
  input  logic [N_BITS-1:0]    line_atoms_m1,
  input  logic                 single,
  input  logic                 step,
  output logic [ADDR_BITS-1:0] addr,
  output logic [N_BITS:0]      atoms,
  output logic                 last
);
  localparam int ATOM_SH  = $clog2(ATOM_BYTES);
  localparam int CHUNK_M1 = CHUNK - 1;

  logic [N_BITS-1:0] off;
  logic [N_BITS:0]   left, room;

  always_comb begin
    addr  = line_addr + (ADDR_BITS'(off) << ATOM_SH);
    left  = {1'b0, line_atoms_m1} - {1'b0, off} + 1'b1;
    room  = (N_BITS+1)'(CHUNK) - (N_BITS+1)'((addr >> ATOM_SH) & ADDR_BITS'(CHUNK_M1));
    atoms = (left < room) ? left : room;
    if (single) atoms = (N_BITS+1)'(1);
    last  = atoms == left;
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn)      off <= '0;
    else if (clear) off <= '0;
    else if (step)  off <= last ? '0 : off + atoms[N_BITS-1:0];
endmodule
