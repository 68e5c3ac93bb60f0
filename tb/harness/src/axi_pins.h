#pragma once
// Sample/drive one NVDLA AXI4 port of a Verilated model by its port-name prefix
// (nvdla_core2dbb or nvdla_core2cvsram). Macros because the prefix is part of member names.
// Wide data is only copied while its VALID is high (otherwise it is don't-care and the
// snapshot/port keeps the previous value).
#include <utility>

#include "dla/bfm/axi_ports.h"
#include "port_access.h"

#define DLA_SAMPLE_AXI_MASTER(dut, P, m, nbytes)                                 \
  do {                                                                           \
    (m).awvalid = (dut).P##_aw_awvalid != 0;                                     \
    (m).awid = static_cast<uint8_t>(::dla::tb::port::value((dut).P##_aw_awid));  \
    (m).awlen = static_cast<uint8_t>(::dla::tb::port::value((dut).P##_aw_awlen)); \
    (m).awaddr = ::dla::tb::port::value((dut).P##_aw_awaddr);                    \
    (m).wvalid = (dut).P##_w_wvalid != 0;                                        \
    if ((m).wvalid) ::dla::tb::port::to_bytes((dut).P##_w_wdata, (m).wdata.data(), (nbytes)); \
    (m).wstrb = ::dla::tb::port::value((dut).P##_w_wstrb);                       \
    (m).wlast = (dut).P##_w_wlast != 0;                                          \
    (m).bready = (dut).P##_b_bready != 0;                                        \
    (m).arvalid = (dut).P##_ar_arvalid != 0;                                     \
    (m).arid = static_cast<uint8_t>(::dla::tb::port::value((dut).P##_ar_arid));  \
    (m).arlen = static_cast<uint8_t>(::dla::tb::port::value((dut).P##_ar_arlen)); \
    (m).araddr = ::dla::tb::port::value((dut).P##_ar_araddr);                    \
    (m).rready = (dut).P##_r_rready != 0;                                        \
  } while (0)

#define DLA_DRIVE_AXI_SLAVE(dut, P, s, nbytes)                                  \
  do {                                                                          \
    (dut).P##_aw_awready = (s).awready;                                         \
    (dut).P##_w_wready = (s).wready;                                            \
    (dut).P##_b_bvalid = (s).bvalid;                                            \
    ::dla::tb::port::set((dut).P##_b_bid, (s).bid);                             \
    (dut).P##_ar_arready = (s).arready;                                         \
    (dut).P##_r_rvalid = (s).rvalid;                                            \
    ::dla::tb::port::set((dut).P##_r_rid, (s).rid);                             \
    (dut).P##_r_rlast = (s).rlast;                                              \
    if ((s).rvalid) ::dla::tb::port::from_bytes((dut).P##_r_rdata, (s).rdata.data(), (nbytes)); \
  } while (0)

#define DLA_AXI_DATA_BYTES(Dut, P) \
  static_cast<unsigned>(::dla::tb::port::storage_bytes<decltype(std::declval<Dut&>().P##_w_wdata)>())
