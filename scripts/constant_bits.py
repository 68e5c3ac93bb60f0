#!/usr/bin/env python3
"""List the signal bits of one configuration's RTL that are constant by elaboration.

Yosys reads the RTL (rtl/filelist.f plus the configuration's generated register blocks),
flattens it under NV_nvdla and optimises it (`opt -full`: constant folding, flops whose value
cannot leave their reset value, also through a hold/enable feedback, unused logic); a bit the optimised netlist drives with a constant 0 or 1 can
never toggle once reset is released, whatever the stimulus: a bus wider than the configuration
uses, a port of a unit the configuration leaves out, a tied input. The code-coverage closure
(docs/coverage.md) leaves those bits out of the toggle goal and reports them apart.

Usage: constant_bits.py GEN_DIR OUT_JSON
  GEN_DIR  the configuration's generated RTL folder (dla_cfg.svh, generated.f)
Output (JSON): {"format": "dlaverif-constant-bits/1", "config": ..., "tool": ...,
  "signals": {"<Verilator hierarchy, e.g. TOP.NV_nvdla.u_pdp>": {"<signal>": [bit, ...]}},
  "declared": {"<hierarchy>": ["<every signal of the instance>", ...]}}
Bit numbers are the declared indices (a [31:5] vector's lowest bit is 5), as Verilator names
its toggle points ("sig[5]"); a 1-bit signal is bit 0 (Verilator names it "sig").
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = "NV_nvdla"


def sources(gen_dir, rtl_dir):
    """The file list's sources (relative to rtl/), then the generated register blocks."""
    skip = re.compile(r"^\s*($|#|//|[-+])")
    with open(os.path.join(rtl_dir, "filelist.f")) as f:
        out = [os.path.join(rtl_dir, l.strip()) for l in f if not skip.match(l)]
    with open(os.path.join(gen_dir, "generated.f")) as f:
        for l in f:
            if skip.match(l):
                continue
            p = l.strip()
            out.append(p if os.path.isabs(p) else os.path.join(gen_dir, p))
    return out


def constant_bits(netlist):
    """(constant, declared): hierarchy -> signal -> constant bits; hierarchy -> every signal."""
    top = netlist["modules"][TOP]
    signals, declared = {}, {}
    for name, net in top["netnames"].items():
        if name.startswith("$"):  # yosys's own wires
            continue
        bits = net["bits"]
        path = net.get("attributes", {}).get("hdlname", name.lstrip("\\")).split(" ")
        hier = ".".join(["TOP", TOP] + path[:-1])
        signal = path[-1]
        declared.setdefault(hier, []).append(signal)
        const = [i for i, b in enumerate(bits) if b in ("0", "1")]
        if not const:
            continue
        offset, upto = net.get("offset", 0), net.get("upto", 0)
        bit_numbers = [offset + (len(bits) - 1 - i if upto else i) for i in const]
        signals.setdefault(hier, {})[signal] = sorted(bit_numbers)
    return signals, {h: sorted(set(d)) for h, d in declared.items()}


def main(argv):
    if len(argv) != 3 or not os.path.isfile(os.path.join(argv[1], "generated.f")):
        print(f"usage: {argv[0]} GEN_DIR OUT_JSON  (GEN_DIR must hold generated.f and dla_cfg.svh)", file=sys.stderr)
        return 2
    gen_dir = os.path.abspath(argv[1])
    rtl_dir = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rtl"))
    config = os.path.basename(os.path.dirname(gen_dir))
    with tempfile.TemporaryDirectory() as tmp:
        netlist_path = os.path.join(tmp, "netlist.json")
        script = (f"read_verilog -sv -I{gen_dir} {' '.join(sources(gen_dir, rtl_dir))}; "
                  f"hierarchy -check -top {TOP}; proc; flatten; opt -full; write_json {netlist_path}")
        run = subprocess.run(["yosys", "-q", "-p", script], cwd=rtl_dir, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"constant_bits [{config}]: yosys failed:\n{run.stdout}{run.stderr}", file=sys.stderr)
            return 1
        with open(netlist_path) as f:
            netlist = json.load(f)
    signals, declared = constant_bits(netlist)
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    out = {"format": "dlaverif-constant-bits/1", "config": config, "top": TOP,
           "tool": f"{version}: proc; flatten; opt -full", "signals": signals, "declared": declared}
    with open(argv[2] + ".tmp", "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(argv[2] + ".tmp", argv[2])
    n = sum(len(b) for s in signals.values() for b in s.values())
    print(f"constant_bits [{config}]: {n} constant bits -> {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
