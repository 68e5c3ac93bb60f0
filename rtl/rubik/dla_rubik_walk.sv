// RUBIK chunk walker: the layer's chunks in order (surface s, row h, contract y-phase ty,
// width chunk w0), and for the chunk it holds (`have`, after claiming a free bank) its read
// requests: R runs of consecutive atoms, each split at CHUNK-atom aligned blocks.
//
//   mode      runs (R)       run r reads at                        atoms            bank atom
//   contract  sx             IN + (ty*sx+r)*K0 + s*SI + h*LI + w0*32  n              i*sx + r
//   split     1              IN + s*SI + h*LI + w0*32              n                i
//   merge     lanes          IN + (s*E+r)*PI + h*LI + w0*bpe       ceil(n*bpe/32)   r*2*bpe + i
//
// n = min(B, Wi - w0) with B = floor(64/sx) (contract) or 64. At the claim it also gives the
// chunk's write side (ck_*): Q runs of `wr_atoms` atoms at wbase + q*PO (split: one run per
// channel of the surface; else Q = 1), n, the lanes of the surface (split: channels, merge:
// real lanes; the rest are pad lanes), and whether it is the layer's last chunk. Surfaces run
// to ceil(Co/E) (contract, split) or ceil(Ci/E) (merge).
module dla_rubik_walk #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int CHUNK      = 32
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic                 start,
  input  logic                 contract,
  input  logic                 split,
  input  logic                 merge,
  input  logic                 b16,          // 2-byte elements
  input  logic [12:0]          width_m1,
  input  logic [12:0]          height_m1,
  input  logic [12:0]          chan_m1,
  input  logic [12:0]          ochan_m1,
  input  logic [4:0]           sx_m1,
  input  logic [4:0]           sy_m1,
  input  logic [ADDR_BITS-1:0] in_base,
  input  logic [ADDR_BITS-1:0] out_base,
  input  logic [31:0]          in_line,
  input  logic [31:0]          in_surf,
  input  logic [31:0]          in_planar,
  input  logic [31:0]          out_line,
  input  logic [31:0]          out_surf,
  input  logic [31:0]          out_planar,
  input  logic [31:0]          k0,
  input  logic [31:0]          k1,
  // bank claim
  input  logic                 bank_free,
  output logic                 claim,
  // read requests of the held chunk
  output logic                 have,
  input  logic                 rd_fire,
  output logic [ADDR_BITS-1:0] rq_addr,
  output logic [7:0]           rq_atoms,
  output logic [5:0]           rq_dest,      // bank atom of the request's first atom
  output logic [5:0]           rq_step,      // bank atoms between consecutive atoms
  output logic                 chunk_end,    // the chunk's last request fires
  // the chunk's write side (valid with `claim`)
  output logic [ADDR_BITS-1:0] ck_wbase,
  output logic [6:0]           ck_n,
  output logic [5:0]           ck_wruns,
  output logic [6:0]           ck_wr_atoms,
  output logic [5:0]           ck_lanes,
  output logic                 ck_last
);
  localparam int AW      = ADDR_BITS;
  localparam int ATOM_SH = $clog2(ATOM_BYTES);

  // ---- layer constants ----------------------------------------------------------------
  wire [5:0]    sx     = {1'b0, sx_m1} + 6'd1;
  wire [6:0]    blk    = contract ? 7'(7'd64 / 7'(sx)) : 7'd64;      // B
  wire [2:0]    lg_e   = b16 ? 3'd4 : 3'd5;                          // log2 E
  wire [12:0]   s_last = (merge ? chan_m1 : ochan_m1) >> lg_e;
  wire [4:0]    ty_last = contract ? sy_m1 : 5'd0;
  wire [AW-1:0] ssi  = merge ? AW'(in_planar) << lg_e : AW'(in_surf);   // input, per surface
  wire [AW-1:0] tyi  = AW'(sx) * AW'(k0);                              // input, per y-phase
  wire [AW-1:0] wsi  = contract ? AW'(blk) << ATOM_SH : split ? AW'(64 * ATOM_BYTES) :
                       b16 ? AW'(128) : AW'(64);                       // input, per chunk
  wire [AW-1:0] rstr = contract ? AW'(k0) : AW'(in_planar);            // input, per run
  wire [AW-1:0] sso  = split ? AW'(out_planar) << lg_e : AW'(out_surf);
  wire [AW-1:0] hso  = contract ? AW'(k1) : AW'(out_line);
  wire [AW-1:0] wso  = contract ? (AW'(blk) * AW'(sx)) << ATOM_SH : split ? (b16 ? AW'(128) : AW'(64)) :
                       AW'(64 * ATOM_BYTES);

  // ---- position -------------------------------------------------------------------------
  logic [12:0]   cs, ch, cw0;
  logic [4:0]    cty;
  logic [5:0]    rr;
  logic [6:0]    roff;
  logic          on;
  logic [AW-1:0] a_s, a_h, a_ty, a_w, o_s, o_h, o_ty, o_w, rrun;
  logic          rq_last;        // the request ends its run

  wire [13:0] w_left  = {1'b0, width_m1} - {1'b0, cw0} + 14'd1;
  wire        w_last  = w_left <= 14'(blk);
  wire [6:0]  n       = w_last ? w_left[6:0] : blk;
  wire [13:0] c_left  = {1'b0, merge ? chan_m1 : ochan_m1} + 14'd1 - ({1'b0, cs} << lg_e);
  wire [5:0]  e_lanes = b16 ? 6'd16 : 6'd32;
  wire [5:0]  lanes   = c_left < 14'(e_lanes) ? c_left[5:0] : e_lanes;
  wire [5:0]  runs    = contract ? sx : split ? 6'd1 : lanes;
  wire [6:0]  row_atoms = b16 ? (n + 7'd15) >> 4 : (n + 7'd31) >> 5;
  wire [12:0] n_sx    = 13'(n) * 13'(sx);
  wire        layer_last = cs == s_last && ch == height_m1 && cty == ty_last && w_last;

  assign claim       = on && !have && bank_free;
  assign ck_wbase    = o_w;
  assign ck_n        = n;
  assign ck_wruns    = split ? lanes : 6'd1;
  assign ck_wr_atoms = contract ? n_sx[6:0] : split ? row_atoms : n;
  assign ck_lanes    = lanes;
  assign ck_last     = layer_last;

  wire [6:0]  rd_atoms = merge ? row_atoms : n;
  logic [12:0] unused_rq_top;
  dla_line_chunker #(.ADDR_BITS(AW), .ATOM_BYTES(ATOM_BYTES), .CHUNK(CHUNK), .N_BITS(7)) u_chunk (
    .clk, .rstn, .clear(start), .line_addr(rrun), .line_atoms_m1(rd_atoms - 7'd1), .single(1'b0),
    .step(rd_fire), .addr(rq_addr), .atoms(rq_atoms), .last(rq_last));

  wire [5:0]  dbase = contract ? rr : merge ? (b16 ? rr << 2 : rr << 1) : 6'd0;
  wire [12:0] dprod = 13'(roff) * 13'(rq_step);
  assign rq_step   = contract ? sx : 6'd1;
  assign rq_dest   = dbase + dprod[5:0];
  assign chunk_end = rd_fire && rq_last && rr == runs - 6'd1;
  assign unused_rq_top = {dprod[12:6], n_sx[12:7]};

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      on <= 1'b0; have <= 1'b0;
      cs <= '0; ch <= '0; cw0 <= '0; cty <= '0; rr <= '0; roff <= '0;
      a_s <= '0; a_h <= '0; a_ty <= '0; a_w <= '0; rrun <= '0;
      o_s <= '0; o_h <= '0; o_ty <= '0; o_w <= '0;
    end else if (start) begin
      on <= 1'b1; have <= 1'b0;
      cs <= '0; ch <= '0; cw0 <= '0; cty <= '0; rr <= '0; roff <= '0;
      a_s <= in_base; a_h <= in_base; a_ty <= in_base; a_w <= in_base;
      o_s <= out_base; o_h <= out_base; o_ty <= out_base; o_w <= out_base;
    end else begin
      if (claim) begin
        have <= 1'b1;
        rr   <= '0;
        roff <= '0;
        rrun <= a_w;
      end
      if (rd_fire) begin
        roff <= rq_last ? 7'd0 : roff + rq_atoms[6:0];
        if (rq_last && !chunk_end) begin
          rr   <= rr + 6'd1;
          rrun <= rrun + rstr;
        end
        if (chunk_end) begin
          have <= 1'b0;
          if (layer_last) on <= 1'b0;
          else if (!w_last) begin
            cw0 <= cw0 + 13'(blk);
            a_w <= a_w + wsi;
            o_w <= o_w + wso;
          end else begin
            cw0 <= '0;
            if (cty != ty_last) begin
              cty  <= cty + 5'd1;
              a_ty <= a_ty + tyi;  a_w <= a_ty + tyi;
              o_ty <= o_ty + AW'(out_line);  o_w <= o_ty + AW'(out_line);
            end else begin
              cty <= '0;
              if (ch != height_m1) begin
                ch   <= ch + 13'd1;
                a_h  <= a_h + AW'(in_line);  a_ty <= a_h + AW'(in_line);  a_w <= a_h + AW'(in_line);
                o_h  <= o_h + hso;  o_ty <= o_h + hso;  o_w <= o_h + hso;
              end else begin
                ch   <= '0;
                cs   <= cs + 13'd1;
                a_s  <= a_s + ssi;  a_h <= a_s + ssi;  a_ty <= a_s + ssi;  a_w <= a_s + ssi;
                o_s  <= o_s + sso;  o_h <= o_s + sso;  o_ty <= o_s + sso;  o_w <= o_s + sso;
              end
            end
          end
        end
      end
    end
endmodule
