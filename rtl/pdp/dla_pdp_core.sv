// PDP core: the PDP register block and the pooling pipeline of one layer at a time.
//
//   input atoms (PDP_RDMA, or the on-flying port) -> dla_pdp_width (width pass, slices)
//     -> dla_pdp_pad_add (width padding) -> dla_pdp_height (height pass, line buffer)
//     -> dla_pdp_finalize (height padding, reciprocals, output element)
//     -> dla_pdp_wdma (atoms, output buffer, write requests) -> DBB / SRAM port
//
// A layer starts when the CONSUMER group is armed (OP_EN) and ends (op_done: OP_EN clears,
// counters latch, CONSUMER toggles) when its last output beat has been accepted and its
// whole input has been consumed (rows or columns after the last window are read and
// dropped, §1.4). The done interrupt of the group (GLB bits 4/5) is raised when the
// completion of the layer's last write has arrived and the layer is done, whichever is later. The on-flying input (FLYING_MODE = 0; SDP output atoms in surface, line,
// column order) is a plain valid/ready atom port: no NaN flush and no input counting there.
module dla_pdp_core #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter int DATA_BITS  = 512,
  parameter int ADDR_BITS  = 64,
  parameter int LEN_BITS   = 16,
  parameter int TAG_BITS   = 4,
  parameter int MAX_BURST  = 16,
  parameter bit HAS_INT16  = 1'b1,
  parameter bit HAS_FP16   = 1'b1,
  parameter bit HAS_SRAM   = 1'b1,
  parameter int OW_MAX     = 1024,
  parameter int OBUF_ATOMS = 64,
  parameter int APB        = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                    clk,
  input  logic                    rstn,
  // CSB access to the register block
  input  logic                    req_vld,
  input  logic                    req_wr,
  input  logic [9:0]              req_word,
  input  logic [31:0]             req_wdat,
  output logic [31:0]             rd_data,
  // input atoms: off-flying (PDP_RDMA) and on-flying (SDP)
  input  logic                    rdma_valid,
  output logic                    rdma_ready,
  input  logic [8*ATOM_BYTES-1:0] rdma_data,
  input  logic                    otf_valid,
  output logic                    otf_ready,
  input  logic [8*ATOM_BYTES-1:0] otf_data,
  // DMA write client ([0] = DBB, [1] = SRAM; payloads shared)
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
  // done interrupts of group 0 / 1 (GLB S_INTR_STATUS bits 4 / 5)
  output logic [1:0]              intr_done
);
  localparam int ATOM_SH = $clog2(ATOM_BYTES);
  localparam int PW      = 28 * TP;

  // ---- registers ------------------------------------------------------------------------
  logic        op_en, op_done, consumer, unused_producer;
  logic [12:0] width_m1, height_m1, chan_m1, out_width_m1, out_height_m1, unused_out_chan;
  logic [1:0]  method, fmt_reg;
  logic        flying, nan_to_zero, ram_type, perf_en;
  logic [7:0]  split_num;
  logic [9:0]  in_first_m1, in_last_m1, in_mid_m1, out_first_m1, out_last_m1, out_mid_m1;
  logic [3:0]  kw_m1, kh_m1, sw_m1, sh_m1;
  logic [16:0] recip_w, recip_h;
  logic [2:0]  pad_left, pad_top, pad_right, pad_bottom;
  logic [7*19-1:0] pad_values;
  logic [31:0] dst_lo, dst_hi, dst_line, dst_surf, unused_cya;
  logic [31:0] unused_src_lo, unused_src_hi, unused_src_line, unused_src_surf;
  logic [31:0] inf_in, nan_in, nan_out, write_stall;

  dla_pdp_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .op_done, .op_en, .consumer, .producer(unused_producer),
    .d_data_cube_in_width_cube_in_width(width_m1),
    .d_data_cube_in_height_cube_in_height(height_m1),
    .d_data_cube_in_channel_cube_in_channel(chan_m1),
    .d_data_cube_out_width_cube_out_width(out_width_m1),
    .d_data_cube_out_height_cube_out_height(out_height_m1),
    .d_data_cube_out_channel_cube_out_channel(unused_out_chan),
    .d_operation_mode_cfg_pooling_method(method),
    .d_operation_mode_cfg_flying_mode(flying),
    .d_operation_mode_cfg_split_num(split_num),
    .d_nan_flush_to_zero_nan_to_zero(nan_to_zero),
    .d_partial_width_in_partial_width_in_first(in_first_m1),
    .d_partial_width_in_partial_width_in_last(in_last_m1),
    .d_partial_width_in_partial_width_in_mid(in_mid_m1),
    .d_partial_width_out_partial_width_out_first(out_first_m1),
    .d_partial_width_out_partial_width_out_last(out_last_m1),
    .d_partial_width_out_partial_width_out_mid(out_mid_m1),
    .d_pooling_kernel_cfg_kernel_width(kw_m1),
    .d_pooling_kernel_cfg_kernel_height(kh_m1),
    .d_pooling_kernel_cfg_kernel_stride_width(sw_m1),
    .d_pooling_kernel_cfg_kernel_stride_height(sh_m1),
    .d_recip_kernel_width_recip_kernel_width(recip_w),
    .d_recip_kernel_height_recip_kernel_height(recip_h),
    .d_pooling_padding_cfg_pad_left(pad_left),
    .d_pooling_padding_cfg_pad_top(pad_top),
    .d_pooling_padding_cfg_pad_right(pad_right),
    .d_pooling_padding_cfg_pad_bottom(pad_bottom),
    .d_pooling_padding_value_1_cfg_pad_value_1x(pad_values[0*19 +: 19]),
    .d_pooling_padding_value_2_cfg_pad_value_2x(pad_values[1*19 +: 19]),
    .d_pooling_padding_value_3_cfg_pad_value_3x(pad_values[2*19 +: 19]),
    .d_pooling_padding_value_4_cfg_pad_value_4x(pad_values[3*19 +: 19]),
    .d_pooling_padding_value_5_cfg_pad_value_5x(pad_values[4*19 +: 19]),
    .d_pooling_padding_value_6_cfg_pad_value_6x(pad_values[5*19 +: 19]),
    .d_pooling_padding_value_7_cfg_pad_value_7x(pad_values[6*19 +: 19]),
    .d_src_base_addr_low_src_base_addr_low(unused_src_lo),
    .d_src_base_addr_high_src_base_addr_high(unused_src_hi),
    .d_src_line_stride_src_line_stride(unused_src_line),
    .d_src_surface_stride_src_surface_stride(unused_src_surf),
    .d_dst_base_addr_low_dst_base_addr_low(dst_lo),
    .d_dst_base_addr_high_dst_base_addr_high(dst_hi),
    .d_dst_line_stride_dst_line_stride(dst_line),
    .d_dst_surface_stride_dst_surface_stride(dst_surf),
    .d_dst_ram_cfg_dst_ram_type(ram_type),
    .d_data_format_input_data(fmt_reg),
    .d_inf_input_num_inf_input_num(inf_in),
    .d_nan_input_num_nan_input_num(nan_in),
    .d_nan_output_num_nan_output_num(nan_out),
    .d_perf_enable_dma_en(perf_en),
    .d_perf_write_stall_perf_write_stall(write_stall),
    .d_cya_cya(unused_cya)
  );

  // Formats this configuration has; anything else is processed as int8.
  wire [1:0] fmt = (HAS_INT16 && fmt_reg == 2'd1) ? 2'd1 : (HAS_FP16 && fmt_reg == 2'd2) ? 2'd2 : 2'd0;
  wire [12:0] surf_m1 = (fmt != 2'd0) ? chan_m1 >> (ATOM_SH - 1) : chan_m1 >> ATOM_SH;
  /* verilator lint_off UNUSEDSIGNAL */   // address bits above ADDR_BITS
  wire [63:0] dst64 = {dst_hi, dst_lo};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- layer control --------------------------------------------------------------------
  logic running, wr_done, in_busy, wdma_done;
  wire  start = op_en && !running;
  assign op_done = running && (wr_done || wdma_done) && !in_busy;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running <= 1'b0;
      wr_done <= 1'b0;
    end else if (start) begin
      running <= 1'b1;
      wr_done <= 1'b0;
    end else if (op_done) begin
      running <= 1'b0;
      wr_done <= 1'b0;
    end else if (wdma_done) begin
      wr_done <= 1'b1;
    end

  // ---- input selection ------------------------------------------------------------------
  logic in_valid, in_ready; `ifdef DLA_PLANTS wire [3:0] plant_pdp /*verilator public_flat_rw*/; logic plant_pdp_tick; always_ff @(posedge clk) plant_pdp_tick <= !plant_pdp_tick; wire plant_pdp_go = plant_pdp != 4'd1 || plant_pdp_tick; `endif
  logic [8*ATOM_BYTES-1:0] in_data;
  assign in_valid   = (flying ? rdma_valid : otf_valid) `ifdef DLA_PLANTS && plant_pdp_go `endif;
  assign in_data    = flying ? rdma_data : otf_data;
  assign rdma_ready = flying && in_ready `ifdef DLA_PLANTS && plant_pdp_go `endif;
  assign otf_ready  = !flying && in_ready `ifdef DLA_PLANTS && plant_pdp_go `endif;

  // ---- width pass -------------------------------------------------------------------------
  logic          w_valid, w_ready, w_eor;
  logic [PW-1:0] w_val;
  logic [2:0]    w_npad;
  dla_pdp_width #(.TP(TP), .ATOM_BYTES(ATOM_BYTES), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16)) u_width (
    .clk, .rstn, .start,
    .fmt, .method, .nan_flush(nan_to_zero && flying), .count_en(flying),
    .kw_m1, .sw_m1, .pad_left, .pad_right, .height_m1, .surf_m1, .split_num,
    .width_m1, .out_width_m1, .in_first_m1, .in_mid_m1, .in_last_m1,
    .out_first_m1, .out_mid_m1, .out_last_m1,
    .in_valid, .in_data, .in_ready,
    .o_valid(w_valid), .o_ready(w_ready), .o_val(w_val), .o_npad(w_npad), .o_eor(w_eor),
    .nan_count(nan_in), .inf_count(inf_in), .busy(in_busy)
  );

  // ---- width padding ------------------------------------------------------------------------
  logic [18:0]   pv_w;
  always_comb begin
    pv_w = '0;
    for (int n = 1; n <= 7; n++) if (w_npad == 3'(n)) pv_w = pad_values[(n-1)*19 +: 19];
  end
  logic [PW-1:0] r_val;
  dla_pdp_pad_add #(.TP(TP), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16)) u_pad (
    .fmt, .is_avg(method == 2'd0), .has_pad(w_npad != '0), .pad_value(pv_w), .a(w_val), .y(r_val)
  );

  // ---- height pass ----------------------------------------------------------------------------
  logic          f_valid, f_ready;
  logic [PW-1:0] f_acc;
  logic [2:0]    f_m;
  dla_pdp_height #(.TP(TP), .ATOM_BYTES(ATOM_BYTES), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16),
                   .OW_MAX(OW_MAX)) u_height (
    .clk, .rstn, .start,
    .fmt, .method, .kh_m1, .sh_m1, .pad_top, .height_m1, .out_height_m1,
    .i_valid(w_valid), .i_ready(w_ready), .i_val(r_val), .i_eor(w_eor),
    .f_valid, .f_ready, .f_acc, .f_m
  );
  wire unused_pad_bottom = &{pad_bottom, 1'b0};   // implied by the output height

  // ---- finalize -------------------------------------------------------------------------------
  logic                s_valid, s_ready;
  logic [16*TP-1:0]    s_data;
  logic [$clog2(TP+1)-1:0] s_nan;
  dla_pdp_finalize #(.TP(TP), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16)) u_fin (
    .clk, .rstn, .fmt, .method, .kw_m1, .recip_w, .recip_h, .pad_values,
    .in_valid(f_valid), .in_ready(f_ready), .in_acc(f_acc), .in_m(f_m),
    .out_valid(s_valid), .out_ready(s_ready), .out_data(s_data), .out_nan(s_nan)
  );

  // ---- write DMA ------------------------------------------------------------------------------
  dla_pdp_wdma #(.TP(TP), .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS), .ADDR_BITS(ADDR_BITS),
                 .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS), .MAX_BURST(MAX_BURST),
                 .HAS_SRAM(HAS_SRAM), .BUF_ATOMS(OBUF_ATOMS)) u_wdma (
    .clk, .rstn, .start, .group(consumer),
    .dst(dst64[ADDR_BITS-1:0]), .line_stride(dst_line), .surf_stride(dst_surf), .ram_type,
    .split_num, .out_width_m1, .out_first_m1, .out_mid_m1, .out_last_m1, .out_height_m1,
    .surf_m1, .perf_en,
    .s_valid, .s_ready, .s_data, .s_nan,
    .wr_req_valid, .wr_req_ready, .wr_req_addr, .wr_req_len, .wr_req_cmpl, .wr_req_tag,
    .wr_dat_valid, .wr_dat_ready, .wr_dat_data, .wr_dat_mask,
    .done(wdma_done), .nan_out, .write_stall
  );

  // ---- interrupts: the layer is done and its last write (tag {1, group}) completed ------------
  logic [1:0] cmpl_pend, done_pend, cmpl_now, done_now;
  always_comb begin
    cmpl_now = '0;
    for (int p = 0; p < 2; p++)
      if (wr_cmpl[p] && wr_cmpl_tag[p*TAG_BITS + 1]) cmpl_now[wr_cmpl_tag[p*TAG_BITS]] = 1'b1;
    done_now = '0;
    done_now[consumer] = op_done;
  end
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      intr_done <= '0;
      cmpl_pend <= '0;
      done_pend <= '0;
    end else
      for (int g = 0; g < 2; g++) begin
        logic c, d;
        c = cmpl_pend[g] || cmpl_now[g];
        d = done_pend[g] || done_now[g];
        intr_done[g] <= c && d;
        cmpl_pend[g] <= c && !d;
        done_pend[g] <= d && !c;
      end
  /* verilator lint_off UNUSEDSIGNAL */   // tag bits [TAG_BITS-1:2] are 0
  wire [2*TAG_BITS-1:0] unused_tag = wr_cmpl_tag;
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
