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
../regress/tests/dma_proto/dla_dma_proto.sv
