#include "dla/bfm/protocol_violation.h"

namespace dla::tb {

const char* to_string(ProtocolRule rule) {
  switch (rule) {
    case ProtocolRule::ValidDropped: return "valid_dropped";
    case ProtocolRule::PayloadUnstable: return "payload_unstable";
    case ProtocolRule::UnalignedAddress: return "unaligned_address";
    case ProtocolRule::Crosses4K: return "crosses_4k";
    case ProtocolRule::BurstTooLong: return "burst_too_long";
    case ProtocolRule::WlastMismatch: return "wlast_mismatch";
    case ProtocolRule::WWithoutAw: return "w_without_aw";
    case ProtocolRule::BWithoutWrite: return "b_without_write";
    case ProtocolRule::BOutOfOrder: return "b_out_of_order";
    case ProtocolRule::RWithoutRead: return "r_without_read";
    case ProtocolRule::ROutOfOrder: return "r_out_of_order";
    case ProtocolRule::RlastMismatch: return "rlast_mismatch";
    case ProtocolRule::CsbReadDataWithoutRead: return "csb_read_data_without_read";
    case ProtocolRule::CsbCompletionWithoutWrite: return "csb_completion_without_write";
    case ProtocolRule::ReadUninitialised: return "read_uninitialised";
  }
  return "unknown_rule";
}

const char* to_string(BusChannel channel) {
  switch (channel) {
    case BusChannel::AW: return "aw";
    case BusChannel::W: return "w";
    case BusChannel::B: return "b";
    case BusChannel::AR: return "ar";
    case BusChannel::R: return "r";
    case BusChannel::CsbRequest: return "req";
    case BusChannel::CsbResponse: return "resp";
  }
  return "unknown_channel";
}

std::string ProtocolViolation::to_string() const {
  return port + "." + tb::to_string(channel) + " " + tb::to_string(rule) + " @" + std::to_string(cycle) +
         ": " + detail;
}

}  // namespace dla::tb
