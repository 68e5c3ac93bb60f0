// CDMA image fetch (docs/conv-rtl.md): for every image row, the padded line of
// PAD_LEFT + W + PAD_RIGHT pixels of C components is built and written into the row's CBUF
// slice from its first entry, one pixel per clock. Integer pixel formats (pitch linear, one
// plane or Y + interleaved UV; 8-bit, 16-bit and 10-bit packed components), unsigned or signed
// (PIXEL_SIGN_OVERRIDE), converted with the per-component means or CVT_OFFSET when CVT_EN = 1
// into 1-byte (int8) or 2-byte (int16/fp16) elements, pad pixels stored raw; fp16 pixel
// formats stored raw but for the NaN flush, and counted for CDMA's NaN/Inf counters.
//
// Each plane has a read walker (request chunks only when its atom FIFO has room: read data is
// never back-pressured; the request tag names the plane) and a byte queue that drops the bytes
// before X_OFFSET and after the row's last pixel. A request keeps its plane until it is
// accepted (a chunk across 4 KiB is two bursts, accepted with the second; docs/rtl.md).
module dla_cdma_img #(
  parameter int ADDR_BITS   = 32,
  parameter int DATA_BITS   = 64,
  parameter int ATOM_BYTES  = 8,
  parameter int ENTRY_BYTES = 8,
  parameter bit PREC16      = 1'b0,  // int16/fp16 support: 16-bit and 10-bit pixel components
  parameter int EA          = 14,
  parameter int LEN_BITS    = 16,
  parameter int TAG_BITS    = 4,
  parameter int FIFO_ATOMS  = 16,
  parameter int APB         = DATA_BITS / (8 * ATOM_BYTES)
) (
  input  logic                     clk,
  input  logic                     rstn,
  input  logic                     start,
  input  logic [5:0]               pixel_format,
  input  logic                     es2,            // int16/fp16 processing: 2-byte elements
  input  logic                     fp_out,         // PROC fp16: integer pixels converted to fp16
  input  logic                     nan_to_zero,    // fp16 pixels: NaN components stored as +0
  input  logic                     sign_override,
  input  logic [12:0]              width_m1,
  input  logic [12:0]              height_m1,
  input  logic [12:0]              chan_m1,
  input  logic [4:0]               x_offset,
  input  logic [ADDR_BITS-1:0]     addr0,
  input  logic [ADDR_BITS-1:0]     addr1,
  input  logic [31:0]              line_stride,
  input  logic [31:0]              uv_stride,
  input  logic [4:0]               pad_left,
  input  logic [5:0]               pad_right,
  input  logic [15:0]              pad_value,
  input  logic                     cvt_en,
  input  logic [5:0]               cvt_truncate,
  input  logic [15:0]              cvt_offset,
  input  logic [15:0]              cvt_scale,
  input  logic                     mean_format,
  input  logic [15:0]              mean_ry,
  input  logic [15:0]              mean_gu,
  input  logic [15:0]              mean_bv,
  input  logic [15:0]              mean_ax,
  input  logic [EA-1:0]            slice_base0,
  input  logic [EA:0]              eps_p1,
  input  logic [EA:0]              data_ring,
  // DMA read client
  output logic                     req_valid,
  input  logic                     req_ready,
  output logic [ADDR_BITS-1:0]     req_addr,
  output logic [LEN_BITS-1:0]      req_len,
  output logic [TAG_BITS-1:0]      req_tag,
  input  logic                     dat_valid,
  input  logic [DATA_BITS-1:0]     dat_data,
  input  logic [APB-1:0]           dat_mask,
  input  logic [TAG_BITS-1:0]      dat_tag,
  // CBUF data write port
  output logic                     w_en,
  output logic [EA-1:0]            w_addr,
  output logic [ENTRY_BYTES*8-1:0] w_data,
  output logic [ENTRY_BYTES-1:0]   w_mask,
  output logic [13:0]              rows_done,
  // fp16 pixel formats: NaNs / infinities of the plane-0 atom taken this clock, from pixel
  // X_OFFSET on (the bytes before it in a row's first atom do not count)
  output logic [$clog2(ATOM_BYTES / 2):0] cen_nan,
  output logic [$clog2(ATOM_BYTES / 2):0] cen_inf
);
  localparam int AB      = ATOM_BYTES * 8;
  localparam int ATOM_SH = $clog2(ATOM_BYTES);
  localparam int CNT     = $clog2(FIFO_ATOMS + 1);
  localparam int QB      = 2 * ATOM_BYTES;                // byte queue capacity
  localparam int QC      = $clog2(QB + 1);
  localparam int EB      = ENTRY_BYTES;
  localparam int EC      = $clog2(EB + 1);
  localparam int CHUNK   = (FIFO_ATOMS < 8) ? FIFO_ATOMS : 8;

  // ---- format ---------------------------------------------------------------------------
  // bytes per pixel of plane 0 and 1, 16-bit components (16-bit and 10-bit packed formats)
  logic       semi, wide;
  logic [3:0] bpp0, bpp1;
  always_comb begin
    semi = pixel_format >= 6'd28 && pixel_format <= 6'd35;
    wide = (pixel_format >= 6'd1 && pixel_format <= 6'd11) || (pixel_format >= 6'd20 && pixel_format <= 6'd25) ||
           pixel_format >= 6'd30;
    bpp1 = pixel_format >= 6'd30 ? 4'd4 : 4'd2;
    if (pixel_format == 6'd0 || pixel_format == 6'd28 || pixel_format == 6'd29) bpp0 = 4'd1;
    else if (pixel_format <= 6'd5 || pixel_format >= 6'd30) bpp0 = 4'd2;
    else if (pixel_format <= 6'd11) bpp0 = 4'd8;
    else bpp0 = 4'd4;
  end
  wire       fp_pix = pixel_format == 6'd5 || pixel_format == 6'd8 || pixel_format == 6'd11;
  wire [2:0] ncomp = 3'(chan_m1) + 3'd1;
  wire [3:0] pix_bytes_n = es2 ? 4'(ncomp) << 1 : 4'(ncomp);   // bytes a pixel takes in the line

  // Per plane constants: bytes dropped before the first pixel of a row and after its last,
  // atoms read per row, offset of the first atom.
  logic [2*(ATOM_SH+1)-1:0] skip;
  logic [2*(ATOM_SH+1)-1:0] tail;
  logic [2*(15+1)-1:0] row_atoms;
  logic [2*(15+1)-1:0] first_atom;
  always_comb
    for (int p = 0; p < 2; p++) begin
      logic [19:0] lead, bytes;
      lead  = 20'(x_offset) * (p == 0 ? 20'(bpp0) : 20'(bpp1));
      bytes = 20'({7'd0, width_m1} + 20'd1) * (p == 0 ? 20'(bpp0) : 20'(bpp1));
      skip[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]       = (ATOM_SH+1)'(lead & 20'(ATOM_BYTES - 1));
      first_atom[(p)*(15+1) +: (15+1)] = 16'(lead >> ATOM_SH);
      row_atoms[(p)*(15+1) +: (15+1)]  = 16'((20'(skip[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]) + bytes + 20'(ATOM_BYTES - 1)) >> ATOM_SH);
      tail[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]       = (ATOM_SH+1)'((20'(row_atoms[(p)*(15+1) +: (15+1)]) << ATOM_SH) - 20'(skip[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]) - bytes);
    end

  // ---- read walkers ---------------------------------------------------------------------
  logic                 active;
  logic [1:0]           walking;
  logic [2*(12+1)-1:0] wy;
  logic [2*(15+1)-1:0] wa;                          // atoms of the row requested
  logic [2*(ADDR_BITS-1+1)-1:0] wrow;
  logic [2*(CNT-1+1)-1:0] reserved;
  logic [1:0]           can;
  logic [2*(15+1)-1:0] chunk;
  logic                 sel, last_sel, held, held_sel;
  always_comb
    for (int p = 0; p < 2; p++) begin
      chunk[(p)*(15+1) +: (15+1)] = (row_atoms[(p)*(15+1) +: (15+1)] - wa[(p)*(15+1) +: (15+1)] < 16'(CHUNK)) ? row_atoms[(p)*(15+1) +: (15+1)] - wa[(p)*(15+1) +: (15+1)] : 16'(CHUNK);
      can[p]   = walking[p] && (32'(reserved[(p)*(CNT-1+1) +: (CNT-1+1)]) + 32'(chunk[(p)*(15+1) +: (15+1)]) <= 32'(FIFO_ATOMS));
    end
  // the plane of the request presented and not accepted in the last clock, else alternate
  assign sel       = held ? held_sel : (can[1] && (!can[0] || !last_sel)) ? 1'b1 : 1'b0;
  assign req_valid = |can;
  assign req_addr  = wrow[(sel)*(ADDR_BITS-1+1) +: (ADDR_BITS-1+1)] + ((ADDR_BITS'(first_atom[(sel)*(15+1) +: (15+1)]) + ADDR_BITS'(wa[(sel)*(15+1) +: (15+1)])) << ATOM_SH);
  assign req_len   = LEN_BITS'(chunk[(sel)*(15+1) +: (15+1)] - 16'd1);
  assign req_tag   = TAG_BITS'(sel);
  wire fire = req_valid && req_ready;

  // ---- plane buffers --------------------------------------------------------------------
  logic [1:0]      take;
  logic [2*(CNT-1+1)-1:0] fifo_cnt;
  logic [2*(AB-1+1)-1:0] fifo_head;
  for (genvar p = 0; p < 2; p++) begin : g_plane
    /* verilator lint_off UNUSEDSIGNAL */
    logic [APB*AB-1:0] head;
    /* verilator lint_on UNUSEDSIGNAL */
    dla_atom_fifo #(.ATOM_BITS(AB), .APB(APB), .DEPTH(FIFO_ATOMS)) u_fifo (
      .clk, .rstn, .in_valid(dat_valid && dat_tag[0] == 1'(p)), .in_data(dat_data),
      .in_mask(dat_mask), .out_lane('0), .out_take(CNT'(take[p])), .out_data(head),
      .count(fifo_cnt[(p)*(CNT-1+1) +: (CNT-1+1)])
    );
    assign fifo_head[(p)*(AB-1+1) +: (AB-1+1)] = head[AB-1:0];
  end

  // Byte queues: q[(p)*(QB*8-1+1) +: (QB*8-1+1)] holds qn[(p)*(QC-1+1) +: (QC-1+1)] bytes, byte 0 oldest.
  logic [2*(QB*8-1+1)-1:0] q;
  logic [2*(QC-1+1)-1:0] qn;
  logic [2*(QC-1+1)-1:0] drop;       // bytes still to drop
  logic [2*(QC-1+1)-1:0] pop;        // bytes popped this clock
  logic [2*(QC-1+1)-1:0] dpop;       // of which dropped

  // ---- pixel sequencer ----------------------------------------------------------------
  logic        seq_run, flush;
  logic [12:0] sy;
  logic [13:0] px;                 // padded pixel index in the row
  wire  [13:0] lpix   = 14'(pad_left) + 14'(width_m1) + 14'd1 + 14'(pad_right);
  wire         in_img = px >= 14'(pad_left) && px < 14'(pad_left) + 14'(width_m1) + 14'd1;
  wire         have0  = drop[(0)*(QC-1+1) +: (QC-1+1)] == '0 && qn[(0)*(QC-1+1) +: (QC-1+1)] >= QC'(bpp0);
  wire         have1  = !semi || (drop[(1)*(QC-1+1) +: (QC-1+1)] == '0 && qn[(1)*(QC-1+1) +: (QC-1+1)] >= QC'(bpp1));
  wire         pix_go = seq_run && !flush && (!in_img || (have0 && have1));
  wire         last_img = in_img && px == 14'(pad_left) + 14'(width_m1);

  always_comb
    for (int p = 0; p < 2; p++) begin
      dpop[(p)*(QC-1+1) +: (QC-1+1)] = (drop[(p)*(QC-1+1) +: (QC-1+1)] < qn[(p)*(QC-1+1) +: (QC-1+1)]) ? drop[(p)*(QC-1+1) +: (QC-1+1)] : qn[(p)*(QC-1+1) +: (QC-1+1)];
      pop[(p)*(QC-1+1) +: (QC-1+1)]  = dpop[(p)*(QC-1+1) +: (QC-1+1)];
      if (pix_go && in_img && (p == 0 || semi)) pop[(p)*(QC-1+1) +: (QC-1+1)] = (p == 0 ? QC'(bpp0) : QC'(bpp1));
    end

  always_comb
    for (int p = 0; p < 2; p++)
      take[p] = fifo_cnt[(p)*(CNT-1+1) +: (CNT-1+1)] != '0 && 32'(qn[(p)*(QC-1+1) +: (QC-1+1)]) - 32'(pop[(p)*(QC-1+1) +: (QC-1+1)]) + 32'(ATOM_BYTES) <= 32'(QB);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      for (int p = 0; p < 2; p++) begin
        q[(p)*(QB*8-1+1) +: (QB*8-1+1)]        <= '0;
        qn[(p)*(QC-1+1) +: (QC-1+1)]       <= '0;
        drop[(p)*(QC-1+1) +: (QC-1+1)]     <= '0;
        reserved[(p)*(CNT-1+1) +: (CNT-1+1)] <= '0;
        wy[(p)*(12+1) +: (12+1)]       <= '0;
        wa[(p)*(15+1) +: (15+1)]       <= '0;
        wrow[(p)*(ADDR_BITS-1+1) +: (ADDR_BITS-1+1)]     <= '0;
      end
      walking  <= '0;
      last_sel <= 1'b0;
      held     <= 1'b0;
      held_sel <= 1'b0;
    end else begin
      held     <= req_valid && !req_ready && !start;
      held_sel <= sel;
      for (int p = 0; p < 2; p++) begin
        logic [QB*8-1:0] nq;
        logic [QC-1:0]   nn;
        nq = q[(p)*(QB*8-1+1) +: (QB*8-1+1)] >> (pop[(p)*(QC-1+1) +: (QC-1+1)] * 8);
        nn = qn[(p)*(QC-1+1) +: (QC-1+1)] - pop[(p)*(QC-1+1) +: (QC-1+1)];
        if (take[p]) nq[nn*8 +: AB] = fifo_head[(p)*(AB-1+1) +: (AB-1+1)];
        q[(p)*(QB*8-1+1) +: (QB*8-1+1)]  <= nq;
        qn[(p)*(QC-1+1) +: (QC-1+1)] <= nn + (take[p] ? QC'(ATOM_BYTES) : '0);
        if (start) drop[(p)*(QC-1+1) +: (QC-1+1)] <= QC'(skip[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]);
        else begin
          logic [QC-1:0] nd;
          nd = drop[(p)*(QC-1+1) +: (QC-1+1)] - dpop[(p)*(QC-1+1) +: (QC-1+1)];
          if (pix_go && last_img && (p == 0 || semi))
            nd = nd + QC'(tail[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]) + ((sy != height_m1) ? QC'(skip[(p)*(ATOM_SH+1) +: (ATOM_SH+1)]) : '0);
          drop[(p)*(QC-1+1) +: (QC-1+1)] <= nd;
        end
        reserved[(p)*(CNT-1+1) +: (CNT-1+1)] <= reserved[(p)*(CNT-1+1) +: (CNT-1+1)] + ((fire && sel == 1'(p)) ? CNT'(chunk[(p)*(15+1) +: (15+1)]) : '0) - CNT'(take[p]);
      end
      if (start) begin
        walking  <= {semi, 1'b1};
        last_sel <= 1'b1;
        for (int p = 0; p < 2; p++) begin
          wy[(p)*(12+1) +: (12+1)]   <= '0;
          wa[(p)*(15+1) +: (15+1)]   <= '0;
          wrow[(p)*(ADDR_BITS-1+1) +: (ADDR_BITS-1+1)] <= (p == 0) ? addr0 : addr1;
        end
      end else if (fire) begin
        last_sel <= sel;
        if (wa[(sel)*(15+1) +: (15+1)] + chunk[(sel)*(15+1) +: (15+1)] == row_atoms[(sel)*(15+1) +: (15+1)]) begin
          wa[(sel)*(15+1) +: (15+1)]   <= '0;
          wrow[(sel)*(ADDR_BITS-1+1) +: (ADDR_BITS-1+1)] <= wrow[(sel)*(ADDR_BITS-1+1) +: (ADDR_BITS-1+1)] + (sel ? ADDR_BITS'(uv_stride) : ADDR_BITS'(line_stride));
          wy[(sel)*(12+1) +: (12+1)]   <= wy[(sel)*(12+1) +: (12+1)] + 13'd1;
          if (wy[(sel)*(12+1) +: (12+1)] == height_m1) walking[sel] <= 1'b0;
        end else wa[(sel)*(15+1) +: (15+1)] <= wa[(sel)*(15+1) +: (15+1)] + chunk[(sel)*(15+1) +: (15+1)];
      end
    end

  // ---- components and conversion --------------------------------------------------------
  // Component i as a 16-bit value (8-bit components in the low byte); the field table is the
  // pixel-format table of docs/conv-rtl.md (10-bit fields scaled to 16 bits: x64, alpha x16384).
  logic [4*16-1:0] comp;
  wire  [63:0] pw = q[63:0];                                  // plane 0, oldest bytes
  wire  [31:0] uw = q[QB*8 +: 32];                            // plane 1
  function automatic logic [15:0] bt(input logic [63:0] w, input int i);
    bt = {8'd0, w[i*8 +: 8]};
  endfunction
  function automatic logic [15:0] wd(input logic [63:0] w, input int i);
    wd = w[i*16 +: 16];
  endfunction
  always_comb begin
    comp = '0;
    case (pixel_format)
      6'd0:                        comp = {48'd0, bt(pw, 0)};
      6'd1, 6'd2, 6'd3, 6'd4, 6'd5: comp = {48'd0, wd(pw, 0)};
      6'd6, 6'd7, 6'd8:            comp = {wd(pw, 3), wd(pw, 2), wd(pw, 1), wd(pw, 0)};
      6'd9, 6'd11:                 comp = {wd(pw, 3), wd(pw, 0), wd(pw, 1), wd(pw, 2)};
      6'd10:                       comp = {wd(pw, 0), wd(pw, 3), wd(pw, 2), wd(pw, 1)};
      6'd12, 6'd16:                comp = {bt(pw, 3), bt(pw, 2), bt(pw, 1), bt(pw, 0)};
      6'd13, 6'd17, 6'd26:         comp = {bt(pw, 3), bt(pw, 0), bt(pw, 1), bt(pw, 2)};
      6'd14, 6'd18, 6'd27:         comp = {bt(pw, 0), bt(pw, 3), bt(pw, 2), bt(pw, 1)};
      6'd15, 6'd19:                comp = {bt(pw, 0), bt(pw, 1), bt(pw, 2), bt(pw, 3)};
      6'd20:        comp = {pw[31:30], 14'd0, pw[29:20], 6'd0, pw[19:10], 6'd0, pw[9:0], 6'd0};
      6'd21, 6'd24: comp = {pw[31:30], 14'd0, pw[9:0], 6'd0, pw[19:10], 6'd0, pw[29:20], 6'd0};
      6'd22, 6'd25: comp = {pw[1:0], 14'd0, pw[31:22], 6'd0, pw[21:12], 6'd0, pw[11:2], 6'd0};
      6'd23:        comp = {pw[1:0], 14'd0, pw[11:2], 6'd0, pw[21:12], 6'd0, pw[31:22], 6'd0};
      6'd28:        comp = {16'd0, bt({32'd0, uw}, 0), bt({32'd0, uw}, 1), bt(pw, 0)};
      6'd29:        comp = {16'd0, bt({32'd0, uw}, 1), bt({32'd0, uw}, 0), bt(pw, 0)};
      6'd30, 6'd32, 6'd34: comp = {16'd0, wd({32'd0, uw}, 0), wd({32'd0, uw}, 1), wd(pw, 0)};
      6'd31, 6'd33, 6'd35: comp = {16'd0, wd({32'd0, uw}, 1), wd({32'd0, uw}, 0), wd(pw, 0)};
      default: ;
    endcase
    // without int16/fp16 the formats with wider components are refused: 8-bit components only
    comp = comp & {4{PREC16 ? 16'hffff : 16'h00ff}};
  end
  logic [63:0] pix_bytes;                                     // the pixel's elements, packed
  logic [63:0] els;                                           // element i at [16i +: 16]
  for (genvar i = 0; i < 4; i++) begin : g_comp
    logic [7:0]  s8;
    logic [15:0] s16;
    wire  [15:0] c    = comp[i*16 +: 16];
    wire  [15:0] mean = (i == 0) ? mean_ry : (i == 1) ? mean_gu : (i == 2) ? mean_bv : mean_ax;
    wire  [16:0] p    = wide ? {sign_override && c[15], c} : {{9{sign_override && c[7]}}, c[7:0]};
    logic [16:0] z17;
    logic [15:0] f16;
    dla_conv_cvt u_cvt (.p, .offset(mean_format ? mean : cvt_offset), .scale(cvt_scale),
                        .truncate(cvt_truncate), .sat8(s8), .sat16(s16), .z17);
    dla_sdp_int17_fp16 #(.SATURATE(1'b0)) u_f16 (.v(z17), .y(f16));
    wire c_nan = c[14:10] == 5'h1f && c[9:0] != '0;
    assign els[i*16 +: 16] = !in_img ? pad_value :
                             fp_pix ? ((nan_to_zero && c_nan) ? 16'd0 : c) :
                             cvt_en ? (fp_out ? f16 : es2 ? s16 : {8'd0, s8}) : c;
  end
  always_comb begin
    pix_bytes = '0;
    for (int i = 0; i < 4; i++)
      if (es2) pix_bytes[i*16 +: 16] = els[i*16 +: 16];
      else pix_bytes[i*8 +: 8] = els[i*16 +: 8];
  end

  // ---- fp16 census of plane 0 -------------------------------------------------------------
  logic [15:0] tr;                                  // atoms of the row taken so far
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) tr <= '0;
    else if (start) tr <= '0;
    else if (take[0]) tr <= (tr + 16'd1 == row_atoms[0 +: 16]) ? 16'd0 : tr + 16'd1;
  logic [ATOM_BYTES/2-1:0] cen_sel;
  always_comb
    for (int e = 0; e < ATOM_BYTES / 2; e++)
      cen_sel[e] = take[0] && fp_pix && !(tr == '0 && 32'(e) * 2 < 32'(skip[0 +: ATOM_SH+1]));
  dla_fp16_census #(.BITS(AB)) u_census (.data(fifo_head[0 +: AB]), .sel(cen_sel), .nan(cen_nan), .inf(cen_inf));

  // ---- line packer --------------------------------------------------------------------
  // The entry being packed holds at most EB - 1 bytes between writes (a full one is written);
  // a pixel of up to 8 bytes placed after them ends before byte EB + 7.
  localparam int PLB = EB + 7;
  logic [(EB-1)*8-1:0] stg;
  logic [EC-1:0]     sp;           // bytes of the current entry already placed
  logic [EA-1:0]     went, slice;
  logic [13:0]       rows;

  function automatic logic [EA-1:0] ring_add(input logic [EA-1:0] e, input logic [EA:0] inc,
                                             input logic [EA:0] size);
    logic [EA+1:0] s;
    s = {2'b0, e} + {1'b0, inc};
    if (s >= {1'b0, size}) s = s - {1'b0, size};
    ring_add = s[EA-1:0];
  endfunction

  logic [PLB*8-1:0]  placed;
  logic [EC:0]       sp_next;
  always_comb begin
    placed  = (PLB*8)'(stg);
    for (int i = 0; i < 8; i++)
      if (4'(i) < pix_bytes_n) placed[(32'(sp) + i)*8 +: 8] = pix_bytes[i*8 +: 8];
    sp_next = (EC+1)'(sp) + (EC+1)'(pix_bytes_n);
  end

  always_comb begin
    w_en   = 1'b0;
    w_addr = went;
    w_data = placed[EB*8-1:0];
    w_mask = '1;
    if (pix_go && sp_next >= (EC+1)'(EB)) w_en = 1'b1;
    if (flush) begin
      w_en   = sp != '0;
      w_data = (EB*8)'(stg);
      for (int b = 0; b < EB; b++) w_mask[b] = 32'(b) < 32'(sp);
    end
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      active  <= 1'b0;
      seq_run <= 1'b0;
      flush   <= 1'b0;
      sy      <= '0;
      px      <= '0;
      stg     <= '0;
      sp      <= '0;
      went    <= '0;
      slice   <= '0;
      rows    <= '0;
    end else if (start) begin
      active  <= 1'b1;
      seq_run <= 1'b1;
      flush   <= 1'b0;
      sy      <= '0;
      px      <= '0;
      sp      <= '0;
      went    <= slice_base0;
      slice   <= slice_base0;
      rows    <= '0;
    end else if (flush) begin
      flush <= 1'b0;
      sp    <= '0;
      rows  <= rows + 14'd1;
      slice <= ring_add(slice, eps_p1, data_ring);
      went  <= ring_add(slice, eps_p1, data_ring);
      if (sy == height_m1) begin
        seq_run <= 1'b0;
        active  <= 1'b0;
      end
      sy <= sy + 13'd1;
    end else if (pix_go) begin
      if (sp_next >= (EC+1)'(EB)) begin
        stg  <= ((EB-1)*8)'(placed >> (EB * 8));
        sp   <= EC'(sp_next - (EC+1)'(EB));
        went <= ring_add(went, (EA+1)'(1), data_ring);
      end else begin
        stg <= ((EB-1)*8)'(placed);
        sp  <= EC'(sp_next);
      end
      if (px == lpix - 14'd1) begin
        px    <= '0;
        flush <= 1'b1;
      end else px <= px + 14'd1;
    end
  assign rows_done = rows;

  wire unused = &{1'b0, active, dat_tag[TAG_BITS-1:1] == '0, chan_m1[12:3]};
endmodule
