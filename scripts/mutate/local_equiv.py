#!/usr/bin/env python3
"""Local equivalence of mutants: is a mutated combinational leaf instance still the same function?

A mutant whose cell sits inside a purely combinational leaf module (no flops, memories or
sub-instances: a float adder, a multiplier, a narrowing step) is equivalent to the design if that
one module, mutated, computes the same outputs as the unmutated module for every input. The check
is a SAT proof on two copies of the module alone, so it stays small where the whole-unit miter of
formal_triage.py does not fit in memory (v1 PDP: 150 float adders per copy). It is sound for
`equivalent` only: a local difference may still be unreachable from the unit's ports, so a
`differs` verdict comes with the input values that show it, for a person (or the unit-level
triage) to judge whether the unit can produce them.

Usage: local_equiv.py --model-dir build/mutation/v1/pdp --mutants 1,2,3 --out DIR
Writes DIR/local_equiv.json: per mutant `equivalent`, `differs` (with the inputs and outputs of
one witness), or `not local` (the cell's module, with what it instantiates, holds state) with the reason.
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


def same_source(src, mutant):
    """Whether a re-elaborated cell's source spans are the mutated cell's: each of its spans is one
    of the mutant's recorded `sources` (the flattened cell carries them all), or, for a mutant
    list without them, the mutant's location is one of its spans."""
    spans = [x for x in src.split("|") if x]
    sources = mutant.get("sources")
    if sources:
        return bool(spans) and all(any(span.endswith(x) for x in sources) for span in spans)
    return mutant.get("location", "") in src


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


def check(work, il, module, m, timeout):
    """SAT proof that `module` with mutant m applied equals `module` for every input."""
    args = f"-mode {m['mode']} -module gate -cell {m['local']} -port {m['port']} -portbit {m['portbit']}"
    if m.get("ctrlbit", -1) >= 0:
        args += f" -ctrlbit {m['ctrlbit']}"
    tag = f"m{m['id']}"
    script = f"""read_rtlil {il}
hierarchy -top {module}
rename {module} gold
setundef -zero gold
copy gold gate
mutate {args}
opt_clean
miter -equiv -flatten -make_outputs gold gate miter
hierarchy -top miter
flatten
opt -fast
sat -verify -prove trigger 0 -show-ports -set-init-zero miter
"""
    started = time.monotonic()
    rc, log = yosys(script, work, tag, timeout)
    secs = round(time.monotonic() - started, 1)
    text = open(log).read() if os.path.exists(log) else ""
    if rc is None:
        return {"class": "unknown", "reason": f"SAT over {timeout} s", "seconds": secs}
    if "SAT proof finished - no model found: SUCCESS" in text:
        return {"class": "equivalent", "seconds": secs}
    if "SAT proof finished - model found: FAIL" in text:
        return {"class": "differs", "witness": witness(text), "seconds": secs}
    err = [l for l in text.splitlines() if "ERROR" in l]
    return {"class": "unknown", "reason": (err[0] if err else f"yosys exit {rc}"), "seconds": secs}


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
    a = ap.parse_args()
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
    results, leaves = [], {}
    flat_types = flattened_cell_types(os.path.join(a.model_dir, "prepared.il"), {by_id[i]["cell"] for i in ids})
    for mid in ids:
        m = dict(by_id[mid])
        path, local = split_cell(m["cell"])
        rec = {"id": mid, "cell": m["cell"], "location": m.get("location", "")}
        module, err = (None, "a cell of the unit's own module") if path is None else resolve(mods, top_name, path)
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
            elif seq:
                rec.update({"class": "not local", "reason": f"{module} holds state ({', '.join(seq[:3])})"})
            else:
                m["local"] = local
                rec["module"] = module
                rec["instance"] = ".".join(path)
                leaf = leaf_netlist(work, il, module, leaves)
                rec.update(check(work, leaf, module, m, a.timeout) if leaf else
                           {"class": "unknown", "reason": f"extracting {module} failed"})
        results.append(rec)
        write_results(a.out, meta["top"], results)  # after each mutant: an interrupted run keeps what it has
        w = rec.get("witness")
        print(f"mutant {mid}: {rec['class']}" + (f" ({rec['reason']})" if "reason" in rec else "") +
              (f" in {rec['instance']}" if "instance" in rec else "") +
              (" witness " + " ".join(f"{k}={v}" for k, v in sorted(w.items())) if w else ""), flush=True)


if __name__ == "__main__":
    main()
