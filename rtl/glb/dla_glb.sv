// GLB: hardware version, interrupt mask/set/status and the interrupt pin.
// Status bit i is set by a unit's done pulse or by writing 1 to S_INTR_SET bit i, and
// cleared by writing 1 to S_INTR_STATUS bit i; a set in the same cycle wins over the clear.
// dla_intr = registered OR of the unmasked status bits (a level).
// Status bits of units the configuration lacks (SOURCES clear) read 0 and cannot be set, as in
// NVDLA's nv_small (no BDMA, no RUBIK); their mask bits stay plain read/write.
module dla_glb #(
  // Bits that exist in S_INTR_* (SDP, CDP, PDP, BDMA, RUBIK, CDMA_DAT, CDMA_WT, CACC).
  parameter logic [31:0] SOURCES = 32'h003f_03ff
) (
  input  logic        clk,
  input  logic        rstn,
  input  logic        req_vld,
  input  logic        req_wr,
  input  logic [9:0]  req_word,
  input  logic [31:0] req_wdat,
  output logic [31:0] rd_data,
  input  logic [31:0] done_pulse,    // one bit per source, same bit map as S_INTR_STATUS
  output logic        intr
);
  logic [31:0] status, mask, wdat;
  logic        set_wr, clr_wr;

  dla_glb_regs u_regs (
    .clk, .rstn, .req_vld, .req_wr, .req_word, .req_wdat, .rd_data,
    .wr_data(wdat),
    .s_intr_mask_sdp_done_mask0     (mask[0]),
    .s_intr_mask_sdp_done_mask1     (mask[1]),
    .s_intr_mask_cdp_done_mask0     (mask[2]),
    .s_intr_mask_cdp_done_mask1     (mask[3]),
    .s_intr_mask_pdp_done_mask0     (mask[4]),
    .s_intr_mask_pdp_done_mask1     (mask[5]),
    .s_intr_mask_bdma_done_mask0    (mask[6]),
    .s_intr_mask_bdma_done_mask1    (mask[7]),
    .s_intr_mask_rubik_done_mask0   (mask[8]),
    .s_intr_mask_rubik_done_mask1   (mask[9]),
    .s_intr_mask_cdma_dat_done_mask0(mask[16]),
    .s_intr_mask_cdma_dat_done_mask1(mask[17]),
    .s_intr_mask_cdma_wt_done_mask0 (mask[18]),
    .s_intr_mask_cdma_wt_done_mask1 (mask[19]),
    .s_intr_mask_cacc_done_mask0    (mask[20]),
    .s_intr_mask_cacc_done_mask1    (mask[21]),
    .s_intr_set_wr   (set_wr),
    .s_intr_status_wr(clr_wr),
    .s_intr_status_sdp_done_status0     (status[0]),
    .s_intr_status_sdp_done_status1     (status[1]),
    .s_intr_status_cdp_done_status0     (status[2]),
    .s_intr_status_cdp_done_status1     (status[3]),
    .s_intr_status_pdp_done_status0     (status[4]),
    .s_intr_status_pdp_done_status1     (status[5]),
    .s_intr_status_bdma_done_status0    (status[6]),
    .s_intr_status_bdma_done_status1    (status[7]),
    .s_intr_status_rubik_done_status0   (status[8]),
    .s_intr_status_rubik_done_status1   (status[9]),
    .s_intr_status_cdma_dat_done_status0(status[16]),
    .s_intr_status_cdma_dat_done_status1(status[17]),
    .s_intr_status_cdma_wt_done_status0 (status[18]),
    .s_intr_status_cdma_wt_done_status1 (status[19]),
    .s_intr_status_cacc_done_status0    (status[20]),
    .s_intr_status_cacc_done_status1    (status[21])
  );
  assign mask[15:10] = '0;
  assign mask[31:22] = '0;

  wire [31:0] set = (done_pulse | (set_wr ? wdat : 32'd0)) & SOURCES;
  wire [31:0] clr = clr_wr ? wdat : 32'd0;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      status <= '0;
      intr   <= 1'b0;
    end else begin
      status <= set | (status & ~clr);
      intr   <= |(status & ~mask);
    end
endmodule
