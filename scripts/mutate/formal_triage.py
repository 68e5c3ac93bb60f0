#!/usr/bin/env python3
"""Formal triage of surviving mutants: equivalent, distinguishable (with a witness) or unknown.

For each mutant id, a miter holds two copies of the mutant netlist that gen_mutants.py left in
--model-dir (prepared.il + mutations.ys): `gold` with the selector at 0 (the unmutated design)
and `gate` with the selector at the id. Both get the same inputs, start from the same state
(every flop and memory word zero) and see reset asserted in the first cycle. The miter fails
when any output of the unit differs. Yosys turns it into an AIG; the script replaces each gate
copy flop that is structurally the same as its gold twin (Aig.merge_copies: same gates from equal
values, outside the mutation's fan-out) by the twin, ABC merges what else the two copies provably
share (&scorr: signal correspondence, an induction over register pairs, within --scorr-seconds,
by default a third of the budget), then bmc3 searches K cycles for a difference and PDR (an IC3 engine) tries to prove
there is none at any cycle, each with half the remaining time:

  * distinguishable  a cycle where an output differs was found (by bmc3 within K cycles or by
                     PDR beyond them): its length, the ports that differ, and the witness
                     replayed by Yosys into a VCD a person can open;
  * equivalent       proof "all cycles" (signal correspondence left nothing, or PDR found an
                     invariant) or "within K cycles" (bmc3 covered K cycles, PDR ran out);
  * unknown          the budget ran out before K cycles (or the witness did not replay).

Reads past the end of a bit-blasted memory whose depth is not a power of two (undriven in
Yosys' netlist) give 0 in both copies: left free, each copy would read its own arbitrary value
and every mutant upstream would look different.

Memories smaller than --map-memories-below bits are bit-blasted; larger ones are cut (bit-
blasting the units' buffers takes Yosys minutes per mutant): each cut memory's read data becomes
one free input shared by both copies, and every input of the memory (addresses, enables, write
data) becomes an output compared like the unit's ports. Sharing is exact while the memory inputs
agree, and a difference there is reported, so "equivalent" stays sound. A difference that shows
only at cut-memory inputs is classed unknown (the written data may never come back out), and a
port difference found with cut memories may read a value the memory never held (triage.json
says how many memories were cut).

Equivalence means "no difference from reset", for all cycles or within K (the proof field).

--qualify PORT=WHEN[@DELAY] compares an output only where the unit's consumer reads it: in the
cycles where port WHEN (an input, or the unmutated copy's output; non-zero = true) was true
DELAY cycles before. Data a FIFO presents while its valid is low, or a result its consumer
samples only the clock after a valid, then no longer counts as a difference.
--qualify PORT=WHEN:lanes[@DELAY] is the per-client form for a port that packs one payload per
bit of WHEN (PORT's width a multiple of WHEN's): lane i of PORT is compared only where bit i of
WHEN was set, as an arbiter reads client i's address with client i's valid. A `:low=N` before
the delay leaves the N low bits of each lane out of the comparison: the bits of an address below
the atom size, which the AXI masters never read.

Writes --out/triage.json ({"mutants": [{id, class, depth, seconds, ports, witness}], ...})
and --out/witnesses/<id>.vcd for the distinguishable ones. Exit 0; 2 on bad input.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

from mutant_list import load_mutant_list, parse_ids

RESET_LOW = ("rstn", "rst_n", "reset_n", "nvdla_core_rstn")
RESET_HIGH = ("rst", "reset")
CLOCK = []  # the miter's clock input, set by write_miter
# Conflicts per SAT call in signal correspondence: ABC's default (100) drops register pairs whose
# proof needs more, and one dropped pair keeps everything downstream of it apart (on BDMA, a
# mutant with qualified ports kept 7472 registers at 100 and none at 5000).
SCORR_CONFLICTS = 5000


def fail(msg):
    print(f"formal_triage: {msg}", file=sys.stderr)
    sys.exit(2)


def yosys(script, workdir, name, exit_on_error=True):
    """Runs a Yosys script; on failure prints the log's tail and exits 2, or (exit_on_error
    False, for worker threads) returns the log's path. Returns None on success."""
    path = os.path.join(workdir, name + ".ys")
    with open(path, "w") as f:
        f.write(script)
    log = os.path.join(workdir, name + ".log")
    r = subprocess.run(["yosys", "-q", "-l", log, "-s", path], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    if r.returncode == 0:
        return None
    if not exit_on_error:
        return log
    with open(log) as f:
        sys.stderr.write(f.read()[-3000:])
    fail(f"yosys failed ({log})")


def parallel(fn, items, jobs):
    """fn over items on `jobs` threads (each runs a tool process), results in order."""
    if jobs <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items))


def ident(name):
    """A Verilog identifier for a unit port name (hierarchical names become escaped identifiers)."""
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else "\\" + name + " "


def flat(name):
    return "p_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def cut_unit(model_dir, top, work, map_below):
    """Elaborate the mutant netlist, bit-blast memories under map_below bits and cut the others;
    return its ports [(name, dir, width)]."""
    prefix = f"""read_rtlil {model_dir}/prepared.il
script {model_dir}/mutations.ys
hierarchy -top {top}
proc
flatten
memory -nomap
opt_clean
"""
    yosys(prefix + f"write_json {work}/uncut.json\nwrite_rtlil {work}/uncut.il\n", work, "elaborate")
    mod = json.load(open(os.path.join(work, "uncut.json")))["modules"][top]
    mems = {n: {"bits": int(c["parameters"]["SIZE"], 2) * int(c["parameters"]["WIDTH"], 2),
                "rd_width": len(c["connections"].get("RD_DATA", []))}
            for n, c in mod["cells"].items() if c["type"] == "$mem_v2"}
    large = sorted(n for n, m in mems.items() if m["bits"] >= map_below and m["rd_width"])
    # Read data of a cut memory: RD_DATA moves to a dangling wire and the bits it drove get a new
    # input instead, so their consumers (mutations on read-data bits included) stay.
    names = rewire_read_data(os.path.join(work, "uncut.il"), top, mems, large)
    small = [names[n] for n in sorted(mems) if n not in large]
    ports_of = "t:$mem_v2 %ci1:+$mem_v2[WR_EN,WR_ADDR,WR_DATA,RD_ADDR,RD_EN,RD_ARST,RD_SRST] t:* %d"
    mapped = "memory_map " + " ".join(f"c:{n}" for n in small) if small else ""
    cut = "\n".join([mapped, f"rename -enumerate -pattern memin_% {ports_of}", f"expose {ports_of}",
                      "delete t:$mem_v2"]) if large else mapped
    yosys(f"""read_rtlil {work}/rewired.il
hierarchy -top {top}
{cut}
opt -fast
setundef -zero -init -params
async2sync
dffunmap
opt_clean
rename -enumerate -pattern triage_q% t:$dff %co:+[Q] t:$dff %d
write_json {work}/unit.json
write_rtlil {work}/unit.il
""", work, "cut")
    mod = json.load(open(os.path.join(work, "unit.json")))["modules"][top]
    return [(n, p["direction"], len(p["bits"])) for n, p in mod["ports"].items()], large


def rewire_read_data(path, top, mems, cut_memories):
    """Write <dir>/rewired.il from `path`: memory cells renamed triage_mem_<i> (selectable by
    name), and each cut memory's RD_DATA moved to a dangling wire, the bits it drove driven by a
    new input memout_<k> instead."""
    names = {n: f"triage_mem_{i}" for i, n in enumerate(sorted(mems))}
    out, in_mod, cell, extra = [], False, None, []
    for line in open(path).read().split("\n"):
        t = line.strip()
        if t.startswith("module "):
            in_mod = t.split()[1] == "\\" + top
            if in_mod:  # RTLIL wants wires declared before use
                out.append(line)
                for k, name in enumerate(cut_memories):
                    w = mems[name]["rd_width"]
                    out += [f"  wire width {w} \\memout_{k}_unused", f"  wire width {w} input {100000 + k} \\memout_{k}"]
                continue
        elif in_mod and t.startswith("cell $mem_v2 "):
            cell = t.split(" ", 2)[2][1:]
            line = line.replace(t, f"cell $mem_v2 \\{names[cell]}")
        elif in_mod and t.startswith(("cell ", "memory ", "process ")):
            cell = ""  # its own `end` follows
        elif in_mod and cell is not None and t == "end":
            cell = None
        elif in_mod and cell in cut_memories and t.startswith("connect \\RD_DATA "):
            k, sig = len(extra), t[len("connect \\RD_DATA "):]
            extra.append(sig)
            line = line.replace(t, f"connect \\RD_DATA \\memout_{k}_unused")
        elif in_mod and t == "end":
            for k, sig in enumerate(extra):
                out.append(f"  connect {sig} \\memout_{k}")
            in_mod = False
        out.append(line)
    with open(os.path.join(os.path.dirname(path), "rewired.il"), "w") as f:
        f.write("\n".join(out))
    return names


def parse_qualifiers(texts):
    """--qualify PORT=WHEN[:lanes][:low=N][@DELAY] -> [(port, when, delay, lanes, low)]."""
    out = []
    for t in texts:
        m = re.fullmatch(r"([^=@:\s]+)=([^=@:\s]+)(:lanes)?(?::low=(\d+))?(?:@(\d+))?", t)
        if not m:
            fail(f"--qualify {t!r}: expected PORT=WHEN[:lanes][:low=N][@DELAY] (e.g. partial=mi_valid@1, "
                 f"rd_req_addr=rd_req_valid:lanes:low=3)")
        out.append((m.group(1), m.group(2), int(m.group(5) or 0), bool(m.group(3)), int(m.group(4) or 0)))
    return out


def write_miter(ports, top, sel_width, work, qualifiers=()):
    ins = [(n, w) for n, d, w in ports if d == "input" and n != "mutsel"]
    outs = [(n, w) for n, d, w in ports if d == "output"]
    if not any(n == "mutsel" for n, _, _ in ports):
        fail(f"{top} has no mutsel input (not a gen_mutants.py netlist?)")
    out_names, in_names = {n for n, _ in outs}, {n for n, _ in ins}
    width = dict(ins + outs)
    for i, (port, when, _, lanes, low) in enumerate(qualifiers):
        if any(q[0] == port for q in qualifiers[:i]):
            fail(f"--qualify {port}=...: port '{port}' is qualified twice")
        if port not in out_names:
            fail(f"--qualify {port}={when}: {top} has no output port '{port}' (outputs: {', '.join(sorted(out_names))})")
        if when not in out_names | in_names:
            fail(f"--qualify {port}={when}: {top} has no port '{when}' to qualify it with")
        if lanes and width[port] % width[when] != 0:
            fail(f"--qualify {port}={when}:lanes: {port}'s {width[port]} bits are not one lane per bit of "
                 f"{when} ({width[when]} bits)")
        if low >= width[port] // (width[when] if lanes else 1):
            fail(f"--qualify {port}={when}:low={low}: leaves no bit of a lane to compare")
    rng = lambda w: f"[{w - 1}:0] " if w > 1 else ""
    names = [n for n, _ in ins]
    clk = next((n for n in names if n in ("clk", "nvdla_core_clk")), None)
    if clk is None:
        fail(f"{top} has no clock input named clk")
    rst = next((n for n in names if n in RESET_LOW + RESET_HIGH), None)
    CLOCK[:] = [flat(clk)]
    lines = ["module triage_miter("]
    lines.append(",\n".join([f"  input {rng(w)}{flat(n)}" for n, w in ins] +
                             [f"  input [{sel_width - 1}:0] sel", f"  input [{sel_width - 1}:0] gold_sel"]))
    lines.append(");")
    for n, w in outs:
        lines.append(f"  wire {rng(w)}gold_{flat(n)}, gate_{flat(n)};")
    conn = lambda side: ", ".join([f".{ident(n)}({flat(n)})" for n, _ in ins] +
                                  [f".{ident(n)}({side}_{flat(n)})" for n, _ in outs])
    # The gold copy's selector is an input too, set to 0 in each mutant's AIG (write_aigs): tied
    # to 0 here, Yosys would fold the gold copy differently from the gate copy, and flops of the
    # two could no longer be matched gate for gate (Aig.merge_copies).
    lines.append(f"  {top} gold(.mutsel(gold_sel), {conn('gold')});")
    lines.append(f"  {top} gate(.mutsel(sel), {conn('gate')});")
    if rst:
        active = f"!{flat(rst)}" if rst in RESET_LOW else flat(rst)
        lines += ["  reg first = 1'b1;", f"  always @(posedge {flat(clk)}) first <= 1'b0;",
                  f"  always @* if (first) assume({active});"]
    # A qualified port is compared only in the cycles where its consumer reads it: where WHEN
    # (an input, or the unmutated copy's output) was non-zero DELAY cycles before; per lane, lane
    # i where bit i of WHEN was set.
    qualified = {}
    for port, when, delay, lanes, low in qualifiers:
        src = flat(when) if when in in_names else f"gold_{flat(when)}"
        n_q = width[when] if lanes else 1
        if not lanes:
            src = f"(|{src})"
        for k in range(1, delay + 1):
            lines += [f"  reg {rng(n_q)}q{k}_{flat(port)} = {n_q}'d0;",
                      f"  always @(posedge {flat(clk)}) q{k}_{flat(port)} <= {src};"]
            src = f"q{k}_{flat(port)}"
        lines.append(f"  (* keep *) wire {rng(n_q)}qual_{flat(port)} = {src};")
        qualified[port] = (f"qual_{flat(port)}", n_q, low)
    lines.append("  always @* begin")
    for n, w in outs:
        if n in qualified:
            q, n_q, low = qualified[n]
            lane = w // n_q
            for i in range(n_q):
                sl = f"[{i * lane + lane - 1}:{i * lane + low}]" if n_q > 1 or low else ""
                cond = f"{q}[{i}]" if n_q > 1 else q
                lines.append(f"    assert(!{cond} || gold_{flat(n)}{sl} == gate_{flat(n)}{sl});")
        else:
            lines.append(f"    assert(gold_{flat(n)} == gate_{flat(n)});")
    lines += ["  end", "endmodule", ""]
    with open(os.path.join(work, "miter.sv"), "w") as f:
        f.write("\n".join(lines))
    return outs, rst


def miter_key(work):
    """A digest of what the miter is built from: the cut unit netlist, the miter's source and the
    Yosys script that builds it (a script changed by a new version of this file rebuilds)."""
    h = hashlib.sha256(miter_script(work).encode())
    for name in ("unit.il", "miter.sv"):
        with open(os.path.join(work, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def build_miter(work):
    yosys(miter_script(work), work, "miter")


def miter_script(work):
    """Maps the unit to gates once, as a module of its own, and flattens only then: the two copies
    are the same gates by construction. (Flattened first, Yosys' opt reshaped the copies
    differently some 40 gates deep on CDP, and the structural flop merge split 2138 flops of
    equal logic for every mutant.) After flattening only opt_clean runs: nothing restructures."""
    return f"""read_rtlil {work}/unit.il
read_verilog -sv -formal {work}/miter.sv
hierarchy -top triage_miter
proc
setundef -zero -init
async2sync
dffunmap
opt -fast
techmap
opt -fast
dffunmap
setundef -zero -init -undriven
aigmap
opt_clean
flatten
opt_clean
write_rtlil {work}/miter.il
"""


class Aig:
    """A binary AIGER file (as Yosys' write_aiger writes it), enough to set inputs to constants."""

    def __init__(self, path):
        data = open(path, "rb").read()
        pos = data.index(b"\n")
        head = [int(x) for x in data[:pos].split()[1:]] + [0] * 4
        self.M, self.I, self.L, self.O, self.A, self.B, self.C, J, F = head[:9]
        if J or F:
            fail(f"{path}: justice or fairness properties are not expected in a triage miter")
        pos += 1
        self.lines = []  # latch, output, bad and constraint lines, as written
        for _ in range(self.L + self.O + self.B + self.C):
            end = data.index(b"\n", pos)
            self.lines.append(data[pos:end].split())
            pos = end + 1
        rhs = []
        for i in range(self.A):
            lhs = 2 * (self.I + self.L + i + 1)
            d = []
            for _ in range(2):
                x, shift = 0, 0
                while True:
                    b = data[pos]
                    pos += 1
                    x |= (b & 0x7F) << shift
                    if b < 0x80:
                        break
                    shift += 7
                d.append(x)
            rhs.append((lhs - d[0], lhs - d[0] - d[1]))
        self.rhs = rhs
        self.tail = data[pos:]  # symbol table and comments

    def fanout(self):
        """{var: [AND vars it feeds]} and {next-state var: [latch vars it feeds]}, built once."""
        if not hasattr(self, "_fanout"):
            first = self.I + self.L + 1
            ands = [[] for _ in range(self.M + 1)]
            for i, (r0, r1) in enumerate(self.rhs):
                ands[r0 >> 1].append(first + i)
                if r1 >> 1 != r0 >> 1:
                    ands[r1 >> 1].append(first + i)
            nexts = {}
            for k in range(self.L):
                nexts.setdefault(int(self.lines[k][0]) >> 1, []).append(self.I + 1 + k)
            self._fanout = (ands, nexts)
        return self._fanout

    def merge_copies(self, constants, pairs):
        """Structural register correspondence: which of the candidate flop pairs ({gate latch
        var: gold latch var}) provably hold equal values in every reachable state, given the
        inputs set to constants. A pair holds when both start equal and their next-state
        functions are the same gates (after constant folding) of inputs and of flops of pairs
        that hold; the greatest such set is an inductive invariant. Returns {gate var: gold
        literal} for the pairs that hold: substituting them leaves the two copies the same gates
        outside the mutation's fan-out, which ABC's strash then merges for free. (&scorr alone
        proves the same by SAT, pair by pair: hours on a unit of 500k gates.)"""
        I, L = self.I, self.L
        init = lambda k: int(self.lines[k][1]) if len(self.lines[k]) > 1 else 0
        pairs = {g: o for g, o in pairs.items() if init(g - I - 1) == init(o - I - 1)}
        canon = [2 * v for v in range(self.M + 1)]
        for v, c in constants.items():
            canon[v] = c
        for g, o in pairs.items():
            canon[g] = 2 * o
        table, fanin, first = {}, {}, I + L + 1
        for i, (r0, r1) in enumerate(self.rhs):
            a, b = canon[r0 >> 1] ^ (r0 & 1), canon[r1 >> 1] ^ (r1 & 1)
            if a > b:
                a, b = b, a
            if a == 0 or a ^ 1 == b:
                c = 0
            elif a == 1 or a == b:
                c = b
            else:
                # one level of AND(AND(x, y), x) = AND(x, y) and AND(AND(x, y), !x) = 0: the copies
                # come out of Yosys with the selector folded differently (the gold copy's reset
                # mux may sit twice on a flop's input, the gate copy's once)
                c = None
                for p, q in ((a, b), (b, a)):
                    if not p & 1 and p >> 1 in fanin:
                        if q in fanin[p >> 1]:
                            c = p
                        elif q ^ 1 in fanin[p >> 1]:
                            c = 0
                if c is None:
                    c = table.setdefault((a, b), 2 * (first + i))
                    if c == 2 * (first + i):
                        fanin[first + i] = (a, b)
            canon[first + i] = c
        nxt = lambda v: int(self.lines[v - I - 1][0])
        lit = lambda x: canon[x >> 1] ^ (x & 1)
        split = {g for g, o in pairs.items() if lit(nxt(g)) != lit(nxt(o))}
        # A pair that holds in the all-merged world still breaks when a broken gate flop reaches
        # its next state: spread that through the gates and flops it feeds.
        ands, nexts = self.fanout()
        tainted, todo = set(split), list(split)
        while todo:
            v = todo.pop()
            for w in ands[v] + nexts.get(v, []):
                if w in tainted:
                    continue
                if w <= I + L:
                    if w not in pairs:
                        continue
                    split.add(w)
                tainted.add(w)
                todo.append(w)
        return {g: 2 * o for g, o in pairs.items() if g not in split}

    def write(self, path, constants):
        """Writes the AIG with input variables set to constants ({var: 0 or 1}) and variables
        replaced by literals ({var: literal}: a gate flop by its gold twin); the
        inputs stay (unused), so witnesses keep the input order."""
        def sub(lit):
            v = lit >> 1
            return constants[v] ^ (lit & 1) if v in constants else lit
        out = bytearray(f"aig {self.M} {self.I} {self.L} {self.O} {self.A} {self.B} {self.C}\n".encode())
        for k, fields in enumerate(self.lines):
            vals = [int(x) for x in fields]
            if k < self.L:  # a latch line: next state, then an optional reset value
                vals[0] = sub(vals[0])
            else:
                vals = [sub(x) for x in vals]
            out += (" ".join(str(x) for x in vals) + "\n").encode()
        for i, (r0, r1) in enumerate(self.rhs):
            lhs = 2 * (self.I + self.L + i + 1)
            r0, r1 = sub(r0), sub(r1)
            if r0 < r1:
                r0, r1 = r1, r0
            for x in (lhs - r0, r0 - r1):
                while x >= 0x80:
                    out.append((x & 0x7F) | 0x80)
                    x >>= 7
                out.append(x)
        out += self.tail
        with open(path, "wb") as f:
            f.write(out)


def selector_inputs(aim, name="sel"):
    """[(input index, selector bit)] of the miter's selector input `name` (the gate copy's `sel`,
    the gold copy's `gold_sel`), from write_aiger's map."""
    found = []
    with open(aim) as f:
        for line in f:
            t = line.split()
            if t[:1] == ["input"] and t[3:4] == [name]:
                found.append((int(t[1]), int(t[2])))
    if not found:
        fail(f"{aim}: the miter's AIG has no {name} input")
    return found


def selector_values(sel, gold_sel, mid):
    """{input index: bit}: the gate copy's selector at mutant mid, the gold copy's at 0."""
    return {**{index: (mid >> bit) & 1 for index, bit in sel}, **{index: 0 for index, _ in gold_sel}}


def latch_pairs(aim, inputs):
    """{gate latch var: gold latch var}: the two copies' flops of the same wire bit, from the
    AIGER map (cut_unit names every flop's wire, so each has a name in both copies)."""
    copies = {"gold": {}, "gate": {}}
    with open(aim) as f:
        for line in f:
            t = line.split()
            if len(t) == 4 and t[0] == "latch":
                copy, _, wire = t[3].partition(".")
                if copy in copies:
                    copies[copy].setdefault((wire, int(t[2])), inputs + 1 + int(t[1]))
    gold, gate = copies["gold"], copies["gate"]
    pairs = {}
    for key, g in gate.items():
        if key in gold and gold[key] != g:
            pairs.setdefault(g, gold[key])
    return pairs


def write_aigs(work, ids):
    """Writes the miter once as an AIG with the selector as an input (one Yosys run), then each
    mutant's miter, <work>/<id>/miter.aig: the selector's inputs set to the id's bits and the
    gate copy's flops that structurally equal the gold copy's replaced by those (merge_copies).
    Returns the AIG, the selector inputs and {id: flop pairs merged}."""
    yosys(f"read_rtlil {work}/miter.il\nwrite_aiger -zinit -map {work}/miter.aim {work}/miter.aig\n", work, "aig")
    aig = Aig(os.path.join(work, "miter.aig"))
    aim = os.path.join(work, "miter.aim")
    sel = (selector_inputs(aim), selector_inputs(aim, "gold_sel"))
    pairs = latch_pairs(aim, aig.I)
    merged = {}
    for mid in ids:
        d = os.path.join(work, str(mid))
        os.makedirs(d, exist_ok=True)
        constants = {index + 1: bit for index, bit in selector_values(*sel, mid).items()}
        same = aig.merge_copies(constants, pairs)
        merged[mid] = len(same)
        aig.write(os.path.join(d, "miter.aig"), {**constants, **same})
    return aig, sel, merged


def abc(cmd, wall_seconds=None):
    """(exit status, output) of yosys-abc; a run longer than wall_seconds is killed (status -1)."""
    try:
        r = subprocess.run(["yosys-abc", "-c", cmd], capture_output=True, text=True, timeout=wall_seconds)
    except subprocess.TimeoutExpired:
        return -1, f"stopped after {wall_seconds} s"
    return r.returncode, r.stdout + r.stderr


def check_mutant(work, mid, depth, timeout, scorr_seconds=None):
    """Signal correspondence first (ABC's &scorr merges the registers and nodes of the two copies
    that induction shows equal; the mutation's fan-out stays), then on what is left bmc3 for a
    witness within `depth` cycles and PDR for a proof over all cycles, each with half the budget.
    scorr_seconds bounds signal correspondence (default a third of the budget; 0 skips it)."""
    d = os.path.join(work, str(mid))
    start = time.monotonic()
    cex, reduced = os.path.join(d, "cex.txt"), os.path.join(d, "reduced.aig")
    for f in (cex, reduced, os.path.join(d, "folded.aig")):
        if os.path.exists(f):
            os.remove(f)
    rec = {"id": mid, "depth": depth}

    def no_verdict(code, out):
        rec["class"] = "unknown"
        rec["reason"] = f"yosys-abc gave no verdict (exit {code}): {out.strip().splitlines()[-1:] or ''}"
        rec["frames_checked"] = 0
        rec["seconds"] = round(time.monotonic() - start, 2)
        return rec

    # &scorr has no time limit of its own: scorr_seconds bounds it. When it runs out
    # (a mutation whose fan-out is most of the unit leaves it many candidates to disprove), bmc3
    # and PDR search the whole miter instead, as folded before signal correspondence.
    if scorr_seconds is None:
        scorr_seconds = max(1, timeout // 3)
    folded = os.path.join(d, "folded.aig")
    # print_stats after strash gives the folded miter's register count (the flop merge may have
    # left none); the one after &scorr what signal correspondence left.
    fold = f"read_aiger {d}/miter.aig; fold; strash; print_stats; write_aiger {folded}"
    if scorr_seconds == 0:
        code, out = abc(fold)
        if code != 0 or not os.path.exists(folded):
            return no_verdict(code, out)
        rec["signal_correspondence"] = "skipped (--scorr-seconds 0)"
    else:
        code, out = abc(f"{fold}; &get -n; &scorr -C {SCORR_CONFLICTS}; &put; print_stats; write_aiger {reduced}",
                        wall_seconds=scorr_seconds)
        if code == -1 and os.path.exists(folded):
            rec["signal_correspondence"] = f"stopped after {scorr_seconds} s"
            code, out = abc(f"read_aiger {folded}; print_stats")
        elif code != 0 or not os.path.exists(reduced):
            return no_verdict(code, out)
    latches = re.findall(r"lat\s*=\s*(\d+)", out)
    if not latches:
        return no_verdict(code, out)
    if "signal_correspondence" in rec:  # bmc3 and PDR search the folded miter
        reduced = folded
        rec["registers_left"] = None
    else:
        rec["registers_left"] = int(latches[-1])
    frames, left = 0, timeout - (time.monotonic() - start)
    left = max(1, int(left))
    if int(latches[-1]) != 0:  # bmc3 refuses a combinational miter; PDR below settles it at once
        half = max(1, left // 2)
        code, out = abc(f"read_aiger {reduced}; bmc3 -F {depth} -T {half}; write_cex -a {cex}")
        hit = re.search(r"asserted in frame (\d+)", out)
        done = re.search(r"No output asserted in (\d+) frames", out)
        if hit:
            rec["class"] = "distinguishable"
            rec["witness_cycles"] = int(hit.group(1)) + 1
        elif code != 0 or not done:
            return no_verdict(code, out)
        else:
            frames, left = int(done.group(1)), max(1, left - half)
    if "class" not in rec:
        code, out = abc(f"read_aiger {reduced}; pdr -T {left}; write_cex -a {cex}")
        hit = re.search(r"asserted in frame (\d+)", out)
        if "Property proved" in out:
            rec["class"] = "equivalent"
            rec["proof"] = "all cycles"
        elif hit:
            rec["class"] = "distinguishable"
            rec["witness_cycles"] = int(hit.group(1)) + 1
        elif frames >= depth:
            rec["class"] = "equivalent"
            rec["proof"] = f"within {depth} cycles"
        elif code != 0 or "UNDECIDED" not in out:
            return no_verdict(code, out)
        else:
            rec["class"] = "unknown"
            rec["reason"] = "solver budget"
            rec["frames_checked"] = frames
    rec["seconds"] = round(time.monotonic() - start, 2)
    return rec


def replay_witnesses(work, aig, sel, recs, vcd_dir, low_bits=None):
    """Replay ABC's counterexamples in Yosys' simulator (one run): a VCD per distinguishable
    mutant and the ports that differ; a difference only at cut-memory inputs becomes unknown."""
    found = [r for r in recs if r["class"] == "distinguishable"]
    if not found:
        return
    script = [f"read_rtlil {work}/miter.il"]
    for rec in found:
        d = os.path.join(work, str(rec["id"]))
        with open(os.path.join(d, "cex.txt")) as f:
            body = [l.split("#")[0].strip() for l in f if not l.startswith(("c", "#"))]
        body = [l for l in body if l]
        # ABC's first line is the initial state of *its* latches, after strash dropped the ones
        # nothing reads; the written AIG's latches all start at 0 (-zinit), so say that instead.
        # The selector inputs (unused in the mutant's AIG) get the mutant's id in every cycle,
        # the gold copy's 0.
        frames = []
        for line in body[1:]:
            bits = list(line)
            for index, bit in selector_values(*sel, rec["id"]).items():
                if index < len(bits):
                    bits[index] = str(bit)
            frames.append("".join(bits))
        aiw = os.path.join(d, "witness.aiw")
        with open(aiw, "w") as f:  # AIGER witness: status, property, initial latches, inputs per cycle
            f.write("1\nb0\n" + "0" * aig.L + "\n" + "\n".join(frames) + "\n.\n")
        rec["witness"] = os.path.join(vcd_dir, f"{rec['id']}.vcd")
        script += [f"sim -r {aiw} -map {work}/miter.aim -clock {CLOCK[0]} -scope triage_miter -vcd {rec['witness']}"]
    yosys("\n".join(script) + "\n", work, "replay")
    for rec in found:
        rec["ports"] = differing_ports(rec["witness"], low_bits)
        if not rec["ports"]:  # the solver's trace shows no difference in Yosys' simulation
            rec["class"] = "unknown"
            rec["reason"] = "the solver's witness shows no difference when replayed"
        elif all(p.startswith("memin_") for p in rec["ports"]):
            rec["class"] = "unknown"
            rec["reason"] = "only a memory input differs (its data may never reach a port)"


def differing_ports(vcd, low_bits=None):
    """Unit ports whose gold_/gate_ copies differ at the last time step of the VCD (a port
    qualified per lane: in a lane whose qualifier bit is set; low_bits: {flattened port: N}, the N
    low bits of each lane left out)."""
    low_bits = low_bits or {}
    ids, value, width = {}, {}, {}
    with open(vcd) as f:
        for line in f:
            t = line.split()
            if t[:1] == ["$var"] and len(t) >= 5:
                ids.setdefault(t[3], []).append(t[4])
                width[t[4]] = int(t[2])
            elif line.startswith("b") and len(t) == 2:
                for n in ids.get(t[1], []):
                    value[n] = t[0][1:]
            elif line[:1] in "01xz" and len(line.strip()) > 1 and not line.startswith("#"):
                for n in ids.get(line.strip()[1:], []):
                    value[n] = line[0]
    full = lambda name, v: v.rjust(width.get(name, len(v)), "0")
    ports = []
    for n, v in value.items():
        if not n.startswith("gold_p_"):
            continue
        other = value.get("gate_p_" + n[len("gold_p_"):])
        if other is None:
            continue
        a, b = full(n, v), full(n, other)
        qname = "qual_" + n[len("gold_"):]
        q = value.get(qname)
        if q is not None:
            q = full(qname, q)
            if "1" not in q:
                continue  # a qualified port while its consumer does not read it
            # per lane: bit i (from the right) qualifies lane i; the low bits of a lane are left out
            low = low_bits.get(n[len("gold_p_"):], 0)
            lane = len(a) // len(q)
            lanes = [i for i in range(len(q)) if q[len(q) - 1 - i] == "1"]
            if all(a[len(a) - (i + 1) * lane:len(a) - i * lane - low] == b[len(b) - (i + 1) * lane:len(b) - i * lane - low]
                   for i in lanes):
                continue
        if a != b:
            ports.append(n[len("gold_p_"):])
    return sorted(ports)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", required=True, help="gen_mutants.py output (prepared.il, mutations.ys, mutants.json)")
    ap.add_argument("--mutants", required=True, help="mutant ids, comma separated")
    ap.add_argument("--depth", type=int, default=40, help="cycles K searched for a difference (default 40)")
    ap.add_argument("--timeout", type=int, default=120, help="solver seconds per mutant (default 120)")
    ap.add_argument("--map-memories-below", type=int, default=8192,
                    help="bit-blast memories smaller than this many bits, cut the others (default 8192)")
    ap.add_argument("--qualify", action="append", default=[], metavar="PORT=WHEN[@DELAY]",
                    help="compare output PORT only where port WHEN (an input, or the unmutated copy's output) "
                         "was non-zero DELAY cycles before (default 0): where the unit's consumer reads it")
    ap.add_argument("--scorr-seconds", type=int, default=None,
                    help="wall seconds for signal correspondence, out of --timeout (default a third of it; 0 skips it: "
                         "bmc3 and PDR then search the whole miter)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="ABC processes at once (default 1)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    for f in ("prepared.il", "mutations.ys", "mutants.json"):
        if not os.path.exists(os.path.join(a.model_dir, f)):
            fail(f"{a.model_dir}: {f} missing (a gen_mutants.py output directory is needed)")
    for tool in ("yosys", "yosys-abc"):
        if shutil.which(tool) is None:
            fail(f"{tool} not found on PATH (it comes with Debian's yosys package: make setup)")
    meta = load_mutant_list(a.model_dir, fail)
    ids = parse_ids(a.mutants, meta["count"], fail)
    if a.depth < 1 or a.timeout < 1 or a.jobs < 1:
        fail("--depth, --timeout and --jobs must be positive")
    if a.scorr_seconds is not None and not 0 <= a.scorr_seconds < a.timeout:
        fail(f"--scorr-seconds {a.scorr_seconds}: must lie in 0..{a.timeout - 1} (a part of --timeout {a.timeout})")
    qualifiers = parse_qualifiers(a.qualify)
    top = meta["top"] + "__mutants"
    work = os.path.abspath(os.path.join(a.out, "work"))
    vcd_dir = os.path.abspath(os.path.join(a.out, "witnesses"))
    try:
        os.makedirs(work, exist_ok=True)
        os.makedirs(vcd_dir, exist_ok=True)
    except OSError as e:
        fail(f"--out {a.out}: cannot create the output directory ({e})")
    started = time.monotonic()
    ports, cut_memories = cut_unit(os.path.abspath(a.model_dir), top, work, a.map_memories_below)
    outs, rst = write_miter(ports, top, meta["selector_width"], work, qualifiers)
    # The miter of a large unit takes Yosys minutes: a rerun (more mutants, another budget) on
    # the same --out reuses it when the unit and the miter source are byte for byte the same.
    key = miter_key(work)
    key_file = os.path.join(work, "miter.key")
    if os.path.exists(os.path.join(work, "miter.il")) and os.path.exists(key_file) and open(key_file).read() == key:
        print(f"formal_triage: reusing the miter in {work} (same unit netlist and miter)")
    else:
        if os.path.exists(key_file):
            os.remove(key_file)
        build_miter(work)
        with open(key_file, "w") as f:
            f.write(key)
    setup = time.monotonic() - started
    aig, sel, merged = write_aigs(work, ids)
    results = parallel(lambda mid: check_mutant(work, mid, a.depth, a.timeout, a.scorr_seconds), ids, a.jobs)
    for rec in results:
        rec["registers_merged"] = merged[rec["id"]]
    replay_witnesses(work, aig, sel, results, vcd_dir, {flat(q[0])[len("p_"):]: q[4] for q in qualifiers})
    for rec in results:
        extra = f" after {rec['witness_cycles']} cycles at {', '.join(rec['ports']) or '?'}" \
            if rec["class"] == "distinguishable" else f" ({rec['reason']})" if "reason" in rec else ""
        print(f"mutant {rec['id']}: {rec['class']}{extra} [solver {rec['seconds']} s]")
    print(f"formal_triage: {len(ids)} mutants in {time.monotonic() - started:.0f} s (miter {setup:.0f} s)")
    with open(os.path.join(a.out, "triage.json"), "w") as f:
        json.dump({"top": meta["top"], "depth": a.depth, "timeout": a.timeout, "scorr_seconds": a.scorr_seconds,
                   "reset": rst,
                   "qualified": [{"port": p, "when": w, "delay": d, "lanes": l, "low_bits": lo}
                                 for p, w, d, l, lo in qualifiers],
                   "memories_cut": len(cut_memories),
                   "seconds": round(time.monotonic() - started, 1), "miter_seconds": round(setup, 1), "mutants": results}, f, indent=1)


if __name__ == "__main__":
    main()
