// CACC (docs/conv-rtl.md): the CACC register block, two accumulator banks of SL output atoms
// and the delivery into SDP's flying input.
//
// CSC fills one bank per stripe (stripe_start), CMAC's partial sums are added in arrival order
// (34-bit saturating sums for int8; the first partial of a pixel loads the sum). When the
// stripe's last partial is in, the bank is delivered pixel by pixel: every lane rounded
// (CLIP_TRUNCATE, half away from zero) and clipped to 32 bits, lanes of kernels >= K zero,
// AK/TP beats of TP lanes per atom. D_OUT_SATURATION counts clipped lanes (the configurable
// family's per-atom adder is only log2(AK) bits wide when SAT_WRAP). `layer_end` pulses with
// the last beat of the layer. fp16 layers (HAS_FP): the sums are the "fp48" accumulators of
// dla_conv_fp_pkg ({exponent, 40-bit mantissa} in the same 48-bit words), delivered as fp32,
// never counted as saturated.
module dla_cacc #(
  parameter int AK       = 8,
  parameter int SL       = 32,
  parameter int PW       = 19,
  parameter int TP       = 1,
  parameter bit SAT_WRAP = 1'b1,
  parameter bit PREC16   = 1'b0,             // int16 layers: AK/2 kernels, 48-bit sums
  parameter bit HAS_BATCH = 1'b0,             // batching
  parameter bit HAS_WINO  = 1'b0,             // Winograd (stripes of SL / 4 tiles, 4 atoms each)
  parameter bit HAS_FP    = 1'b0,             // fp16 layers (PW = 38, ACC_W = 48)
  parameter int ACC_W    = PREC16 ? 48 : 34,
  parameter int SLB      = $clog2(SL),
  parameter int AKB      = $clog2(AK)
) (
  input  logic                 clk,
  input  logic                 rstn,
  input  logic                 req_vld,
  input  logic                 req_wr,
  input  logic [9:0]           req_word,
  input  logic [31:0]          req_wdat,
  output logic [31:0]          rd_data,
  output logic                 op_en,
  input  logic                 op_done,
  input  logic                 start,
  // banks
  output logic [1:0]           bank_free,
  input  logic [1:0]           stripe_start,
  // partial sums (one clock after CMAC took the operation)
  input  logic                 p_valid,
  input  logic [AK*PW-1:0]     p_data,
  input  logic [AK/2*6-1:0]    p_exp,         // fp16: exponents of kernels [0, AK/2)
  input  logic [SLB-1:0]       p_pix,
  input  logic                 p_bank,
  input  logic                 p_first,
  input  logic                 p_stripe_end,
  // to SDP
  output logic                 fly_valid,
  input  logic                 fly_ready,
  output logic [TP*32-1:0]     fly_data,
  output logic                 layer_end
);
  localparam int BEATS = AK / TP;           // beats of an int8 atom (int16: half of them)
  localparam int BB    = (BEATS > 1) ? $clog2(BEATS) : 1;

  /* verilator lint_off UNUSEDSIGNAL */
  logic        consumer, producer, conv_mode, line_packed, surf_packed;
  logic [1:0]  proc_prec;
  logic [4:0]  batches;
  logic [31:0] out_addr, cya;
  logic [23:0] line_stride, surf_stride;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [12:0] out_w_m1, out_h_m1, out_c_m1;
  logic [4:0]  clip;
  logic [31:0] sat_count;

  dla_cacc_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data, .op_done, .op_en,
    .consumer, .producer, .d_misc_cfg_conv_mode(conv_mode), .d_misc_cfg_proc_precision(proc_prec),
    .d_dataout_size_0_dataout_width(out_w_m1), .d_dataout_size_0_dataout_height(out_h_m1),
    .d_dataout_size_1_dataout_channel(out_c_m1), .d_dataout_addr_dataout_addr(out_addr),
    .d_batch_number_batches(batches), .d_line_stride_line_stride(line_stride),
    .d_surf_stride_surf_stride(surf_stride), .d_dataout_map_line_packed(line_packed),
    .d_dataout_map_surf_packed(surf_packed), .d_clip_cfg_clip_truncate(clip),
    .d_out_saturation_sat_count(sat_count), .d_cya_cya(cya)
  );

  // ---- accumulation -----------------------------------------------------------------------
  logic [AK*ACC_W-1:0] acc [2][SL];                      // one row of AK sums per output atom
  logic [2*(1+1)-1:0] st;                               // per bank: 0 free, 1 filling, 2 full
  logic [1:0] bank_full;
  // int8 sums saturate at 34 bits, int16 sums at 48
  wire                     es2     = PREC16 && proc_prec != 2'd0;
  localparam logic signed [ACC_W:0] MAX34 = (ACC_W+1)'((64'sd1 <<< 33) - 64'sd1);
  localparam logic signed [ACC_W:0] MIN34 = -((ACC_W+1)'(64'sd1 <<< 33));
  localparam logic signed [ACC_W:0] MAXW  = (ACC_W+1)'((64'sd1 <<< (ACC_W - 1)) - 64'sd1);
  localparam logic signed [ACC_W:0] MINW  = -((ACC_W+1)'(64'sd1 <<< (ACC_W - 1)));
  wire signed [ACC_W:0]    ACC_MAX = es2 ? MAXW : MAX34;
  wire signed [ACC_W:0]    ACC_MIN = es2 ? MINW : MIN34;

  wire fp = HAS_FP && proc_prec == 2'd2;
  if (HAS_FP && (PW != 38 || ACC_W != 48)) begin : g_fp_check
    $error("dla_cacc: fp16 needs 38-bit partials and 48-bit sums (PW = %0d, ACC_W = %0d)", PW, ACC_W);
  end

  // A whole row is written at once (a loop of delayed writes to array elements is not
  // unrolled by Verilator once the fp16 step is inlined).
  always_ff @(posedge clk)
    if (p_valid) begin : b_acc
      logic [AK*ACC_W-1:0] row;
      logic signed [ACC_W:0] s;
      /* verilator lint_off UNUSEDSIGNAL */   // configurations without fp16: 34-bit sums
      logic [47:0]           f;
      /* verilator lint_on UNUSEDSIGNAL */
      logic [47:0]           prev;
      row = acc[p_bank][p_pix];
      for (int k = 0; k < AK; k++) begin
        s = (ACC_W+1)'($signed(p_data[k*PW +: PW]));
        if (!p_first) s = s + (ACC_W+1)'($signed(row[k*ACC_W +: ACC_W]));
        if (s > ACC_MAX) s = ACC_MAX;
        else if (s < ACC_MIN) s = ACC_MIN;
        f = '0;
        if (fp && k < AK / 2) begin
          prev = p_first ? 48'd0 : 48'(row[k*ACC_W +: ACC_W]);
          f = dla_conv_fp_pkg::fp48_add(prev, p_exp[(k % (AK / 2))*6 +: 6], 38'(p_data[k*PW +: PW]));
        end
        row[k*ACC_W +: ACC_W] = fp ? ACC_W'(f) : ACC_W'(s);
      end
      acc[p_bank][p_pix] <= row;
    end

  // ---- delivery ---------------------------------------------------------------------------
  wire [13:0] kernels = 14'(out_c_m1) + 14'd1;
  wire [13:0] akp = es2 ? 14'(AK / 2) : 14'(AK);
  wire [13:0] groups_m1 = es2 ? (kernels - 14'd1) >> (AKB - 1) : (kernels - 14'd1) >> AKB;
  wire [BB-1:0] last_beat = es2 ? BB'(BEATS / 2 - 1) : BB'(BEATS - 1);
  // output atoms per kernel group: pixels x batches (in dla_batch_order's order, as CSC sends them)
  wire [4:0]  n_m1 = HAS_BATCH ? batches : 5'd0;
  wire [26:0] npix = (27'(out_w_m1) + 27'd1) * (27'(out_h_m1) + 27'd1) * (27'(n_m1) + 27'd1);
  // Winograd: stripes are counted in 2x2 tiles (as CSC issues them), four atoms a tile
  wire        wino = HAS_WINO && conv_mode;

  logic        dv_run, dv_bank;
  logic [13:0] dv_g;
  logic [26:0] dv_p0;                              // first pixel (Winograd: tile) of the stripe
  logic [SLB:0] dv_p;
  logic [BB-1:0] dv_beat;
  wire  [26:0] dv_left = (wino ? npix >> 2 : npix) - dv_p0;
  logic [SLB:0] dv_n, dv_len_d, dv_len_w;          // atoms of the stripe; its pixels or tiles
  logic        dv_last_stripe, dv_last_d, dv_last_w;
  dla_conv_stripe #(.SL(SL)) u_stripe (.left(dv_left), .len(dv_len_d), .last(dv_last_d));
  dla_conv_stripe #(.SL(SL / 4), .SLB(SLB)) u_stripe_w (.left(dv_left), .len(dv_len_w), .last(dv_last_w));
  assign dv_n           = wino ? dv_len_w << 2 : dv_len_d;
  assign dv_last_stripe = wino ? dv_last_w : dv_last_d;
  wire  [13:0] dv_nk   = (dv_g == groups_m1) ? kernels - dv_g * akp : akp;

  // the atom being delivered: rounded, clipped lanes
  logic [AK*32-1:0] atom;
  logic [AK-1:0]    lane_sat;
  for (genvar k = 0; k < AK; k++) begin : g_round
    logic signed [ACC_W-1:0] a;
    logic signed [ACC_W-1:0] fl;
    logic signed [ACC_W:0]   r;
    logic guard, sticky;
    always_comb begin
      a  = $signed(acc[dv_bank][SLB'(dv_p)][k*ACC_W +: ACC_W]);
      fl = a >>> clip;
      guard  = clip != 5'd0 && a[6'(clip) - 6'd1];
      sticky = clip > 5'd1 && (a & ((ACC_W'(1) <<< (clip - 5'd1)) - ACC_W'(1))) != '0;
      r = (ACC_W+1)'(fl) + (ACC_W+1)'(guard && (!a[ACC_W-1] || sticky));
      lane_sat[k] = !fp && 14'(k) < dv_nk && (r > (ACC_W+1)'(33'sh0_7fff_ffff) || r < -((ACC_W+1)'(33'sh0_8000_0000)));
      if (14'(k) >= dv_nk) atom[k*32 +: 32] = '0;
      else if (fp) atom[k*32 +: 32] = dla_conv_fp_pkg::fp48_to_fp32(48'(a));
      else if (r > (ACC_W+1)'(33'sh0_7fff_ffff)) atom[k*32 +: 32] = 32'h7fff_ffff;
      else if (r < -((ACC_W+1)'(33'sh0_8000_0000))) atom[k*32 +: 32] = 32'h8000_0000;
      else atom[k*32 +: 32] = r[31:0];
    end
  end

  assign fly_valid = dv_run && st[(dv_bank)*(1+1) +: (1+1)] == 2'd2;
  assign fly_data  = atom[32'(dv_beat)*TP*32 +: TP*32];
  wire beat = fly_valid && fly_ready;
  wire atom_end = beat && (BEATS == 1 || dv_beat == last_beat);
  wire stripe_done = atom_end && dv_p == dv_n - (SLB+1)'(1);
  wire last_stripe = dv_last_stripe && dv_g == groups_m1;
  assign layer_end = stripe_done && last_stripe;

  // saturated lanes of the atom, through the per-atom adder
  logic [AKB:0] nsat;
  always_comb begin
    nsat = '0;
    for (int k = 0; k < AK; k++) nsat = nsat + (AKB+1)'(lane_sat[k]);
    if (SAT_WRAP) nsat[AKB] = 1'b0;
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      dv_run <= 1'b0; dv_bank <= 1'b0; dv_g <= '0; dv_p0 <= '0; dv_p <= '0; dv_beat <= '0;
      st[(0)*(1+1) +: (1+1)] <= '0; st[(1)*(1+1) +: (1+1)] <= '0; sat_count <= '0;
    end else if (start) begin
      dv_run <= 1'b1; dv_bank <= 1'b0; dv_g <= '0; dv_p0 <= '0; dv_p <= '0; dv_beat <= '0;
      st[(0)*(1+1) +: (1+1)] <= '0; st[(1)*(1+1) +: (1+1)] <= '0; sat_count <= '0;
    end else begin
      for (int b = 0; b < 2; b++) begin
        if (stripe_start[b]) st[(b)*(1+1) +: (1+1)] <= 2'd1;
        if (p_valid && p_stripe_end && p_bank == 1'(b)) st[(b)*(1+1) +: (1+1)] <= 2'd2;
      end
      if (beat) dv_beat <= (BEATS == 1 || dv_beat == last_beat) ? '0 : dv_beat + BB'(1);
      if (atom_end) begin
        dv_p <= dv_p + (SLB+1)'(1);
        if (sat_count != 32'hffff_ffff)
          sat_count <= (33'(sat_count) + 33'(nsat) > 33'h0_ffff_ffff) ? 32'hffff_ffff
                                                                     : sat_count + 32'(nsat);
      end
      if (stripe_done) begin
        st[(dv_bank)*(1+1) +: (1+1)] <= 2'd0;
        dv_bank <= !dv_bank;
        dv_p    <= '0;
        if (dv_last_stripe) begin
          dv_p0 <= '0;
          dv_g  <= dv_g + 14'd1;
          if (dv_g == groups_m1) dv_run <= 1'b0;
        end else dv_p0 <= dv_p0 + (wino ? 27'(dv_len_w) : 27'(dv_len_d));
      end
    end

  assign bank_free = {st[(1)*(1+1) +: (1+1)] == 2'd0, st[(0)*(1+1) +: (1+1)] == 2'd0};
  assign bank_full = {st[(1)*(1+1) +: (1+1)] == 2'd2, st[(0)*(1+1) +: (1+1)] == 2'd2};
  wire unused = &{1'b0, bank_full};
endmodule
