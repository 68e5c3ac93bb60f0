# Compiles one Verilated model into its archive, run in Verilator's output folder:
#
#   make -f dla_verilated_build.mk DLA_PREFIX=<Vclass> [OBJCACHE=ccache] -j N
#
# It is Verilator's own makefile (<Vclass>.mk) with optimisation levels chosen per kind of
# file, because the model's build time is mostly the C++ compiler's:
#   per-clock code (eval, sequential and combinational logic)  DLA_OPT_FAST  (-O2)
#   run-once code (constructors, initial values, full dumps)    DLA_OPT_SLOW  (-O0)
#   the trace's change dumps                                    DLA_OPT_TRACE (-O1)
# The change dumps are "fast" to Verilator (they run every clock while a waveform is being
# written), but only with --waves: a regression run never calls them. At -O1 they compile in
# two thirds of -O2's time and write waves as fast (v1, conv.random seed 1 with --waves:
# 4.8 s at -O1 and at -O2, 9.8 s at -O0).
DLA_OPT_FAST  ?= -O2
DLA_OPT_SLOW  ?= -O0
DLA_OPT_TRACE ?= -O1

include $(DLA_PREFIX).mk

OPT_FAST   := $(DLA_OPT_FAST)
OPT_SLOW   := $(DLA_OPT_SLOW)
OPT_GLOBAL := $(DLA_OPT_FAST)

DLA_TRACE_CHANGE_OBJS := $(addsuffix .o,$(filter $(DLA_PREFIX)__Trace__%,$(VM_FAST)))
$(DLA_TRACE_CHANGE_OBJS): OPT_FAST := $(DLA_OPT_TRACE)

# Every file of a split model parses the same headers (verilated.h and the model's class
# declarations: 1.3 MB on v1), ~0.7 s of CPU a file. They are precompiled once per
# optimisation level into <prefix>__pch.h.gch/ (GCC takes the one whose options match) and
# force-included. A model small enough for one file (VM_PARALLEL_BUILDS=0) gains nothing.
ifeq ($(VM_PARALLEL_BUILDS),1)
DLA_PCH := $(DLA_PREFIX)__pch.h
DLA_PCH_VARIANTS := $(sort $(DLA_OPT_FAST) $(DLA_OPT_SLOW) $(DLA_OPT_TRACE))
DLA_PCH_FILES := $(foreach o,$(DLA_PCH_VARIANTS),$(DLA_PCH).gch/$(subst -,,$(o)).gch)

$(DLA_PCH):
	echo '#include "$(DLA_PREFIX)__Syms.h"' > $@

$(DLA_PCH).gch/%.gch: $(DLA_PCH)
	@mkdir -p $(DLA_PCH).gch
	$(OBJCACHE) $(CXX) $(CXXFLAGS) $(CPPFLAGS) -$* -MF $(DLA_PCH)-$*.d -x c++-header -c -o $@ $<

$(VK_OBJS): $(DLA_PCH_FILES)
$(VK_OBJS): CPPFLAGS += -include $(DLA_PCH) -fpch-preprocess
endif
