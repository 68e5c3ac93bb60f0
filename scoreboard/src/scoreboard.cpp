#include "dla/scoreboard.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "dla/counter_signature.h"
#include "dla/register_map.h"

namespace dla {

namespace {

struct PageRef {
  const uint8_t* data = nullptr;
  const uint8_t* written = nullptr;
  const uint8_t* footprint = nullptr;
};

std::map<uint64_t, PageRef> pages_of(const SparseMemory& m) {
  std::map<uint64_t, PageRef> pages;
  m.for_each_page_with_footprint([&](uint64_t base, const uint8_t* d, const uint8_t* w, const uint8_t* f) {
    pages[base] = PageRef{d, w, f};
  });
  return pages;
}

std::string hex_bytes(const std::vector<uint8_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{:02x}", i ? " " : "", v[i]);
  return s;
}

// Names of the bits set in `bits` according to GLB S_INTR_STATUS.
std::string intr_bit_names(const HwConfig& cfg, uint32_t bits) {
  const RegInfo* r = RegisterMap::of(cfg).find("GLB.S_INTR_STATUS");
  std::string out;
  for (unsigned b = 0; b < 32; ++b) {
    if (!(bits >> b & 1u)) continue;
    std::string name = fmt::format("bit{}", b);
    if (r)
      for (const FieldInfo& f : r->fields)
        if (f.lsb == b) name = f.name;
    out += (out.empty() ? "" : ",") + name;
  }
  return out;
}

}  // namespace

const char* mismatch_kind_name(MismatchKind k) {
  switch (k) {
    case MismatchKind::MemData: return "mem-data";
    case MismatchKind::MemOutside: return "mem-outside";
    case MismatchKind::Register: return "reg";
    case MismatchKind::Interrupt: return "intr";
    case MismatchKind::Protocol: return "protocol";
    case MismatchKind::Hang: return "hang";
    case MismatchKind::Perf: return "perf";
  }
  return "?";
}

Scoreboard::Scoreboard(const HwConfig& cfg, Options options) : cfg_(cfg), options_(options) {}

void Scoreboard::annotate(MemPort port, uint64_t begin, uint64_t end, const std::string& unit) {
  annotations_.push_back(Annotation{port, begin, end, unit});
}

std::string Scoreboard::unit_of(MemPort port, uint64_t addr) const {
  for (const Annotation& a : annotations_)
    if (a.port == port && addr >= a.begin && addr < a.end) return a.unit;
  return "";
}

uint64_t Scoreboard::compare_memory(MemPort port, const SparseMemory& expected, const SparseMemory& actual) {
  const auto exp_pages = pages_of(expected);
  const auto act_pages = pages_of(actual);
  std::vector<uint64_t> bases;
  for (const auto& kv : exp_pages) bases.push_back(kv.first);
  for (const auto& kv : act_pages) bases.push_back(kv.first);
  std::sort(bases.begin(), bases.end());
  bases.erase(std::unique(bases.begin(), bases.end()), bases.end());

  uint64_t differing = 0;
  size_t ranges = 0;
  std::optional<Mismatch> open;
  auto flush = [&]() {
    if (!open) return;
    Mismatch& m = *open;
    const bool data = m.kind == MismatchKind::MemData;
    m.signature = fmt::format("{}:{}{}", mismatch_kind_name(m.kind), m.unit.empty() ? "" : m.unit + ":",
                              mem_port_name(port));
    m.message = fmt::format("{} {} 0x{:x}..0x{:x} ({} byte{}){}: expected [{}{}] actual [{}{}]",
                            data ? "data mismatch" : "wrote outside its output", mem_port_name(port),
                            m.addr, m.addr + m.length - 1, m.length, m.length == 1 ? "" : "s",
                            m.unit.empty() ? "" : " in " + m.unit + "'s range", hex_bytes(m.expected),
                            m.length > m.expected.size() ? " ..." : "", hex_bytes(m.actual),
                            m.length > m.actual.size() ? " ..." : "");
    if (ranges < options_.max_memory_ranges) mismatches_.push_back(std::move(m));
    else ++omitted_ranges_;
    ++ranges;
    open.reset();
  };

  for (uint64_t base : bases) {
    const auto e = exp_pages.find(base);
    const auto a = act_pages.find(base);
    const PageRef ep = e != exp_pages.end() ? e->second : PageRef{};
    const PageRef ap = a != act_pages.end() ? a->second : PageRef{};
    for (uint64_t i = 0; i < SparseMemory::kPageBytes; ++i) {
      const bool ew = ep.written && ep.written[i];
      const bool aw = ap.written && ap.written[i];
      if (!ew && !aw) continue;
      const uint64_t addr = base + i;
      const uint8_t ev = ep.data ? ep.data[i] : expected.poison_byte(addr);
      const uint8_t av = ap.data ? ap.data[i] : actual.poison_byte(addr);
      if (ew == aw && ev == av) continue;
      ++differing;
      const MismatchKind kind = ep.footprint && ep.footprint[i] ? MismatchKind::MemData : MismatchKind::MemOutside;
      std::string unit = unit_of(port, addr);
      if (!open || open->kind != kind || open->unit != unit || open->addr + open->length != addr) {
        flush();
        open = Mismatch{};
        open->kind = kind;
        open->unit = std::move(unit);
        open->port = port;
        open->addr = addr;
      }
      ++open->length;
      if (open->expected.size() < options_.max_bytes_shown) {
        open->expected.push_back(ev);
        open->actual.push_back(av);
      }
    }
  }
  flush();
  differing_bytes_ += differing;
  return differing;
}

bool Scoreboard::compare_register(uint32_t addr, const std::string& name, uint32_t mask, uint32_t expected,
                                  uint32_t actual) {
  if ((expected & mask) == (actual & mask)) return true;
  std::string reg = name;
  std::string unit, counter;
  if (const RegInfo* r = RegisterMap::of(cfg_).at(addr)) {
    unit = unit_name(r->unit);
    if (reg.empty()) reg = unit + "." + r->name;
    counter = status_counter_name(*r);
  } else if (const auto u = cfg_.unit_at(addr)) {
    unit = unit_name(*u);
  }
  if (reg.empty()) reg = fmt::format("0x{:05x}", addr);
  Mismatch m;
  m.kind = MismatchKind::Register;
  m.unit = unit;
  m.name = reg;
  m.reg_addr = addr;
  m.mask = mask;
  m.expected_value = expected & mask;
  m.actual_value = actual & mask;
  m.signature = counter.empty() ? "reg:" + reg : counter_signature(counter, m.actual_value, m.expected_value);
  m.message = fmt::format("{} {} (0x{:05x}) mask 0x{:08x}: expected 0x{:08x} actual 0x{:08x} (bits 0x{:08x} differ)",
                          counter.empty() ? "register" : "counter", reg, addr, mask, m.expected_value, m.actual_value, m.expected_value ^ m.actual_value);
  add(std::move(m));
  return false;
}

bool Scoreboard::compare_interrupt(const std::string& when, uint32_t expected_status, uint32_t actual_status) {
  if (expected_status == actual_status) return true;
  const uint32_t missing = expected_status & ~actual_status, extra = actual_status & ~expected_status;
  Mismatch m;
  m.kind = MismatchKind::Interrupt;
  m.unit = "GLB";
  m.name = intr_bit_names(cfg_, missing | extra);
  m.expected_value = expected_status;
  m.actual_value = actual_status;
  m.signature = "intr:" + m.name;
  m.message = fmt::format("interrupt status {}: expected 0x{:08x} actual 0x{:08x}{}{}", when, expected_status,
                          actual_status, missing ? "; missing " + intr_bit_names(cfg_, missing) : "",
                          extra ? "; unexpected " + intr_bit_names(cfg_, extra) : "");
  add(std::move(m));
  return false;
}

bool Scoreboard::compare_interrupt_line(const std::string& when, bool expected, bool actual) {
  if (expected == actual) return true;
  Mismatch m;
  m.kind = MismatchKind::Interrupt;
  m.unit = "GLB";
  m.name = "line";
  m.expected_value = expected;
  m.actual_value = actual;
  m.signature = "intr:line";
  m.message = fmt::format("interrupt line {}: expected {} actual {}", when, expected ? "high" : "low",
                          actual ? "high" : "low");
  add(std::move(m));
  return false;
}

void Scoreboard::add_protocol_violation(const std::string& rule, const std::string& detail) {
  Mismatch m;
  m.kind = MismatchKind::Protocol;
  m.name = rule;
  m.signature = "protocol:" + rule;
  m.message = "protocol violation " + rule + ": " + detail;
  add(std::move(m));
}

void Scoreboard::add_hang(const std::string& where, const std::string& detail) {
  Mismatch m;
  m.kind = MismatchKind::Hang;
  m.name = where;
  m.signature = "hang:" + where;
  m.message = "hang (" + where + "): " + detail;
  add(std::move(m));
}

void Scoreboard::add(Mismatch m) {
  if (m.signature.empty()) m.signature = mismatch_kind_name(m.kind);
  mismatches_.push_back(std::move(m));
}

std::string Scoreboard::signature() const {
  for (MismatchKind first : {MismatchKind::Protocol, MismatchKind::Hang})
    for (const Mismatch& m : mismatches_)
      if (m.kind == first) return m.signature;
  return mismatches_.empty() ? std::string() : mismatches_.front().signature;
}

std::string Scoreboard::report() const {
  if (passed()) return "PASS: no mismatch\n";
  std::string out = fmt::format("FAIL [{}]: {} mismatch{}", signature(), mismatches_.size() + omitted_ranges_,
                                mismatches_.size() + omitted_ranges_ == 1 ? "" : "es");
  if (differing_bytes_) out += fmt::format(", {} differing memory byte{}", differing_bytes_, differing_bytes_ == 1 ? "" : "s");
  out += "\n";
  for (const Mismatch& m : mismatches_) out += "  " + m.message + "\n";
  if (omitted_ranges_) out += fmt::format("  ... and {} more memory range(s) not listed\n", omitted_ranges_);
  return out;
}

nlohmann::json Scoreboard::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const Mismatch& m : mismatches_) {
    nlohmann::json j = {{"kind", mismatch_kind_name(m.kind)}, {"signature", m.signature}, {"message", m.message}};
    if (!m.unit.empty()) j["unit"] = m.unit;
    if (!m.name.empty()) j["name"] = m.name;
    if (m.port) {
      j["port"] = mem_port_name(*m.port);
      j["addr"] = fmt::format("0x{:x}", m.addr);
      j["length"] = m.length;
      j["expected"] = hex_bytes(m.expected);
      j["actual"] = hex_bytes(m.actual);
    } else if (m.kind == MismatchKind::Register || m.kind == MismatchKind::Interrupt) {
      if (m.kind == MismatchKind::Register) {
        j["addr"] = fmt::format("0x{:05x}", m.reg_addr);
        j["mask"] = fmt::format("0x{:08x}", m.mask);
      }
      j["expected"] = fmt::format("0x{:08x}", m.expected_value);
      j["actual"] = fmt::format("0x{:08x}", m.actual_value);
    }
    list.push_back(std::move(j));
  }
  return {{"passed", passed()},
          {"signature", signature()},
          {"mismatch_count", mismatches_.size() + omitted_ranges_},
          {"differing_memory_bytes", differing_bytes_},
          {"omitted_memory_ranges", omitted_ranges_},
          {"mismatches", std::move(list)}};
}

}  // namespace dla
