// CSC (docs/conv-rtl.md): the CSC register block and the sequencer that turns a layer into
// atomic operations for CMAC.
//
// Order: kernel group g -> stripe of up to SL output pixels (raster order) -> operation
// (channel block, kernel row, kernel column; image post-extension: row group) -> pixel of the
// stripe. Every pixel's partial sums therefore reach CACC in the order the specification
// fixes (block, row, column), and one set of weights serves a whole stripe.
//
//   op sequencer -> weight loader (AK kernels from the weight ring into a CMAC slot; two slots)
//                -> issue (per pixel, per sub-read: CBUF data read, padding, lane masks)
//                -> gather (sub-reads of post-extension merged) -> CMAC item
//
// The issue stage waits for the input rows CDMA has not written yet and for a free CACC
// accumulator bank at the start of each stripe; the loader waits for weight bytes and
// releases a kernel group's weight entries when it has read the group for the last time.
module dla_csc #(
  parameter int AC          = 8,     // MAC atomic C (lanes)
  parameter int AK          = 8,     // MAC atomic K (kernels; int8, half of it for int16/fp16)
  parameter int ATOM_BYTES  = 8,
  parameter int ENTRY_BYTES = 8,
  parameter bit PREC16      = 1'b0,  // int16/fp16: 2-byte elements, 16-bit lanes
  parameter bit HAS_WMB     = 1'b0,  // weight compression (mask reads on a third CBUF port)
  parameter bit HAS_BATCH   = 1'b0,  // batching (direct mode)
  parameter bit HAS_WINO    = 1'b0,  // Winograd (needs AC = 64)
  parameter bit HAS_FP      = 1'b0,  // fp16 layers (the Winograd PRA in float)
  parameter bit WL2         = 1'b0,  // two kernels a weight load where they fit in a pair read
  parameter int NRD         = HAS_WMB ? 3 : 2,
  parameter int LW          = PREC16 ? 16 : 8,
  parameter int EA          = 14,
  parameter int SL          = 32,    // output pixels per stripe
  parameter int SLB         = $clog2(SL),
  parameter int AKB         = $clog2(AK)
) (
  input  logic                     clk,
  input  logic                     rstn,
  // CSB
  input  logic                     req_vld,
  input  logic                     req_wr,
  input  logic [9:0]               req_word,
  input  logic [31:0]              req_wdat,
  output logic [31:0]              rd_data,
  output logic                     op_en,
  input  logic                     op_done,
  // layer description for dla_conv
  output logic                     image,
  output logic                     data_reuse,
  output logic                     weight_reuse,
  output logic                     skip_data_rls,
  output logic                     skip_weight_rls,
  output logic [11:0]              rls_slices,
  output logic [4:0]               data_bank,
  output logic [4:0]               weight_bank,
  output logic [1:0]               proc_prec,
  output logic                     conv_mode,
  output logic [13:0]              slices,         // input slices: lines (DATAIN_HEIGHT_EXT + 1) x batches
  output logic [EA:0]              eps_p1,         // entries per slice
  // layer control
  input  logic                     start,
  input  logic [EA-1:0]            data_start,     // ring entry of input line 0
  input  logic [EA:0]              data_ring,
  input  logic [EA-1:0]            wt_first,
  input  logic [EA:0]              wt_ring,
  input  logic [13:0]              rows_avail,     // input lines present in the CBUF
  input  logic [31:0]              wt_bytes,       // weight bytes present (from the layer start)
  output logic [31:0]              wt_released,    // weight entries released this layer
  input  logic [EA-1:0]            wmb_first,      // weight-mask ring (compression)
  input  logic [EA:0]              wmb_ring,
  input  logic [31:0]              wmb_bytes_in,   // weight-mask bytes present
  output logic [31:0]              wmb_released,   // weight-mask entries released this layer
  // CBUF pair reads: [0] data, [1] weights, [2] weight mask (compression)
  output logic [NRD-1:0]           r_en,
  output logic [NRD*EA-1:0]        r_addr0,
  output logic [NRD*EA-1:0]        r_addr1,
  input  logic [NRD*2*ENTRY_BYTES*8-1:0] r_data,
  // CACC accumulator banks
  input  logic [1:0]               bank_free,
  output logic [1:0]               stripe_start,
  // weight loads into CMAC
  output logic                     wl_valid,
  output logic                     wl_slot,
  output logic [AKB-1:0]           wl_kernel,
  output logic [AC*LW-1:0]         wl_data,
  output logic                     wl_pair,        // kernel wl_kernel + 1 too, from wl_data2
  output logic [AC*LW-1:0]         wl_data2,
  // atomic operations to CMAC
  output logic                     mi_valid,
  output logic                     mi_slot,
  output logic [AC*LW-1:0]         mi_data,
  output logic [SLB-1:0]           mi_pix,
  output logic                     mi_bank,
  output logic                     mi_first,       // first partial of the pixel
  output logic                     mi_stripe_end,  // last partial of the stripe
  // Winograd: CDMA's folding of the input (the CBUF layout of dla_cdma_wino)
  input  logic [2:0]               wino_sx_m1,
  input  logic [12:0]              wino_surf_m1
);
  localparam int EB     = ENTRY_BYTES;
  localparam int ENT_SH = $clog2(EB);
  localparam int ACB    = $clog2(AC);
  localparam int APE    = ENTRY_BYTES / ATOM_BYTES;
  localparam int APE_SH = $clog2(APE);
  localparam int ATOM_SH = $clog2(ATOM_BYTES);
  localparam int MSH    = ENT_SH + 3;             // mask bits per entry: 2^MSH

  // ---- registers ----------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  logic        consumer, producer, wt_format;
  logic [1:0]  in_prec, pra_truncate;
  logic [4:0]  batches;
  logic [12:0] chan_out_m1;
  logic [20:0] atomics;
  logic [27:0] wmb_bytes;
  logic [31:0] wt_total_bytes, cya;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [1:0]  y_ext;
  logic [12:0] in_w_m1, in_h_m1, in_c_m1, k_c_m1, k_m1, out_w_m1, out_h_m1;
  logic [4:0]  k_s_m1, k_r_m1, dil_x_m1, dil_y_m1, pad_left, pad_top;
  logic [2:0]  str_x_m1, str_y_m1;
  logic [13:0] eps;
  logic [15:0] pad_value;

  dla_csc_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .op_done, .op_en, .consumer, .producer,
    .d_misc_cfg_conv_mode(conv_mode), .d_misc_cfg_in_precision(in_prec),
    .d_misc_cfg_proc_precision(proc_prec), .d_misc_cfg_data_reuse(data_reuse),
    .d_misc_cfg_weight_reuse(weight_reuse), .d_misc_cfg_skip_data_rls(skip_data_rls),
    .d_misc_cfg_skip_weight_rls(skip_weight_rls),
    .d_datain_format_datain_format(image),
    .d_datain_size_ext_0_datain_width_ext(in_w_m1), .d_datain_size_ext_0_datain_height_ext(in_h_m1),
    .d_datain_size_ext_1_datain_channel_ext(in_c_m1),
    .d_batch_number_batches(batches), .d_post_y_extension_y_extension(y_ext),
    .d_entry_per_slice_entries(eps), .d_weight_format_weight_format(wt_format),
    .d_weight_size_ext_0_weight_width_ext(k_s_m1), .d_weight_size_ext_0_weight_height_ext(k_r_m1),
    .d_weight_size_ext_1_weight_channel_ext(k_c_m1), .d_weight_size_ext_1_weight_kernel(k_m1),
    .d_weight_bytes_weight_bytes(wt_total_bytes), .d_wmb_bytes_wmb_bytes(wmb_bytes),
    .d_dataout_size_0_dataout_width(out_w_m1), .d_dataout_size_0_dataout_height(out_h_m1),
    .d_dataout_size_1_dataout_channel(chan_out_m1), .d_atomics_atomics(atomics),
    .d_release_rls_slices(rls_slices),
    .d_conv_stride_ext_conv_x_stride_ext(str_x_m1), .d_conv_stride_ext_conv_y_stride_ext(str_y_m1),
    .d_dilation_ext_x_dilation_ext(dil_x_m1), .d_dilation_ext_y_dilation_ext(dil_y_m1),
    .d_zero_padding_pad_left(pad_left), .d_zero_padding_pad_top(pad_top),
    .d_zero_padding_value_pad_value(pad_value),
    .d_bank_data_bank(data_bank), .d_bank_weight_bank(weight_bank),
    .d_pra_cfg_pra_truncate(pra_truncate), .d_cya_cya(cya)
  );
  // Batches (direct mode): slice y * N + b holds line y of batch b; output atoms travel in the
  // order of dla_batch_order (pairs of pixels, batch by batch), a stripe is SL of them.
  wire [4:0]  n_m1 = HAS_BATCH ? batches : 5'd0;
  assign slices = 14'((15'(in_h_m1) + 15'd1) * (15'(n_m1) + 15'd1));
  assign eps_p1 = (EA+1)'(15'(eps) + 15'd1);

  // ---- layer constants ----------------------------------------------------------------------
  // Winograd: a "pixel" of the sequencer is a 2x2 output tile, an operation a block of 4
  // extended channels over the tile's 4x4 window (16 positions x 4 channels = AC lanes).
  wire        wino     = HAS_WINO && conv_mode && !image;
  wire        post     = image && y_ext != 2'd0;
  wire [2:0]  prows    = post ? (3'd1 << y_ext) : 3'd1;               // P
  wire [ACB:0] grp     = (ACB+1)'(AC) >> y_ext;                        // lanes per row group
  wire [13:0] chans    = (image ? 14'(k_c_m1) : 14'(in_c_m1)) + 14'd1;        // C, or S x C in image mode
  wire [10:0] blk_m1   = post ? 11'd0 : wino ? 11'((chans >> 2) - 14'd1) : 11'((chans - 14'd1) >> ACB);
  wire [4:0]  s_m1     = (image || wino) ? 5'd0 : k_s_m1;
  wire [3:0]  sx       = 4'(str_x_m1) + 4'd1;
  wire [3:0]  sy       = 4'(str_y_m1) + 4'd1;
  wire [5:0]  dx       = 6'(dil_x_m1) + 6'd1;
  wire [5:0]  dy       = 6'(dil_y_m1) + 6'd1;
  wire [13:0] win      = 14'(in_w_m1) + 14'd1;
  wire [13:0] hin      = 14'(in_h_m1) + 14'd1;
  wire [13:0] kernels  = 14'(k_m1) + 14'd1;
  wire [17:0] sxc      = 18'(sx) * (18'(in_c_m1) + 18'd1);               // image: elements per x step
  wire [26:0] npix     = wino ? ((27'(out_w_m1) + 27'd1) * (27'(out_h_m1) + 27'd1)) >> 2
                              : (27'(out_w_m1) + 27'd1) * (27'(out_h_m1) + 27'd1) * (27'(n_m1) + 27'd1);
  // the order walk: Winograd tiles in the order CACC delivers them (bands of two tile rows,
  // per tile column top then bottom) is dla_batch_order's with W_out columns and H_out / 4
  // lines: position (xp, dx, y) is tile column xp / 2, tile row 2 y + dx
  wire [12:0] ord_h_m1 = wino ? 13'(((14'(out_h_m1) + 14'd1) >> 2) - 14'd1) : out_h_m1;
  // element size and kernels per group of the processing precision
  wire        es2      = PREC16 && proc_prec != 2'd0;
  wire [13:0] akp      = es2 ? 14'(AK / 2) : 14'(AK);
  wire [13:0] groups_m1 = es2 ? (kernels - 14'd1) >> (AKB - 1) : (kernels - 14'd1) >> AKB;
  // direct-mode slice layout (as CDMA writes it, docs/conv-rtl.md): surfaces of A elements,
  // APE per entry in full blocks, the last block in slots of a power of two atoms
  wire [13:0] nsurf    = es2 ? ((chans - 14'd1) >> (ATOM_SH - 1)) + 14'd1 : ((chans - 14'd1) >> ATOM_SH) + 14'd1;
  logic [13:0] nfull;
  logic [3:0]  slot_atoms;
  dla_conv_slice_geom #(.ATOM_BYTES(ATOM_BYTES), .ENTRY_BYTES(ENTRY_BYTES)) u_geom (
    .nsurf, .nfull, .slot_atoms);
  // atoms of one operation's channel block: AC elements
  wire [13:0] op_atoms = es2 ? 14'((AC * 2) / ATOM_BYTES) : 14'(AC / ATOM_BYTES);

  // ---- op sequencer ---------------------------------------------------------------------
  // One descriptor per (group, stripe, operation); taken by the weight loader.
  logic        sq_valid;
  logic [13:0] sq_g;
  logic [26:0] sq_p0;              // first pixel of the stripe
  logic [12:0] sq_x0, sq_y0;     // first position of the stripe: pair, pixel in it, batch, line
  logic        sq_dx0;
  logic [4:0]  sq_b0;
  logic [10:0] sq_blk;
  logic [4:0]  sq_r, sq_s;
  logic [10:0] sq_rdy, sq_sdx;
  logic        sq_bank;
  logic        sq_first_op;
  // Winograd: where block sq_blk's 4 extended channels are (dla_cdma_wino's layout): element
  // sq_co of input surface sq_su in the padded rows of group (v, s), phase u of the folding
  logic [13:0] sq_co, sq_su;
  logic [3:0]  sq_u, sq_v;
  wire  [3:0]  w_sx   = 4'(wino_sx_m1) + 4'd1;
  wire  [13:0] w_aelm = es2 ? 14'(ATOM_BYTES / 2) : 14'(ATOM_BYTES);
  // (constant 0 without Winograd, as the compression and batch state without theirs)
  wire  [31:0] w_wp   = HAS_WINO ? (32'(in_w_m1) + 32'd1) * 32'(w_sx) : '0;      // padded row, atoms
  wire  [31:0] sq_wgo = HAS_WINO ? (32'(sq_v) * (32'(wino_surf_m1) + 32'd1) + 32'(sq_su)) * w_wp + 32'(sq_u) : '0;
  wire  [26:0] sq_left  = npix - sq_p0;
  logic [SLB:0] sq_npix;
  logic        sq_last_str;
  logic [SLB:0] sq_npix_d, sq_npix_w;
  logic        sq_last_d, sq_last_w;
  dla_conv_stripe #(.SL(SL)) u_stripe (.left(sq_left), .len(sq_npix_d), .last(sq_last_d));
  // Winograd stripes: SL / 4 tiles (SL output atoms in a CACC bank)
  dla_conv_stripe #(.SL(SL / 4), .SLB(SLB)) u_stripe_w (.left(sq_left), .len(sq_npix_w), .last(sq_last_w));
  assign sq_npix     = wino ? sq_npix_w : sq_npix_d;
  assign sq_last_str = wino ? sq_last_w : sq_last_d;
  wire         sq_last_s   = sq_s == s_m1;
  wire         sq_last_r   = wino || (post ? (6'(sq_r) + 6'(prows) > 6'(k_r_m1)) : sq_r == k_r_m1);
  wire         sq_last_op  = sq_last_s && sq_last_r && sq_blk == blk_m1;
  wire         sq_take;

  // where the next stripe starts: SL steps of the atom order from this stripe's start
  logic [(SL+1)*13-1:0] st_xp, st_y;   // position k at [k*13 +: 13]
  logic [SL:0]          st_dx;
  logic [(SL+1)*5-1:0]  st_b;
  assign st_xp[0 +: 13] = sq_x0;
  assign st_dx[0]       = sq_dx0;
  assign st_b[0 +: 5]   = sq_b0;
  assign st_y[0 +: 13]  = sq_y0;
  for (genvar k = 0; k < SL; k++) begin : g_st
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_le, unused_last;
    /* verilator lint_on UNUSEDSIGNAL */
    dla_batch_order u_step (
      .w_m1(out_w_m1), .h_m1(ord_h_m1), .n_m1, .xp(st_xp[k*13 +: 13]), .dx(st_dx[k]), .b(st_b[k*5 +: 5]),
      .y(st_y[k*13 +: 13]), .xp_next(st_xp[(k+1)*13 +: 13]), .dx_next(st_dx[k+1]),
      .b_next(st_b[(k+1)*5 +: 5]), .y_next(st_y[(k+1)*13 +: 13]),
      .line_end(unused_le), .last(unused_last));
  end

  // per-group kernel count and per-kernel chunk bytes of an operation
  wire [13:0]  sq_ng = (sq_g == groups_m1) ? kernels - sq_g * akp : akp;
  wire [5:0]   sq_rows_left = 6'(k_r_m1) + 6'd1 - 6'(sq_r);
  wire [2:0]   sq_rows = (sq_rows_left < 6'(prows)) ? 3'(sq_rows_left) : prows;   // post: rows of the op
  wire [13:0]  sq_cleft = chans - (14'(sq_blk) << ACB);
  wire [13:0]  sq_me = post ? 14'(sq_rows) * chans : wino ? 14'(AC) : (sq_cleft < 14'(AC) ? sq_cleft : 14'(AC));
  wire [13:0]  sq_mb = es2 ? sq_me << 1 : sq_me;        // bytes of one kernel's chunk

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      sq_valid <= 1'b0;
      sq_g <= '0; sq_p0 <= '0; sq_x0 <= '0; sq_y0 <= '0; sq_dx0 <= 1'b0; sq_b0 <= '0;
      sq_blk <= '0; sq_r <= '0; sq_s <= '0; sq_rdy <= '0; sq_sdx <= '0;
      sq_bank <= 1'b0; sq_first_op <= 1'b1;
      sq_co <= '0; sq_su <= '0; sq_u <= '0; sq_v <= '0;
    end else if (start) begin
      sq_valid <= 1'b1;
      sq_g <= '0; sq_p0 <= '0; sq_x0 <= '0; sq_y0 <= '0; sq_dx0 <= 1'b0; sq_b0 <= '0;
      sq_blk <= '0; sq_r <= '0; sq_s <= '0; sq_rdy <= '0; sq_sdx <= '0;
      sq_bank <= 1'b0; sq_first_op <= 1'b1;
      sq_co <= '0; sq_su <= '0; sq_u <= '0; sq_v <= '0;
    end else if (sq_take) begin
      sq_first_op <= 1'b0;
      if (!sq_last_s) begin
        sq_s   <= sq_s + 5'd1;
        sq_sdx <= sq_sdx + 11'(dx);
      end else begin
        sq_s   <= '0;
        sq_sdx <= '0;
        if (!sq_last_r) begin
          sq_r   <= sq_r + 5'(prows);
          sq_rdy <= sq_rdy + 11'(dy);
        end else begin
          sq_r   <= '0;
          sq_rdy <= '0;
          if (sq_blk != blk_m1) begin
            sq_blk <= sq_blk + 11'd1;
            if (sq_co + 14'd4 != w_aelm) sq_co <= sq_co + 14'd4;
            else begin
              sq_co <= '0;
              if (sq_su != 14'(wino_surf_m1)) sq_su <= sq_su + 14'd1;
              else begin
                sq_su <= '0;
                if (sq_u != w_sx - 4'd1) sq_u <= sq_u + 4'd1;
                else begin
                  sq_u <= '0;
                  sq_v <= sq_v + 4'd1;
                end
              end
            end
          end else begin                                    // stripe done
            sq_blk      <= '0;
            sq_co <= '0; sq_su <= '0; sq_u <= '0; sq_v <= '0;
            sq_first_op <= 1'b1;
            sq_bank     <= !sq_bank;
            if (!sq_last_str) begin
              sq_p0  <= sq_p0 + 27'(sq_npix);
              sq_x0  <= st_xp[32'(sq_npix)*13 +: 13];
              sq_dx0 <= st_dx[sq_npix];
              sq_b0  <= HAS_BATCH ? st_b[32'(sq_npix)*5 +: 5] : '0;
              sq_y0  <= st_y[32'(sq_npix)*13 +: 13];
            end else begin
              sq_p0 <= '0;
              sq_x0 <= '0;
              sq_y0 <= '0;
              sq_dx0 <= 1'b0;
              sq_b0 <= '0;
              if (sq_g == groups_m1) sq_valid <= 1'b0;
              sq_g <= sq_g + 14'd1;
            end
          end
        end
      end
    end

  // ---- weight loader --------------------------------------------------------------------
  // Slots: 0 free, 1 loading, 2 full (waiting for issue), 3 in use.
  // Uncompressed: one kernel's chunk a clock, read from the weight ring at the byte pointer.
  // Compressed (WEIGHT_FORMAT = 1): a mask stage reads the chunk's mask bits from the mask ring
  // one clock ahead; their count says how many stream elements the kernel's read takes, and the
  // chunk is expanded (element i is the next stream element if its bit is 1, else zero).
  logic [2*(1+1)-1:0] slot_st;
  logic        ld_slot;                          // slot the loader fills next
  logic        ld_busy;
  logic [AKB:0] ld_k;                            // next kernel to request
  logic [13:0] ld_ng, ld_mb, ld_me;
  logic [2:0]  ld_rows;
  logic        ld_group_end;                     // this op is the group's last use
  logic [31:0] gb_off, wp_off;                   // group base / pointer, bytes from layer start
  logic [EA-1:0] gb_ent, wp_ent;                 // ring entries of the same
  // descriptor copy for the issue stage (per slot)
  logic [2*(26+1)-1:0] d_p0;
  logic [2*(12+1)-1:0] d_x0, d_y0;
  logic [1:0]          d_dx0;
  logic [2*5-1:0]      d_b0;
  logic [2*(10+1)-1:0] d_blk, d_rdy, d_sdx;
  logic [2*(4+1)-1:0] d_r;
  logic [2*(SLB+1)-1:0] d_npix;
  logic [1:0] d_bank, d_first, d_last;
  logic [2*32-1:0] d_wgo;
  logic [2*14-1:0] d_co;


  function automatic logic [EA-1:0] ring_add(input logic [EA-1:0] e, input logic [EA:0] inc,
                                             input logic [EA-1:0] first, input logic [EA:0] size);
    logic [EA+1:0] s;
    s = {2'b0, e} + {1'b0, inc};
    if (s >= {1'b0, first} + {1'b0, size}) s = s - {1'b0, size};
    ring_add = s[EA-1:0];
  endfunction

  // mask stage (compressed layers): kernel mk's mask bits
  wire          cmp = HAS_WMB && wt_format;
  // Two kernels a clock (WL2; v1): an uncompressed operation loads kernels (k, k + 1) in one
  // clock when both chunks, adjacent in the ring, lie in the pair read (always for int8 on
  // v1: 64-byte chunks in 128-byte entries; for int16/fp16 when the 128-byte chunks start
  // on an entry), so a weight set takes about AK / 2 clocks.
  wire          pair_fit = 32'(wp_off[ENT_SH-1:0]) + (32'(ld_mb) << 1) <= 32'(2 * EB);
  wire          pair     = WL2 && !cmp && 14'(ld_k) + 14'd1 < akp && pair_fit;
  wire          ld_two   = pair && 14'(ld_k) + 14'd1 < ld_ng;   // its second kernel is real
  logic [AKB:0] mk;
  logic [31:0]  mp_off, mgb_off;                 // mask pointer / group base, bits from layer start
  logic [EA-1:0] mp_ent, mgb_ent;
  logic         s_full;                          // a mask read waits for its stream read
  logic [MSH-1:0] s_shift;
  logic [AC-1:0] s_bits;                         // the waiting kernel's chunk mask
  logic [ACB:0] s_count;                         // its 1 bits
  wire  [31:0]  mk_end = mp_off + 32'(ld_me);
  wire  [EA-1:0] mp_next_ent = HAS_WMB ? ring_add(mp_ent, (EA+1)'(1), wmb_first, wmb_ring) : '0;
  logic         rq_go;
  wire          m_go = cmp && ld_busy && 14'(mk) < akp && 14'(mk) < ld_ng && (!s_full || rq_go) &&
                       35'(mk_end) <= {wmb_bytes_in, 3'b0};
  always_comb begin
    s_bits  = '0;
    s_count = '0;
    if (HAS_WMB) begin
      s_bits = AC'(r_data[(NRD-1)*2*EB*8 +: 2*EB*8] >> s_shift);
      for (int i = 0; i < AC; i++) begin
        if (14'(i) >= ld_me) s_bits[i] = 1'b0;
        s_count = s_count + (ACB+1)'(s_bits[i]);
      end
    end
  end

  // stream stage: read request for kernel ld_k
  wire [31:0]  rq_inc  = cmp ? (es2 ? 32'(s_count) << 1 : 32'(s_count)) : ld_two ? 32'(ld_mb) << 1 : 32'(ld_mb);
  wire [31:0]  rq_end  = wp_off + rq_inc;
  wire         rq_need = ld_busy && 14'(ld_k) < akp && 14'(ld_k) < ld_ng && (!cmp || s_full);
  assign       rq_go   = rq_need && rq_end <= wt_bytes;
  wire         zero_go = ld_busy && 14'(ld_k) < akp && 14'(ld_k) >= ld_ng;
  wire [EA-1:0] wp_next_ent = ring_add(wp_ent, (EA+1)'(1), wt_first, wt_ring);
  // entries the read ends past (a pair of 16-bit chunks ends two entries on)
  wire [31:0]  rq_span  = 32'(wp_off[ENT_SH-1:0]) + rq_inc;
  wire         rq_cross = rq_span >= 32'(EB);
  wire [EA-1:0] wp_end_ent = (WL2 && rq_span >= 32'(2 * EB)) ? ring_add(wp_ent, (EA+1)'(2), wt_first, wt_ring)
                                                             : wp_next_ent;

  // in flight: the read issued last clock
  logic          lq_valid, lq_zero, lq_last, lq_pair, lq_zero2;
  logic [AKB-1:0] lq_k;
  logic [ENT_SH-1:0] lq_shift;
  logic [13:0]   lq_mb;
  logic [2:0]    lq_rows;
  logic [AC-1:0] lq_mask;

  wire ld_adv = rq_go || zero_go;
  wire ld_last_k = 14'(ld_k) + (pair ? 14'd2 : 14'd1) == akp;

  // Back-to-back loads (uncompressed): the next descriptor is taken in the clock its
  // predecessor requests its last kernel, into the other slot, so a weight-bound layer loses no
  // clock between operations. The group bases it starts from are those after this clock.
  wire          ld_ending = ld_busy && ld_adv && ld_last_k;
  wire          tk_slot   = ld_busy ? !ld_slot : ld_slot;
  assign sq_take = sq_valid && (!ld_busy || (ld_ending && !cmp)) && slot_st[(tk_slot)*(1+1) +: (1+1)] == 2'd0;
  wire          grp_done  = ld_ending && ld_group_end;
  wire [31:0]   gb_off_n  = grp_done ? (rq_go ? rq_end : wp_off) : gb_off;
  wire [EA-1:0] gb_ent_n  = grp_done ? ((rq_go && rq_cross) ? wp_end_ent : wp_ent) : gb_ent;
  // the mask stage has read the group's last kernel before its last stream read
  wire [31:0]   mgb_off_n = grp_done ? mp_off : mgb_off;
  wire [EA-1:0] mgb_ent_n = grp_done ? mp_ent : mgb_ent;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      ld_busy <= 1'b0; ld_slot <= 1'b0; ld_k <= '0; ld_ng <= '0; ld_mb <= '0; ld_me <= '0;
      ld_rows <= '0; ld_group_end <= 1'b0;
      gb_off <= '0; wp_off <= '0; gb_ent <= '0; wp_ent <= '0;
      wt_released <= '0;
      mk <= '0; mp_off <= '0; mgb_off <= '0; mp_ent <= '0; mgb_ent <= '0; s_full <= 1'b0;
      s_shift <= '0; wmb_released <= '0;
      lq_valid <= 1'b0; lq_zero <= 1'b0; lq_last <= 1'b0; lq_k <= '0; lq_shift <= '0;
      lq_pair <= 1'b0; lq_zero2 <= 1'b0;
      lq_mb <= '0; lq_rows <= '0; lq_mask <= '0;
      for (int s = 0; s < 2; s++) begin
        d_p0[(s)*(26+1) +: (26+1)] <= '0; d_x0[(s)*(12+1) +: (12+1)] <= '0; d_y0[(s)*(12+1) +: (12+1)] <= '0; d_blk[(s)*(10+1) +: (10+1)] <= '0; d_rdy[(s)*(10+1) +: (10+1)] <= '0;
        d_sdx[(s)*(10+1) +: (10+1)] <= '0; d_r[(s)*(4+1) +: (4+1)] <= '0; d_npix[(s)*(SLB+1) +: (SLB+1)] <= '0; d_bank[s] <= 1'b0; d_first[s] <= 1'b0;
        d_last[s] <= 1'b0; d_dx0[s] <= 1'b0; d_b0[s*5 +: 5] <= '0;
        d_wgo[s*32 +: 32] <= '0; d_co[s*14 +: 14] <= '0;
      end
    end else if (start) begin
      ld_busy <= 1'b0; ld_slot <= 1'b0; ld_k <= '0;
      gb_off <= '0; wp_off <= '0; gb_ent <= wt_first; wp_ent <= wt_first;
      wt_released <= '0;
      mk <= '0; mp_off <= '0; mgb_off <= '0; mp_ent <= HAS_WMB ? wmb_first : '0; mgb_ent <= HAS_WMB ? wmb_first : '0;
      s_full <= 1'b0; wmb_released <= '0;
      lq_valid <= 1'b0;
    end else begin
      lq_valid <= ld_adv;
      lq_zero  <= zero_go;
      lq_pair  <= pair;
      lq_zero2 <= !ld_two;
      lq_last  <= ld_last_k;
      lq_k     <= AKB'(ld_k);
      lq_shift <= ENT_SH'(wp_off);
      lq_mb    <= ld_mb;
      lq_rows  <= ld_rows;
      lq_mask  <= s_bits;
      if (m_go) begin
        mk      <= mk + (AKB+1)'(1);
        mp_off  <= mk_end;
        s_shift <= MSH'(mp_off);
        if ((MSH+1)'(mp_off[MSH-1:0]) + (MSH+1)'(ld_me) >= (MSH+1)'(EB * 8)) mp_ent <= mp_next_ent;
        s_full  <= 1'b1;
      end else if (rq_go) s_full <= 1'b0;
      if (rq_go) begin
        wp_off <= rq_end;
        if (rq_cross) wp_ent <= wp_end_ent;
      end
      if (ld_adv) begin
        ld_k <= ld_k + (pair ? (AKB+1)'(2) : (AKB+1)'(1));
        if (ld_last_k) begin
          ld_busy <= 1'b0;
          ld_slot <= !ld_slot;
          if (ld_group_end) begin
            // the next group starts where this one ended; entries wholly before it are free
            gb_off <= gb_off_n;
            gb_ent <= gb_ent_n;
            if (!skip_weight_rls) wt_released <= gb_off_n >> ENT_SH;
            mgb_off <= HAS_WMB ? mgb_off_n : '0;
            mgb_ent <= HAS_WMB ? mgb_ent_n : '0;
            if (!skip_weight_rls) wmb_released <= HAS_WMB ? mgb_off_n >> MSH : '0;
          end
        end
      end
      // after the loader's own updates: a take in the clock of the last request wins
      if (sq_take) begin
        ld_busy  <= 1'b1;
        ld_k     <= '0;
        mk       <= '0;
        ld_ng    <= sq_ng;
        ld_mb    <= sq_mb;
        ld_me    <= sq_me;
        ld_rows  <= post ? sq_rows : 3'd1;
        ld_group_end <= sq_last_op && sq_last_str;
        if (sq_first_op) begin                      // every stripe reads the group from its base
          wp_off <= gb_off_n;
          wp_ent <= gb_ent_n;
          mp_off <= HAS_WMB ? mgb_off_n : '0;
          mp_ent <= HAS_WMB ? mgb_ent_n : '0;
        end
        // the descriptor into slot tk_slot, written with constant indices so that a field the
        // configuration fixes (batch, Winograd) is a constant flop to synthesis
        for (int s = 0; s < 2; s++)
          if (tk_slot == 1'(s)) begin
            d_p0[s*27 +: 27]   <= sq_p0;
            d_x0[s*13 +: 13]   <= sq_x0;
            d_y0[s*13 +: 13]   <= sq_y0;
            d_dx0[s]           <= sq_dx0;
            d_b0[s*5 +: 5]     <= sq_b0;
            d_blk[s*11 +: 11]  <= sq_blk;
            d_rdy[s*11 +: 11]  <= sq_rdy;
            d_sdx[s*11 +: 11]  <= sq_sdx;
            d_r[s*5 +: 5]      <= sq_r;
            d_npix[s*(SLB+1) +: (SLB+1)] <= sq_npix;
            d_bank[s]          <= sq_bank;
            d_first[s]         <= sq_first_op;
            d_last[s]          <= sq_last_op;
            d_wgo[s*32 +: 32]  <= sq_wgo;
            d_co[s*14 +: 14]   <= HAS_WINO ? sq_co : '0;
          end
      end
    end

  // Weight extraction: lane L of row group j = L / G takes element j * chunk_row + L % G of
  // the kernel's chunk; the element is at byte shift + position * es, where the position is
  // the element's index, or for compressed weights the number of 1 mask bits before it.
  logic [2*EB*8-1:0] wwin;
  assign wwin = r_data[2*EB*8 +: 2*EB*8];
  // position of element e in the stream read: e, or the 1 mask bits before it
  logic [AC*(ACB+1)-1:0] pos;
  always_comb begin
    logic [ACB:0] cnt;
    cnt = '0;
    for (int e = 0; e < AC; e++) begin
      pos[e*(ACB+1) +: (ACB+1)] = cmp ? cnt : (ACB+1)'(e);
      cnt = cnt + (ACB+1)'(lq_mask[e]);
    end
  end
  // The second kernel of a pair starts right after the first one's chunk (uncompressed).
  logic [2*AC*LW-1:0] wl_both;
  always_comb begin
    wl_both = '0;
    for (int h = 0; h < (WL2 ? 2 : 1); h++)
      for (int l = 0; l < AC; l++) begin
        int j, q, el, src;
        logic on;
        j = l / 32'(grp);
        q = l % 32'(grp);
        el = post ? j * 32'(chans) + q : l;
        on = el < AC && (!cmp || lq_mask[el % AC]);
        src = 32'(lq_shift) + (h == 1 ? 32'(lq_mb) : 0) +
              (es2 ? 2 * 32'(pos[(el % AC)*(ACB+1) +: (ACB+1)]) : 32'(pos[(el % AC)*(ACB+1) +: (ACB+1)]));
        if (!(h == 1 ? lq_zero2 : lq_zero) && on &&
            (post ? (j < 32'(lq_rows) && q < 32'(chans)) : (es2 ? 2 * l : l) < 32'(lq_mb))) begin
          if (es2 && src + 1 < 2 * EB) wl_both[(h*AC + l)*LW +: LW] = LW'(wwin[src*8 +: 16]);
          else if (!es2 && src < 2 * EB) wl_both[(h*AC + l)*LW +: LW] = LW'($signed(wwin[src*8 +: 8]));
        end
      end
  end
  assign wl_data  = wl_both[0 +: AC*LW];
  assign wl_data2 = wl_both[AC*LW +: AC*LW];
  assign wl_pair  = WL2 && lq_pair;
  assign wl_valid  = lq_valid;
  assign wl_kernel = lq_k;

  // slot that the loaded kernels go to: the loader's slot of that op (loads never overlap ops)
  logic lq_slot;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) lq_slot <= 1'b0;
    else lq_slot <= ld_slot;
  assign wl_slot = lq_slot;

  // ---- issue ------------------------------------------------------------------------------
  logic        is_slot;                         // slot being issued
  logic        is_busy;
  logic [SLB:0] is_p;                           // pixel of the stripe
  logic [3:0]  is_j;                            // sub-read (row group; Winograd: row, part)
  logic [12:0] is_x, is_y;                      // the pixel's pair (first x) and line
  logic        is_dx;                           // pixel x = is_x + is_dx
  logic [4:0]  is_b;                            // batch
  logic [16:0] is_xs, is_ys;                    // (is_x + is_dx) * sx, y * sy
  logic [26:0] is_xsc;                          // image: x * sx * C
  wire         is_ready = slot_st[(is_slot)*(1+1) +: (1+1)] == 2'd2;
  wire         need_bank = d_first[is_slot] && is_p == '0 && is_j == '0;

  // the read of this (pixel, sub-read)
  logic signed [18:0] ix, iy;
  logic               in_cube;
  logic [40:0]        ent_sum;
  logic [26:0]        e_el;
  logic [31:0]        boff;                     // byte offset of the read in the slice
  logic [31:0]        s0, b4;                   // first surface of the op's block, its APE block
  logic [EA-1:0]      rd_ent0, rd_ent1;
  logic [ENT_SH-1:0]  rd_shift;
  logic [13:0] slice;                           // input slice of the read: line iy of batch is_b
  // Winograd sub-reads: per window row, 4 columns in one pair read when they span at most 8
  // atoms (stride 1 or 2), else 2 or 1 columns a read
  wire [1:0]  w_nsh = w_sx <= 4'd2 ? 2'd0 : w_sx <= 4'd4 ? 2'd1 : 2'd2;   // log2(reads a row)
  wire [2:0]  w_cpr = 3'd4 >> w_nsh;                                   // columns a read
  wire [1:0]  w_row = 2'(is_j >> w_nsh);
  wire [1:0]  w_col0 = 2'((is_j & ((4'd1 << w_nsh) - 4'd1)) * 4'(w_cpr));
  always_comb begin
    ix = 19'(is_xs) + 19'(d_sdx[(is_slot)*(10+1) +: (10+1)]) - 19'(pad_left);
    iy = 19'(is_ys) + (image ? 19'(d_r[(is_slot)*(4+1) +: (4+1)]) + 19'(is_j) : 19'(d_rdy[(is_slot)*(10+1) +: (10+1)])) - 19'(pad_top);
    slice = 14'(15'(iy[13:0]) * (15'(n_m1) + 15'd1) + 15'(is_b));
    in_cube = iy >= 0 && iy < 19'(hin) && (image || (ix >= 0 && ix < 19'(win)));
    e_el = is_xsc + (post ? 27'd0 : 27'(d_blk[(is_slot)*(10+1) +: (10+1)]) << ACB);
    s0 = 32'(d_blk[(is_slot)*(10+1) +: (10+1)]) * 32'(op_atoms);
    b4 = s0 >> APE_SH;
    if (image) boff = es2 ? 32'(e_el) << 1 : 32'(e_el);
    else begin
      if (b4 < 32'(nfull)) boff = (b4 * 32'(win) + 32'(ix[13:0])) * 32'(EB);
      else boff = 32'(nfull) * 32'(win) * 32'(EB) + ((32'(ix[13:0]) * 32'(slot_atoms)) << ATOM_SH);
      boff = boff + ((s0 & 32'(APE - 1)) << ATOM_SH);
    end
    if (wino) begin                               // tile (is_x / 2, 2 is_y + is_dx), window row w_row
      slice   = 14'(4 * 32'(is_y) + 2 * 32'(is_dx) + 32'(w_row));
      in_cube = 1'b1;
      boff    = (d_wgo[is_slot*32 +: 32] + (32'(is_x) + 32'(w_col0)) * 32'(w_sx)) << ATOM_SH;
    end
    ent_sum = 41'(data_start) + 41'(slice) * 41'(eps_p1) + (41'(boff) >> ENT_SH);
    if (ent_sum >= 41'(data_ring)) ent_sum = ent_sum - 41'(data_ring);
    rd_ent0  = EA'(ent_sum);
    rd_ent1  = (41'(rd_ent0) + 41'd1 >= 41'(data_ring)) ? '0 : rd_ent0 + EA'(1);
    rd_shift = ENT_SH'(boff);
  end
  wire row_ok  = !in_cube || slice < rows_avail;
  wire is_go   = is_busy && row_ok && (!need_bank || bank_free[d_bank[is_slot]]);
  wire is_last_j = wino ? is_j == (4'd4 << w_nsh) - 4'd1 : (!post || 3'(is_j) == prows - 3'd1);
  wire is_last_p = is_p == d_npix[(is_slot)*(SLB+1) +: (SLB+1)] - (SLB+1)'(1);
  logic [12:0] is_nxp, unused_is_ny;
  logic        is_ndx, is_nle, unused_is_last;
  logic [4:0]  is_nb;
  dla_batch_order u_is_step (
    .w_m1(out_w_m1), .h_m1(out_h_m1), .n_m1, .xp(is_x), .dx(is_dx), .b(is_b), .y(is_y),
    .xp_next(is_nxp), .dx_next(is_ndx), .b_next(is_nb), .y_next(unused_is_ny), .line_end(is_nle),
    .last(unused_is_last));

  // The next op begins right after the last item of the current one when its weights are in
  // (no bubble between ops), else as soon as they are.
  wire chain    = is_go && is_last_j && is_last_p && slot_st[(!is_slot)*(1+1) +: (1+1)] == 2'd2;
  wire begin_op = ((!is_busy && is_ready) || chain) && !start;
  wire nb_slot  = chain ? !is_slot : is_slot;
  wire [13:0] nb_x = 14'(d_x0[(nb_slot)*(12+1) +: (12+1)]) + 14'(d_dx0[nb_slot]);   // its first pixel

  assign stripe_start = (is_go && need_bank) ? (d_bank[is_slot] ? 2'b10 : 2'b01) : 2'b00;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      is_slot <= 1'b0; is_busy <= 1'b0; is_p <= '0; is_j <= '0;
      is_x <= '0; is_y <= '0; is_xs <= '0; is_ys <= '0; is_xsc <= '0; is_dx <= 1'b0; is_b <= '0;
    end else if (start) begin
      is_slot <= 1'b0; is_busy <= 1'b0; is_p <= '0; is_j <= '0;
    end else if (begin_op) begin                  // first pixel of an op's stripe
      is_busy <= 1'b1;
      is_slot <= nb_slot;
      is_p    <= '0;
      is_j    <= '0;
      is_x    <= d_x0[(nb_slot)*(12+1) +: (12+1)];
      is_dx   <= d_dx0[nb_slot];
      is_b    <= d_b0[nb_slot*5 +: 5];
      is_y    <= d_y0[(nb_slot)*(12+1) +: (12+1)];
      is_xs   <= 17'(nb_x) * 17'(sx);
      is_ys   <= 17'(d_y0[(nb_slot)*(12+1) +: (12+1)]) * 17'(sy);
      is_xsc  <= 27'(nb_x) * 27'(sxc);
    end else if (is_go) begin
      if (!is_last_j) is_j <= is_j + 4'd1;
      else begin
        is_j <= '0;
        if (is_last_p) begin
          is_busy <= 1'b0;
          is_slot <= !is_slot;
        end else begin
          is_p  <= is_p + (SLB+1)'(1);
          is_x  <= is_nxp;
          is_dx <= is_ndx;
          is_b  <= is_nb;
          if (is_nle) begin
            is_xs  <= '0;
            is_xsc <= '0;
            is_y   <= is_y + 13'd1;
            is_ys  <= is_ys + 17'(sy);
          end else if (is_ndx || is_nxp != is_x) begin             // one pixel right
            is_xs  <= is_xs + 17'(sx);
            is_xsc <= is_xsc + 27'(sxc);
          end else if (is_dx) begin                                 // back to the pair's first
            is_xs  <= is_xs - 17'(sx);
            is_xsc <= is_xsc - 27'(sxc);
          end
        end
      end
    end

  // slot states
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      slot_st[(0)*(1+1) +: (1+1)] <= '0;
      slot_st[(1)*(1+1) +: (1+1)] <= '0;
    end else if (start) begin
      slot_st[(0)*(1+1) +: (1+1)] <= '0;
      slot_st[(1)*(1+1) +: (1+1)] <= '0;
    end else
      for (int s = 0; s < 2; s++) begin
        if (sq_take && tk_slot == 1'(s)) slot_st[(s)*(1+1) +: (1+1)] <= 2'd1;
        if (ld_adv && ld_last_k && ld_slot == 1'(s)) slot_st[(s)*(1+1) +: (1+1)] <= 2'd2;  // last kernel requested
        if (begin_op && nb_slot == 1'(s)) slot_st[(s)*(1+1) +: (1+1)] <= 2'd3;
        // CMAC reads a slot's weights with the op's last item: free from the next clock
        if (mi_valid && g_op_end && g_slot == 1'(s)) slot_st[(s)*(1+1) +: (1+1)] <= 2'd0;
      end

  // CBUF reads
  if (HAS_WMB) begin : g_rd3
    assign r_en    = {m_go, rq_go, is_go};
    assign r_addr0 = {mp_ent, wp_ent, rd_ent0};
    assign r_addr1 = {mp_next_ent, wp_next_ent, rd_ent1};
  end else begin : g_rd2
    assign r_en    = {rq_go, is_go};
    assign r_addr0 = {wp_ent, rd_ent0};
    assign r_addr1 = {wp_next_ent, rd_ent1};
    wire unused_wmb = &{1'b0, wmb_bytes_in, mp_next_ent, m_go};
  end

  // ---- gather (clock after the read) ------------------------------------------------------
  logic          g_valid, g_inside, g_last_j, g_first, g_end, g_bank, g_slot, g_op_end;
  logic [3:0]    g_j;
  logic [1:0]    g_wrow, g_wcol0;
  logic [13:0]   g_co;
  logic [SLB-1:0] g_pix;
  logic [ENT_SH-1:0] g_shift;
  logic [13:0]   g_c0;                           // channel of lane 0 (direct / image P = 1)
  logic [AC*LW-1:0] g_acc;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      g_valid <= 1'b0; g_inside <= 1'b0; g_last_j <= 1'b0; g_first <= 1'b0; g_end <= 1'b0;
      g_bank <= 1'b0; g_slot <= 1'b0; g_op_end <= 1'b0; g_j <= '0; g_pix <= '0; g_shift <= '0; g_c0 <= '0;
      g_wrow <= '0; g_wcol0 <= '0; g_co <= '0;
    end else begin
      g_valid  <= is_go;
      g_inside <= in_cube;
      g_last_j <= is_last_j;
      g_first  <= d_first[is_slot];
      g_end    <= d_last[is_slot] && is_last_p;
      g_op_end <= is_last_p;
      g_bank   <= d_bank[is_slot];
      g_slot   <= is_slot;
      g_j      <= is_j;
      g_pix    <= SLB'(is_p);
      g_shift  <= rd_shift;
      g_c0     <= post ? 14'd0 : 14'(d_blk[(is_slot)*(10+1) +: (10+1)]) << ACB;
      g_wrow   <= w_row;
      g_wcol0  <= w_col0;
      g_co     <= d_co[is_slot*14 +: 14];
    end

  logic [2*EB*8-1:0] dwin;
  logic [AC*LW-1:0]  lanes;
  wire  [LW-1:0]     pad_lane = es2 ? LW'(pad_value) : LW'($signed(pad_value[7:0]));
  assign dwin = r_data[0 +: 2*EB*8];
  logic [AC*LW-1:0]  lanes_w, lanes_d;
  // Winograd: lane 4 p + c, p = row * 4 + column, is channel c of the block at window (row,
  // column); a sub-read brings w_cpr columns of one row, w_sx atoms apart
  always_comb begin
    lanes_w = g_acc;
      for (int l = 0; l < AC; l++) begin
        int c, row, col, src;
        c   = l % 4;
        row = (l / 4) / 4;
        col = (l / 4) % 4;
        src = 32'(g_shift) + (col - 32'(g_wcol0)) * 32'(w_sx) * ATOM_BYTES + (32'(g_co) + c) * (es2 ? 2 : 1);
        if (row == 32'(g_wrow) && col >= 32'(g_wcol0) && col < 32'(g_wcol0) + 32'(w_cpr)) begin
          if (es2 && src + 1 < 2 * EB) lanes_w[l*LW +: LW] = LW'(dwin[src*8 +: 16]);
          else if (!es2 && src < 2 * EB) lanes_w[l*LW +: LW] = LW'($signed(dwin[src*8 +: 8]));
          else lanes_w[l*LW +: LW] = '0;
        end
      end
  end
  assign lanes = wino ? lanes_w : lanes_d;
  always_comb begin
    lanes_d = g_acc;
    for (int l = 0; l < AC; l++) begin
      int j, q, src;
      logic valid;
      j = l / 32'(grp);
      q = l % 32'(grp);
      src = 32'(g_shift) + (es2 ? 2 * q : q);
      valid = 32'(g_c0) + q < 32'(chans);
      if (j == 32'(g_j)) begin
        if (!valid) lanes_d[l*LW +: LW] = '0;
        else if (!g_inside) lanes_d[l*LW +: LW] = pad_lane;
        else if (es2 && src + 1 < 2 * EB) lanes_d[l*LW +: LW] = LW'(dwin[src*8 +: 16]);
        else if (!es2 && src < 2 * EB) lanes_d[l*LW +: LW] = LW'($signed(dwin[src*8 +: 8]));
        else lanes_d[l*LW +: LW] = '0;
      end
    end
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) g_acc <= '0;
    else if (g_valid) g_acc <= lanes;

  // Winograd: the window's transform (V = B^T d B, PRA_TRUNCATE, saturation) goes to CMAC
  logic [AC*LW-1:0] pra;
  if (HAS_WINO) begin : g_pra
    dla_conv_wino_pra #(.LW(LW)) u_pra (
      .d(lanes), .es2, .fp(HAS_FP && proc_prec == 2'd2), .truncate(pra_truncate), .v(pra));
  end else begin : g_no_pra
    assign pra = '0;
  end

  assign mi_valid      = g_valid && g_last_j;
  assign mi_slot       = g_slot;
  assign mi_data       = wino ? pra : lanes;
  assign mi_pix        = g_pix;
  assign mi_bank       = g_bank;
  assign mi_first      = g_first;
  assign mi_stripe_end = g_end;

  wire unused = &{1'b0, is_ys[16], pad_value[15:8], lq_last, d_p0[(0)*(26+1) +: (26+1)], d_p0[(1)*(26+1) +: (26+1)]};
endmodule
