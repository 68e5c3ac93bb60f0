// PDP width pass. Consumes the layer's input atoms in stream order (stripe, surface, row,
// column), one slice (2*TP bytes) per cycle, and emits for every row and every output
// column ox the row result R of window row [ox*sw - pl, ox*sw - pl + kw - 1] (one slice per
// cycle, in ox order), before its padding is added (o_val plus the padded count o_npad).
//
// Up to 8 windows overlap a column (kw <= 8). Window ox lives in accumulator slot ox mod 8
// from its first real column to its last; each arriving slice updates every window that
// contains the column (acc = first ? x : op(acc, x), left to right). A window completes at
// its last real column; the oldest one is emitted in that cycle. At the row's last column
// every remaining window completes: the oldest is emitted there, the others after the row
// (tail cycles).
module dla_pdp_width #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter bit HAS_INT16  = 1'b1,
  parameter bit HAS_FP16   = 1'b1,
  parameter int PW         = 28 * TP,
  parameter int NSL        = ATOM_BYTES / (2 * TP),   // slices per atom
  parameter int SLB        = (NSL > 1) ? $clog2(NSL) : 1,
  parameter int CW         = $clog2(TP + 1)
) (
  input  logic                    clk,
  input  logic                    rstn,
  input  logic                    start,          // pulse: a layer begins
  // configuration (stable during the layer)
  input  logic [1:0]              fmt,
  input  logic [1:0]              method,
  input  logic                    nan_flush,
  input  logic                    count_en,       // count fp16 NaN/Inf inputs
  input  logic [3:0]              kw_m1,
  input  logic [3:0]              sw_m1,
  input  logic [2:0]              pad_left,
  input  logic [2:0]              pad_right,
  input  logic [12:0]             height_m1,
  input  logic [12:0]             surf_m1,        // surfaces - 1
  input  logic [7:0]              split_num,
  input  logic [12:0]             width_m1,
  input  logic [12:0]             out_width_m1,
  input  logic [9:0]              in_first_m1,
  input  logic [9:0]              in_mid_m1,
  input  logic [9:0]              in_last_m1,
  input  logic [9:0]              out_first_m1,
  input  logic [9:0]              out_mid_m1,
  input  logic [9:0]              out_last_m1,
  // input atoms
  input  logic                    in_valid,
  input  logic [8*ATOM_BYTES-1:0] in_data,
  output logic                    in_ready,       // pops the atom
  // row results
  output logic                    o_valid,
  input  logic                    o_ready,
  output logic [PW-1:0]           o_val,
  output logic [2:0]              o_npad,
  output logic                    o_eor,          // last result of a row
  // live fp16 input counters of the layer
  output logic [31:0]             nan_count,
  output logic [31:0]             inf_count,
  output logic                    busy
);
  localparam int SB = 16 * TP;                       // slice bits

  // ---- stripe geometry ------------------------------------------------------------------
  logic [7:0]  st_j;
  logic [13:0] wp_m1, ow_m1, unused_step;
  logic [2:0]  pl, pr;
  logic        last_stripe;
  dla_pdp_stripe u_geom (
    .split_num, .j(st_j), .width_m1, .out_width_m1, .in_first_m1, .in_mid_m1, .in_last_m1,
    .out_first_m1, .out_mid_m1, .out_last_m1, .kw_m1, .sw_m1, .pad_left, .pad_right,
    .in_m1(wp_m1), .out_m1(ow_m1), .pl, .pr, .step(unused_step), .last(last_stripe)
  );
  wire unused_pr = &{pr, 1'b0};

  // ---- state ----------------------------------------------------------------------------
  logic              active, tail;
  logic [12:0]       st_s, st_y;
  logic [13:0]       x, nxt_ox, e_ox;
  logic [SLB-1:0]    sl, e_sl, t_sl;
  logic signed [15:0] nxt_start;
  logic [7:0]        w_act, m_first, m_close;
  logic [8*14-1:0]   w_end;
  logic [8*3-1:0]    w_npad;
  logic [2:0]        w_old;
  logic [8*NSL*PW-1:0] acc_q;

  wire [4:0] kw = {1'b0, kw_m1} + 5'd1;
  wire [4:0] sw = {1'b0, sw_m1} + 5'd1;

  // ---- windows opening at column x (only evaluated in the column's first slice) ----------
  logic [7:0]      open_s;
  logic [8*14-1:0] open_end;
  logic [8*3-1:0]  open_npad;
  logic [3:0]      nopen;
  always_comb begin
    logic ok;
    logic [13:0] cox;
    logic signed [15:0] cst, cend, crs;
    logic [2:0] slot;
    ok        = 1'b1;
    open_s    = '0;
    open_end  = '0;
    open_npad = '0;
    nopen     = '0;
    for (int k = 0; k < 8; k++) begin
      cox  = nxt_ox + 14'(k);
      cst  = nxt_start + 16'(k) * $signed({11'd0, sw});
      ok   = ok && cox <= ow_m1 && cst <= $signed({2'b0, x});
      cend = cst + $signed({11'd0, kw}) - 16'sd1;
      if (cend > $signed({2'b0, wp_m1})) cend = $signed({2'b0, wp_m1});
      crs  = cst < 0 ? 16'sd0 : cst;
      slot = nxt_ox[2:0] + 3'(k);
      if (ok) begin
        open_s[slot]             = 1'b1;
        open_end[slot*14 +: 14]  = cend[13:0];
        open_npad[slot*3 +: 3]   = 3'($signed({11'd0, kw}) - (cend - crs + 16'sd1));
        nopen                    = nopen + 4'd1;
      end
    end
  end

  // ---- this slice's column masks -----------------------------------------------------------
  wire sl0        = sl == '0;
  wire last_slice = sl == SLB'(NSL - 1);
  wire last_col   = x == wp_m1;
  logic [7:0]      first_c, contain_c, close_c;
  logic [8*3-1:0]  npad_c;
  always_comb begin
    logic [13:0] e;
    first_c   = sl0 ? open_s : m_first;
    contain_c = sl0 ? (w_act | open_s) : w_act;
    npad_c    = w_npad;
    close_c   = m_close;
    for (int s = 0; s < 8; s++) begin
      e = open_s[s] ? open_end[s*14 +: 14] : w_end[s*14 +: 14];
      if (sl0 && open_s[s]) npad_c[s*3 +: 3] = open_npad[s*3 +: 3];
      if (sl0) close_c[s] = contain_c[s] && (e == x || last_col);
    end
  end
  wire emit_inline = close_c[w_old];

  // ---- datapath: input slice, combine with every slot ------------------------------------
  logic [PW-1:0] xin;
  logic [CW-1:0] slice_nan, slice_inf;
  dla_pdp_slice_in #(.TP(TP), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16)) u_in (
    .fmt, .is_avg(method == 2'd0), .nan_flush, .raw(in_data[sl*SB +: SB]),
    .y(xin), .nan_count(slice_nan), .inf_count(slice_inf)
  );

  logic [8*PW-1:0] new_v;
  for (genvar s = 0; s < 8; s++) begin : g_slot
    logic [PW-1:0] res;
    dla_pdp_slice_op #(.TP(TP), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16)) u_op (
      .fmt, .method, .a(acc_q[(s*NSL + 32'(sl))*PW +: PW]), .b(xin), .y(res)
    );
    assign new_v[s*PW +: PW] = first_c[s] ? xin : res;
  end

  // counters saturate at 0xFFFFFFFF
  function automatic logic [31:0] sat_add(input logic [31:0] c, input logic [CW-1:0] n);
    logic [32:0] t;
    t = {1'b0, c} + 33'(n);
    sat_add = t[32] ? 32'hffffffff : t[31:0];
  endfunction

  // ---- handshakes ---------------------------------------------------------------------------
  wire o_free   = !o_valid || o_ready;
  wire consume  = active && !tail && in_valid && o_free;
  wire tail_adv = tail && o_free;
  assign in_ready = consume && last_slice;
  wire emit     = (consume && emit_inline) || tail_adv;
  wire e_last   = e_sl == SLB'(NSL - 1);
  assign busy   = active;

  // slots still open after this slice (the inline-emitted one leaves at the last slice)
  logic [7:0] act_after;
  always_comb begin
    act_after = contain_c;
    if (last_slice && emit_inline) act_after[w_old] = 1'b0;
  end
  wire tail_last = t_sl == SLB'(NSL - 1);
  logic [7:0] act_after_tail;
  always_comb begin
    act_after_tail = w_act;
    act_after_tail[w_old] = 1'b0;
  end
  wire row_end = (consume && last_slice && last_col && act_after == '0) ||
                 (tail_adv && tail_last && act_after_tail == '0);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      active    <= 1'b0;
      tail      <= 1'b0;
      st_j      <= '0;
      st_s      <= '0;
      st_y      <= '0;
      x         <= '0;
      sl        <= '0;
      t_sl      <= '0;
      e_ox      <= '0;
      e_sl      <= '0;
      nxt_ox    <= '0;
      nxt_start <= '0;
      w_act     <= '0;
      w_old     <= '0;
      w_end     <= '0;
      w_npad    <= '0;
      m_first   <= '0;
      m_close   <= '0;
      o_valid   <= 1'b0;
      o_npad    <= '0;
      o_eor     <= 1'b0;
      nan_count <= '0;
      inf_count <= '0;
    end else begin
      if (o_ready) o_valid <= 1'b0;
      if (emit) begin
        o_valid <= 1'b1;
        o_npad  <= tail ? w_npad[w_old*3 +: 3] : npad_c[w_old*3 +: 3];
        o_eor   <= e_ox == ow_m1 && e_last;
        e_sl    <= e_last ? '0 : e_sl + 1'b1;
        if (e_last) e_ox <= e_ox + 14'd1;
      end
      if (consume) begin
        if (count_en) begin
          nan_count <= sat_add(nan_count, slice_nan);
          inf_count <= sat_add(inf_count, slice_inf);
        end
        sl <= last_slice ? '0 : sl + 1'b1;
        if (sl0) begin
          for (int s = 0; s < 8; s++)
            if (open_s[s]) begin
              w_end[s*14 +: 14] <= open_end[s*14 +: 14];
              w_npad[s*3 +: 3]  <= open_npad[s*3 +: 3];
            end
          nxt_ox    <= nxt_ox + 14'(nopen);
          nxt_start <= nxt_start + $signed({12'd0, nopen}) * $signed({11'd0, sw});
          m_first   <= open_s;
          m_close   <= close_c;
        end
        w_act <= act_after;
        if (last_slice) begin
          if (emit_inline) w_old <= w_old + 3'd1;
          x <= x + 14'd1;
          if (last_col && act_after != '0) begin
            tail <= 1'b1;
            t_sl <= '0;
          end
        end
      end
      if (tail_adv) begin
        t_sl <= tail_last ? '0 : t_sl + 1'b1;
        if (tail_last) begin
          w_act <= act_after_tail;
          w_old <= w_old + 3'd1;
          if (act_after_tail == '0) tail <= 1'b0;
        end
      end
      if (row_end) begin
        x      <= '0;
        nxt_ox <= '0;
        w_old  <= '0;
        e_ox   <= '0;
        if (st_y != height_m1) begin
          st_y      <= st_y + 13'd1;
          nxt_start <= -$signed({13'd0, pl});
        end else begin
          st_y <= '0;
          if (st_s != surf_m1) begin
            st_s      <= st_s + 13'd1;
            nxt_start <= -$signed({13'd0, pl});
          end else begin
            st_s      <= '0;
            nxt_start <= '0;                       // later stripes have no left pad
            if (last_stripe) active <= 1'b0;
            else st_j <= st_j + 8'd1;
          end
        end
      end
      if (start) begin
        active    <= 1'b1;
        tail      <= 1'b0;
        st_j      <= '0;
        st_s      <= '0;
        st_y      <= '0;
        x         <= '0;
        sl        <= '0;
        e_ox      <= '0;
        e_sl      <= '0;
        nxt_ox    <= '0;
        nxt_start <= -$signed({13'd0, pad_left});
        w_act     <= '0;
        w_old     <= '0;
        nan_count <= '0;
        inf_count <= '0;
      end
    end

  // accumulator slots
  always_ff @(posedge clk)
    if (consume)
      for (int s = 0; s < 8; s++)
        if (contain_c[s]) acc_q[(s*NSL + 32'(sl))*PW +: PW] <= new_v[s*PW +: PW];

  always_ff @(posedge clk)
    if (emit) o_val <= tail ? acc_q[(32'(w_old)*NSL + 32'(t_sl))*PW +: PW] : new_v[w_old*PW +: PW];
endmodule
