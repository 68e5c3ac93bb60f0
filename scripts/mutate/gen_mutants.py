#!/usr/bin/env python3
"""Generate the mutant version of one RTL unit with Yosys `mutate`.

The unit (its top module and everything below it) is elaborated inside NV_nvdla with the
configuration's parameters, flattened, and N mutations are inserted behind one run-time
selector (`mutate -ctrl mutsel W k`): mutsel == k enables mutation k, 0 is the unmutated
design. The result is written back as Verilog under the unit's original module name, so the
mutant model is the normal file list with the unit's top file swapped for this one.

Two additions the simulator needs:
  * `mutsel` is an internal wire marked /*verilator public_flat_rw*/ (not a port: NV_nvdla
    keeps NVDLA's port list); the harness sets it before reset.
  * `mut_active[k]` (public, read at the end of a run) records whether mutation k's value
    ever differed from the original value after reset: the activation probe the grader uses
    to tell "not activated" from "activated but not propagated" survivors.

The unit may sit anywhere below NV_nvdla (the conv units are inside dla_conv). When its top
module is elaborated more than once with different parameters (dla_cmac: CMAC_A and CMAC_B),
--instance names the instance whose elaborated module is mutated. The other instances must
stay unmutated, so <top>_mutants.v then holds three modules: the mutated netlist as
<top>__mutants, the original source renamed <top>__original, and <top> itself, a wrapper with
the original header that instantiates the mutants when its parameters are the chosen
instance's values and the original otherwise.

Outputs in --out: <top>_mutants.v, mutants.json (one record per mutant: mode, cell, port,
bit, wire, source locations), filelist.f (the mutant model's sources, absolute paths).
"""
import argparse
import json
import os
import re
import subprocess
import sys


def read_list(path, base):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith(("#", "//", "-", "+")):
                continue
            out.append(line if os.path.isabs(line) else os.path.join(base, line))
    return out


def fail(msg):
    print(f"gen_mutants: {msg}", file=sys.stderr)
    sys.exit(2)


def run_yosys(script, workdir, log_name):
    path = os.path.join(workdir, log_name + ".ys")
    with open(path, "w") as f:
        f.write(script)
    log = os.path.join(workdir, log_name + ".log")
    with open(log, "w") as lf:
        r = subprocess.run(["yosys", "-q", "-s", path], stdout=lf, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        with open(log) as lf:
            sys.stderr.write(lf.read()[-4000:])
        fail(f"yosys failed ({log})")


def module_parameters(source, module):
    """Names of the parameters in `module`'s #( ... ) header (the instance passes them)."""
    text = open(source).read()
    m = re.search(r"\bmodule\s+" + re.escape(module) + r"\s*#\s*\((.*?)\)\s*\(", text, re.S)
    if not m:
        return []
    header = re.sub(r"//[^\n]*", "", m.group(1))
    return re.findall(r"\bparameter\b[^=,]*?\b(\w+)\s*=", header)


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def module_header(source, module):
    """`module <module> #(...) (...);` of `source` without comments (the wrapper's header)."""
    text = strip_comments(open(source).read())
    m = re.search(r"\bmodule\s+" + re.escape(module) + r"\b\s*", text)
    if not m:
        fail(f"{source}: no module {module}")

    def group_end(i):  # text[i] == "(": index after its matching ")"
        depth = 0
        for j in range(i, len(text)):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                return j + 1
        fail(f"{source}: unbalanced parentheses in module {module}'s header")
    i = m.end()
    if text[i] == "#":
        i = group_end(text.index("(", i))
    i = group_end(text.index("(", i))
    return text[m.start():text.index(";", i) + 1]


def rtlil_const(value):
    """An RTLIL parameter value (`8`, `32'00..1000`, `"text"`) as a Verilog literal."""
    m = re.fullmatch(r"(\d+)'([01xz]+)", value)
    if m:
        return f"{m.group(1)}'b{m.group(2)}"
    return value


def instance_module(dump_file, instance, top):
    """The elaborated module of the cell named `instance` whose module is (a variant of) `top`."""
    types = set()
    for line in open(dump_file):
        m = re.match(r"\s*cell (\S+) \\" + re.escape(instance) + r"$", line.rstrip())
        if m and (m.group(1) == top or m.group(1).endswith("\\" + top)):
            types.add(m.group(1))
    if len(types) != 1:
        fail(f"expected one instance '{instance}' of {top} in NV_nvdla, found modules {sorted(types)}")
    return types.pop()


def module_parameter_values(dump_file):
    """`parameter \\NAME VALUE` lines of a `dump` of one module -> {NAME: Verilog literal}."""
    values = {}
    for line in open(dump_file):
        m = re.match(r"\s*parameter \\(\w+) (.+)$", line.rstrip())
        if m:
            values[m.group(1)] = rtlil_const(m.group(2))
    return values


def wrapper(top, header, params, values, ports):
    """<top>: the original header; the mutants where the parameters are the mutated
    instance's, the original module elsewhere."""
    cond = " && ".join(f"({p} == {values[p]})" for p in params if p in values) or "1"
    conns = ", ".join(f".{p}({p})" for p in ports)
    passed = ", ".join(f".{p}({p})" for p in params)
    return (f"{header}\n"
            f"  if ({cond}) begin : g_mutants\n"
            f"    {top}__mutants u_mutants ({conns});\n"
            f"  end else begin : g_original\n"
            f"    {top}__original " + (f"#({passed}) " if passed else "") + f"u_original ({conns});\n"
            f"  end\n"
            f"endmodule\n")


MUT_ARG = re.compile(r"-(\w+) (\S+)")


def parse_mutation(line):
    """A `mutate -ctrl mutsel W k -mode ... -src ...` line -> dict."""
    rec = {"src": []}
    tokens = line.split()
    i = 1
    while i < len(tokens):
        key = tokens[i].lstrip("-")
        if key == "ctrl":
            rec["id"] = int(tokens[i + 3])
            i += 4
            continue
        val = tokens[i + 1]
        if key == "src":
            rec["src"].append(val)
        else:
            rec[key] = val
        i += 2
    return rec


def relative_src(src, roots):
    for root, label in roots:
        if src.startswith(root + "/"):
            return label + src[len(root):]
    return src


SPAN = re.compile(r"^(.*):(\d+)\.(\d+)-(\d+)\.(\d+)$")
NAMED_CELL = re.compile(r"\$(/[^$]+?):(\d+)\$")


def keep_mutations(sampled, kept):
    """Copies Yosys' sampled mutations without those on a memory port's clock or read enable,
    numbering the rest 1..n; returns how many it dropped. A clock tied or inverted is not an RTL
    bug, and an asynchronous read port's enable is a constant 1 by construction (the registered
    read is a flop after it); Yosys 0.23 asserts on a memory whose ports then disagree."""
    lines = [l for l in open(sampled) if l.startswith("mutate ")]
    keep = [l for l in lines if " -port CLK " not in l and not (" -port EN " in l and " -cell $memrd" in l)]
    with open(kept, "w") as f:
        for i, l in enumerate(keep, 1):
            f.write(re.sub(r"-ctrl mutsel (\d+) \d+ ", lambda m: f"-ctrl mutsel {m.group(1)} {i} ", l, count=1))
    return len(lines) - len(keep)


def instance_prefix(cell):
    """'$flatten\\u_core.\\u_wdma.$and$...' -> '\\u_core.\\u_wdma' ('' for the unit's own cells)."""
    if not cell.startswith("$flatten"):
        return ""
    end = cell.find(".$")
    return cell[len("$flatten"):end] if end > 0 else ""


def module_files(records, relative):
    """Instance prefix -> source file of its module, learnt from the cells whose names carry
    their file ($op$<file>:<line>$n); Yosys' $procdff/$procmux cells do not."""
    files = {}
    for r in records:
        named = NAMED_CELL.search(r.get("cell", ""))
        if named:
            files.setdefault(instance_prefix(r["cell"]), relative(named.group(1)))
    return files


def best_location(srcs, cell, files, relative):
    """The span of the mutated cell itself. A flattened cell also carries the spans of the
    instance statements above it (in the parents' files), so only spans in the file of the
    cell's own module count; the cell's own line first, then the narrowest span."""
    real = [s for s in srcs if SPAN.match(s) and not s.endswith(":0.0-0.0")]
    named = NAMED_CELL.search(cell)
    path = relative(named.group(1)) if named else files.get(instance_prefix(cell))
    if path:
        same_file = [s for s in real if SPAN.match(s).group(1) == path]
        if not same_file:
            return path  # a cell Yosys made without a line number: the file is still known
        line = int(named.group(2)) if named else -1
        real = [s for s in same_file if int(SPAN.match(s).group(2)) == line] or same_file
    if not real:
        return srcs[-1] if srcs else ""

    def extent(s):
        _, l0, c0, l1, c1 = SPAN.match(s).groups()
        return (int(l1) - int(l0), int(c1) - int(c0) if l0 == l1 else 0)
    return min(real, key=extent)


def add_probes(text, count, width, clock, reset):
    """mutsel becomes public; mut_active[k] latches 'mutation k changes its signal'."""
    decl = f"  wire [{width - 1}:0] mutsel;"
    if decl not in text:
        fail("mutated netlist has no mutsel wire")
    text = text.replace(decl, f"  wire [{width - 1}:0] mutsel /*verilator public_flat_rw*/;", 1)
    sel = {}
    for m in re.finditer(r"assign (\S+) = mutsel == \d+'h([0-9a-f]+);", text):
        sel[m.group(1)] = int(m.group(2), 16)
    probes = {}
    for m in re.finditer(r"assign (.+?) = (\S+) \? (.+?) : (.+?);\n", text):
        k = sel.get(m.group(2))
        if k is not None and k not in probes:
            probes[k] = (m.group(4), m.group(3))  # (original, mutated)
    # Counted only once reset has been seen asserted: before it, the flops hold random
    # start-up values and would mark mutations as activated by state no test created. A unit
    # without a reset input (CBUF: RAMs and data registers only) is probed from the first clock.
    has_reset = re.search(r"\binput\s+(\[[^\]]*\]\s*)?" + re.escape(reset) + r"\s*;", text) is not None
    lines = [f"  reg [{count}:0] mut_active /*verilator public_flat_rd*/;",
             "  initial mut_active = 0;"]
    if has_reset:
        lines += ["  reg mut_reset_seen;",
                  "  initial mut_reset_seen = 0;",
                  f"  always @(posedge {clock}) if (!{reset}) mut_reset_seen <= 1'b1;"]
    lines += [f"  always @(posedge {clock}) begin",
              f"    if ({f'{reset} && mut_reset_seen' if has_reset else '1'}) begin"]
    for k in sorted(probes):
        orig, mutated = probes[k]
        lines.append(f"      if (({orig}) != ({mutated})) mut_active[{k}] <= 1'b1;")
    lines += ["    end", "  end"]
    idx = text.rstrip().rfind("endmodule")
    return text[:idx] + "\n".join(lines) + "\n" + text[idx:], sorted(probes), set(sel.values())


def replica_selection(module, prefixes):
    """The Yosys selection that leaves out the cells of instances PREFIX[k], k >= 1, for each
    instance array PREFIX (e.g. u_dp.g_lane): elements of one generate array are the same
    module, so a mutation of element k is the same code as one of element 0. Empty without
    prefixes (the whole unit, as Yosys samples it by default). Flattened cells are named
    `$flatten\\u_dp.\\g_lane[3].<cell>`; the pattern writes each escaping backslash as `*`."""
    if not prefixes:
        return ""
    sel = f" {module}/*"
    for p in prefixes:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", p):
            fail(f"--first-replica-only {p!r}: expected a dotted instance path such as u_dp.g_lane")
        sel += f" {module}/c:*" + ".*".join(p.split(".")) + "?[123456789]* %d"
    return sel


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtl-dir", required=True, help="rtl/ folder (filelist.f paths are relative to it)")
    ap.add_argument("--filelist", required=True)
    ap.add_argument("--gen-dir", required=True, help="build/gen/<cfg>/rtl")
    ap.add_argument("--top", required=True, help="the unit's top module, e.g. dla_bdma")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--instance", help="instance name of the top module to mutate, when the "
                    "top is elaborated more than once (other instances stay unmutated)")
    ap.add_argument("--sample-apart", action="store_true",
                    help="sample the mutations in a Yosys process of its own (less memory; "
                         "another sample than without it for the same seed)")
    ap.add_argument("--first-replica-only", action="append", default=[], metavar="PREFIX",
                    help="instance array (e.g. u_dp.g_lane) whose elements 1.. are left out of the "
                         "sample: they are the same module as element 0 (repeatable)")
    ap.add_argument("--clock", default="clk")
    ap.add_argument("--reset", default="rstn")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.count < 1:
        fail("--count must be >= 1")
    os.makedirs(a.out, exist_ok=True)
    rtl_dir = os.path.abspath(a.rtl_dir)
    gen_dir = os.path.abspath(a.gen_dir)
    sources = read_list(a.filelist, os.path.dirname(os.path.abspath(a.filelist)))
    generated = read_list(os.path.join(gen_dir, "generated.f"), gen_dir)
    top_file = None
    for s in sources:
        if re.search(r"^\s*module\s+" + re.escape(a.top) + r"\b", open(s).read(), re.M):
            top_file = s
    if not top_file:
        fail(f"no source file in {a.filelist} defines module {a.top}")

    files = " ".join(sources + generated)
    mods = os.path.join(a.out, "modules.txt")
    cells = os.path.join(a.out, "instances.txt")
    run_yosys(f"read_verilog -sv -I{gen_dir} {files}\nhierarchy -check -top NV_nvdla\n"
              f"tee -q -o {mods} ls\n" +
              (f"tee -q -o {cells} dump */{a.instance}\n" if a.instance else ""), a.out, "elaborate")
    names = [l.strip() for l in open(mods) if l.strip().endswith("\\" + a.top) or l.strip() == a.top]
    if a.instance:
        chosen = instance_module(cells, a.instance, a.top)
        if chosen not in names:
            fail(f"instance {a.instance}'s module {chosen} is not among {names}")
        names = [chosen]
    if len(names) != 1:
        fail(f"expected one elaborated instance module of {a.top} in NV_nvdla, found {names}"
             + ("; name the instance to mutate with --instance" if len(names) > 1 else ""))
    width = max(1, (a.count).bit_length())
    mutated = f"{a.top}__mutants"
    list_file = os.path.join(a.out, "mutations.ys")
    sampled_file = os.path.join(a.out, "sampled.ys")
    prepared = os.path.join(a.out, "prepared.il")
    netlist = os.path.join(a.out, "netlist.v")
    param_dump = os.path.join(a.out, "parameters.txt")
    sample_cmd = (f"mutate -list {a.count} -seed {a.seed} -ctrl mutsel {width} 1 -o {sampled_file}"
                  + replica_selection(mutated, a.first_replica_only))
    run_yosys(f"""read_verilog -sv -I{gen_dir} {files}
hierarchy -check -top NV_nvdla
{f"tee -q -o {param_dump} dump {names[0]}" if a.instance else ""}
rename {names[0]} {mutated}
hierarchy -top {mutated}
proc
flatten
opt_expr
opt_clean
{"" if a.sample_apart else sample_cmd}
write_rtlil {prepared}
""", a.out, "mutate")
    if a.sample_apart:
        # `mutate -list` enumerates every candidate of the flattened unit, and the process that
        # elaborated the whole NV_nvdla keeps most of its memory: sample in a fresh process. Yosys reads the design back with its cells in another order, so the sample
        # differs from the one-process flow's: existing models keep that flow (same seed, same
        # mutants as their recorded grades).
        run_yosys(f"""read_rtlil {prepared}
{sample_cmd}
""", a.out, "sample")
    dropped = keep_mutations(sampled_file, list_file)
    run_yosys(f"""read_rtlil {prepared}
script {list_file}
delete -port {mutated}/mutsel
opt_clean
write_verilog -noattr {netlist}
""", a.out, "insert")

    text = open(netlist).read()
    name = mutated if a.instance else a.top
    if not a.instance:
        text = text.replace(f"module {mutated}(", f"module {a.top}(", 1)
    records = [parse_mutation(l) for l in open(list_file) if l.startswith("mutate ")]
    text, probed, present = add_probes(text, len(records), width, a.clock, a.reset)
    params = module_parameters(top_file, a.top)
    header_end = text.index(");", text.index(f"module {name}(")) + 2
    if a.instance:
        # Only the chosen instance gets the mutants; the wrapper keeps the other instances on
        # the original source (renamed), selected by the parameter values of the chosen one.
        ports = [p.strip() for p in text[text.index(f"module {name}(") + len(name) + 8:header_end - 2].split(",")]
        values = module_parameter_values(param_dump)
        original = re.sub(r"\bmodule\s+" + re.escape(a.top) + r"\b", f"module {a.top}__original",
                          open(top_file).read())
        text = (text + "\n// " + os.path.basename(top_file) + f" with {a.top} renamed (the other instances)\n" +
                original + "\n// The wrapper: the mutants for instance " + a.instance + "'s parameters\n" +
                wrapper(a.top, module_header(top_file, a.top), params, values, ports))
    else:
        # The instance in NV_nvdla passes the original parameters; their values are already
        # elaborated into the netlist, so they are accepted and unused.
        text = (text[:header_end] + "\n" + "".join(f"  parameter {p} = 0;\n" for p in params) +
                text[header_end:])
    text = (f"// Generated by scripts/mutate/gen_mutants.py: {len(records)} mutations of {a.top}"
            + (f" (instance {a.instance})" if a.instance else "") +
            f"\n// behind mutsel (0 = unmutated). Do not edit.\n/* verilator lint_off UNUSEDPARAM */\n" + text)
    out_v = os.path.join(a.out, f"{a.top}_mutants.v")
    with open(out_v, "w") as f:
        f.write(text)

    roots = [(gen_dir, "gen/rtl"), (rtl_dir, "rtl")]
    relative = lambda path: relative_src(path, roots)
    files = module_files(records, relative)
    mutants = []
    for r in records:
        srcs = [relative(s) for s in r.get("src", [])]
        mutants.append({"id": r["id"], "mode": r.get("mode", ""), "cell": r.get("cell", ""),
                        "port": r.get("port", ""), "portbit": int(r.get("portbit", 0)),
                        "ctrlbit": int(r.get("ctrlbit", -1)), "wire": r.get("wire", ""),
                        "wirebit": int(r.get("wirebit", -1)), "sources": srcs,
                        "location": best_location(srcs, r.get("cell", ""), files, relative), "probe": r["id"] in probed,
                        # false: opt_clean removed the mutated cell (it drives nothing), so the
                        # model has no `mutsel == id` and mutant id is the unmutated design
                        "in_netlist": r["id"] in present})
    with open(os.path.join(a.out, "mutants.json"), "w") as f:
        json.dump({"top": a.top, "instance": a.instance or "", "seed": a.seed, "selector_width": width, "count": len(mutants),
                   "mutants": mutants}, f, indent=1)
    with open(os.path.join(a.out, "filelist.f"), "w") as f:
        for s in sources:
            if s != top_file:
                f.write(s + "\n")
        for g in generated:
            f.write(g + "\n")
        f.write(out_v + "\n")
    removed = [m["id"] for m in mutants if not m["in_netlist"]]
    print(f"gen_mutants: {len(mutants)} mutants of {a.top} ({len(probed)} with an activation probe"
          + (f"; {dropped} memory clock or read-enable mutations dropped" if dropped else "")
          + (f"; removed as dead logic: {removed}" if removed else "") + f") in {a.out}")


if __name__ == "__main__":
    main()
