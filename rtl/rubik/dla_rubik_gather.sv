// RUBIK write data: atom `idx` of a write run, built from the 64 atoms of one chunk-buffer
// bank (`bank_data`, atom a at bits [a*ATOM_BITS +: ATOM_BITS]); one atom per bus lane.
//
//   contract  bank atom idx (the bank holds the output line chunk in order)
//   split     plane row of channel lane q: element e = the lane-q element of bank atom e
//             (e < n), zero past the row's n elements
//   merge     output atom idx: lane l = element idx of lane l's plane row (bank atoms
//             l*2*bpe ..), zero in the pad lanes l >= lanes
module dla_rubik_gather #(
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2
) (
  input  logic [64*8*ATOM_BYTES-1:0]  bank_data,
  input  logic                        contract,
  input  logic                        split,
  input  logic                        b16,
  input  logic [4:0]                  q,
  input  logic [6:0]                  n,
  input  logic [5:0]                  lanes,
  input  logic [6*APB-1:0]            idx,
  output logic [APB*8*ATOM_BYTES-1:0] data
);
  localparam int AB = 8 * ATOM_BYTES;

  logic [5:0]  i;
  logic [6:0]  e;
  logic [5:0]  a;
  logic [AB-1:0] o;
  always_comb begin
    data = '0;
    i = '0;
    e = '0;
    a = '0;
    o = '0;
    for (int k = 0; k < APB; k++) begin
      i = idx[k*6 +: 6];
      o = '0;
      if (contract) o = bank_data[32'(i) * AB +: AB];
      else if (split && !b16)
        for (int j = 0; j < 32; j++) begin
          e = 7'(32'(i[1:0]) * 32 + j);
          if (e < n) o[j*8 +: 8] = bank_data[32'(e) * AB + 32'(q) * 8 +: 8];
        end
      else if (split)
        for (int j = 0; j < 16; j++) begin
          e = 7'(32'(i[1:0]) * 16 + j);
          if (e < n) o[j*16 +: 16] = bank_data[32'(e) * AB + 32'(q[3:0]) * 16 +: 16];
        end
      else if (!b16)
        for (int l = 0; l < 32; l++) begin
          a = 6'(l * 2 + 32'(i[5]));
          if (6'(l) < lanes) o[l*8 +: 8] = bank_data[32'(a) * AB + 32'(i[4:0]) * 8 +: 8];
        end
      else
        for (int l = 0; l < 16; l++) begin
          a = 6'(l * 4 + 32'(i[5:4]));
          if (6'(l) < lanes) o[l*16 +: 16] = bank_data[32'(a) * AB + 32'(i[3:0]) * 16 +: 16];
        end
      data[k*AB +: AB] = o;
    end
  end
endmodule
