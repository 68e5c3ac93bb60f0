// CDMA's Winograd input fetch (docs/conv-rtl.md, Winograd): writes the padded, stride-folded
// extended cube into the CBUF, one slice per extended row Y.
//
// Slice layout: the extended channels of row Y come from the sy padded input rows
// Y * sy + v (v < sy); for each of them and each input surface s, the padded row of
// Wp = PL + W + PR = W_ext * sx atoms is stored contiguously, padded column xp at atom
//   (v * S + s) * Wp + xp            (S input surfaces)
// so a memory line lands in consecutive atoms (two per beat, as in direct mode), and extended
// atom (X, surface (v * sx + u) * S + s) is padded column X * sx + u of group (v, s).
//
// Per slice: first every entry of the slice is written with the pad value (two entries a
// clock, when no data beat is written), then the slice's input lines inside the cube are
// requested (W atoms each); returned beats overwrite their atoms. A slice counts as done
// when it was filled and every line requested for it has returned.
module dla_cdma_wino #(
  parameter int ADDR_BITS   = 32,
  parameter int DATA_BITS   = 64,
  parameter int ATOM_BYTES  = 8,
  parameter int ENTRY_BYTES = 8,
  parameter int EA          = 14,
  parameter int APB         = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                     clk,
  input  logic                     rstn,
  input  logic                     start,          // a Winograd layer that fetches data
  input  logic                     es2,            // 2-byte elements
  input  logic [12:0]              width_m1,       // input cube W - 1, H - 1
  input  logic [12:0]              height_m1,
  input  logic [12:0]              surf_m1,        // input surfaces - 1
  input  logic [12:0]              w_ext_m1,       // W_ext - 1, H_ext - 1
  input  logic [12:0]              h_ext_m1,
  input  logic [2:0]               stride_x_m1,
  input  logic [2:0]               stride_y_m1,
  input  logic [4:0]               pad_left,
  input  logic [4:0]               pad_top,
  input  logic [15:0]              pad_value,
  input  logic [ADDR_BITS-1:0]     addr0,
  input  logic [31:0]              line_stride,
  input  logic [31:0]              surf_stride,
  input  logic [EA-1:0]            slice_base0,
  input  logic [EA:0]              eps_p1,
  input  logic [EA:0]              data_ring,
  // DMA read requests of W atoms (returns in request order)
  output logic                     req_valid,
  input  logic                     req_ready,
  output logic [ADDR_BITS-1:0]     req_addr,
  input  logic                     dat_valid,
  input  logic [DATA_BITS-1:0]     dat_data,
  input  logic [(APB > 1 ? $clog2(APB) : 1)-1:0] dat_lo,   // the beat's lowest atom lane, atoms
  input  logic [1:0]               dat_n,                    // (dla_beat_lanes in dla_cdma)
  // CBUF pair write
  output logic                     w_en,
  output logic [EA-1:0]            w_addr0,
  output logic [EA-1:0]            w_addr1,
  output logic [2*ENTRY_BYTES*8-1:0] w_data,
  output logic [2*ENTRY_BYTES-1:0] w_mask,
  output logic [13:0]              rows_done
);
  localparam int AB      = ATOM_BYTES * 8;
  localparam int EB      = ENTRY_BYTES * 8;
  localparam int ATOM_SH = $clog2(ATOM_BYTES);
  localparam int ENT_SH  = $clog2(ENTRY_BYTES);
  localparam int LANE_B  = (APB > 1) ? $clog2(APB) : 1;
  localparam int QD      = 8;                      // lines in flight

  function automatic logic [EA-1:0] ring_add(input logic [EA-1:0] e, input logic [EA:0] inc,
                                             input logic [EA:0] size);
    logic [EA+1:0] s;
    s = {2'b0, e} + {1'b0, inc};
    if (s >= {1'b0, size}) s = s - {1'b0, size};
    ring_add = s[EA-1:0];
  endfunction

  wire [3:0]  sx    = 4'(stride_x_m1) + 4'd1;
  wire [3:0]  sy    = 4'(stride_y_m1) + 4'd1;
  wire [13:0] nsurf = 14'(surf_m1) + 14'd1;
  wire [17:0] wp    = (18'(w_ext_m1) + 18'd1) * 18'(sx);          // padded row, atoms
  wire signed [15:0] hin = 16'(height_m1) + 16'sd1;

  // input lines of a slice whose padded row Y * sy + v lies inside the cube
  function automatic logic [3:0] lines_in(input logic signed [15:0] rowbase, input logic [3:0] n,
                                          input logic signed [15:0] h);
    lines_in = '0;
    for (int v = 0; v < 8; v++)
      if (4'(v) < n && rowbase + 16'(v) >= 0 && rowbase + 16'(v) < h) lines_in = lines_in + 4'd1;
  endfunction

  // ---- request walk: fill slice Y, then request its lines ------------------------------------
  logic                 f_run, f_req;              // running; 0 filling, 1 requesting
  logic [12:0]          f_y, f_s;
  logic [3:0]           f_v;
  logic signed [15:0]   f_rowbase;                 // Y * sy - PT
  logic [EA-1:0]        f_base;                    // ring entry of slice Y
  logic [EA:0]          f_e;                       // entries filled
  wire  signed [15:0]   f_iy   = f_rowbase + 16'(f_v);
  wire                  f_in   = f_iy >= 0 && f_iy < hin;
  wire                  f_last_s = f_s == surf_m1;
  wire                  f_last_v = f_v == sy - 4'd1;

  // descriptor queue: where each requested line starts (ring entry, byte in it)
  logic                 q_full, q_empty;
  logic [EA+ENT_SH-1:0] q_head;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [$clog2(QD+1)-1:0] q_count;
  /* verilator lint_on UNUSEDSIGNAL */
  wire  [31:0]          row_off = ((32'(f_v) * 32'(nsurf) + 32'(f_s)) * 32'(wp) + 32'(pad_left)) << ATOM_SH;
  wire  [EA-1:0]        row_ent = ring_add(f_base, (EA+1)'(row_off >> ENT_SH), data_ring);

  // A line's descriptor is queued when its request is first presented, not when it is
  // accepted: the AXI master accepts a request with its last burst, and under a slow AR
  // channel the first burst's beats can return before that.
  logic  q_pushed;                                 // the presented request's descriptor is queued
  wire   present   = f_run && f_req && f_in;
  wire   q_push    = present && !q_pushed && !q_full;
  assign req_valid = present && (q_pushed || !q_full);
  assign req_addr  = addr0 + ADDR_BITS'($unsigned(32'(f_iy)) * line_stride) + ADDR_BITS'(32'(f_s) * surf_stride);
  wire   fire      = req_valid && req_ready;
  wire   skip      = f_run && f_req && !f_in;      // a padded line: nothing to fetch
  wire   fill_go   = f_run && !f_req && !dat_valid;
  wire   fill_two  = f_e + (EA+1)'(2) <= eps_p1;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) q_pushed <= 1'b0;
    else if (start) q_pushed <= 1'b0;
    else q_pushed <= (q_pushed || q_push) && !fire;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      f_run <= 1'b0; f_req <= 1'b0; f_y <= '0; f_s <= '0; f_v <= '0; f_rowbase <= '0;
      f_base <= '0; f_e <= '0;
    end else if (start) begin
      f_run <= 1'b1; f_req <= 1'b0; f_y <= '0; f_s <= '0; f_v <= '0;
      f_rowbase <= 16'sd0 - 16'(pad_top); f_base <= slice_base0; f_e <= '0;
    end else if (fill_go) begin
      if (fill_two && f_e + (EA+1)'(2) != eps_p1) f_e <= f_e + (EA+1)'(2);
      else begin
        f_e   <= '0;
        f_req <= 1'b1;
      end
    end else if (fire || skip) begin
      if (fire && !f_last_s) f_s <= f_s + 13'd1;
      else begin
        f_s <= '0;
        if (!f_last_v) f_v <= f_v + 4'd1;
        else begin                                 // slice requested
          f_v       <= '0;
          f_req     <= 1'b0;
          f_base    <= ring_add(f_base, eps_p1, data_ring);
          f_rowbase <= f_rowbase + 16'(sy);
          f_y       <= f_y + 13'd1;
          if (f_y == h_ext_m1) f_run <= 1'b0;
        end
      end
    end

  // ---- returned beats -------------------------------------------------------------------------
  logic [12:0]       r_x;
  wire  [LANE_B-1:0] r_lo = dat_lo;
  wire  [1:0]        r_n  = dat_n;
  wire [EA-1:0]     h_ent   = q_head[ENT_SH +: EA];
  wire [31:0]       r_off   = 32'(q_head[0 +: ENT_SH]) + (32'(r_x) << ATOM_SH);
  wire [EA-1:0]     r_ent   = ring_add(h_ent, (EA+1)'(r_off >> ENT_SH), data_ring);
  wire [ENT_SH-1:0] r_sh    = ENT_SH'(r_off);
  wire              r_end   = dat_valid && 14'(r_x) + 14'(r_n) > 14'(width_m1);

  dla_fifo #(.WIDTH(EA + ENT_SH), .DEPTH(QD)) u_q (
    .clk, .rstn, .push(q_push), .push_data({row_ent, row_off[ENT_SH-1:0]}), .pop(r_end),
    .head(q_head), .empty(q_empty), .full(q_full), .count(q_count));

  logic [2*EB-1:0]          b_data;
  logic [2*ENTRY_BYTES-1:0] b_mask;
  always_comb begin
    b_data = '0;
    b_mask = '0;
    for (int j = 0; j < APB; j++)
      if (j < 32'(r_n)) begin
        b_data = b_data | ((2*EB)'(dat_data[(32'(r_lo) + j) % APB * AB +: AB]) << ((32'(r_sh) + 32'(j) * ATOM_BYTES) * 8));
        b_mask = b_mask | ((2*ENTRY_BYTES)'({ATOM_BYTES{1'b1}}) << (32'(r_sh) + 32'(j) * ATOM_BYTES));
      end
  end

  // ---- slices done ----------------------------------------------------------------------------
  logic [31:0]        lines_back, lines_before;     // lines returned; lines of slices before r_y
  logic [12:0]        r_y;
  logic signed [15:0] r_rowbase;
  logic               r_run;
  wire  [31:0]        r_target = lines_before + 32'(lines_in(r_rowbase, sy, hin)) * 32'(nsurf);
  wire                r_filled = !f_run || f_y > r_y || (f_y == r_y && f_req);
  wire                r_done   = r_run && r_filled && lines_back >= r_target;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      r_x <= '0; lines_back <= '0; lines_before <= '0; r_y <= '0; r_rowbase <= '0; r_run <= 1'b0;
      rows_done <= '0;
    end else if (start) begin
      r_x <= '0; lines_back <= '0; lines_before <= '0; r_y <= '0;
      r_rowbase <= 16'sd0 - 16'(pad_top); r_run <= 1'b1; rows_done <= '0;
    end else begin
      if (dat_valid) begin
        if (r_end) begin
          r_x        <= '0;
          lines_back <= lines_back + 32'd1;
        end else r_x <= r_x + 13'(r_n);
      end
      if (r_done) begin
        lines_before <= r_target;
        rows_done    <= rows_done + 14'd1;
        r_rowbase    <= r_rowbase + 16'(sy);
        r_y          <= r_y + 13'd1;
        if (r_y == h_ext_m1) r_run <= 1'b0;
      end
    end

  // ---- the write port: returned beats first, the pad fill otherwise ----------------------------
  wire [EB-1:0] pad_entry = es2 ? {(EB/16){pad_value}} : {(EB/8){pad_value[7:0]}};
  wire [EA-1:0] f_ent     = ring_add(f_base, f_e, data_ring);
  assign w_en    = dat_valid || fill_go;
  assign w_addr0 = dat_valid ? r_ent : f_ent;
  assign w_addr1 = dat_valid ? ring_add(r_ent, (EA+1)'(1), data_ring) : ring_add(f_ent, (EA+1)'(1), data_ring);
  assign w_data  = dat_valid ? b_data : {pad_entry, pad_entry};
  assign w_mask  = dat_valid ? b_mask : (fill_two ? '1 : {{ENTRY_BYTES{1'b0}}, {ENTRY_BYTES{1'b1}}});

  wire unused = &{1'b0, q_empty};
endmodule
