// The convolution pipeline (docs/conv-rtl.md): CDMA -> CBUF -> CSC -> CMAC_A/B -> CACC ->
// SDP's flying input, and the layer controller that owns the CBUF state between layers.
//
// A layer starts when the CONSUMER groups of all five units are armed and no layer runs, and
// ends when CACC has delivered its last beat and CDMA has fetched every weight byte; then all
// five units complete their group together (CDMA raises DAT and WT done, CACC done).
// Between layers the controller keeps: the input slices left in the data ring (position,
// count, whether the layer kept them all) and the setup they belong to (input kind, bank
// split, precision), which decide full, partial or no reuse for the next layer; weights kept
// with SKIP_WEIGHT_RLS stay at the start of the weight region.
module dla_conv #(
  parameter int ADDR_BITS   = 32,
  parameter int DATA_BITS   = 64,
  parameter int ATOM_BYTES  = 8,
  parameter int AC          = 8,
  parameter int AK          = 8,
  parameter int BANKS       = 32,
  parameter int DEPTH       = 512,
  parameter int ENTRY_BYTES = 8,
  parameter int TP          = 1,
  parameter bit SAT_WRAP    = 1'b1,
  parameter bit PREC16      = 1'b0,     // int16/fp16 layers (2-byte elements)
  parameter bit HAS_SRAM    = 1'b0,     // CDMA may read the secondary (SRAM) port
  parameter bit HAS_WMB     = 1'b0,     // weight compression (mask bits in the last bank)
  parameter bit HAS_BATCH   = 1'b0,     // batching (direct mode)
  parameter bit HAS_WINO    = 1'b0,     // Winograd convolution (AC = 64)
  parameter bit HAS_FP      = 1'b0,     // fp16 layers (needs PREC16)
  parameter int LEN_BITS    = 16,
  parameter int TAG_BITS    = 4,
  parameter int SL          = 32,
  parameter int APB         = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                    clk,
  input  logic                    rstn,
  // CSB windows
  input  logic                    cdma_req_vld,
  input  logic                    csc_req_vld,
  input  logic                    cmac_a_req_vld,
  input  logic                    cmac_b_req_vld,
  input  logic                    cacc_req_vld,
  input  logic                    req_wr,
  input  logic [9:0]              req_word,
  input  logic [31:0]             req_wdat,
  output logic [31:0]             rd_data,
  // done pulses per group: CDMA data, CDMA weights, CACC
  output logic [1:0]              cdma_dat_done,
  output logic [1:0]              cdma_wt_done,
  output logic [1:0]              cacc_done,
  // DMA read clients [0] data, [1] weights; valid/ready/returns {SRAM [3:2], DBB [1:0]},
  // one request payload per client for both ports (dla_cdma)
  output logic [3:0]              rd_req_valid,
  input  logic [3:0]              rd_req_ready,
  output logic [2*ADDR_BITS-1:0]  rd_req_addr,
  output logic [2*LEN_BITS-1:0]   rd_req_len,
  output logic [2*TAG_BITS-1:0]   rd_req_tag,
  input  logic [3:0]              rd_dat_valid,
  input  logic [2*DATA_BITS-1:0]  rd_dat_data,
  input  logic [2*APB-1:0]        rd_dat_mask,
  input  logic [2*TAG_BITS-1:0]   rd_dat_tag,
  // SDP flying input
  output logic                    fly_valid,
  input  logic                    fly_ready,
  output logic [TP*32-1:0]        fly_data
);
  localparam int EA  = $clog2(BANKS * DEPTH);
  localparam int SLB = $clog2(SL);
  localparam int AKB = $clog2(AK);
  localparam int LW  = PREC16 ? 16 : 8;          // MAC lane width
  localparam int PW  = 2 * LW + $clog2(AC);
  localparam int EB  = ENTRY_BYTES * 8;
  localparam int NRD = HAS_WMB ? 3 : 2;          // CBUF read ports

  logic [31:0] rd_cdma, rd_csc, rd_cmac_a, rd_cmac_b, rd_cacc;
  assign rd_data = rd_cdma | rd_csc | rd_cmac_a | rd_cmac_b | rd_cacc;

  logic en_cdma, en_csc, en_cmac_a, en_cmac_b, en_cacc;
  logic start, done, running, group, layer_end, full_reuse_q;

  // ---- CSC's view of the layer (CDMA holds the same values; the rules require it) ---------
  logic        image, data_reuse, weight_reuse, skip_data_rls, skip_weight_rls, conv_mode;
  logic [11:0] rls_slices;
  logic [4:0]  data_bank, weight_bank;
  logic [1:0]  proc_prec;
  logic [13:0] slices;
  logic [EA:0] eps_p1;
  wire  [EA:0] data_ring = (EA+1)'((32'(data_bank) + 32'd1) * 32'(DEPTH));
  wire  [EA-1:0] wt_first = EA'(data_ring);
  wire  [EA:0] wt_ring   = (EA+1)'((32'(weight_bank) + 32'd1) * 32'(DEPTH));
  // compressed layers: the weight mask bits are a ring over the last bank
  wire  [EA-1:0] wmb_first = EA'((BANKS - 1) * DEPTH);
  wire  [EA:0] wmb_ring  = (EA+1)'(DEPTH);

  // ---- CBUF state between layers ----------------------------------------------------------
  logic          has_data, kept_all;
  logic [13:0]   kept;
  logic [EA-1:0] data_start;
  logic          k_image, k_mode;
  logic [4:0]    k_dbank, k_wbank;
  logic [1:0]    k_proc;

  wire same_setup = has_data && k_image == image && k_mode == conv_mode && k_dbank == data_bank &&
                    k_wbank == weight_bank && k_proc == proc_prec;
  wire keep       = same_setup && data_reuse;
  wire [13:0]   kept_now   = keep ? kept : 14'd0;
  wire [EA-1:0] start_now  = keep ? data_start : '0;
  wire          full_reuse = keep && kept_all;
  logic [EA+14:0] base_sum;
  always_comb begin
    base_sum = (EA+15)'(start_now) + (EA+15)'(kept_now) * (EA+15)'(eps_p1);
    if (base_sum >= (EA+15)'(data_ring)) base_sum = base_sum - (EA+15)'(data_ring);
  end

  assign start = en_cdma && en_csc && en_cmac_a && en_cmac_b && en_cacc && !running;

  logic [13:0]   l_kept;
  logic [EA-1:0] l_start;
  logic          cacc_end, fetch_done, data_fetched, wt_fetched, dat_told, wt_told;
  logic [13:0]   rows_done;
  wire  [13:0]   rows_avail = l_kept + rows_done;

  // release at the end of the layer: the oldest RLS_SLICES + 1 slices (or none)
  wire  [13:0] rel = skip_data_rls ? 14'd0 :
                     (14'(rls_slices) + 14'd1 < slices) ? 14'(rls_slices) + 14'd1 : slices;
  logic [EA+14:0] rel_sum;
  always_comb begin
    rel_sum = (EA+15)'(l_start) + (EA+15)'(rel) * (EA+15)'(eps_p1);
    if (rel_sum >= (EA+15)'(data_ring)) rel_sum = rel_sum - (EA+15)'(data_ring);
  end

  assign done = running && cacc_end && fetch_done;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running <= 1'b0; group <= 1'b0; cacc_end <= 1'b0;
      has_data <= 1'b0; kept_all <= 1'b0; kept <= '0; data_start <= '0;
      k_image <= 1'b0; k_mode <= 1'b0; k_dbank <= '0; k_wbank <= '0; k_proc <= '0;
      l_kept <= '0; l_start <= '0;
    end else begin
      if (start) begin
        running  <= 1'b1;
        cacc_end <= 1'b0;
        l_kept   <= kept_now;
        l_start  <= start_now;
      end
      if (layer_end) cacc_end <= 1'b1;
      if (done) begin
        running    <= 1'b0;
        group      <= !group;
        kept       <= slices - rel;
        kept_all   <= skip_data_rls;
        has_data   <= slices != rel;
        data_start <= EA'(rel_sum);
        k_image    <= image;
        k_mode     <= conv_mode;
        k_dbank    <= data_bank;
        k_wbank    <= weight_bank;
        k_proc     <= proc_prec;
      end
    end

  // Weights kept with SKIP_WEIGHT_RLS stay where they are (the weight ring always starts at
  // its first entry), so WEIGHT_REUSE needs no state here.
  wire unused_skip_weight_rls = skip_weight_rls;
  // Done interrupts as separate events, as software sees them on NVDLA: CDMA_DAT when the
  // input is in the CBUF, CDMA_WT when every weight byte is, CACC with the layer's end (the
  // register groups of all five units still complete together at the end).
  wire dat_evt = running && data_fetched && !dat_told;
  wire wt_evt  = running && wt_fetched && !wt_told;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      dat_told <= 1'b0;
      wt_told  <= 1'b0;
    end else if (start) begin
      dat_told <= 1'b0;
      wt_told  <= 1'b0;
    end else begin
      if (dat_evt) dat_told <= 1'b1;
      if (wt_evt)  wt_told  <= 1'b1;
    end
  assign cdma_dat_done = {dat_evt && group, dat_evt && !group};
  assign cdma_wt_done  = {wt_evt && group, wt_evt && !group};
  assign cacc_done     = {done && group, done && !group};

  // ---- CBUF -------------------------------------------------------------------------------
  logic          dw_en, ww_en;
  logic [EA-1:0] dw_addr0, dw_addr1, ww_addr0, ww_addr1;
  logic [2*EB-1:0] dw_data, ww_data;
  logic [2*ENTRY_BYTES-1:0] dw_mask, ww_mask;
  logic [NRD-1:0] r_en;
  logic [NRD*EA-1:0] r_addr0, r_addr1;
  logic [NRD*2*EB-1:0] r_data;
  dla_cbuf #(.BANKS(BANKS), .DEPTH(DEPTH), .ENTRY_BYTES(ENTRY_BYTES), .NRD(NRD)) u_cbuf (
    .clk, .w_en({ww_en, dw_en}), .w_addr0({ww_addr0, dw_addr0}), .w_addr1({ww_addr1, dw_addr1}),
    .w_data({ww_data, dw_data}),
    .w_mask({ww_mask, dw_mask}), .r_en, .r_addr0, .r_addr1, .r_data
  );

  // ---- CDMA -------------------------------------------------------------------------------
  logic [31:0] wt_released, wt_bytes, wmb_released, wmb_bytes_in;
  logic [2:0]  wino_sx_m1;                         // CDMA's Winograd folding, for CSC's reads
  logic [12:0] wino_surf_m1;
  logic [1:0]  p_o;                                // Winograd: the tile output CMAC gives out
  dla_cdma #(
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ENTRY_BYTES(ENTRY_BYTES), .EA(EA), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
    .PREC16(PREC16), .HAS_SRAM(HAS_SRAM), .HAS_WMB(HAS_WMB), .HAS_BATCH(HAS_BATCH),
    .HAS_WINO(HAS_WINO), .HAS_FP(HAS_FP), .AK(AK)
  ) u_cdma (
    .clk, .rstn, .req_vld(cdma_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_cdma),
    .op_en(en_cdma), .op_done(done),
    .start, .fetch_data(!full_reuse), .fetch_weights(!weight_reuse),
    .slice_base0(EA'(base_sum)), .data_ring, .wt_first, .wt_ring, .wt_released,
    .wmb_first, .wmb_ring, .wmb_released, .wmb_bytes_in,
    .rows_done, .wt_bytes, .fetch_done, .data_fetched, .wt_fetched,
    .dw_en, .dw_addr0, .dw_addr1, .dw_data, .dw_mask,
    .ww_en, .ww_addr0, .ww_addr1, .ww_data, .ww_mask,
    .rd_req_valid, .rd_req_ready, .rd_req_addr, .rd_req_len, .rd_req_tag,
    .rd_dat_valid, .rd_dat_data, .rd_dat_mask, .rd_dat_tag,
    .wino_sx_m1, .wino_surf_m1
  );

  // ---- CSC --------------------------------------------------------------------------------
  logic [1:0]           bank_free, stripe_start;
  logic                 wl_valid, wl_slot, wl_pair, mi_valid, mi_slot, mi_bank, mi_first, mi_stripe_end;
  logic [AKB-1:0]       wl_kernel;
  logic [AC*LW-1:0]     wl_data, wl_data2, mi_data;
  logic [SLB-1:0]       mi_pix;
  // two int8 kernels a weight load where an entry holds two chunks of AC bytes (v1)
  localparam bit WL2 = 2 * AC <= ENTRY_BYTES;
  dla_csc #(
    .AC(AC), .WL2(WL2), .AK(AK), .ATOM_BYTES(ATOM_BYTES), .ENTRY_BYTES(ENTRY_BYTES), .PREC16(PREC16),
    .HAS_WMB(HAS_WMB), .HAS_BATCH(HAS_BATCH), .HAS_WINO(HAS_WINO), .HAS_FP(HAS_FP), .EA(EA), .SL(SL)
  ) u_csc (
    .clk, .rstn, .req_vld(csc_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_csc),
    .op_en(en_csc), .op_done(done),
    .image, .data_reuse, .weight_reuse, .skip_data_rls, .skip_weight_rls, .rls_slices,
    .data_bank, .weight_bank, .proc_prec, .conv_mode, .slices, .eps_p1,
    .start, .data_start(l_start), .data_ring, .wt_first, .wt_ring,
    .rows_avail(full_reuse_q ? l_kept : rows_avail), .wt_bytes, .wt_released,
    .wmb_first, .wmb_ring, .wmb_bytes_in, .wmb_released,
    .r_en, .r_addr0, .r_addr1, .r_data,
    .bank_free, .stripe_start,
    .wl_valid, .wl_slot, .wl_kernel, .wl_data, .wl_pair, .wl_data2,
    .mi_valid, .mi_slot, .mi_data, .mi_pix, .mi_bank, .mi_first, .mi_stripe_end,
    .wino_sx_m1, .wino_surf_m1
  );
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) full_reuse_q <= 1'b0;
    else if (start) full_reuse_q <= full_reuse;

  // ---- CMAC -------------------------------------------------------------------------------
  logic [AK/2*PW-1:0] part_a, part_b;
  logic [AK/2*6-1:0]  pexp_a;                    // fp16 exponents (CMAC_A: fp16 kernels)
  /* verilator lint_off UNUSEDSIGNAL */           // CMAC_B has no fp16 cells
  logic [AK/2*6-1:0]  pexp_b;
  /* verilator lint_on UNUSEDSIGNAL */
  dla_cmac #(.AC(AC), .AK(AK), .HALF(0), .LW(LW), .PW(PW), .HAS_WINO(HAS_WINO), .HAS_FP(HAS_FP),
    .WL2(WL2)) u_cmac_a (
    .clk, .rstn, .req_vld(cmac_a_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_cmac_a),
    .op_en(en_cmac_a), .op_done(done), .wl_valid, .wl_slot, .wl_kernel, .wl_data, .wl_pair, .wl_data2,
    .mi_valid, .mi_slot, .mi_data, .wsel(p_o), .partial(part_a), .pexp(pexp_a)
  );
  dla_cmac #(.AC(AC), .AK(AK), .HALF(1), .LW(LW), .PW(PW), .HAS_WINO(HAS_WINO), .HAS_FP(HAS_FP),
    .WL2(WL2)) u_cmac_b (
    .clk, .rstn, .req_vld(cmac_b_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_cmac_b),
    .op_en(en_cmac_b), .op_done(done), .wl_valid, .wl_slot, .wl_kernel, .wl_data, .wl_pair, .wl_data2,
    .mi_valid, .mi_slot, .mi_data, .wsel(p_o), .partial(part_b), .pexp(pexp_b)
  );
  // the operation's place, alongside CMAC's register stage; a Winograd operation gives four
  // partials (the tile's outputs), one a clock, to atoms 4 t + o of the stripe
  wire            wino_l = HAS_WINO && conv_mode && !image;
  logic           p_valid, p_bank, p_first, p_stripe_end, p_wend;
  logic [SLB-1:0] p_tile;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      p_valid <= 1'b0; p_bank <= 1'b0; p_first <= 1'b0; p_stripe_end <= 1'b0; p_tile <= '0;
      p_o <= '0; p_wend <= 1'b0;
    end else if (mi_valid) begin
      p_valid      <= 1'b1;
      p_bank       <= mi_bank;
      p_first      <= mi_first;
      p_stripe_end <= mi_stripe_end && !wino_l;
      p_wend       <= mi_stripe_end;
      p_tile       <= mi_pix;
      p_o          <= '0;
    end else if (wino_l && p_valid && p_o != 2'd3) begin
      p_o          <= p_o + 2'd1;
      p_stripe_end <= p_wend && p_o == 2'd2;
    end else begin
      p_valid      <= 1'b0;
      p_stripe_end <= 1'b0;
    end
  wire [SLB-1:0] p_pix = wino_l ? SLB'({p_tile, p_o}) : p_tile;

  // ---- CACC -------------------------------------------------------------------------------
  dla_cacc #(.AK(AK), .SL(SL), .PW(PW), .TP(TP), .SAT_WRAP(SAT_WRAP), .PREC16(PREC16),
             .HAS_BATCH(HAS_BATCH), .HAS_WINO(HAS_WINO), .HAS_FP(HAS_FP)) u_cacc (
    .clk, .rstn, .req_vld(cacc_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(rd_cacc),
    .op_en(en_cacc), .op_done(done), .start,
    .bank_free, .stripe_start,
    .p_valid, .p_data({part_b, part_a}), .p_exp(pexp_a), .p_pix, .p_bank, .p_first, .p_stripe_end,
    .fly_valid, .fly_ready, .fly_data, .layer_end
  );
endmodule
