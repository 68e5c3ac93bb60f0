// CDP core: the CDP register block, the LUT tables, layer control, the LRN datapath of
// pdp_cdp_bdma_rubik_glb.md §2 (integer modes) and the write DMA.
//
//   atoms from CDP_RDMA ─► input converter (all lanes of an atom per cycle, §2.5)
//   ─► converted-atom ring (XBUF atoms; the atom of the next surface is BLOCK atoms ahead)
//   ─► P0 window: TP lanes per cycle, squares and sums across atom/surface edges (§2.6)
//   ─► P1 LUT index of both tables and the table choice (§2.7), LUT counters
//   ─► P2 table read, interpolation / extrapolation, multiply and output converter (§2.8)
//   ─► output atom assembly ─► dla_cdp_wdma (§6.2) ─► done, interrupt at the last write's ack
//
// fp16 (v1, §2.11): the ring holds fp17 lanes, P0 squares and sums in fp32, P2 uses
// dla_cdp_fp_out. The stages advance together on `adv` (the write buffer has room or no atom is complete).
// Geometry comes from CDP_RDMA's consumer group and is latched at layer start.
module dla_cdp_core #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int MAX_BURST  = 16,
  parameter int BLOCK      = 8,
  parameter bit HAS_INT16  = 1'b1,
  parameter bit HAS_FP16   = 1'b1,
  parameter bit HAS_SRAM   = 1'b1,
  parameter bit OUT_SAT    = 1'b1,     // D_OUT_SATURATION counts (0: reads 0, as nv_small)
  parameter int XBUF_ATOMS = 16,       // converted-atom ring, a power of two > BLOCK
  parameter int OBUF_ATOMS = 32,
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                    clk,
  input  logic                    rstn,
  input  logic                    req_vld,
  input  logic                    req_wr,
  input  logic [9:0]              req_word,
  input  logic [31:0]             req_wdat,
  output logic [31:0]             rd_data,
  // CDP_RDMA
  input  logic                    rdma_armed,
  input  logic [12:0]             rdma_width_m1,
  input  logic [12:0]             rdma_height_m1,
  input  logic [12:0]             rdma_chan_m1,
  input  logic                    in_valid,
  output logic                    in_ready,
  input  logic [8*ATOM_BYTES-1:0] in_data,
  // DMA write client ([0] = DBB, [1] = SRAM)
  output logic [1:0]              wr_req_valid,
  input  logic [1:0]              wr_req_ready,
  output logic [ADDR_BITS-1:0]    wr_req_addr,
  output logic [LEN_BITS-1:0]     wr_req_len,
  output logic                    wr_req_cmpl,
  output logic [TAG_BITS-1:0]     wr_req_tag,
  output logic [1:0]              wr_dat_valid,
  input  logic [1:0]              wr_dat_ready,
  output logic [DATA_BITS-1:0]    wr_dat_data,
  output logic [APB-1:0]          wr_dat_mask,
  input  logic [1:0]              wr_cmpl,
  input  logic [2*TAG_BITS-1:0]   wr_cmpl_tag,
  output logic [1:0]              intr_done
);
  localparam bit HAS_16   = HAS_INT16 || HAS_FP16;
  localparam int XW       = HAS_16 ? 17 : 9;         // x' width
  localparam int DW       = 39;                      // LUT input / START width (38 + sign room)
  localparam int ATOM_SH  = $clog2(ATOM_BYTES);
  localparam int NSL8     = ATOM_BYTES / TP;         // slices per atom, int8
  localparam int NSB      = (NSL8 > 1) ? $clog2(NSL8) : 1;
  localparam int RB       = $clog2(ATOM_BYTES + 1);
  localparam int XB       = $clog2(XBUF_ATOMS);
  localparam int BB       = $clog2(BLOCK);
  localparam int AXW      = ATOM_BYTES * XW;

  // =========================================================================================
  // Registers and LUT tables
  // =========================================================================================
  logic        op_en, op_done, group, unused_producer;
  logic        lut_cfg_wr, lut_data_wr, lut_tid, lut_type;
  logic [15:0] lut_rd_entry;
  logic        le_linear, upri, opri, hpri;
  logic [7:0]  le_off, le_sel, lo_sel;
  logic [31:0] le_start_lo, le_end_lo, lo_start_lo, lo_end_lo;
  logic [5:0]  le_start_hi, le_end_hi, lo_start_hi, lo_end_hi;
  logic [15:0] le_us, le_os, lo_us, lo_os;
  logic [4:0]  le_ush, le_osh, lo_ush, lo_osh;
  logic        sqsum_bypass, mul_bypass, ram_type, nan_to_zero, perf_dma, unused_perf_lut;
  logic [31:0] dst_lo, dst_hi, dst_line, dst_surf, dout_offset, unused_cya, unused_wr_data;
  logic [1:0]  fmt, len;
  logic [15:0] din_offset, din_scale, dout_scale;
  logic [4:0]  din_shift;
  logic [5:0]  dout_shift;
  logic [31:0] cnt_nan_in, cnt_inf_in, cnt_nan_out;
  logic [31:0] cnt_sat, cnt_uflow, cnt_oflow, cnt_hybrid, cnt_le_hit, cnt_lo_hit, write_stall;
  logic [9:0]  lut_addr;

  dla_cdp_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data, .wr_data(unused_wr_data),
    .op_done, .op_en, .consumer(group), .producer(unused_producer),
    .s_lut_access_cfg_wr(lut_cfg_wr), .s_lut_access_cfg_lut_table_id(lut_tid),
    .s_lut_access_cfg_lut_access_type(lut_type), .s_lut_access_cfg_lut_addr(lut_addr),
    .s_lut_access_data_wr(lut_data_wr), .s_lut_access_data_lut_data(lut_rd_entry),
    .s_lut_cfg_lut_le_function(le_linear), .s_lut_cfg_lut_uflow_priority(upri),
    .s_lut_cfg_lut_oflow_priority(opri), .s_lut_cfg_lut_hybrid_priority(hpri),
    .s_lut_info_lut_le_index_offset(le_off), .s_lut_info_lut_le_index_select(le_sel),
    .s_lut_info_lut_lo_index_select(lo_sel),
    .s_lut_le_start_low_lut_le_start_low(le_start_lo), .s_lut_le_start_high_lut_le_start_high(le_start_hi),
    .s_lut_le_end_low_lut_le_end_low(le_end_lo), .s_lut_le_end_high_lut_le_end_high(le_end_hi),
    .s_lut_lo_start_low_lut_lo_start_low(lo_start_lo), .s_lut_lo_start_high_lut_lo_start_high(lo_start_hi),
    .s_lut_lo_end_low_lut_lo_end_low(lo_end_lo), .s_lut_lo_end_high_lut_lo_end_high(lo_end_hi),
    .s_lut_le_slope_scale_lut_le_slope_uflow_scale(le_us),
    .s_lut_le_slope_scale_lut_le_slope_oflow_scale(le_os),
    .s_lut_le_slope_shift_lut_le_slope_uflow_shift(le_ush),
    .s_lut_le_slope_shift_lut_le_slope_oflow_shift(le_osh),
    .s_lut_lo_slope_scale_lut_lo_slope_uflow_scale(lo_us),
    .s_lut_lo_slope_scale_lut_lo_slope_oflow_scale(lo_os),
    .s_lut_lo_slope_shift_lut_lo_slope_uflow_shift(lo_ush),
    .s_lut_lo_slope_shift_lut_lo_slope_oflow_shift(lo_osh),
    .d_func_bypass_sqsum_bypass(sqsum_bypass), .d_func_bypass_mul_bypass(mul_bypass),
    .d_dst_base_addr_low_dst_base_addr_low(dst_lo), .d_dst_base_addr_high_dst_base_addr_high(dst_hi),
    .d_dst_line_stride_dst_line_stride(dst_line), .d_dst_surface_stride_dst_surface_stride(dst_surf),
    .d_dst_dma_cfg_dst_ram_type(ram_type), .d_data_format_input_data_type(fmt),
    .d_nan_flush_to_zero_nan_to_zero(nan_to_zero), .d_lrn_cfg_normalz_len(len),
    .d_datin_offset_datin_offset(din_offset), .d_datin_scale_datin_scale(din_scale),
    .d_datin_shifter_datin_shifter(din_shift), .d_datout_offset_datout_offset(dout_offset),
    .d_datout_scale_datout_scale(dout_scale), .d_datout_shifter_datout_shifter(dout_shift),
    .d_nan_input_num_nan_input_num(cnt_nan_in), .d_inf_input_num_inf_input_num(cnt_inf_in),
    .d_nan_output_num_nan_output_num(cnt_nan_out),
    .d_out_saturation_out_saturation(OUT_SAT ? cnt_sat : 32'd0),
    .d_perf_enable_dma_en(perf_dma), .d_perf_enable_lut_en(unused_perf_lut),
    .d_perf_write_stall_perf_write_stall(write_stall),
    .d_perf_lut_uflow_perf_lut_uflow(cnt_uflow), .d_perf_lut_oflow_perf_lut_oflow(cnt_oflow),
    .d_perf_lut_hybrid_perf_lut_hybrid(cnt_hybrid), .d_perf_lut_le_hit_perf_lut_le_hit(cnt_le_hit),
    .d_perf_lut_lo_hit_perf_lut_lo_hit(cnt_lo_hit), .d_cya_cya(unused_cya)
  );

  logic [65*16-1:0]  lut_le;
  logic [257*16-1:0] lut_lo;
  wire lut_data_rd = req_vld && !req_wr && req_word == 10'd3;
  dla_sdp_lut_ram #(.TYPED_CLAMPED(1'b1)) u_lut (
    .clk, .rstn, .cfg_wr(lut_cfg_wr), .data_wr(lut_data_wr), .data_rd(lut_data_rd),
    .wdat(req_wdat), .rd_entry(lut_rd_entry), .le(lut_le), .lo(lut_lo));
  // Current access address for S_LUT_ACCESS_CFG read-back (same rule as the table port).
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) lut_addr <= '0;
    else if (lut_cfg_wr) lut_addr <= req_wdat[9:0];
    else if (((lut_data_wr && lut_type) || (lut_data_rd && !lut_type)) &&
             lut_addr < (lut_tid ? 10'd256 : 10'd64))
      lut_addr <= lut_addr + 10'd1;

  // =========================================================================================
  // Layer control and geometry
  // =========================================================================================
  logic        running;
  logic [12:0] width_m1, height_m1, chan_m1;
  wire  start = op_en && rdma_armed && !running;
  wire  is8   = !HAS_16 || fmt == 2'd0;
  wire  fp    = HAS_FP16 && fmt == 2'd2;
  wire [12:0] surf_m1 = is8 ? chan_m1 >> ATOM_SH : chan_m1 >> (ATOM_SH - 1);
  wire [RB-1:0] e_lanes = is8 ? RB'(ATOM_BYTES) : RB'(ATOM_BYTES / 2);
  wire [RB-1:0] last_real = is8 ? RB'(chan_m1 & 13'(ATOM_BYTES - 1)) + 1'b1
                                : RB'(chan_m1 & 13'(ATOM_BYTES / 2 - 1)) + 1'b1;
  wire [NSB-1:0] sl_last = is8 ? NSB'(NSL8 - 1) : NSB'(NSL8 / 2 - 1);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running   <= 1'b0;
      width_m1  <= '0;
      height_m1 <= '0;
      chan_m1   <= '0;
    end else begin
      if (start) begin
        running   <= 1'b1;
        width_m1  <= rdma_width_m1;
        height_m1 <= rdma_height_m1;
        chan_m1   <= rdma_chan_m1;
      end
      if (op_done) running <= 1'b0;
    end

  // =========================================================================================
  // Input converter -> converted-atom ring
  // =========================================================================================
  logic [AXW-1:0]   xr [XBUF_ATOMS];
  logic [XB-1:0]    wr_ptr, rd_ptr;
  logic [XB:0]      x_count;
  logic [AXW-1:0]   conv;
  logic [12:0]      cv_w, cv_h, cv_s;
  logic             cv_more;          // atoms of the layer still to be taken
  logic [ATOM_BYTES/2-1:0] in_nan, in_inf;
  if (!HAS_FP16) begin : g_nofp_in
    assign in_nan = '0;
    assign in_inf = '0;
    wire unused_fp_in = &{1'b0, nan_to_zero};
  end

  for (genvar l = 0; l < ATOM_BYTES; l++) begin : g_icvt
    logic signed [16:0] xin;
    if (l < ATOM_BYTES / 2) begin : g_lane16
      assign xin = is8 ? 17'($signed(in_data[8*l +: 8])) : 17'($signed(in_data[16*l +: 16]));
    end else begin : g_lane8
      assign xin = 17'($signed(in_data[8*l +: 8]));
    end
    logic [XW-1:0] xi;
    dla_cdp_icvt #(.XW(XW)) u_icvt (
      .is8, .x(xin), .offset(din_offset), .scale(din_scale), .shift(din_shift), .y(xi));
    if (HAS_FP16 && l < ATOM_BYTES / 2) begin : g_fp
      wire [15:0] raw = in_data[16*l +: 16];
      wire        nan = &raw[14:10] && |raw[9:0];
      logic [16:0] x17;
      dla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .KEEP_DENORM(1'b1)) u_w (.x((nan_to_zero && nan) ? 16'd0 : raw), .y(x17));
      assign conv[l*XW +: XW] = fp ? x17 : xi;
      assign in_nan[l] = nan;
      assign in_inf[l] = &raw[14:10] && raw[9:0] == '0;
    end else begin : g_int
      assign conv[l*XW +: XW] = xi;
    end
  end

  logic x_pop;
  assign in_ready = running && cv_more && x_count < (XB+1)'(XBUF_ATOMS);
  wire  x_push    = in_valid && in_ready;
  always_ff @(posedge clk) if (x_push) xr[wr_ptr] <= conv;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      wr_ptr  <= '0;
      rd_ptr  <= '0;
      x_count <= '0;
      cv_w    <= '0;
      cv_h    <= '0;
      cv_s    <= '0;
      cv_more <= 1'b0;
    end else begin
      if (x_push) wr_ptr <= wr_ptr + 1'b1;
      if (x_pop) rd_ptr <= rd_ptr + 1'b1;
      x_count <= x_count + (XB+1)'(x_push) - (XB+1)'(x_pop);
      if (start) begin
        cv_w    <= '0;
        cv_h    <= '0;
        cv_s    <= '0;
        cv_more <= 1'b1;
      end else if (x_push) begin          // odometer over the layer's W*H*S atoms
        cv_w <= cv_w + 13'd1;
        if (cv_w == width_m1) begin
          cv_w <= '0;
          cv_s <= cv_s + 13'd1;
          if (cv_s == surf_m1) begin
            cv_s <= '0;
            cv_h <= cv_h + 13'd1;
            if (cv_h == height_m1) cv_more <= 1'b0;
          end
        end
      end
    end

  // =========================================================================================
  // P0: window walker (row -> width block -> surface -> atom of the block -> slice)
  // =========================================================================================
  logic          adv;
  logic          wk_active; `ifdef DLA_PLANTS wire [3:0] plant_cdp /*verilator public_flat_rw*/; logic plant_cdp_tick; always_ff @(posedge clk) plant_cdp_tick <= !plant_cdp_tick; wire plant_cdp_go = plant_cdp != 4'd1 || plant_cdp_tick; `endif
  logic [12:0]   wk_h, wk_w0, wk_s;
  logic [BB:0]   wk_wi;
  logic [NSB-1:0] wk_sl;
  logic [BB:0]   blk;
  logic          last_blk;
  logic [4*XW-1:0] tails [BLOCK];

  always_comb begin
    blk      = ({1'b0, width_m1} - {1'b0, wk_w0} + 14'd1 < 14'(BLOCK)) ?
               (BB+1)'({1'b0, width_m1} - {1'b0, wk_w0} + 14'd1) : (BB+1)'(BLOCK);
    last_blk = {1'b0, wk_w0} + 14'(blk) > {1'b0, width_m1};
  end
  wire          has_next = wk_s != surf_m1;
  wire          p0_valid = wk_active && (has_next ? x_count > (XB+1)'(blk) : x_count != '0) `ifdef DLA_PLANTS && plant_cdp_go `endif;
  wire          p0_fire  = p0_valid && adv;
  wire          atom_end = p0_fire && wk_sl == sl_last;
  assign x_pop = atom_end;

  wire [AXW-1:0] cur_atom  = xr[rd_ptr];
  wire [4*XW-1:0] next_head = xr[rd_ptr + XB'(blk)][4*XW-1:0];
  wire [RB-1:0]  cur_real  = has_next ? e_lanes : last_real;
  wire [2:0]     head_real = !has_next ? 3'd0 :
                             (wk_s + 13'd1 != surf_m1 || last_real >= RB'(4)) ? 3'd4 : 3'(last_real);
  logic [4*XW-1:0] cur_tail;
  always_comb begin
    cur_tail = '0;
    for (int i = 0; i < 4; i++)
      cur_tail[i*XW +: XW] = is8 ? cur_atom[(ATOM_BYTES - 4 + i)*XW +: XW]
                                 : cur_atom[(ATOM_BYTES / 2 - 4 + i)*XW +: XW];
  end

  logic [TP*DW-1:0] w_sum;
  logic [TP*XW-1:0] w_xc;
  dla_cdp_window #(.TP(TP), .ATOM_BYTES(ATOM_BYTES), .XW(XW), .DW(DW), .NSB(NSB),
                   .HAS_FP(HAS_FP16)) u_win (
    .is8, .fp, .len, .sqsum_bypass, .slice(wk_sl), .cur(cur_atom), .cur_real,
    .head(next_head), .head_real, .tail(tails[wk_wi[BB-1:0]]), .tail_ok(wk_s != '0),
    .sum(w_sum), .xc(w_xc));

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      wk_active <= 1'b0;
      wk_h      <= '0;
      wk_w0     <= '0;
      wk_s      <= '0;
      wk_wi     <= '0;
      wk_sl     <= '0;
    end else if (start) begin
      wk_active <= 1'b1;
      wk_h      <= '0;
      wk_w0     <= '0;
      wk_s      <= '0;
      wk_wi     <= '0;
      wk_sl     <= '0;
    end else if (p0_fire) begin
      wk_sl <= wk_sl + 1'b1;
      if (wk_sl == sl_last) begin
        wk_sl <= '0;
        wk_wi <= wk_wi + 1'b1;
        if (wk_wi == blk - 1'b1) begin
          wk_wi <= '0;
          wk_s  <= wk_s + 13'd1;
          if (!has_next) begin
            wk_s <= '0;
            if (!last_blk) wk_w0 <= wk_w0 + 13'(blk);
            else begin
              wk_w0 <= '0;
              wk_h  <= wk_h + 13'd1;
              if (wk_h == height_m1) wk_active <= 1'b0;
            end
          end
        end
      end
    end
  always_ff @(posedge clk) if (atom_end) tails[wk_wi[BB-1:0]] <= cur_tail;

  // P0 -> P1 register
  logic             p1_valid, p1_last;
  logic [NSB-1:0]   p1_sl;
  logic [TP*DW-1:0] p1_sum;
  logic [TP*XW-1:0] p1_xc;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) p1_valid <= 1'b0;
    else if (start) p1_valid <= 1'b0;
    else if (adv) p1_valid <= p0_valid;
  always_ff @(posedge clk)
    if (adv) begin
      p1_last <= wk_sl == sl_last;
      p1_sl   <= wk_sl;
      p1_sum  <= w_sum;
      p1_xc   <= w_xc;
    end

  // =========================================================================================
  // P1: LUT index, table choice, counters
  // =========================================================================================
  logic [DW-1:0] le_start, le_end, lo_start, lo_end, le_cmp, lo_cmp, le_uanchor;
  logic [7:0]    le_sel_x, lo_sel_x;
  always_comb begin
    le_start = DW'($signed({le_start_hi, le_start_lo}));
    le_end   = DW'($signed({le_end_hi, le_end_lo}));
    lo_start = DW'($signed({lo_start_hi, lo_start_lo}));
    lo_end   = DW'($signed({lo_end_hi, lo_end_lo}));
    le_cmp   = fp ? DW'(le_start_lo) : is8 ? DW'($signed(le_start_lo[21:0])) : le_start;
    lo_cmp   = fp ? DW'(lo_start_lo) : is8 ? DW'($signed(lo_start_lo[21:0])) : lo_start;
    // exponential LE underflow anchor START + 2^IOFF (IOFF >= 0), modulo 2^39
    le_uanchor = le_start;
    if (!le_linear && !le_off[7])
      le_uanchor = le_start + ((le_off < 8'd39) ? (DW'(1) << le_off) : '0);
    le_sel_x = fp ? le_sel : is8 ? 8'($signed(le_sel[5:0])) : 8'($signed(le_sel[6:0]));
    lo_sel_x = fp ? lo_sel : is8 ? 8'($signed(lo_sel[5:0])) : 8'($signed(lo_sel[6:0]));
  end

  logic [TP*2-1:0]  c_le, c_lo, c_cls;
  logic [TP*9-1:0]  c_idx;
  logic [TP*16-1:0] c_frac;
  logic [TP-1:0]    c_sel;
  for (genvar t = 0; t < TP; t++) begin : g_idx
    logic [8:0]  le_idx, lo_idx;
    logic [34:0] le_frac, lo_frac, frac;
    dla_lut_table_index #(.DW(DW), .LAST(64), .EXP_CAPABLE(1'b1), .HAS_FP(HAS_FP16)) u_le (
      .fp, .exp_mode(!le_linear), .x(p1_sum[t*DW +: DW]), .start(le_cmp), .sel(le_sel_x),
      .off(le_off), .cls(c_le[2*t +: 2]), .idx(le_idx), .frac(le_frac));
    dla_lut_table_index #(.DW(DW), .LAST(256), .EXP_CAPABLE(1'b0), .HAS_FP(HAS_FP16)) u_lo (
      .fp, .exp_mode(1'b0), .x(p1_sum[t*DW +: DW]), .start(lo_cmp), .sel(lo_sel_x),
      .off(8'd0), .cls(c_lo[2*t +: 2]), .idx(lo_idx), .frac(lo_frac));
    dla_lut_select u_sel (
      .le_cls(c_le[2*t +: 2]), .le_idx, .le_frac, .lo_cls(c_lo[2*t +: 2]), .lo_idx, .lo_frac,
      .uflow_pri(upri), .oflow_pri(opri), .hybrid_pri(hpri),
      .sel_lo(c_sel[t]), .cls(c_cls[2*t +: 2]), .idx(c_idx[9*t +: 9]), .frac(frac));
    assign c_frac[16*t +: 16] = frac[34:19];
    wire unused_frac = &{1'b0, frac[18:0]};
  end

  // per-slice class counts (§2.10): HYBRID = both hit, or one under- and one overflow
  localparam int CW = $clog2(TP + 1);
  logic [CW-1:0] n_uf, n_of, n_hy, n_le, n_lo;
  always_comb begin
    n_uf = '0; n_of = '0; n_hy = '0; n_le = '0; n_lo = '0;
    for (int t = 0; t < TP; t++) begin
      logic lh, oh;
      lh = c_le[2*t +: 2] == 2'd2;
      oh = c_lo[2*t +: 2] == 2'd2;
      if (lh && oh)                             n_hy = n_hy + 1'b1;
      else if (lh)                              n_le = n_le + 1'b1;
      else if (oh)                              n_lo = n_lo + 1'b1;
      else if (c_le[2*t +: 2] != c_lo[2*t +: 2]) n_hy = n_hy + 1'b1;
      else if (c_le[2*t +: 2] == 2'd0)          n_uf = n_uf + 1'b1;
      else                                      n_of = n_of + 1'b1;
    end
  end

  // P1 -> P2 register
  logic              p2_valid, p2_last;
  logic [NSB-1:0]    p2_sl;
  logic [TP*DW-1:0]  p2_sum;
  logic [TP*XW-1:0]  p2_xc;
  logic [TP*2-1:0]   p2_cls;
  logic [TP*9-1:0]   p2_idx;
  logic [TP*16-1:0]  p2_frac;
  logic [TP-1:0]     p2_sel;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) p2_valid <= 1'b0;
    else if (start) p2_valid <= 1'b0;
    else if (adv) p2_valid <= p1_valid;
  always_ff @(posedge clk)
    if (adv) begin
      p2_last <= p1_last;
      p2_sl   <= p1_sl;
      p2_sum  <= p1_sum;
      p2_xc   <= p1_xc;
      p2_cls  <= c_cls;
      p2_idx  <= c_idx;
      p2_frac <= c_frac;
      p2_sel  <= c_sel;
    end

  // =========================================================================================
  // P2: table read, interpolation, multiply, output converter
  // =========================================================================================
  logic [TP*16-1:0] o_val, o_int, o_fp;
  logic [TP-1:0]    o_sat, o_nan;
  // fp16 flow anchor of each table choice; exponential LE underflow adds 2^IOFF (exponent
  // field IOFF + 127, 8-bit wrap) with add32
  logic [31:0] le_uanchor_fp;
  dla_fp_add #(.E(8), .M(23)) u_fbias (.a(le_start_lo), .b({1'b0, le_off + 8'd127, 23'd0}), .y(le_uanchor_fp));
  for (genvar t = 0; t < TP; t++) begin : g_out
    logic [8:0]    idx, idx1;
    logic [15:0]   y0, y1;
    logic [DW-1:0] y;
    logic signed [15:0] lr;
    always_comb begin
      idx  = p2_idx[9*t +: 9];
      idx1 = idx + 9'd1;
      if (p2_sel[t]) begin
        y0 = lut_lo[idx*16 +: 16];
        y1 = (idx1 <= 9'd256) ? lut_lo[idx1*16 +: 16] : 16'd0;
      end else begin
        y0 = (idx <= 9'd64) ? lut_le[idx[6:0]*16 +: 16] : 16'd0;
        y1 = (idx1 <= 9'd64) ? lut_le[idx1[6:0]*16 +: 16] : 16'd0;
      end
    end
    dla_lut_interp #(.DW(DW), .HAS_FP(1'b0), .HIT_Q16(1'b1)) u_interp (
      .fp(1'b0), .sel_lo(p2_sel[t]), .cls(p2_cls[2*t +: 2]), .frac({p2_frac[16*t +: 16], 19'd0}),
      .x(p2_sum[t*DW +: DW]), .y0, .y1, .le_exp(1'b0), .le_off(le_off),
      .le_start(le_uanchor), .le_end, .lo_start, .lo_end,
      .le_uflow_scale(le_us), .le_oflow_scale(le_os), .le_uflow_shift(le_ush), .le_oflow_shift(le_osh),
      .lo_uflow_scale(lo_us), .lo_oflow_scale(lo_os), .lo_uflow_shift(lo_ush), .lo_oflow_shift(lo_osh),
      .y);
    always_comb begin
      if ($signed(y) > $signed(DW'(32767)))       lr = 16'sh7fff;
      else if ($signed(y) < $signed(-(DW'(32768)))) lr = -16'sh8000;
      else                                        lr = 16'(y);
    end
    dla_cdp_ocvt #(.XW(XW)) u_ocvt (
      .is8, .mul_bypass, .lr, .xc(p2_xc[t*XW +: XW]), .offset(dout_offset), .scale(dout_scale),
      .shift(dout_shift), .y(o_int[16*t +: 16]), .sat(o_sat[t]));
    if (HAS_FP16) begin : g_fp
      logic        ovf;
      logic [31:0] anchor;
      logic [15:0] k;
      always_comb begin
        ovf    = p2_cls[2*t +: 2] == 2'd1;
        anchor = p2_sel[t] ? (ovf ? lo_end_lo : lo_start_lo)
                           : (ovf ? le_end_lo : le_linear ? le_start_lo : le_uanchor_fp);
        k      = p2_sel[t] ? (ovf ? lo_os : lo_us) : (ovf ? le_os : le_us);
      end
      dla_cdp_fp_out u_fp (
        .hit(p2_cls[2*t +: 2] == 2'd2), .frac(p2_frac[16*t +: 16]), .s(p2_sum[t*DW +: 32]),
        .y0, .y1, .anchor, .scale(k), .x17(p2_xc[t*XW +: 17]), .mul_bypass,
        .y(o_fp[16*t +: 16]), .nan(o_nan[t]));
    end else begin : g_nofp
      assign o_fp[16*t +: 16] = '0;
      assign o_nan[t] = 1'b0;
    end
  end
  assign o_val = fp ? o_fp : o_int;
  if (!HAS_FP16) begin : g_nofp_out
    wire unused_fp_out = &{1'b0, o_fp, le_uanchor_fp};
  end

  // =========================================================================================
  // Output atom assembly -> write DMA
  // =========================================================================================
  logic [8*ATOM_BYTES-1:0] oatom_q, oatom;
  logic                    a_ready, wdma_done;
  always_comb begin
    oatom = oatom_q;
    for (int t = 0; t < TP; t++) begin
      if (is8) oatom[(32'(p2_sl) * TP + t) * 8 +: 8] = o_val[16*t +: 8];
      else     oatom[((32'(p2_sl) * TP + t) % (ATOM_BYTES / 2)) * 16 +: 16] = o_val[16*t +: 16];
    end
  end
  wire a_valid = p2_valid && p2_last;
  assign adv = !a_valid || a_ready;
  always_ff @(posedge clk) if (p2_valid && adv) oatom_q <= oatom;

  /* verilator lint_off UNUSEDSIGNAL */
  wire [63:0] dst64 = {dst_hi, dst_lo};
  /* verilator lint_on UNUSEDSIGNAL */
  dla_cdp_wdma #(
    .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS), .ADDR_BITS(ADDR_BITS), .LEN_BITS(LEN_BITS),
    .TAG_BITS(TAG_BITS), .MAX_BURST(MAX_BURST), .BLOCK(BLOCK), .HAS_SRAM(HAS_SRAM),
    .BUF_ATOMS(OBUF_ATOMS)
  ) u_wdma (
    .clk, .rstn, .start, .group, .dst(dst64[ADDR_BITS-1:0]), .line_stride(dst_line),
    .surf_stride(dst_surf), .ram_type, .width_m1, .height_m1, .surf_m1, .perf_en(perf_dma),
    .a_valid, .a_ready, .a_data(oatom),
    .wr_req_valid, .wr_req_ready, .wr_req_addr, .wr_req_len, .wr_req_cmpl, .wr_req_tag,
    .wr_dat_valid, .wr_dat_ready, .wr_dat_data, .wr_dat_mask,
    .done(wdma_done), .write_stall
  );
  assign op_done = running && wdma_done;

  // =========================================================================================
  // Counters (32-bit saturating, cleared at start, latched by the register block at op_done)
  // =========================================================================================
  function automatic logic [31:0] sat_add(input logic [31:0] c, input logic [CW-1:0] n);
    logic [32:0] t;
    t = {1'b0, c} + 33'(n);
    sat_add = t[32] ? 32'hffffffff : t[31:0];
  endfunction
  localparam int IW = $clog2(ATOM_BYTES / 2 + 1);
  logic [CW-1:0] n_sat, n_nan_out;
  logic [IW-1:0] n_nan_in, n_inf_in;
  always_comb begin
    n_sat = '0;
    n_nan_out = '0;
    for (int t = 0; t < TP; t++) begin
      n_sat     = n_sat + CW'(o_sat[t] && !fp);
      n_nan_out = n_nan_out + CW'(o_nan[t] && fp);
    end
    n_nan_in = '0;
    n_inf_in = '0;
    for (int l = 0; l < ATOM_BYTES / 2; l++) begin
      n_nan_in = n_nan_in + IW'(in_nan[l] && fp);
      n_inf_in = n_inf_in + IW'(in_inf[l] && fp);
    end
  end
  function automatic logic [31:0] sat_addw(input logic [31:0] c, input logic [IW-1:0] n);
    logic [32:0] t;
    t = {1'b0, c} + 33'(n);
    sat_addw = t[32] ? 32'hffffffff : t[31:0];
  endfunction
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      cnt_sat <= '0; cnt_uflow <= '0; cnt_oflow <= '0; cnt_hybrid <= '0;
      cnt_le_hit <= '0; cnt_lo_hit <= '0;
      cnt_nan_in <= '0; cnt_inf_in <= '0; cnt_nan_out <= '0;
    end else if (start) begin
      cnt_sat <= '0; cnt_uflow <= '0; cnt_oflow <= '0; cnt_hybrid <= '0;
      cnt_le_hit <= '0; cnt_lo_hit <= '0;
      cnt_nan_in <= '0; cnt_inf_in <= '0; cnt_nan_out <= '0;
    end else begin
      if (x_push) begin
        cnt_nan_in <= sat_addw(cnt_nan_in, n_nan_in);
        cnt_inf_in <= sat_addw(cnt_inf_in, n_inf_in);
      end
      if (p2_valid && adv) cnt_nan_out <= sat_add(cnt_nan_out, n_nan_out);
      if (p1_valid && adv) begin
        cnt_uflow  <= sat_add(cnt_uflow, n_uf);
        cnt_oflow  <= sat_add(cnt_oflow, n_of);
        cnt_hybrid <= sat_add(cnt_hybrid, n_hy);
        cnt_le_hit <= sat_add(cnt_le_hit, n_le);
        cnt_lo_hit <= sat_add(cnt_lo_hit, n_lo);
      end
      if (p2_valid && adv) cnt_sat <= sat_add(cnt_sat, n_sat);
    end

  // =========================================================================================
  // Interrupt: acknowledgement of the layer's last write (tag {1, group})
  // =========================================================================================
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) intr_done <= '0;
    else begin
      intr_done <= '0;
      for (int p = 0; p < 2; p++)
        if (wr_cmpl[p] && wr_cmpl_tag[p*TAG_BITS + 1]) intr_done[wr_cmpl_tag[p*TAG_BITS]] <= 1'b1;
    end
  wire unused_tag = &{1'b0, wr_cmpl_tag};
endmodule
