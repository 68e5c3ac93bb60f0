// regs.access: reset values and write/read-back of every register of a configuration, plus
// directed checks of GLB interrupts and of the ping-pong register groups.
#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "dla/golden_model.h"
#include "dla/rng.h"
#include "generators.h"
#include "program_builder.h"

namespace dla::stimulus {

namespace {

struct Masks {
  uint32_t writable = 0, hw = 0, const_value = 0;
  bool side_effects = false;  // trigger or hardware-modified field
};

Masks masks_of(const RegInfo& r) {
  Masks m;
  for (const FieldInfo& f : r.fields) {
    if (f.trigger || f.hw_modified) m.side_effects = true;
    switch (f.access) {
      case Access::RW: (f.hw_modified ? m.hw : m.writable) |= f.store_mask; break;
      case Access::RO: m.hw |= f.store_mask; break;
      case Access::CONST: m.const_value |= (f.reset << f.lsb) & f.store_mask; break;
      case Access::WO: break;
    }
  }
  return m;
}

// Read value after reset: every field but write-only ones holds its reset value, except a
// status the unit sets on its own before a test may start: CDMA flushes CBUF once after reset
// (FLUSH_DONE reads 1; NVDLA needs ~8k idle cycles for it, docs/nvdla-differential.md).
uint32_t reset_read(const RegInfo& r) {
  uint32_t v = 0;
  for (const FieldInfo& f : r.fields) {
    if (f.access == Access::WO) continue;
    const bool flushed = r.unit == Unit::CDMA && r.name == "S_CBUF_FLUSH_STATUS" && f.name == "FLUSH_DONE";
    v |= ((flushed ? 1u : f.reset) << f.lsb) & f.store_mask;
  }
  return v;
}

// Bits of single-register access ports that move when another register is accessed (the
// LUT address auto-increments on every S_LUT_ACCESS_DATA access): no fixed reset value in a
// shuffled read order.
uint32_t port_bits(const RegInfo& r) {
  uint32_t v = 0;
  for (const FieldInfo& f : r.fields)
    if (!r.dual && f.access == Access::RW && f.trigger && f.hw_modified) v |= f.store_mask;
  return v;
}

std::string full_name(const RegInfo& r) { return std::string(unit_name(r.unit)) + "." + r.name; }

bool is_pointer_or_enable(const RegInfo& r, const RegisterMap& map) {
  if (!map.dual_base(r.unit)) return false;
  return r.name == "S_POINTER" || r.name == "S_STATUS" || r.name == "D_OP_ENABLE";
}

Program make(const HwConfig& cfg, uint64_t seed, const Knobs& knobs, const TestGenerator& gen) {
  const KnobReader k(gen, knobs);
  const bool arm_idle_units = k.choice("arm_idle_units", {"yes", "no"}) == "yes";
  const bool trigger_registers = k.choice("trigger_registers", {"no", "yes"}) == "yes";
  const bool alias_checks = k.choice("alias_checks", {"no", "yes"}) == "yes";
  const bool lut_ports = k.choice("lut_ports", {"no", "yes"}) == "yes";
  Program p;
  ProgramBuilder b(cfg, p);
  const RegisterMap& map = b.map();
  Rng order = Rng::stream(seed, "regs.access.order");
  Rng values = Rng::stream(seed, "regs.access.values");

  std::vector<const RegInfo*> regs;
  for (const RegInfo& r : map.registers()) regs.push_back(&r);

  // Producer of each ping-pong unit as the program leaves it.
  std::array<unsigned, kUnitCount> producer{};
  auto select_group = [&](const RegInfo& r, unsigned g) {
    const unsigned u = static_cast<unsigned>(r.unit);
    if (producer[u] == g) return;
    const RegInfo* ptr = map.find(std::string(unit_name(r.unit)) + ".S_POINTER");
    b.write(map.address_of(*ptr), g);
    producer[u] = g;
  };

  // 1. Reset values, before any write (group 1 of the ping-pong units after switching PRODUCER).
  order.shuffle(regs);
  for (const RegInfo* r : regs)
    b.read(map.address_of(*r), ~port_bits(*r), reset_read(*r) & r->readable_mask(), "reset " + full_name(*r));
  for (const RegInfo* r : regs) {
    if (!r->dual || r->name == "D_OP_ENABLE") continue;
    select_group(*r, 1);
    b.read(map.address_of(*r), 0xffffffffu, reset_read(*r) & r->readable_mask(), "reset " + full_name(*r) + " group 1");
  }
  b.note("checked the reset value of " + std::to_string(regs.size()) + " registers");

  // 1b. BDMA's trigger registers (CFG_OP, CFG_LAUNCHn) act only on a write whose bit 0 is 1 and
  //     read back the last value written: written with bit 0 clear they are plain registers, so
  //     every other bit must read 0 and nothing may start. Re-read after part 2 wrote every other
  //     register: a decode that ignores the unit select would take another unit's word.
  constexpr std::array<const char*, 3> kTriggers = {"BDMA.CFG_OP", "BDMA.CFG_LAUNCH0", "BDMA.CFG_LAUNCH1"};
  if (trigger_registers && !map.find("BDMA.CFG_OP"))
    throw std::invalid_argument("regs.access: knob trigger_registers=yes needs BDMA, which configuration '" +
                                cfg.name + "' does not have");
  const bool check_triggers = trigger_registers;
  if (check_triggers) {
    for (const char* name : kTriggers) {
      const uint32_t a = b.addr(name);
      const uint32_t unique = static_cast<uint32_t>(values.next_u64());
      for (uint32_t v : {0xfffffffeu, 0x5a5a5a5au, 0xa5a5a5a4u, unique}) {
        b.write(a, v & ~1u);
        b.read(a, 0xffffffffu, 0u, fmt::format("write 0x{:08x} (no trigger) read back {}", v & ~1u, name));
      }
    }
    b.read(b.addr("BDMA.STATUS"), 0xffffffffu, reset_read(*map.find("BDMA.STATUS")), "BDMA.STATUS: nothing queued or launched");
    b.note("BDMA: CFG_OP, CFG_LAUNCH0/1 written with bit 0 clear read back 0, STATUS unchanged");
  }

  // 2. Write / read back of every software-writable register without side effects.
  struct Item {
    const RegInfo* reg;
    unsigned group;
    Masks m;
    uint32_t last = 0;
  };
  std::vector<Item> items;
  for (const RegInfo* r : regs) {
    const Masks m = masks_of(*r);
    if (m.writable == 0 || m.side_effects || is_pointer_or_enable(*r, map)) continue;
    items.push_back(Item{r, 0, m});
    if (r->dual) items.push_back(Item{r, 1, m});
  }
  order.shuffle(items);
  for (Item& it : items) {
    const uint32_t a = map.address_of(*it.reg);
    const std::string name = full_name(*it.reg) + (it.reg->dual ? " group " + std::to_string(it.group) : "");
    if (it.reg->dual) select_group(*it.reg, it.group);
    const uint32_t unique = static_cast<uint32_t>(values.next_u64());
    for (uint32_t v : {0u, 0xffffffffu, 0x5a5a5a5au, 0xa5a5a5a5u, unique}) {
      b.write(a, v);
      b.read(a, ~it.m.hw, (v & it.m.writable) | it.m.const_value,
             fmt::format("write 0x{:08x} read back {}", v, name));
    }
    it.last = unique;
  }
  // Every register still holds its own last value: no aliasing between registers or groups.
  for (const Item& it : items) {
    if (it.reg->dual) select_group(*it.reg, it.group);
    b.read(map.address_of(*it.reg), ~it.m.hw, (it.last & it.m.writable) | it.m.const_value,
           "final value of " + full_name(*it.reg) + (it.reg->dual ? " group " + std::to_string(it.group) : ""));
  }
  b.note("wrote 0, 0xffffffff, 0x5a5a5a5a, 0xa5a5a5a5 and a random value to " + std::to_string(items.size()) +
         " register copies (both groups of D_ registers) in seeded order, read each back, then re-read all");
  if (alias_checks) {
    // A write that also reaches another register shows above only when the other one's last
    // write came first. Writing all again in the reverse order catches it whatever the order.
    Rng alias = Rng::stream(seed, "regs.access.alias");
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
      if (it->reg->dual) select_group(*it->reg, it->group);
      it->last = static_cast<uint32_t>(alias.next_u64());
      b.write(map.address_of(*it->reg), it->last);
    }
    // Unmapped words one address bit away from a register's (a decoder bit stuck at 0 or 1
    // would take them for the register): written with random values, in both groups.
    std::vector<uint32_t> holes;
    for (const Item& it : items)
      for (unsigned bit = 2; bit < 12; ++bit) {
        const uint32_t h = map.address_of(*it.reg) ^ (1u << bit);
        if (!map.at(h) && std::find(holes.begin(), holes.end(), h) == holes.end()) holes.push_back(h);
      }
    for (unsigned g = 0; g < 2; ++g) {
      for (const Item& it : items)
        if (it.reg->dual) select_group(*it.reg, g);
      for (uint32_t h : holes) b.write(h, static_cast<uint32_t>(alias.next_u64()));
    }
    for (const Item& it : items) {
      if (it.reg->dual) select_group(*it.reg, it.group);
      b.read(map.address_of(*it.reg), ~it.m.hw, (it.last & it.m.writable) | it.m.const_value,
             "value of " + full_name(*it.reg) + (it.reg->dual ? " group " + std::to_string(it.group) : "") +
                 " after the reverse pass and the writes to unmapped words");
    }
    // The unmapped words read 0 (the register file's read mux has no entry for them), in both
    // groups: a write that landed in a hole would show here.
    for (unsigned g = 0; g < 2; ++g) {
      for (const Item& it : items)
        if (it.reg->dual) select_group(*it.reg, g);
      for (uint32_t h : holes) b.read(h, 0xffffffffu, 0, "unmapped word 0x" + fmt::format("{:x}", h) + " reads 0");
    }
    for (const Item& it : items)  // the groups as the re-read left them
      if (it.reg->dual) select_group(*it.reg, it.group);
    b.note("alias checks: all registers written again in reverse order, " + std::to_string(holes.size()) +
           " unmapped words one address bit off a register written in both groups, all re-read, the unmapped "
           "words read 0 in both groups");
  }
  if (check_triggers) {
    // Each trigger register's word offset written in another unit (a plain register with bit 0
    // writable, so the write would trigger if it reached BDMA), then the trigger register read.
    for (const char* name : kTriggers) {
      const uint32_t a = b.addr(name);
      for (const Item& it : items) {
        // same word in the unit's 4 KiB window: the units share the CSB request's 10-bit word
        if (it.reg->dual || it.reg->unit == Unit::BDMA || (map.address_of(*it.reg) & 0xfffu) != (a & 0xfffu) ||
            !(it.m.writable & 1u))
          continue;
        // The trigger register is read right after the write, while the CSB request still holds
        // that word and data (a decode that stores on anything but BDMA's own valid write takes
        // them); the other register's read-back comes after.
        const uint32_t other = map.address_of(*it.reg);
        b.write(other, 0xffffffffu);
        b.read(a, 0xffffffffu, 0u, fmt::format("{} after a write to {} (same word, another unit)", name, full_name(*it.reg)));
        b.read(other, ~it.m.hw, it.m.writable | it.m.const_value, "write 0xffffffff read back " + full_name(*it.reg));
        break;
      }
      b.read(a, 0xffffffffu, 0u, std::string("final value of ") + name + " (no other register's write reached it)");
    }
  }

  // 2b. The LUT access ports' address registers (SDP, CDP S_LUT_ACCESS_CFG): part 2 leaves them
  //     out, since the address counts up on every S_LUT_ACCESS_DATA access; with no data access
  //     in between they are plain registers, and every address bit (the top ones too: 257-entry
  //     tables) must read back what was written.
  if (lut_ports) {
    size_t ports = 0;
    for (const char* name : {"SDP.S_LUT_ACCESS_CFG", "CDP.S_LUT_ACCESS_CFG"}) {
      const RegInfo* r = map.find(name);
      if (!r) continue;
      ++ports;
      uint32_t rw = 0;
      for (const FieldInfo& f : r->fields)
        if (f.access == Access::RW) rw |= f.store_mask;
      const uint32_t a = map.address_of(*r);
      const uint32_t unique = static_cast<uint32_t>(values.next_u64());
      for (uint32_t v : {0u, 0xffffffffu, 0x5a5a5a5au, 0xa5a5a5a5u, unique}) {
        b.write(a, v);
        b.read(a, rw, v & rw, fmt::format("write 0x{:08x} read back {} (no data access)", v, name));
      }
    }
    if (ports == 0)
      throw std::invalid_argument("regs.access: knob lut_ports=yes needs SDP or CDP, which configuration '" + cfg.name +
                                  "' does not have");
    b.note("wrote and read back the LUT access ports' address registers");
  }

  // 3. GLB interrupts: SET raises status bits, STATUS clears on write-1, SET reads 0.
  if (const RegInfo* status = map.find("GLB.S_INTR_STATUS")) {
    uint32_t bits = 0;
    // Sources the configuration lacks (nv_small: BDMA, RUBIK) are tied off: never set.
    for (const FieldInfo& f : status->fields) {
      const auto source = unit_from_name(f.name.substr(0, f.name.find('_')));
      if (!source || cfg.has_unit(*source)) bits |= f.store_mask;
    }
    const uint32_t set = b.addr("GLB.S_INTR_SET"), st = b.addr("GLB.S_INTR_STATUS");
    b.write(b.addr("GLB.S_INTR_MASK"), 0);
    b.read(st, 0xffffffffu, 0u, "GLB.S_INTR_STATUS before any interrupt");
    b.write(set, 0x5a5a5a5au);
    b.read(set, 0xffffffffu, 0u, "GLB.S_INTR_SET reads 0");
    b.read(st, 0xffffffffu, 0x5a5a5a5au & bits, "GLB.S_INTR_STATUS after S_INTR_SET 0x5a5a5a5a");
    b.wait_intr(0x5a5a5a5au & bits, 1000);
    b.write(set, 0xa5a5a5a5u);
    b.read(st, 0xffffffffu, bits, "GLB.S_INTR_STATUS after S_INTR_SET 0xa5a5a5a5");
    b.write(st, 0);
    b.read(st, 0xffffffffu, bits, "GLB.S_INTR_STATUS write 0 clears nothing");
    b.write(st, 0x5a5a5a5au);
    b.read(st, 0xffffffffu, 0xa5a5a5a5u & bits, "GLB.S_INTR_STATUS write-1-to-clear 0x5a5a5a5a");
    b.write(st, 0xffffffffu);
    b.read(st, 0xffffffffu, 0u, "GLB.S_INTR_STATUS cleared");
    b.note("GLB: S_INTR_SET sets, S_INTR_STATUS write-1-to-clear, S_INTR_SET reads 0");
  }

  // 4. Ping-pong groups of units with no datapath: an armed group stays armed; writes to it
  //    (D_OP_ENABLE included) are dropped; S_STATUS shows RUNNING / PENDING. A DUT that has
  //    the datapath (NVIDIA's conv units) really runs with the random settings: arm_idle_units=no.
  //    Conv units run only when all five are armed, so one of them (chosen by the seed, each in
  //    turn) is left out: the pipeline never starts, whether or not the DUT implements it.
  const GoldenModel probe(cfg);
  if (!arm_idle_units) b.note("arm_idle_units=no: units without a datapath are not armed");
  constexpr std::array<Unit, 5> kConvUnits = {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC};
  const Unit conv_left_out = kConvUnits[seed % kConvUnits.size()];
  if (arm_idle_units) b.note(std::string(unit_name(conv_left_out)) + " is not armed: the conv pipeline must not start");
  for (unsigned u = 0; u < kUnitCount && arm_idle_units; ++u) {
    const Unit unit = static_cast<Unit>(u);
    // A conv unit armed alone waits for the rest of the pipeline, with or without a datapath.
    const bool waits_for_pipeline = unit == Unit::CDMA || unit == Unit::CSC || unit == Unit::CMAC_A ||
                                    unit == Unit::CMAC_B || unit == Unit::CACC;
    if (!map.dual_base(unit) || (probe.has_datapath(unit) && !waits_for_pipeline) || unit == conv_left_out) continue;
    const std::string un = unit_name(unit);
    const RegInfo* data = nullptr;
    for (const RegInfo* r : map.unit_registers(unit)) {
      const Masks m = masks_of(*r);
      if (r->dual && r->name != "D_OP_ENABLE" && !m.side_effects && m.writable) {
        data = r;
        break;
      }
    }
    if (!data) continue;
    const uint32_t wmask = masks_of(*data).writable;
    const uint32_t ptr = b.addr(un + ".S_POINTER"), stat = b.addr(un + ".S_STATUS"),
                   en = b.addr(un + ".D_OP_ENABLE"), d = map.address_of(*data);
    const std::string dn = full_name(*data);
    uint32_t v0 = static_cast<uint32_t>(values.next_u64()) & wmask, v1 = static_cast<uint32_t>(values.next_u64()) & wmask;
    if (v1 == v0) v1 = v0 ^ (wmask & (0u - wmask));  // differ in the lowest writable bit
    b.write(ptr, 0);
    b.write(d, v0);
    b.write(en, 1);
    b.read(stat, 0xffffffffu, 0x00000001u, un + ".S_STATUS group 0 RUNNING");
    b.read(en, 0xffffffffu, 1u, un + ".D_OP_ENABLE group 0 armed");
    b.write(d, ~v0);
    b.read(d, wmask, v0, dn + " write to armed group 0 dropped");
    b.write(en, 0);
    b.read(en, 0xffffffffu, 1u, un + ".D_OP_ENABLE write 0 to armed group dropped");
    b.write(ptr, 1);
    b.read(ptr, 0xffffffffu, 1u, un + ".S_POINTER PRODUCER=1 CONSUMER=0");
    b.read(en, 0xffffffffu, 0u, un + ".D_OP_ENABLE group 1 idle");
    b.write(d, v1);
    b.read(d, wmask, v1, dn + " group 1 writable while group 0 armed");
    b.write(en, 1);
    b.read(stat, 0xffffffffu, 0x00020001u, un + ".S_STATUS group 0 RUNNING, group 1 PENDING");
    b.write(d, ~v1);
    b.read(d, wmask, v1, dn + " write to armed group 1 dropped");
    b.write(ptr, 0);
    b.read(d, wmask, v0, dn + " group 0 kept its value");
    b.note(un + ": armed both groups (no datapath: they stay armed), checked dropped writes and S_STATUS");
  }
  return p;
}

}  // namespace

TestGenerator make_regs_access_generator() {
  TestGenerator g;
  g.name = "regs.access";
  g.description = "reset value and write/read-back (0, ~0, 0x5a5a5a5a, 0xa5a5a5a5) of every register, "
                  "GLB interrupt set/clear, ping-pong dropped writes and S_STATUS";
  g.knobs = {{"arm_idle_units", "yes",
              "arm both groups of each unit the golden model has no datapath for (conv units) and check they stay "
              "armed; 'no' for a DUT that implements them"},
             {"trigger_registers", "no",
              "'yes': also write BDMA's CFG_OP and CFG_LAUNCHn with bit 0 clear (no action) and check they read back 0"},
             {"alias_checks", "no",
              "'yes': write every register again in reverse order and the unmapped words one address bit off each, "
              "then re-read all (a write that reaches another register is caught whatever the order)"},
             {"lut_ports", "no",
              "'yes': also write SDP's and CDP's S_LUT_ACCESS_CFG (table, access type, address) with the four patterns "
              "and a random value and read each back, with no LUT data access in between"}};
  g.make = [g](const HwConfig& cfg, uint64_t seed, const Knobs& knobs) { return make(cfg, seed, knobs, g); };
  return g;
}

}  // namespace dla::stimulus
