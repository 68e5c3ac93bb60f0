// Sources of the convolution fp16 test wrapper (paths relative to rtl/).
conv/dla_conv_fp_pkg.sv
conv/dla_cmac_fp16.sv
conv/dla_conv_wino_pra.sv
../regress/tests/conv_fp16/dla_conv_fp16.sv
