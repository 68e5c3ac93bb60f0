# dla_verilated_model(): one Verilated model of a DUT as an imported static library.
#
#   dla_verilated_model(<target>
#     PREFIX <Vclass>          Verilated class name (and header <Vclass>.h)
#     MDIR <dir>               Verilator output folder
#     FILELIST <files.f>       Verilog file list (paths relative to WORKDIR)
#     WORKDIR <dir>            folder Verilator runs in (the file list's folder)
#     TOP <module>
#     CONFIG <cfg>             the hardware configuration the model implements
#     [ARGS <verilator args>]  added to the common set (e.g. -I, -f generated.f, coverage)
#     [DEPENDS <files>]        what rebuilds the model
#     [AFTER <targets>]        targets that must run before Verilator (generated sources)
#     [COMMENT <text>])
#
# The target carries the include folder and the compile definitions the harness needs
# (DLA_CFG_NAME, DLA_CFG_ADDR_BITS, DLA_DUT_CLASS, DLA_DUT_HEADER, DLA_HAS_SRAM_IF when the
# configuration has the SRAM interface). The model is compiled once; nothing is rebuilt per test.
set(DLA_VERILATED_BUILD_MK ${CMAKE_CURRENT_LIST_DIR}/dla_verilated_build.mk)
find_program(DLA_MAKE_PROGRAM NAMES gmake make REQUIRED)

function(dla_verilated_model target)
  cmake_parse_arguments(M "" "PREFIX;MDIR;FILELIST;WORKDIR;TOP;CONFIG;COMMENT" "ARGS;DEPENDS;AFTER" ${ARGN})
  set(vargs --cc --prefix ${M_PREFIX} --top-module ${M_TOP}
      --trace-fst --x-assign unique --x-initial unique -Wno-fatal -Wno-lint -Wno-style
      --Mdir ${M_MDIR} -f ${M_FILELIST} ${M_ARGS})
  # The C++ is compiled by cmake/dla_verilated_build.mk (Verilator's makefile with an
  # optimisation level per kind of file: it says which and why).
  set(margs -C ${M_MDIR} -f ${DLA_VERILATED_BUILD_MK} -j ${DLA_VERILATOR_JOBS} DLA_PREFIX=${M_PREFIX})
  if(CCACHE_PROGRAM)
    list(APPEND margs OBJCACHE=${CCACHE_PROGRAM})
  endif()
  if(NOT M_COMMENT)
    set(M_COMMENT "Verilating ${M_PREFIX}")
  endif()
  add_custom_command(
    OUTPUT ${M_MDIR}/${M_PREFIX}__ALL.a ${M_MDIR}/${M_PREFIX}.h
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${M_MDIR}
    COMMAND ${VERILATOR_BIN} ${vargs}
    # The model's make gets its own -j: run from this build's make, it would find the
    # jobserver unreachable and fall back to one job (a v1 model then compiles serially).
    # ccache caches objects that use a precompiled header only with this sloppiness.
    COMMAND ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
            CCACHE_SLOPPINESS=pch_defines,time_macros ${DLA_MAKE_PROGRAM} ${margs}
    WORKING_DIRECTORY ${M_WORKDIR}
    DEPENDS ${M_DEPENDS} ${M_FILELIST} ${DLA_VERILATED_BUILD_MK}
    COMMENT "${M_COMMENT}" VERBATIM)
  add_custom_target(${target}_verilate DEPENDS ${M_MDIR}/${M_PREFIX}__ALL.a)
  foreach(t ${M_AFTER})
    add_dependencies(${target}_verilate ${t})
  endforeach()
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${M_MDIR}/${M_PREFIX}__ALL.a)
  file(MAKE_DIRECTORY ${M_MDIR})
  target_include_directories(${target} INTERFACE ${M_MDIR})
  target_link_libraries(${target} INTERFACE dla_verilated_runtime)
  add_dependencies(${target} ${target}_verilate)
  set(_cfg_yaml ${CMAKE_SOURCE_DIR}/rtl/configs/${M_CONFIG}.yaml)
  file(STRINGS ${_cfg_yaml} _sram REGEX "^sram_if:[ ]*true")
  # The memories behind the ports have the configuration's address width (the testbench takes
  # addresses modulo 2^addr_bits, as NVDLA does).
  file(STRINGS ${_cfg_yaml} _dbb REGEX "^dbb:.*addr_bits:[ ]*[0-9]+")
  if(NOT _dbb MATCHES "addr_bits:[ ]*([0-9]+)")
    message(FATAL_ERROR "${_cfg_yaml}: no 'dbb: {..., addr_bits: N}' line")
  endif()
  set(defs DLA_CFG_NAME="${M_CONFIG}" DLA_CFG_ADDR_BITS=${CMAKE_MATCH_1} DLA_DUT_CLASS=${M_PREFIX}
      DLA_DUT_HEADER="${M_PREFIX}.h")
  if(_sram)
    list(APPEND defs DLA_HAS_SRAM_IF=1)
  endif()
  target_compile_definitions(${target} INTERFACE ${defs})
endfunction()

# The list of Verilog sources a file list names (for DEPENDS): comment and option lines
# (+incdir+, +define+, -...) are skipped; relative paths are relative to the list's folder.
function(dla_filelist_sources filelist out_var)
  get_filename_component(dir ${filelist} DIRECTORY)
  file(STRINGS ${filelist} lines)
  set(sources "")
  foreach(l ${lines})
    string(STRIP "${l}" l)
    if(l STREQUAL "" OR l MATCHES "^(#|//)" OR l MATCHES "^[-+]")
      continue()
    endif()
    if(IS_ABSOLUTE ${l})
      list(APPEND sources ${l})
    else()
      list(APPEND sources ${dir}/${l})
    endif()
  endforeach()
  set(${out_var} ${sources} PARENT_SCOPE)
endfunction()

# One row of a generated simulation registry (tb/harness/src/simulation_factories.h):
# dla_factory_entry(<out_var> <cfg> <dut> <source> <random|zero> <idle cycles> <factory>)
# NVIDIA's RTL ("nvdla") has the convolution pipeline; the primary DUT has it when DLA_DUT_CONV
# and the configuration is in DLA_DUT_CONV_CONFIGS. Both implement RUBIK on the configurations
# that have it (v1), the primary DUT unless DLA_DUT_RUBIK is OFF.
function(dla_factory_entry out_var cfg dut source init idle factory)
  if(init STREQUAL "zero")
    set(state InitialState::Zero)
  else()
    set(state InitialState::Random)
  endif()
  if(dut STREQUAL "nvdla" OR (DLA_DUT_CONV AND cfg IN_LIST DLA_DUT_CONV_CONFIGS))
    set(conv true)
  else()
    set(conv false)
  endif()
  if(dut STREQUAL "nvdla" OR DLA_DUT_RUBIK)
    set(rubik true)
  else()
    set(rubik false)
  endif()
  set(${out_var} "      {\"${cfg}\", \"${dut}\", \"${source}\", ${state}, ${idle}ull, &${factory}, ${conv}, ${rubik}},\n" PARENT_SCOPE)
endfunction()
