#!/usr/bin/env python3
"""Unit tests of gen_mutants.py's netlist helpers (no Yosys needed): which sampled mutations
are kept and how they are renumbered, and the activation probes of units with and without a
reset input. With Yosys: the whole flow on a toy NV_nvdla, sampling in one process and apart.

usage: gen_mutants_test.py"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_mutants  # noqa: E402


def mutate_line(ident, cell, port):
    return (f"mutate -ctrl mutsel 9 {ident} -mode inv -module m -cell {cell} -port {port} -portbit 0 "
            f"-src x.sv:1.1-1.2\n")


class KeepMutations(unittest.TestCase):
    def run_keep(self, lines):
        with tempfile.TemporaryDirectory() as d:
            sampled, kept = os.path.join(d, "sampled.ys"), os.path.join(d, "kept.ys")
            with open(sampled, "w") as f:
                f.writelines(lines)
            dropped = gen_mutants.keep_mutations(sampled, kept)
            return dropped, open(kept).read().splitlines()

    def test_memory_clock_and_read_enable_dropped_rest_renumbered(self):
        dropped, kept = self.run_keep([
            mutate_line(1, "$procmux$1", "Y"),
            mutate_line(2, "$memwr$\\ram$x.sv:3", "CLK"),
            mutate_line(3, "$memrd$\\ram$x.sv:4", "EN"),
            mutate_line(4, "$auto$proc_memwr.cc:45:proc_memwr$7", "EN"),   # a write enable: kept
            mutate_line(5, "$memrd$\\ram$x.sv:4", "ADDR"),
        ])
        self.assertEqual(dropped, 2)
        self.assertEqual([l.split()[4] for l in kept], ["1", "2", "3"])
        self.assertIn("-cell $auto$proc_memwr.cc:45:proc_memwr$7 -port EN", kept[1])
        self.assertIn("-cell $memrd$\\ram$x.sv:4 -port ADDR", kept[2])
        self.assertTrue(all(l.startswith("mutate -ctrl mutsel 9 ") for l in kept))

    def test_nothing_to_drop_keeps_the_list(self):
        lines = [mutate_line(i, f"$and$x.sv:{i}", "A") for i in (1, 2, 3)]
        dropped, kept = self.run_keep(lines)
        self.assertEqual(dropped, 0)
        self.assertEqual(kept, [l.rstrip("\n") for l in lines])


NETLIST = """module u(clk, {reset}a, y);
  input clk;
{reset_decl}  input a;
  output y;
  wire [1:0] mutsel;
  wire _1_;
  assign _1_ = mutsel == 2'h1;
  assign y = _1_ ? ~a : a;
endmodule
"""


class Probes(unittest.TestCase):
    def probe(self, with_reset):
        text = NETLIST.format(reset="rstn, " if with_reset else "", reset_decl="  input rstn;\n" if with_reset else "")
        out, probed, present = gen_mutants.add_probes(text, 1, 2, "clk", "rstn")
        self.assertEqual(probed, [1])
        self.assertEqual(present, {1})
        self.assertIn("if ((a) != (~a)) mut_active[1] <= 1'b1;", out)
        return out

    def test_unit_with_reset_counts_after_reset(self):
        out = self.probe(True)
        self.assertIn("if (!rstn) mut_reset_seen <= 1'b1;", out)
        self.assertIn("if (rstn && mut_reset_seen) begin", out)

    def test_unit_without_reset_counts_from_the_first_clock(self):
        out = self.probe(False)
        self.assertNotIn("rstn", out)
        self.assertIn("    if (1) begin", out)

TOY_UNIT = """module dla_toy_lane (input logic [1:0] a, input logic [1:0] b, output logic [1:0] y);
  assign y = (a & b) + a;
endmodule
module dla_toy #(parameter W = 24) (input logic clk, input logic rstn, input logic [W-1:0] a,
                                    input logic [W-1:0] b, output logic [W-1:0] y);
  logic [W-1:0] r, l;
  always_ff @(posedge clk or negedge rstn) if (!rstn) r <= '0; else r <= a + b;
  for (genvar i = 0; i < W / 2; i++) begin : g_el
    dla_toy_lane u_l (.a(a[2*i +: 2]), .b(r[2*i +: 2]), .y(l[2*i +: 2]));
  end
  assign y = r ^ l;
endmodule
"""
TOY_TOP = """module NV_nvdla (input logic clk, input logic rstn, input logic [23:0] a, input logic [23:0] b,
                 output logic [23:0] y);
  dla_toy u_toy (.clk(clk), .rstn(rstn), .a(a), .b(b), .y(y));
endmodule
"""


@unittest.skipUnless(shutil.which("yosys"), "yosys not installed")
class WholeFlow(unittest.TestCase):
    """gen_mutants.py on a toy NV_nvdla: the one-process flow and --sample-apart each give the
    requested mutants in a netlist with the unit's parameters; apart, sampling runs in its own
    Yosys process (its script and log exist) and the same seed still picks real cells."""

    def generate(self, d, out, extra, count=6):
        rtl = os.path.join(d, "rtl")
        gen = os.path.join(d, "gen")
        os.makedirs(rtl, exist_ok=True)
        os.makedirs(gen, exist_ok=True)
        for name, text in (("dla_toy.sv", TOY_UNIT), ("NV_nvdla.sv", TOY_TOP)):
            with open(os.path.join(rtl, name), "w") as f:
                f.write(text)
        with open(os.path.join(rtl, "filelist.f"), "w") as f:
            f.write("dla_toy.sv\nNV_nvdla.sv\n")
        open(os.path.join(gen, "generated.f"), "w").close()
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_mutants.py"),
                            "--rtl-dir", rtl, "--filelist", os.path.join(rtl, "filelist.f"), "--gen-dir", gen,
                            "--top", "dla_toy", "--count", str(count), "--seed", "3", "--out", out] + extra,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(out, "mutants.json")) as f:
            return json.load(f)

    def test_one_process_and_apart(self):
        with tempfile.TemporaryDirectory() as d:
            together = self.generate(d, os.path.join(d, "one"), [])
            apart = self.generate(d, os.path.join(d, "apart"), ["--sample-apart"])
            for m in (together, apart):
                self.assertEqual(m["count"], len(m["mutants"]))
                self.assertIn(m["count"], range(4, 7))  # 6 sampled, minus clock/enable ones dropped
                self.assertTrue(all(x["cell"] for x in m["mutants"]))
                self.assertTrue(any(x["in_netlist"] for x in m["mutants"]))
            self.assertFalse(os.path.exists(os.path.join(d, "one", "sample.ys")))
            with open(os.path.join(d, "apart", "sample.ys")) as f:
                self.assertIn("mutate -list 6 -seed 3", f.read())
            with open(os.path.join(d, "apart", "mutate.ys")) as f:
                self.assertNotIn("mutate -list", f.read(), "sampling apart must not also sample in the first process")
            for sub in ("one", "apart"):
                with open(os.path.join(d, sub, "dla_toy_mutants.v")) as f:
                    text = f.read()
                self.assertIn("module dla_toy(", text)
                self.assertIn("parameter W = 0;", text)

    def test_first_replica_only_samples_element_0_of_the_array(self):
        with tempfile.TemporaryDirectory() as d:
            every = self.generate(d, os.path.join(d, "every"), [], count=40)
            first = self.generate(d, os.path.join(d, "first"), ["--first-replica-only", "g_el"], count=40)
            lanes = lambda m: {re.search(r"g_el\[(\d+)\]", x["cell"]).group(1)
                               for x in m["mutants"] if "g_el[" in x["cell"]}
            self.assertTrue(lanes(every) - {"0"}, "the whole unit's sample reaches elements past 0")
            self.assertEqual(lanes(first), {"0"}, "only element 0 of g_el is sampled")
            self.assertTrue(any("g_el[" not in x["cell"] for x in first["mutants"]), "the rest of the unit stays")

    def test_bad_replica_prefix_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(AssertionError) as e:
                self.generate(d, os.path.join(d, "bad"), ["--first-replica-only", "g_el[0]"])
            self.assertIn("expected a dotted instance path", str(e.exception))


class ReplicaSelection(unittest.TestCase):
    def test_no_prefix_is_the_whole_unit(self):
        self.assertEqual(gen_mutants.replica_selection("m", []), "")

    def test_elements_past_0_left_out(self):
        self.assertEqual(gen_mutants.replica_selection("m", ["u_dp.g_lane"]),
                         " m/* m/c:*u_dp.*g_lane?[123456789]* %d")


if __name__ == "__main__":
    unittest.main()
