#!/usr/bin/env python3
"""Test of scripts/constant_bits.py on a hand-made design (Yosys; exit 77, skipped, without it).

The design holds each kind of bit the list must get right:
  * `held`: a flop whose next value is itself or 0 (a mode the parameter turns off), passed up
    and into another instance that reads it only in that mode - constant under every name; the
    optimiser keeps one name of connected wires, so the others are listed only because named
    wires are kept. (On small the `keep` pass adds 626 constant bits, the compression state of
    CSC among them; this small design does not reproduce the name loss, so planting the pass's
    removal does not fail this test - the wreduce and the live-bit checks do fail on theirs);
  * `sum`: a 32-bit sum of two 4-bit inputs - bits 5..31 constant (wreduce), 0..4 live;
  * `count`: a live counter - never listed;
  * `tied`: an output tied to 1 - constant.
A second instance of `leaf` (u_leaf2, its parameter given: a "$paramod" module) has the same bits. Run again with `--keep-hierarchy leaf`
(how large configurations are listed): the bits inside `leaf` are listed under both instances'
paths, while the parent's wire `h`, driven by a kept instance, is no longer seen as constant.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DESIGN = """
module leaf #(parameter bit MODE = 1'b0) (
  input  logic       clk, rstn, go,
  input  logic [3:0] a, b,
  output logic [7:0] held_out,
  output logic [31:0] sum,
  output logic [3:0] count,
  output logic       tied
);
  logic [7:0] held;
  always_ff @(posedge clk or negedge rstn)
    if (!rstn) begin held <= '0; count <= '0; end
    else begin
      if (go) held <= MODE ? held + 8'd1 : '0;
      count <= count + 4'd1;
    end
  assign held_out = held;
  assign sum  = 32'(a) + 32'(b);
  assign tied = 1'b1;
endmodule
module sink (input logic [7:0] x, input logic en, output logic y);
  assign y = en && x != '0;                 // x is read only when a mode is on (en tied 0 below)
endmodule
module top (input logic clk, rstn, go, input logic [3:0] a, b,
            output logic [31:0] s, output logic [3:0] c, output logic t, output logic y);
  logic [7:0] h;                            // the flop's value as the parent and the reader see it
  leaf u_leaf (.clk, .rstn, .go, .a, .b, .held_out(h), .sum(s), .count(c), .tied(t));
  sink u_sink (.x(h), .en(1'b0), .y);
  logic [31:0] s2;
  logic [3:0] c2;
  logic t2;
  logic [7:0] h2;
  leaf #(.MODE(1'b0)) u_leaf2 (.clk, .rstn, .go, .a, .b, .held_out(h2), .sum(s2), .count(c2), .tied(t2));
endmodule
"""


def main():
    if shutil.which("yosys") is None:
        print("SKIP: yosys is not installed (make setup installs it)")
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "design.sv"), "w") as f:
            f.write(DESIGN)
        with open(os.path.join(tmp, "files.f"), "w") as f:
            f.write("design.sv\n")
        out = os.path.join(tmp, "cb.json")

        def listed(*extra):
            run = subprocess.run([sys.executable, os.path.join(HERE, "constant_bits.py"), "--filelist",
                                  os.path.join(tmp, "files.f"), "--top", "top", "--config", "t", "--out", out,
                                  *extra], capture_output=True, text=True)
            if run.returncode != 0:
                failures.append(f"constant_bits.py {' '.join(extra)} exited {run.returncode}:\n{run.stdout}{run.stderr}")
                return None
            return json.load(open(out))

        for extra in ([], ["--keep-hierarchy", "leaf"]):
            got_list = listed(*extra)
            if got_list is None:
                continue
            signals = got_list["signals"]
            what = " ".join(extra) or "flattened"

            def expect(name, bits, why, hier="TOP.top.u_leaf"):
                got = signals.get(hier, {}).get(name, [])
                if got != bits:
                    failures.append(f"[{what}] {hier}.{name}: constant bits {got}, expected {bits} ({why})")
            for inst in ("TOP.top.u_leaf", "TOP.top.u_leaf2"):
                expect("held", list(range(8)), "a flop that cannot leave 0", inst)
                expect("sum", list(range(5, 32)), "high bits of a sum of 4-bit fields (wreduce); bits 0..4 live", inst)
                expect("count", [], "a live counter", inst)
                expect("tied", [0], "tied to 1", inst)
            expect("held_out", list(range(8)), "the constant flop under another name")
            if not extra:
                for hier, name in (("TOP.top", "h"), ("TOP.top.u_sink", "x")):
                    expect(name, list(range(8)), "the constant flop under another name; listed only with named wires kept",
                           hier)
            else:
                expect("h", [], "driven by a kept instance: not seen from the parent", "TOP.top")
                expect("h2", [], "driven by a kept instance of a parameter-specialised module", "TOP.top")
                if "keep_hierarchy" not in got_list.get("tool", ""):
                    failures.append(f"[{what}] the list's tool line does not say which modules were kept")
        # bad input: a kept module the design does not have (a typo would flatten it after all)
        typo = subprocess.run([sys.executable, os.path.join(HERE, "constant_bits.py"), "--filelist",
                               os.path.join(tmp, "files.f"), "--top", "top", "--config", "t", "--out",
                               os.path.join(tmp, "typo.json"), "--keep-hierarchy", "leaf,lef"],
                              capture_output=True, text=True)
        if typo.returncode != 2 or "lef" not in typo.stderr or "leaf" in typo.stderr.split(":")[-1] \
                or os.path.exists(os.path.join(tmp, "typo.json")):
            failures.append(f"unknown --keep-hierarchy module: exit {typo.returncode}, stderr {typo.stderr!r}")
        # bad input: a missing file list is refused with exit 2 and a message naming it
        bad = subprocess.run([sys.executable, os.path.join(HERE, "constant_bits.py"), "--filelist",
                              os.path.join(tmp, "nope.f"), "--top", "top", "--config", "t", "--out", out],
                             capture_output=True, text=True)
        if bad.returncode != 2 or "nope.f" not in bad.stderr:
            failures.append(f"missing file list: exit {bad.returncode}, stderr {bad.stderr!r}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS: constant_bits.py lists held flops, reduced sum bits and tied bits, and no live bit")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
