#!/usr/bin/env python3
"""List the signal bits of one configuration's RTL that are constant by elaboration.

Yosys reads the DUT (its Verilog file list plus, for dlaverif's own RTL, the configuration's
generated register blocks), flattens it under the top module, marks every named wire `keep`
(else the optimiser deletes a flop it proved constant together with its name, and the bit could
not be told from a live one) and optimises it: `opt -full` (constant folding, flops whose value
cannot leave their reset value, also through a hold/enable feedback), `wreduce` (an adder or
multiplier of narrower operands drives the high bits of its wide result with 0) and `opt -full`
again. A bit the optimised netlist drives with a constant 0 or 1 can never toggle once reset is
released, whatever the stimulus: a bus wider than the configuration uses, a port of a unit the
configuration leaves out, a tied input, the high bits of a 32-bit sum of 13-bit fields. The code-coverage closure
(docs/coverage.md) leaves those bits out of the toggle goal and reports them apart.

Usage: constant_bits.py --filelist F [--gen-dir G] [--top NV_nvdla] --config C --out OUT_JSON
                        [--keep-hierarchy MOD,MOD]
  --filelist  the DUT's Verilog file list (paths relative to its folder; +incdir+ lines become
              include folders, other option lines are skipped)
  --gen-dir   the configuration's generated RTL folder (dla_cfg.svh, generated.f), if any
  --keep-hierarchy  modules left unflattened (v1's MAC array: flattened whole it needs over 14 GB);
              their bits are listed under every instance, constants crossing their ports are lost
Output (JSON): {"format": "dlaverif-constant-bits/1", "config": ..., "tool": ...,
  "signals": {"<Verilator hierarchy, e.g. TOP.NV_nvdla.u_pdp>": {"<signal>": [bit, ...]}},
  "declared": {"<hierarchy>": ["<every signal of the instance>", ...]}}
Bit numbers are the declared indices (a [31:5] vector's lowest bit is 5), as Verilator names
its toggle points ("sig[5]"); a 1-bit signal is bit 0 (Verilator names it "sig").
Exit status: 0 written, 1 Yosys failed, 2 bad arguments (a --keep-hierarchy module that is not in
the design among them) or no yosys.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutate"))
from gen_mutants import read_list  # noqa: E402  (the file-list reader the mutant flow uses)


PASSES = "setattr -set keep 1 w:\\*; opt -full; wreduce; opt -full"


def constant_bits(netlist, top_name):
    """(constant, declared): hierarchy -> signal -> constant bits; hierarchy -> every signal.

    Modules kept as hierarchy (--keep-hierarchy) stay cells of their parent: their signals are
    listed under every instance's path, as the flattened design would name them."""
    signals, declared = {}, {}

    def walk(module_name, prefix):
        module = netlist["modules"][module_name]
        for name, net in module["netnames"].items():
            if name.startswith("$"):  # yosys's own wires
                continue
            bits = net["bits"]
            path = prefix + net.get("attributes", {}).get("hdlname", name.lstrip("\\")).split(" ")
            hier = ".".join(["TOP", top_name] + path[:-1])
            signal = path[-1]
            declared.setdefault(hier, []).append(signal)
            const = [i for i, b in enumerate(bits) if b in ("0", "1")]
            if not const:
                continue
            offset, upto = net.get("offset", 0), net.get("upto", 0)
            bit_numbers = [offset + (len(bits) - 1 - i if upto else i) for i in const]
            signals.setdefault(hier, {})[signal] = sorted(bit_numbers)
        for name, cell in module.get("cells", {}).items():
            if cell["type"] in netlist["modules"]:  # a kept module's instance
                path = cell.get("attributes", {}).get("hdlname", name.lstrip("\\")).split(" ")
                walk(cell["type"], prefix + path)

    walk(top_name, [])
    return signals, {h: sorted(set(d)) for h, d in declared.items()}


def keep_hierarchy_command(modules):
    """Yosys command marking every specialisation of the named modules keep_hierarchy."""
    patterns = []
    for m in modules:
        # plain, "$paramod$<hash>\\m" and "$paramod\\m\\P=..." names
        patterns += [m, f"$paramod*\\{m}", f"$paramod*\\{m}\\*"]
    return f"setattr -mod -set keep_hierarchy 1 {' '.join(patterns)}; " if modules else ""


def main(argv):
    ap = argparse.ArgumentParser(description="List the constant bits of a configuration's RTL (Yosys).")
    ap.add_argument("--filelist", required=True, help="the DUT's Verilog file list")
    ap.add_argument("--gen-dir", help="the configuration's generated RTL folder (generated.f, dla_cfg.svh)")
    ap.add_argument("--top", default="NV_nvdla")
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep-hierarchy", default="",
                    help="comma-separated modules not flattened (big repeated blocks of large configurations: "
                         "optimised once per parameter set instead of once per instance; constants driven "
                         "into them from outside are then not seen)")
    a = ap.parse_args(argv[1:])
    if not os.path.isfile(a.filelist):
        print(f"constant_bits: file list {a.filelist} not found", file=sys.stderr)
        return 2
    if a.gen_dir and not os.path.isfile(os.path.join(a.gen_dir, "generated.f")):
        print(f"constant_bits: {a.gen_dir} holds no generated.f (not a generated RTL folder)", file=sys.stderr)
        return 2
    keep = [m for m in a.keep_hierarchy.split(",") if m]
    list_dir = os.path.dirname(os.path.abspath(a.filelist))
    sources = read_list(a.filelist, list_dir)
    # +incdir+ lines of the list (relative to its folder), as Verilator takes them
    incdirs = []
    with open(a.filelist) as f:
        for line in f:
            if line.strip().startswith("+incdir+"):
                for d in line.strip()[len("+incdir+"):].split("+"):
                    if d:
                        incdirs.append("-I" + (d if os.path.isabs(d) else os.path.join(list_dir, d)))
    if a.gen_dir:
        gen_dir = os.path.abspath(a.gen_dir)
        sources += read_list(os.path.join(gen_dir, "generated.f"), gen_dir)
        incdirs.append(f"-I{gen_dir}")
    with tempfile.TemporaryDirectory() as tmp:
        netlist_path = os.path.join(tmp, "netlist.json")
        script = (f"read_verilog -sv {' '.join(incdirs)} {' '.join(sources)}; "
                  f"hierarchy -check -top {a.top}; proc; {keep_hierarchy_command(keep)}flatten; {PASSES}; "
                  f"write_json {netlist_path}")
        try:
            run = subprocess.run(["yosys", "-q", "-p", script], cwd=list_dir, capture_output=True, text=True)
        except FileNotFoundError:
            print("constant_bits: yosys is not installed (make setup installs it)", file=sys.stderr)
            return 2
        if run.returncode != 0:
            print(f"constant_bits [{a.config}]: yosys failed:\n{run.stdout}{run.stderr}", file=sys.stderr)
            return 1
        with open(netlist_path) as f:
            netlist = json.load(f)
    # A name that matched no module (Yosys only warns) would flatten it after all: refuse.
    names = [n.lstrip("\\") for n in netlist["modules"]]
    unknown = [m for m in keep if not any(n == m or n.endswith("\\" + m) or f"\\{m}\\" in n for n in names)]
    if unknown:
        print(f"constant_bits [{a.config}]: --keep-hierarchy names no module of the design: {', '.join(unknown)}",
              file=sys.stderr)
        return 2
    signals, declared = constant_bits(netlist, a.top)
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    out = {"format": "dlaverif-constant-bits/1", "config": a.config, "top": a.top,
           "tool": f"{version}: proc; {keep_hierarchy_command(keep)}flatten; {PASSES}", "signals": signals, "declared": declared}
    with open(a.out + ".tmp", "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(a.out + ".tmp", a.out)
    n = sum(len(b) for s in signals.values() for b in s.values())
    print(f"constant_bits [{a.config}]: {n} constant bits -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
