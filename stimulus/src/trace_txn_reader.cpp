#include <filesystem>
#include <sstream>

#include "dla/trace_error.h"
#include "dla/trace_surface.h"
#include "dla/trace_txn.h"
#include "trace_text.h"

namespace dla::trace {

using namespace text;

const char* txn_op_name(TxnOp op) {
  switch (op) {
    case TxnOp::WriteReg: return "write_reg";
    case TxnOp::ReadReg: return "read_reg";
    case TxnOp::LoadMem: return "load_mem";
    case TxnOp::DumpMem: return "dump_mem";
    case TxnOp::Wait: return "wait";
  }
  return "?";
}

namespace {

const char* usage(TxnOp op) {
  switch (op) {
    case TxnOp::WriteReg: return "write_reg 0xffffWWWW DATA";
    case TxnOp::ReadReg: return "read_reg 0xffffWWWW MASK [==|<=|>=] EXPECTED [RETRIES]";
    case TxnOp::LoadMem: return "load_mem 0xADDR SIZE FILE";
    case TxnOp::DumpMem: return "dump_mem 0xADDR SIZE FILE";
    case TxnOp::Wait: return "wait";
  }
  return "";
}

}  // namespace

TxnTrace parse_txn(const std::string& text, const std::string& path, const std::string& dir) {
  TxnTrace t;
  t.path = path;
  t.dir = dir;
  std::istringstream in(text);
  std::string raw;
  size_t line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    std::string comment;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) {
      comment = std::string(trim(line.substr(hash + 1)));
      line = line.substr(0, hash);
    }
    const auto tok = split_ws(line);
    if (tok.empty()) continue;
    TxnCommand c;
    c.line = line_no;
    c.comment = comment;
    if (tok[0] == "write_reg") c.op = TxnOp::WriteReg;
    else if (tok[0] == "read_reg") c.op = TxnOp::ReadReg;
    else if (tok[0] == "load_mem") c.op = TxnOp::LoadMem;
    else if (tok[0] == "dump_mem") c.op = TxnOp::DumpMem;
    else if (tok[0] == "wait") c.op = TxnOp::Wait;
    else
      throw TraceError(path, line_no,
                       "unknown command " + quote(tok[0]) + " (expected write_reg, read_reg, load_mem, dump_mem or wait)");
    auto fail = [&](const std::string& what) {
      throw TraceError(path, line_no, std::string(txn_op_name(c.op)) + ": " + what + "; expected " + usage(c.op));
    };
    auto num32 = [&](size_t i, const char* what) {
      const auto v = parse_number(tok[i], NumberForm::HexOrDecimal, 32);
      if (!v) fail(std::string(what) + " " + quote(tok[i]) + " is not a 32-bit number (0x hex or decimal)");
      return static_cast<uint32_t>(*v);
    };
    auto num64 = [&](size_t i, const char* what, NumberForm form) {
      const auto v = parse_number(tok[i], form);
      if (!v) fail(std::string(what) + " " + quote(tok[i]) + " is not a number");
      return *v;
    };
    switch (c.op) {
      case TxnOp::WriteReg:
        if (tok.size() != 3) fail(std::to_string(tok.size() - 1) + " operands");
        c.addr_token = num32(1, "address");
        c.data = num32(2, "data");
        break;
      case TxnOp::ReadReg: {
        if (tok.size() < 4 || tok.size() > 6) fail(std::to_string(tok.size() - 1) + " operands");
        c.addr_token = num32(1, "address");
        c.mask = num32(2, "mask");
        size_t e = 3;
        if (tok[3] == "==" || tok[3] == "<=" || tok[3] == ">=") {
          c.compare = tok[3] == "==" ? RegCompare::Eq : tok[3] == "<=" ? RegCompare::Le : RegCompare::Ge;
          e = 4;
          if (tok.size() < 5) fail("missing expected value after " + quote(tok[3]));
        } else if (tok.size() > 4) {
          fail("comparison " + quote(tok[3]) + " is not ==, <= or >=");
        }
        c.expect = num32(e, "expected value");
        if (tok.size() > e + 1) c.retries = num64(e + 1, "retry count", NumberForm::HexOrDecimal);
        break;
      }
      case TxnOp::LoadMem:
      case TxnOp::DumpMem:
        if (tok.size() != 4) fail(std::to_string(tok.size() - 1) + " operands");
        c.mem_addr = num64(1, "address", NumberForm::HexOrDecimal);
        c.size = num64(2, "size", NumberForm::HexOrDecimal);
        if (c.size == 0) fail("size 0");
        c.file = std::string(tok[3]);
        break;
      case TxnOp::Wait:
        if (tok.size() != 1) fail("unexpected operands");
        break;
    }
    t.commands.push_back(std::move(c));
  }
  return t;
}

TxnTrace read_txn_file(const std::string& path) {
  const std::string text = read_text_file(path, "trace file");
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return parse_txn(text, path, dir);
}

}  // namespace dla::trace
