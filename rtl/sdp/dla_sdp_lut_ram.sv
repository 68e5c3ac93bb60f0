// LE (65) and LO (257) LUT tables with their CSB access port (sdp.md §8.1).
// S_LUT_ACCESS_CFG loads the address, table and access type; every S_LUT_ACCESS_DATA write
// stores the entry (type WRITE, existing entries only) and every DATA write or read advances
// the 10-bit address, whatever the type (the v1 RTL behaviour, §15 item 5). A read returns the
// entry at the current address (0 beyond the table). Tables reset to 0.
// TYPED_CLAMPED = 1 (CDP, pdp_cdp_bdma_rubik_glb.md §2.4): only the access of the
// configured type acts (a DATA write with type READ, or a read with type WRITE, does nothing
// and reads 0), and the address stops at the selected table's last entry (64 / 256).
module dla_sdp_lut_ram #(
  parameter bit TYPED_CLAMPED = 1'b0
) (
  input  logic                clk,
  input  logic                rstn,
  input  logic                cfg_wr,       // S_LUT_ACCESS_CFG written (wdat below)
  input  logic                data_wr,      // S_LUT_ACCESS_DATA written
  input  logic                data_rd,      // S_LUT_ACCESS_DATA read (this cycle)
  input  logic [31:0]         wdat,
  output logic [15:0]         rd_entry,
  output logic [65*16-1:0]    le,
  output logic [257*16-1:0]   lo
);
  logic [9:0] addr;
  logic       table_lo, is_write;

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      addr     <= '0;
      table_lo <= 1'b0;
      is_write <= 1'b0;
    end else if (cfg_wr) begin
      addr     <= wdat[9:0];
      table_lo <= wdat[16];
      is_write <= wdat[17];
    end else if (TYPED_CLAMPED) begin
      if (((data_wr && is_write) || (data_rd && !is_write)) && addr < (table_lo ? 10'd256 : 10'd64))
        addr <= addr + 1'b1;
    end else if (data_wr || data_rd) begin
      addr <= addr + 1'b1;
    end

  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      le <= '0;
      lo <= '0;
    end else if (data_wr && is_write) begin
      if (table_lo && addr < 10'd257) lo[addr*16 +: 16] <= wdat[15:0];
      if (!table_lo && addr < 10'd65) le[addr[6:0]*16 +: 16] <= wdat[15:0];
    end

  always_comb begin
    rd_entry = '0;
    if (table_lo && addr < 10'd257) rd_entry = lo[addr*16 +: 16];
    if (!table_lo && addr < 10'd65) rd_entry = le[addr[6:0]*16 +: 16];
    if (TYPED_CLAMPED && is_write) rd_entry = '0;
  end
  wire unused_wdat = &{1'b0, wdat[31:18]};
endmodule
