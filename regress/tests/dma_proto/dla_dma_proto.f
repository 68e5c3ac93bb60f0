// Sources of the DMA read protocol test wrapper (paths relative to rtl/).
common/dla_fifo.sv
common/dla_rr_arb.sv
common/dla_atom_fifo.sv
common/dla_stall_counter.sv
common/dla_dma_rd_buffer.sv
common/dla_dma_rd_client.sv
axi/dla_axi_beat_mask.sv
axi/dla_axi_burst_split.sv
axi/dla_axi_rd_path.sv
conv/dla_conv_cvt.sv
sdp/dla_sdp_int17_fp16.sv
conv/dla_fp16_census.sv
conv/dla_cdma_img.sv
../regress/tests/dma_proto/dla_dma_proto.sv
