// Reader of the `input.txn` trace dialect of NVDLA's nvdlav1 branch (spec
// nvdla_trace_format.md section 3): whitespace-separated commands, `#` comments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dla/program.h"

namespace dla::trace {

enum class TxnOp { WriteReg, ReadReg, LoadMem, DumpMem, Wait };
const char* txn_op_name(TxnOp op);

struct TxnCommand {
  TxnOp op = TxnOp::WriteReg;
  size_t line = 0;
  uint32_t addr_token = 0;  // register commands: 0xffffWWWW (bits 15:0 = nvdlav1 CSB word address)
  uint32_t data = 0;        // write_reg
  uint32_t mask = 0xffffffffu, expect = 0;  // read_reg
  RegCompare compare = RegCompare::Eq;      // read_reg A M [==|<=|>=] E
  std::optional<uint64_t> retries;          // read_reg ... N
  uint64_t mem_addr = 0, size = 0;          // load_mem / dump_mem
  std::string file;
  std::string comment;                      // text after '#'
};

struct TxnTrace {
  std::string path;
  std::string dir;
  std::vector<TxnCommand> commands;
};

// Throws TraceError naming file, line and the expected form.
TxnTrace parse_txn(const std::string& text, const std::string& path, const std::string& dir = ".");
TxnTrace read_txn_file(const std::string& path);

}  // namespace dla::trace
