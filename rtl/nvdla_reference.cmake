# NVIDIA's NVDLA RTL as a second DUT of one configuration (DLA_NVDLA_CONFIG), next to the DUT the
# build is configured with: `dlaverif run|trace --dut nvdla`, and the differential regression
# regress/plans/nvdla_small.yaml, hold the golden model against the real design. Included by
# rtl/CMakeLists.txt. Makes target dla_dut_<cfg>_nvdla (class Vnvdla_<cfg>) when DLA_NVDLA_RTL
# names a folder with files.f; nothing otherwise (the plan's entries are then skipped).
#
# NVDLA's RTL needs an all-zero start (several flops and its RAM models are not reset) and
# 8,192 idle cycles after reset before the first register access (its CBUF flush; until then,
# e.g., SDP operand reads return zeros): those are this model's defaults.
set(DLA_NVDLA_INITIAL_STATE zero PARENT_SCOPE)
set(DLA_NVDLA_RESET_IDLE_CYCLES 8192 PARENT_SCOPE)
set(DLA_HAVE_NVDLA OFF PARENT_SCOPE)
if(NOT DLA_NVDLA_RTL)
  return()
endif()
get_filename_component(_nvdla_dir ${DLA_NVDLA_RTL} ABSOLUTE BASE_DIR ${CMAKE_BINARY_DIR})
set(_nvdla_list ${_nvdla_dir}/files.f)
if(NOT EXISTS ${_nvdla_list})
  message(FATAL_ERROR "DLA_NVDLA_RTL=${DLA_NVDLA_RTL}: no files.f in ${_nvdla_dir} (a Verilator file list of "
                      "NVDLA's RTL with top module NV_nvdla, paths relative to it)")
endif()
if(NOT EXISTS ${CMAKE_SOURCE_DIR}/rtl/configs/${DLA_NVDLA_CONFIG}.yaml)
  message(FATAL_ERROR "DLA_NVDLA_CONFIG '${DLA_NVDLA_CONFIG}' is not a configuration in rtl/configs/")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_nvdla_list})
dla_filelist_sources(${_nvdla_list} _nvdla_sources)
set(DLA_NVDLA_SOURCE ${_nvdla_list} PARENT_SCOPE)
dla_verilated_model(dla_dut_${DLA_NVDLA_CONFIG}_nvdla PREFIX Vnvdla_${DLA_NVDLA_CONFIG}
  MDIR ${CMAKE_BINARY_DIR}/verilated/${DLA_NVDLA_CONFIG}_nvdla FILELIST ${_nvdla_list} WORKDIR ${_nvdla_dir}
  TOP NV_nvdla CONFIG ${DLA_NVDLA_CONFIG} DEPENDS ${_nvdla_sources}
  COMMENT "Verilating NVIDIA's NVDLA RTL (${_nvdla_dir}) for configuration ${DLA_NVDLA_CONFIG}")
set(DLA_HAVE_NVDLA ON PARENT_SCOPE)
message(STATUS "NVDLA reference DUT: ${_nvdla_list} as configuration ${DLA_NVDLA_CONFIG} (--dut nvdla)")
