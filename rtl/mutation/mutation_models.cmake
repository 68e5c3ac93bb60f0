# Mutant models for mutation grading (docs/mutation.md). Included by rtl/CMakeLists.txt after
# the normal models. For each "<cfg>:<unit>" in DLA_MUTATION_MODELS:
#   build/mutation/<cfg>/<unit>/   gen_mutants.py output (mutants.json, the mutated unit, filelist.f)
#   target dla_dut_<cfg>_mutants_<unit>   Verilated class Vdut_<cfg>_mutants_<unit>: NV_nvdla with
#                                         the unit replaced by its mutants behind `mutsel`
#   bin/dlaverif-mut-<cfg>-<unit>         dlaverif whose configuration <cfg> is that model (the
#                                         mutant selector is SimOptions::signal_settings["mutsel"])
#   bin/dlaverif-mut-<cfg>-<unit>.mutants.json   the mutant list `dlaverif mutate` reads
# The model is compiled once, not per mutant; the normal dlaverif and its models are unchanged.
set(DLA_MUTATION_MODELS "v1:bdma" CACHE STRING
    "Mutant models to build: <config>:<unit> pairs (empty: none)")
set(DLA_MUTATION_COUNT 300 CACHE STRING "Mutations compiled into each mutant model")
set(DLA_MUTATION_SEED 1 CACHE STRING "Seed of Yosys' mutation sampling")
# Models whose sampling runs in a Yosys process of its own, free of what elaborating the whole
# NV_nvdla leaves behind (v1 SDP's ran out of 24 GB). Sampling apart gives another sample for the
# same seed, so models graded before keep the one-process flow.
set(DLA_MUTATION_SAMPLE_APART "v1:sdp" CACHE STRING
    "Mutant models (<config>:<unit>) sampled in a separate Yosys process")

if(NOT DLA_DUT_TOP STREQUAL "NV_nvdla" OR NOT DLA_DUT_GENERATED)
  if(DLA_MUTATION_MODELS)
    message(STATUS "Mutant models need dlaverif's own RTL: none built for another DUT")
  endif()
  return()
endif()
find_program(YOSYS_BIN yosys)
if(NOT YOSYS_BIN)
  message(WARNING "yosys not found: no mutant models (DLA_MUTATION_MODELS ignored)")
  return()
endif()

set(_mut_script ${CMAKE_SOURCE_DIR}/scripts/mutate/gen_mutants.py)
# Units whose top module is instantiated more than once with different parameters: the
# instance whose elaborated module gets the mutants (the others keep the original source).
# CMAC_A and CMAC_B are both dla_cmac (HALF = 0/1); unit `cmac` grades CMAC_A.
set(_mut_instance_cmac u_cmac_a)
# Instance arrays whose elements 1.. are left out of a model's sample (gen_mutants.py
# --first-replica-only): v1 SDP's 16 lanes are one module, and enumerating the mutation candidates
# of all 16 flattened lanes takes more than 24 GB. Its sample covers lane 0 and the rest of SDP.
set(_mut_replicas_v1_sdp u_dp.g_lane)
foreach(pair ${DLA_MUTATION_MODELS})
  if(NOT pair MATCHES "^([A-Za-z0-9_]+):([a-z0-9_]+)$")
    message(FATAL_ERROR "DLA_MUTATION_MODELS entry '${pair}' is not <config>:<unit>")
  endif()
  set(cfg ${CMAKE_MATCH_1})
  set(unit ${CMAKE_MATCH_2})
  if(NOT cfg IN_LIST DLA_CONFIGS)
    message(WARNING "DLA_MUTATION_MODELS entry '${pair}' skipped: configuration '${cfg}' is not in DLA_CONFIGS (${DLA_CONFIGS})")
    continue()
  endif()
  set(top dla_${unit})
  set(gen_dir ${CMAKE_BINARY_DIR}/gen/${cfg}/rtl)
  set(out ${CMAKE_BINARY_DIR}/mutation/${cfg}/${unit})
  set(mdir ${CMAKE_BINARY_DIR}/verilated/${cfg}_mutants_${unit})
  set(prefix Vdut_${cfg}_mutants_${unit})
  set(target dla_dut_${cfg}_mutants_${unit})
  set(inst_args "")
  if(DEFINED _mut_instance_${unit})
    set(inst_args --instance ${_mut_instance_${unit}})
  endif()
  if(pair IN_LIST DLA_MUTATION_SAMPLE_APART)
    list(APPEND inst_args --sample-apart)
  endif()
  foreach(prefix ${_mut_replicas_${cfg}_${unit}})
    list(APPEND inst_args --first-replica-only ${prefix})
  endforeach()
  add_custom_command(
    OUTPUT ${out}/mutants.json ${out}/filelist.f ${out}/${top}_mutants.v
    COMMAND ${Python3_EXECUTABLE} ${_mut_script} --rtl-dir ${CMAKE_SOURCE_DIR}/rtl
            --filelist ${DLA_DUT_FILELIST} --gen-dir ${gen_dir} --top ${top} ${inst_args}
            --count ${DLA_MUTATION_COUNT} --seed ${DLA_MUTATION_SEED} --out ${out}
    DEPENDS ${_mut_script} ${DLA_DUT_SOURCES} ${DLA_DUT_FILELIST} ${gen_dir}/dla_cfg.svh ${gen_dir}/generated.f
            ${DLA_RTL_GEN_SCRIPT} ${DLA_RTL_REGS_CSV}  # the register blocks (rewritten only when changed)
    COMMENT "Generating ${DLA_MUTATION_COUNT} mutants of ${top} for configuration ${cfg}" VERBATIM)
  # -Wno-UNOPTFLAT: the flattened netlist packs unrelated bits into one wire and routes every
  # mutated bit through a mux, so Verilator sees word-level loops the RTL does not have (it
  # still evaluates them exactly; a loop a mutation really creates fails its test).
  dla_verilated_model(${target} PREFIX ${prefix} MDIR ${mdir} FILELIST ${out}/filelist.f
    WORKDIR ${CMAKE_CURRENT_BINARY_DIR} TOP NV_nvdla CONFIG ${cfg} ARGS -I${gen_dir} -Wno-UNOPTFLAT
    DEPENDS ${out}/${top}_mutants.v AFTER dla_rtl_gen_${cfg}
    COMMENT "Verilating the ${unit} mutant model for configuration ${cfg}")

  # The executable: dlaverif's CLI with its own factory table holding only this model (its
  # objects define the table and make_simulation(), so dla_tb's are never linked in).
  set(exe dlaverif-mut-${cfg}-${unit})
  string(MAKE_C_IDENTIFIER "make_mutant_simulation_${cfg}_${unit}" factory)
  set(registry ${CMAKE_CURRENT_BINARY_DIR}/mutation/${exe}_registry.cpp)
  dla_factory_entry(entry ${cfg} ${DLA_PRIMARY_DUT} ${out}/filelist.f ${DLA_DUT_INITIAL_STATE}
                    ${DLA_DUT_RESET_IDLE_CYCLES} ${factory})
  file(CONFIGURE OUTPUT ${registry} CONTENT "// Generated by rtl/mutation/mutation_models.cmake.
#include \"simulation_factories.h\"

namespace dla::tb::detail {

std::unique_ptr<Simulation> ${factory}(const SimOptions&);

const std::vector<FactoryEntry>& simulation_factories() {
  static const std::vector<FactoryEntry> table = {
${entry}  };
  return table;
}

}  // namespace dla::tb::detail
")
  set(tb_src ${CMAKE_SOURCE_DIR}/tb/harness/src)
  add_executable(${exe} ${CMAKE_SOURCE_DIR}/regress/src/main.cpp ${tb_src}/simulation.cpp
                 ${tb_src}/dut_simulation.cpp ${registry})
  target_include_directories(${exe} PRIVATE ${tb_src} ${CMAKE_SOURCE_DIR}/tb/harness/include)
  target_include_directories(${exe} SYSTEM PRIVATE ${mdir})
  target_compile_definitions(${exe} PRIVATE DLA_TB_FACTORY=${factory})
  target_link_libraries(${exe} PRIVATE dla_cli ${target})
  dla_warnings(${exe})
  add_custom_command(TARGET ${exe} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy ${out}/mutants.json $<TARGET_FILE:${exe}>.mutants.json VERBATIM)
endforeach()
