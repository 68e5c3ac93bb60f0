#!/usr/bin/env python3
"""Unit tests of gen_mutants.py's netlist helpers (no Yosys needed): which sampled mutations
are kept and how they are renumbered, and the activation probes of units with and without a
reset input.

usage: gen_mutants_test.py"""
import os
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


if __name__ == "__main__":
    unittest.main()
