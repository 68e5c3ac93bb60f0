#!/usr/bin/env python3
"""Generate register blocks, configuration defines and C++ tables for dlaverif.

Inputs: the register description (rtl/regs/registers.csv) and the hardware
configurations (rtl/configs/*.yaml). Outputs go to the build tree only:

  --out-rtl DIR --config FILE   SystemVerilog for one configuration:
                                dla_cfg.svh, dla_<unit>_regs.sv, dla_<unit>_shell.sv
  --out-cpp DIR --configs F...  C++ for all configurations:
                                dla/regs.gen.h (field accessors), hwdesc_tables.gen.cpp

The register description has one row per field. Columns `<variant>_msb`,
`<variant>_lsb`, `<variant>_reset` override the base ("master") widths and reset
values for configurations whose `register_variant` is <variant>; empty = same.
See docs/registers.md for the access-type rules the RTL blocks implement.
"""
import argparse
import csv
import os
import sys

import yaml

UNITS = ["CFGROM", "GLB", "GEC", "MCIF", "CVIF", "BDMA", "CDMA", "CSC", "CMAC_A", "CMAC_B",
         "CACC", "SDP_RDMA", "SDP", "PDP_RDMA", "PDP", "CDP_RDMA", "CDP", "RBK"]
# Units with hand-written RTL around their generated register block (no shell).
REAL_RTL_UNITS = {"GLB", "BDMA", "CFGROM"}
PRECISIONS = ["int8", "int16", "fp16"]


class InputError(Exception):
    pass


# ----------------------------------------------------------------------------- model
class Field:
    def __init__(self, row, variant, src):
        self.name = row["field"]
        self.msb = int(row["msb"])
        self.lsb = int(row["lsb"])
        self.reset = int(row["reset"], 16)
        sw, _, spec = row["sw_access"].partition("/spec:")
        if sw not in ("r", "rw", "w") or not spec:
            raise InputError(f"{src}: field {row['unit']}.{row['register']}.{self.name}: "
                             f"bad sw_access '{row['sw_access']}' (expected r|rw|w/spec:...)")
        self.sw = sw
        self.spec = spec
        self.enums = row["enums"]
        # Storage range and reset of this configuration's variant.
        self.smsb, self.slsb, self.sreset = self.msb, self.lsb, self.reset
        if variant != "master":
            m, l, r = (row.get(f"{variant}_{k}", "") for k in ("msb", "lsb", "reset"))
            if m:
                self.smsb = int(m)
            if l:
                self.slsb = int(l)
            if r:
                self.sreset = int(r, 16)
        if not (0 <= self.lsb <= self.msb <= 31 and self.lsb <= self.slsb <= self.smsb <= self.msb):
            raise InputError(f"{src}: field {row['unit']}.{row['register']}.{self.name}: "
                             f"bad bit range [{self.msb}:{self.lsb}] / storage [{self.smsb}:{self.slsb}]")
        self.trigger = "t" in spec
        self.hw_modified = "o" in spec

    def kind(self, unit, reg):
        """How the RTL block treats the field (see docs/registers.md)."""
        if unit == "CFGROM" or self.spec == "c":
            return "const"
        if self.sw == "r":
            return "ro"
        if self.sw == "w":
            return "wo"
        if reg == "D_OP_ENABLE" and self.name == "OP_EN":
            return "op_en"
        if reg == "S_POINTER" or reg == "S_STATUS":
            return "pointer"
        if self.hw_modified:
            return "hw"
        return "rw"

    @property
    def width(self):
        return self.msb - self.lsb + 1

    def mask(self, storage=True):
        m, l = (self.smsb, self.slsb) if storage else (self.msb, self.lsb)
        return ((1 << (m + 1)) - 1) & ~((1 << l) - 1)


class Register:
    def __init__(self, unit, name, offset, dual):
        self.unit, self.name, self.offset, self.dual = unit, name, offset, dual
        self.fields = []

    def reset_value(self):
        v = 0
        for f in self.fields:
            v |= (f.sreset << f.lsb) & f.mask()
        return v

    def has_strobe(self):
        return any(f.kind(self.unit, self.name) in ("wo", "hw") or
                   (f.trigger and f.kind(self.unit, self.name) == "rw") for f in self.fields)


def load_registers(path, variant):
    regs = {}
    with open(path, newline="") as fh:
        for lineno, row in enumerate(csv.DictReader(fh), start=2):
            src = f"{path}:{lineno}"
            unit = row["unit"]
            if unit not in UNITS:
                raise InputError(f"{src}: unknown unit '{unit}'")
            key = (unit, row["register"])
            if key not in regs:
                regs[key] = Register(unit, row["register"], int(row["offset"], 16),
                                     row["group"] == "dual")
            regs[key].fields.append(Field(row, variant, src))
    by_unit = {}
    for r in regs.values():
        by_unit.setdefault(r.unit, []).append(r)
    for u in by_unit:
        by_unit[u].sort(key=lambda r: r.offset)
    return by_unit


# CFGROM words that are plain numbers of the configuration, derived from its file. The rest of
# the ROM (descriptors, data-type and capability bit sets) keeps the register description's
# values, which are nv_small's ROM: the description does not say how those bits encode other
# configurations. For `small` the derived words equal nv_small's ROM (a test checks it).
CFGROM_CONV_UNITS = ("CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC")


def cfgrom_words(c):
    """{register: value} of the derived CFGROM words of configuration c ({} without CFGROM)."""
    if not c.get("cfgrom"):
        return {}
    conv, thr, sdp = c["conv"], c["throughput"], c["sdp"]
    w = {"CFGROM_CIF_BASE_WIDTH": c["dbb"]["data_bits"] // 8,
         "CFGROM_CIF_BASE_MEM_ADDR_WIDTH": c["dbb"]["addr_bits"]}
    for u in CFGROM_CONV_UNITS:
        w[f"CFGROM_{u}_BASE_ATOMIC_C"] = conv["mac_atomic_c"]
        w[f"CFGROM_{u}_BASE_ATOMIC_K"] = conv["mac_atomic_k"]
    for u in ("CDMA", "CSC", "SDP_RDMA", "PDP_RDMA", "CDP_RDMA"):
        w[f"CFGROM_{u}_BASE_ATOMIC_M"] = c["atom_bytes"]
    for u in ("CDMA", "CBUF", "CSC"):
        w[f"CFGROM_{u}_BASE_CBUF_BANK_NUM"] = conv["cbuf_banks"]
        w[f"CFGROM_{u}_BASE_CBUF_BANK_WIDTH"] = conv["cbuf_entry_bytes"]
        w[f"CFGROM_{u}_BASE_CBUF_BANK_DEPTH"] = conv["cbuf_bank_entries"]
    for stage in ("bs", "bn", "ew"):
        w[f"CFGROM_SDP_{stage.upper()}_THROUGHPUT"] = thr["sdp"] if sdp.get(stage) else 0
    w["CFGROM_PDP_BASE_THROUGHPUT"] = thr["pdp"]
    w["CFGROM_CDP_BASE_THROUGHPUT"] = thr["cdp"]
    return w


def apply_cfgrom(c, regs):
    """Sets the derived CFGROM words of c as the reset values of regs' CFGROM fields."""
    words = cfgrom_words(c)
    by_name = {r.name: r for r in regs.get("CFGROM", [])}
    for name, value in words.items():
        r = by_name.get(name)
        if r is None or len(r.fields) != 1:
            raise InputError(f"register description: CFGROM word {name} is missing or not one field")
        f = r.fields[0]
        if value >> f.width:
            raise InputError(f"{c['name']}: CFGROM word {name} = {value} does not fit {f.width} bits")
        f.sreset = value
    return regs


def check_section(path, c, name, known):
    """An optional section `name` is a mapping of known keys only (a misspelt key would
    otherwise silently keep its default)."""
    s = c.get(name, {})
    if not isinstance(s, dict):
        raise InputError(f"{path}: '{name}' must be a mapping")
    for k in s:
        if k not in known:
            raise InputError(f"{path}: unknown key '{name}.{k}' (known: {', '.join(sorted(known))})")


CONV_NUMBERS = ("mac_atomic_c", "mac_atomic_k", "cbuf_banks", "cbuf_bank_entries", "cbuf_entry_bytes")
CONV_FLAGS = ("winograd", "batching", "compression", "sat_count_wraps")


def check_conv_section(path, c):
    """The convolution section (docs/conv.md): every key present, powers of two where the
    hardware indexes by bits, one kernel group = one int8 output surface."""
    if "conv" not in c:
        raise InputError(f"{path}: missing key 'conv' (convolution pipeline constants)")
    check_section(path, c, "conv", set(CONV_NUMBERS) | set(CONV_FLAGS))
    v = c["conv"]
    for k in CONV_NUMBERS:
        n = v.get(k)
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0 or n & (n - 1):
            raise InputError(f"{path}: conv.{k} must be a positive power of two")
    for k in CONV_FLAGS:
        if not isinstance(v.get(k), bool):
            raise InputError(f"{path}: conv.{k} must be true or false")
    if v["mac_atomic_k"] != c["atom_bytes"]:
        raise InputError(f"{path}: conv.mac_atomic_k must equal atom_bytes (one int8 kernel group fills one "
                         f"output surface)")
    if v["cbuf_entry_bytes"] % c["atom_bytes"]:
        raise InputError(f"{path}: conv.cbuf_entry_bytes must be a multiple of atom_bytes")


def check_buses(path, c):
    """DBB and secondary (SRAM) bus: a beat holds whole atoms; the SRAM bus exists exactly when
    sram_if is true and is as wide as the DBB (both ports share the units' client buses)."""
    check_section(path, c, "dbb", {"data_bits", "addr_bits"})
    dbb = c["dbb"]
    if dbb.get("data_bits") not in (64, 128, 256, 512):
        raise InputError(f"{path}: dbb.data_bits must be 64, 128, 256 or 512")
    if dbb.get("addr_bits") not in (32, 64):
        raise InputError(f"{path}: dbb.addr_bits must be 32 or 64")
    if dbb["data_bits"] < 8 * c["atom_bytes"]:
        raise InputError(f"{path}: dbb.data_bits must hold at least one atom (8 * atom_bytes = {8 * c['atom_bytes']})")
    if not isinstance(c["sram_if"], bool):
        raise InputError(f"{path}: sram_if must be true or false")
    check_section(path, c, "sram", {"data_bits"})
    if c["sram_if"] and "sram" not in c:
        raise InputError(f"{path}: sram_if is true but 'sram' (the secondary bus: {{data_bits: N}}) is missing")
    if not c["sram_if"] and "sram" in c:
        raise InputError(f"{path}: 'sram' is given but sram_if is false (a configuration without the secondary bus)")
    if c["sram_if"] and c["sram"].get("data_bits") != dbb["data_bits"]:
        raise InputError(f"{path}: sram.data_bits must equal dbb.data_bits (the two ports share the client buses)")


def check_throughput(path, c):
    """SDP/PDP/CDP elements per cycle: every key given, a power of two that divides the elements
    of one atom at the widest precision (the units cut atoms into throughput-wide slices)."""
    if "throughput" not in c:
        raise InputError(f"{path}: missing key 'throughput' (sdp, pdp, cdp elements per cycle)")
    check_section(path, c, "throughput", set(THROUGHPUT_UNITS))
    elems = c["atom_bytes"] // (2 if set(c["precisions"]) & {"int16", "fp16"} else 1)
    for k in THROUGHPUT_UNITS:
        n = c["throughput"].get(k)
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0 or n & (n - 1):
            raise InputError(f"{path}: throughput.{k} must be a positive power of two")
        if n > elems:
            raise InputError(f"{path}: throughput.{k} must not exceed the elements of one atom ({elems})")


THROUGHPUT_UNITS = ("sdp", "pdp", "cdp")


def load_config(path):
    try:
        with open(path) as fh:
            c = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as e:
        raise InputError(f"{path}: cannot read configuration: {e}")
    if not isinstance(c, dict):
        raise InputError(f"{path}: a configuration is a YAML mapping")
    need = ["name", "register_variant", "atom_bytes", "dbb", "sram_if", "precisions", "units"]
    for k in need:
        if k not in c:
            raise InputError(f"{path}: missing key '{k}'")
    for u in c["units"]:
        if u not in UNITS:
            raise InputError(f"{path}: unknown unit '{u}' (known: {', '.join(UNITS)})")
        if c["units"][u] % 0x1000:
            raise InputError(f"{path}: unit {u} base 0x{c['units'][u]:x} is not 4 KiB aligned")
    if c["name"] != os.path.splitext(os.path.basename(path))[0]:
        raise InputError(f"{path}: name '{c['name']}' must be the file's name without .yaml")
    if not c["precisions"] or not isinstance(c["precisions"], list):
        raise InputError(f"{path}: precisions must be a non-empty list")
    for p in c["precisions"]:
        if p not in PRECISIONS:
            raise InputError(f"{path}: unknown precision '{p}'")
    check_section(path, c, "sdp", {"bs", "bn", "ew", "lut", "sat_flag"})
    check_section(path, c, "pdp", {"line_buffer_atoms", "max_stripe_columns"})
    check_section(path, c, "cdp", {"out_saturation"})
    if c["atom_bytes"] not in (8, 16, 32, 64):
        raise InputError(f"{path}: atom_bytes must be 8, 16, 32 or 64")
    check_buses(path, c)
    check_throughput(path, c)
    check_conv_section(path, c)
    known_keys = {"name", "nvdla_names", "description", "register_variant", "atom_bytes", "dbb", "sram_if",
                  "sram", "cfgrom", "precisions", "sdp", "pdp", "throughput", "cdp", "bdma", "conv", "axi", "units"}
    for k in c:
        if k not in known_keys:
            raise InputError(f"{path}: unknown key '{k}' (known: {', '.join(sorted(known_keys))})")
    for k in ("bs", "bn", "ew", "lut"):
        if not isinstance(c.get("sdp", {}).get(k, False), bool):
            raise InputError(f"{path}: sdp.{k} must be true or false")
    if c.get("sdp", {}).get("lut") and not c["sdp"].get("ew"):
        raise InputError(f"{path}: sdp.lut needs sdp.ew (the LUT is part of the EW stage)")
    if not isinstance(c.get("cdp", {}).get("out_saturation", True), bool):
        raise InputError(f"{path}: cdp.out_saturation must be true or false")
    if c.get("sdp", {}).get("sat_flag", "margin") not in ("margin", "range"):
        raise InputError(f"{path}: sdp.sat_flag must be 'margin' or 'range'")
    lb = c.get("pdp", {}).get("line_buffer_atoms", 0)
    if not isinstance(lb, int) or isinstance(lb, bool) or lb < 0 or (lb and lb % 16):
        raise InputError(f"{path}: pdp.line_buffer_atoms must be 0 (no limit) or a positive multiple of 16")
    msc = c.get("pdp", {}).get("max_stripe_columns", 0)
    if not isinstance(msc, int) or isinstance(msc, bool) or msc < 0 or msc > 8192:
        raise InputError(f"{path}: pdp.max_stripe_columns must be 0 (no limit) or 1..8192")
    names = c.get("nvdla_names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise InputError(f"{path}: nvdla_names must be a list of names")
    c["_file"] = path
    return c


# ----------------------------------------------------------------------------- SV
def sv_port_name(reg, field):
    return f"{reg.name}_{field.name}".lower()


def gen_unit_regs(unit, regs):
    lo = unit.lower()
    dual_regs = [r for r in regs if r.dual]
    has_dual = bool(dual_regs)
    ports = ["  input  logic        clk", "  input  logic        rstn",
             "  input  logic        req_vld", "  input  logic        req_wr",
             "  input  logic [9:0]  req_word", "  input  logic [31:0] req_wdat",
             "  output logic [31:0] rd_data"]
    any_strobe = any(r.has_strobe() for r in regs)
    if any_strobe:
        ports.append("  output logic [31:0] wr_data")
    if has_dual:
        ports += ["  input  logic        op_done", "  output logic        op_en",
                  "  output logic        consumer", "  output logic        producer"]
    body = []
    decl = []
    read_cases = []
    unused_inputs = []

    def w(width):
        return f"[{width - 1}:0] " if width > 1 else ""

    dual_base = None
    if has_dual:
        dual_base = min(r.offset for r in dual_regs)
        opreg = [r for r in regs if r.name == "D_OP_ENABLE"]
        if not opreg or opreg[0].offset != dual_base:
            raise InputError(f"unit {unit}: D_OP_ENABLE must be the first dual register")
    for r in regs:
        word = r.offset >> 2
        kinds = [f.kind(unit, r.name) for f in r.fields]
        strobe = r.has_strobe()
        rname = r.name.lower()
        if strobe:
            ports.append(f"  output logic        {rname}_wr")
            body.append(f"  assign {rname}_wr = req_vld && req_wr && req_word == 10'd{word};")
        if r.name in ("S_POINTER", "S_STATUS") and has_dual:
            if r.name == "S_POINTER":
                read_cases.append(f"      10'd{word}: rd_data = {{15'd0, consumer, 15'd0, producer}};")
            else:
                read_cases.append(f"      10'd{word}: rd_data = {{14'd0, status1, 14'd0, status0}};")
            continue
        if r.name == "D_OP_ENABLE" and has_dual:
            read_cases.append(f"      10'd{word}: rd_data = {{31'd0, producer ? op_en1 : op_en0}};")
            continue
        # Each writable field is its own flop of the field's width: storing the whole 32-bit word
        # would add flops for the bits no write can set (constant, never toggled).
        stored = [f for f, k in zip(r.fields, kinds) if k == "rw"]
        stored_value = {}  # lsb -> (width, read expression)
        rd_terms = []
        slices = []
        groups = ["0", "1"] if r.dual else [""]
        for f in stored:
            # Only the configuration's storage range [smsb:slsb] is a flop; the field's other
            # bits read and drive 0.
            pn = sv_port_name(r, f)
            swidth = f.smsb - f.slsb + 1
            sel = f"[{f.smsb}:{f.slsb}]" if swidth > 1 else f"[{f.slsb}]"
            reset = ((f.sreset << f.lsb) & f.mask()) >> f.slsb
            for g in groups:
                q = f"q{g}_{pn}"
                decl.append(f"  logic {w(swidth)}{q};")
                cond = f"req_vld && req_wr && req_word == 10'd{word}"
                if r.dual:
                    cond += f" && producer == 1'b{g} && !op_en{g}"
                body.append(f"  always_ff @(posedge clk or negedge rstn)\n"
                            f"    if (!rstn) {q} <= {swidth}'h{reset:x};\n"
                            f"    else if ({cond}) {q} <= req_wdat{sel};")
            ports.append(f"  output logic {w(f.width)}{pn}")
            value = f"(producer ? q1_{pn} : q0_{pn})" if r.dual else f"q_{pn}"
            stored_value[f.slsb] = (swidth, value)
            held = f"consumer ? q1_{pn} : q0_{pn}" if r.dual else f"q_{pn}"
            pad_hi, pad_lo = f.msb - f.smsb, f.slsb - f.lsb
            if pad_hi or pad_lo:
                held = "{" + ", ".join(([f"{pad_hi}'d0"] if pad_hi else []) + [f"({held})"] +
                                       ([f"{pad_lo}'d0"] if pad_lo else [])) + "}"
            body.append(f"  assign {pn} = {held};")
        if stored_value:
            parts, bit = [], 32
            for lsb in sorted(stored_value, reverse=True):
                width, expr = stored_value[lsb]
                if bit > lsb + width:
                    parts.append(f"{bit - lsb - width}'d0")
                parts.append(expr)
                bit = lsb
            if bit > 0:
                parts.append(f"{bit}'d0")
            rd_terms.append(parts[0] if len(parts) == 1 else "{" + ", ".join(parts) + "}")
        for f, k in zip(r.fields, kinds):
            pn = sv_port_name(r, f)
            if k == "const":
                v = (f.sreset << f.lsb) & f.mask()
                rd_terms.append(f"32'h{v:08x}")
            elif k in ("ro", "hw"):
                ports.append(f"  input  logic {w(f.width)}{pn}")
                if k == "ro" and r.dual:
                    # Per-group copy: cleared when the group is armed, loaded at done.
                    for g in ("0", "1"):
                        c = f"c{g}_{pn}"
                        decl.append(f"  logic {w(f.width)}{c};")
                        body.append(
                            f"  always_ff @(posedge clk or negedge rstn)\n"
                            f"    if (!rstn) {c} <= '0;\n"
                            f"    else if (arm{g}) {c} <= '0;\n"
                            f"    else if (op_done && consumer == 1'b{g}) {c} <= {pn};")
                    val = f"(producer ? c1_{pn} : c0_{pn})"
                else:
                    val = pn
                rng = f"[{f.msb}:{f.lsb}]" if f.width > 1 else f"[{f.lsb}]"
                slices.append(f"rd_data{rng} = {val};")
        stmts = [f"rd_data = {' | '.join(rd_terms)};"] if rd_terms else []
        stmts += slices
        if not stmts:
            stmts = ["rd_data = 32'd0;"]
        read_cases.append(f"      10'd{word}: begin {' '.join(stmts)} end")
    if any_strobe:
        body.append("  assign wr_data = req_wdat;")
    pre = []
    if has_dual:
        dw = dual_base >> 2
        pre.append(f"""  // Ping-pong groups: D_ registers (word >= {dw}) exist twice.
  logic op_en0, op_en1;
  logic [1:0] status0, status1;
  logic wr_op_en, arm0, arm1;
  assign wr_op_en = req_vld && req_wr && req_word == 10'd{dw};
  // A write to an armed group (D_OP_ENABLE included) is dropped.
  assign arm0 = wr_op_en && producer == 1'b0 && !op_en0 && req_wdat[0];
  assign arm1 = wr_op_en && producer == 1'b1 && !op_en1 && req_wdat[0];
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin
      producer <= 1'b0; consumer <= 1'b0; op_en0 <= 1'b0; op_en1 <= 1'b0;
    end else begin
      if (req_vld && req_wr && req_word == 10'd{[r for r in regs if r.name == 'S_POINTER'][0].offset >> 2})
        producer <= req_wdat[0];
      if (arm0) op_en0 <= 1'b1;
      else if (op_done && consumer == 1'b0) op_en0 <= 1'b0;
      if (arm1) op_en1 <= 1'b1;
      else if (op_done && consumer == 1'b1) op_en1 <= 1'b0;
      if (op_done) consumer <= ~consumer;
    end
  assign op_en = consumer ? op_en1 : op_en0;
  assign status0 = !op_en0 ? 2'd0 : (consumer == 1'b0 ? 2'd1 : 2'd2);
  assign status1 = !op_en1 ? 2'd0 : (consumer == 1'b1 ? 2'd1 : 2'd2);""")
    unused = []
    if not any_strobe:
        unused.append("req_wdat")
    lines = [f"// Generated by rtl/regs/gen_regs.py from rtl/regs/registers.csv. Do not edit.",
             f"// Register block of unit {unit}.",
             "/* verilator lint_off UNUSEDSIGNAL */" if has_dual or True else "",
             f"module dla_{lo}_regs (",
             ",\n".join(ports),
             ");",
             "/* verilator lint_on UNUSEDSIGNAL */"]
    lines += decl + pre + body
    lines.append("  always_comb begin\n    rd_data = 32'd0;\n    if (req_vld && !req_wr) begin\n"
                 "      case (req_word)")
    lines += read_cases
    lines.append("      default: rd_data = 32'd0;\n      endcase\n    end\n  end")
    lines.append("endmodule")
    return "\n".join(l for l in lines if l != "") + "\n"


# Read-only fields whose value after the unit's own start-up differs from the reset value, as a
# test sees it (tests start after it): CDMA flushes CBUF once after reset (NVDLA: ~8k cycles;
# a shell has no CBUF, so the flush is done at once).
AFTER_INIT = {("CDMA", "S_CBUF_FLUSH_STATUS", "FLUSH_DONE"): 1}


def gen_unit_shell(unit, regs):
    """Register block with every hardware input tied off: a unit with no datapath yet."""
    lo = unit.lower()
    has_dual = any(r.dual for r in regs)
    conns = [".clk(clk)", ".rstn(rstn)", ".req_vld(req_vld)", ".req_wr(req_wr)",
             ".req_word(req_word)", ".req_wdat(req_wdat)", ".rd_data(rd_data)"]
    decl = []
    if any(r.has_strobe() for r in regs):
        decl.append("  logic [31:0] wr_data;")
        conns.append(".wr_data(wr_data)")
    if has_dual:
        decl += ["  logic op_en, consumer, producer;"]
        conns += [".op_done(1'b0)", ".op_en(op_en)", ".consumer(consumer)", ".producer(producer)"]
    for r in regs:
        if r.has_strobe():
            decl.append(f"  logic {r.name.lower()}_wr;")
            conns.append(f".{r.name.lower()}_wr({r.name.lower()}_wr)")
        for f in r.fields:
            k = f.kind(unit, r.name)
            pn = sv_port_name(r, f)
            if (r.name in ("S_POINTER", "S_STATUS") or r.name == "D_OP_ENABLE") and has_dual:
                continue
            if k == "rw":
                decl.append(f"  logic [{f.width - 1}:0] {pn};")
                conns.append(f".{pn}({pn})")
            elif k in ("ro", "hw"):
                # Tie to the reset value: what the register reads before any hardware acts;
                # or to what it reads once the unit has initialised itself (AFTER_INIT).
                value = AFTER_INIT.get((unit, r.name, f.name), f.sreset)
                conns.append(f".{pn}({f.width}'h{value:x})")
    return (f"// Generated by rtl/regs/gen_regs.py. Do not edit.\n"
            f"// {unit} without a datapath: registers only; an armed group stays armed.\n"
            f"module dla_{lo}_shell (\n  input  logic clk,\n  input  logic rstn,\n"
            f"  input  logic req_vld,\n  input  logic req_wr,\n  input  logic [9:0] req_word,\n"
            f"  input  logic [31:0] req_wdat,\n  output logic [31:0] rd_data\n);\n"
            f"  /* verilator lint_off UNUSEDSIGNAL */\n" + "\n".join(decl) +
            f"\n  /* verilator lint_on UNUSEDSIGNAL */\n"
            f"  dla_{lo}_regs u_regs (\n    " + ",\n    ".join(conns) + "\n  );\nendmodule\n")


def gen_cfg_svh(c, conv_rtl=False):
    n = c["name"].upper()
    d = [f"// Generated from {os.path.basename(c['_file'])} by rtl/regs/gen_regs.py. Do not edit.",
         "`ifndef DLA_CFG_SVH", "`define DLA_CFG_SVH",
         f"`define DLA_CFG_NAME_{n}",
         f"`define DLA_ATOM_BYTES {c['atom_bytes']}",
         f"`define DLA_DBB_DATA_BITS {c['dbb']['data_bits']}",
         f"`define DLA_DBB_ADDR_BITS {c['dbb']['addr_bits']}",
         f"`define DLA_DBB_STRB_BITS {c['dbb']['data_bits'] // 8}",
         f"`define DLA_SRAM_DATA_BITS {c['sram']['data_bits'] if c['sram_if'] else c['dbb']['data_bits']}",
         f"`define DLA_AXI_ID_BITS {c.get('axi', {}).get('id_bits', 8)}",
         f"`define DLA_AXI_MAX_BURST {c.get('axi', {}).get('max_burst_beats', 16)}",
         f"`define DLA_AXI_MAX_RD_OUTSTANDING {c.get('axi', {}).get('max_outstanding_reads', 32)}",
         f"`define DLA_BDMA_QUEUE_DEPTH {c.get('bdma', {}).get('queue_depth', 0)}"]
    if c["sram_if"]:
        d.append("`define DLA_HAS_SRAM_IF")
    if c.get("cfgrom"):
        d.append("`define DLA_HAS_CFGROM")
    for p in c["precisions"]:
        d.append(f"`define DLA_HAS_{p.upper()}")
    sdp = c.get("sdp", {})
    for k in ("bs", "bn", "ew", "lut"):
        if sdp.get(k):
            d.append(f"`define DLA_SDP_{k.upper()}")
    for k, v in c.get("throughput", {}).items():
        d.append(f"`define DLA_{k.upper()}_THROUGHPUT {v}")
    if c.get("pdp", {}).get("max_stripe_columns", 0):
        d.append(f"`define DLA_PDP_MAX_STRIPE_COLUMNS {c['pdp']['max_stripe_columns']}")
    if c.get("cdp", {}).get("out_saturation", True):
        d.append("`define DLA_CDP_OUT_SATURATION")
    if c.get("sdp", {}).get("sat_flag", "margin") == "range":
        d.append("`define DLA_SDP_SAT_FLAG_RANGE")
    conv = c["conv"]
    for k in CONV_NUMBERS:
        d.append(f"`define DLA_CONV_{k.upper()} {conv[k]}")
    for k in CONV_FLAGS:
        if conv[k]:
            d.append(f"`define DLA_CONV_{k.upper()}")
    if conv_rtl:
        d.append("`define DLA_CONV_RTL")
    for u in UNITS:
        if u in c["units"]:
            d.append(f"`define DLA_HAS_{u}")
            d.append(f"`define DLA_BASE_{u} 16'h{c['units'][u] >> 2:04x}")
    d.append("`endif")
    return "\n".join(d) + "\n"


# Units whose registers NV_nvdla answers with a generated shell unless their RTL is built
# (the convolution units: with --conv-rtl, dla_conv holds their registers). RBK is not one:
# dla_rubik holds its registers on every configuration that has it.
SHELL_UNITS = ["MCIF", "CVIF", "CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"]
CONV_UNITS = {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"}


def gen_reg_shells(c, units, conv_rtl=False):
    """dla_reg_shells: one CSB slot per unit of the configuration that has registers but no
    datapath RTL; NV_nvdla instantiates it once (a new shell unit is a line in SHELL_UNITS)."""
    shells = [u for u in SHELL_UNITS if u in c["units"] and u in units and not (conv_rtl and u in CONV_UNITS)]
    out = [f"// Generated from {os.path.basename(c['_file'])} by rtl/regs/gen_regs.py. Do not edit.",
           "// The register shells of the units without datapath RTL in this configuration: each",
           "// answers its CSB window (docs/registers.md); their read data is ORed.",
           "module dla_reg_shells (",
           "  input  logic        clk,", "  input  logic        rstn,", "  input  logic        req_vld,",
           "  input  logic        req_wr,", "  input  logic [5:0]  pend_win,", "  input  logic [9:0]  req_word,",
           "  input  logic [31:0] req_wdat,", "  output logic [31:0] rd_data", ");"]
    for u in shells:
        lo = u.lower()
        win = (c["units"][u] >> 12) & 0x3F
        out += [f"  logic [31:0] rd_{lo};",
                f"  dla_{lo}_shell u_{lo} (",
                f"    .clk, .rstn, .req_vld(req_vld && pend_win == 6'h{win:02x}), .req_wr, .req_word, .req_wdat,",
                f"    .rd_data(rd_{lo})", "  );"]
    if shells:
        out.append("  assign rd_data = " + " | ".join(f"rd_{u.lower()}" for u in shells) + ";")
    else:
        out += ["  assign rd_data = '0;",
                "  wire unused = &{1'b0, clk, rstn, req_vld, req_wr, pend_win, req_word, req_wdat};"]
    out.append("endmodule")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- C++
def cpp_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_cpp_header(regs_master):
    out = ["// Generated by rtl/regs/gen_regs.py from rtl/regs/registers.csv. Do not edit.",
           "// Field accessors: dla::reg::<UNIT>::<REGISTER>::<FIELD>::get(value).",
           "// Bit ranges are the widest (master) ones; a configuration may store fewer bits",
           "// (see dla::RegisterMap for the per-configuration storage masks).",
           "#pragma once", "#include <cstdint>", '#include "dla/hwconfig.h"', "",
           "namespace dla::reg {",
           "template <unsigned Msb, unsigned Lsb>",
           "struct Field {",
           "  static constexpr unsigned msb = Msb, lsb = Lsb, width = Msb - Lsb + 1;",
           "  static constexpr uint32_t mask =",
           "      static_cast<uint32_t>(((Msb >= 31 ? 0xffffffffull : ((1ull << (Msb + 1)) - 1))) &",
           "                            ~((1ull << Lsb) - 1));",
           "  static constexpr uint32_t get(uint32_t reg) { return (reg & mask) >> Lsb; }",
           "  static constexpr uint32_t put(uint32_t reg, uint32_t v) {",
           "    return (reg & ~mask) | ((v << Lsb) & mask);",
           "  }",
           "};", ""]
    for u in UNITS:
        if u not in regs_master:
            continue
        out.append(f"namespace {u} {{")
        out.append(f"constexpr ::dla::Unit unit = ::dla::Unit::{u};")
        for r in regs_master[u]:
            out.append(f"struct {r.name} {{")
            out.append(f"  static constexpr uint32_t offset = 0x{r.offset:03x};")
            out.append(f"  static constexpr bool dual = {'true' if r.dual else 'false'};")
            for f in r.fields:
                fname = f.name if f.name != r.name else f.name + "_"
                enums = [e.split("=") for e in f.enums.split("|")] if f.enums else []
                if enums:
                    out.append(f"  struct {fname} : ::dla::reg::Field<{f.msb}, {f.lsb}> {{")
                    for en, ev in enums:
                        out.append(f"    static constexpr uint32_t {en} = {int(ev)};")
                    out.append("  };")
                else:
                    out.append(f"  using {fname} = ::dla::reg::Field<{f.msb}, {f.lsb}>;")
            out.append("};")
        out.append(f"}}  // namespace {u}")
    out.append("}  // namespace dla::reg")
    return "\n".join(out) + "\n"


ACCESS = {"rw": "RW", "ro": "RO", "wo": "WO", "const": "CONST", "op_en": "RW", "pointer": None,
          "hw": "RW"}


def gen_cpp_tables(configs, regs_csv):
    variants = sorted({c["register_variant"] for c in configs} | {"master"})
    out = ["// Generated by rtl/regs/gen_regs.py. Do not edit.",
           '#include "hwdesc_tables.h"', "", "namespace dla::gen {", "namespace {", ""]
    for v in variants:
        regs = load_registers(regs_csv, v)
        fields, table = [], []
        for u in UNITS:
            for reg in regs.get(u, []):
                first = len(fields)
                for f in reg.fields:
                    k = f.kind(u, reg.name)
                    acc = ("RW" if f.sw == "rw" else "RO") if k == "pointer" else ACCESS[k]
                    hwmod = f.hw_modified or k == "op_en"
                    fields.append(f"  {{{cpp_str(f.name)}, {f.msb}, {f.lsb}, 0x{f.sreset:x}u, Access::{acc}, "
                                  f"{'true' if f.trigger else 'false'}, {'true' if hwmod else 'false'}, "
                                  f"{cpp_str(f.enums)}, 0x{f.mask():08x}u}},")
                table.append(f"  {{Unit::{u}, {cpp_str(reg.name)}, 0x{reg.offset:03x}, "
                             f"{'true' if reg.dual else 'false'}, {first}, {len(reg.fields)}}},")
        out.append(f"const RawField kFields_{v}[] = {{")
        out += fields
        out.append("};")
        out.append(f"const RawReg kRegs_{v}[] = {{")
        out += table
        out.append("};")
        out.append("")
    out.append("}  // namespace")
    out.append("")
    out.append("const std::vector<RegInfo>& registers_of_variant(const std::string& v) {")
    for v in variants:
        out.append(f"  if (v == {cpp_str(v)}) {{")
        out.append(f"    static const auto t = build_registers(kRegs_{v}, std::size(kRegs_{v}), kFields_{v});")
        out.append("    return t;")
        out.append("  }")
    out.append('  throw std::invalid_argument("unknown register variant \'" + v + "\'");')
    out.append("}")
    out.append("")
    out.append("std::vector<HwConfig> make_configs() {")
    out.append("  std::vector<HwConfig> v;")
    for c in configs:
        out.append("  {")
        out.append("    HwConfig h;")
        out.append(f"    h.name = {cpp_str(c['name'])};")
        out.append(f"    h.description = {cpp_str(c.get('description', ''))};")
        out.append(f"    h.register_variant = {cpp_str(c['register_variant'])};")
        out.append(f"    h.atom_bytes = {c['atom_bytes']};")
        out.append(f"    h.dbb_data_bits = {c['dbb']['data_bits']};")
        out.append(f"    h.dbb_addr_bits = {c['dbb']['addr_bits']};")
        out.append(f"    h.sram_if = {'true' if c['sram_if'] else 'false'};")
        out.append(f"    h.sram_data_bits = {c['sram']['data_bits'] if c['sram_if'] else 0};")
        out.append("    h.nvdla_names = {" + ", ".join(cpp_str(n) for n in c.get("nvdla_names", [])) + "};")
        out.append(f"    h.cfgrom = {'true' if c.get('cfgrom') else 'false'};")
        words = cfgrom_words(c)
        if words:
            apply_cfgrom(c, load_registers(regs_csv, c["register_variant"]))  # checks the names
            out.append("    h.cfgrom_words = {" +
                       ", ".join(f"{{{cpp_str(k)}, {v}u}}" for k, v in words.items()) + "};")
        out.append("    h.precisions = {" + ", ".join(
            "Precision::" + {"int8": "Int8", "int16": "Int16", "fp16": "Fp16"}[p] for p in c["precisions"]) + "};")
        sdp = c.get("sdp", {})
        for k in ("bs", "bn", "ew", "lut"):
            out.append(f"    h.sdp_{k} = {'true' if sdp.get(k) else 'false'};")
        tp = c.get("throughput", {})
        for k in ("sdp", "pdp", "cdp"):
            out.append(f"    h.{k}_throughput = {tp.get(k, 1)};")
        cdp_sat = c.get("cdp", {}).get("out_saturation", True)
        out.append(f"    h.cdp_out_saturation = {'true' if cdp_sat else 'false'};")
        sat_flag = c.get("sdp", {}).get("sat_flag", "margin")
        out.append(f"    h.sdp_sat_flag = SdpSatFlag::{'Range' if sat_flag == 'range' else 'Margin'};")
        out.append(f"    h.pdp_line_buffer_atoms = {c.get('pdp', {}).get('line_buffer_atoms', 0)};")
        out.append(f"    h.pdp_max_stripe_columns = {c.get('pdp', {}).get('max_stripe_columns', 0)};")
        out.append(f"    h.bdma_queue_depth = {c.get('bdma', {}).get('queue_depth', 0)};")
        for k in CONV_NUMBERS:
            out.append(f"    h.conv_{k} = {c['conv'][k]};")
        for k in CONV_FLAGS:
            out.append(f"    h.conv_{k} = {'true' if c['conv'][k] else 'false'};")
        axi = c.get("axi", {})
        out.append(f"    h.axi_id_bits = {axi.get('id_bits', 8)};")
        out.append(f"    h.axi_max_burst_beats = {axi.get('max_burst_beats', 16)};")
        out.append(f"    h.axi_max_outstanding_reads = {axi.get('max_outstanding_reads', 32)};")
        for u, base in c["units"].items():
            out.append(f"    h.unit_base[static_cast<unsigned>(Unit::{u})] = 0x{base:05x}u;")
        out.append("    v.push_back(std::move(h));")
        out.append("  }")
    out.append("  return v;")
    out.append("}")
    out.append("")
    out.append("}  // namespace dla::gen")
    return "\n".join(out) + "\n"


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path) as fh:
            if fh.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as fh:
        fh.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--regs", required=True, help="register description CSV")
    ap.add_argument("--config", help="one configuration YAML (with --out-rtl)")
    ap.add_argument("--configs", nargs="*", default=[], help="all configuration YAMLs (with --out-cpp)")
    ap.add_argument("--out-rtl", help="output directory for one configuration's SystemVerilog")
    ap.add_argument("--out-cpp", help="output directory for the C++ tables and header")
    ap.add_argument("--conv-rtl", action="store_true",
                    help="the RTL of this configuration includes the convolution pipeline (defines DLA_CONV_RTL)")
    a = ap.parse_args()
    try:
        if a.out_rtl:
            if not a.config:
                raise InputError("--out-rtl needs --config")
            c = load_config(a.config)
            regs = apply_cfgrom(c, load_registers(a.regs, c["register_variant"]))
            write_if_changed(os.path.join(a.out_rtl, "dla_cfg.svh"), gen_cfg_svh(c, a.conv_rtl))
            for u in UNITS:
                if u not in c["units"] or u not in regs:
                    continue
                write_if_changed(os.path.join(a.out_rtl, f"dla_{u.lower()}_regs.sv"),
                                 gen_unit_regs(u, regs[u]))
                if u not in REAL_RTL_UNITS:
                    write_if_changed(os.path.join(a.out_rtl, f"dla_{u.lower()}_shell.sv"),
                                     gen_unit_shell(u, regs[u]))
            present = [u for u in UNITS if u in c["units"] and u in regs]
            write_if_changed(os.path.join(a.out_rtl, "dla_reg_shells.sv"), gen_reg_shells(c, regs, a.conv_rtl))
            files = [f"dla_{u.lower()}_regs.sv" for u in present] + \
                    [f"dla_{u.lower()}_shell.sv" for u in present if u not in REAL_RTL_UNITS] + ["dla_reg_shells.sv"]
            write_if_changed(os.path.join(a.out_rtl, "generated.f"),
                             "\n".join(os.path.join(a.out_rtl, f) for f in files) + "\n")
        if a.out_cpp:
            if not a.configs:
                raise InputError("--out-cpp needs --configs")
            configs = [load_config(p) for p in a.configs]
            names = [c["name"] for c in configs]
            if len(set(names)) != len(names):
                raise InputError(f"duplicate configuration names: {names}")
            write_if_changed(os.path.join(a.out_cpp, "dla", "regs.gen.h"),
                             gen_cpp_header(load_registers(a.regs, "master")))
            write_if_changed(os.path.join(a.out_cpp, "hwdesc_tables.gen.cpp"),
                             gen_cpp_tables(configs, a.regs))
    except InputError as e:
        print(f"gen_regs.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
