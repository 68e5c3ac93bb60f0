#!/usr/bin/env python3
"""Local equivalence of mutants: does a mutated instance still compute the same function?

A mutant whose cell sits inside a purely combinational module (no flops or memories in it or
below: a float adder, a multiplier, a narrowing step) is equivalent to the design if that one
module, mutated, computes the same outputs as the unmutated module for every input. The check is a
SAT proof on two copies of the module alone, so it stays small where the whole-unit miter of
formal_triage.py does not fit in memory (v1 PDP: 150 float adders per copy).

A module with flops (and no memories or latches) is checked with its registers cut: each flop
becomes an input (its present state) and an output (everything it samples: next state, enable,
reset), so the proof is that for every input and every present state both copies give the same
outputs and the same next state. From the same reset state they then stay equal for ever.
Memories are cut at their ports (read data free; addresses, enables and write data compared). A
mutation of a flop cell itself is applied before the cut, on a copy of the flattened module.

It is sound for `equivalent` only: a local difference may need inputs the unit never produces (or,
with registers cut, a state it never reaches), so a `differs` verdict comes with the values that
show it, for a person (or the unit-level triage) to judge whether the unit can produce them.

Engines (--engine): Yosys' `sat` first, which gives a witness for a difference; what runs past its
budget is mapped to an AIG and checked by ABC's `&cec` (SAT sweeping merges the two copies' equal
nodes first, so an instance of many float adders with one mutated cell is proved in seconds where
plain SAT runs out of time; a difference found by ABC comes without a witness).

--lift N checks the instance N levels above the mutated one, flattened, instead: its own logic
around the mutated instance (constant inputs, the widening in front of an adder, a selection
behind it) then limits what the mutated instance receives and which of its outputs matter. As
sound for `equivalent` as the instance alone; the proof is larger.

Usage: local_equiv.py --model-dir build/mutation/v1/pdp --mutants 1,2,3 --out DIR [--lift N]
Writes DIR/local_equiv.json: per mutant `equivalent`, `differs` (with the inputs and outputs of
one witness; `registers_cut` counts the flops and memory ports cut open), or `not local` (the
module holds latches, or the re-elaborated cell is not the mutated one) with the reason.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

from mutant_list import load_mutant_list, parse_ids

SEQUENTIAL = re.compile(r"^\$(a?l?dffe?|adffe|sdff\w*|dffsr\w*|dlatch\w*|adlatch|mem\w*|ff|aldff\w*|fsm|sr)$")
# state the register cut handles: flops (async2sync and dffunmap turn them all into plain $dff)
FLOP = re.compile(r"^\$(a?dffe?|sdff\w*|dffsr\w*|aldff\w*|dff)$")


def fail(msg):
    print(f"local_equiv: {msg}", file=sys.stderr)
    sys.exit(2)


def yosys(script, work, name, timeout=None):
    path = os.path.join(work, name + ".ys")
    with open(path, "w") as f:
        f.write(script)
    log = os.path.join(work, name + ".log")
    try:
        r = subprocess.run(["yosys", "-l", log, "-q", "-s", path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, log
    return r.returncode, log


def hierarchy_script(model_dir, out_il):
    """The front of gen_mutants.py's mutate.ys (read, elaborate, rename, proc) without flatten:
    Yosys numbers cells per module deterministically, so the flattened mutant cell
    `$flatten\\u_a.\\u_b.$procmux$17` is cell `$procmux$17` of u_b's module here."""
    lines = []
    for line in open(os.path.join(model_dir, "mutate.ys")):
        if line.strip() == "flatten":
            break
        lines.append(line.rstrip("\n"))
    if not any(l.strip() == "proc" for l in lines):
        fail(f"{model_dir}/mutate.ys: no 'proc' before 'flatten' (not a gen_mutants.py script)")
    return "\n".join(lines + [f"write_rtlil {out_il}", ""])


def parse_modules(il_path):
    """module name -> {"cells": {cell name: type}, "src": {cell name: src attribute}} from an RTLIL file."""
    mods, cur, src = {}, None, ""
    for line in open(il_path):
        t = line.split()
        if not t:
            continue
        if t[0] == "module":
            cur = mods.setdefault(t[1], {"cells": {}, "src": {}})
        elif t[0] == "attribute" and len(t) >= 3 and t[1] == "\\src":
            src = t[2].strip('"')
        elif t[0] == "cell" and cur is not None:
            cur["cells"][t[2]] = t[1]
            cur["src"][t[2]] = src
        if t[0] != "attribute":
            src = ""
    return mods


def state_cells(mods, module):
    """Types of the flops, latches and memories in `module` and the modules it instantiates
    (the check flattens them in: only purely combinational instances are compared)."""
    found, todo, seen = set(), [module], set()
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        for t in mods[mod]["cells"].values():
            if t in mods:
                todo.append(t)
            elif SEQUENTIAL.match(t) or not t.startswith("$"):
                found.add(t)
    return sorted(found)


GENERATED_DIR = re.compile(r"/gen/[^/]+/rtl/")


def same_source(src, mutant):
    """Whether a re-elaborated cell's source spans are the mutated cell's: each of its spans is one
    of the mutant's recorded `sources` (the flattened cell carries them all), or, for a mutant
    list without them, the mutant's location is one of its spans."""
    # gen_mutants.py records a generated register block's spans from gen/rtl/, while the files
    # are read from the configuration's build/gen/<cfg>/rtl/
    spans = [GENERATED_DIR.sub("/gen/rtl/", x) for x in src.split("|") if x]
    sources = mutant.get("sources")
    if sources:
        return bool(spans) and all(any(span.endswith(x) for x in sources) for span in spans)
    return mutant.get("location", "") in "|".join(spans)


def flattened_cell_types(il_path, names):
    """Types of the named cells in the flattened, mutated-unit netlist (prepared.il)."""
    found = {}
    for line in open(il_path):
        if line.startswith("  cell "):
            t = line.split()
            if t[2] in names:
                found[t[2]] = t[1]
    return found


def split_cell(cell):
    """'$flatten\\u_core.\\u_w.\\g[3].u_op.$shr$f.sv:42$7' -> (['u_core', 'u_w', 'g[3].u_op'], '$shr$f.sv:42$7')."""
    if not cell.startswith("$flatten\\"):
        return None, cell
    rest = cell[len("$flatten"):]
    cut = rest.find(".$")
    if cut < 0:
        return None, cell
    path, local = rest[:cut], rest[cut + 1:]
    return [p.lstrip("\\") for p in path.split(".\\") if p.strip("\\")], local


def resolve(mods, top, path):
    """Module of the instance at `path` below `top`, or an error text."""
    mod = top
    for seg in path:
        name = "\\" + seg.lstrip("\\")
        cells = mods.get(mod, {}).get("cells", {})
        if name not in cells:
            return None, f"no instance {name} in {mod}"
        mod = cells[name]
    return mod, None


def leaf_netlist(work, il, module, cache):
    """`module` alone in its own RTLIL file (read once per module: the whole design is large)."""
    if module not in cache:
        path = os.path.join(work, f"leaf{len(cache)}.il")
        rc, log = yosys(f"read_rtlil {il}\nhierarchy -top {module}\nwrite_rtlil {path}\n", work, f"leaf{len(cache)}")
        cache[module] = path if rc == 0 else None
    return cache[module]


# Ports of the cells the cut removes: (width parameter or 1, True when the port becomes an input).
# A flop's Q and a memory read port's DATA are present state (inputs of the cut netlist); what a
# flop samples and what a memory port is given (address, enable, write data) are outputs.
CUT_PORTS = {
    "$dff": {"\\Q": ("WIDTH", True), "\\D": ("WIDTH", False), "\\CLK": (None, False)},
    "$memrd": {"\\DATA": ("WIDTH", True), "\\ADDR": ("ABITS", False), "\\EN": (None, False), "\\CLK": (None, False)},
    "$memrd_v2": {"\\DATA": ("WIDTH", True), "\\ADDR": ("ABITS", False), "\\EN": (None, False),
                  "\\CLK": (None, False), "\\ARST": (None, False), "\\SRST": (None, False)},
    "$memwr": {"\\DATA": ("WIDTH", False), "\\ADDR": ("ABITS", False), "\\EN": ("WIDTH", False),
               "\\CLK": (None, False)},
    "$memwr_v2": {"\\DATA": ("WIDTH", False), "\\ADDR": ("ABITS", False), "\\EN": ("WIDTH", False),
                  "\\CLK": (None, False)},
}
# initial contents are the same in both copies: dropped
DROPPED = {"$meminit", "$meminit_v2"}


def param_int(value):
    """An RTLIL parameter value as an integer: `4` or a sized binary constant `32'00..0100`."""
    return int(value.split("'")[1], 2) if "'" in value else int(value)


def cut_text(text):
    """RTLIL `text` with every flop and memory port of every module cut open: (text, cells cut per
    module, names of state cells left). Port names come from the cut cell's name, so two copies of
    a module (gold and a mutated gate) get the same ports whatever order their cells are in."""
    out, decls, conns, cell, counts, module = [], [], [], None, {}, None
    for line in text.split("\n"):
        t = line.split()
        if cell is not None:  # inside a cell being removed
            if t[:1] == ["parameter"]:
                cell["params"][t[1].lstrip("\\")] = t[2]
            elif t[:1] == ["connect"]:
                cell["conns"][t[1]] = " ".join(t[2:])
            elif t[:1] == ["end"]:
                if cell["type"] in CUT_PORTS:
                    ports = CUT_PORTS[cell["type"]]
                    unknown = sorted(set(cell["conns"]) - set(ports))
                    if unknown:
                        return None, counts, [f"a {cell['type']} with ports {unknown}"]
                    tag = hashlib.sha1(cell["name"].encode()).hexdigest()[:10]
                    for port, sig in sorted(cell["conns"].items()):
                        param, is_input = ports[port]
                        width = param_int(cell["params"].get(param, "1")) if param else 1
                        name = f"\\__cut_{'q' if is_input else 'd'}_{tag}_{port.lstrip(chr(92)).lower()}"
                        decls.append(f"  wire width {width} {'input' if is_input else 'output'} "
                                     f"{100000 + len(decls)} {name}")
                        conns.append(f"  connect {sig} {name}" if is_input else f"  connect {name} {sig}")
                    counts[module] = counts.get(module, 0) + 1
                cell = None
            continue
        if t[:1] == ["cell"] and (t[1] in CUT_PORTS or t[1] in DROPPED):
            cell = {"type": t[1], "name": t[2], "params": {}, "conns": {}}
            while out and out[-1].lstrip().startswith("attribute"):
                out.pop()  # the cell's attributes go with it
            continue
        if t[:1] == ["module"]:
            module, decls, conns = t[1], [], []
            out.append(line)
            out.append("@DECLS@")
            continue
        if line == "end" and module is not None:
            out += conns
            out[out.index("@DECLS@")] = "\n".join(decls)
            module = None
        out.append(line)
    text = "\n".join(out)
    return text, counts, sorted({t for t in re.findall(r"^  cell (\S+) ", text, re.M) if SEQUENTIAL.match(t)})


def cut_netlist(work, il, module, cache):
    """`module`, its instances flattened in, with its state cut open: (path, number of cells cut),
    or (None, reason). async2sync and dffunmap make each flop a plain $dff (async reset, enable and
    sync reset become logic in front of it); each $dff then becomes an input carrying its Q (the
    present state) and an output carrying its D (the next state). A memory's read ports give their
    data as inputs and their address and enable as outputs, its write ports everything as outputs:
    with equal addresses, enables and write data, both copies' contents stay equal."""
    if module in cache:
        return cache[module]
    tag = f"cut{len(cache)}"
    raw = os.path.join(work, tag + "_raw.il")
    rc, log = yosys(f"read_rtlil {il}\nhierarchy -top {module}\nflatten\nasync2sync\ndffunmap\n"
                    f"write_rtlil {raw}\n", work, tag)
    if rc != 0:
        cache[module] = (None, f"preparing {module} for the register cut failed (see {log})")
        return cache[module]
    text, counts, left = cut_text(open(raw).read())
    if text is None or left:
        cache[module] = (None, f"{module} holds state the register cut does not handle ({', '.join(left[:3])})")
        return cache[module]
    path = os.path.join(work, tag + ".il")
    open(path, "w").write(text)
    cache[module] = (path, counts.get(module, 0))
    return cache[module]


def mutate_args(m):
    args = f"-mode {m['mode']} -module gate -cell {m['local']} -port {m['port']} -portbit {m['portbit']}"
    if m.get("ctrlbit", -1) >= 0:
        args += f" -ctrlbit {m['ctrlbit']}"
    return args


def check_flop(work, il, module, m, timeout):
    """A mutation of a flop cell, or any cell with --lift: mutated on a copy of the flattened module
    (before the cut, which removes flop cells; Yosys' mutate refuses a cell name it cannot find);
    then both copies are cut and compared like check()."""
    tag = f"m{m['id']}"
    raw = os.path.join(work, tag + "_raw.il")
    rc, log = yosys(f"read_rtlil {il}\nhierarchy -top {module}\nflatten\nrename {module} gold\n"
                    f"setundef -zero gold\ncopy gold gate\nmutate {mutate_args(m)}\nopt_clean\n"
                    f"async2sync\ndffunmap\nwrite_rtlil {raw}\n", work, tag + "_prep")
    if rc != 0:
        return {"class": "unknown", "reason": f"mutating the flattened {module} failed (see {log})"}, 0
    text, counts, left = cut_text(open(raw).read())
    if text is None or left:
        return {"class": "not local", "reason": f"{module} holds state the register cut does not handle"}, 0
    path = os.path.join(work, tag + "_cut.il")
    open(path, "w").write(text)
    return prove(work, tag, f"read_rtlil {path}\n", timeout), counts.get("\\gold", 0)


# --assume: a Verilog module `local_equiv_domain` whose inputs are named after ports of the checked
# instance and whose output `ok` says which inputs the instance can receive in the unit; the proof
# then only looks at inputs with ok = 1 (the claim behind the domain is the user's to argue).
ASSUME = None
# --lift N: check the instance N levels above the mutated one (flattened), not the mutated one
LIFT = 0
# --engine: auto = Yosys' SAT, then ABC on what ran past the budget; sat or abc alone
ENGINE = "auto"


def domain_ports(path):
    """(width declaration, name) of each input of module local_equiv_domain in `path`."""
    text = open(path).read()
    m = re.search(r"module\s+local_equiv_domain\s*\((.*?)\)\s*;", text, re.S)
    if not m:
        fail(f"--assume {path}: no module local_equiv_domain(<inputs named after the instance's ports>, output ok)")
    ports = re.findall(r"input\s+(?:wire\s+|logic\s+)?(\[[^\]]+\])?\s*(\w+)", m.group(1))
    if not ports or not re.search(r"output\s+(?:wire\s+|logic\s+)?ok\b", m.group(1)):
        fail(f"--assume {path}: local_equiv_domain needs inputs and an output `ok`")
    return ports


def assume_script(work):
    ports = domain_ports(ASSUME)
    wrapper = os.path.join(work, "assume_top.v")
    decl = ", ".join(f"input {w} {n}" for w, n in ports)
    conn = ", ".join(f".in_{n}({n})" for _, n in ports)
    with open(wrapper, "w") as f:
        f.write(f"module local_equiv_top({decl}, output bad);\n  wire t, ok;\n"
                f"  miter m ({conn}, .trigger(t));\n"
                f"  local_equiv_domain d ({', '.join(f'.{n}({n})' for _, n in ports)}, .ok(ok));\n"
                f"  assign bad = t && ok;\nendmodule\n")
    # miter inputs the domain does not name stay undriven: sat leaves them free
    return (f"read_verilog -sv {ASSUME}\nread_verilog -sv {wrapper}\nhierarchy -top local_equiv_top\nproc\n"
            f"flatten\nopt -fast\n")


def prove(work, tag, load, timeout):
    """Runs the miter of modules gold and gate that `load` leaves and reads the verdict: Yosys' SAT
    first (it gives a witness); past its budget, ABC's combinational equivalence check."""
    if ENGINE == "abc":
        return abc_prove(work, tag, load, timeout, sat_first=False)
    script = load + """miter -equiv -flatten -make_outputs gold gate miter
hierarchy -top miter
flatten
opt -fast
""" + (assume_script(work) + "sat -verify -prove bad 0 -show-ports local_equiv_top\n" if ASSUME else
       "sat -verify -prove trigger 0 -show-ports -set-init-zero miter\n")
    started = time.monotonic()
    rc, log = yosys(script, work, tag, timeout)
    secs = round(time.monotonic() - started, 1)
    text = open(log).read() if os.path.exists(log) else ""
    if rc is None and ENGINE == "sat":
        return {"class": "unknown", "reason": f"SAT over {timeout} s", "seconds": secs}
    if rc is None:
        verdict = abc_prove(work, tag, load, timeout)
        verdict["seconds"] = round(secs + verdict.get("seconds", 0), 1)
        return verdict
    if "SAT proof finished - no model found: SUCCESS" in text:
        return {"class": "equivalent", "seconds": secs}
    if "SAT proof finished - model found: FAIL" in text:
        return {"class": "differs", "witness": witness(text), "seconds": secs}
    err = [l for l in text.splitlines() if "ERROR" in l]
    return {"class": "unknown", "reason": (err[0] if err else f"yosys exit {rc}"), "seconds": secs}


def abc_prove(work, tag, load, timeout, sat_first=True):
    """The same miter mapped to an AIG and checked by ABC (`&cec -m`): SAT sweeping merges the
    copies' equal nodes first, so a large instance with one mutated cell is proved where plain SAT
    runs out of time. A difference comes without a witness (Yosys' SAT did not find one in time)."""
    first = f"SAT over {timeout} s; " if sat_first else ""
    if shutil.which("yosys-abc") is None:
        return {"class": "unknown", "reason": f"{first}no yosys-abc for the ABC engine"}
    aig = os.path.join(work, tag + ".aig")
    if ASSUME:
        front = load + "miter -equiv -flatten -make_outputs gold gate miter\nhierarchy -top miter\nflatten\nopt -fast\n" + \
            assume_script(work)
    else:
        front = load + "miter -equiv -flatten gold gate miter\nhierarchy -top miter\nflatten\n"
    started = time.monotonic()
    rc, log = yosys(front + f"techmap\naigmap\nsetundef -zero\nopt_clean\nwrite_aiger -zinit {aig}\n",
                    work, tag + "_aig", timeout)
    if rc != 0:
        secs = round(time.monotonic() - started, 1)
        why = f"mapping the miter for ABC ran past {timeout} s" if rc is None else f"mapping the miter for ABC failed (see {log})"
        return {"class": "unknown", "reason": first + why, "seconds": secs}
    left = max(1, timeout - int(time.monotonic() - started))
    try:
        r = subprocess.run(["yosys-abc", "-c", f"read_aiger {aig}; &get -n; &cec -m"], capture_output=True,
                           text=True, timeout=left)
        out = r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        out = None
    secs = round(time.monotonic() - started, 1)
    if out is not None and "Networks are equivalent" in out:
        return {"class": "equivalent", "engine": "abc", "seconds": secs}
    if out is not None and "NOT EQUIVALENT" in out:
        return {"class": "differs", "engine": "abc", "witness": {}, "seconds": secs,
                "reason": "ABC found a difference (no witness decoded)"}
    return {"class": "unknown", "reason": f"{first}ABC gave no verdict in {timeout} s", "seconds": secs}


def check(work, il, module, m, timeout):
    """SAT proof that `module` with mutant m applied equals `module` for every input."""
    return prove(work, f"m{m['id']}", f"""read_rtlil {il}
hierarchy -top {module}
rename {module} gold
setundef -zero gold
copy gold gate
mutate {mutate_args(m)}
opt_clean
""", timeout)


def witness(text):
    """Signal -> binary value of the SAT model table Yosys prints."""
    vals = {}
    for line in text.splitlines():
        t = line.split()
        if len(t) == 4 and t[0].startswith("\\") and re.fullmatch(r"[01x]+", t[3]):
            vals[t[0].lstrip("\\")] = t[3]
    return vals


def write_results(out, top, results):
    path = os.path.join(out, "local_equiv.json")
    with open(path + ".tmp", "w") as f:
        json.dump({"top": top, "mutants": results}, f, indent=1)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", required=True, help="gen_mutants.py output (mutate.ys, mutants.json)")
    ap.add_argument("--mutants", required=True, help="mutant ids, comma separated")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per mutant (default 120)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--assume", help="Verilog module local_equiv_domain(<instance inputs>, output ok): "
                    "only inputs with ok = 1 count (a claim about the unit the user argues)")
    ap.add_argument("--lift", type=int, default=0,
                    help="check the enclosing instance this many levels up, flattened (default 0: the mutated "
                         "instance itself); sound for equivalent as without it, more context, a larger proof")
    ap.add_argument("--engine", choices=("auto", "sat", "abc"), default="auto",
                    help="auto (default): Yosys' SAT (witnesses), then ABC's &cec on what ran past the budget; "
                         "sat or abc alone")
    a = ap.parse_args()
    global ASSUME, LIFT, ENGINE
    ENGINE = a.engine
    if a.lift < 0:
        fail(f"--lift {a.lift}: must be 0 or more")
    LIFT = a.lift
    if a.assume:
        if not os.path.exists(a.assume):
            fail(f"--assume {a.assume}: no such file")
        ASSUME = os.path.abspath(a.assume)
        domain_ports(ASSUME)
    if a.timeout < 1:
        fail(f"--timeout {a.timeout}: must be at least 1 second")
    for f in ("mutate.ys", "mutants.json", "prepared.il"):
        if not os.path.exists(os.path.join(a.model_dir, f)):
            fail(f"{a.model_dir}: {f} missing (a gen_mutants.py output directory is needed)")
    if shutil.which("yosys") is None:
        fail("yosys not found on PATH (Debian's yosys package: make setup)")
    meta = load_mutant_list(a.model_dir, fail)
    by_id = {m["id"]: m for m in meta["mutants"]}
    top = meta["top"] + "__mutants"
    ids = parse_ids(a.mutants, meta["count"], fail)
    if any(i not in by_id for i in ids):
        fail(f"--mutants: ids {[i for i in ids if i not in by_id]} are not in {a.model_dir}/mutants.json")
    work = os.path.abspath(os.path.join(a.out, "work"))
    try:
        os.makedirs(work, exist_ok=True)
    except OSError as e:
        fail(f"--out {a.out}: cannot create the output directory ({e})")
    il = os.path.join(work, "hierarchy.il")
    script = hierarchy_script(a.model_dir, il)
    key = hashlib.sha256(script.encode()).hexdigest()
    key_file = il + ".key"
    if not (os.path.exists(il) and os.path.exists(key_file) and open(key_file).read() == key):
        rc, log = yosys(script, work, "hierarchy")
        if rc != 0:
            fail(f"elaborating the model failed (see {log})")
        open(key_file, "w").write(key)
    mods = parse_modules(il)
    if "\\" + top not in mods and top not in mods:
        fail(f"{il}: no module {top}")
    top_name = "\\" + top if "\\" + top in mods else top
    results, leaves, cuts = [], {}, {}
    flat_types = flattened_cell_types(os.path.join(a.model_dir, "prepared.il"), {by_id[i]["cell"] for i in ids})
    for mid in ids:
        m = dict(by_id[mid])
        path, local = split_cell(m["cell"])
        rec = {"id": mid, "cell": m["cell"], "location": m.get("location", "")}
        if ASSUME:
            rec["assumed"] = ASSUME
        module, err = (top_name, None) if path is None else resolve(mods, top_name, path)
        if module is None:
            rec.update({"class": "not local", "reason": err})
        else:
            cells = mods[module]["cells"]
            seq = state_cells(mods, module)
            if local not in cells:
                rec.update({"class": "not local", "reason": f"no cell {local} in {module}"})
            elif cells[local] != flat_types.get(m["cell"]) or not same_source(mods[module]["src"][local], m):
                # the re-elaborated module must name the very cell that was mutated
                rec.update({"class": "not local", "reason": f"cell {local} of {module} ({cells[local]}, "
                            f"{mods[module]['src'][local]}) is not the mutated one ({flat_types.get(m['cell'])}, "
                            f"{m.get('location', '')})"})
            elif SEQUENTIAL.match(cells[local]) and not FLOP.match(cells[local]):
                rec.update({"class": "not local", "reason": f"the mutated cell is a {cells[local]} (a memory or latch)"})
            elif any(not (FLOP.match(t) or t in CUT_PORTS or t in DROPPED) for t in seq):
                rec.update({"class": "not local", "reason": f"{module} holds state other than flops and memories "
                            f"({', '.join(t for t in seq if not (FLOP.match(t) or t in CUT_PORTS or t in DROPPED))})"})
            elif LIFT and (path is None or len(path) < LIFT):
                rec.update({"class": "not local", "reason": f"--lift {LIFT}: the instance is fewer than {LIFT} levels deep"})
            elif LIFT:
                # the enclosing instance LIFT levels up, flattened: its own logic around the mutated
                # instance limits what that instance receives (constants, widenings, selections)
                outer, rest = path[:-LIFT], path[-LIFT:]
                anc, err = (top_name, None) if not outer else resolve(mods, top_name, outer)
                anc_seq = state_cells(mods, anc) if anc else []
                if anc is None:
                    rec.update({"class": "not local", "reason": err})
                elif any(not (FLOP.match(t) or t in CUT_PORTS or t in DROPPED) for t in anc_seq):
                    rec.update({"class": "not local", "reason": f"{anc} holds state other than flops and memories"})
                else:
                    m["local"] = "$flatten" + "".join(f"\\{seg}." for seg in rest) + local
                    rec.update({"module": anc, "instance": ".".join(outer) if outer else "(the unit)",
                                "lifted": LIFT, "mutated_instance": ".".join(path)})
                    verdict, cut = check_flop(work, il, anc, m, a.timeout)
                    if anc_seq:
                        rec["registers_cut"] = cut
                    rec.update(verdict)
            else:
                m["local"] = local
                rec["module"] = module
                rec["instance"] = ".".join(path) if path else "(the unit)"
                if FLOP.match(cells[local]):  # the cut removes the flop: mutate it first
                    verdict, cut = check_flop(work, il, module, m, a.timeout)
                    rec["registers_cut"] = cut
                    rec.update(verdict)
                elif seq:  # compare the next state too, with the present state free
                    netlist, cut = cut_netlist(work, il, module, cuts)
                    if netlist is None:
                        rec.update({"class": "not local", "reason": cut})
                    else:
                        rec["registers_cut"] = cut
                        rec.update(check(work, netlist, module, m, a.timeout))
                else:
                    leaf = leaf_netlist(work, il, module, leaves)
                    rec.update(check(work, leaf, module, m, a.timeout) if leaf else
                               {"class": "unknown", "reason": f"extracting {module} failed"})
        results.append(rec)
        write_results(a.out, meta["top"], results)  # after each mutant: an interrupted run keeps what it has
        w = rec.get("witness")
        print(f"mutant {mid}: {rec['class']}" + (f" ({rec['reason']})" if "reason" in rec else "") +
              (f" in {rec['instance']}" if "instance" in rec else "") +
              (f" with {rec['registers_cut']} registers cut" if "registers_cut" in rec else "") +
              (" witness " + " ".join(f"{k}={v}" for k, v in sorted(w.items())) if w else ""), flush=True)


if __name__ == "__main__":
    main()
