// NV_nvdla: top level with NVDLA's port names.
//
// Everything runs on dla_core_clk (drive dla_csb_clk with the same clock). The units present
// and their CSB windows come from the generated dla_cfg.svh of the configuration.
//
//   CSB --> dla_csb_slave --> window decode --> GLB / CFGROM / BDMA / SDP / PDP / register shells
//   BDMA --> dla_axi_master (DBB)  --> nvdla_core2dbb_*
//        --> dla_axi_master (SRAM) --> nvdla_core2cvsram_*   (when DLA_HAS_SRAM_IF)
//   unit done pulses --> GLB --> dla_intr
`include "dla_cfg.svh"

module NV_nvdla (
  input  logic                            dla_core_clk,
  input  logic                            dla_reset_rstn,
  input  logic                            direct_reset_,
  /* verilator lint_off UNUSEDSIGNAL */   // accepted for compatibility, not needed here
  input  logic                            dla_csb_clk,
  input  logic                            global_clk_ovr_on,
  input  logic                            tmc2slcg_disable_clock_gating,
  input  logic                            test_mode,
  input  logic [31:0]                     nvdla_pwrbus_ram_c_pd,
  input  logic [31:0]                     nvdla_pwrbus_ram_ma_pd,
  input  logic [31:0]                     nvdla_pwrbus_ram_mb_pd,
  input  logic [31:0]                     nvdla_pwrbus_ram_p_pd,
  input  logic [31:0]                     nvdla_pwrbus_ram_o_pd,
  input  logic [31:0]                     nvdla_pwrbus_ram_a_pd,
  /* verilator lint_on UNUSEDSIGNAL */
  // CSB (register access; word addresses)
  input  logic                            csb2nvdla_valid,
  output logic                            csb2nvdla_ready,
  input  logic [15:0]                     csb2nvdla_addr,
  input  logic [31:0]                     csb2nvdla_wdat,
  input  logic                            csb2nvdla_write,
  input  logic                            csb2nvdla_nposted,
  output logic                            nvdla2csb_valid,
  output logic [31:0]                     nvdla2csb_data,
  output logic                            nvdla2csb_wr_complete,
  // AXI4 master: main memory (DBB)
  output logic                            nvdla_core2dbb_aw_awvalid,
  input  logic                            nvdla_core2dbb_aw_awready,
  output logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2dbb_aw_awid,
  output logic [3:0]                      nvdla_core2dbb_aw_awlen,
  output logic [`DLA_DBB_ADDR_BITS-1:0]   nvdla_core2dbb_aw_awaddr,
  output logic                            nvdla_core2dbb_w_wvalid,
  input  logic                            nvdla_core2dbb_w_wready,
  output logic [`DLA_DBB_DATA_BITS-1:0]   nvdla_core2dbb_w_wdata,
  output logic [`DLA_DBB_STRB_BITS-1:0]   nvdla_core2dbb_w_wstrb,
  output logic                            nvdla_core2dbb_w_wlast,
  input  logic                            nvdla_core2dbb_b_bvalid,
  output logic                            nvdla_core2dbb_b_bready,
  input  logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2dbb_b_bid,
  output logic                            nvdla_core2dbb_ar_arvalid,
  input  logic                            nvdla_core2dbb_ar_arready,
  output logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2dbb_ar_arid,
  output logic [3:0]                      nvdla_core2dbb_ar_arlen,
  output logic [`DLA_DBB_ADDR_BITS-1:0]   nvdla_core2dbb_ar_araddr,
  input  logic                            nvdla_core2dbb_r_rvalid,
  output logic                            nvdla_core2dbb_r_rready,
  input  logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2dbb_r_rid,
  input  logic                            nvdla_core2dbb_r_rlast,
  input  logic [`DLA_DBB_DATA_BITS-1:0]   nvdla_core2dbb_r_rdata,
`ifdef DLA_HAS_SRAM_IF
  // AXI4 master: on-chip SRAM (CV-SRAM)
  output logic                            nvdla_core2cvsram_aw_awvalid,
  input  logic                            nvdla_core2cvsram_aw_awready,
  output logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2cvsram_aw_awid,
  output logic [3:0]                      nvdla_core2cvsram_aw_awlen,
  output logic [`DLA_DBB_ADDR_BITS-1:0]   nvdla_core2cvsram_aw_awaddr,
  output logic                            nvdla_core2cvsram_w_wvalid,
  input  logic                            nvdla_core2cvsram_w_wready,
  output logic [`DLA_DBB_DATA_BITS-1:0]   nvdla_core2cvsram_w_wdata,
  output logic [`DLA_DBB_STRB_BITS-1:0]   nvdla_core2cvsram_w_wstrb,
  output logic                            nvdla_core2cvsram_w_wlast,
  input  logic                            nvdla_core2cvsram_b_bvalid,
  output logic                            nvdla_core2cvsram_b_bready,
  input  logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2cvsram_b_bid,
  output logic                            nvdla_core2cvsram_ar_arvalid,
  input  logic                            nvdla_core2cvsram_ar_arready,
  output logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2cvsram_ar_arid,
  output logic [3:0]                      nvdla_core2cvsram_ar_arlen,
  output logic [`DLA_DBB_ADDR_BITS-1:0]   nvdla_core2cvsram_ar_araddr,
  input  logic                            nvdla_core2cvsram_r_rvalid,
  output logic                            nvdla_core2cvsram_r_rready,
  input  logic [`DLA_AXI_ID_BITS-1:0]     nvdla_core2cvsram_r_rid,
  input  logic                            nvdla_core2cvsram_r_rlast,
  input  logic [`DLA_DBB_DATA_BITS-1:0]   nvdla_core2cvsram_r_rdata,
`endif
  output logic                            dla_intr
);
  localparam int ADDR_BITS  = `DLA_DBB_ADDR_BITS;
  localparam int DATA_BITS  = `DLA_DBB_DATA_BITS;
  localparam int ATOM_BYTES = `DLA_ATOM_BYTES;
  localparam int ID_BITS    = `DLA_AXI_ID_BITS;
  localparam int APB        = DATA_BITS / (8 * ATOM_BYTES);   // atoms per bus beat
  localparam int LEN_BITS   = 16;                             // DMA request length field
  localparam int TAG_BITS   = 4;                              // DMA request tag field
  localparam int MAX_WR_OUT = 32;                             // write bursts awaiting B

  // ---- clock and reset --------------------------------------------------------------------
  logic clk, rstn;
  assign clk = dla_core_clk;
  dla_reset_sync u_rst (.clk, .rstn_async(dla_reset_rstn && direct_reset_), .rstn);

  // ---- CSB --------------------------------------------------------------------------------
  logic        pend_vld, pend_wr, req_vld, hold;
  logic [5:0]  pend_win;
  logic [9:0]  pend_word;
  logic [31:0] pend_wdat, rd_data;

  dla_csb_slave u_csb (
    .clk, .rstn,
    .csb2nvdla_valid, .csb2nvdla_ready, .csb2nvdla_addr, .csb2nvdla_wdat,
    .csb2nvdla_write, .csb2nvdla_nposted,
    .nvdla2csb_valid, .nvdla2csb_data, .nvdla2csb_wr_complete,
    .pend_vld, .pend_win, .pend_word, .pend_wr, .pend_wdat, .hold, .req_vld, .rd_data
  );

  // Done pulses into GLB, bit map of S_INTR_STATUS.
  logic [31:0] done_pulse;
  logic [1:0]  bdma_done;
  logic [1:0]  sdp_done;
  logic [1:0]  pdp_done;
  logic [1:0]  cdp_done;
  logic [1:0]  cdma_dat_done, cdma_wt_done, cacc_done;

  // Read data of every unit window; a block drives 0 unless it performs a read.
  logic [31:0] rd_glb, rd_cfgrom, rd_bdma, rd_shells;
  logic        bdma_hold;

  assign rd_data    = rd_glb | rd_cfgrom | rd_bdma | rd_shells;
  assign hold       = bdma_hold;
  assign done_pulse = {10'd0, cacc_done, cdma_wt_done, cdma_dat_done,
                       8'd0, bdma_done, pdp_done, cdp_done, sdp_done};

  // ---- GLB --------------------------------------------------------------------------------
  localparam logic [15:0] BASE_GLB = `DLA_BASE_GLB;
  // Interrupt sources: every unit's pair, less BDMA (bits 7:6) and RUBIK (9:8) when absent.
`ifdef DLA_HAS_BDMA
  localparam logic [31:0] INTR_BDMA = 32'h0000_00c0;
`else
  localparam logic [31:0] INTR_BDMA = 32'h0;
`endif
`ifdef DLA_HAS_RBK
  localparam logic [31:0] INTR_RUBIK = 32'h0000_0300;
`else
  localparam logic [31:0] INTR_RUBIK = 32'h0;
`endif
  dla_glb #(.SOURCES(32'h003f_003f | INTR_BDMA | INTR_RUBIK)) u_glb (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_GLB[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_glb),
    .done_pulse, .intr(dla_intr)
  );

  // ---- CFGROM -----------------------------------------------------------------------------
`ifdef DLA_HAS_CFGROM
  localparam logic [15:0] BASE_CFGROM = `DLA_BASE_CFGROM;
  dla_cfgrom_regs u_cfgrom (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CFGROM[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cfgrom)
  );
`else
  assign rd_cfgrom = '0;
`endif

  // ---- units without a datapath yet: register shells ----------------------------------------
`ifdef DLA_HAS_MCIF
  localparam logic [15:0] BASE_MCIF = `DLA_BASE_MCIF;
  logic [31:0] rd_mcif;
  dla_mcif_shell u_mcif (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_MCIF[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_mcif)
  );
`else
  wire [31:0] rd_mcif = 32'd0;
`endif
`ifdef DLA_HAS_CVIF
  localparam logic [15:0] BASE_CVIF = `DLA_BASE_CVIF;
  logic [31:0] rd_cvif;
  dla_cvif_shell u_cvif (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CVIF[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cvif)
  );
`else
  wire [31:0] rd_cvif = 32'd0;
`endif
`ifdef DLA_CONV_RTL
  // CDMA, CSC, CMAC_A, CMAC_B, CACC: the convolution pipeline (dla_conv, below the DMA ports)
  logic [31:0] rd_conv;
  wire  [31:0] rd_cdma = rd_conv, rd_csc = 32'd0, rd_cmac_a = 32'd0, rd_cmac_b = 32'd0, rd_cacc = 32'd0;
`else
`ifdef DLA_HAS_CDMA
  localparam logic [15:0] BASE_CDMA = `DLA_BASE_CDMA;
  logic [31:0] rd_cdma;
  dla_cdma_shell u_cdma (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CDMA[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cdma)
  );
`else
  wire [31:0] rd_cdma = 32'd0;
`endif
`ifdef DLA_HAS_CSC
  localparam logic [15:0] BASE_CSC = `DLA_BASE_CSC;
  logic [31:0] rd_csc;
  dla_csc_shell u_csc (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CSC[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_csc)
  );
`else
  wire [31:0] rd_csc = 32'd0;
`endif
`ifdef DLA_HAS_CMAC_A
  localparam logic [15:0] BASE_CMAC_A = `DLA_BASE_CMAC_A;
  logic [31:0] rd_cmac_a;
  dla_cmac_a_shell u_cmac_a (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CMAC_A[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cmac_a)
  );
`else
  wire [31:0] rd_cmac_a = 32'd0;
`endif
`ifdef DLA_HAS_CMAC_B
  localparam logic [15:0] BASE_CMAC_B = `DLA_BASE_CMAC_B;
  logic [31:0] rd_cmac_b;
  dla_cmac_b_shell u_cmac_b (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CMAC_B[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cmac_b)
  );
`else
  wire [31:0] rd_cmac_b = 32'd0;
`endif
`ifdef DLA_HAS_CACC
  localparam logic [15:0] BASE_CACC = `DLA_BASE_CACC;
  logic [31:0] rd_cacc;
  dla_cacc_shell u_cacc (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_CACC[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cacc)
  );
`else
  wire [31:0] rd_cacc = 32'd0;
`endif
`endif
  // SDP and SDP_RDMA: one unit (dla_sdp, below the DMA ports); its read data comes in rd_sdp.
  wire [31:0] rd_sdp_rdma = 32'd0;
  logic [31:0] rd_sdp;
  // PDP_RDMA and PDP: one unit (dla_pdp, below the DMA ports); its read data comes in rd_pdp_rdma.
  logic [31:0] rd_pdp_rdma;
  wire  [31:0] rd_pdp = 32'd0;
  // CDP_RDMA and CDP: one unit (dla_cdp, below the DMA ports); its read data comes in rd_cdp_rdma.
  logic [31:0] rd_cdp_rdma;
  wire  [31:0] rd_cdp = 32'd0;
`ifdef DLA_HAS_RBK
  localparam logic [15:0] BASE_RBK = `DLA_BASE_RBK;
  logic [31:0] rd_rbk;
  dla_rbk_shell u_rbk (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_RBK[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_rbk)
  );
`else
  wire [31:0] rd_rbk = 32'd0;
`endif
  assign rd_shells = rd_mcif | rd_cvif | rd_cdma | rd_csc | rd_cmac_a | rd_cmac_b | rd_cacc |
                     rd_sdp_rdma | rd_sdp | rd_pdp_rdma | rd_pdp | rd_cdp_rdma | rd_cdp | rd_rbk;

  // ---- DMA ports ----------------------------------------------------------------------------
  // DMA clients of the DBB port (see docs/rtl.md); client i uses AXI ID i.
`ifdef DLA_CONV_RTL
  localparam int DBB_CLIENTS = 9;      // 0 BDMA, 1-4 SDP (reads 1-4, write 1), 5 PDP, 6 CDP,
                                       // 7-8 CDMA (data, weights; reads only)
`else
  localparam int DBB_CLIENTS = 7;      // 0 BDMA, 1-4 SDP (reads 1-4, write 1), 5 PDP, 6 CDP
`endif
  logic [DBB_CLIENTS-1:0]           dbb_rd_req_valid, dbb_rd_req_ready, dbb_rd_dat_valid;
  logic [DBB_CLIENTS*ADDR_BITS-1:0] dbb_rd_req_addr;
  logic [DBB_CLIENTS*LEN_BITS-1:0]  dbb_rd_req_len;
  logic [DBB_CLIENTS*TAG_BITS-1:0]  dbb_rd_req_tag;
  logic [DATA_BITS-1:0]              dbb_rd_dat_data;
  logic [APB-1:0]                    dbb_rd_dat_mask;
  logic [TAG_BITS-1:0]               dbb_rd_dat_tag;
  logic                              unused_dbb_rd_dat_last;
  logic [DBB_CLIENTS-1:0]           dbb_wr_req_valid, dbb_wr_req_ready, dbb_wr_req_cmpl;
  logic [DBB_CLIENTS*ADDR_BITS-1:0] dbb_wr_req_addr;
  logic [DBB_CLIENTS*LEN_BITS-1:0]  dbb_wr_req_len;
  logic [DBB_CLIENTS*TAG_BITS-1:0]  dbb_wr_req_tag;
  logic [DBB_CLIENTS-1:0]           dbb_wr_dat_valid, dbb_wr_dat_ready, dbb_wr_cmpl;
  logic [DBB_CLIENTS*DATA_BITS-1:0] dbb_wr_dat_data;
  logic [DBB_CLIENTS*APB-1:0]       dbb_wr_dat_mask;
  logic [TAG_BITS-1:0]               dbb_wr_cmpl_tag;
  logic                              unused_dbb_idle;
  assign dbb_rd_req_tag[0 +: 7*TAG_BITS] = '0;
  assign dbb_wr_req_cmpl = '1;
`ifdef DLA_HAS_SRAM_IF
  // DMA clients of the SRAM port (see docs/rtl.md); client i uses AXI ID i.
  localparam int SRAM_CLIENTS = 7;     // as DBB
  logic [SRAM_CLIENTS-1:0]           sram_rd_req_valid, sram_rd_req_ready, sram_rd_dat_valid;
  logic [SRAM_CLIENTS*ADDR_BITS-1:0] sram_rd_req_addr;
  logic [SRAM_CLIENTS*LEN_BITS-1:0]  sram_rd_req_len;
  logic [SRAM_CLIENTS*TAG_BITS-1:0]  sram_rd_req_tag;
  logic [DATA_BITS-1:0]              sram_rd_dat_data;
  logic [APB-1:0]                    sram_rd_dat_mask;
  logic [TAG_BITS-1:0]               unused_sram_rd_dat_tag;
  logic                              unused_sram_rd_dat_last;
  logic [SRAM_CLIENTS-1:0]           sram_wr_req_valid, sram_wr_req_ready, sram_wr_req_cmpl;
  logic [SRAM_CLIENTS*ADDR_BITS-1:0] sram_wr_req_addr;
  logic [SRAM_CLIENTS*LEN_BITS-1:0]  sram_wr_req_len;
  logic [SRAM_CLIENTS*TAG_BITS-1:0]  sram_wr_req_tag;
  logic [SRAM_CLIENTS-1:0]           sram_wr_dat_valid, sram_wr_dat_ready, sram_wr_cmpl;
  logic [SRAM_CLIENTS*DATA_BITS-1:0] sram_wr_dat_data;
  logic [SRAM_CLIENTS*APB-1:0]       sram_wr_dat_mask;
  logic [TAG_BITS-1:0]               sram_wr_cmpl_tag;
  logic                              unused_sram_idle;
  assign sram_rd_req_tag = '0;
  assign sram_wr_req_cmpl = '1;
`endif

  // ---- BDMA (client 0 of both ports) ---------------------------------------------------------
`ifdef DLA_HAS_BDMA
  localparam logic [15:0] BASE_BDMA = `DLA_BASE_BDMA;
  logic [1:0]             bdma_rd_req_valid, bdma_rd_req_ready, bdma_rd_dat_valid;
  logic [ADDR_BITS-1:0]   bdma_rd_req_addr, bdma_wr_req_addr;
  logic [LEN_BITS-1:0]    bdma_rd_req_len, bdma_wr_req_len;
  logic [2*DATA_BITS-1:0] bdma_rd_dat_data;
  logic [2*APB-1:0]       bdma_rd_dat_mask;
  logic [1:0]             bdma_wr_req_valid, bdma_wr_req_ready, bdma_wr_dat_valid, bdma_wr_dat_ready;
  logic [1:0]             bdma_wr_cmpl;
  logic [TAG_BITS-1:0]    bdma_wr_req_tag;
  logic [2*TAG_BITS-1:0]  bdma_wr_cmpl_tag;
  logic [DATA_BITS-1:0]   bdma_wr_dat_data;
  logic [APB-1:0]         bdma_wr_dat_mask;
  wire                    sel_bdma = pend_win == BASE_BDMA[15:10];

  dla_bdma #(
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .QUEUE_DEPTH(`DLA_BDMA_QUEUE_DEPTH), .MAX_BURST(`DLA_AXI_MAX_BURST),
    .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
`ifdef DLA_HAS_SRAM_IF
    .HAS_SRAM(1'b1)
`else
    .HAS_SRAM(1'b0)
`endif
  ) u_bdma (
    .clk, .rstn,
    .pend_sel(pend_vld && sel_bdma), .pend_wr, .pend_word, .pend_wdat0(pend_wdat[0]),
    .hold(bdma_hold),
    .req_vld(req_vld && sel_bdma), .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat),
    .rd_data(rd_bdma), .done(bdma_done),
    .rd_req_valid(bdma_rd_req_valid), .rd_req_ready(bdma_rd_req_ready),
    .rd_req_addr(bdma_rd_req_addr), .rd_req_len(bdma_rd_req_len),
    .rd_dat_valid(bdma_rd_dat_valid), .rd_dat_data(bdma_rd_dat_data), .rd_dat_mask(bdma_rd_dat_mask),
    .wr_req_valid(bdma_wr_req_valid), .wr_req_ready(bdma_wr_req_ready),
    .wr_req_addr(bdma_wr_req_addr), .wr_req_len(bdma_wr_req_len), .wr_req_tag(bdma_wr_req_tag),
    .wr_dat_valid(bdma_wr_dat_valid), .wr_dat_ready(bdma_wr_dat_ready),
    .wr_dat_data(bdma_wr_dat_data), .wr_dat_mask(bdma_wr_dat_mask),
    .wr_cmpl(bdma_wr_cmpl), .wr_cmpl_tag(bdma_wr_cmpl_tag)
  );

  // DBB client 0
  assign dbb_rd_req_valid[0]         = bdma_rd_req_valid[0];
  assign bdma_rd_req_ready[0]        = dbb_rd_req_ready[0];
  assign dbb_rd_req_addr[ADDR_BITS-1:0] = bdma_rd_req_addr;
  assign dbb_rd_req_len[LEN_BITS-1:0]   = bdma_rd_req_len;
  assign bdma_rd_dat_valid[0]        = dbb_rd_dat_valid[0];
  assign bdma_rd_dat_data[0 +: DATA_BITS] = dbb_rd_dat_data;
  assign bdma_rd_dat_mask[0 +: APB]  = dbb_rd_dat_mask;
  assign dbb_wr_req_valid[0]         = bdma_wr_req_valid[0];
  assign bdma_wr_req_ready[0]        = dbb_wr_req_ready[0];
  assign dbb_wr_req_addr[ADDR_BITS-1:0] = bdma_wr_req_addr;
  assign dbb_wr_req_len[LEN_BITS-1:0]   = bdma_wr_req_len;
  assign dbb_wr_req_tag[TAG_BITS-1:0]   = bdma_wr_req_tag;
  assign dbb_wr_dat_valid[0]         = bdma_wr_dat_valid[0];
  assign bdma_wr_dat_ready[0]        = dbb_wr_dat_ready[0];
  assign dbb_wr_dat_data[DATA_BITS-1:0] = bdma_wr_dat_data;
  assign dbb_wr_dat_mask[APB-1:0]    = bdma_wr_dat_mask;
  assign bdma_wr_cmpl[0]             = dbb_wr_cmpl[0];
  assign bdma_wr_cmpl_tag[0 +: TAG_BITS] = dbb_wr_cmpl_tag;
`ifdef DLA_HAS_SRAM_IF
  // SRAM client 0
  assign sram_rd_req_valid[0]        = bdma_rd_req_valid[1];
  assign bdma_rd_req_ready[1]        = sram_rd_req_ready[0];
  assign sram_rd_req_addr[ADDR_BITS-1:0] = bdma_rd_req_addr;
  assign sram_rd_req_len[LEN_BITS-1:0]   = bdma_rd_req_len;
  assign bdma_rd_dat_valid[1]        = sram_rd_dat_valid[0];
  assign bdma_rd_dat_data[DATA_BITS +: DATA_BITS] = sram_rd_dat_data;
  assign bdma_rd_dat_mask[APB +: APB] = sram_rd_dat_mask;
  assign sram_wr_req_valid[0]        = bdma_wr_req_valid[1];
  assign bdma_wr_req_ready[1]        = sram_wr_req_ready[0];
  assign sram_wr_req_addr[ADDR_BITS-1:0] = bdma_wr_req_addr;
  assign sram_wr_req_len[LEN_BITS-1:0]   = bdma_wr_req_len;
  assign sram_wr_req_tag[TAG_BITS-1:0]   = bdma_wr_req_tag;
  assign sram_wr_dat_valid[0]        = bdma_wr_dat_valid[1];
  assign bdma_wr_dat_ready[1]        = sram_wr_dat_ready[0];
  assign sram_wr_dat_data[DATA_BITS-1:0] = bdma_wr_dat_data;
  assign sram_wr_dat_mask[APB-1:0]   = bdma_wr_dat_mask;
  assign bdma_wr_cmpl[1]             = sram_wr_cmpl[0];
  assign bdma_wr_cmpl_tag[TAG_BITS +: TAG_BITS] = sram_wr_cmpl_tag;
`else
  // No SRAM interface: BDMA maps CVSRAM to DBB and never uses its port 1.
  assign bdma_rd_req_ready[1]        = 1'b0;
  assign bdma_rd_dat_valid[1]        = 1'b0;
  assign bdma_rd_dat_data[DATA_BITS +: DATA_BITS] = '0;
  assign bdma_rd_dat_mask[APB +: APB] = '0;
  assign bdma_wr_req_ready[1]        = 1'b0;
  assign bdma_wr_dat_ready[1]        = 1'b0;
  assign bdma_wr_cmpl[1]             = 1'b0;
  assign bdma_wr_cmpl_tag[TAG_BITS +: TAG_BITS] = '0;
`endif
`else
  assign rd_bdma   = '0;
  assign bdma_hold = 1'b0;
  assign bdma_done = '0;
  // DBB client 0 unused in this configuration.
  assign dbb_rd_req_valid[0] = 1'b0;
  assign dbb_rd_req_addr[ADDR_BITS-1:0] = '0;
  assign dbb_rd_req_len[LEN_BITS-1:0]   = '0;
  assign dbb_wr_req_valid[0] = 1'b0;
  assign dbb_wr_req_addr[ADDR_BITS-1:0] = '0;
  assign dbb_wr_req_len[LEN_BITS-1:0]   = '0;
  assign dbb_wr_req_tag[TAG_BITS-1:0]   = '0;
  assign dbb_wr_dat_valid[0] = 1'b0;
  assign dbb_wr_dat_data[DATA_BITS-1:0] = '0;
  assign dbb_wr_dat_mask[APB-1:0]       = '0;
  wire unused_dbb_client = &{pend_vld, dbb_rd_req_ready, dbb_rd_dat_valid, dbb_rd_dat_data,
                             dbb_rd_dat_mask, dbb_wr_req_ready, dbb_wr_dat_ready, dbb_wr_cmpl,
                             dbb_wr_cmpl_tag};
`ifdef DLA_HAS_SRAM_IF
  // SRAM client 0 unused in this configuration.
  assign sram_rd_req_valid[0] = 1'b0;
  assign sram_rd_req_addr[ADDR_BITS-1:0] = '0;
  assign sram_rd_req_len[LEN_BITS-1:0]   = '0;
  assign sram_wr_req_valid[0] = 1'b0;
  assign sram_wr_req_addr[ADDR_BITS-1:0] = '0;
  assign sram_wr_req_len[LEN_BITS-1:0]   = '0;
  assign sram_wr_req_tag[TAG_BITS-1:0]   = '0;
  assign sram_wr_dat_valid[0] = 1'b0;
  assign sram_wr_dat_data[DATA_BITS-1:0] = '0;
  assign sram_wr_dat_mask[APB-1:0]       = '0;
  wire unused_sram_client = &{sram_rd_req_ready, sram_rd_dat_valid, sram_rd_dat_data,
                              sram_rd_dat_mask, sram_wr_req_ready, sram_wr_dat_ready, sram_wr_cmpl,
                              sram_wr_cmpl_tag};
`endif
`endif

  // ---- convolution pipeline (DBB clients 7-8) ------------------------------------------------
  logic                        conv_fly_valid, conv_fly_ready;
  logic [`DLA_SDP_THROUGHPUT*32-1:0] conv_fly_data;
`ifdef DLA_CONV_RTL
  localparam int CONV_C0 = 7;
  localparam logic [15:0] BASE_CDMA   = `DLA_BASE_CDMA;
  localparam logic [15:0] BASE_CSC    = `DLA_BASE_CSC;
  localparam logic [15:0] BASE_CMAC_A = `DLA_BASE_CMAC_A;
  localparam logic [15:0] BASE_CMAC_B = `DLA_BASE_CMAC_B;
  localparam logic [15:0] BASE_CACC   = `DLA_BASE_CACC;
  dla_conv #(
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .AC(`DLA_CONV_MAC_ATOMIC_C), .AK(`DLA_CONV_MAC_ATOMIC_K), .BANKS(`DLA_CONV_CBUF_BANKS),
    .DEPTH(`DLA_CONV_CBUF_BANK_ENTRIES), .ENTRY_BYTES(`DLA_CONV_CBUF_ENTRY_BYTES),
    .TP(`DLA_SDP_THROUGHPUT),
`ifdef DLA_CONV_SAT_COUNT_WRAPS
    .SAT_WRAP(1'b1),
`else
    .SAT_WRAP(1'b0),
`endif
`ifdef DLA_HAS_INT16
    .PREC16(1'b1),
`else
    .PREC16(1'b0),
`endif
    .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS)
  ) u_conv (
    .clk, .rstn,
    .cdma_req_vld(req_vld && pend_win == BASE_CDMA[15:10]),
    .csc_req_vld(req_vld && pend_win == BASE_CSC[15:10]),
    .cmac_a_req_vld(req_vld && pend_win == BASE_CMAC_A[15:10]),
    .cmac_b_req_vld(req_vld && pend_win == BASE_CMAC_B[15:10]),
    .cacc_req_vld(req_vld && pend_win == BASE_CACC[15:10]),
    .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_conv),
    .cdma_dat_done, .cdma_wt_done, .cacc_done,
    .rd_req_valid(dbb_rd_req_valid[CONV_C0 +: 2]), .rd_req_ready(dbb_rd_req_ready[CONV_C0 +: 2]),
    .rd_req_addr(dbb_rd_req_addr[CONV_C0*ADDR_BITS +: 2*ADDR_BITS]),
    .rd_req_len(dbb_rd_req_len[CONV_C0*LEN_BITS +: 2*LEN_BITS]),
    .rd_req_tag(dbb_rd_req_tag[CONV_C0*TAG_BITS +: 2*TAG_BITS]),
    .rd_dat_valid(dbb_rd_dat_valid[CONV_C0 +: 2]), .rd_dat_data(dbb_rd_dat_data),
    .rd_dat_mask(dbb_rd_dat_mask), .rd_dat_tag(dbb_rd_dat_tag),
    .fly_valid(conv_fly_valid), .fly_ready(conv_fly_ready), .fly_data(conv_fly_data)
  );
  // reads only
  assign dbb_wr_req_valid[CONV_C0 +: 2] = '0;
  assign dbb_wr_req_addr[CONV_C0*ADDR_BITS +: 2*ADDR_BITS] = '0;
  assign dbb_wr_req_len[CONV_C0*LEN_BITS +: 2*LEN_BITS]    = '0;
  assign dbb_wr_req_tag[CONV_C0*TAG_BITS +: 2*TAG_BITS]    = '0;
  assign dbb_wr_dat_valid[CONV_C0 +: 2] = '0;
  assign dbb_wr_dat_data[CONV_C0*DATA_BITS +: 2*DATA_BITS] = '0;
  assign dbb_wr_dat_mask[CONV_C0*APB +: 2*APB]             = '0;
  wire unused_conv_dbb = &{1'b0, dbb_wr_req_ready[CONV_C0 +: 2], dbb_wr_dat_ready[CONV_C0 +: 2],
                           dbb_wr_cmpl[CONV_C0 +: 2]};
`else
  assign cdma_dat_done  = '0;
  assign cdma_wt_done   = '0;
  assign cacc_done      = '0;
  assign conv_fly_valid = 1'b0;
  assign conv_fly_data  = '0;
  wire unused_conv = &{1'b0, conv_fly_ready, dbb_rd_dat_tag};
`endif

  // ---- SDP -> PDP on-flying stream (SDP OUTPUT_DST = PDP, PDP FLYING_MODE = on-flying) --------
  // One SDP output atom per handshake, memory layout, in SDP's output order (docs/sdp-rtl.md).
  logic                    sdp2pdp_valid, sdp2pdp_ready;
  logic [ATOM_BYTES*8-1:0] sdp2pdp_data;

  // ---- SDP + SDP_RDMA (DMA clients 1-4 of both ports: reads main/BS/BN/EW; write on 1) ------
`ifdef DLA_HAS_SDP
  localparam logic [15:0] BASE_SDP = `DLA_BASE_SDP;
  localparam logic [15:0] BASE_SDP_RDMA = `DLA_BASE_SDP_RDMA;
  localparam int SDP_C0 = 1;                                  // first SDP client index
  logic [1:0]           sdp_wr_req_valid, sdp_wr_req_ready, sdp_wr_dat_valid, sdp_wr_dat_ready;
  logic [1:0]           sdp_wr_cmpl;
  logic [ADDR_BITS-1:0] sdp_wr_req_addr;
  logic [LEN_BITS-1:0]  sdp_wr_req_len;
  logic [DATA_BITS-1:0] sdp_wr_dat_data;
  logic [APB-1:0]       sdp_wr_dat_mask;
  logic [3:0]           sdp_sram_rd_req_valid, sdp_sram_rd_req_ready, sdp_sram_rd_dat_valid;
  logic [4*ADDR_BITS-1:0] sdp_sram_rd_req_addr;
  logic [4*LEN_BITS-1:0]  sdp_sram_rd_req_len;
  dla_sdp #(
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .MAX_BURST(`DLA_AXI_MAX_BURST), .LEN_BITS(LEN_BITS), .TP(`DLA_SDP_THROUGHPUT),
`ifdef DLA_HAS_SRAM_IF
    .HAS_SRAM(1'b1),
`else
    .HAS_SRAM(1'b0),
`endif
`ifdef DLA_HAS_FP16
    .HAS_FP(1'b1),
`else
    .HAS_FP(1'b0),
`endif
`ifdef DLA_SDP_BS
    .HAS_BS(1'b1),
`else
    .HAS_BS(1'b0),
`endif
`ifdef DLA_SDP_BN
    .HAS_BN(1'b1),
`else
    .HAS_BN(1'b0),
`endif
`ifdef DLA_SDP_EW
    .HAS_EW(1'b1),
`else
    .HAS_EW(1'b0),
`endif
`ifdef DLA_SDP_SAT_FLAG_RANGE
    .SAT_RANGE(1'b1),
`else
    .SAT_RANGE(1'b0),
`endif
`ifdef DLA_SDP_LUT
    .HAS_LUT(1'b1)
`else
    .HAS_LUT(1'b0)
`endif
  ) u_sdp (
    .clk, .rstn,
    .rdma_req_vld(req_vld && pend_win == BASE_SDP_RDMA[15:10]),
    .sdp_req_vld(req_vld && pend_win == BASE_SDP[15:10]),
    .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_sdp),
    .done(sdp_done),
    .dbb_rd_req_valid(dbb_rd_req_valid[SDP_C0 +: 4]), .dbb_rd_req_ready(dbb_rd_req_ready[SDP_C0 +: 4]),
    .dbb_rd_req_addr(dbb_rd_req_addr[SDP_C0*ADDR_BITS +: 4*ADDR_BITS]),
    .dbb_rd_req_len(dbb_rd_req_len[SDP_C0*LEN_BITS +: 4*LEN_BITS]),
    .dbb_rd_dat_valid(dbb_rd_dat_valid[SDP_C0 +: 4]), .dbb_rd_dat_data, .dbb_rd_dat_mask,
    .sram_rd_req_valid(sdp_sram_rd_req_valid), .sram_rd_req_ready(sdp_sram_rd_req_ready),
    .sram_rd_req_addr(sdp_sram_rd_req_addr), .sram_rd_req_len(sdp_sram_rd_req_len),
`ifdef DLA_HAS_SRAM_IF
    .sram_rd_dat_valid(sdp_sram_rd_dat_valid), .sram_rd_dat_data, .sram_rd_dat_mask,
`else
    .sram_rd_dat_valid(4'd0), .sram_rd_dat_data({DATA_BITS{1'b0}}), .sram_rd_dat_mask({APB{1'b0}}),
`endif
    .wr_req_valid(sdp_wr_req_valid), .wr_req_ready(sdp_wr_req_ready),
    .wr_req_addr(sdp_wr_req_addr), .wr_req_len(sdp_wr_req_len),
    .wr_dat_valid(sdp_wr_dat_valid), .wr_dat_ready(sdp_wr_dat_ready),
    .wr_dat_data(sdp_wr_dat_data), .wr_dat_mask(sdp_wr_dat_mask), .wr_cmpl(sdp_wr_cmpl),
    // flying input from CACC; the SDP output feeds PDP's on-flying input
    .fly_valid(conv_fly_valid), .fly_ready(conv_fly_ready), .fly_data(conv_fly_data),
    .pdp_valid(sdp2pdp_valid), .pdp_ready(sdp2pdp_ready), .pdp_data(sdp2pdp_data)
  );
  // DBB: write client SDP_C0; write slices of clients SDP_C0+1.. unused
  assign dbb_wr_req_valid[SDP_C0 +: 4] = {3'b000, sdp_wr_req_valid[0]};
  assign dbb_wr_req_addr[SDP_C0*ADDR_BITS +: 4*ADDR_BITS] = {{(3*ADDR_BITS){1'b0}}, sdp_wr_req_addr};
  assign dbb_wr_req_len[SDP_C0*LEN_BITS +: 4*LEN_BITS]    = {{(3*LEN_BITS){1'b0}}, sdp_wr_req_len};
  assign dbb_wr_req_tag[SDP_C0*TAG_BITS +: 4*TAG_BITS]    = '0;
  assign dbb_wr_dat_valid[SDP_C0 +: 4] = {3'b000, sdp_wr_dat_valid[0]};
  assign dbb_wr_dat_data[SDP_C0*DATA_BITS +: 4*DATA_BITS] = {{(3*DATA_BITS){1'b0}}, sdp_wr_dat_data};
  assign dbb_wr_dat_mask[SDP_C0*APB +: 4*APB]             = {{(3*APB){1'b0}}, sdp_wr_dat_mask};
  assign sdp_wr_req_ready[0] = dbb_wr_req_ready[SDP_C0];
  assign sdp_wr_dat_ready[0] = dbb_wr_dat_ready[SDP_C0];
  assign sdp_wr_cmpl[0]      = dbb_wr_cmpl[SDP_C0];
  wire unused_sdp_dbb = &{1'b0, dbb_wr_req_ready[SDP_C0+1 +: 3], dbb_wr_dat_ready[SDP_C0+1 +: 3],
                          dbb_wr_cmpl[SDP_C0+1 +: 3]};
`ifdef DLA_HAS_SRAM_IF
  assign sram_rd_req_valid[SDP_C0 +: 4] = sdp_sram_rd_req_valid;
  assign sdp_sram_rd_req_ready = sram_rd_req_ready[SDP_C0 +: 4];
  assign sram_rd_req_addr[SDP_C0*ADDR_BITS +: 4*ADDR_BITS] = sdp_sram_rd_req_addr;
  assign sram_rd_req_len[SDP_C0*LEN_BITS +: 4*LEN_BITS]    = sdp_sram_rd_req_len;
  assign sdp_sram_rd_dat_valid = sram_rd_dat_valid[SDP_C0 +: 4];
  assign sram_wr_req_valid[SDP_C0 +: 4] = {3'b000, sdp_wr_req_valid[1]};
  assign sram_wr_req_addr[SDP_C0*ADDR_BITS +: 4*ADDR_BITS] = {{(3*ADDR_BITS){1'b0}}, sdp_wr_req_addr};
  assign sram_wr_req_len[SDP_C0*LEN_BITS +: 4*LEN_BITS]    = {{(3*LEN_BITS){1'b0}}, sdp_wr_req_len};
  assign sram_wr_req_tag[SDP_C0*TAG_BITS +: 4*TAG_BITS]    = '0;
  assign sram_wr_dat_valid[SDP_C0 +: 4] = {3'b000, sdp_wr_dat_valid[1]};
  assign sram_wr_dat_data[SDP_C0*DATA_BITS +: 4*DATA_BITS] = {{(3*DATA_BITS){1'b0}}, sdp_wr_dat_data};
  assign sram_wr_dat_mask[SDP_C0*APB +: 4*APB]             = {{(3*APB){1'b0}}, sdp_wr_dat_mask};
  assign sdp_wr_req_ready[1] = sram_wr_req_ready[SDP_C0];
  assign sdp_wr_dat_ready[1] = sram_wr_dat_ready[SDP_C0];
  assign sdp_wr_cmpl[1]      = sram_wr_cmpl[SDP_C0];
  wire unused_sdp_sram = &{1'b0, sram_wr_req_ready[SDP_C0+1 +: 3], sram_wr_dat_ready[SDP_C0+1 +: 3],
                           sram_wr_cmpl[SDP_C0+1 +: 3]};
`else
  assign sdp_sram_rd_req_ready = '0;
  assign sdp_wr_req_ready[1]   = 1'b0;
  assign sdp_wr_dat_ready[1]   = 1'b0;
  assign sdp_wr_cmpl[1]        = 1'b0;
  assign sdp_sram_rd_dat_valid = '0;
  wire unused_sdp_sram = &{1'b0, sdp_sram_rd_req_valid, sdp_sram_rd_req_addr, sdp_sram_rd_req_len,
                           sdp_wr_req_valid[1], sdp_wr_dat_valid[1], sdp_sram_rd_dat_valid};
`endif
`else
  assign rd_sdp   = '0;
  assign sdp_done = '0;
  assign conv_fly_ready = 1'b0;
  assign sdp2pdp_valid = 1'b0;
  assign sdp2pdp_data  = '0;
  wire unused_sdp2pdp_ready = sdp2pdp_ready;
  // SDP clients 1-4 unused in this configuration.
  assign dbb_rd_req_valid[4:1] = '0;
  assign dbb_rd_req_addr[ADDR_BITS +: 4*ADDR_BITS] = '0;
  assign dbb_rd_req_len[LEN_BITS +: 4*LEN_BITS]    = '0;
  assign dbb_wr_req_valid[4:1] = '0;
  assign dbb_wr_req_addr[ADDR_BITS +: 4*ADDR_BITS] = '0;
  assign dbb_wr_req_len[LEN_BITS +: 4*LEN_BITS]    = '0;
  assign dbb_wr_req_tag[TAG_BITS +: 4*TAG_BITS]    = '0;
  assign dbb_wr_dat_valid[4:1] = '0;
  assign dbb_wr_dat_data[DATA_BITS +: 4*DATA_BITS] = '0;
  assign dbb_wr_dat_mask[APB +: 4*APB]             = '0;
`endif

  // ---- PDP_RDMA + PDP (client 5 of both ports) --------------------------------------------------------
`ifdef DLA_HAS_PDP
  localparam logic [15:0] BASE_PDP_RDMA = `DLA_BASE_PDP_RDMA;
  localparam logic [15:0] BASE_PDP      = `DLA_BASE_PDP;
  localparam int PDP_IDX = 5;
  logic [1:0]             pdp_rd_req_valid, pdp_rd_req_ready, pdp_rd_dat_valid;
  logic [ADDR_BITS-1:0]   pdp_rd_req_addr, pdp_wr_req_addr;
  logic [LEN_BITS-1:0]    pdp_rd_req_len, pdp_wr_req_len;
  logic [2*DATA_BITS-1:0] pdp_rd_dat_data;
  logic [2*APB-1:0]       pdp_rd_dat_mask;
  logic [1:0]             pdp_wr_req_valid, pdp_wr_req_ready, pdp_wr_dat_valid, pdp_wr_dat_ready;
  logic [1:0]             pdp_wr_cmpl;
  logic [TAG_BITS-1:0]    pdp_wr_req_tag;
  logic [2*TAG_BITS-1:0]  pdp_wr_cmpl_tag;
  logic [DATA_BITS-1:0]   pdp_wr_dat_data;
  logic [APB-1:0]         pdp_wr_dat_mask;
  logic                   unused_pdp_wr_req_cmpl;

  dla_pdp #(
    .TP(`DLA_PDP_THROUGHPUT), .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS),
    .ADDR_BITS(ADDR_BITS), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
    .MAX_BURST(`DLA_AXI_MAX_BURST),
`ifdef DLA_HAS_INT16
    .HAS_INT16(1'b1),
`else
    .HAS_INT16(1'b0),
`endif
`ifdef DLA_HAS_FP16
    .HAS_FP16(1'b1),
`else
    .HAS_FP16(1'b0),
`endif
`ifdef DLA_HAS_SRAM_IF
    .HAS_SRAM(1'b1)
`else
    .HAS_SRAM(1'b0)
`endif
  ) u_pdp (
    .clk, .rstn,
    .rdma_req_vld(req_vld && pend_win == BASE_PDP_RDMA[15:10]),
    .core_req_vld(req_vld && pend_win == BASE_PDP[15:10]),
    .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_pdp_rdma),
    .otf_valid(sdp2pdp_valid), .otf_ready(sdp2pdp_ready), .otf_data(sdp2pdp_data),   // from SDP
    .rd_req_valid(pdp_rd_req_valid), .rd_req_ready(pdp_rd_req_ready),
    .rd_req_addr(pdp_rd_req_addr), .rd_req_len(pdp_rd_req_len),
    .rd_dat_valid(pdp_rd_dat_valid), .rd_dat_data(pdp_rd_dat_data), .rd_dat_mask(pdp_rd_dat_mask),
    .wr_req_valid(pdp_wr_req_valid), .wr_req_ready(pdp_wr_req_ready),
    .wr_req_addr(pdp_wr_req_addr), .wr_req_len(pdp_wr_req_len),
    .wr_req_cmpl(unused_pdp_wr_req_cmpl), .wr_req_tag(pdp_wr_req_tag),
    .wr_dat_valid(pdp_wr_dat_valid), .wr_dat_ready(pdp_wr_dat_ready),
    .wr_dat_data(pdp_wr_dat_data), .wr_dat_mask(pdp_wr_dat_mask),
    .wr_cmpl(pdp_wr_cmpl), .wr_cmpl_tag(pdp_wr_cmpl_tag),
    .intr_done(pdp_done)
  );

  // DBB client PDP_IDX
  assign dbb_rd_req_valid[PDP_IDX]                 = pdp_rd_req_valid[0];
  assign pdp_rd_req_ready[0]                       = dbb_rd_req_ready[PDP_IDX];
  assign dbb_rd_req_addr[PDP_IDX*ADDR_BITS +: ADDR_BITS] = pdp_rd_req_addr;
  assign dbb_rd_req_len[PDP_IDX*LEN_BITS +: LEN_BITS]    = pdp_rd_req_len;
  assign pdp_rd_dat_valid[0]                       = dbb_rd_dat_valid[PDP_IDX];
  assign pdp_rd_dat_data[0 +: DATA_BITS]           = dbb_rd_dat_data;
  assign pdp_rd_dat_mask[0 +: APB]                 = dbb_rd_dat_mask;
  assign dbb_wr_req_valid[PDP_IDX]                 = pdp_wr_req_valid[0];
  assign pdp_wr_req_ready[0]                       = dbb_wr_req_ready[PDP_IDX];
  assign dbb_wr_req_addr[PDP_IDX*ADDR_BITS +: ADDR_BITS] = pdp_wr_req_addr;
  assign dbb_wr_req_len[PDP_IDX*LEN_BITS +: LEN_BITS]    = pdp_wr_req_len;
  assign dbb_wr_req_tag[PDP_IDX*TAG_BITS +: TAG_BITS]    = pdp_wr_req_tag;
  assign dbb_wr_dat_valid[PDP_IDX]                 = pdp_wr_dat_valid[0];
  assign pdp_wr_dat_ready[0]                       = dbb_wr_dat_ready[PDP_IDX];
  assign dbb_wr_dat_data[PDP_IDX*DATA_BITS +: DATA_BITS] = pdp_wr_dat_data;
  assign dbb_wr_dat_mask[PDP_IDX*APB +: APB]       = pdp_wr_dat_mask;
  assign pdp_wr_cmpl[0]                            = dbb_wr_cmpl[PDP_IDX];
  assign pdp_wr_cmpl_tag[0 +: TAG_BITS]            = dbb_wr_cmpl_tag;
`ifdef DLA_HAS_SRAM_IF
  // SRAM client PDP_IDX
  assign sram_rd_req_valid[PDP_IDX]                = pdp_rd_req_valid[1];
  assign pdp_rd_req_ready[1]                       = sram_rd_req_ready[PDP_IDX];
  assign sram_rd_req_addr[PDP_IDX*ADDR_BITS +: ADDR_BITS] = pdp_rd_req_addr;
  assign sram_rd_req_len[PDP_IDX*LEN_BITS +: LEN_BITS]    = pdp_rd_req_len;
  assign pdp_rd_dat_valid[1]                       = sram_rd_dat_valid[PDP_IDX];
  assign pdp_rd_dat_data[DATA_BITS +: DATA_BITS]   = sram_rd_dat_data;
  assign pdp_rd_dat_mask[APB +: APB]               = sram_rd_dat_mask;
  assign sram_wr_req_valid[PDP_IDX]                = pdp_wr_req_valid[1];
  assign pdp_wr_req_ready[1]                       = sram_wr_req_ready[PDP_IDX];
  assign sram_wr_req_addr[PDP_IDX*ADDR_BITS +: ADDR_BITS] = pdp_wr_req_addr;
  assign sram_wr_req_len[PDP_IDX*LEN_BITS +: LEN_BITS]    = pdp_wr_req_len;
  assign sram_wr_req_tag[PDP_IDX*TAG_BITS +: TAG_BITS]    = pdp_wr_req_tag;
  assign sram_wr_dat_valid[PDP_IDX]                = pdp_wr_dat_valid[1];
  assign pdp_wr_dat_ready[1]                       = sram_wr_dat_ready[PDP_IDX];
  assign sram_wr_dat_data[PDP_IDX*DATA_BITS +: DATA_BITS] = pdp_wr_dat_data;
  assign sram_wr_dat_mask[PDP_IDX*APB +: APB]      = pdp_wr_dat_mask;
  assign pdp_wr_cmpl[1]                            = sram_wr_cmpl[PDP_IDX];
  assign pdp_wr_cmpl_tag[TAG_BITS +: TAG_BITS]     = sram_wr_cmpl_tag;
`else
  // No SRAM interface: PDP maps CV-SRAM to DBB and never uses its port 1.
  wire unused_pdp_port1 = &{1'b0, pdp_rd_req_valid[1], pdp_wr_req_valid[1], pdp_wr_dat_valid[1]};
  assign pdp_rd_req_ready[1]                       = 1'b0;
  assign pdp_rd_dat_valid[1]                       = 1'b0;
  assign pdp_rd_dat_data[DATA_BITS +: DATA_BITS]   = '0;
  assign pdp_rd_dat_mask[APB +: APB]               = '0;
  assign pdp_wr_req_ready[1]                       = 1'b0;
  assign pdp_wr_dat_ready[1]                       = 1'b0;
  assign pdp_wr_cmpl[1]                            = 1'b0;
  assign pdp_wr_cmpl_tag[TAG_BITS +: TAG_BITS]     = '0;
`endif
`else
  assign pdp_done = '0;
  assign sdp2pdp_ready = 1'b0;   // no PDP: an SDP layer sent to PDP never completes
  wire unused_sdp2pdp = &{1'b0, sdp2pdp_valid, sdp2pdp_data};
`ifdef DLA_HAS_PDP_RDMA
  localparam logic [15:0] BASE_PDP_RDMA = `DLA_BASE_PDP_RDMA;
  dla_pdp_rdma_shell u_pdp_rdma (
    .clk, .rstn, .req_vld(req_vld && pend_win == BASE_PDP_RDMA[15:10]), .req_wr(pend_wr),
    .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_pdp_rdma)
  );
`else
  assign rd_pdp_rdma = '0;
`endif
`endif

  // ---- CDP_RDMA + CDP (client 6 of both ports) ------------------------------------------------
`ifdef DLA_HAS_CDP
  localparam logic [15:0] BASE_CDP_RDMA = `DLA_BASE_CDP_RDMA;
  localparam logic [15:0] BASE_CDP      = `DLA_BASE_CDP;
  localparam int CDP_IDX = 6;
  logic [1:0]             cdp_rd_req_valid, cdp_rd_req_ready, cdp_rd_dat_valid;
  logic [ADDR_BITS-1:0]   cdp_rd_req_addr, cdp_wr_req_addr;
  logic [LEN_BITS-1:0]    cdp_rd_req_len, cdp_wr_req_len;
  logic [2*DATA_BITS-1:0] cdp_rd_dat_data;
  logic [2*APB-1:0]       cdp_rd_dat_mask;
  logic [1:0]             cdp_wr_req_valid, cdp_wr_req_ready, cdp_wr_dat_valid, cdp_wr_dat_ready;
  logic [1:0]             cdp_wr_cmpl;
  logic [TAG_BITS-1:0]    cdp_wr_req_tag;
  logic [2*TAG_BITS-1:0]  cdp_wr_cmpl_tag;
  logic [DATA_BITS-1:0]   cdp_wr_dat_data;
  logic [APB-1:0]         cdp_wr_dat_mask;
  logic                   unused_cdp_wr_req_cmpl;

  dla_cdp #(
    .TP(`DLA_CDP_THROUGHPUT), .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS),
    .ADDR_BITS(ADDR_BITS), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
    .MAX_BURST(`DLA_AXI_MAX_BURST),
`ifdef DLA_HAS_INT16
    .HAS_INT16(1'b1),
`else
    .HAS_INT16(1'b0),
`endif
`ifdef DLA_HAS_FP16
    .HAS_FP16(1'b1),
`else
    .HAS_FP16(1'b0),
`endif
`ifdef DLA_CDP_OUT_SATURATION
    .OUT_SAT(1'b1),
`else
    .OUT_SAT(1'b0),
`endif
`ifdef DLA_HAS_SRAM_IF
    .HAS_SRAM(1'b1)
`else
    .HAS_SRAM(1'b0)
`endif
  ) u_cdp (
    .clk, .rstn,
    .rdma_req_vld(req_vld && pend_win == BASE_CDP_RDMA[15:10]),
    .core_req_vld(req_vld && pend_win == BASE_CDP[15:10]),
    .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_cdp_rdma),
    .rd_req_valid(cdp_rd_req_valid), .rd_req_ready(cdp_rd_req_ready),
    .rd_req_addr(cdp_rd_req_addr), .rd_req_len(cdp_rd_req_len),
    .rd_dat_valid(cdp_rd_dat_valid), .rd_dat_data(cdp_rd_dat_data), .rd_dat_mask(cdp_rd_dat_mask),
    .wr_req_valid(cdp_wr_req_valid), .wr_req_ready(cdp_wr_req_ready),
    .wr_req_addr(cdp_wr_req_addr), .wr_req_len(cdp_wr_req_len),
    .wr_req_cmpl(unused_cdp_wr_req_cmpl), .wr_req_tag(cdp_wr_req_tag),
    .wr_dat_valid(cdp_wr_dat_valid), .wr_dat_ready(cdp_wr_dat_ready),
    .wr_dat_data(cdp_wr_dat_data), .wr_dat_mask(cdp_wr_dat_mask),
    .wr_cmpl(cdp_wr_cmpl), .wr_cmpl_tag(cdp_wr_cmpl_tag),
    .intr_done(cdp_done)
  );

  // DBB client CDP_IDX
  assign dbb_rd_req_valid[CDP_IDX]                 = cdp_rd_req_valid[0];
  assign cdp_rd_req_ready[0]                       = dbb_rd_req_ready[CDP_IDX];
  assign dbb_rd_req_addr[CDP_IDX*ADDR_BITS +: ADDR_BITS] = cdp_rd_req_addr;
  assign dbb_rd_req_len[CDP_IDX*LEN_BITS +: LEN_BITS]    = cdp_rd_req_len;
  assign cdp_rd_dat_valid[0]                       = dbb_rd_dat_valid[CDP_IDX];
  assign cdp_rd_dat_data[0 +: DATA_BITS]           = dbb_rd_dat_data;
  assign cdp_rd_dat_mask[0 +: APB]                 = dbb_rd_dat_mask;
  assign dbb_wr_req_valid[CDP_IDX]                 = cdp_wr_req_valid[0];
  assign cdp_wr_req_ready[0]                       = dbb_wr_req_ready[CDP_IDX];
  assign dbb_wr_req_addr[CDP_IDX*ADDR_BITS +: ADDR_BITS] = cdp_wr_req_addr;
  assign dbb_wr_req_len[CDP_IDX*LEN_BITS +: LEN_BITS]    = cdp_wr_req_len;
  assign dbb_wr_req_tag[CDP_IDX*TAG_BITS +: TAG_BITS]    = cdp_wr_req_tag;
  assign dbb_wr_dat_valid[CDP_IDX]                 = cdp_wr_dat_valid[0];
  assign cdp_wr_dat_ready[0]                       = dbb_wr_dat_ready[CDP_IDX];
  assign dbb_wr_dat_data[CDP_IDX*DATA_BITS +: DATA_BITS] = cdp_wr_dat_data;
  assign dbb_wr_dat_mask[CDP_IDX*APB +: APB]       = cdp_wr_dat_mask;
  assign cdp_wr_cmpl[0]                            = dbb_wr_cmpl[CDP_IDX];
  assign cdp_wr_cmpl_tag[0 +: TAG_BITS]            = dbb_wr_cmpl_tag;
`ifdef DLA_HAS_SRAM_IF
  // SRAM client CDP_IDX
  assign sram_rd_req_valid[CDP_IDX]                = cdp_rd_req_valid[1];
  assign cdp_rd_req_ready[1]                       = sram_rd_req_ready[CDP_IDX];
  assign sram_rd_req_addr[CDP_IDX*ADDR_BITS +: ADDR_BITS] = cdp_rd_req_addr;
  assign sram_rd_req_len[CDP_IDX*LEN_BITS +: LEN_BITS]    = cdp_rd_req_len;
  assign cdp_rd_dat_valid[1]                       = sram_rd_dat_valid[CDP_IDX];
  assign cdp_rd_dat_data[DATA_BITS +: DATA_BITS]   = sram_rd_dat_data;
  assign cdp_rd_dat_mask[APB +: APB]               = sram_rd_dat_mask;
  assign sram_wr_req_valid[CDP_IDX]                = cdp_wr_req_valid[1];
  assign cdp_wr_req_ready[1]                       = sram_wr_req_ready[CDP_IDX];
  assign sram_wr_req_addr[CDP_IDX*ADDR_BITS +: ADDR_BITS] = cdp_wr_req_addr;
  assign sram_wr_req_len[CDP_IDX*LEN_BITS +: LEN_BITS]    = cdp_wr_req_len;
  assign sram_wr_req_tag[CDP_IDX*TAG_BITS +: TAG_BITS]    = cdp_wr_req_tag;
  assign sram_wr_dat_valid[CDP_IDX]                = cdp_wr_dat_valid[1];
  assign cdp_wr_dat_ready[1]                       = sram_wr_dat_ready[CDP_IDX];
  assign sram_wr_dat_data[CDP_IDX*DATA_BITS +: DATA_BITS] = cdp_wr_dat_data;
  assign sram_wr_dat_mask[CDP_IDX*APB +: APB]      = cdp_wr_dat_mask;
  assign cdp_wr_cmpl[1]                            = sram_wr_cmpl[CDP_IDX];
  assign cdp_wr_cmpl_tag[TAG_BITS +: TAG_BITS]     = sram_wr_cmpl_tag;
`else
  // No SRAM interface: CDP maps CV-SRAM to DBB and never uses its port 1.
  wire unused_cdp_port1 = &{1'b0, cdp_rd_req_valid[1], cdp_wr_req_valid[1], cdp_wr_dat_valid[1]};
  assign cdp_rd_req_ready[1]                       = 1'b0;
  assign cdp_rd_dat_valid[1]                       = 1'b0;
  assign cdp_rd_dat_data[DATA_BITS +: DATA_BITS]   = '0;
  assign cdp_rd_dat_mask[APB +: APB]               = '0;
  assign cdp_wr_req_ready[1]                       = 1'b0;
  assign cdp_wr_dat_ready[1]                       = 1'b0;
  assign cdp_wr_cmpl[1]                            = 1'b0;
  assign cdp_wr_cmpl_tag[TAG_BITS +: TAG_BITS]     = '0;
`endif
`else
  assign cdp_done    = '0;
  assign rd_cdp_rdma = '0;
  // CDP client 6 unused in this configuration.
  assign dbb_rd_req_valid[6] = 1'b0;
  assign dbb_rd_req_addr[6*ADDR_BITS +: ADDR_BITS] = '0;
  assign dbb_rd_req_len[6*LEN_BITS +: LEN_BITS]    = '0;
  assign dbb_wr_req_valid[6] = 1'b0;
  assign dbb_wr_req_addr[6*ADDR_BITS +: ADDR_BITS] = '0;
  assign dbb_wr_req_len[6*LEN_BITS +: LEN_BITS]    = '0;
  assign dbb_wr_req_tag[6*TAG_BITS +: TAG_BITS]    = '0;
  assign dbb_wr_dat_valid[6] = 1'b0;
  assign dbb_wr_dat_data[6*DATA_BITS +: DATA_BITS] = '0;
  assign dbb_wr_dat_mask[6*APB +: APB]             = '0;
`endif

  // ---- AXI4 masters --------------------------------------------------------------------------
  dla_axi_master #(
    .N_RD(DBB_CLIENTS), .N_WR(DBB_CLIENTS),
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(`DLA_AXI_MAX_BURST), .MAX_RD_OUT(`DLA_AXI_MAX_RD_OUTSTANDING),
    .MAX_WR_OUT(MAX_WR_OUT), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS)
  ) u_dbb_axi (
    .clk, .rstn,
    .rd_req_valid(dbb_rd_req_valid), .rd_req_ready(dbb_rd_req_ready),
    .rd_req_addr(dbb_rd_req_addr), .rd_req_len(dbb_rd_req_len), .rd_req_tag(dbb_rd_req_tag),
    .rd_dat_valid(dbb_rd_dat_valid), .rd_dat_data(dbb_rd_dat_data),
    .rd_dat_mask(dbb_rd_dat_mask), .rd_dat_tag(dbb_rd_dat_tag), .rd_dat_last(unused_dbb_rd_dat_last),
    .wr_req_valid(dbb_wr_req_valid), .wr_req_ready(dbb_wr_req_ready),
    .wr_req_addr(dbb_wr_req_addr), .wr_req_len(dbb_wr_req_len),
    .wr_req_cmpl(dbb_wr_req_cmpl), .wr_req_tag(dbb_wr_req_tag),
    .wr_dat_valid(dbb_wr_dat_valid), .wr_dat_ready(dbb_wr_dat_ready),
    .wr_dat_data(dbb_wr_dat_data), .wr_dat_mask(dbb_wr_dat_mask),
    .wr_cmpl(dbb_wr_cmpl), .wr_cmpl_tag(dbb_wr_cmpl_tag),
    .ar_valid(nvdla_core2dbb_ar_arvalid), .ar_ready(nvdla_core2dbb_ar_arready),
    .ar_id(nvdla_core2dbb_ar_arid),
    .ar_len(nvdla_core2dbb_ar_arlen), .ar_addr(nvdla_core2dbb_ar_araddr),
    .r_valid(nvdla_core2dbb_r_rvalid), .r_ready(nvdla_core2dbb_r_rready), .r_id(nvdla_core2dbb_r_rid),
    .r_last(nvdla_core2dbb_r_rlast), .r_data(nvdla_core2dbb_r_rdata),
    .aw_valid(nvdla_core2dbb_aw_awvalid), .aw_ready(nvdla_core2dbb_aw_awready),
    .aw_id(nvdla_core2dbb_aw_awid),
    .aw_len(nvdla_core2dbb_aw_awlen), .aw_addr(nvdla_core2dbb_aw_awaddr),
    .w_valid(nvdla_core2dbb_w_wvalid), .w_ready(nvdla_core2dbb_w_wready), .w_data(nvdla_core2dbb_w_wdata),
    .w_strb(nvdla_core2dbb_w_wstrb), .w_last(nvdla_core2dbb_w_wlast),
    .b_valid(nvdla_core2dbb_b_bvalid), .b_ready(nvdla_core2dbb_b_bready), .b_id(nvdla_core2dbb_b_bid),
    .idle(unused_dbb_idle)
  );
`ifdef DLA_HAS_SRAM_IF
  dla_axi_master #(
    .N_RD(SRAM_CLIENTS), .N_WR(SRAM_CLIENTS),
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(`DLA_AXI_MAX_BURST), .MAX_RD_OUT(`DLA_AXI_MAX_RD_OUTSTANDING),
    .MAX_WR_OUT(MAX_WR_OUT), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS)
  ) u_sram_axi (
    .clk, .rstn,
    .rd_req_valid(sram_rd_req_valid), .rd_req_ready(sram_rd_req_ready),
    .rd_req_addr(sram_rd_req_addr), .rd_req_len(sram_rd_req_len), .rd_req_tag(sram_rd_req_tag),
    .rd_dat_valid(sram_rd_dat_valid), .rd_dat_data(sram_rd_dat_data),
    .rd_dat_mask(sram_rd_dat_mask), .rd_dat_tag(unused_sram_rd_dat_tag), .rd_dat_last(unused_sram_rd_dat_last),
    .wr_req_valid(sram_wr_req_valid), .wr_req_ready(sram_wr_req_ready),
    .wr_req_addr(sram_wr_req_addr), .wr_req_len(sram_wr_req_len),
    .wr_req_cmpl(sram_wr_req_cmpl), .wr_req_tag(sram_wr_req_tag),
    .wr_dat_valid(sram_wr_dat_valid), .wr_dat_ready(sram_wr_dat_ready),
    .wr_dat_data(sram_wr_dat_data), .wr_dat_mask(sram_wr_dat_mask),
    .wr_cmpl(sram_wr_cmpl), .wr_cmpl_tag(sram_wr_cmpl_tag),
    .ar_valid(nvdla_core2cvsram_ar_arvalid), .ar_ready(nvdla_core2cvsram_ar_arready),
    .ar_id(nvdla_core2cvsram_ar_arid),
    .ar_len(nvdla_core2cvsram_ar_arlen), .ar_addr(nvdla_core2cvsram_ar_araddr),
    .r_valid(nvdla_core2cvsram_r_rvalid), .r_ready(nvdla_core2cvsram_r_rready), .r_id(nvdla_core2cvsram_r_rid),
    .r_last(nvdla_core2cvsram_r_rlast), .r_data(nvdla_core2cvsram_r_rdata),
    .aw_valid(nvdla_core2cvsram_aw_awvalid), .aw_ready(nvdla_core2cvsram_aw_awready),
    .aw_id(nvdla_core2cvsram_aw_awid),
    .aw_len(nvdla_core2cvsram_aw_awlen), .aw_addr(nvdla_core2cvsram_aw_awaddr),
    .w_valid(nvdla_core2cvsram_w_wvalid), .w_ready(nvdla_core2cvsram_w_wready), .w_data(nvdla_core2cvsram_w_wdata),
    .w_strb(nvdla_core2cvsram_w_wstrb), .w_last(nvdla_core2cvsram_w_wlast),
    .b_valid(nvdla_core2cvsram_b_bvalid), .b_ready(nvdla_core2cvsram_b_bready), .b_id(nvdla_core2cvsram_b_bid),
    .idle(unused_sram_idle)
  );
`endif
endmodule
