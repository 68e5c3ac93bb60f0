// SDP + SDP_RDMA (sdp.md): register blocks, LUT tables, layer control, the four read streams
// (main input and BS/BN/EW operands), the feeder that cuts atoms into TP-element slices, the
// datapath, output-atom assembly, statistics and the write DMA. See docs/sdp-rtl.md.
//
// Input: memory (FLYING_MODE = OFF) through stream 0, or the flying port `fly_*` (one slice of
// TP 32-bit elements per beat, in the order surface -> line -> w -> slice; unused until the
// convolution pipeline exists). Output: memory, or the PDP port `pdp_*` (one output atom per
// beat, memory layout) when OUTPUT_DST = PDP; nothing in EQL mode.
module dla_sdp #(
  parameter int ADDR_BITS  = 64,
  parameter int DATA_BITS  = 512,
  parameter int ATOM_BYTES = 32,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int TP         = 16,      // elements per cycle
  parameter bit HAS_SRAM   = 1'b1,
  parameter bit HAS_FP     = 1'b1,
  parameter bit HAS_BS     = 1'b1,
  parameter bit HAS_BN     = 1'b1,
  parameter bit HAS_EW     = 1'b1,
  parameter bit HAS_LUT    = 1'b1,
  parameter bit SAT_RANGE  = 1'b0,    // saturation-flag rule: 0 margin (v1), 1 range (nv_small)
  parameter bit HAS_BATCH  = 1'b0,    // batched convolution input (flying mode)
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                      clk,
  input  logic                      rstn,
  // CSB (see docs/rtl.md): the two windows share the request fields
  input  logic                      rdma_req_vld,
  input  logic                      sdp_req_vld,
  input  logic                      req_wr,
  input  logic [9:0]                req_word,
  input  logic [31:0]               req_wdat,
  output logic [31:0]               rd_data,
  output logic [1:0]                done,          // S_INTR_STATUS SDP_DONE_STATUS0/1
  // read clients: streams 0 main, 1 BS, 2 BN, 3 EW, on DBB (MC) and SRAM (CV)
  output logic [3:0]                dbb_rd_req_valid,
  input  logic [3:0]                dbb_rd_req_ready,
  output logic [4*ADDR_BITS-1:0]    dbb_rd_req_addr,
  output logic [4*LEN_BITS-1:0]     dbb_rd_req_len,
  input  logic [3:0]                dbb_rd_dat_valid,
  input  logic [DATA_BITS-1:0]      dbb_rd_dat_data,
  input  logic [APB-1:0]            dbb_rd_dat_mask,
  output logic [3:0]                sram_rd_req_valid,
  input  logic [3:0]                sram_rd_req_ready,
  output logic [4*ADDR_BITS-1:0]    sram_rd_req_addr,
  output logic [4*LEN_BITS-1:0]     sram_rd_req_len,
  input  logic [3:0]                sram_rd_dat_valid,
  input  logic [DATA_BITS-1:0]      sram_rd_dat_data,
  input  logic [APB-1:0]            sram_rd_dat_mask,
  // write client (one per port)
  output logic [1:0]                wr_req_valid,      // [0] DBB, [1] SRAM
  input  logic [1:0]                wr_req_ready,
  output logic [ADDR_BITS-1:0]      wr_req_addr,
  output logic [LEN_BITS-1:0]       wr_req_len,
  output logic [1:0]                wr_dat_valid,
  input  logic [1:0]                wr_dat_ready,
  output logic [DATA_BITS-1:0]      wr_dat_data,
  output logic [APB-1:0]            wr_dat_mask,
  input  logic [1:0]                wr_cmpl,
  // flying input from the convolution accumulator (FLYING_MODE = ON)
  input  logic                      fly_valid,
  output logic                      fly_ready,
  input  logic [TP*32-1:0]          fly_data,
  // on-the-fly output to PDP (OUTPUT_DST = PDP)
  output logic                      pdp_valid,
  input  logic                      pdp_ready,
  output logic [ATOM_BYTES*8-1:0]   pdp_data
);
  localparam int AB       = ATOM_BYTES * 8;
  localparam int REC      = 4;
  localparam int ATOM_SH  = $clog2(ATOM_BYTES);
  localparam int NS_MAX   = ATOM_BYTES / TP;        // slices per INT8 atom
  localparam int J_BITS   = (NS_MAX > 1) ? $clog2(NS_MAX) : 1;
  localparam int TAG_BITS = J_BITS + 2;             // {slice, last slice of atom, last atom}
  localparam int RD_DEPTH = (2 * MAX_BURST * APB > 64) ? 2 * MAX_BURST * APB : 64;
  localparam int WR_DEPTH = RD_DEPTH;

  // =========================================================================================
  // Register blocks
  // =========================================================================================
  logic        r_op_en, r_op_done, unused_r_consumer, unused_r_producer;
  logic [12:0] unused_r_w, unused_r_h, unused_r_c;
  logic [31:0] r_src_lo, r_src_hi, r_src_ls, r_src_ss;
  logic        b_dis, n_dis, e_dis, b_size, n_size, e_size, b_mode, n_mode, e_mode;
  logic        b_ram, n_ram, e_ram;
  logic [1:0]  b_use, n_use, e_use;
  logic [31:0] b_lo, b_hi, b_ls, b_ss, n_lo, n_hi, n_ls, n_ss, e_lo, e_hi, e_ls, e_ss;
  logic [31:0] unused_b_bs, unused_n_bs, unused_e_bs;
  logic        r_flying, unused_r_wino, r_src_ram, r_perf_dma, r_perf_naninf;
  logic [1:0]  r_in_prec, unused_r_proc, unused_r_out;
  logic [4:0]  unused_r_batch;
  logic [31:0] r_rd_data, s_rd_data;
  logic [31:0] cnt_nan_in, cnt_inf_in;

  dla_sdp_rdma_regs u_rdma_regs (
    .clk, .rstn, .req_vld(rdma_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(r_rd_data),
    .op_done(r_op_done), .op_en(r_op_en), .consumer(unused_r_consumer), .producer(unused_r_producer),
    .d_data_cube_width_width(unused_r_w), .d_data_cube_height_height(unused_r_h),
    .d_data_cube_channel_channel(unused_r_c),
    .d_src_base_addr_low_src_base_addr_low(r_src_lo), .d_src_base_addr_high_src_base_addr_high(r_src_hi),
    .d_src_line_stride_src_line_stride(r_src_ls), .d_src_surface_stride_src_surface_stride(r_src_ss),
    .d_brdma_cfg_brdma_disable(b_dis), .d_brdma_cfg_brdma_data_use(b_use),
    .d_brdma_cfg_brdma_data_size(b_size), .d_brdma_cfg_brdma_data_mode(b_mode),
    .d_brdma_cfg_brdma_ram_type(b_ram),
    .d_bs_base_addr_low_bs_base_addr_low(b_lo), .d_bs_base_addr_high_bs_base_addr_high(b_hi),
    .d_bs_line_stride_bs_line_stride(b_ls), .d_bs_surface_stride_bs_surface_stride(b_ss),
    .d_bs_batch_stride_bs_batch_stride(unused_b_bs),
    .d_nrdma_cfg_nrdma_disable(n_dis), .d_nrdma_cfg_nrdma_data_use(n_use),
    .d_nrdma_cfg_nrdma_data_size(n_size), .d_nrdma_cfg_nrdma_data_mode(n_mode),
    .d_nrdma_cfg_nrdma_ram_type(n_ram),
    .d_bn_base_addr_low_bn_base_addr_low(n_lo), .d_bn_base_addr_high_bn_base_addr_high(n_hi),
    .d_bn_line_stride_bn_line_stride(n_ls), .d_bn_surface_stride_bn_surface_stride(n_ss),
    .d_bn_batch_stride_bn_batch_stride(unused_n_bs),
    .d_erdma_cfg_erdma_disable(e_dis), .d_erdma_cfg_erdma_data_use(e_use),
    .d_erdma_cfg_erdma_data_size(e_size), .d_erdma_cfg_erdma_data_mode(e_mode),
    .d_erdma_cfg_erdma_ram_type(e_ram),
    .d_ew_base_addr_low_ew_base_addr_low(e_lo), .d_ew_base_addr_high_ew_base_addr_high(e_hi),
    .d_ew_line_stride_ew_line_stride(e_ls), .d_ew_surface_stride_ew_surface_stride(e_ss),
    .d_ew_batch_stride_ew_batch_stride(unused_e_bs),
    .d_feature_mode_cfg_flying_mode(r_flying), .d_feature_mode_cfg_winograd(unused_r_wino),
    .d_feature_mode_cfg_in_precision(r_in_prec), .d_feature_mode_cfg_proc_precision(unused_r_proc),
    .d_feature_mode_cfg_out_precision(unused_r_out), .d_feature_mode_cfg_batch_number(unused_r_batch),
    .d_src_dma_cfg_src_ram_type(r_src_ram),
    .d_status_nan_input_num_status_nan_input_num(cnt_nan_in),
    .d_status_inf_input_num_status_inf_input_num(cnt_inf_in),
    .d_perf_enable_perf_dma_en(r_perf_dma), .d_perf_enable_perf_nan_inf_count_en(r_perf_naninf),
    .d_perf_mrdma_read_stall_mrdma_stall(32'd0), .d_perf_brdma_read_stall_brdma_stall(32'd0),
    .d_perf_nrdma_read_stall_nrdma_stall(32'd0), .d_perf_erdma_read_stall_erdma_stall(32'd0)
  );

  logic        s_op_en, s_op_done, s_consumer, unused_s_producer;
  logic [31:0] s_wdata;
  logic        lut_cfg_wr, lut_data_wr;
  logic [9:0]  unused_lut_addr;
  logic        unused_lut_tid, unused_lut_type;
  logic [15:0] lut_rd_entry;
  logic        lut_le_linear, lut_upri, lut_opri, lut_hpri;
  logic [7:0]  lut_le_off, lut_le_sel, lut_lo_sel;
  logic [31:0] lut_le_start, lut_le_end, lut_lo_start, lut_lo_end;
  logic [15:0] lut_le_us, lut_le_os, lut_lo_us, lut_lo_os;
  logic [4:0]  lut_le_ush, lut_le_osh, lut_lo_ush, lut_lo_osh;
  logic [12:0] cw, ch, cc;
  logic [31:0] dst_lo, dst_hi, dst_ls, dst_ss;
  logic        bs_byp, bs_alu_byp, bs_mul_byp, bs_prelu, bs_relu_byp, bs_alu_src, bs_mul_src;
  logic [1:0]  bs_algo;
  logic [5:0]  bs_alu_sh;
  logic [7:0]  bs_mul_sh8;
  logic [15:0] bs_alu_v, bs_mul_v;
  logic        bn_byp, bn_alu_byp, bn_mul_byp, bn_prelu, bn_relu_byp, bn_alu_src, bn_mul_src;
  logic [1:0]  bn_algo;
  logic [5:0]  bn_alu_sh;
  logic [7:0]  bn_mul_sh8;
  logic [15:0] bn_alu_v, bn_mul_v;
  logic        ew_byp, ew_alu_byp, ew_mul_byp, ew_prelu, ew_lut_byp;
  logic        ew_alu_src, ew_alu_cvt_byp, ew_mul_src, ew_mul_cvt_byp;
  logic [1:0]  ew_algo;
  logic [31:0] ew_alu_v, ew_alu_off, ew_mul_v, ew_mul_off;
  logic [15:0] ew_alu_sc, ew_mul_sc;
  logic [5:0]  ew_alu_tr, ew_mul_tr;
  logic [9:0]  ew_tr;
  logic        s_flying, s_out_pdp, s_wino, s_nan2z, s_dst_ram;
  logic [4:0]  s_batch;
  logic [31:0] s_bstride;
  logic [1:0]  proc_prec, out_prec;
  logic [31:0] cvt_off;
  logic [15:0] cvt_sc;
  logic [5:0]  cvt_sh;
  logic        unused_p_dma, p_lut, p_sat, unused_p_naninf;
  logic        st_unequal;
  logic [31:0] cnt_nan_out, cnt_uflow, cnt_oflow, cnt_sat, cnt_hybrid, cnt_le_hit, cnt_lo_hit;

  dla_sdp_regs u_sdp_regs (
    .clk, .rstn, .req_vld(sdp_req_vld), .req_wr, .req_word, .req_wdat, .rd_data(s_rd_data),
    .wr_data(s_wdata), .op_done(s_op_done), .op_en(s_op_en), .consumer(s_consumer),
    .producer(unused_s_producer),
    .s_lut_access_cfg_wr(lut_cfg_wr), .s_lut_access_cfg_lut_addr(unused_lut_addr),
    .s_lut_access_cfg_lut_table_id(unused_lut_tid), .s_lut_access_cfg_lut_access_type(unused_lut_type),
    .s_lut_access_data_wr(lut_data_wr), .s_lut_access_data_lut_data(lut_rd_entry),
    .s_lut_cfg_lut_le_function(lut_le_linear), .s_lut_cfg_lut_uflow_priority(lut_upri),
    .s_lut_cfg_lut_oflow_priority(lut_opri), .s_lut_cfg_lut_hybrid_priority(lut_hpri),
    .s_lut_info_lut_le_index_offset(lut_le_off), .s_lut_info_lut_le_index_select(lut_le_sel),
    .s_lut_info_lut_lo_index_select(lut_lo_sel),
    .s_lut_le_start_lut_le_start(lut_le_start), .s_lut_le_end_lut_le_end(lut_le_end),
    .s_lut_lo_start_lut_lo_start(lut_lo_start), .s_lut_lo_end_lut_lo_end(lut_lo_end),
    .s_lut_le_slope_scale_lut_le_slope_uflow_scale(lut_le_us),
    .s_lut_le_slope_scale_lut_le_slope_oflow_scale(lut_le_os),
    .s_lut_le_slope_shift_lut_le_slope_uflow_shift(lut_le_ush),
    .s_lut_le_slope_shift_lut_le_slope_oflow_shift(lut_le_osh),
    .s_lut_lo_slope_scale_lut_lo_slope_uflow_scale(lut_lo_us),
    .s_lut_lo_slope_scale_lut_lo_slope_oflow_scale(lut_lo_os),
    .s_lut_lo_slope_shift_lut_lo_slope_uflow_shift(lut_lo_ush),
    .s_lut_lo_slope_shift_lut_lo_slope_oflow_shift(lut_lo_osh),
    .d_data_cube_width_width(cw), .d_data_cube_height_height(ch), .d_data_cube_channel_channel(cc),
    .d_dst_base_addr_low_dst_base_addr_low(dst_lo), .d_dst_base_addr_high_dst_base_addr_high(dst_hi),
    .d_dst_line_stride_dst_line_stride(dst_ls), .d_dst_surface_stride_dst_surface_stride(dst_ss),
    .d_dp_bs_cfg_bs_bypass(bs_byp), .d_dp_bs_cfg_bs_alu_bypass(bs_alu_byp),
    .d_dp_bs_cfg_bs_alu_algo(bs_algo), .d_dp_bs_cfg_bs_mul_bypass(bs_mul_byp),
    .d_dp_bs_cfg_bs_mul_prelu(bs_prelu), .d_dp_bs_cfg_bs_relu_bypass(bs_relu_byp),
    .d_dp_bs_alu_cfg_bs_alu_src(bs_alu_src), .d_dp_bs_alu_cfg_bs_alu_shift_value(bs_alu_sh),
    .d_dp_bs_alu_src_value_bs_alu_operand(bs_alu_v),
    .d_dp_bs_mul_cfg_bs_mul_src(bs_mul_src), .d_dp_bs_mul_cfg_bs_mul_shift_value(bs_mul_sh8),
    .d_dp_bs_mul_src_value_bs_mul_operand(bs_mul_v),
    .d_dp_bn_cfg_bn_bypass(bn_byp), .d_dp_bn_cfg_bn_alu_bypass(bn_alu_byp),
    .d_dp_bn_cfg_bn_alu_algo(bn_algo), .d_dp_bn_cfg_bn_mul_bypass(bn_mul_byp),
    .d_dp_bn_cfg_bn_mul_prelu(bn_prelu), .d_dp_bn_cfg_bn_relu_bypass(bn_relu_byp),
    .d_dp_bn_alu_cfg_bn_alu_src(bn_alu_src), .d_dp_bn_alu_cfg_bn_alu_shift_value(bn_alu_sh),
    .d_dp_bn_alu_src_value_bn_alu_operand(bn_alu_v),
    .d_dp_bn_mul_cfg_bn_mul_src(bn_mul_src), .d_dp_bn_mul_cfg_bn_mul_shift_value(bn_mul_sh8),
    .d_dp_bn_mul_src_value_bn_mul_operand(bn_mul_v),
    .d_dp_ew_cfg_ew_bypass(ew_byp), .d_dp_ew_cfg_ew_alu_bypass(ew_alu_byp),
    .d_dp_ew_cfg_ew_alu_algo(ew_algo), .d_dp_ew_cfg_ew_mul_bypass(ew_mul_byp),
    .d_dp_ew_cfg_ew_mul_prelu(ew_prelu), .d_dp_ew_cfg_ew_lut_bypass(ew_lut_byp),
    .d_dp_ew_alu_cfg_ew_alu_src(ew_alu_src), .d_dp_ew_alu_cfg_ew_alu_cvt_bypass(ew_alu_cvt_byp),
    .d_dp_ew_alu_src_value_ew_alu_operand(ew_alu_v),
    .d_dp_ew_alu_cvt_offset_value_ew_alu_cvt_offset(ew_alu_off),
    .d_dp_ew_alu_cvt_scale_value_ew_alu_cvt_scale(ew_alu_sc),
    .d_dp_ew_alu_cvt_truncate_value_ew_alu_cvt_truncate(ew_alu_tr),
    .d_dp_ew_mul_cfg_ew_mul_src(ew_mul_src), .d_dp_ew_mul_cfg_ew_mul_cvt_bypass(ew_mul_cvt_byp),
    .d_dp_ew_mul_src_value_ew_mul_operand(ew_mul_v),
    .d_dp_ew_mul_cvt_offset_value_ew_mul_cvt_offset(ew_mul_off),
    .d_dp_ew_mul_cvt_scale_value_ew_mul_cvt_scale(ew_mul_sc),
    .d_dp_ew_mul_cvt_truncate_value_ew_mul_cvt_truncate(ew_mul_tr),
    .d_dp_ew_truncate_value_ew_truncate(ew_tr),
    .d_feature_mode_cfg_flying_mode(s_flying), .d_feature_mode_cfg_output_dst(s_out_pdp),
    .d_feature_mode_cfg_winograd(s_wino), .d_feature_mode_cfg_nan_to_zero(s_nan2z),
    .d_feature_mode_cfg_batch_number(s_batch),
    .d_dst_dma_cfg_dst_ram_type(s_dst_ram), .d_dst_batch_stride_dst_batch_stride(s_bstride),
    .d_data_format_proc_precision(proc_prec), .d_data_format_out_precision(out_prec),
    .d_cvt_offset_cvt_offset(cvt_off), .d_cvt_scale_cvt_scale(cvt_sc), .d_cvt_shift_cvt_shift(cvt_sh),
    .d_status_status_unequal(st_unequal),
    .d_status_nan_input_num_status_nan_input_num(32'd0),
    .d_status_inf_input_num_status_inf_input_num(32'd0),
    .d_status_nan_output_num_status_nan_output_num(cnt_nan_out),
    .d_perf_enable_perf_dma_en(unused_p_dma), .d_perf_enable_perf_lut_en(p_lut),
    .d_perf_enable_perf_sat_en(p_sat), .d_perf_enable_perf_nan_inf_count_en(unused_p_naninf),
    .d_perf_wdma_write_stall_wdma_stall(32'd0),
    .d_perf_lut_uflow_lut_uflow(cnt_uflow), .d_perf_lut_oflow_lut_oflow(cnt_oflow),
    .d_perf_out_saturation_out_saturation(cnt_sat), .d_perf_lut_hybrid_lut_hybrid(cnt_hybrid),
    .d_perf_lut_le_hit_lut_le_hit(cnt_le_hit), .d_perf_lut_lo_hit_lut_lo_hit(cnt_lo_hit)
  );
  assign rd_data = r_rd_data | s_rd_data;

  // ---- LUT tables ----
  logic [65*16-1:0]  lut_le;
  logic [257*16-1:0] lut_lo;
  if (HAS_LUT) begin : g_lut_ram
    dla_sdp_lut_ram u_lut (
      .clk, .rstn, .cfg_wr(lut_cfg_wr), .data_wr(lut_data_wr),
      .data_rd(sdp_req_vld && !req_wr && req_word == 10'd3), .wdat(s_wdata),
      .rd_entry(lut_rd_entry), .le(lut_le), .lo(lut_lo));
  end else begin : g_no_lut_ram
    // No LUT (nv_small): S_LUT_ACCESS_CFG is a plain register, DATA writes are dropped and
    // DATA reads return 0.
    wire unused_lut_port = &{1'b0, lut_cfg_wr, lut_data_wr, s_wdata};
    assign lut_rd_entry = '0;
    assign lut_le = '0;
    assign lut_lo = '0;
  end

  // =========================================================================================
  // Layer control
  // =========================================================================================
  wire flying   = s_flying;
  // Winograd convolution input (flying, v1): positions in tile order, the four lines of a
  // band as four "batches" (per-element operands are read in that order, never replayed)
  wire        wino_in  = HAS_BATCH && flying && s_wino;
  wire [12:0] bands_m1 = 13'(((14'(ch) + 14'd1) >> 2) - 14'd1);
  wire need_rdma = !flying || !b_dis || !n_dis || !e_dis;
  logic running, start, layer_done, all_fed, all_out;
  wire  eql      = HAS_EW && !ew_byp && !ew_alu_byp && ew_algo == 2'd3;
  wire  to_mem   = !eql && !s_out_pdp;
  wire  wr_done;

  assign start = !running && s_op_en && (!need_rdma || r_op_en);
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) running <= 1'b0;
    else if (start) running <= 1'b1;
    else if (layer_done) running <= 1'b0;
  assign layer_done = running && !start && all_out && (!to_mem || wr_done);
  assign s_op_done  = layer_done;
  assign r_op_done  = layer_done && need_rdma;
  assign done       = {layer_done && s_consumer, layer_done && !s_consumer};

  // ---- geometry ----
  wire        p8      = (proc_prec == 2'd0);
  wire [12:0] surfs_m1 = p8 ? (cc >> ATOM_SH) : (cc >> (ATOM_SH - 1));
  wire        one_pos  = (cw == '0) && (ch == '0);
  wire [J_BITS:0] ns_m1 = p8 ? (J_BITS+1)'(NS_MAX - 1) : (J_BITS+1)'(NS_MAX / 2 - 1);
  // v1 precision conversion modes: 16->8 input merge (§4.4), 8->16 output split (§11.5)
  wire        merge   = p8 && r_in_prec == 2'd1;
  wire        split   = p8 && out_prec != 2'd0;

  // =========================================================================================
  // Read streams
  // =========================================================================================
  logic [3:0]              st_en, st_port, st_valid, st_ready, st_dvalid, rec_valid, rec_pop;
  logic [4*ADDR_BITS-1:0]  st_addr, st_base;
  logic [4*LEN_BITS-1:0]   st_len;
  logic [4*32-1:0]         st_ls, st_ss;
  logic [4*16-1:0]         st_latoms_m1;
  logic [4*13-1:0]         st_lines_m1;
  logic [4*3-1:0]          st_rec;
  logic [4*REC*AB-1:0]     rec_data;
  logic [3:0]              unused_busy;
  logic [3:0]              op_dis, op_mode, op_size, op_ram;
  logic [7:0]              op_use;
  assign op_dis  = {e_dis || !HAS_EW, n_dis || !HAS_BN, b_dis || !HAS_BS, 1'b0};  // a stream of a stage the configuration lacks never reads
  assign op_mode = {e_mode, n_mode, b_mode, 1'b1};
  assign op_size = {e_size, n_size, b_size, 1'b0};
  assign op_ram  = {e_ram, n_ram, b_ram, r_src_ram};
  assign op_use  = {e_use, n_use, b_use, 2'd0};

  always_comb begin
    // stream 0: main input cube
    st_en[0]   = !flying;
    st_base[0 +: ADDR_BITS] = ADDR_BITS'({r_src_hi, r_src_lo});
    st_ls[0 +: 32] = r_src_ls;
    st_ss[0 +: 32] = one_pos ? 32'(ATOM_BYTES) : r_src_ss;
    if (merge) st_ss[0 +: 32] = one_pos ? 32'(2 * ATOM_BYTES) : (r_src_ss << 1);
    st_latoms_m1[0 +: 16] = 16'(cw);
    st_lines_m1[0 +: 13]  = ch;
    st_rec[0 +: 3] = merge ? 3'd2 : 3'd1;
    for (int s = 1; s < 4; s++) begin
      logic [2:0] bpe, k;
      logic [31:0] ls, ss;
      logic [ADDR_BITS-1:0] b;
      bpe = (op_size[s] ? 3'd2 : 3'd1) << (op_use[s*2 +: 2] == 2'd2);
      k   = p8 ? bpe : ((bpe >> 1) == '0 ? 3'd1 : bpe >> 1);
      case (s)
        1: begin b = ADDR_BITS'({b_hi, b_lo}); ls = b_ls; ss = b_ss; end
        2: begin b = ADDR_BITS'({n_hi, n_lo}); ls = n_ls; ss = n_ss; end
        default: begin b = ADDR_BITS'({e_hi, e_lo}); ls = e_ls; ss = e_ss; end
      endcase
      st_en[s] = !op_dis[s];
      st_base[s*ADDR_BITS +: ADDR_BITS] = b;
      st_rec[s*3 +: 3] = k;
      st_ls[s*32 +: 32] = ls;
      if (!op_mode[s] || one_pos) st_ss[s*32 +: 32] = 32'(k) << ATOM_SH;
      else                       st_ss[s*32 +: 32] = ss;
      st_latoms_m1[s*16 +: 16] = op_mode[s] ? 16'((17'(cw) + 17'd1) * 17'(k) - 17'd1) : (16'(k) - 16'd1);
      st_lines_m1[s*13 +: 13]  = op_mode[s] ? ch : 13'd0;
    end
  end

  for (genvar s = 0; s < 4; s++) begin : g_stream
    // CV (ram type 0) uses the SRAM port when the configuration has one, else DBB.
    assign st_port[s]  = HAS_SRAM && !op_ram[s];
    assign st_ready[s] = st_port[s] ? sram_rd_req_ready[s] : dbb_rd_req_ready[s];
    assign st_dvalid[s] = st_port[s] ? sram_rd_dat_valid[s] : dbb_rd_dat_valid[s];
    assign dbb_rd_req_valid[s]  = st_valid[s] && !st_port[s];
    assign sram_rd_req_valid[s] = st_valid[s] && st_port[s];
    assign dbb_rd_req_addr[s*ADDR_BITS +: ADDR_BITS]  = st_addr[s*ADDR_BITS +: ADDR_BITS];
    assign sram_rd_req_addr[s*ADDR_BITS +: ADDR_BITS] = st_addr[s*ADDR_BITS +: ADDR_BITS];
    assign dbb_rd_req_len[s*LEN_BITS +: LEN_BITS]  = st_len[s*LEN_BITS +: LEN_BITS];
    assign sram_rd_req_len[s*LEN_BITS +: LEN_BITS] = st_len[s*LEN_BITS +: LEN_BITS];
    dla_sdp_rd_stream #(
      .ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .APB(APB), .MAX_BURST(MAX_BURST),
      .LEN_BITS(LEN_BITS), .DEPTH(RD_DEPTH), .REC(REC), .HAS_WINO(HAS_BATCH && s != 0)
    ) u_st (
      .clk, .rstn, .start, .enable(st_en[s]),
      .base(st_base[s*ADDR_BITS +: ADDR_BITS]), .line_stride(st_ls[s*32 +: 32]),
      .surf_stride(st_ss[s*32 +: 32]), .line_atoms_m1(st_latoms_m1[s*16 +: 16]),
      .lines_m1(st_lines_m1[s*13 +: 13]), .surfs_m1, .rec_atoms(st_rec[s*3 +: 3]),
      .wino(wino_in && s != 0 && op_mode[s]), .wino_w_m1(cw), .wino_bands_m1(bands_m1),
      .pairs(s == 0 && merge), .pair_stride(one_pos ? 32'(ATOM_BYTES) : r_src_ss),
      .rd_req_valid(st_valid[s]), .rd_req_ready(st_ready[s]),
      .rd_req_addr(st_addr[s*ADDR_BITS +: ADDR_BITS]), .rd_req_len(st_len[s*LEN_BITS +: LEN_BITS]),
      .rd_dat_valid(st_dvalid[s]),
      .rd_dat_data(st_port[s] ? sram_rd_dat_data : dbb_rd_dat_data),
      .rd_dat_mask(st_port[s] ? sram_rd_dat_mask : dbb_rd_dat_mask),
      .rec_valid(rec_valid[s]), .rec_data(rec_data[s*REC*AB +: REC*AB]), .rec_pop(rec_pop[s]),
      .busy(unused_busy[s]));
  end

  // =========================================================================================
  // Feeder: one atom (input + operand records) at a time, cut into slices of TP elements
  // =========================================================================================
  logic            have, more, last_atom_w, adv, issue, load; `ifdef DLA_PLANTS wire [3:0] plant_sdp /*verilator public_flat_rw*/; logic plant_sdp_tick; always_ff @(posedge clk) plant_sdp_tick <= !plant_sdp_tick; wire plant_sdp_go = plant_sdp != 4'd1 || plant_sdp_tick; `endif
  logic [J_BITS:0] j;
  logic [12:0]     pw, ph, ps;      // position: pair (first x), line, surface
  logic            pdx;             // pixel x = pw + pdx
  logic [4:0]      pb;              // batch
  // Batched convolution (flying, v1): atoms come in dla_batch_order's order; per-element
  // operands are read once per position (batch 0) and used again for the other batches.
  wire  [4:0]      n_m1 = (HAS_BATCH && flying) ? (s_wino ? 5'd3 : s_batch) : 5'd0;
  logic [12:0]     nx_pw, unused_nx_ph;
  logic            nx_pdx, nx_le;
  logic [4:0]      nx_pb;
  dla_batch_order u_order (
    .w_m1(cw), .h_m1(wino_in ? bands_m1 : ch), .n_m1, .xp(pw), .dx(pdx), .b(pb), .y(ph),
    .xp_next(nx_pw), .dx_next(nx_pdx), .b_next(nx_pb), .y_next(unused_nx_ph), .line_end(nx_le),
    .last(pos_last_hw));
  wire  replay     = pb != '0 && !wino_in;   // per-element operands were read at batch 0
  logic [2*AB-1:0] w_in;
  logic [3*REC*AB-1:0] w_op;
  logic pos_last_hw;
  wire  pos_last     = pos_last_hw && (ps == surfs_m1);
  wire  recs_ok      = (flying || rec_valid[0]) && (!st_en[1] || rec_valid[1] || (op_mode[1] && replay)) &&
                       (!st_en[2] || rec_valid[2] || (op_mode[2] && replay)) &&
                       (!st_en[3] || rec_valid[3] || (op_mode[3] && replay));
  wire  last_slice   = (j == ns_m1);

  assign issue = running && have && adv && (!flying || fly_valid);
  assign fly_ready = issue && flying;
  assign load  = running && more && recs_ok && (!have || (issue && last_slice));
  always_comb begin
    rec_pop[0] = load && !flying;
    for (int s = 1; s < 4; s++) rec_pop[s] = load && st_en[s] && (op_mode[s] ? !replay : pos_last_hw);
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      have <= 1'b0;
      more <= 1'b0;
      j    <= '0;
      pw   <= '0;
      ph   <= '0;
      ps   <= '0;
      pdx  <= 1'b0;
      pb   <= '0;
      last_atom_w <= 1'b0;
    end else if (start) begin
      have <= 1'b0;
      more <= 1'b1;
      j    <= '0;
      pw   <= '0;
      ph   <= '0;
      ps   <= '0;
      pdx  <= 1'b0;
      pb   <= '0;
    end else begin
      if (load) begin
        have <= 1'b1;
        j    <= '0;
        last_atom_w <= pos_last;
        if (pos_last) more <= 1'b0;
        pw  <= nx_pw;
        pdx <= nx_pdx;
        pb  <= nx_pb;
        if (nx_le) begin
          if (ph != (wino_in ? bands_m1 : ch)) ph <= ph + 1'b1;
          else begin
            ph <= '0;
            ps <= ps + 1'b1;
          end
        end
      end else if (issue) begin
        if (last_slice) have <= 1'b0;
        else j <= j + 1'b1;
      end
    end

  logic [3*REC*AB-1:0] w_op_next;
  if (HAS_BATCH) begin : g_replay
    logic [2*3*REC*AB-1:0] kept;                 // the operand records of the pair's pixels
    always_comb
      for (int s = 0; s < 3; s++)
        w_op_next[s*REC*AB +: REC*AB] = (op_mode[s+1] && replay) ? kept[(32'(pdx)*3 + s)*REC*AB +: REC*AB]
                                                                 : rec_data[(s+1)*REC*AB +: REC*AB];
    always_ff @(posedge clk)
      if (load && !replay) kept[32'(pdx)*3*REC*AB +: 3*REC*AB] <= rec_data[REC*AB +: 3*REC*AB];
  end else begin : g_no_replay
    assign w_op_next = rec_data[REC*AB +: 3*REC*AB];
  end
  always_ff @(posedge clk)
    if (load) begin
      w_in <= rec_data[0 +: 2*AB];
      w_op <= w_op_next;
    end

  // ---- slice extraction ----
  logic [TP*32-1:0] sl_x;
  logic [6*TP*16-1:0] sl_op;       // bs alu, bs mul, bn alu, bn mul, ew alu, ew mul
  logic [TP*16-1:0] sl_bsa, sl_bsm, sl_bna, sl_bnm, sl_ewa, sl_ewm;
  logic [TP-1:0]    sl_nan, sl_inf;
  wire  in8 = (r_in_prec == 2'd0);
  wire  infp = HAS_FP && (r_in_prec == 2'd2);
  logic [2*AB-1:0] in_sh;
  assign in_sh = w_in >> (in8 ? ($signed(32'(j)) * TP * 8) : ($signed(32'(j)) * TP * 16));

  for (genvar l = 0; l < TP; l++) begin : g_in
    logic [15:0] h;
    logic [31:0] hw;
    assign h = in_sh[l*16 +: 16];
    if (HAS_FP) begin : g_w
      dla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .KEEP_DENORM(1'b1)) u_w (.x(h), .y(hw));
    end else begin : g_nw
      assign hw = '0;
    end
    always_comb begin
      if (flying)     sl_x[l*32 +: 32] = fly_data[l*32 +: 32];
      else if (in8)   sl_x[l*32 +: 32] = 32'($signed(in_sh[l*8 +: 8]));
      else if (infp)  sl_x[l*32 +: 32] = hw;
      else            sl_x[l*32 +: 32] = 32'($signed(h));
    end
    assign sl_nan[l] = (h[14:10] == 5'h1f) && (h[9:0] != '0);
    assign sl_inf[l] = (h[14:10] == 5'h1f) && (h[9:0] == '0);
  end

  always_comb begin
    sl_op = '0;
    for (int s = 1; s < 4; s++) begin
      logic [REC*AB-1:0] r;
      logic [2:0] bpc, bpe;
      bpc = op_size[s] ? 3'd2 : 3'd1;
      bpe = bpc << (op_use[s*2 +: 2] == 2'd2);
      r   = w_op[(s-1)*REC*AB +: REC*AB] >> ($signed(32'(j)) * TP * $signed(32'(bpe)) * 8);
      for (int l = 0; l < TP; l++) begin
        logic [15:0] a, m;
        integer ao, mo;
        ao = l * $signed(32'(bpe));
        mo = ao + ((op_use[s*2 +: 2] == 2'd2) ? $signed(32'(bpc)) : 0);
        a  = op_size[s] ? r[ao*8 +: 16] : 16'($signed(r[ao*8 +: 8]));
        m  = op_size[s] ? r[mo*8 +: 16] : 16'($signed(r[mo*8 +: 8]));
        // a stream carries the ALU component (use ALU/BOTH), the MUL component (MUL/BOTH)
        if (op_use[s*2 +: 2] != 2'd1 && op_use[s*2 +: 2] != 2'd2) a = '0;
        if (op_use[s*2 +: 2] == 2'd1 || op_use[s*2 +: 2] == 2'd3) m = '0;
        if (!st_en[s]) begin
          a = '0;
          m = '0;
        end
        sl_op[((s-1)*2)*TP*16 + l*16 +: 16]     = a;
        sl_op[((s-1)*2 + 1)*TP*16 + l*16 +: 16] = m;
      end
    end
  end
  assign sl_bsa = sl_op[0*TP*16 +: TP*16];
  assign sl_bsm = sl_op[1*TP*16 +: TP*16];
  assign sl_bna = sl_op[2*TP*16 +: TP*16];
  assign sl_bnm = sl_op[3*TP*16 +: TP*16];
  assign sl_ewa = sl_op[4*TP*16 +: TP*16];
  assign sl_ewm = sl_op[5*TP*16 +: TP*16];

  // =========================================================================================
  // Datapath
  // =========================================================================================
  logic                out_valid, lut_used;
  logic [TAG_BITS-1:0] out_tag;
  logic [TP*16-1:0]    out_o;
  logic [TP-1:0]       o_sat, o_nan, o_nz, o_u, o_o, o_h, o_leh, o_loh;
  dla_sdp_dp #(
    .TP(TP), .TAG_BITS(TAG_BITS), .HAS_FP(HAS_FP), .HAS_BS(HAS_BS), .HAS_BN(HAS_BN),
    .HAS_EW(HAS_EW), .HAS_LUT(HAS_LUT), .SAT_RANGE(SAT_RANGE)
  ) u_dp (
    .clk, .rstn, .adv, .in_valid(issue), .in_tag({j[J_BITS-1:0], last_slice, last_atom_w}),
    .in_x(sl_x), .in_bs_alu(sl_bsa), .in_bs_mul(sl_bsm), .in_bn_alu(sl_bna), .in_bn_mul(sl_bnm),
    .in_ew_alu(sl_ewa), .in_ew_mul(sl_ewm),
    .fp(HAS_FP && proc_prec == 2'd2), .out_prec, .nan_to_zero(s_nan2z),
    .bs_bypass(bs_byp), .bs_alu_bypass(bs_alu_byp), .bs_mul_bypass(bs_mul_byp),
    .bs_mul_prelu(bs_prelu), .bs_relu_bypass(bs_relu_byp), .bs_alu_algo(bs_algo),
    .bs_alu_src, .bs_mul_src, .bs_alu_shift(bs_alu_sh), .bs_mul_shift(bs_mul_sh8[5:0]),
    .bs_alu_reg(bs_alu_v), .bs_mul_reg(bs_mul_v),
    .bn_bypass(bn_byp), .bn_alu_bypass(bn_alu_byp), .bn_mul_bypass(bn_mul_byp),
    .bn_mul_prelu(bn_prelu), .bn_relu_bypass(bn_relu_byp), .bn_alu_algo(bn_algo),
    .bn_alu_src, .bn_mul_src, .bn_alu_shift(bn_alu_sh), .bn_mul_shift(bn_mul_sh8[5:0]),
    .bn_alu_reg(bn_alu_v), .bn_mul_reg(bn_mul_v),
    .ew_bypass(ew_byp), .ew_alu_bypass(ew_alu_byp), .ew_mul_bypass(ew_mul_byp),
    .ew_mul_prelu(ew_prelu), .ew_lut_bypass(ew_lut_byp), .ew_alu_algo(ew_algo),
    .ew_alu_src, .ew_alu_cvt_bypass(ew_alu_cvt_byp), .ew_mul_src, .ew_mul_cvt_bypass(ew_mul_cvt_byp),
    .ew_alu_reg(ew_alu_v), .ew_alu_cvt_offset(ew_alu_off), .ew_mul_reg(ew_mul_v),
    .ew_mul_cvt_offset(ew_mul_off), .ew_alu_cvt_scale(ew_alu_sc), .ew_mul_cvt_scale(ew_mul_sc),
    .ew_alu_cvt_truncate(ew_alu_tr), .ew_mul_cvt_truncate(ew_mul_tr), .ew_truncate(ew_tr),
    .cvt_offset(cvt_off), .cvt_scale(cvt_sc), .cvt_shift(cvt_sh),
    .lut_le_linear, .lut_uflow_pri(lut_upri), .lut_oflow_pri(lut_opri), .lut_hybrid_pri(lut_hpri),
    .lut_le_off, .lut_le_sel, .lut_lo_sel, .lut_le_start, .lut_le_end, .lut_lo_start, .lut_lo_end,
    .lut_le_uscale(lut_le_us), .lut_le_oscale(lut_le_os), .lut_lo_uscale(lut_lo_us),
    .lut_lo_oscale(lut_lo_os), .lut_le_ushift(lut_le_ush), .lut_le_oshift(lut_le_osh),
    .lut_lo_ushift(lut_lo_ush), .lut_lo_oshift(lut_lo_osh), .lut_le, .lut_lo,
    .out_valid, .out_tag, .out_o, .out_sat(o_sat), .out_nan(o_nan), .out_nonzero(o_nz),
    .out_lut_u(o_u), .out_lut_o(o_o), .out_lut_h(o_h), .out_lut_le_hit(o_leh),
    .out_lut_lo_hit(o_loh), .out_lut_used(lut_used));

  // ---- output atom assembly ----
  logic [AB-1:0]   oatom, oatom_next, slice_bytes;
  logic [J_BITS-1:0] oj;
  logic            o_last_slice, o_last_atom, sink_ready, o_take, o_push;
  wire  out8 = (out_prec == 2'd0);
  assign {oj, o_last_slice, o_last_atom} = out_tag;
  always_comb begin
    logic [AB-1:0] mask;
    slice_bytes = '0;
    mask        = '0;
    for (int l = 0; l < TP; l++) begin
      if (out8) begin
        if (($signed(32'(oj)) * TP + l) < ATOM_BYTES) begin
          slice_bytes[($signed(32'(oj)) * TP + l) * 8 +: 8] = out_o[l*16 +: 8];
          mask[($signed(32'(oj)) * TP + l) * 8 +: 8] = 8'hff;
        end
      end else begin
        begin
          slice_bytes[((($signed(32'(oj)) * TP + l) * 2) % ATOM_BYTES) * 8 +: 16] = out_o[l*16 +: 16];
          mask[((($signed(32'(oj)) * TP + l) * 2) % ATOM_BYTES) * 8 +: 16] = 16'hffff;
        end
      end
    end
    oatom_next = (oatom & ~mask) | slice_bytes;
  end
  assign o_take = out_valid && adv;
  // a split (8->16) atom is complete after every A/2 elements
  wire   split_full = split && (((($signed(32'(oj)) + 1) * TP * 2) % ATOM_BYTES) == 0);
  assign o_push = o_take && (o_last_slice || split_full);
  always_ff @(posedge clk) if (o_take) oatom <= oatom_next;

  // sink: memory writer, PDP port, or nothing (EQL). PDP's ready answers a presented atom
  // (it depends on pdp_valid), so the datapath stalls only while a complete atom waits.
  logic wr_in_ready;
  wire  to_pdp      = s_out_pdp && !eql;
  assign pdp_valid  = running && to_pdp && out_valid && (o_last_slice || split_full);
  assign pdp_data   = oatom_next;
  assign sink_ready = to_mem ? wr_in_ready : to_pdp ? (!pdp_valid || pdp_ready) : 1'b1;
  assign adv        = sink_ready `ifdef DLA_PLANTS && (to_pdp || plant_sdp_go) `endif;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) all_out <= 1'b0;
    else if (start) all_out <= 1'b0;
    else if (o_push && o_last_atom) all_out <= 1'b1;
  assign all_fed = !more && !have;

  // ---- statistics (cleared at layer start, saturating; cnt_sat see below) ----
  function automatic [31:0] sat_add(input [31:0] c, input [TP-1:0] bits);
    reg [32:0] acc;
    integer i;
    begin
      acc = {1'b0, c};
      for (i = 0; i < TP; i = i + 1) acc = acc + {32'd0, bits[i]};
      sat_add = acc[32] ? 32'hffff_ffff : acc[31:0];
    end
  endfunction
  wire count_in = issue && !flying && infp && r_perf_naninf;
  wire count_lut = o_take && lut_used && p_lut;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      {cnt_nan_in, cnt_inf_in, cnt_nan_out, cnt_uflow, cnt_oflow, cnt_sat, cnt_hybrid,
       cnt_le_hit, cnt_lo_hit} <= '0;
      st_unequal <= 1'b0;
    end else if (start) begin
      {cnt_nan_in, cnt_inf_in, cnt_nan_out, cnt_uflow, cnt_oflow, cnt_hybrid,
       cnt_le_hit, cnt_lo_hit} <= '0;
      // one saturation counter shared by both groups: PERF_SAT_EN gates its clear as well as
      // its counting, so a layer without it reports the last enabled layer's count
      if (p_sat) cnt_sat <= '0;
      st_unequal <= 1'b0;
    end else begin
      if (count_in) begin
        cnt_nan_in <= sat_add(cnt_nan_in, sl_nan);
        cnt_inf_in <= sat_add(cnt_inf_in, sl_inf);
      end
      if (o_take) begin
        cnt_nan_out <= sat_add(cnt_nan_out, o_nan);
        if (p_sat) cnt_sat <= sat_add(cnt_sat, o_sat);
        // any nonzero output of every layer that reaches the write side (§15 item 11); data
        // streamed to PDP never does (docs/nvdla-differential.md, sdp-unequal-pdp)
        if (|o_nz && !to_pdp) st_unequal <= 1'b1;
      end
      if (count_lut) begin
        cnt_uflow  <= sat_add(cnt_uflow, o_u);
        cnt_oflow  <= sat_add(cnt_oflow, o_o);
        cnt_hybrid <= sat_add(cnt_hybrid, o_h);
        cnt_le_hit <= sat_add(cnt_le_hit, o_leh);
        cnt_lo_hit <= sat_add(cnt_lo_hit, o_loh);
      end
    end

  // =========================================================================================
  // Write DMA
  // =========================================================================================
  wire wport = HAS_SRAM && !s_dst_ram;
  logic w_req_valid, w_dat_valid;
  // Winograd convolution output (flying, WINOGRAD = 1): atoms come in bands of 4 lines, per
  // pair of columns lines 0..3 (docs/conv-rtl.md): the batch walk with the 4 lines of a band
  // as 4 "batches" one line apart and bands 4 lines apart
  wire wino_o = wino_in;
  dla_sdp_wr #(
    .ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .APB(APB), .MAX_BURST(MAX_BURST),
    .LEN_BITS(LEN_BITS), .DEPTH(WR_DEPTH), .HAS_BATCH(HAS_BATCH)
  ) u_wr (
    .clk, .rstn, .start, .enable(to_mem),
    .base(ADDR_BITS'({dst_hi, dst_lo})), .line_stride(wino_o ? dst_ls << 2 : dst_ls),
    // (the W = H = 1 packing of the output does not apply to batches)
    .surf_stride(split ? (one_pos ? 32'(2 * ATOM_BYTES) : (dst_ss << 1)) :
                 (one_pos && n_m1 == '0 ? 32'(ATOM_BYTES) : dst_ss)),
    .pairs(split), .pair_stride(one_pos ? 32'(ATOM_BYTES) : dst_ss),
    .batches_m1(wino_o ? 5'd3 : n_m1), .batch_stride(wino_o ? dst_ls : s_bstride),
    .line_atoms_m1(cw), .lines_m1(wino_o ? bands_m1 : ch), .surfs_m1,
    .in_valid(o_push && to_mem), .in_atom(oatom_next), .in_ready(wr_in_ready),
    .wr_req_valid(w_req_valid), .wr_req_ready(wport ? wr_req_ready[1] : wr_req_ready[0]),
    .wr_req_addr, .wr_req_len,
    .wr_dat_valid(w_dat_valid), .wr_dat_ready(wport ? wr_dat_ready[1] : wr_dat_ready[0]),
    .wr_dat_data, .wr_dat_mask, .wr_cmpl(wr_cmpl[0] || wr_cmpl[1]), .done(wr_done));
  assign wr_req_valid = {w_req_valid && wport, w_req_valid && !wport};
  assign wr_dat_valid = {w_dat_valid && wport, w_dat_valid && !wport};

  wire unused = &{1'b0, unused_r_consumer, unused_r_producer, unused_r_w, unused_r_h, unused_r_c,
                  unused_b_bs, unused_n_bs, unused_e_bs, unused_r_wino,
                  unused_r_proc, unused_r_out, unused_r_batch, r_perf_dma, unused_s_producer,
                  unused_lut_addr, unused_lut_tid, unused_lut_type,
                  s_batch, s_bstride, unused_p_dma, unused_p_naninf, unused_busy,
                  all_fed, bs_mul_sh8[7:6], bn_mul_sh8[7:6], r_flying, rec_data[AB +: (REC-1)*AB],
                  b_hi, n_hi, e_hi, r_src_hi, dst_hi, in_sh};
endmodule
