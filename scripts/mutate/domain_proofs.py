#!/usr/bin/env python3
"""Proofs that the input domains of local_equiv.py --assume hold (regress/plans/domains/).

A domain file restricts an instance's inputs to what the unit can give it; a waiver proved with it
is only as good as that claim. Where the claim is about arithmetic (what a widening, a square or a
chain of sums can produce), it is proved here with Yosys' SAT solver: a wrapper in
regress/plans/domains/proofs/ computes the instance's operands from free inputs with the RTL's
own modules and drives `bad` when one is outside the domain; the proof is that `bad` stays 0.

Usage: domain_proofs.py [--repo DIR] [--plant]
--plant narrows each domain by one value the unit does produce (a copy, the files are unchanged)
and expects every proof to fail: the check can fail.
Exit 0 when every proof (or with --plant, every planted failure) comes out as expected, 1 when
one does not (a failed proof prints its counterexample), 2 when a file is missing, 77 (skipped)
without yosys.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# name -> (wrapper, RTL sources, {module name in the wrapper: domain file}, plant: (file, old, new))
PROOFS = {
    "cdp_window_lane": (
        "regress/plans/domains/proofs/cdp_window_lane.sv",
        ["rtl/common/dla_fp_widen.sv"],
        {"dom_lane": "regress/plans/domains/fp32_window_lane.v"},
        # fp16 subnormals reach 2^-24 (biased exponent 103)
        ("regress/plans/domains/fp32_window_lane.v", "a[30:23] >= 8'd103", "a[30:23] >= 8'd104"),
    ),
    "cdp_window_squares": (
        "regress/plans/domains/proofs/cdp_window_squares.sv",
        ["rtl/common/dla_fp_widen.sv", "rtl/common/dla_fp_mul.sv"],
        {"dom_sq": "regress/plans/domains/fp32_window_squares.v"},
        # 65504^2 has biased exponent 158
        ("regress/plans/domains/fp32_window_squares.v", "a[30:23] <= 8'd158", "a[30:23] <= 8'd157"),
    ),
    "cdp_window_sums": (
        "regress/plans/domains/proofs/cdp_window_sums.sv",
        ["rtl/common/dla_fp_add.sv", "regress/plans/domains/proofs/cdp_window_chain.sv"],
        {"dom_sq": "regress/plans/domains/fp32_window_squares.v",
         "dom_sum": "regress/plans/domains/fp32_window_sums.v"},
        # sums of the infinite input's square reach exponent 191 and more
        ("regress/plans/domains/fp32_window_sums.v", "a[30:23] <= 8'd194", "a[30:23] <= 8'd190"),
    ),
    "cdp_lut_input": (
        "regress/plans/domains/proofs/cdp_lut_input.sv",
        ["rtl/common/dla_fp_widen.sv", "rtl/common/dla_fp_add.sv", "regress/plans/domains/proofs/cdp_window_chain.sv"],
        {"dom_sq": "regress/plans/domains/fp32_window_squares.v",
         "dom_lut": "regress/plans/domains/fp32_lut_input.v"},
        # an infinite input widens to 2047 * 2^21
        ("regress/plans/domains/fp32_lut_input.v", "a[30:0] == 31'h4f7fe000", "a[30:0] == 31'h4f7fe001"),
    ),
}


def run(name, repo, work, plant):
    wrapper, sources, domains, planted = PROOFS[name]
    lines = [f"read_verilog -sv {os.path.join(repo, s)}" for s in sources]
    for module, path in domains.items():
        src = os.path.join(repo, path)
        if plant and path == planted[0]:
            text = open(src).read()
            if planted[1] not in text:
                return f"plant of {name}: '{planted[1]}' not in {path}"
            src = os.path.join(work, name + "_planted.v")
            open(src, "w").write(text.replace(planted[1], planted[2]))
        lines += [f"read_verilog -sv {src}", f"rename local_equiv_domain {module}"]
    top = name
    lines += [f"read_verilog -sv {os.path.join(repo, wrapper)}", f"hierarchy -top {top}", "proc", "flatten",
              "opt -fast", f"sat -verify -prove bad 0 -show-inputs {top}"]
    script = os.path.join(work, name + ".ys")
    open(script, "w").write("\n".join(lines) + "\n")
    log = os.path.join(work, name + ".log")
    subprocess.run(["yosys", "-q", "-l", log, "-s", script], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    text = open(log).read() if os.path.exists(log) else ""
    if "SUCCESS" in text:
        return None if not plant else f"{name}: the planted domain ({planted[2]}) was still proved"
    if "model found: FAIL" in text:
        # the work directory goes away: the counterexample itself is the message
        model = [l.strip() for l in text.splitlines() if re.match(r"\s+\\\S+\s+\S+\s+\S+\s+[01x]+\s*$", l)]
        return None if plant else (f"{name}: an operand outside the domain for the inputs " +
                                   ", ".join(f"{l.split()[0].lstrip(chr(92))} = 0x{l.split()[2]}" for l in model))
    err = [l for l in text.splitlines() if "ERROR" in l]
    return f"{name}: yosys gave no verdict ({err[0] if err else 'no SAT result in its log'})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--plant", action="store_true", help="narrow each domain and expect the proofs to fail")
    a = ap.parse_args()
    if shutil.which("yosys") is None:
        print("domain_proofs: skipped, yosys not found on PATH (Debian's yosys package: make setup)", file=sys.stderr)
        return 77
    repo = os.path.abspath(a.repo)
    for name, (wrapper, sources, domains, planted) in PROOFS.items():
        for f in [wrapper] + sources + list(domains.values()):
            if not os.path.isfile(os.path.join(repo, f)):
                print(f"domain_proofs: {name}: {os.path.join(repo, f)} not found (--repo must be the project's root)",
                      file=sys.stderr)
                return 2
    bad = []
    with tempfile.TemporaryDirectory(prefix="domain_proofs_") as work:
        for name in PROOFS:
            err = run(name, repo, work, a.plant)
            print(f"{name}: {'FAILED: ' + err if err else ('planted domain refuted' if a.plant else 'proved')}")
            if err:
                bad.append(err)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
