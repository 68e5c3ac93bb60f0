#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "dla/trace_cfg.h"
#include "dla/trace_error.h"
#include "dla/trace_surface.h"
#include "trace_text.h"

namespace dla::trace {

using namespace text;

const char* cfg_op_name(CfgOp op) {
  switch (op) {
    case CfgOp::RegWrite: return "reg_write";
    case CfgOp::RegRead: return "reg_read";
    case CfgOp::RegReadCheck: return "reg_read_check";
    case CfgOp::PollRegEqual: return "poll_reg_equal";
    case CfgOp::SyncNotify: return "sync_notify";
    case CfgOp::SyncWait: return "sync_wait";
    case CfgOp::IntrNotify: return "intr_notify";
    case CfgOp::MemInit: return "mem_init";
    case CfgOp::MemLoad: return "mem_load";
    case CfgOp::MemReserve: return "mem_reserve";
    case CfgOp::MemRelease: return "mem_release";
    case CfgOp::CheckCrc: return "check_crc";
    case CfgOp::CheckFile: return "check_file";
    case CfgOp::CheckNothing: return "check_nothing";
  }
  return "?";
}

std::optional<std::string> CfgTrace::header_value(const std::string& key) const {
  for (const auto& [k, v] : header)
    if (k == key) return v;
  return std::nullopt;
}

namespace {

struct Syntax {
  const char* name;
  CfgOp op;
  const char* usage;
};

constexpr Syntax kSyntax[] = {
    {"reg_write", CfgOp::RegWrite, "reg_write(BLOCK.REGISTER, value);"},
    {"reg_read", CfgOp::RegRead, "reg_read(BLOCK.REGISTER, event);"},
    {"reg_read_check", CfgOp::RegReadCheck, "reg_read_check(BLOCK.REGISTER, value);"},
    {"poll_reg_equal", CfgOp::PollRegEqual, "poll_reg_equal(BLOCK.REGISTER, value);"},
    {"sync_notify", CfgOp::SyncNotify, "sync_notify(BLOCK, event);"},
    {"sync_wait", CfgOp::SyncWait, "sync_wait(BLOCK, event);"},
    {"intr_notify", CfgOp::IntrNotify, "intr_notify([INTR_ID,] event);"},
    {"mem_init", CfgOp::MemInit, "mem_init(pri_mem|sec_mem, 0xBASE, size|\"file\", PATTERN[, event]);"},
    {"mem_load", CfgOp::MemLoad, "mem_load(pri_mem|sec_mem, 0xBASE, \"file\"[, event]);"},
    {"mem_reserve", CfgOp::MemReserve, "mem_reserve(pri_mem|sec_mem, 0xBASE, size[, event]);"},
    {"mem_release", CfgOp::MemRelease, "mem_release(pri_mem|sec_mem, 0xBASE, event);"},
    {"check_crc", CfgOp::CheckCrc, "check_crc(event, pri_mem|sec_mem|1, 0xBASE, size, 0xCRC);"},
    {"check_file", CfgOp::CheckFile, "check_file(event, pri_mem|sec_mem|1, 0xBASE, size, \"file\");"},
    {"check_nothing", CfgOp::CheckNothing, "check_nothing(event);"},
};

const char* kPatterns[] = {"ALL_ZERO", "ONES", "AFIVE", "FIVEA", "ADDR", "RANDOM", "X"};

class LineParser {
 public:
  LineParser(const std::string& path, size_t line, const Syntax& syn, std::vector<std::string_view> args)
      : path_(path), line_(line), syn_(syn), args_(std::move(args)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw TraceError(path_, line_, std::string(syn_.name) + ": " + what + "; expected " + syn_.usage);
  }
  void count(size_t lo, size_t hi) const {
    if (args_.size() < lo || args_.size() > hi)
      fail(fmt::format("{} argument{}", args_.size(), args_.size() == 1 ? "" : "s"));
  }
  size_t size() const { return args_.size(); }
  std::string_view arg(size_t i) const { return args_.at(i); }

  std::string regname(size_t i) const {
    const auto a = arg(i);
    const auto dot = a.find('.');
    if (dot == std::string_view::npos || !is_word(a.substr(0, dot)) || !is_word(a.substr(dot + 1)))
      fail("register name " + quote(a) + " is not BLOCK.REGISTER");
    return std::string(a);
  }
  std::string word(size_t i, const char* what) const {
    if (!is_word(arg(i))) fail(std::string(what) + " " + quote(arg(i)) + " is not an identifier");
    return std::string(arg(i));
  }
  uint32_t value32(size_t i) const {
    const auto v = parse_number(arg(i), NumberForm::HexOrDecimal, 32);
    if (!v) fail("value " + quote(arg(i)) + " is not a 32-bit number (0x hex or decimal)");
    return static_cast<uint32_t>(*v);
  }
  uint64_t hexaddr(size_t i) const {
    const auto v = parse_number(arg(i), NumberForm::HexOnly);
    if (!v) fail("base address " + quote(arg(i)) + " is not a 0x hex number");
    return *v;
  }
  uint64_t size_arg(size_t i) const {
    const auto v = parse_number(arg(i), NumberForm::HexOrDecimal);
    if (!v || *v == 0) fail("size " + quote(arg(i)) + " is not a non-zero number (0x hex or decimal)");
    return *v;
  }
  uint32_t crc(size_t i) const {
    const auto v = parse_number(arg(i), NumberForm::HexOnly, 32);
    if (!v) fail("CRC " + quote(arg(i)) + " is not a 32-bit 0x hex number");
    return static_cast<uint32_t>(*v);
  }
  CfgMem mem(size_t i) const {
    const std::string m = upper(arg(i));
    if (m == "PRI_MEM") return CfgMem::Pri;
    if (m == "SEC_MEM") return CfgMem::Sec;
    if (m == "1") return CfgMem::ByAddress;
    fail("memory " + quote(arg(i)) + " is not pri_mem, sec_mem or 1");
  }
  bool is_file(size_t i) const { return arg(i).size() >= 2 && arg(i).front() == '"'; }
  std::string file(size_t i) const {
    const auto a = arg(i);
    if (a.size() < 3 || a.front() != '"' || a.back() != '"') fail("file " + quote(a) + " is not a quoted file name");
    const auto name = a.substr(1, a.size() - 2);
    for (char c : name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/'))
        fail("file name " + quote(a) + " may only hold letters, digits, '_', '.' and '/'");
    return std::string(name);
  }
  std::string pattern(size_t i) const {
    const std::string p(arg(i));
    for (const char* k : kPatterns)
      if (p == k) return p;
    fail("pattern " + quote(arg(i)) + " is not one of ALL_ZERO, ONES, AFIVE, FIVEA, ADDR, RANDOM, X");
  }

 private:
  const std::string& path_;
  size_t line_;
  const Syntax& syn_;
  std::vector<std::string_view> args_;
};

// "dlaverif mask=0x.. timeout=N: text" in a trailing comment.
void apply_extension(CfgCommand& c, std::string_view comment, const std::string& path) {
  comment = trim(comment);
  if (!starts_with(comment, "dlaverif ") && comment != "dlaverif") {
    c.comment = std::string(comment);
    return;
  }
  comment.remove_prefix(8);
  const auto colon = comment.find(':');
  const std::string_view keys = colon == std::string_view::npos ? comment : comment.substr(0, colon);
  if (colon != std::string_view::npos) c.comment = std::string(trim(comment.substr(colon + 1)));
  for (auto kv : split_ws(keys)) {
    const auto eq = kv.find('=');
    const std::string_view k = kv.substr(0, eq);
    const std::string_view v = eq == std::string_view::npos ? std::string_view() : kv.substr(eq + 1);
    if (k == "mask" && (c.op == CfgOp::RegReadCheck || c.op == CfgOp::PollRegEqual || c.op == CfgOp::RegRead)) {
      const auto m = parse_number(v, NumberForm::HexOnly, 32);
      if (!m) throw TraceError(path, c.line, "dlaverif mask " + quote(v) + " is not a 32-bit 0x hex number");
      c.mask = static_cast<uint32_t>(*m);
    } else if (k == "timeout" && (c.op == CfgOp::PollRegEqual || c.op == CfgOp::IntrNotify)) {
      const auto t = parse_number(v, NumberForm::HexOrDecimal);
      if (!t || *t == 0) throw TraceError(path, c.line, "dlaverif timeout " + quote(v) + " is not a cycle count");
      c.timeout_cycles = *t;
    } else {
      throw TraceError(path, c.line,
                       "unknown dlaverif annotation " + quote(kv) + " for " + cfg_op_name(c.op) +
                           " (mask=0x.. on reg_read/reg_read_check/poll_reg_equal, timeout=N on poll_reg_equal/"
                           "intr_notify)");
    }
  }
}

CfgCommand parse_command(const Syntax& syn, size_t line_no, std::vector<std::string_view> args,
                         const std::string& path) {
  LineParser p(path, line_no, syn, std::move(args));
  CfgCommand c;
  c.op = syn.op;
  c.line = line_no;
  switch (syn.op) {
    case CfgOp::RegWrite:
    case CfgOp::RegReadCheck:
    case CfgOp::PollRegEqual:
      p.count(2, 2);
      c.reg = p.regname(0);
      c.value = p.value32(1);
      break;
    case CfgOp::RegRead:
      p.count(2, 2);
      c.reg = p.regname(0);
      c.event = p.word(1, "event");
      break;
    case CfgOp::SyncNotify:
    case CfgOp::SyncWait:
      p.count(2, 2);
      c.block = p.word(0, "block");
      c.event = p.word(1, "event");
      break;
    case CfgOp::IntrNotify:
      p.count(1, 2);
      if (p.size() == 2) c.intr_id = upper(p.word(0, "interrupt id"));
      c.event = p.word(p.size() - 1, "event");
      break;
    case CfgOp::MemInit:
      p.count(4, 5);
      c.mem = p.mem(0);
      c.addr = p.hexaddr(1);
      if (p.is_file(2)) c.file = p.file(2);
      else c.size = p.size_arg(2);
      c.pattern = p.pattern(3);
      if (p.size() == 5) c.event = p.word(4, "event");
      break;
    case CfgOp::MemLoad:
      p.count(3, 4);
      c.mem = p.mem(0);
      c.addr = p.hexaddr(1);
      c.file = p.file(2);
      if (p.size() == 4) c.event = p.word(3, "event");
      break;
    case CfgOp::MemReserve:
      p.count(3, 4);
      c.mem = p.mem(0);
      c.addr = p.hexaddr(1);
      c.size = p.size_arg(2);
      if (p.size() == 4) c.event = p.word(3, "event");
      break;
    case CfgOp::MemRelease:
      p.count(3, 3);
      c.mem = p.mem(0);
      c.addr = p.hexaddr(1);
      c.event = p.word(2, "event");
      break;
    case CfgOp::CheckCrc:
      p.count(5, 5);
      c.event = p.word(0, "event");
      c.mem = p.mem(1);
      c.addr = p.hexaddr(2);
      c.size = p.size_arg(3);
      c.crc = p.crc(4);
      break;
    case CfgOp::CheckFile:
      p.count(5, 5);
      c.event = p.word(0, "event");
      c.mem = p.mem(1);
      c.addr = p.hexaddr(2);
      c.size = p.size_arg(3);
      c.file = p.file(4);
      break;
    case CfgOp::CheckNothing:
      p.count(1, 1);
      c.event = p.word(0, "event");
      break;
  }
  return c;
}

void parse_header_comment(std::string_view comment, CfgTrace& t) {
  comment = trim(comment);
  if (!starts_with(comment, "dlaverif ")) return;
  for (auto kv : split_ws(comment.substr(9))) {
    const auto eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    t.header.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
  }
}

}  // namespace

CfgTrace parse_cfg(const std::string& text, const std::string& path, const std::string& dir) {
  CfgTrace t;
  t.path = path;
  t.dir = dir;
  std::istringstream in(text);
  std::string raw;
  size_t line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (starts_with(line, "//")) {
      parse_header_comment(line.substr(2), t);
      continue;
    }
    const auto open = line.find('(');
    const std::string_view name = trim(line.substr(0, open == std::string_view::npos ? line.size() : open));
    const Syntax* syn = nullptr;
    for (const auto& s : kSyntax)
      if (name == s.name) syn = &s;
    if (!syn) {
      if (open == std::string_view::npos || !is_word(name))
        throw TraceError(path, line_no, "expected a command like reg_write(BLOCK.REGISTER, value); or a // comment, got " + quote(raw));
      throw TraceError(path, line_no,
                       "unknown command " + quote(name) +
                           " (expected reg_write, reg_read, reg_read_check, poll_reg_equal, sync_notify, sync_wait, "
                           "intr_notify, mem_init, mem_load, mem_reserve, mem_release, check_crc, check_file or "
                           "check_nothing)");
    }
    const auto close = line.find(')', open);
    if (close == std::string_view::npos)
      throw TraceError(path, line_no, std::string(syn->name) + ": missing ')'; expected " + syn->usage);
    std::string_view rest = trim(line.substr(close + 1));
    if (rest.empty() || rest.front() != ';')
      throw TraceError(path, line_no, std::string(syn->name) + ": missing ';' after ')'; expected " + syn->usage);
    rest = trim(rest.substr(1));
    std::string_view comment;
    if (!rest.empty()) {
      if (!starts_with(rest, "//"))
        throw TraceError(path, line_no, "unexpected text " + quote(rest) + " after ';' (only a // comment may follow)");
      comment = rest.substr(2);
    }
    std::vector<std::string_view> args;
    const std::string_view inner = line.substr(open + 1, close - open - 1);
    if (!trim(inner).empty()) {
      size_t start = 0;
      for (size_t i = 0; i <= inner.size(); ++i)
        if (i == inner.size() || inner[i] == ',') {
          args.push_back(trim(inner.substr(start, i - start)));
          start = i + 1;
        }
    }
    for (auto a : args)
      if (a.empty())
        throw TraceError(path, line_no, std::string(syn->name) + ": empty argument; expected " + syn->usage);
    CfgCommand c = parse_command(*syn, line_no, std::move(args), path);
    apply_extension(c, comment, path);
    t.commands.push_back(std::move(c));
  }
  return t;
}

CfgTrace read_cfg_file(const std::string& path) {
  const std::string text = read_text_file(path, "trace file");
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return parse_cfg(text, path, dir);
}

}  // namespace dla::trace
