// NV_nvdla: top level with NVDLA's port names.
//
// Everything runs on dla_core_clk (drive dla_csb_clk with the same clock). The units present
// and their CSB windows come from the generated dla_cfg.svh of the configuration.
//
//   CSB --> dla_csb_slave --> window decode --> GLB / CFGROM / BDMA / SDP / PDP / CDP / RUBIK /
//                                               register shells
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
  logic [1:0]  rbk_done;
  logic [1:0]  cdma_dat_done, cdma_wt_done, cacc_done;

  // Read data of every unit window; a block drives 0 unless it performs a read.
  logic [31:0] rd_glb, rd_cfgrom, rd_bdma, rd_shells;
  logic        bdma_hold;

  assign rd_data    = rd_glb | rd_cfgrom | rd_bdma | rd_shells;
  assign hold       = bdma_hold;
  assign done_pulse = {10'd0, cacc_done, cdma_wt_done, cdma_dat_done,
                       6'd0, rbk_done, bdma_done, pdp_done, cdp_done, sdp_done};

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

  // ---- units without a datapath RTL: register shells (generated per configuration) ----------
  logic [31:0] rd_reg_shells;
  dla_reg_shells u_shells (
    .clk, .rstn, .req_vld, .req_wr(pend_wr), .pend_win, .req_word(pend_word), .req_wdat(pend_wdat),
    .rd_data(rd_reg_shells)
  );
`ifndef DLA_CONV_RTL
  wire  [31:0] rd_conv = 32'd0;
`else
  // CDMA, CSC, CMAC_A, CMAC_B, CACC: the convolution pipeline (dla_conv, below the DMA ports)
  logic [31:0] rd_conv;
`endif
  // SDP and SDP_RDMA: one unit (dla_sdp, below the DMA ports), its read data in rd_sdp; PDP_RDMA
  // and PDP: dla_pdp, in rd_pdp_rdma; CDP_RDMA and CDP: dla_cdp, in rd_cdp_rdma; RBK: dla_rubik.
  logic [31:0] rd_sdp, rd_pdp_rdma, rd_cdp_rdma, rd_rbk;
  assign rd_shells = rd_reg_shells | rd_conv | rd_sdp | rd_pdp_rdma | rd_cdp_rdma | rd_rbk;

  // ---- DMA clients ------------------------------------------------------------------------------
  // Client i uses AXI ID i on both memory ports (docs/rtl.md, "Clients of the two ports"). Every
  // client has a slice [i] of the dbb_* and sram_* buses; a unit drives the slices of its
  // clients (its instance below), and the client table says what it drives, so that the loop
  // `g_client` can tie off the rest and copy one-payload clients to the SRAM port:
  //   ON      the unit exists in this configuration (nothing driven otherwise)
  //   WR      the client writes (its write slices driven; otherwise tied off)
  //   SRAM    the client uses the SRAM port too (only on configurations with DLA_HAS_SRAM_IF)
  //   RD_ONE  one read payload for both ports (valid per port): the unit drives the DBB slice
  //   WR_ONE  same for the write payload (address, length, tag, data, mask)
  //   RD_TAG  the unit drives its read request tags (else 0; one-payload clients: both ports)
  //   WR_TAG  the unit drives its write request tags (else 0)
  // A new unit: raise N_CLIENTS, add its row(s) to CL, connect its instance to its slices.
  localparam int F_ON = 0, F_WR = 1, F_SRAM = 2, F_RD_ONE = 3, F_WR_ONE = 4, F_RD_TAG = 5,
                 F_WR_TAG = 6, NF = 7;
  /* verilator lint_off UNUSEDPARAM */   // rows and indices of units a configuration lacks
  //                                     WR_TAG RD_TAG WR_ONE RD_ONE SRAM WR ON
  localparam logic [NF-1:0] C_BDMA   = 7'b1_____0_____1_____1_____1___1__1;
  localparam logic [NF-1:0] C_SDP_WR = 7'b0_____0_____1_____0_____1___1__1;  // main input, write
  localparam logic [NF-1:0] C_SDP_RD = 7'b0_____0_____0_____0_____1___0__1;  // BS, BN, EW
  localparam logic [NF-1:0] C_PDP    = 7'b1_____0_____1_____1_____1___1__1;
  localparam logic [NF-1:0] C_CDP    = 7'b1_____0_____1_____1_____1___1__1;
  localparam logic [NF-1:0] C_CONV   = 7'b0_____1_____0_____1_____1___0__1;  // data, weights
  localparam logic [NF-1:0] C_RBK    = 7'b1_____0_____1_____1_____1___1__1;
  localparam logic [NF-1:0] C_NONE    = 7'b0;
`ifdef DLA_HAS_BDMA
  localparam logic [NF-1:0] CL_BDMA = C_BDMA;
`else
  localparam logic [NF-1:0] CL_BDMA = C_NONE;
`endif
`ifdef DLA_HAS_SDP
  localparam logic [4*NF-1:0] CL_SDP = {C_SDP_RD, C_SDP_RD, C_SDP_RD, C_SDP_WR};
`else
  localparam logic [4*NF-1:0] CL_SDP = '0;
`endif
`ifdef DLA_HAS_PDP
  localparam logic [NF-1:0] CL_PDP = C_PDP;
`else
  localparam logic [NF-1:0] CL_PDP = C_NONE;
`endif
`ifdef DLA_HAS_CDP
  localparam logic [NF-1:0] CL_CDP = C_CDP;
`else
  localparam logic [NF-1:0] CL_CDP = C_NONE;
`endif
  localparam int I_BDMA = 0, I_SDP = 1, I_PDP = 5, I_CDP = 6, I_CONV = 7;
  /* verilator lint_on UNUSEDPARAM */
`ifdef DLA_CONV_RTL
  localparam int N_BASE = 9;
  localparam logic [N_BASE*NF-1:0] CL_BASE = {C_CONV, C_CONV, CL_CDP, CL_PDP, CL_SDP, CL_BDMA};
`else
  localparam int N_BASE = 7;
  localparam logic [N_BASE*NF-1:0] CL_BASE = {CL_CDP, CL_PDP, CL_SDP, CL_BDMA};
`endif
  // RUBIK, when the configuration has it, is the last client (7, or 9 after the conv clients).
`ifdef DLA_HAS_RBK
  localparam int N_CLIENTS = N_BASE + 1;
  localparam logic [N_CLIENTS*NF-1:0] CL = {C_RBK, CL_BASE};
`else
  localparam int N_CLIENTS = N_BASE;
  localparam logic [N_CLIENTS*NF-1:0] CL = CL_BASE;
`endif
  /* verilator lint_off UNUSEDPARAM */
  localparam int I_RBK = N_BASE;
  /* verilator lint_on UNUSEDPARAM */
  // The client slots each AXI master serves: a slot without a reader or writer on that port gets
  // no burst splitter, no in-flight FIFO and no arbiter input there.
  // (evaluated at elaboration only: its lines are no line-coverage points)
  /* verilator coverage_off */
  function automatic logic [N_CLIENTS-1:0] clients_with(input logic [N_CLIENTS*NF-1:0] table_,
                                                        input logic [NF-1:0] flags);
    for (int i = 0; i < N_CLIENTS; i++) clients_with[i] = (table_[i*NF +: NF] & flags) == flags;
  endfunction
  /* verilator coverage_on */
  localparam logic [NF-1:0] M_ON = NF'(1) << F_ON, M_WR = NF'(1) << F_WR;
  /* verilator lint_off UNUSEDPARAM */   // without an SRAM port
  localparam logic [NF-1:0] M_SRAM = NF'(1) << F_SRAM;
  /* verilator lint_on UNUSEDPARAM */
  localparam logic [N_CLIENTS-1:0] DBB_RD_USED = clients_with(CL, M_ON);
  localparam logic [N_CLIENTS-1:0] DBB_WR_USED = clients_with(CL, M_ON | M_WR);
`ifdef DLA_HAS_SRAM_IF
  localparam bit HAS_SRAM = 1'b1;
`else
  localparam bit HAS_SRAM = 1'b0;
`endif

  logic [N_CLIENTS-1:0]           dbb_rd_req_valid, dbb_rd_req_ready, dbb_rd_dat_valid;
  logic [N_CLIENTS*ADDR_BITS-1:0] dbb_rd_req_addr;
  logic [N_CLIENTS*LEN_BITS-1:0]  dbb_rd_req_len;
  logic [N_CLIENTS*TAG_BITS-1:0]  dbb_rd_req_tag;
  logic [DATA_BITS-1:0]           dbb_rd_dat_data;
  logic [APB-1:0]                 dbb_rd_dat_mask;
  logic [TAG_BITS-1:0]            dbb_rd_dat_tag;
  logic                           unused_dbb_rd_dat_last;
  logic [N_CLIENTS-1:0]           dbb_wr_req_valid, dbb_wr_req_ready, dbb_wr_req_cmpl;
  logic [N_CLIENTS*ADDR_BITS-1:0] dbb_wr_req_addr;
  logic [N_CLIENTS*LEN_BITS-1:0]  dbb_wr_req_len;
  logic [N_CLIENTS*TAG_BITS-1:0]  dbb_wr_req_tag;
  logic [N_CLIENTS-1:0]           dbb_wr_dat_valid, dbb_wr_dat_ready, dbb_wr_cmpl;
  logic [N_CLIENTS*DATA_BITS-1:0] dbb_wr_dat_data;
  logic [N_CLIENTS*APB-1:0]       dbb_wr_dat_mask;
  logic [TAG_BITS-1:0]            dbb_wr_cmpl_tag;
  logic                           unused_dbb_idle;
  // SRAM port buses: on configurations without the SRAM interface they exist, tied off
  // (ready, returned data and completions 0), so that every unit connects the same way.
  logic [N_CLIENTS-1:0]           sram_rd_req_valid, sram_rd_req_ready, sram_rd_dat_valid;
  logic [N_CLIENTS*ADDR_BITS-1:0] sram_rd_req_addr;
  logic [N_CLIENTS*LEN_BITS-1:0]  sram_rd_req_len;
  logic [N_CLIENTS*TAG_BITS-1:0]  sram_rd_req_tag;
  logic [DATA_BITS-1:0]           sram_rd_dat_data;
  logic [APB-1:0]                 sram_rd_dat_mask;
  logic [TAG_BITS-1:0]            sram_rd_dat_tag;
  logic [N_CLIENTS-1:0]           sram_wr_req_valid, sram_wr_req_ready, sram_wr_req_cmpl;
  logic [N_CLIENTS*ADDR_BITS-1:0] sram_wr_req_addr;
  logic [N_CLIENTS*LEN_BITS-1:0]  sram_wr_req_len;
  logic [N_CLIENTS*TAG_BITS-1:0]  sram_wr_req_tag;
  logic [N_CLIENTS-1:0]           sram_wr_dat_valid, sram_wr_dat_ready, sram_wr_cmpl;
  logic [N_CLIENTS*DATA_BITS-1:0] sram_wr_dat_data;
  logic [N_CLIENTS*APB-1:0]       sram_wr_dat_mask;
  logic [TAG_BITS-1:0]            sram_wr_cmpl_tag;
  assign dbb_wr_req_cmpl  = '1;
  assign sram_wr_req_cmpl = '1;

  for (genvar i = 0; i < N_CLIENTS; i++) begin : g_client
    localparam logic [NF-1:0] C = CL[i*NF +: NF];
    localparam bit ON = C[F_ON], WR = ON && C[F_WR], SRAM = ON && HAS_SRAM && C[F_SRAM];
    if (!ON) begin : g_no_rd
      assign dbb_rd_req_valid[i]                  = 1'b0;
      assign dbb_rd_req_addr[i*ADDR_BITS +: ADDR_BITS] = '0;
      assign dbb_rd_req_len[i*LEN_BITS +: LEN_BITS]    = '0;
      wire unused_rd = &{1'b0, dbb_rd_req_ready[i], dbb_rd_dat_valid[i]};
    end
    if (!(ON && C[F_RD_TAG])) begin : g_no_rd_tag
      assign dbb_rd_req_tag[i*TAG_BITS +: TAG_BITS] = '0;
    end
    if (!WR) begin : g_no_wr
      assign dbb_wr_req_valid[i]                       = 1'b0;
      assign dbb_wr_req_addr[i*ADDR_BITS +: ADDR_BITS] = '0;
      assign dbb_wr_req_len[i*LEN_BITS +: LEN_BITS]    = '0;
      assign dbb_wr_dat_valid[i]                       = 1'b0;
      assign dbb_wr_dat_data[i*DATA_BITS +: DATA_BITS] = '0;
      assign dbb_wr_dat_mask[i*APB +: APB]             = '0;
      wire unused_wr = &{1'b0, dbb_wr_req_ready[i], dbb_wr_dat_ready[i], dbb_wr_cmpl[i]};
    end
    if (!(WR && C[F_WR_TAG])) begin : g_no_wr_tag
      assign dbb_wr_req_tag[i*TAG_BITS +: TAG_BITS] = '0;
    end
    // SRAM port: requests of clients that do not use it are 0; one-payload clients copy the
    // DBB payload (the unit drives only the valid bits of the SRAM slice).
    if (!SRAM) begin : g_no_sram_rd
      if (!ON || !C[F_SRAM]) begin : g_valid
        assign sram_rd_req_valid[i] = 1'b0;
      end
      if (!ON || !C[F_SRAM] || C[F_RD_ONE]) begin : g_payload
        assign sram_rd_req_addr[i*ADDR_BITS +: ADDR_BITS] = '0;
        assign sram_rd_req_len[i*LEN_BITS +: LEN_BITS]    = '0;
      end
      wire unused_sram_rd = &{1'b0, sram_rd_req_ready[i], sram_rd_dat_valid[i]};
    end else if (C[F_RD_ONE]) begin : g_sram_rd_one
      assign sram_rd_req_addr[i*ADDR_BITS +: ADDR_BITS] = dbb_rd_req_addr[i*ADDR_BITS +: ADDR_BITS];
      assign sram_rd_req_len[i*LEN_BITS +: LEN_BITS]    = dbb_rd_req_len[i*LEN_BITS +: LEN_BITS];
    end
    if (SRAM && C[F_RD_ONE]) begin : g_sram_rd_tag
      assign sram_rd_req_tag[i*TAG_BITS +: TAG_BITS] = dbb_rd_req_tag[i*TAG_BITS +: TAG_BITS];
    end else begin : g_no_sram_rd_tag
      assign sram_rd_req_tag[i*TAG_BITS +: TAG_BITS] = '0;
    end
    if (!(SRAM && WR)) begin : g_no_sram_wr
      if (!(ON && C[F_SRAM] && C[F_WR])) begin : g_valid
        assign sram_wr_req_valid[i] = 1'b0;
        assign sram_wr_dat_valid[i] = 1'b0;
      end
      if (!(ON && C[F_SRAM] && C[F_WR]) || C[F_WR_ONE]) begin : g_payload
        assign sram_wr_req_addr[i*ADDR_BITS +: ADDR_BITS] = '0;
        assign sram_wr_req_len[i*LEN_BITS +: LEN_BITS]    = '0;
        assign sram_wr_req_tag[i*TAG_BITS +: TAG_BITS]    = '0;
        assign sram_wr_dat_data[i*DATA_BITS +: DATA_BITS] = '0;
        assign sram_wr_dat_mask[i*APB +: APB]             = '0;
      end
      wire unused_sram_wr = &{1'b0, sram_wr_req_ready[i], sram_wr_dat_ready[i], sram_wr_cmpl[i]};
    end else if (C[F_WR_ONE]) begin : g_sram_wr_one
      assign sram_wr_req_addr[i*ADDR_BITS +: ADDR_BITS] = dbb_wr_req_addr[i*ADDR_BITS +: ADDR_BITS];
      assign sram_wr_req_len[i*LEN_BITS +: LEN_BITS]    = dbb_wr_req_len[i*LEN_BITS +: LEN_BITS];
      assign sram_wr_req_tag[i*TAG_BITS +: TAG_BITS]    = dbb_wr_req_tag[i*TAG_BITS +: TAG_BITS];
      assign sram_wr_dat_data[i*DATA_BITS +: DATA_BITS] = dbb_wr_dat_data[i*DATA_BITS +: DATA_BITS];
      assign sram_wr_dat_mask[i*APB +: APB]             = dbb_wr_dat_mask[i*APB +: APB];
    end
  end

  // ---- BDMA (client I_BDMA) -------------------------------------------------------------------
`ifdef DLA_HAS_BDMA
  localparam logic [15:0] BASE_BDMA = `DLA_BASE_BDMA;
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
    .rd_req_valid({sram_rd_req_valid[I_BDMA], dbb_rd_req_valid[I_BDMA]}),
    .rd_req_ready({sram_rd_req_ready[I_BDMA], dbb_rd_req_ready[I_BDMA]}),
    .rd_req_addr(dbb_rd_req_addr[I_BDMA*ADDR_BITS +: ADDR_BITS]), .rd_req_len(dbb_rd_req_len[I_BDMA*LEN_BITS +: LEN_BITS]),
    .rd_dat_valid({sram_rd_dat_valid[I_BDMA], dbb_rd_dat_valid[I_BDMA]}),
    .rd_dat_data({sram_rd_dat_data, dbb_rd_dat_data}), .rd_dat_mask({sram_rd_dat_mask, dbb_rd_dat_mask}),
    .wr_req_valid({sram_wr_req_valid[I_BDMA], dbb_wr_req_valid[I_BDMA]}),
    .wr_req_ready({sram_wr_req_ready[I_BDMA], dbb_wr_req_ready[I_BDMA]}),
    .wr_req_addr(dbb_wr_req_addr[I_BDMA*ADDR_BITS +: ADDR_BITS]), .wr_req_len(dbb_wr_req_len[I_BDMA*LEN_BITS +: LEN_BITS]),
    .wr_req_tag(dbb_wr_req_tag[I_BDMA*TAG_BITS +: TAG_BITS]),
    .wr_dat_valid({sram_wr_dat_valid[I_BDMA], dbb_wr_dat_valid[I_BDMA]}),
    .wr_dat_ready({sram_wr_dat_ready[I_BDMA], dbb_wr_dat_ready[I_BDMA]}),
    .wr_dat_data(dbb_wr_dat_data[I_BDMA*DATA_BITS +: DATA_BITS]), .wr_dat_mask(dbb_wr_dat_mask[I_BDMA*APB +: APB]),
    .wr_cmpl({sram_wr_cmpl[I_BDMA], dbb_wr_cmpl[I_BDMA]}), .wr_cmpl_tag({sram_wr_cmpl_tag, dbb_wr_cmpl_tag})
  );
`else
  assign rd_bdma   = '0;
  assign bdma_hold = 1'b0;
  assign bdma_done = '0;
  wire unused_pend_vld = pend_vld;
`endif

  // ---- convolution pipeline (DBB clients I_CONV, I_CONV+1: reads only) ---------------------------
  logic                        conv_fly_valid, conv_fly_ready;
  logic [`DLA_SDP_THROUGHPUT*32-1:0] conv_fly_data;
`ifdef DLA_CONV_RTL
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
    .HAS_SRAM(HAS_SRAM), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
`ifdef DLA_CONV_COMPRESSION
    .HAS_WMB(1'b1),
`else
    .HAS_WMB(1'b0),
`endif
`ifdef DLA_CONV_BATCHING
    .HAS_BATCH(1'b1),
`else
    .HAS_BATCH(1'b0),
`endif
`ifdef DLA_CONV_WINOGRAD
    .HAS_WINO(1'b1),
`else
    .HAS_WINO(1'b0),
`endif
`ifdef DLA_HAS_FP16
    .HAS_FP(1'b1)
`else
    .HAS_FP(1'b0)
`endif
  ) u_conv (
    .clk, .rstn,
    .cdma_req_vld(req_vld && pend_win == BASE_CDMA[15:10]),
    .csc_req_vld(req_vld && pend_win == BASE_CSC[15:10]),
    .cmac_a_req_vld(req_vld && pend_win == BASE_CMAC_A[15:10]),
    .cmac_b_req_vld(req_vld && pend_win == BASE_CMAC_B[15:10]),
    .cacc_req_vld(req_vld && pend_win == BASE_CACC[15:10]),
    .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_conv),
    .cdma_dat_done, .cdma_wt_done, .cacc_done,
    .rd_req_valid({sram_rd_req_valid[I_CONV +: 2], dbb_rd_req_valid[I_CONV +: 2]}),
    .rd_req_ready({sram_rd_req_ready[I_CONV +: 2], dbb_rd_req_ready[I_CONV +: 2]}),
    .rd_req_addr(dbb_rd_req_addr[I_CONV*ADDR_BITS +: 2*ADDR_BITS]),
    .rd_req_len(dbb_rd_req_len[I_CONV*LEN_BITS +: 2*LEN_BITS]),
    .rd_req_tag(dbb_rd_req_tag[I_CONV*TAG_BITS +: 2*TAG_BITS]),
    .rd_dat_valid({sram_rd_dat_valid[I_CONV +: 2], dbb_rd_dat_valid[I_CONV +: 2]}),
    .rd_dat_data({sram_rd_dat_data, dbb_rd_dat_data}), .rd_dat_mask({sram_rd_dat_mask, dbb_rd_dat_mask}),
    .rd_dat_tag({sram_rd_dat_tag, dbb_rd_dat_tag}),
    .fly_valid(conv_fly_valid), .fly_ready(conv_fly_ready), .fly_data(conv_fly_data)
  );
`else
  assign cdma_dat_done  = '0;
  assign cdma_wt_done   = '0;
  assign cacc_done      = '0;
  assign conv_fly_valid = 1'b0;
  assign conv_fly_data  = '0;
  wire unused_conv = &{1'b0, conv_fly_ready, dbb_rd_dat_tag, sram_rd_dat_tag};
`endif

  // ---- SDP -> PDP on-flying stream (SDP OUTPUT_DST = PDP, PDP FLYING_MODE = on-flying) --------
  // One SDP output atom per handshake, memory layout, in SDP's output order (docs/sdp-rtl.md).
  logic                    sdp2pdp_valid, sdp2pdp_ready;
  logic [ATOM_BYTES*8-1:0] sdp2pdp_data;

  // ---- SDP + SDP_RDMA (clients I_SDP..I_SDP+3: reads main/BS/BN/EW; write on I_SDP) ---------
`ifdef DLA_HAS_SDP
  localparam logic [15:0] BASE_SDP = `DLA_BASE_SDP;
  localparam logic [15:0] BASE_SDP_RDMA = `DLA_BASE_SDP_RDMA;
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
`ifdef DLA_CONV_BATCHING
    .HAS_BATCH(1'b1),
`else
    .HAS_BATCH(1'b0),
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
    .dbb_rd_req_valid(dbb_rd_req_valid[I_SDP +: 4]), .dbb_rd_req_ready(dbb_rd_req_ready[I_SDP +: 4]),
    .dbb_rd_req_addr(dbb_rd_req_addr[I_SDP*ADDR_BITS +: 4*ADDR_BITS]),
    .dbb_rd_req_len(dbb_rd_req_len[I_SDP*LEN_BITS +: 4*LEN_BITS]),
    .dbb_rd_dat_valid(dbb_rd_dat_valid[I_SDP +: 4]), .dbb_rd_dat_data, .dbb_rd_dat_mask,
    .sram_rd_req_valid(sram_rd_req_valid[I_SDP +: 4]), .sram_rd_req_ready(sram_rd_req_ready[I_SDP +: 4]),
    .sram_rd_req_addr(sram_rd_req_addr[I_SDP*ADDR_BITS +: 4*ADDR_BITS]),
    .sram_rd_req_len(sram_rd_req_len[I_SDP*LEN_BITS +: 4*LEN_BITS]),
    .sram_rd_dat_valid(sram_rd_dat_valid[I_SDP +: 4]), .sram_rd_dat_data, .sram_rd_dat_mask,
    .wr_req_valid({sram_wr_req_valid[I_SDP], dbb_wr_req_valid[I_SDP]}),
    .wr_req_ready({sram_wr_req_ready[I_SDP], dbb_wr_req_ready[I_SDP]}),
    .wr_req_addr(dbb_wr_req_addr[I_SDP*ADDR_BITS +: ADDR_BITS]), .wr_req_len(dbb_wr_req_len[I_SDP*LEN_BITS +: LEN_BITS]),
    .wr_dat_valid({sram_wr_dat_valid[I_SDP], dbb_wr_dat_valid[I_SDP]}),
    .wr_dat_ready({sram_wr_dat_ready[I_SDP], dbb_wr_dat_ready[I_SDP]}),
    .wr_dat_data(dbb_wr_dat_data[I_SDP*DATA_BITS +: DATA_BITS]), .wr_dat_mask(dbb_wr_dat_mask[I_SDP*APB +: APB]),
    .wr_cmpl({sram_wr_cmpl[I_SDP], dbb_wr_cmpl[I_SDP]}),
    // flying input from CACC; the SDP output feeds PDP's on-flying input
    .fly_valid(conv_fly_valid), .fly_ready(conv_fly_ready), .fly_data(conv_fly_data),
    .pdp_valid(sdp2pdp_valid), .pdp_ready(sdp2pdp_ready), .pdp_data(sdp2pdp_data)
  );
`else
  assign rd_sdp   = '0;
  assign sdp_done = '0;
  assign conv_fly_ready = 1'b0;
  assign sdp2pdp_valid = 1'b0;
  assign sdp2pdp_data  = '0;
  wire unused_sdp2pdp_ready = sdp2pdp_ready;
`endif

  // ---- PDP_RDMA + PDP (client I_PDP) ----------------------------------------------------------
`ifdef DLA_HAS_PDP
  localparam logic [15:0] BASE_PDP_RDMA = `DLA_BASE_PDP_RDMA;
  localparam logic [15:0] BASE_PDP      = `DLA_BASE_PDP;
  logic                   unused_pdp_wr_req_cmpl;
  dla_pdp #(
    .TP(`DLA_PDP_THROUGHPUT), .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS),
    .ADDR_BITS(ADDR_BITS), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
    .MAX_BURST(`DLA_AXI_MAX_BURST),
`ifdef DLA_PDP_MAX_STRIPE_COLUMNS
    .OW_MAX(`DLA_PDP_MAX_STRIPE_COLUMNS),   // the line buffer's depth in output columns
`endif
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
    .rd_req_valid({sram_rd_req_valid[I_PDP], dbb_rd_req_valid[I_PDP]}),
    .rd_req_ready({sram_rd_req_ready[I_PDP], dbb_rd_req_ready[I_PDP]}),
    .rd_req_addr(dbb_rd_req_addr[I_PDP*ADDR_BITS +: ADDR_BITS]), .rd_req_len(dbb_rd_req_len[I_PDP*LEN_BITS +: LEN_BITS]),
    .rd_dat_valid({sram_rd_dat_valid[I_PDP], dbb_rd_dat_valid[I_PDP]}),
    .rd_dat_data({sram_rd_dat_data, dbb_rd_dat_data}), .rd_dat_mask({sram_rd_dat_mask, dbb_rd_dat_mask}),
    .wr_req_valid({sram_wr_req_valid[I_PDP], dbb_wr_req_valid[I_PDP]}),
    .wr_req_ready({sram_wr_req_ready[I_PDP], dbb_wr_req_ready[I_PDP]}),
    .wr_req_addr(dbb_wr_req_addr[I_PDP*ADDR_BITS +: ADDR_BITS]), .wr_req_len(dbb_wr_req_len[I_PDP*LEN_BITS +: LEN_BITS]),
    .wr_req_tag(dbb_wr_req_tag[I_PDP*TAG_BITS +: TAG_BITS]),
    .wr_dat_valid({sram_wr_dat_valid[I_PDP], dbb_wr_dat_valid[I_PDP]}),
    .wr_dat_ready({sram_wr_dat_ready[I_PDP], dbb_wr_dat_ready[I_PDP]}),
    .wr_dat_data(dbb_wr_dat_data[I_PDP*DATA_BITS +: DATA_BITS]), .wr_dat_mask(dbb_wr_dat_mask[I_PDP*APB +: APB]),
    .wr_cmpl({sram_wr_cmpl[I_PDP], dbb_wr_cmpl[I_PDP]}), .wr_cmpl_tag({sram_wr_cmpl_tag, dbb_wr_cmpl_tag}),
    .wr_req_cmpl(unused_pdp_wr_req_cmpl),
    .intr_done(pdp_done)
  );
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

  // ---- CDP_RDMA + CDP (client I_CDP) ----------------------------------------------------------
`ifdef DLA_HAS_CDP
  localparam logic [15:0] BASE_CDP_RDMA = `DLA_BASE_CDP_RDMA;
  localparam logic [15:0] BASE_CDP      = `DLA_BASE_CDP;
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
    .rd_req_valid({sram_rd_req_valid[I_CDP], dbb_rd_req_valid[I_CDP]}),
    .rd_req_ready({sram_rd_req_ready[I_CDP], dbb_rd_req_ready[I_CDP]}),
    .rd_req_addr(dbb_rd_req_addr[I_CDP*ADDR_BITS +: ADDR_BITS]), .rd_req_len(dbb_rd_req_len[I_CDP*LEN_BITS +: LEN_BITS]),
    .rd_dat_valid({sram_rd_dat_valid[I_CDP], dbb_rd_dat_valid[I_CDP]}),
    .rd_dat_data({sram_rd_dat_data, dbb_rd_dat_data}), .rd_dat_mask({sram_rd_dat_mask, dbb_rd_dat_mask}),
    .wr_req_valid({sram_wr_req_valid[I_CDP], dbb_wr_req_valid[I_CDP]}),
    .wr_req_ready({sram_wr_req_ready[I_CDP], dbb_wr_req_ready[I_CDP]}),
    .wr_req_addr(dbb_wr_req_addr[I_CDP*ADDR_BITS +: ADDR_BITS]), .wr_req_len(dbb_wr_req_len[I_CDP*LEN_BITS +: LEN_BITS]),
    .wr_req_tag(dbb_wr_req_tag[I_CDP*TAG_BITS +: TAG_BITS]),
    .wr_dat_valid({sram_wr_dat_valid[I_CDP], dbb_wr_dat_valid[I_CDP]}),
    .wr_dat_ready({sram_wr_dat_ready[I_CDP], dbb_wr_dat_ready[I_CDP]}),
    .wr_dat_data(dbb_wr_dat_data[I_CDP*DATA_BITS +: DATA_BITS]), .wr_dat_mask(dbb_wr_dat_mask[I_CDP*APB +: APB]),
    .wr_cmpl({sram_wr_cmpl[I_CDP], dbb_wr_cmpl[I_CDP]}), .wr_cmpl_tag({sram_wr_cmpl_tag, dbb_wr_cmpl_tag}),
    .wr_req_cmpl(unused_cdp_wr_req_cmpl),
    .intr_done(cdp_done)
  );
`else
  assign cdp_done    = '0;
  assign rd_cdp_rdma = '0;
`endif

  // ---- RUBIK (client I_RBK) -----------------------------------------------------------------
`ifdef DLA_HAS_RBK
  localparam logic [15:0] BASE_RBK = `DLA_BASE_RBK;
  dla_rubik #(
    .ATOM_BYTES(ATOM_BYTES), .DATA_BITS(DATA_BITS), .ADDR_BITS(ADDR_BITS), .LEN_BITS(LEN_BITS),
    .TAG_BITS(TAG_BITS), .MAX_BURST(`DLA_AXI_MAX_BURST), .HAS_SRAM(HAS_SRAM)
  ) u_rbk (
    .clk, .rstn,
    .req_vld(req_vld && pend_win == BASE_RBK[15:10]),
    .req_wr(pend_wr), .req_word(pend_word), .req_wdat(pend_wdat), .rd_data(rd_rbk),
    .rd_req_valid({sram_rd_req_valid[I_RBK], dbb_rd_req_valid[I_RBK]}),
    .rd_req_ready({sram_rd_req_ready[I_RBK], dbb_rd_req_ready[I_RBK]}),
    .rd_req_addr(dbb_rd_req_addr[I_RBK*ADDR_BITS +: ADDR_BITS]), .rd_req_len(dbb_rd_req_len[I_RBK*LEN_BITS +: LEN_BITS]),
    .rd_dat_valid({sram_rd_dat_valid[I_RBK], dbb_rd_dat_valid[I_RBK]}),
    .rd_dat_data({sram_rd_dat_data, dbb_rd_dat_data}), .rd_dat_mask({sram_rd_dat_mask, dbb_rd_dat_mask}),
    .wr_req_valid({sram_wr_req_valid[I_RBK], dbb_wr_req_valid[I_RBK]}),
    .wr_req_ready({sram_wr_req_ready[I_RBK], dbb_wr_req_ready[I_RBK]}),
    .wr_req_addr(dbb_wr_req_addr[I_RBK*ADDR_BITS +: ADDR_BITS]), .wr_req_len(dbb_wr_req_len[I_RBK*LEN_BITS +: LEN_BITS]),
    .wr_req_tag(dbb_wr_req_tag[I_RBK*TAG_BITS +: TAG_BITS]),
    .wr_dat_valid({sram_wr_dat_valid[I_RBK], dbb_wr_dat_valid[I_RBK]}),
    .wr_dat_ready({sram_wr_dat_ready[I_RBK], dbb_wr_dat_ready[I_RBK]}),
    .wr_dat_data(dbb_wr_dat_data[I_RBK*DATA_BITS +: DATA_BITS]), .wr_dat_mask(dbb_wr_dat_mask[I_RBK*APB +: APB]),
    .wr_cmpl({sram_wr_cmpl[I_RBK], dbb_wr_cmpl[I_RBK]}), .wr_cmpl_tag({sram_wr_cmpl_tag, dbb_wr_cmpl_tag}),
    .intr_done(rbk_done)
  );
`else
  assign rbk_done = '0;
  assign rd_rbk   = '0;
`endif

  // ---- AXI4 masters --------------------------------------------------------------------------
  dla_axi_master #(
    .N_RD(N_CLIENTS), .N_WR(N_CLIENTS),
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(`DLA_AXI_MAX_BURST), .MAX_RD_OUT(`DLA_AXI_MAX_RD_OUTSTANDING),
    .MAX_WR_OUT(MAX_WR_OUT), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
    .RD_USED(DBB_RD_USED), .WR_USED(DBB_WR_USED)
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
  logic                unused_sram_rd_dat_last, unused_sram_idle;
  dla_axi_master #(
    .N_RD(N_CLIENTS), .N_WR(N_CLIENTS),
    .ADDR_BITS(ADDR_BITS), .DATA_BITS(DATA_BITS), .ATOM_BYTES(ATOM_BYTES),
    .ID_BITS(ID_BITS), .MAX_BURST(`DLA_AXI_MAX_BURST), .MAX_RD_OUT(`DLA_AXI_MAX_RD_OUTSTANDING),
    .MAX_WR_OUT(MAX_WR_OUT), .LEN_BITS(LEN_BITS), .TAG_BITS(TAG_BITS),
    .RD_USED(clients_with(CL, M_ON | M_SRAM)), .WR_USED(clients_with(CL, M_ON | M_SRAM | M_WR))
  ) u_sram_axi (
    .clk, .rstn,
    .rd_req_valid(sram_rd_req_valid), .rd_req_ready(sram_rd_req_ready),
    .rd_req_addr(sram_rd_req_addr), .rd_req_len(sram_rd_req_len), .rd_req_tag(sram_rd_req_tag),
    .rd_dat_valid(sram_rd_dat_valid), .rd_dat_data(sram_rd_dat_data),
    .rd_dat_mask(sram_rd_dat_mask), .rd_dat_tag(sram_rd_dat_tag), .rd_dat_last(unused_sram_rd_dat_last),
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
`else
  // No SRAM interface: nothing answers on the SRAM buses.
  assign sram_rd_req_ready = '0;
  assign sram_rd_dat_valid = '0;
  assign sram_rd_dat_data  = '0;
  assign sram_rd_dat_mask  = '0;
  assign sram_rd_dat_tag   = '0;
  assign sram_wr_req_ready = '0;
  assign sram_wr_dat_ready = '0;
  assign sram_wr_cmpl      = '0;
  assign sram_wr_cmpl_tag  = '0;
  wire unused_sram = &{1'b0, sram_rd_req_valid, sram_rd_req_addr, sram_rd_req_len, sram_rd_req_tag,
                       sram_wr_req_valid, sram_wr_req_addr, sram_wr_req_len, sram_wr_req_tag,
                       sram_wr_req_cmpl, sram_wr_dat_valid, sram_wr_dat_data, sram_wr_dat_mask};
`endif
endmodule
