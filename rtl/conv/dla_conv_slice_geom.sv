// Direct-mode slice geometry (docs/conv-rtl.md, "Slice layout"), shared by CDMA (which writes
// the slices) and CSC (which reads them): of a slice's `nsurf` surfaces, `nfull` form complete
// blocks of APE atoms (one pixel's APE atoms per CBUF entry), and the pixels of the last,
// partial block use slots of `slot_atoms` atoms: the remainder rounded up to a power of two.
module dla_conv_slice_geom #(
  parameter int ATOM_BYTES  = 8,
  parameter int ENTRY_BYTES = 8
) (
  input  logic [13:0] nsurf,
  output logic [13:0] nfull,
  output logic [3:0]  slot_atoms
);
  localparam int APE    = ENTRY_BYTES / ATOM_BYTES;   // atoms per entry
  localparam int APE_SH = $clog2(APE);

  assign nfull = nsurf >> APE_SH;
  always_comb begin
    logic [13:0] r;
    r = nsurf & 14'(APE - 1);
    slot_atoms = 4'(APE);
    for (int k = APE / 2; k >= 1; k = k / 2)
      if (r != 14'd0 && r <= 14'(k)) slot_atoms = 4'(k);
  end
endmodule
