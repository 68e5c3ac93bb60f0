// BDMA read engine: walks the launched batches in order, takes their operations from the
// descriptor queue and issues the source reads, surface-major then line, each line split
// into chunks that never cross a MAX_BURST*beat boundary (so one chunk = one AXI burst).
// For every line it also hands a line descriptor to the write engine. A chunk is issued only
// when the atom buffer has room for it (credit), and a change of source port waits until
// every read of the previous port has returned.
module dla_bdma_rd_engine #(
  parameter int ADDR_BITS  = 64,
  parameter int ATOM_BYTES = 32,
  parameter int APB        = 2,
  parameter int MAX_BURST  = 16,
  parameter int LEN_BITS   = 16,
  parameter int NA_BITS    = 14,    // width of an atom count of one line
  parameter int CNT_BITS   = 8,     // width of the buffer room count
  parameter int OPS_BITS   = 5,     // width of an operation count of one batch
  parameter int SLOT_BITS  = 2,
  parameter int LD_BITS    = 1 + 1 + SLOT_BITS + 1 + 1 + NA_BITS + ADDR_BITS
) (
  input  logic                 clk,
  input  logic                 rstn,
  // launched batches, oldest first
  input  logic                 batch_avail,
  input  logic [OPS_BITS-1:0]  batch_nops,
  input  logic [SLOT_BITS-1:0] batch_slot,
  input  logic                 batch_grp,
  output logic                 batch_take,     // every operation of the batch has been read
  // descriptor queue head (one operation)
  input  logic                 op_valid,
  output logic                 op_pop,
  input  logic [ADDR_BITS-1:0] op_src,
  input  logic [ADDR_BITS-1:0] op_dst,
  input  logic [NA_BITS-1:0]   op_atoms_m1,    // atoms per line - 1
  input  logic                 op_src_port,    // 0 = DBB, 1 = SRAM
  input  logic                 op_dst_port,
  input  logic [23:0]          op_lines_m1,
  input  logic [23:0]          op_surfs_m1,
  input  logic [31:0]          op_src_line_stride,
  input  logic [31:0]          op_dst_line_stride,
  input  logic [31:0]          op_src_surf_stride,
  input  logic [31:0]          op_dst_surf_stride,
  // read requests (to the port op_src_port)
  output logic                 rd_valid,
  output logic                 rd_port,
  input  logic                 rd_ready,
  output logic [ADDR_BITS-1:0] rd_addr,
  output logic [LEN_BITS-1:0]  rd_len,         // atoms - 1
  input  logic [CNT_BITS-1:0]  buf_room,       // atoms the buffer can still take
  input  logic                 reads_inflight, // some read has not returned all its data
  // line descriptors to the write engine: {nul, last_of_batch, slot, grp, port, atoms-1, dst}
  output logic                 ld_push,
  output logic [LD_BITS-1:0]   ld_data,
  input  logic                 ld_full,
  // status
  output logic                 busy,
  output logic                 cur_grp
);
  localparam int ATOM_SH      = $clog2(ATOM_BYTES);
  localparam int CHUNK_ATOMS  = MAX_BURST * APB;
  localparam int CHUNK_M1     = CHUNK_ATOMS - 1;

  logic                 in_batch, running, last_port;
  logic [OPS_BITS-1:0]  ops_left;
  logic [SLOT_BITS-1:0] slot;
  logic [ADDR_BITS-1:0] src_cur, src_line, src_surf, dst_line, dst_surf;
  logic [31:0]          src_lstr, dst_lstr, src_sstr, dst_sstr;
  logic [NA_BITS-1:0]   atoms_m1, off;
  logic [23:0]          lines_m1, l_left, s_left;
  logic                 src_port, dst_port;

  // ---- current chunk ----------------------------------------------------------------
  logic [NA_BITS:0]     line_left, chunk_room, chunk;
  logic                 line_end, last_line, op_end;

  always_comb begin
    line_left  = {1'b0, atoms_m1} - {1'b0, off} + 1'b1;
    chunk_room = (NA_BITS+1)'(CHUNK_ATOMS) -
                 (NA_BITS+1)'((src_cur >> ATOM_SH) & ADDR_BITS'(CHUNK_M1));
    chunk      = (line_left < chunk_room) ? line_left : chunk_room;
    line_end   = (chunk == line_left);
    last_line  = l_left == '0 && s_left == '0;
    op_end     = line_end && last_line;
  end

  wire first_chunk = (off == '0);
  wire port_ok     = (src_port == last_port) || !reads_inflight;
  wire room_ok     = {{(NA_BITS+1){1'b0}}, buf_room} >= {{(CNT_BITS){1'b0}}, chunk};
  assign rd_valid  = running && room_ok && port_ok && !(first_chunk && ld_full);
  assign rd_port   = src_port;
  assign rd_addr   = src_cur;
  assign rd_len    = LEN_BITS'(chunk) - 1'b1;
  wire   accept    = rd_valid && rd_ready;

  // ---- line descriptors (pushed with the line's first chunk; a nul one for an empty batch)
  wire nul_push    = in_batch && !running && ops_left == '0 && !ld_full;
  assign ld_push   = (accept && first_chunk) || nul_push;
  wire   last_of_batch = last_line && ops_left == '0;
  assign ld_data   = nul_push
                   ? {1'b1, 1'b1, slot, cur_grp, 1'b0, {NA_BITS{1'b0}}, {ADDR_BITS{1'b0}}}
                   : {1'b0, last_of_batch, slot, cur_grp, dst_port, atoms_m1, dst_line};

  assign op_pop     = in_batch && !running && ops_left != '0 && op_valid;
  assign batch_take = nul_push || (accept && op_end && ops_left == '0);
  assign busy       = in_batch;

  // ---- address walk ---------------------------------------------------------------------
  logic [ADDR_BITS-1:0] next_src_surf, next_dst_surf, next_src_line, next_dst_line;
  always_comb begin
    next_src_surf = src_surf + ADDR_BITS'(src_sstr);
    next_dst_surf = dst_surf + ADDR_BITS'(dst_sstr);
    next_src_line = src_line + ADDR_BITS'(src_lstr);
    next_dst_line = dst_line + ADDR_BITS'(dst_lstr);
  end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      in_batch  <= 1'b0;
      running   <= 1'b0;
      last_port <= 1'b0;
      ops_left  <= '0;
      slot      <= '0;
      cur_grp   <= 1'b0;
      src_cur   <= '0;
      src_line  <= '0;
      src_surf  <= '0;
      dst_line  <= '0;
      dst_surf  <= '0;
      src_lstr  <= '0;
      dst_lstr  <= '0;
      src_sstr  <= '0;
      dst_sstr  <= '0;
      atoms_m1  <= '0;
      off       <= '0;
      lines_m1  <= '0;
      l_left    <= '0;
      s_left    <= '0;
      src_port  <= 1'b0;
      dst_port  <= 1'b0;
    end else begin
      if (!in_batch && batch_avail) begin
        in_batch <= 1'b1;
        ops_left <= batch_nops;
        slot     <= batch_slot;
        cur_grp  <= batch_grp;
      end
      if (nul_push) in_batch <= 1'b0;
      if (op_pop) begin
        running  <= 1'b1;
        ops_left <= ops_left - 1'b1;
        src_cur  <= op_src;
        src_line <= op_src;
        src_surf <= op_src;
        dst_line <= op_dst;
        dst_surf <= op_dst;
        src_lstr <= op_src_line_stride;
        dst_lstr <= op_dst_line_stride;
        src_sstr <= op_src_surf_stride;
        dst_sstr <= op_dst_surf_stride;
        atoms_m1 <= op_atoms_m1;
        off      <= '0;
        lines_m1 <= op_lines_m1;
        l_left   <= op_lines_m1;
        s_left   <= op_surfs_m1;
        src_port <= op_src_port;
        dst_port <= op_dst_port;
      end
      if (accept) begin
        last_port <= src_port;
        if (!line_end) begin
          off     <= off + NA_BITS'(chunk);
          src_cur <= src_cur + (ADDR_BITS'(chunk) << ATOM_SH);
        end else begin
          off <= '0;
          if (l_left != '0) begin
            l_left   <= l_left - 1'b1;
            src_line <= next_src_line;
            src_cur  <= next_src_line;
            dst_line <= next_dst_line;
          end else if (s_left != '0) begin
            s_left   <= s_left - 1'b1;
            l_left   <= lines_m1;
            src_surf <= next_src_surf;
            src_line <= next_src_surf;
            src_cur  <= next_src_surf;
            dst_surf <= next_dst_surf;
            dst_line <= next_dst_surf;
          end else begin
            running <= 1'b0;
            if (ops_left == '0) in_batch <= 1'b0;
          end
        end
      end
    end
endmodule
