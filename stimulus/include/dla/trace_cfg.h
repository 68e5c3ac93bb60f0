// Reader of the `.cfg` trace dialect of NVDLA's master branch (spec nvdla_trace_format.md
// section 2): one `name(arg, ...);` command per line, `//` comments. The reader checks the
// grammar and the argument forms; names are resolved later (trace_compile.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dla::trace {

enum class CfgOp {
  RegWrite, RegRead, RegReadCheck, PollRegEqual, SyncNotify, SyncWait, IntrNotify,
  MemInit, MemLoad, MemReserve, MemRelease, CheckCrc, CheckFile, CheckNothing
};
const char* cfg_op_name(CfgOp op);  // "reg_write", ...

// Memory argument: pri_mem, sec_mem, or the literal 1 ("primary, or chosen by address").
enum class CfgMem { Pri, Sec, ByAddress };

struct CfgCommand {
  CfgOp op = CfgOp::RegWrite;
  size_t line = 0;
  std::string reg;          // "NVDLA_PDP.D_OP_ENABLE_0" (reg_* and poll)
  std::string block;        // sync_notify / sync_wait first argument
  uint32_t value = 0;       // reg_write, reg_read_check, poll_reg_equal
  std::string event;        // empty when an optional event is absent
  std::string intr_id;      // intr_notify, upper case; empty for the one-argument form
  CfgMem mem = CfgMem::Pri;
  uint64_t addr = 0;        // memory base
  uint64_t size = 0;        // mem_init/mem_reserve/check_* size (mem_init with a file: 0)
  std::string file;         // as written, relative to the trace's directory
  std::string pattern;      // mem_init
  uint32_t crc = 0;
  // dlaverif extension, from a trailing comment "// dlaverif mask=0x.. timeout=N: text":
  // reg_read_check and poll_reg_equal compare under `mask`; `timeout` bounds a poll (cycles).
  std::optional<uint32_t> mask;
  std::optional<uint64_t> timeout_cycles;
  std::string comment;      // trailing comment text (without the dlaverif keys)
};

struct CfgTrace {
  std::string path;         // file name as given (used in messages)
  std::string dir;          // directory data files are relative to
  std::vector<CfgCommand> commands;
  // Keys of "// dlaverif key=value ..." comment lines (e.g. config=v1, seed=3).
  std::vector<std::pair<std::string, std::string>> header;
  std::optional<std::string> header_value(const std::string& key) const;
};

// Throws TraceError naming the file, the line and the expected form.
CfgTrace parse_cfg(const std::string& text, const std::string& path, const std::string& dir = ".");
CfgTrace read_cfg_file(const std::string& path);

}  // namespace dla::trace
