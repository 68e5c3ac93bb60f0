// CDP square sum for TP output lanes (pdp_cdp_bdma_rubik_glb.md §2.6). The converted atom
// `cur` is processed in slices of TP lanes; slice j covers lanes j*TP .. j*TP+TP-1. The
// window of lane c needs x'(c-k) .. x'(c+k), k <= 4, which may lie in the previous surface
// (`tail` = its last 4 lanes, same (w, h)) or the next one (`head` = its first 4 lanes).
// Lanes at or beyond `cur_real` / `head_real` are beyond the cube's channels and count as 0,
// as does `tail` when there is no previous surface (tail_ok = 0).
// Per lane: SUM = sum of the 2k+1 squares (or x' itself with SQSUM_BYPASS), and x'(c).
// fp16 (HAS_FP, fp = 1; §2.11): lanes hold fp17, squares are mul32 of the fp32 widening and
// the sum uses the fixed association of §2.11 step 3; SUM is the fp32 pattern (low 32 bits).
module dla_cdp_window #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter int XW         = 17,
  parameter int DW         = 39,
  parameter int NSB        = 3,     // bits of the slice index
  parameter bit HAS_FP     = 1'b0,
  parameter int RB         = $clog2(ATOM_BYTES + 1)
) (
  input  logic                       is8,
  input  logic                       fp,
  input  logic [1:0]                 len,          // NORMALZ_LEN: n = 3, 5, 7, 9
  input  logic                       sqsum_bypass,
  input  logic [NSB-1:0]             slice,
  input  logic [ATOM_BYTES*XW-1:0]   cur,
  input  logic [RB-1:0]              cur_real,
  input  logic [4*XW-1:0]            head,
  input  logic [2:0]                 head_real,
  input  logic [4*XW-1:0]            tail,
  input  logic                       tail_ok,
  output logic [TP*DW-1:0]           sum,
  output logic [TP*XW-1:0]           xc
);
  localparam int E8  = ATOM_BYTES;
  localparam int E16 = ATOM_BYTES / 2;
  localparam int NX  = TP + 8;
  localparam int SQW = 2 * XW;

  // lane vectors with 4 lanes of the neighbouring surfaces on each side: [tail, cur, head]
  logic [(E8 + 8)*XW-1:0]  arr8;
  logic [(E16 + 8)*XW-1:0] arr16;
  logic [NX*XW-1:0]        ext;
  logic [NX*SQW-1:0]       sq;

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      arr8[i*XW +: XW]              = tail_ok ? tail[i*XW +: XW] : '0;
      arr16[i*XW +: XW]             = tail_ok ? tail[i*XW +: XW] : '0;
      arr8[(E8 + 4 + i)*XW +: XW]   = (3'(i) < head_real) ? head[i*XW +: XW] : '0;
      arr16[(E16 + 4 + i)*XW +: XW] = (3'(i) < head_real) ? head[i*XW +: XW] : '0;
    end
    for (int l = 0; l < E8; l++)  arr8[(4 + l)*XW +: XW]  = (RB'(l) < cur_real) ? cur[l*XW +: XW] : '0;
    for (int l = 0; l < E16; l++) arr16[(4 + l)*XW +: XW] = (RB'(l) < cur_real) ? cur[l*XW +: XW] : '0;
    ext = '0;
    for (int j = 0; j < E8 / TP; j++)
      if (32'(slice) == j) begin
        if (is8) ext = arr8[j*TP*XW +: NX*XW];
        else if (j < E16 / TP) ext = arr16[j*TP*XW +: NX*XW];
      end
    for (int i = 0; i < NX; i++)
      sq[i*SQW +: SQW] = SQW'($signed(ext[i*XW +: XW])) * SQW'($signed(ext[i*XW +: XW]));
  end

  logic [TP*32-1:0] fsum;
  if (HAS_FP) begin : g_fp
    logic [NX*32-1:0] x32, f2;
    for (genvar i = 0; i < NX; i++) begin : g_sq
      dla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b0)) u_w (
        .x(ext[i*XW +: 17]), .y(x32[i*32 +: 32]));
      dla_fp_mul #(.E(8), .M(23)) u_sq (.a(x32[i*32 +: 32]), .b(x32[i*32 +: 32]), .y(f2[i*32 +: 32]));
    end
    for (genvar t = 0; t < TP; t++) begin : g_sum
      logic [31:0] p1, s3, p2, s5, p3, s7, p4, s9;
      dla_fp_add #(.E(8), .M(23)) u_p1 (.a(f2[(t+3)*32 +: 32]), .b(f2[(t+5)*32 +: 32]), .y(p1));
      dla_fp_add #(.E(8), .M(23)) u_s3 (.a(p1), .b(f2[(t+4)*32 +: 32]), .y(s3));
      dla_fp_add #(.E(8), .M(23)) u_p2 (.a(f2[(t+2)*32 +: 32]), .b(f2[(t+6)*32 +: 32]), .y(p2));
      dla_fp_add #(.E(8), .M(23)) u_s5 (.a(s3), .b(p2), .y(s5));
      dla_fp_add #(.E(8), .M(23)) u_p3 (.a(f2[(t+1)*32 +: 32]), .b(f2[(t+7)*32 +: 32]), .y(p3));
      dla_fp_add #(.E(8), .M(23)) u_s7 (.a(s5), .b(p3), .y(s7));
      dla_fp_add #(.E(8), .M(23)) u_p4 (.a(f2[t*32 +: 32]), .b(f2[(t+8)*32 +: 32]), .y(p4));
      dla_fp_add #(.E(8), .M(23)) u_s9 (.a(s7), .b(p4), .y(s9));
      assign fsum[t*32 +: 32] = sqsum_bypass ? x32[(t+4)*32 +: 32] :
                                len == 2'd0 ? s3 : len == 2'd1 ? s5 : len == 2'd2 ? s7 : s9;
    end
  end else begin : g_nofp
    assign fsum = '0;
    wire unused_fp = &{1'b0, fp, fsum};
  end

  always_comb begin
    for (int t = 0; t < TP; t++) begin
      logic [DW-1:0] s;
      s = DW'(sq[(t+4)*SQW +: SQW]) + DW'(sq[(t+3)*SQW +: SQW]) + DW'(sq[(t+5)*SQW +: SQW]);
      if (len >= 2'd1) s = s + DW'(sq[(t+2)*SQW +: SQW]) + DW'(sq[(t+6)*SQW +: SQW]);
      if (len >= 2'd2) s = s + DW'(sq[(t+1)*SQW +: SQW]) + DW'(sq[(t+7)*SQW +: SQW]);
      if (len == 2'd3) s = s + DW'(sq[t*SQW +: SQW])     + DW'(sq[(t+8)*SQW +: SQW]);
      sum[t*DW +: DW] = sqsum_bypass ? DW'($signed(ext[(t+4)*XW +: XW])) : s;
      if (HAS_FP && fp) sum[t*DW +: DW] = DW'(fsum[t*32 +: 32]);
      xc[t*XW +: XW]  = ext[(t+4)*XW +: XW];
    end
  end
endmodule
