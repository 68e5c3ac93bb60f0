// PDP height pass with its line buffer. Takes the row results R (padding added) of every
// row in stream order and accumulates them, per output column and slice, into the output
// rows whose windows contain the row: acc = first row ? R : op(R, acc) (the newer row is
// the first operand, §1.8). Output row oy lives in line-buffer bank oy mod 8 (at most 8
// output rows overlap an input row since kh <= 8), at address ox * NSL + slice.
//
// An output row completes at its last real row; its values then go to the finalize stage
// instead of back to the buffer. Only the oldest open row can complete before the plane's
// last input row; at the last row every open row completes: the oldest goes out inline,
// the others are read back from the buffer afterwards (flush), in row order.
//
// Capacity: OW_MAX output columns per stripe (line buffer 8 x OW_MAX*NSL entries of PW bits).
module dla_pdp_height #(
  parameter int TP         = 8,
  parameter int ATOM_BYTES = 32,
  parameter bit HAS_INT16  = 1'b1,
  parameter bit HAS_FP16   = 1'b1,
  parameter int OW_MAX     = 1024,
  parameter int PW         = 28 * TP,
  parameter int NSL        = ATOM_BYTES / (2 * TP),
  parameter int DEPTH      = OW_MAX * NSL,
  parameter int AB         = $clog2(DEPTH)
) (
  input  logic          clk,
  input  logic          rstn,
  input  logic          start,            // pulse: a layer begins
  // configuration (stable during the layer)
  input  logic [1:0]    fmt,
  input  logic [1:0]    method,
  input  logic [3:0]    kh_m1,
  input  logic [3:0]    sh_m1,
  input  logic [2:0]    pad_top,
  input  logic [12:0]   height_m1,
  input  logic [12:0]   out_height_m1,
  // row results, padding added
  input  logic          i_valid,
  output logic          i_ready,
  input  logic [PW-1:0] i_val,
  input  logic          i_eor,            // last result of the row
  // completed windows
  output logic          f_valid,
  input  logic          f_ready,
  output logic [PW-1:0] f_acc,
  output logic [2:0]    f_m               // padded rows of the window
);
  // ---- state ----------------------------------------------------------------------------
  logic [12:0]        h_y, nxt_oy;
  logic signed [15:0] nxt_start;
  logic [AB-1:0]      h_a, f_a, last_a;   // last_a: the row's last address (rows - 1)
  logic [7:0]         h_act, m_first, m_close;
  logic [8*13-1:0]    h_end;
  logic [8*3-1:0]     h_m;
  logic [2:0]         h_old;
  logic               flush;

  wire [4:0] kh = {1'b0, kh_m1} + 5'd1;
  wire [4:0] sh = {1'b0, sh_m1} + 5'd1;

  // ---- output rows opening at row h_y (evaluated with the row's first result) --------------
  logic [7:0]      open_s;
  logic [8*13-1:0] open_end;
  logic [8*3-1:0]  open_m;
  logic [3:0]      nopen;
  always_comb begin
    logic ok;
    logic [12:0] coy;
    logic signed [15:0] cst, cend, crs;
    logic [2:0] slot;
    ok       = 1'b1;
    open_s   = '0;
    open_end = '0;
    open_m   = '0;
    nopen    = '0;
    for (int k = 0; k < 8; k++) begin
      coy  = nxt_oy + 13'(k);
      cst  = nxt_start + 16'(k) * $signed({11'd0, sh});
      ok   = ok && coy <= out_height_m1 && cst <= $signed({3'b0, h_y});
      cend = cst + $signed({11'd0, kh}) - 16'sd1;
      if (cend > $signed({3'b0, height_m1})) cend = $signed({3'b0, height_m1});
      crs  = cst < 0 ? 16'sd0 : cst;
      slot = nxt_oy[2:0] + 3'(k);
      if (ok) begin
        open_s[slot]            = 1'b1;
        open_end[slot*13 +: 13] = cend[12:0];
        open_m[slot*3 +: 3]     = 3'($signed({11'd0, kh}) - (cend - crs + 16'sd1));
        nopen                   = nopen + 4'd1;
      end
    end
  end

  wire a0       = h_a == '0;
  wire last_row = h_y == height_m1;
  logic [7:0]     first_c, contain_c, close_c;
  logic [8*3-1:0] m_c;
  always_comb begin
    logic [12:0] e;
    first_c   = a0 ? open_s : m_first;
    contain_c = a0 ? (h_act | open_s) : h_act;
    close_c   = m_close;
    m_c       = h_m;
    for (int s = 0; s < 8; s++) begin
      e = open_s[s] ? open_end[s*13 +: 13] : h_end[s*13 +: 13];
      if (a0 && open_s[s]) m_c[s*3 +: 3] = open_m[s*3 +: 3];
      if (a0) close_c[s] = contain_c[s] && (e == h_y || last_row);
    end
  end
  wire fin_here = close_c[h_old];

  // ---- stage 2 register ---------------------------------------------------------------------
  logic          h2_v, h2_fin, h2_flush;
  logic [PW-1:0] h2_r;
  logic [7:0]    h2_t, h2_first;
  logic [2:0]    h2_slot, h2_m;
  logic [AB-1:0] h2_a;
  wire  h2_adv   = h2_v && (!h2_fin || f_ready);
  wire  h2_ready = !h2_v || h2_adv;

  assign i_ready   = !flush && h2_ready;
  wire   accept    = i_valid && i_ready;
  wire   flush_adv = flush && h2_ready;
  wire   rd_en     = accept || flush_adv;
  wire [AB-1:0] rd_addr = flush ? f_a : h_a;

  // ---- line buffer banks and the combine of stage 2 ----------------------------------------
  logic [8*PW-1:0] rdq, new_v;
  for (genvar s = 0; s < 8; s++) begin : g_bank
    logic [PW-1:0] mem [0:DEPTH-1];
    logic [PW-1:0] res;
    always_ff @(posedge clk) if (rd_en) rdq[s*PW +: PW] <= mem[rd_addr];
    dla_pdp_slice_op #(.TP(TP), .HAS_INT16(HAS_INT16), .HAS_FP16(HAS_FP16)) u_op (
      .fmt, .method, .a(h2_r), .b(rdq[s*PW +: PW]), .y(res)
    );
    assign new_v[s*PW +: PW] = h2_first[s] ? h2_r : res;
    wire we = h2_adv && !h2_flush && h2_t[s] && !(h2_fin && h2_slot == 3'(s));
    always_ff @(posedge clk) if (we) mem[h2_a] <= new_v[s*PW +: PW];
  end

  assign f_valid = h2_v && h2_fin;
  assign f_acc   = h2_flush ? rdq[h2_slot*PW +: PW] : new_v[h2_slot*PW +: PW];
  assign f_m     = h2_m;

  // ---- control ------------------------------------------------------------------------------
  logic [7:0] act_after;
  always_comb begin
    act_after = contain_c;
    if (i_eor && fin_here) act_after[h_old] = 1'b0;
  end
  logic [7:0] act_after_flush;
  always_comb begin
    act_after_flush = h_act;
    act_after_flush[h_old] = 1'b0;
  end
  wire flush_last = f_a == last_a;
  wire plane_end  = (accept && i_eor && last_row && act_after == '0) ||
                    (flush_adv && flush_last && act_after_flush == '0);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      h2_v      <= 1'b0;
      h_y       <= '0;
      h_a       <= '0;
      f_a       <= '0;
      last_a    <= '0;
      nxt_oy    <= '0;
      nxt_start <= '0;
      h_act     <= '0;
      h_end     <= '0;
      h_m       <= '0;
      h_old     <= '0;
      m_first   <= '0;
      m_close   <= '0;
      flush     <= 1'b0;
    end else begin
      if (h2_ready) h2_v <= accept || flush_adv;
      if (accept) begin
        if (a0) begin
          for (int s = 0; s < 8; s++)
            if (open_s[s]) begin
              h_end[s*13 +: 13] <= open_end[s*13 +: 13];
              h_m[s*3 +: 3]     <= open_m[s*3 +: 3];
            end
          nxt_oy    <= nxt_oy + 13'(nopen);
          nxt_start <= nxt_start + $signed({12'd0, nopen}) * $signed({11'd0, sh});
          m_first   <= open_s;
          m_close   <= close_c;
        end
        h_act <= act_after;
        h_a   <= h_a + 1'b1;
        if (i_eor) begin
          h_a    <= '0;
          last_a <= h_a;
          if (fin_here) h_old <= h_old + 3'd1;
          if (!last_row) h_y <= h_y + 13'd1;
          else if (act_after != '0) begin
            flush <= 1'b1;
            f_a   <= '0;
          end
        end
      end
      if (flush_adv) begin
        f_a <= flush_last ? '0 : f_a + 1'b1;
        if (flush_last) begin
          h_act <= act_after_flush;
          h_old <= h_old + 3'd1;
          if (act_after_flush == '0) flush <= 1'b0;
        end
      end
      if (plane_end || start) begin
        h_y       <= '0;
        h_a       <= '0;
        nxt_oy    <= '0;
        nxt_start <= -$signed({13'd0, pad_top});
        h_old     <= '0;
        h_act     <= '0;
        flush     <= 1'b0;
      end
    end

  always_ff @(posedge clk)
    if (accept || flush_adv) begin
      h2_r     <= i_val;
      h2_t     <= flush ? 8'd0 : contain_c;
      h2_first <= first_c;
      h2_fin   <= flush ? 1'b1 : fin_here;
      h2_flush <= flush;
      h2_slot  <= h_old;
      h2_m     <= flush ? h_m[h_old*3 +: 3] : m_c[h_old*3 +: 3];
      h2_a     <= rd_addr;
    end
endmodule
