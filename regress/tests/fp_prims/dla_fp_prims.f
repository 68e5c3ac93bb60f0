// Sources of the float-primitive test wrapper (paths relative to rtl/).
common/dla_fp_add.sv
common/dla_fp_mul.sv
common/dla_fp_widen.sv
common/dla_fp_narrow.sv
common/dla_fp_maxmin.sv
../regress/tests/fp_prims/dla_fp_prims.sv
