#include "dla/bfm/axi_ports.h"

#include <stdexcept>
#include <string>

namespace dla::tb {

void validate_axi_data_bytes(unsigned data_bytes, const char* who) {
  const bool power_of_two = data_bytes != 0 && (data_bytes & (data_bytes - 1)) == 0;
  if (!power_of_two || data_bytes > kMaxAxiDataBytes) {
    throw std::invalid_argument(std::string(who) + ": AXI data width of " + std::to_string(data_bytes) +
                                " bytes is not a power of two in 1.." + std::to_string(kMaxAxiDataBytes));
  }
}

}  // namespace dla::tb
