#include "program_executor.h"

#include <fmt/format.h>

#include <algorithm>

namespace dla::test {

ExecResult execute(const Program& p, GoldenModel& m) {
  ExecResult r;
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const ProgramOp& op = p.ops[i];
    if (const auto* load = std::get_if<MemLoad>(&op)) {
      m.memory(load->port).write(load->addr, load->bytes);
    } else if (const auto* w = std::get_if<RegWrite>(&op)) {
      m.csb_write(w->addr, w->data);
    } else if (const auto* rd = std::get_if<RegRead>(&op)) {
      ++r.reads;
      const uint32_t v = m.csb_read(rd->addr) & rd->mask;
      if (rd->expect && v != (*rd->expect & rd->mask))
        r.failures.push_back(fmt::format("op {}: {} at 0x{:05x}: read 0x{:08x}, expected 0x{:08x}", i, rd->what,
                                         rd->addr, v, *rd->expect & rd->mask));
    } else if (const auto* c = std::get_if<CheckMem>(&op)) {
      const std::vector<uint8_t> got = m.memory(c->port).read(c->addr, c->expect.size());
      const auto diff = std::mismatch(got.begin(), got.end(), c->expect.begin());
      if (diff.first != got.end())
        r.failures.push_back(fmt::format("op {}: {}: {} byte 0x{:x} is 0x{:02x}, expected 0x{:02x}", i, c->what,
                                         mem_port_name(c->port), c->addr + static_cast<uint64_t>(diff.first - got.begin()),
                                         *diff.first, *diff.second));
    } else if (const auto* wait = std::get_if<WaitIntr>(&op)) {
      ++r.waits;
      if ((m.intr_status() & wait->status_bits) != wait->status_bits)
        r.failures.push_back(fmt::format("op {}: wait for interrupt bits 0x{:x} would hang (status 0x{:x})", i,
                                         wait->status_bits, m.intr_status()));
    }
  }
  return r;
}

std::string writes_and_loads(const Program& p) {
  std::string s;
  for (const ProgramOp& op : p.ops) {
    if (const auto* w = std::get_if<RegWrite>(&op)) s += fmt::format("w {:x} {:x}\n", w->addr, w->data);
    if (const auto* l = std::get_if<MemLoad>(&op))
      s += fmt::format("l {} {:x} {}\n", static_cast<unsigned>(l->port), l->addr, l->bytes.size());
  }
  return s;
}

}  // namespace dla::test
