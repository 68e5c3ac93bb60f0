#include "dla/trace_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "dla/golden_model.h"
#include "dla/register_map.h"
#include "dla/trace_crc32.h"
#include "dla/trace_surface.h"

namespace dla::trace {

namespace fs = std::filesystem;

namespace {

const char* port_token(MemPort p) { return p == MemPort::Dbb ? "pri_mem" : "sec_mem"; }

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out.empty() ? std::string("trace") : out;
}

struct Span {
  MemPort port;
  uint64_t begin, end;
};

class Exporter {
 public:
  Exporter(const Program& p, const HwConfig& cfg, const std::string& dir, const ExportOptions& o)
      : p_(p), cfg_(cfg), map_(RegisterMap::of(cfg)), dir_(dir), opt_(o), golden_(cfg, o.poison_seed) {
    stem_ = sanitize(o.name.empty() ? fs::absolute(dir).lexically_normal().filename().string() : o.name);
    if (const RegInfo* r = map_.find("GLB.S_INTR_STATUS")) {
      status_addr_ = map_.address_of(*r);
      for (const FieldInfo& f : r->fields) status_bits_ |= f.store_mask;
    }
    if (const RegInfo* r = map_.find("GLB.S_INTR_MASK")) mask_addr_ = map_.address_of(*r);
  }

  ExportResult run() {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) throw std::invalid_argument("cannot create trace directory '" + dir_ + "': " + ec.message());
    for (size_t i = 0; i < p_.ops.size(); ++i) {
      index_ = i;
      std::visit([this](const auto& o) { add(o); }, p_.ops[i]);
    }
    finish();
    return write();
  }

 private:
  std::string reg_symbol(uint32_t addr) const {
    const RegInfo* r = map_.at(addr);
    if (!r)
      throw std::invalid_argument(fmt::format("cannot export op {}: no register at CSB address 0x{:05x} in "
                                              "configuration '{}'",
                                              index_, addr, cfg_.name));
    return fmt::format("NVDLA_{}.{}_0", unit_name(r->unit), r->name);
  }

  static std::string comment(uint32_t mask, uint64_t timeout, const std::string& what) {
    std::string keys;
    if (mask != 0xffffffffu) keys += fmt::format(" mask=0x{:x}", mask);
    if (timeout) keys += fmt::format(" timeout={}", timeout);
    if (keys.empty()) return what.empty() ? "" : " // " + one_line(what);
    return " // dlaverif" + keys + (what.empty() ? "" : ": " + one_line(what));
  }

  // A memory command at time zero, or (once register traffic began) at this point of the
  // stream through an event fired right here.
  void memory_line(const std::string& head, const std::string& tail) {
    if (!started_) {
      memory_.push_back(head + tail + ");");
      return;
    }
    const std::string ev = fmt::format("mem_{}", ++events_);
    body_.push_back(fmt::format("sync_notify(NVDLA_GLB, {});", ev));
    body_.push_back(head + tail + ", " + ev + ");");
  }

  std::string data_file(const std::vector<uint8_t>& bytes) {
    const std::string name = fmt::format("{}_mem{}.dat", stem_, files_.size());
    files_.emplace_back(name, surface_from_bytes(bytes));
    return name;
  }

  void add(const MemLoad& m) {
    golden_.memory(m.port).load(m.addr, m.bytes.data(), m.bytes.size());
    inputs_.push_back({m.port, m.addr, m.addr + m.bytes.size()});
    memory_line(fmt::format("mem_load({}, 0x{:x}, \"{}\"", port_token(m.port), m.addr, data_file(m.bytes)), "");
  }

  void add(const MemFill& f) {
    std::vector<uint8_t> bytes(static_cast<size_t>(f.size));
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = f.address_byte ? static_cast<uint8_t>(f.addr + i) : f.value;
    golden_.memory(f.port).load(f.addr, bytes.data(), bytes.size());
    inputs_.push_back({f.port, f.addr, f.addr + f.size});
    const char* pattern = f.address_byte ? "ADDR" : f.value == 0 ? "ALL_ZERO" : f.value == 0xff ? "ONES"
                        : f.value == 0xa5 ? "AFIVE" : f.value == 0x5a ? "FIVEA" : nullptr;
    if (pattern)
      memory_line(fmt::format("mem_init({}, 0x{:x}, 0x{:x}, {}", port_token(f.port), f.addr, f.size, pattern), "");
    else
      memory_line(fmt::format("mem_load({}, 0x{:x}, \"{}\"", port_token(f.port), f.addr, data_file(bytes)), "");
  }

  void add(const RegWrite& w) {
    started_ = true;
    body_.push_back(fmt::format("reg_write({}, 0x{:x});", reg_symbol(w.addr), w.data));
    golden_.csb_write(w.addr, w.data);
  }

  void add(const RegRead& r) {
    if (r.zero_ok)
      throw std::invalid_argument(fmt::format("cannot export op {}: a read that also accepts 0 ({}) has no .cfg form",
                                              index_, r.what));
    started_ = true;
    const uint32_t v = golden_.csb_read(r.addr);
    const uint32_t expect = (r.expect ? *r.expect : v) & r.mask;
    body_.push_back(fmt::format("reg_read_check({}, 0x{:x});{}", reg_symbol(r.addr), expect, comment(r.mask, 0, r.what)));
  }

  void add(const PollReg& p) {
    started_ = true;
    if (p.compare != RegCompare::Eq)
      throw std::invalid_argument(fmt::format("cannot export op {}: a <= or >= register poll has no .cfg form", index_));
    golden_.csb_read(p.addr);
    body_.push_back(fmt::format("poll_reg_equal({}, 0x{:x});{}", reg_symbol(p.addr), p.expect & p.mask,
                                comment(p.mask, p.timeout_cycles, p.what)));
  }

  void add(const WaitIntr& w) {
    started_ = true;
    body_.push_back(fmt::format("poll_reg_equal({}, 0x{:x});{}", reg_symbol(status_addr_), w.status_bits,
                                comment(w.status_bits, w.timeout_cycles,
                                        w.what.empty() ? fmt::format("wait for interrupt status 0x{:x}", w.status_bits)
                                                       : w.what)));
  }

  void add(const WaitIntrLine& w) {
    started_ = true;
    // The line is STATUS & ~MASK: wait for the bits the golden model has up at this point.
    const uint32_t unmasked = ~golden_.csb_read(mask_addr_) & status_bits_;
    uint32_t bits = golden_.intr_status() & unmasked;
    if (!bits) bits = unmasked;  // the golden model never raises it: keep the wait failing
    body_.push_back(fmt::format("poll_reg_equal({}, 0x{:x});{}", reg_symbol(status_addr_), bits,
                                comment(bits, w.timeout_cycles, w.what.empty() ? "wait for the interrupt" : w.what)));
  }

  void add(const Idle& i) { body_.push_back(fmt::format("// idle {} cycles (RTL timing only, not replayed)", i.cycles)); }

  void add(const CheckCrc& c) {
    started_ = true;
    const std::string ev = fmt::format("check_{}", ++events_);
    body_.push_back(fmt::format("sync_notify(NVDLA_GLB, {});", ev));
    body_.push_back(fmt::format("check_crc({}, {}, 0x{:x}, 0x{:x}, 0x{:08x});{}", ev, port_token(c.port), c.addr, c.size,
                                c.crc, comment(0xffffffffu, 0, c.what)));
    windows_.push_back({c.port, c.addr, c.addr + c.size});
    ++crc_checks_;
  }

  void add(const CheckMem& c) {
    started_ = true;
    const std::string ev = fmt::format("check_{}", ++events_);
    body_.push_back(fmt::format("sync_notify(NVDLA_GLB, {});", ev));
    body_.push_back(fmt::format("check_file({}, {}, 0x{:x}, 0x{:x}, \"{}\");{}", ev, port_token(c.port), c.addr,
                                c.expect.size(), data_file(c.expect), comment(0xffffffffu, 0, c.what)));
  }

  // End of test: a CRC of every range the golden model wrote.
  void finish() {
    body_.push_back("sync_notify(NVDLA_GLB, end_of_test);");
    size_t n = 0;
    for (MemPort port : {MemPort::Dbb, MemPort::Sram}) {
      if (port == MemPort::Sram && !cfg_.sram_if) continue;
      const SparseMemory& mem = golden_.memory(port);
      std::vector<Span> runs;
      mem.for_each_page_with_footprint([&](uint64_t base, const uint8_t*, const uint8_t*, const uint8_t* fp) {
        for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i) {
          if (!fp[i]) continue;
          if (!runs.empty() && runs.back().end == base + i) ++runs.back().end;
          else runs.push_back({port, base + i, base + i + 1});
        }
      });
      for (const Span& s : runs) {
        body_.push_back(fmt::format("check_crc(end_of_test, {}, 0x{:x}, 0x{:x}, 0x{:08x});", port_token(port), s.begin,
                                    s.end - s.begin, crc32(mem, s.begin, s.end - s.begin)));
        windows_.push_back(s);
        ++n;
      }
    }
    crc_checks_ += n;
    if (n == 0) body_.push_back("check_nothing(end_of_test);");
    // Declare the checked windows the trace does not load (the DUT writes them).
    for (const Span& w : windows_) {
      std::vector<Span> covered;
      for (const Span& s : inputs_)
        if (s.port == w.port && s.end > w.begin && s.begin < w.end) covered.push_back(s);
      std::sort(covered.begin(), covered.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
      uint64_t at = w.begin;
      for (const Span& s : covered) {
        if (s.begin > at) reserve(w.port, at, s.begin);
        at = std::max(at, s.end);
      }
      if (at < w.end) reserve(w.port, at, w.end);
    }
  }

  void reserve(MemPort port, uint64_t begin, uint64_t end) {
    memory_.push_back(fmt::format("mem_reserve({}, 0x{:x}, 0x{:x});", port_token(port), begin, end - begin));
    inputs_.push_back({port, begin, end});
  }

  ExportResult write() {
    ExportResult res;
    res.cfg_path = (fs::path(dir_) / (stem_ + ".cfg")).string();
    std::ofstream f(res.cfg_path);
    f << fmt::format("// NVDLA .cfg trace exported by dlaverif: test {}, seed {}, configuration {}\n", p_.test,
                     p_.seed, cfg_.name);
    f << fmt::format("// dlaverif config={} seed={} test={}\n", cfg_.name, p_.seed, sanitize(p_.test));
    if (!opt_.repro.empty()) f << "// exported from: " << one_line(opt_.repro) << "\n";
    f << fmt::format("// replay: dlaverif trace {} --config {}\n", dir_, cfg_.name);
    for (const auto& l : memory_) f << l << "\n";
    for (const auto& l : body_) f << l << "\n";
    if (!f) throw std::runtime_error("cannot write " + res.cfg_path);
    for (const auto& [name, surface] : files_) write_surface_file((fs::path(dir_) / name).string(), surface);
    res.data_files = files_.size();
    res.crc_checks = crc_checks_;
    res.lines = memory_.size() + body_.size();
    return res;
  }

  const Program& p_;
  const HwConfig& cfg_;
  const RegisterMap& map_;
  std::string dir_;
  ExportOptions opt_;
  GoldenModel golden_;
  std::string stem_;
  uint32_t status_addr_ = 0, mask_addr_ = 0, status_bits_ = 0;
  size_t index_ = 0, events_ = 0, crc_checks_ = 0;
  bool started_ = false;
  std::vector<std::string> memory_, body_;
  std::vector<std::pair<std::string, Surface>> files_;
  std::vector<Span> inputs_, windows_;
};

}  // namespace

ExportResult export_trace(const Program& program, const HwConfig& cfg, const std::string& dir,
                          const ExportOptions& options) {
  return Exporter(program, cfg, dir, options).run();
}

}  // namespace dla::trace
