// CSB slave: accepts one register access per cycle from the host, holds it in a request
// register for one cycle in which the addressed unit performs it, and answers in order.
//
//   cycle 0: csb2nvdla_valid && csb2nvdla_ready         (request accepted)
//   cycle 1: req_vld: the unit's register block reads/writes (writes take effect at the
//            end of this cycle); a unit may stretch this cycle with `hold`
//   cycle 2: nvdla2csb_valid with the read data, or nvdla2csb_wr_complete for a
//            non-posted write
//
// The word address is split into the unit window (bits [15:10], 1024 words each) and the
// word offset inside it (bits [9:0]); the top decodes windows to units and ORs their read
// data (a block returns 0 when it is not addressed, so an empty window reads 0).
module dla_csb_slave (
  input  logic        clk,
  input  logic        rstn,
  // host side (NVDLA CSB)
  input  logic        csb2nvdla_valid,
  output logic        csb2nvdla_ready,
  input  logic [15:0] csb2nvdla_addr,
  input  logic [31:0] csb2nvdla_wdat,
  input  logic        csb2nvdla_write,
  input  logic        csb2nvdla_nposted,
  output logic        nvdla2csb_valid,
  output logic [31:0] nvdla2csb_data,
  output logic        nvdla2csb_wr_complete,
  // unit side
  output logic        pend_vld,    // a request is waiting in the request register
  output logic [5:0]  pend_win,    // its window (unit) index
  output logic [9:0]  pend_word,   // its word offset in the window
  output logic        pend_wr,
  output logic [31:0] pend_wdat,
  input  logic        hold,        // the addressed unit cannot take the request this cycle
  output logic        req_vld,     // the request is performed this cycle
  input  logic [31:0] rd_data      // read data of the addressed unit (0 when none)
);
  logic pend_np;
  logic alive;    // out of reset: no request is taken while the reset is still applied

  assign req_vld         = pend_vld && !hold;
  assign csb2nvdla_ready = alive && (!pend_vld || !hold);

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) alive <= 1'b0;
    else       alive <= 1'b1;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      pend_vld  <= 1'b0;
      pend_win  <= '0;
      pend_word <= '0;
      pend_wr   <= 1'b0;
      pend_np   <= 1'b0;
      pend_wdat <= '0;
    end else if (csb2nvdla_ready) begin
      pend_vld <= csb2nvdla_valid;
      if (csb2nvdla_valid) begin
        {pend_win, pend_word} <= csb2nvdla_addr;
        pend_wr   <= csb2nvdla_write;
        pend_np   <= csb2nvdla_nposted;
        pend_wdat <= csb2nvdla_wdat;
      end
    end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      nvdla2csb_valid       <= 1'b0;
      nvdla2csb_data        <= '0;
      nvdla2csb_wr_complete <= 1'b0;
    end else begin
      nvdla2csb_valid       <= req_vld && !pend_wr;
      nvdla2csb_data        <= (req_vld && !pend_wr) ? rd_data : 32'd0;
      nvdla2csb_wr_complete <= req_vld && pend_wr && pend_np;
    end
endmodule
