#!/usr/bin/env python3
"""Waiver entries (regress/plans/mutation_waivers.yaml) for the mutants local_equiv.py proved
equivalent: each names its mutant by mutation identity (mode, location, port, bit, ctrlbit, cell
without Yosys' numbers) and says which instance the proof covered and how (registers cut or not).
When several cells of the model's design share the cell name and source span (the iterations of
an unrolled loop), the identity cannot tell them apart and a proof for one iteration says nothing
of the others: such an entry is also pinned to the mutant id (`mutant:`), so a later sample that
draws another iteration is not waived by it. So is an entry whose cell the design does not show
under that span (or a model directory without prepared.il): unique or not is then not known.

Usage: local_waivers.py --model-dir build/mutation/v1/pdp --local DIR/local_equiv.json --model v1:pdp
                        --graded-at REV [--ids 5,140] [--source-root DIR] >> regress/plans/mutation_waivers.yaml
Exit 2 naming the input when a file is missing or malformed, an id has no `equivalent` verdict, or
its location has no source span (a waiver must name one).
"""
import argparse
import json
import os
import re
import sys

from mutant_list import load_mutant_list, parse_ids

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    print(f"local_waivers: {msg}", file=sys.stderr)
    sys.exit(2)


def cell_identity(cell):
    """The cell name as waivers give it (regress/src/mutation/mutant.cpp, cell_identity)."""
    cell = re.sub(r"/[^$\\:]*/", "", cell)
    return re.sub(r"\$[0-9]+(?=$|[.\\])", "", cell)


def generated_file(name, model_dir):
    """The model's copy of a generated register block that the mutant list names gen/rtl/<name>:
    the file list's build/gen/<cfg>/rtl/<name> (empty when the list has none)."""
    try:
        with open(os.path.join(model_dir, "filelist.f")) as f:
            paths = [l.strip() for l in f]
    except OSError:
        return ""
    return next((p for p in paths if re.search(r"/gen/[^/]+/rtl/" + re.escape(name) + "$", p)), "")


def source_line(location, root, model_dir=None):
    """The text of the location's first line, for the reason (empty when the file is not here)."""
    m = re.match(r"^(.*):(\d+)\.\d+-\d+\.\d+$", location)
    if not m:
        return ""
    path = os.path.join(root, m.group(1))
    if m.group(1).startswith("gen/rtl/") and model_dir and not os.path.exists(path):
        path = generated_file(m.group(1)[len("gen/rtl/"):], model_dir)
    try:
        with open(path) as f:
            return f.read().split("\n")[int(m.group(2)) - 1].strip()
    except (OSError, IndexError):
        return ""


def design_span(src, root):
    """A cell's source span as mutants.json gives locations: repository-relative, generated
    register blocks as gen/rtl/<name>."""
    src = re.sub(r"^.*/gen/[^/]+/rtl/", "gen/rtl/", src)
    return os.path.relpath(src, root) if os.path.isabs(src) else src


def shared_identities(model_dir, root):
    """(cell identity, source span) -> how many cells of the model's design (prepared.il) have it.
    Several cells share one when a loop or a generate block was unrolled inside one instance: the
    identity then does not say which iteration was proved. Empty when prepared.il is not there
    (every entry is then pinned)."""
    counts = {}
    try:
        with open(os.path.join(model_dir, "prepared.il")) as f:
            src = None
            for line in f:
                if line.startswith("  attribute \\src "):
                    src = line.split('"')[1]
                    continue
                if line.startswith("  cell ") and src is not None:
                    ident = cell_identity(line.split()[2])
                    for span in {design_span(x, root) for x in src.split("|")}:
                        counts[(ident, span)] = counts.get((ident, span), 0) + 1
                if not line.startswith("  attribute "):
                    src = None
    except OSError:
        return {}
    return counts


def quote(text):
    return "'" + text.replace("'", "''") + "'"


def entry(model, rev, m, v, root, model_dir=None, shared=1):
    cut = v.get("registers_cut", 0)
    how = (f"for every input and every present state, with its {cut} registers cut (each state element's "
           f"present value an input, what it samples an output: same outputs and same next state)"
           if cut else "for every input (SAT proof on the combinational instance alone)")
    if v.get("assumed"):
        how = (f"for every input in the domain of {os.path.relpath(v['assumed'], root)} (SAT proof on the instance "
               f"alone; the file's comment argues that the unit gives the instance nothing else)")
    if v.get("engine") == "abc":
        how = how.replace("SAT proof", "ABC equivalence check")
    if v.get("lifted"):
        how += f" (the mutated instance {v.get('mutated_instance', '?')} checked inside it, {v['lifted']} level(s) up)"
    line = source_line(m["location"], root, model_dir)
    module = v.get("module", "?").split("\\")[-1]  # "$paramod$<hash>\\dla_atom_fifo" -> dla_atom_fifo
    reason = (f"local_equiv.py: the instance {v.get('instance', '?')} ({module}) computes the same "
              f"outputs with this mutation as without it, {how}" + (f"; source line `{line}`" if line else ""))
    if shared > 1:
        reason += (f" (the cell is one of {shared} with this name and source span, e.g. iterations of an "
                   f"unrolled loop: the entry is pinned to mutant id {m['id']} of this sample and goes stale "
                   f"when the sample changes)")
    elif shared == 0:
        reason += (f" (the model's prepared.il shows no cell with this name and source span, so whether the "
                   f"identity names one cell is not known: the entry is pinned to mutant id {m['id']} of this "
                   f"sample and goes stale when the sample changes)")
    out = [f"  - model: {model}  # id {m['id']} of the model graded at {rev} (local_equiv: equivalent)"]
    if shared != 1:
        out.append(f"    mutant: {m['id']}")
    out += [f"    mode: {m['mode']}", f"    location: {m['location']}", f"    port: {m['port']}",
            f"    bit: {m['portbit']}"]
    if m["mode"] in ("cnot0", "cnot1"):
        out.append(f"    ctrlbit: {m['ctrlbit']}")
    out += [f"    cell: {quote(cell_identity(m['cell']))}", f"    reason: {quote(reason)}"]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", required=True, help="gen_mutants.py output (mutants.json)")
    ap.add_argument("--local", required=True, help="local_equiv.py's local_equiv.json")
    ap.add_argument("--model", required=True, help="<config>:<unit> of the waivers")
    ap.add_argument("--graded-at", required=True, help="the commit the ids refer to (for the comment)")
    ap.add_argument("--ids", help="only these ids (default: every equivalent verdict)")
    ap.add_argument("--source-root", default=ROOT, help="where the locations' files are (default: the repository)")
    a = ap.parse_args()
    if not re.fullmatch(r"[A-Za-z0-9_]+:[a-z0-9_]+", a.model):
        fail(f"--model {a.model}: must be <config>:<unit>")
    meta = load_mutant_list(a.model_dir, fail)
    by_id = {m["id"]: m for m in meta["mutants"]}
    try:
        with open(a.local) as f:
            verdicts = {v["id"]: v for v in json.load(f)["mutants"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{a.local}: not a local_equiv.json ({e})")
    ids = parse_ids(a.ids, meta["count"], fail) if a.ids else sorted(
        i for i, v in verdicts.items() if v.get("class") == "equivalent")
    for i in ids:
        if verdicts.get(i, {}).get("class") != "equivalent":
            fail(f"--ids: mutant {i} is not proved equivalent in {a.local}")
        if i not in by_id:
            fail(f"mutant {i} is not in {a.model_dir}/mutants.json")
        # a waiver names its mutation by a whole source span (regress/src/mutation/waivers.cpp);
        # Yosys gives some generated cells only a file, which no waiver can name
        if not re.fullmatch(r".+:\d+\.\d+-\d+\.\d+", by_id[i]["location"]):
            fail(f"mutant {i}: its location '{by_id[i]['location']}' has no source span (file:L.C-L.C), so no "
                 f"waiver can name it; leave it a survivor with its reason, or drop it from --ids")
    shared = shared_identities(a.model_dir, a.source_root)
    for i in ids:
        m = by_id[i]
        print(entry(a.model, a.graded_at, m, verdicts[i], a.source_root, a.model_dir,
                    shared.get((cell_identity(m["cell"]), m["location"]), 0)))


if __name__ == "__main__":
    main()
