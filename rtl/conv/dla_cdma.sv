// CDMA (docs/conv-rtl.md): the CDMA register block, the feature-data fetch (direct mode, with
// the input converter), the image fetch (dla_cdma_img) and the weight fetch, writing the CBUF.
//
// dla_conv starts a layer with `start` and tells where things go: the ring entry of the first
// new input slice, the data ring, the weight region. Data slices are written one after the
// other, (ENTRY_PER_SLICE + 1) entries apart; inside a direct-mode slice atom (surface s, x)
// is atom s * W + x. Weights are copied byte for byte (WEIGHT_BYTES) into the weight ring from
// its first entry, as far as the entries CSC has released allow. `rows_done`, `wt_bytes` and
// `fetch_done` report progress to CSC and dla_conv.
module dla_cdma #(
  parameter int ADDR_BITS   = 32,
  parameter int DATA_BITS   = 64,
  parameter int ATOM_BYTES  = 8,
  parameter int ENTRY_BYTES = 8,
  parameter int EA          = 14,
  parameter int LEN_BITS    = 16,
  parameter int TAG_BITS    = 4,
  parameter bit PREC16      = 1'b0,                        // int16/fp16 (2-byte elements)
  parameter bit HAS_SRAM    = 1'b0,                        // the secondary (SRAM) read port
  parameter bit HAS_WMB     = 1'b0,                        // weight compression
  parameter bit HAS_BATCH   = 1'b0,                        // batching (direct mode)
  parameter bit HAS_WINO    = 1'b0,                        // Winograd input (dla_cdma_wino)
  parameter bit HAS_FP      = 1'b0,                        // fp16 (NaN flush and counters)
  parameter int AK          = 8,                           // kernels per group (int8)
  parameter int APB         = DATA_BITS / (8 * ATOM_BYTES)  // atoms per beat: 1 or 2
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
  // layer control (dla_conv)
  input  logic                     start,
  input  logic                     fetch_data,     // 0: full data reuse, nothing to fetch
  input  logic                     fetch_weights,  // 0: weight reuse
  input  logic [EA-1:0]            slice_base0,    // ring entry of the first new slice
  input  logic [EA:0]              data_ring,      // entries of the data ring (from entry 0)
  input  logic [EA-1:0]            wt_first,       // first entry of the weight region
  input  logic [EA:0]              wt_ring,        // entries of the weight region
  input  logic [31:0]              wt_released,    // weight entries CSC released this layer
  input  logic [EA-1:0]            wmb_first,      // weight-mask ring (compression)
  input  logic [EA:0]              wmb_ring,
  input  logic [31:0]              wmb_released,   // its entries CSC released this layer
  output logic [31:0]              wmb_bytes_in,   // weight-mask bytes present
  output logic [13:0]              rows_done,      // new slices completely written
  output logic [31:0]              wt_bytes,       // weight bytes written
  output logic                     fetch_done,
  output logic                     data_fetched,   // every new input slice written
  output logic                     wt_fetched,     // every weight byte written
  // CBUF pair-write ports: {entry addr1, entry addr0} under a byte mask
  output logic                     dw_en,
  output logic [EA-1:0]            dw_addr0,
  output logic [EA-1:0]            dw_addr1,
  output logic [2*ENTRY_BYTES*8-1:0] dw_data,
  output logic [2*ENTRY_BYTES-1:0] dw_mask,
  output logic                     ww_en,
  output logic [EA-1:0]            ww_addr0,
  output logic [EA-1:0]            ww_addr1,
  output logic [2*ENTRY_BYTES*8-1:0] ww_data,
  output logic [2*ENTRY_BYTES-1:0] ww_mask,
  // DMA read clients [0] data, [1] weights, on two ports: valid/ready/returns {SRAM, DBB}
  // (bits [3:2] SRAM, [1:0] DBB), one request payload per client for both ports
  output logic [3:0]               rd_req_valid,
  input  logic [3:0]               rd_req_ready,
  output logic [2*ADDR_BITS-1:0]   rd_req_addr,
  output logic [2*LEN_BITS-1:0]    rd_req_len,
  output logic [2*TAG_BITS-1:0]    rd_req_tag,
  input  logic [3:0]               rd_dat_valid,
  input  logic [2*DATA_BITS-1:0]   rd_dat_data,   // {SRAM, DBB}
  input  logic [2*APB-1:0]         rd_dat_mask,
  input  logic [2*TAG_BITS-1:0]    rd_dat_tag,
  // Winograd: the folding of the input, which fixes the CBUF layout (dla_cdma_wino) for CSC
  output logic [2:0]               wino_sx_m1,
  output logic [12:0]              wino_surf_m1
);
  localparam int AB      = ATOM_BYTES * 8;
  localparam int EB      = ENTRY_BYTES * 8;
  localparam int APE     = ENTRY_BYTES / ATOM_BYTES;      // atoms per CBUF entry
  localparam int ATOM_SH = $clog2(ATOM_BYTES);
  localparam int APE_SH  = $clog2(APE);
  localparam int ENT_SH  = $clog2(ENTRY_BYTES);
  localparam int LANE_B  = (APB > 1) ? $clog2(APB) : 1;
  localparam int WCHUNK  = 16 * APE;                      // atoms per weight request

  // ---- registers ----------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */   // fields with no effect here (docs/conv-rtl.md)
  logic        consumer, producer, conv_mode, data_reuse, weight_reuse, skip_data_rls;
  logic        skip_weight_rls, pixel_mapping, ram_type, line_packed, surf_packed, wt_format;
  logic        wt_ram_type, nan_to_zero, perf_en;
  logic [3:0]  arb_weight, arb_wmb;
  logic [1:0]  in_prec, proc_prec;
  logic [2:0]  pixel_y_offset, rsv_height, stride_x, stride_y;
  logic [4:0]  batches, rsv_y_index;
  logic [9:0]  rsv_per_line, rsv_per_uv_line;
  logic [11:0] grains;
  logic [12:0] width_ext, height_ext, kernels_m1;
  logic [17:0] bpk_m1;
  logic [27:0] wmb_bytes;
  logic [31:0] batch_stride, wgs_lo, wgs_hi, wmb_lo, wmb_hi, cya;
  logic [4:0]  pad_top;
  logic [5:0]  pad_bottom;
  logic [4:0]  unused_data_bank, unused_weight_bank;
  /* verilator lint_on UNUSEDSIGNAL */
  logic        pixel_fmt_feature_n, sign_override, mean_format, cvt_en;
  logic [5:0]  pixel_format, cvt_truncate;
  logic [12:0] width_m1, height_m1, chan_m1;
  logic [4:0]  x_offset, pad_left;
  logic [5:0]  pad_right;
  logic [31:0] addr0_lo, addr0_hi, addr1_lo, addr1_hi, line_stride, uv_stride, surf_stride;
  logic [31:0] wt_lo, wt_hi, wt_total_bytes;
  logic [13:0] eps;
  logic [15:0] mean_ry, mean_gu, mean_bv, mean_ax, cvt_offset, cvt_scale, pad_value;
  logic [31:0] nan_data, inf_data, nan_wt, inf_wt;           // fp16 census of the layer

  dla_cdma_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .op_done, .op_en, .consumer, .producer,
    .s_arbiter_arb_weight(arb_weight), .s_arbiter_arb_wmb(arb_wmb),
    .s_cbuf_flush_status_flush_done(1'b1),
    .d_misc_cfg_conv_mode(conv_mode), .d_misc_cfg_in_precision(in_prec),
    .d_misc_cfg_proc_precision(proc_prec), .d_misc_cfg_data_reuse(data_reuse),
    .d_misc_cfg_weight_reuse(weight_reuse), .d_misc_cfg_skip_data_rls(skip_data_rls),
    .d_misc_cfg_skip_weight_rls(skip_weight_rls),
    .d_datain_format_datain_format(pixel_fmt_feature_n),
    .d_datain_format_pixel_format(pixel_format),
    .d_datain_format_pixel_mapping(pixel_mapping),
    .d_datain_format_pixel_sign_override(sign_override),
    .d_datain_size_0_datain_width(width_m1), .d_datain_size_0_datain_height(height_m1),
    .d_datain_size_1_datain_channel(chan_m1),
    .d_datain_size_ext_0_datain_width_ext(width_ext),
    .d_datain_size_ext_0_datain_height_ext(height_ext),
    .d_pixel_offset_pixel_x_offset(x_offset), .d_pixel_offset_pixel_y_offset(pixel_y_offset),
    .d_dain_ram_type_datain_ram_type(ram_type),
    .d_dain_addr_high_0_datain_addr_high_0(addr0_hi), .d_dain_addr_low_0_datain_addr_low_0(addr0_lo),
    .d_dain_addr_high_1_datain_addr_high_1(addr1_hi), .d_dain_addr_low_1_datain_addr_low_1(addr1_lo),
    .d_line_stride_line_stride(line_stride), .d_line_uv_stride_uv_line_stride(uv_stride),
    .d_surf_stride_surf_stride(surf_stride),
    .d_dain_map_line_packed(line_packed), .d_dain_map_surf_packed(surf_packed),
    .d_reserved_x_cfg_rsv_per_line(rsv_per_line), .d_reserved_x_cfg_rsv_per_uv_line(rsv_per_uv_line),
    .d_reserved_y_cfg_rsv_height(rsv_height), .d_reserved_y_cfg_rsv_y_index(rsv_y_index),
    .d_batch_number_batches(batches), .d_batch_stride_batch_stride(batch_stride),
    .d_entry_per_slice_entries(eps), .d_fetch_grain_grains(grains),
    .d_weight_format_weight_format(wt_format),
    .d_weight_size_0_byte_per_kernel(bpk_m1), .d_weight_size_1_weight_kernel(kernels_m1),
    .d_weight_ram_type_weight_ram_type(wt_ram_type),
    .d_weight_addr_high_weight_addr_high(wt_hi), .d_weight_addr_low_weight_addr_low(wt_lo),
    .d_weight_bytes_weight_bytes(wt_total_bytes),
    .d_wgs_addr_high_wgs_addr_high(wgs_hi), .d_wgs_addr_low_wgs_addr_low(wgs_lo),
    .d_wmb_addr_high_wmb_addr_high(wmb_hi), .d_wmb_addr_low_wmb_addr_low(wmb_lo),
    .d_wmb_bytes_wmb_bytes(wmb_bytes),
    .d_mean_format_mean_format(mean_format),
    .d_mean_global_0_mean_ry(mean_ry), .d_mean_global_0_mean_gu(mean_gu),
    .d_mean_global_1_mean_bv(mean_bv), .d_mean_global_1_mean_ax(mean_ax),
    .d_cvt_cfg_cvt_en(cvt_en), .d_cvt_cfg_cvt_truncate(cvt_truncate),
    .d_cvt_offset_cvt_offset(cvt_offset), .d_cvt_scale_cvt_scale(cvt_scale),
    .d_conv_stride_conv_x_stride(stride_x), .d_conv_stride_conv_y_stride(stride_y),
    .d_zero_padding_pad_left(pad_left), .d_zero_padding_pad_right(pad_right),
    .d_zero_padding_pad_top(pad_top), .d_zero_padding_pad_bottom(pad_bottom),
    .d_zero_padding_value_pad_value(pad_value),
    .d_bank_data_bank(unused_data_bank), .d_bank_weight_bank(unused_weight_bank),
    .d_nan_flush_to_zero_nan_to_zero(nan_to_zero),
    .d_nan_input_data_num_nan_data_num(nan_data), .d_nan_input_weight_num_nan_weight_num(nan_wt),
    .d_inf_input_data_num_inf_data_num(inf_data), .d_inf_input_weight_num_inf_weight_num(inf_wt),
    .d_perf_enable_dma_en(perf_en),
    .d_perf_dat_read_stall_dat_rd_stall(32'd0), .d_perf_wt_read_stall_wt_rd_stall(32'd0),
    .d_perf_dat_read_latency_dat_rd_latency(32'd0), .d_perf_wt_read_latency_wt_rd_latency(32'd0),
    .d_cya_cya(cya)
  );

  /* verilator lint_off UNUSEDSIGNAL */   // address bits above ADDR_BITS
  wire [63:0] addr0_64 = {addr0_hi, addr0_lo};
  wire [63:0] addr1_64 = {addr1_hi, addr1_lo};
  wire [63:0] wt_64    = {wt_hi, wt_lo};
  /* verilator lint_on UNUSEDSIGNAL */
  wire image = pixel_fmt_feature_n;
  wire wino = HAS_WINO && conv_mode && !image;
  assign wino_sx_m1   = stride_x;

  // ---- memory ports -------------------------------------------------------------------------
  // DATAIN_RAM_TYPE / WEIGHT_RAM_TYPE: 0 the secondary (SRAM) port, 1 DBB. A client reads one
  // port for a whole layer (CDMA ends a layer with no read outstanding), so its returns come
  // from that port alone; data and weights may each take a beat in the same clock.
  wire                 d_sram = HAS_SRAM && !ram_type;
  wire                 w_sram = HAS_SRAM && !wt_ram_type;
  logic                dp_req, wp_req;               // the clients' request valids
  wire                 dp_ready = d_sram ? rd_req_ready[2] : rd_req_ready[0];
  wire                 wp_ready = w_sram ? rd_req_ready[3] : rd_req_ready[1];
  wire                 dp_valid = d_sram ? rd_dat_valid[2] : rd_dat_valid[0];
  wire                 wp_valid = w_sram ? rd_dat_valid[3] : rd_dat_valid[1];
  wire [DATA_BITS-1:0] dp_data  = rd_dat_data[(d_sram ? DATA_BITS : 0) +: DATA_BITS];
  wire [DATA_BITS-1:0] wp_data  = rd_dat_data[(w_sram ? DATA_BITS : 0) +: DATA_BITS];
  wire [APB-1:0]       dp_mask  = rd_dat_mask[(d_sram ? APB : 0) +: APB];
  wire [APB-1:0]       wp_mask  = rd_dat_mask[(w_sram ? APB : 0) +: APB];
  wire [TAG_BITS-1:0]  dp_tag   = rd_dat_tag[(d_sram ? TAG_BITS : 0) +: TAG_BITS];
  assign rd_req_valid = {w_sram && wp_req, d_sram && dp_req, !w_sram && wp_req, !d_sram && dp_req};
  /* verilator lint_off UNUSEDSIGNAL */   // the weight tag says which copy (compression only)
  wire [TAG_BITS-1:0]  wp_tag   = rd_dat_tag[(w_sram ? TAG_BITS : 0) +: TAG_BITS];
  /* verilator lint_on UNUSEDSIGNAL */
  wire [EA:0] eps_p1 = (EA+1)'(15'(eps) + 15'd1);   // a slice is at most the whole buffer

  // Next entry of a ring [first, first + size).
  function automatic logic [EA-1:0] ring_add(input logic [EA-1:0] e, input logic [EA:0] inc,
                                             input logic [EA-1:0] first, input logic [EA:0] size);
    logic [EA+1:0] s;
    s = {2'b0, e} + {1'b0, inc};
    if (s >= {1'b0, first} + {1'b0, size}) s = s - {1'b0, size};
    ring_add = s[EA-1:0];
  endfunction

  // ---- direct-mode feature fetch ----------------------------------------------------------
  // Processing precision: 2-byte elements (int16/fp16) only on configurations that have them.
  wire              es2     = PREC16 && proc_prec != 2'd0;
  // Batches: slice y * N + b is line y of batch b (at BATCH_STRIDE from batch b - 1); lines are
  // fetched in slice order.
  logic                 running, d_walk, fetch_data_q;
  logic [12:0]          d_y, d_s;
  logic [4:0]           d_b;
  logic [ADDR_BITS-1:0] d_row, d_bat, d_addr;
  wire  [4:0]           n_m1 = HAS_BATCH ? batches : 5'd0;
  wire  [13:0]          slices_total = 14'((15'(height_m1) + 15'd1) * (15'(n_m1) + 15'd1));
  wire  [12:0]          surf_m1 = es2 ? chan_m1 >> (ATOM_SH - 1) : chan_m1 >> ATOM_SH;
  assign wino_surf_m1 = surf_m1;

  wire d_req_valid = running && d_walk && !image && !wino;
  wire d_fire = d_req_valid && dp_ready;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      d_walk <= 1'b0;
      d_y    <= '0;
      d_s    <= '0;
      d_b    <= '0;
      d_row  <= '0;
      d_bat  <= '0;
      d_addr <= '0;
    end else if (start) begin
      d_walk <= fetch_data;
      d_y    <= '0;
      d_s    <= '0;
      d_b    <= '0;
      d_row  <= addr0_64[ADDR_BITS-1:0];
      d_bat  <= addr0_64[ADDR_BITS-1:0];
      d_addr <= addr0_64[ADDR_BITS-1:0];
    end else if (d_fire) begin
      if (d_s != surf_m1) begin
        d_s    <= d_s + 13'd1;
        d_addr <= d_addr + ADDR_BITS'(surf_stride);
      end else if (d_b != n_m1) begin               // the same line of the next batch
        d_s    <= '0;
        d_b    <= d_b + 5'd1;
        d_bat  <= d_bat + ADDR_BITS'(batch_stride);
        d_addr <= d_bat + ADDR_BITS'(batch_stride);
      end else begin
        d_s    <= '0;
        d_b    <= '0;
        d_row  <= d_row + ADDR_BITS'(line_stride);
        d_bat  <= d_row + ADDR_BITS'(line_stride);
        d_addr <= d_row + ADDR_BITS'(line_stride);
        if (d_y == height_m1) d_walk <= 1'b0;
        d_y <= d_y + 13'd1;
      end
    end

  // Slice layout (docs/conv-rtl.md): surfaces in blocks of APE; a full block holds one pixel's
  // APE atoms per entry (W entries), the last, partial block of r surfaces holds them in slots
  // of r rounded up to a power of two atoms. Atom (s, x) is at byte
  //   full block:  (s / APE) * W * E + x * E + (s % APE) * A
  //   last block:  q * W * E + x * slot * A + (s % APE) * A           (q = full blocks)
  // With one atom per entry (APE = 1) that is atom s * W + x.
  wire  [13:0] nsurf  = 14'(surf_m1) + 14'd1;
  logic [13:0] nfull;
  logic [3:0]  slot_atoms;                             // atoms per pixel in the last block
  dla_conv_slice_geom #(.ATOM_BYTES(ATOM_BYTES), .ENTRY_BYTES(ENTRY_BYTES)) u_geom (
    .nsurf, .nfull, .slot_atoms);

  // Returned atoms (in request order) go to the slice, converted element by element.
  logic [EA-1:0]    d_slice;
  logic [12:0]      d_x, d_sw;
  logic [31:0]      d_xoff;                            // x * pitch of the current row
  logic [13:0]      d_rows;
  wire              d_in     = dp_valid && !image && !wino;
  wire              d_full   = (14'(d_sw) >> APE_SH) < nfull;
  wire  [31:0]      d_pitch  = d_full ? 32'(ENTRY_BYTES) : 32'(slot_atoms) << ATOM_SH;
  wire  [31:0]      d_sbase  = (d_full ? 32'(d_sw) >> APE_SH : 32'(nfull)) * (32'(width_m1) + 32'd1) *
                               32'(ENTRY_BYTES) + ((32'(d_sw) & 32'(APE - 1)) << ATOM_SH);
  wire  [31:0]      d_off    = d_sbase + d_xoff;
  wire  [EA-1:0]    d_ent    = ring_add(d_slice, (EA+1)'(d_off >> ENT_SH), '0, data_ring);
  // atoms sit at atom-aligned offsets of an entry (d_off is a multiple of ATOM_BYTES), so the
  // bits below the atom are 0; with one atom an entry the beat always starts the window
  wire  [ENT_SH-1:0] d_sh    = ENT_SH'(d_off) & ~(ENT_SH'(ATOM_BYTES - 1));

  // atoms of the beat: count and lowest lane (the mask is contiguous)
  /* verilator lint_off UNUSEDSIGNAL */   // one atom a beat (APB = 1): always lane 0
  logic [LANE_B-1:0] d_lo;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [1:0]        d_n;
  dla_beat_lanes #(.APB(APB), .LANE_B(LANE_B)) u_d_lanes (.mask(dp_mask), .lo(d_lo), .n(d_n));

  // converter: one per byte position; an int16 element uses the one at its even byte
  logic [DATA_BITS-1:0]   d_cv, d_s8;
  /* verilator lint_off UNUSEDSIGNAL */   // odd positions' 16-bit results, even ones' in int8
  logic [DATA_BITS*2-1:0] d_s16;
  /* verilator lint_on UNUSEDSIGNAL */
  for (genvar i = 0; i < DATA_BITS / 8; i++) begin : g_cvt
    wire  [7:0]  lo = dp_data[i*8 +: 8];
    wire  [7:0]  hi = dp_data[(i | 1)*8 +: 8];
    wire  [16:0] p  = (es2 && i % 2 == 0) ? {hi[7], hi, lo} : {{9{lo[7]}}, lo};
    /* verilator lint_off UNUSEDSIGNAL */   // direct mode never converts into fp16
    logic [16:0] z17;
    /* verilator lint_on UNUSEDSIGNAL */
    dla_conv_cvt u_cvt (.p, .offset(cvt_offset), .scale(cvt_scale), .truncate(cvt_truncate),
                        .sat8(d_s8[i*8 +: 8]), .sat16(d_s16[i*16 +: 16]), .z17);
  end
  // fp16 data: NaN elements become +0 with NAN_TO_ZERO (the converter is off for fp16)
  wire fp_in = HAS_FP && in_prec == 2'd2;
  always_comb
    for (int i = 0; i < DATA_BITS / 8; i++)
      d_cv[i*8 +: 8] = !cvt_en ? dp_data[i*8 +: 8] :
                       es2 ? d_s16[(i & ~1)*16 + (i % 2)*8 +: 8] : d_s8[i*8 +: 8];
  logic [DATA_BITS-1:0] d_fl;                        // flushed after the converter
  /* verilator lint_off UNUSEDSIGNAL */               // Winograd only
  logic [DATA_BITS-1:0] d_nf;                        // flushed raw data
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb
    for (int e = 0; e < DATA_BITS / 16; e++) begin
      d_fl[e*16 +: 16] = (fp_in && nan_to_zero && dp_data[e*16 + 10 +: 5] == 5'h1f &&
                          dp_data[e*16 +: 10] != '0) ? 16'd0 : d_cv[e*16 +: 16];
      d_nf[e*16 +: 16] = (fp_in && nan_to_zero && dp_data[e*16 + 10 +: 5] == 5'h1f &&
                          dp_data[e*16 +: 10] != '0) ? 16'd0 : dp_data[e*16 +: 16];
    end

  // the beat's atoms at their slice positions: atom j at byte d_sh + j * pitch of the window
  logic [2*EB-1:0]          d_wdata;
  logic [2*ENTRY_BYTES-1:0] d_wmask;
  always_comb begin
    d_wdata = '0;
    d_wmask = '0;
    for (int j = 0; j < APB; j++)
      if (j < 32'(d_n)) begin
        d_wdata = d_wdata | ((2*EB)'(d_fl[(32'(d_lo) + j) % APB * AB +: AB]) << ((32'(d_sh) + 32'(j) * d_pitch) * 8));
        d_wmask = d_wmask | ((2*ENTRY_BYTES)'({ATOM_BYTES{1'b1}}) << (32'(d_sh) + 32'(j) * d_pitch));
      end
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      d_slice <= '0;
      d_x     <= '0;
      d_sw    <= '0;
      d_xoff  <= '0;
      d_rows  <= '0;
    end else if (start) begin
      d_slice <= slice_base0;
      d_x     <= '0;
      d_sw    <= '0;
      d_xoff  <= '0;
      d_rows  <= '0;
    end else if (d_in) begin
      if (14'(d_x) + 14'(d_n) <= 14'(width_m1)) begin
        d_x    <= d_x + 13'(d_n);
        d_xoff <= d_xoff + 32'(d_n) * d_pitch;
      end else begin                                 // row of this surface complete
        d_x    <= '0;
        d_xoff <= '0;
        if (d_sw != surf_m1) d_sw <= d_sw + 13'd1;
        else begin                                   // slice complete
          d_sw    <= '0;
          d_rows  <= d_rows + 14'd1;
          d_slice <= ring_add(d_slice, eps_p1, '0, data_ring);
        end
      end
    end

  // ---- image fetch ------------------------------------------------------------------------
  logic                 i_req_valid, i_we;
  logic [ADDR_BITS-1:0] i_req_addr;
  logic [LEN_BITS-1:0]  i_req_len;
  logic [TAG_BITS-1:0]  i_req_tag;
  logic [EA-1:0]        i_waddr;
  logic [ENTRY_BYTES*8-1:0] i_wdata;
  logic [ENTRY_BYTES-1:0]   i_wmask;
  logic [13:0]          i_rows;
  logic [$clog2(ATOM_BYTES / 2):0] i_nan, i_inf;      // fp16 pixels: the census of a taken atom

  dla_cdma_img #(
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ENTRY_BYTES(ENTRY_BYTES), .PREC16(PREC16), .EA(EA), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS)
  ) u_img (
    .clk, .rstn, .start(start && image && fetch_data),
    .pixel_format, .es2, .fp_out(HAS_FP && proc_prec == 2'd2), .nan_to_zero, .sign_override, .width_m1, .height_m1, .chan_m1, .x_offset,
    .addr0(addr0_64[ADDR_BITS-1:0]), .addr1(addr1_64[ADDR_BITS-1:0]), .line_stride, .uv_stride,
    .pad_left, .pad_right, .pad_value,
    .cvt_en, .cvt_truncate, .cvt_offset, .cvt_scale,
    .mean_format, .mean_ry, .mean_gu, .mean_bv, .mean_ax,
    .slice_base0, .eps_p1, .data_ring,
    .req_valid(i_req_valid), .req_ready(dp_ready), .req_addr(i_req_addr),
    .req_len(i_req_len), .req_tag(i_req_tag),
    .dat_valid(dp_valid && image), .dat_data(dp_data), .dat_mask(dp_mask),
    .dat_tag(dp_tag),
    .w_en(i_we), .w_addr(i_waddr), .w_data(i_wdata), .w_mask(i_wmask), .rows_done(i_rows),
    .cen_nan(i_nan), .cen_inf(i_inf)
  );

  // ---- Winograd fetch ---------------------------------------------------------------------
  // fp16 NaNs flushed after padding: the data and the pad value alike
  /* verilator lint_off UNUSEDSIGNAL */   // Winograd only
  wire  [15:0]          x_pad = (fp_in && nan_to_zero && pad_value[14:10] == 5'h1f && pad_value[9:0] != '0)
                                ? 16'd0 : pad_value;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                 x_req_valid, x_we;
  logic [ADDR_BITS-1:0] x_req_addr;
  logic [EA-1:0]        x_waddr0, x_waddr1;
  logic [2*EB-1:0]      x_wdata;
  logic [2*ENTRY_BYTES-1:0] x_wmask;
  logic [13:0]          x_rows;
  if (HAS_WINO) begin : g_wino
    dla_cdma_wino #(
      .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
      .ENTRY_BYTES(ENTRY_BYTES), .EA(EA), .APB(APB)
    ) u_wino (
      .clk, .rstn, .start(start && wino && fetch_data), .es2, .width_m1, .height_m1, .surf_m1,
      .w_ext_m1(width_ext), .h_ext_m1(height_ext), .stride_x_m1(stride_x), .stride_y_m1(stride_y),
      .pad_left, .pad_top, .pad_value(x_pad), .addr0(addr0_64[ADDR_BITS-1:0]), .line_stride, .surf_stride,
      .slice_base0, .eps_p1, .data_ring,
      .req_valid(x_req_valid), .req_ready(dp_ready), .req_addr(x_req_addr),
      .dat_valid(dp_valid && wino), .dat_data(d_nf), .dat_lo(d_lo), .dat_n(d_n),
      .w_en(x_we), .w_addr0(x_waddr0), .w_addr1(x_waddr1), .w_data(x_wdata), .w_mask(x_wmask),
      .rows_done(x_rows)
    );
  end else begin : g_no_wino
    assign {x_req_valid, x_we, x_req_addr, x_waddr0, x_waddr1, x_wdata, x_wmask, x_rows} = '0;
  end

  assign dp_req                      = image ? i_req_valid : wino ? x_req_valid : d_req_valid;
  assign rd_req_addr[0 +: ADDR_BITS] = image ? i_req_addr : wino ? x_req_addr : d_addr;
  assign rd_req_len[0 +: LEN_BITS]   = image ? i_req_len : LEN_BITS'(width_m1);
  assign rd_req_tag[0 +: TAG_BITS]   = image ? i_req_tag : '0;

  wire [EA-1:0] d_ent1 = ring_add(d_ent, (EA+1)'(1), '0, data_ring);
  wire [EA-1:0] i_waddr1 = ring_add(i_waddr, (EA+1)'(1), '0, data_ring);
  assign dw_en    = image ? i_we : wino ? x_we : d_in;
  assign dw_addr0 = image ? i_waddr : wino ? x_waddr0 : d_ent;
  assign dw_addr1 = image ? i_waddr1 : wino ? x_waddr1 : d_ent1;
  assign dw_data  = image ? {{EB{1'b0}}, i_wdata} : wino ? x_wdata : d_wdata;
  assign dw_mask  = image ? {{ENTRY_BYTES{1'b0}}, i_wmask} : wino ? x_wmask : d_wmask;
  assign rows_done = image ? i_rows : wino ? x_rows : d_rows;

  // ---- weight fetch -----------------------------------------------------------------------
  // Up to three copies share the weight client, told apart by the request tag: the weights
  // (tag 0; a compressed layer's compressed stream) into the weight ring, and for compressed
  // layers the mask bits (tag 1, WMB) into their ring in the last bank and the group sizes
  // (tag 2, WGS). Requests: WGS first (one atom when its buffer is empty), then WMB, then the
  // weights. Returns of one client come back in request order.
  wire         cmp       = HAS_WMB && wt_format;
  wire  [31:0] w_total   = wt_total_bytes >> ATOM_SH;
  wire  [31:0] m_total   = 32'(wmb_bytes) >> ATOM_SH;
  wire  [13:0] groups_m1 = es2 ? 14'(kernels_m1) >> ($clog2(AK) - 1) : 14'(kernels_m1) >> $clog2(AK);
  // the beat's atoms (the same count and first lane rules as for data)
  logic [LANE_B-1:0]    w_lo;
  logic [1:0]           w_n;
  dla_beat_lanes #(.APB(APB), .LANE_B(LANE_B)) u_w_lanes (.mask(wp_mask), .lo(w_lo), .n(w_n));
  wire  [APB*AB-1:0]    w_beat = wp_data >> (32'(w_lo) * AB);
  wire  [1:0]           w_kind = HAS_WMB ? wp_tag[1:0] : 2'd0;   // 0 weights, 1 WMB, 2 WGS

  logic                 t_req, m_req, g_req, t_walk, m_walk, g_done;
  logic [ADDR_BITS-1:0] t_addr, m_addr, g_addr;
  logic [$clog2(WCHUNK+1)-1:0] t_len, m_len;           // atoms a request (at most WCHUNK)
  logic [31:0]          t_atoms, m_atoms, declared;
  // The kind goes by priority when a request is first presented and then stays until the
  // request is accepted: the AXI master accepts with the last burst, and a v1 weight request
  // (WCHUNK atoms) is several bursts, so a WGS or WMB request that becomes ready meanwhile must
  // not change the presented address, length and tag.
  wire  [1:0]           w_pick = g_req ? 2'd2 : m_req ? 2'd1 : 2'd0;
  logic                 w_held;                      // a request is presented, not yet accepted
  logic [1:0]           w_held_sel;
  wire  [1:0]           w_sel  = w_held ? w_held_sel : w_pick;
  wire                  w_fire = wp_req && wp_ready;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      w_held     <= 1'b0;
      w_held_sel <= '0;
    end else begin
      w_held <= wp_req && !w_fire;
      if (!w_held) w_held_sel <= w_pick;
    end

  logic                      tw_en, mw_en;
  logic [EA-1:0]             tw_addr0, tw_addr1, mw_addr0, mw_addr1;
  logic [2*ENTRY_BYTES*8-1:0] tw_data, mw_data;
  logic [2*ENTRY_BYTES-1:0]  tw_mask, mw_mask;
  dla_cdma_ring_fetch #(
    .ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .ENTRY_BYTES(ENTRY_BYTES), .EA(EA),
    .APB(APB), .CHUNK(WCHUNK)
  ) u_wt (
    .clk, .rstn, .start, .walk(fetch_weights), .enable(running), .base(wt_64[ADDR_BITS-1:0]),
    .total(w_total), .ring_first(wt_first), .ring_size(wt_ring), .released(wt_released),
    .req_valid(t_req), .req_fire(w_fire && w_sel == 2'd0), .req_addr(t_addr), .req_atoms(t_len),
    .beat_in(wp_valid && w_kind == 2'd0), .beat_atoms(w_beat), .beat_n(w_n),
    .walking(t_walk), .atoms(t_atoms),
    .w_en(tw_en), .w_addr0(tw_addr0), .w_addr1(tw_addr1), .w_data(tw_data), .w_mask(tw_mask)
  );

  if (HAS_WMB) begin : g_wmb
    /* verilator lint_off UNUSEDSIGNAL */   // address bits above ADDR_BITS
    wire [63:0] wmb_64 = {wmb_hi, wmb_lo};
    wire [63:0] wgs_64 = {wgs_hi, wgs_lo};
    /* verilator lint_on UNUSEDSIGNAL */
    dla_cdma_ring_fetch #(
      .ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES), .ENTRY_BYTES(ENTRY_BYTES), .EA(EA),
      .APB(APB), .CHUNK(WCHUNK)
    ) u_wmb (
      .clk, .rstn, .start, .walk(fetch_weights && cmp), .enable(running),
      .base(wmb_64[ADDR_BITS-1:0]), .total(m_total), .ring_first(wmb_first), .ring_size(wmb_ring),
      .released(wmb_released),
      .req_valid(m_req), .req_fire(w_fire && w_sel == 2'd1), .req_addr(m_addr), .req_atoms(m_len),
      .beat_in(wp_valid && w_kind == 2'd1), .beat_atoms(w_beat), .beat_n(w_n),
      .walking(m_walk), .atoms(m_atoms),
      .w_en(mw_en), .w_addr0(mw_addr0), .w_addr1(mw_addr1), .w_data(mw_data), .w_mask(mw_mask)
    );
    dla_cdma_wgs #(.ADDR_BITS(ADDR_BITS), .ATOM_BYTES(ATOM_BYTES)) u_wgs (
      .clk, .rstn, .start, .walk(fetch_weights && cmp), .enable(running),
      .base(wgs_64[ADDR_BITS-1:0]), .groups_m1,
      .req_valid(g_req), .req_fire(w_fire && w_sel == 2'd2), .req_addr(g_addr),
      .atom_in(wp_valid && w_kind == 2'd2), .atom(w_beat[0 +: AB]),
      .stream_bytes(t_atoms << ATOM_SH), .declared, .done(g_done)
    );
  end else begin : g_no_wmb
    assign {m_req, m_addr, m_len, m_walk, m_atoms} = '0;
    assign {mw_en, mw_addr0, mw_addr1, mw_data, mw_mask} = '0;
    assign {g_req, g_addr, declared} = '0;
    assign g_done = 1'b1;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_wmb = &{1'b0, wmb_hi, wmb_lo, wgs_hi, wgs_lo, wmb_first, wmb_ring, wmb_released,
                        m_total, groups_m1, wt_format};
    /* verilator lint_on UNUSEDSIGNAL */
  end

  assign wp_req = w_held ? (w_sel == 2'd2 ? g_req : w_sel == 2'd1 ? m_req : t_req) : (t_req || m_req || g_req);
  assign rd_req_addr[ADDR_BITS +: ADDR_BITS] = w_sel == 2'd2 ? g_addr : w_sel == 2'd1 ? m_addr : t_addr;
  assign rd_req_len[LEN_BITS +: LEN_BITS]    = w_sel == 2'd2 ? '0 :
                                               LEN_BITS'((w_sel == 2'd1 ? 32'(m_len) : 32'(t_len)) - 32'd1);
  assign rd_req_tag[TAG_BITS +: TAG_BITS]    = TAG_BITS'(w_sel);

  assign ww_en    = tw_en || mw_en;
  assign ww_addr0 = mw_en ? mw_addr0 : tw_addr0;
  assign ww_addr1 = mw_en ? mw_addr1 : tw_addr1;
  assign ww_data  = mw_en ? mw_data : tw_data;
  assign ww_mask  = mw_en ? mw_mask : tw_mask;
  // weight bytes CSC may read: written (uncompressed) or declared by WGS (compressed); all of
  // them when the layer reuses the weights
  assign wt_bytes  = !t_walk ? w_total << ATOM_SH : cmp ? declared : t_atoms << ATOM_SH;
  assign wmb_bytes_in = (m_walk ? m_atoms : m_total) << ATOM_SH;

  // ---- fp16 census ---------------------------------------------------------------------------
  // Counted before the flush: every element of the fetched feature atoms (direct mode; data
  // layers with IN_PRECISION fp16) and of every weight beat, the compressed stream included
  // (PROC_PRECISION fp16). 32-bit counters, cleared at the start of a layer, saturating.
  localparam int CB = $clog2(DATA_BITS / 16) + 1;
  logic [CB-1:0] bn_d, bi_d, bn_w, bi_w;
  if (HAS_FP) begin : g_census
    localparam int EPA = ATOM_BYTES / 2;                  // elements per atom
    logic [DATA_BITS/16-1:0] d_sel, w_sel_e;
    always_comb
      for (int e = 0; e < DATA_BITS / 16; e++) begin
        d_sel[e]   = dp_mask[e / EPA];
        w_sel_e[e] = wp_mask[e / EPA];
      end
    dla_fp16_census #(.BITS(DATA_BITS)) u_dc (.data(dp_data), .sel(d_sel), .nan(bn_d), .inf(bi_d));
    dla_fp16_census #(.BITS(DATA_BITS)) u_wc (.data(wp_data), .sel(w_sel_e), .nan(bn_w), .inf(bi_w));
  end else begin : g_no_census
    assign {bn_d, bi_d, bn_w, bi_w} = '0;
  end
  wire count_d = dp_valid && !image && fp_in;
  // Winograd: the extended cube's pad elements count as the pad value (before the flush): the
  // padded rows times their width, less the input lines inside them, times the channels
  wire [4:0]  sy_w      = 5'(stride_y) + 5'd1;
  wire [31:0] rows_ext  = (32'(height_ext) + 32'd1) * 32'(sy_w);
  wire [31:0] rows_end  = 32'(pad_top) + 32'(height_m1) + 32'd1;
  wire [31:0] rows_in   = (rows_end < rows_ext ? rows_end : rows_ext) > 32'(pad_top) ?
                          (rows_end < rows_ext ? rows_end : rows_ext) - 32'(pad_top) : 32'd0;
  wire [63:0] pad_elems = (64'(rows_ext) * (64'(width_ext) + 64'd1) * (64'(stride_x) + 64'd1) -
                           64'(rows_in) * (64'(width_m1) + 64'd1)) * (64'(surf_m1) + 64'd1) *
                          (64'(ATOM_BYTES) >> 1);
  wire [31:0] pad_count = (wino && fetch_data_q && fp_in) ? (pad_elems > 64'h0_ffff_ffff ? 32'hffff_ffff
                                                                                       : pad_elems[31:0]) : 32'd0;
  wire pad_nan = pad_value[14:10] == 5'h1f && pad_value[9:0] != '0;
  wire pad_inf = pad_value[14:10] == 5'h1f && pad_value[9:0] == '0;
  wire count_w = wp_valid && w_kind == 2'd0 && HAS_FP && proc_prec == 2'd2;
  logic start_q;                                       // the clock after start
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) start_q <= 1'b0;
    else start_q <= start;
  function automatic logic [31:0] sat_add(input logic [31:0] c, input logic [CB-1:0] n);
    sat_add = (33'(c) + 33'(n) > 33'h0_ffff_ffff) ? 32'hffff_ffff : c + 32'(n);
  endfunction
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) {nan_data, inf_data, nan_wt, inf_wt} <= '0;
    else if (start) {nan_data, inf_data, nan_wt, inf_wt} <= '0;
    else if (start_q) begin                            // Winograd pad elements, once a layer
      nan_data <= pad_nan ? pad_count : 32'd0;
      inf_data <= pad_inf ? pad_count : 32'd0;
    end else begin
      if (count_d) begin
        nan_data <= sat_add(nan_data, bn_d);
        inf_data <= sat_add(inf_data, bi_d);
      end else if (image && fp_in) begin
        nan_data <= sat_add(nan_data, CB'(i_nan));
        inf_data <= sat_add(inf_data, CB'(i_inf));
      end
      if (count_w) begin
        nan_wt <= sat_add(nan_wt, bn_w);
        inf_wt <= sat_add(inf_wt, bi_w);
      end
    end

  // ---- layer progress ---------------------------------------------------------------------
  wire data_done = !fetch_data_q || rows_done == (image ? 14'(height_m1) + 14'd1 :
                                                   wino ? 14'(height_ext) + 14'd1 : slices_total);
  wire wt_done   = (!t_walk || t_atoms == w_total) && (!m_walk || m_atoms == m_total) && g_done;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      running      <= 1'b0;
      fetch_data_q <= 1'b0;
    end else if (start) begin
      running      <= 1'b1;
      fetch_data_q <= fetch_data;
    end else if (op_done) running <= 1'b0;
  assign fetch_done   = running && data_done && wt_done;
  assign data_fetched = running && data_done;
  assign wt_fetched   = running && wt_done;

endmodule
